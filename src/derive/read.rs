//! What the derivations share: reading a crawl's parts a batch at a time, and the hosts as the
//! summaries see them.

use super::redirects::Resolution;
use crate::parts::{OutDir, PartOutcome, PartRef};
use crate::tables::{Table, TableBuilder};
use anyhow::Result;
use arrow_array::RecordBatch;

/// A host of a crawl as the summaries see it: the capture that governs it (a file id of
/// `CrawlIndex::files` (`hosts`) and an offset), that capture's fetch outcome (an id of
/// `CrawlIndex::outcomes`) and how the host's redirects ended.
#[derive(Clone, Copy, Debug)]
pub struct Governs {
    /// The host, an id of the derivation's host names.
    pub host: u32,
    /// The site of the host this is (the site of its latest capture, for a host's figures).
    pub site: super::site::Site,
    /// The governing capture's `robots_files.wildcard_split` and `wildcard_with_ai`.
    pub wildcard_split: bool,
    pub wildcard_with_ai: bool,
    /// ... and its `robots_files.group_split`.
    pub group_split: Option<crate::robots::parse::Split>,
    /// ... and its `robots_files.cloudflare_managed` and `cloudflare_contradicted`.
    pub cloudflare_managed: bool,
    pub cloudflare_contradicted: bool,
    /// The capture that governs the host (the end of its chain of redirects, read through a
    /// revisit): an id of the derivation's file names, and its offset and fetch outcome.
    pub file: u32,
    pub offset: i64,
    pub outcome: Option<u32>,
    pub resolution: Resolution,
    /// How a revisit met on the way to the governing capture was resolved.
    pub revisit: Option<super::revisits::Revisit>,
    /// The outcome of the host's latest capture (where its redirects start).
    pub latest_outcome: Option<u32>,
    /// The host's file, whose lines the line summaries count: its latest capture, or the
    /// capture that one stands for when it is a revisit (`revisited_outcome` is its outcome then).
    pub own_file: u32,
    pub own_offset: i64,
    pub revisited_outcome: Option<u32>,
    /// The host's captures in the crawl.
    pub captures: u32,
    /// The host's registered domain (the host itself when it has none), an id of the
    /// derivation's domain names.
    pub domain: u32,
}

/// Hand `use_batch` each batch of `columns` of `parts`, in order, while another thread reads
/// and decodes the next ones (decoding is about half of a pass).
pub fn read_beside(
    out: &OutDir,
    parts: &[PartRef],
    columns: &[&str],
    dictionaries: &[&str],
    mut use_batch: impl FnMut(&PartRef, &RecordBatch) -> Result<()>,
) -> Result<()> {
    let (send, receive) = std::sync::mpsc::sync_channel::<(usize, RecordBatch)>(2);
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || -> Result<()> {
            for (k, part) in parts.iter().enumerate() {
                // A send fails only when `use_batch` failed: reading stops, and its error is
                // the one returned.
                out.each_batch(part, columns, dictionaries, |batch| {
                    send.send((k, batch))
                        .map_err(|_| anyhow::anyhow!("stopped reading {}", part.name()))
                })?;
            }
            Ok(())
        });
        let used = receive
            .iter()
            .try_for_each(|(k, batch)| use_batch(&parts[k], &batch));
        drop(receive);
        let read = reader
            .join()
            .map_err(|_| anyhow::anyhow!("the part reader panicked"))?;
        used?;
        read
    })
}

/// Captures' slots by file id, sorted by offset, with a cursor per file: a part
/// lists its captures nearly in offset order (by chunk), so a lookup is nearly always the
/// entry after the last one found (a hash table of a crawl's captures missed the cache on
/// every lookup).
pub struct Slots {
    by_file: Vec<Vec<(i64, u32)>>,
    at: Vec<usize>,
}

impl Slots {
    /// Slots from each file id's (offset, slot) pairs, sorted by offset.
    pub fn new(by_file: Vec<Vec<(i64, u32)>>) -> Self {
        let at = vec![0; by_file.len()];
        Slots { by_file, at }
    }

    /// The slot of the capture at `offset` of file `file`.
    pub fn find(&mut self, file: u32, offset: i64) -> Option<u32> {
        let f = file as usize;
        let v = self.by_file.get(f)?;
        let at = &mut self.at[f];
        for k in [*at, *at + 1] {
            if let Some(&(_, s)) = v.get(k).filter(|e| e.0 == offset) {
                *at = k;
                return Some(s);
            }
        }
        let k = v.binary_search_by_key(&offset, |e| e.0).ok()?;
        *at = k;
        Some(v[k].1)
    }
}

/// The part of a derived table for `crawl` holding `rows` (none when there are none, which
/// removes an earlier one on commit), and how many rows it holds.
pub fn summary_part<B: TableBuilder>(
    out: &OutDir,
    crawl: &str,
    mut rows: B,
) -> Result<(PartOutcome, u64)> {
    let n = rows.len() as u64;
    if n == 0 {
        return Ok((PartOutcome::Empty(out.part_path(B::NAME, crawl, crawl)), 0));
    }
    let mut part = out.part_writer(&B::desc(), crawl, crawl)?;
    rows.write_into(crawl, &mut part)?;
    Ok((part.finish()?, n))
}

/// The rows written to `table`, of `rows` written to `tables` in order (0 for one not there).
pub fn rows_of(tables: &[Table], rows: &[u64], table: Table) -> u64 {
    tables
        .iter()
        .position(|&t| t == table)
        .map_or(0, |k| rows[k])
}

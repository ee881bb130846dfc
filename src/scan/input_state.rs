//! The state of one input while its chunks arrive (in any order): counts, the crawl name once
//! it is known, and the input's part writers, to which each chunk's rows go as soon as the crawl
//! is known.

use crate::archive::container::reader::ContainerStats;
use crate::archive::problem::ErrorKind;
use crate::archive::source::input::{self, Container};
use crate::parts::{OutDir, PartOutcome, PartWriter};
use crate::rows::{ChunkOutput, RecordCounts};
use crate::tables::{Table, TableBuilder, TableSelection};
use anyhow::{Context, Result};
use std::time::Instant;

pub(super) struct InputState {
    pub(super) started: Instant,
    pub(super) started_wall: i64,
    pub(super) bytes: u64,
    pub(super) container: Container,
    /// Number of chunks, and how many have been delivered.
    pub(super) chunks: usize,
    pub(super) done: usize,
    /// Per chunk, once delivered: the `isPartOf` of its first warcinfo record.
    pub(super) hints: Vec<Option<Option<String>>>,
    /// The crawl's name as given or written, once it is known (from `--crawl`, or from the
    /// first chunk in file order that has a warcinfo record, all chunks before it being
    /// delivered); its folder name is [`InputState::crawl`].
    pub(super) crawl_name: Option<String>,
    /// Chunk outputs delivered before the crawl was known.
    pub(super) pending: Vec<ChunkOutput>,
    /// The input's parts, written chunk by chunk as outputs arrive.
    pub(super) writers: Writers,
    pub(super) counts: RecordCounts,
    pub(super) n_errors: u64,
    pub(super) error_kinds: std::collections::BTreeMap<ErrorKind, u64>,
    pub(super) failure: Option<String>,
    pub(super) stats: ContainerStats,
    /// Of a targeted input (`scan --records`): the list's lines it answers for.
    pub(super) listed: Option<u64>,
}

impl InputState {
    pub(super) fn new(
        bytes: u64,
        container: Container,
        chunks: usize,
        opts: &super::ScanOptions,
    ) -> Self {
        InputState {
            started: Instant::now(),
            started_wall: now_micros(),
            bytes,
            container,
            chunks,
            done: 0,
            hints: vec![None; chunks],
            crawl_name: None,
            pending: Vec::new(),
            writers: Writers {
                tables: opts.tables,
                parts: Default::default(),
                hosts: crate::rows::from_pages::host_counts::HostTotals::new(
                    (opts.hooks.host_spill)
                        .unwrap_or(crate::rows::from_pages::host_counts::HOST_SPILL_DEFAULT),
                ),
            },
            counts: RecordCounts::default(),
            n_errors: 0,
            error_kinds: Default::default(),
            failure: None,
            stats: ContainerStats::default(),
            listed: None,
        }
    }

    /// Count an output's `errors` rows (by kind) and take its failure if there is none yet.
    pub(super) fn count_errors(&mut self, output: &ChunkOutput) {
        self.n_errors += output.n_errors;
        for (k, n) in &output.error_kinds {
            *self.error_kinds.entry(*k).or_default() += n;
        }
        if self.failure.is_none() {
            self.failure = output.failure.clone();
        }
    }

    /// The crawl's folder name (after `crawl=`), once its name is known.
    pub(super) fn crawl(&self) -> Option<String> {
        self.crawl_name.as_deref().map(input::crawl_folder)
    }

    /// Take a chunk's output: count it, and write its rows now if the crawl is known (else keep
    /// them until it is). Returns whether this was the input's last chunk, and the outputs whose
    /// rows were written (emptied, for their buffers to be reused).
    pub(super) fn accept(
        &mut self,
        out: &OutDir,
        crawl_option: Option<&str>,
        id: &str,
        index: usize,
        output: ChunkOutput,
        stats: ContainerStats,
    ) -> Result<(bool, Vec<ChunkOutput>)> {
        self.counts.add(&output.counts);
        self.count_errors(&output);
        if let Some(h) = self.hints.get_mut(index) {
            *h = Some(output.crawl_hint.clone());
        }
        self.stats.add(&stats);
        self.done += 1;
        self.pending.push(output);
        let last = self.done >= self.chunks;
        if self.crawl_name.is_none() {
            self.crawl_name = match crawl_option {
                Some(c) => Some(c.to_string()),
                None => crawl_from_hints(&self.hints, last),
            };
        }
        let mut written = Vec::new();
        if let Some(crawl) = self.crawl() {
            for mut o in std::mem::take(&mut self.pending) {
                self.writers.write_output(out, &crawl, id, &mut o)?;
                written.push(o);
            }
        }
        Ok((last, written))
    }
}

/// The crawl named by the first warcinfo record in file order, once every chunk before it has
/// been delivered; `unknown` when all are delivered and none has one.
pub(super) fn crawl_from_hints(
    hints: &[Option<Option<String>>],
    all_delivered: bool,
) -> Option<String> {
    for h in hints {
        match h {
            None => return None,
            Some(Some(c)) => return Some(c.clone()),
            Some(None) => {}
        }
    }
    all_delivered.then(|| "unknown".to_string())
}

#[cfg(test)]
mod crawl_tests {
    use super::crawl_from_hints;

    #[test]
    fn crawl_waits_for_earlier_chunks() {
        let c = |s: &str| Some(Some(s.to_string()));
        // Chunk 1 has a warcinfo but chunk 0 is not in yet: unknown so far.
        assert_eq!(crawl_from_hints(&[None, c("B")], false), None);
        assert_eq!(
            crawl_from_hints(&[Some(None), c("B")], false),
            Some("B".into())
        );
        assert_eq!(crawl_from_hints(&[c("A"), None], false), Some("A".into()));
        assert_eq!(
            crawl_from_hints(&[Some(None), Some(None)], true),
            Some("unknown".into())
        );
        assert_eq!(crawl_from_hints(&[Some(None), None], false), None);
    }
}

/// The parts of one input, opened when their first row arrives.
#[derive(Default)]
pub(super) struct Writers {
    /// The tables written; the others' builders are dropped and their parts left alone.
    pub(super) tables: TableSelection,
    pub(super) parts: [Option<PartWriter>; Table::OF_INPUT.len()],
    /// `host_counts` of the chunks written so far, merged (written when the input ends;
    /// spilled to scratch runs past a limit, so memory stays bounded).
    pub(super) hosts: crate::rows::from_pages::host_counts::HostTotals,
}

impl Writers {
    /// Append the rows of `b` to its table's part (opened with the first rows).
    pub(super) fn put<B: TableBuilder>(
        &mut self,
        out: &OutDir,
        crawl: &str,
        id: &str,
        b: &mut B,
    ) -> Result<()> {
        if b.is_empty() || !self.tables.writes(B::TABLE) {
            return Ok(());
        }
        let part = &mut self.parts[B::TABLE.index()];
        if part.is_none() {
            *part = Some(out.part_writer(&B::desc(), crawl, id)?);
        }
        b.write_into(crawl, part.as_mut().expect("opened above"))
    }

    fn write_output(
        &mut self,
        out: &OutDir,
        crawl: &str,
        id: &str,
        o: &mut ChunkOutput,
    ) -> Result<()> {
        self.put(out, crawl, id, &mut o.robots_files)?;
        self.put(out, crawl, id, &mut o.robots_lines.agents)?;
        self.put(out, crawl, id, &mut o.robots_lines.rules)?;
        self.put(out, crawl, id, &mut o.robots_lines.app_directives)?;
        self.put(out, crawl, id, &mut o.robots_lines.acap)?;
        self.put(out, crawl, id, &mut o.agent_verdicts)?;
        self.put(out, crawl, id, &mut o.agent_verdict_runs)?;
        self.put(out, crawl, id, &mut o.page_signals)?;
        self.put(out, crawl, id, &mut o.pages)?;
        self.put(out, crawl, id, &mut o.llms_txt)?;
        self.put(out, crawl, id, &mut o.tdmrep_rules)?;
        let hosts = std::mem::take(&mut o.host_counts);
        if self.tables.writes(Table::HostCounts) && !hosts.is_empty() {
            self.hosts
                .merge(hosts, |n| {
                    out.scratch_path(&format!("hosts--{id}--{n}.run"))
                })
                .context("cannot write a host_counts run")?;
        }
        self.put(out, crawl, id, &mut o.errors)
    }

    /// Rows written to `table`; `None` when the table is not selected.
    pub(super) fn rows(&self, table: Table) -> Option<u64> {
        self.tables.writes(table).then(|| {
            self.parts[table.index()]
                .as_ref()
                .map_or(0, PartWriter::rows)
        })
    }

    /// Close every part; selected tables without rows give `Empty` (stale parts are removed on
    /// commit), tables not selected nothing (their parts stay as they are).
    pub(super) fn finish(self, out: &OutDir, crawl: &str, id: &str) -> Result<Vec<PartOutcome>> {
        let mut parts = Vec::new();
        for (table, w) in Table::OF_INPUT.into_iter().zip(self.parts) {
            if !self.tables.writes(table) {
                continue;
            }
            parts.push(match w {
                Some(w) => w.finish()?,
                None => PartOutcome::Empty(out.part_path(table.name(), crawl, id)),
            });
        }
        Ok(parts)
    }
}

fn now_micros() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

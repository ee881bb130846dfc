//! A crawl derived in partitions of its hosts, so that memory is bounded whatever the crawl's
//! size: the derivation holds each host it counts (about 430 bytes at its peak: BENCHMARKS.md,
//! "A whole crawl"), which for a crawl of 90 million captures would be gigabytes.
//!
//! Hosts are split by a hash of their registered domain (the host itself when it has none), so
//! that a domain's hosts are in one partition (`summary_agent_domains` counts domains) and the
//! redirects between them (`http://a.example` to `https://www.a.example`) stay inside one.
//!
//! 1. [`Wants`]: one pass over `robots_files` (a few columns) finds the captures a partition
//!    needs from another: the targets of its redirects and the originals of its revisits that
//!    are other partitions' captures, and on through those (a redirect target that redirects
//!    again); such a capture is a *guest* of the partition.
//! 2. [`route`]: one pass over the crawl's parts writes each row into its partition's spill
//!    parts (Parquet, in the output's local staging folder), and a guest's rows into the
//!    partitions it is a guest of too, in parts of their own. A row of a table keyed by capture
//!    (`agent_verdict_runs` has no host) goes where its capture's `robots_files` row went: the
//!    parts of an input have the same name in every table.
//! 3. Each partition is derived from its spill by the same code as a whole crawl, the counts
//!    of the summaries added up over the partitions ([`super::agent_summary::Agents`],
//!    [`super::lines::Lines`], [`super::hosts::HostCounts`]), the rows of `robots_hosts` and
//!    `page_verdicts` written into the crawl's one part of each. A guest is neither a host of
//!    the partition nor counted as a capture there ([`super::tally::GUEST`]).
//!
//! Reading and writing each row once more costs CPU (the route), which is why a crawl the
//! memory budget holds whole is derived whole (one partition: no route).

use super::redirects::{self, Capture};
pub use super::spill::Spill;
use crate::parts::OutDir;
use crate::parts::PartRef;
use crate::tables::Table;
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, BooleanArray, RecordBatch, StringArray, UInt32Array};
use rustc_hash::{FxHashMap, FxHashSet};
use std::hash::BuildHasher;
use std::path::PathBuf;
use std::sync::Arc;

/// Bytes the derivation holds per capture of a crawl at its peak: 1.73 GB for the 8.1 million
/// captures (4.0 million hosts) of ten generated 1 GiB crawls derived whole (BENCHMARKS.md),
/// 213 a capture. Planned with 240, `hosts --memory 512M` there peaked at 507 MiB in 6
/// partitions; 270 leaves room for what the readers hold beside the hosts (7 partitions).
const BYTES_PER_CAPTURE: u64 = 270;

/// Memory the process holds besides a partition's hosts: the binary, the readers' and writers'
/// buffers, the summaries' tallies.
const BASE_BYTES: u64 = 160 << 20;

/// The default `--memory`.
pub const DEFAULT_BUDGET: u64 = 1 << 30;

/// How much memory a derivation may hold.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Bytes (`--memory`).
    pub memory: u64,
    /// Derive every crawl in this many partitions, whatever its size (the tests' way to make
    /// small crawls take the partitioned path).
    pub partitions: Option<u32>,
    /// Close each spill part after this many rows (at a capture's end) rather than after 64 row
    /// groups of 8,192: the tests' way to make a small crawl's spill take many parts.
    pub spill_rows: Option<usize>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            memory: DEFAULT_BUDGET,
            partitions: None,
            spill_rows: None,
        }
    }
}

impl Budget {
    /// The budget left when `held` bytes are held already (what a scan still holds when its
    /// derivation starts), never below half of it.
    pub fn less(&self, held: u64) -> Budget {
        Budget {
            memory: self.memory.saturating_sub(held).max(self.memory / 2),
            ..*self
        }
    }

    /// The partitions a crawl of `captures` captures is derived in.
    pub fn partitions(&self, captures: u64) -> u32 {
        self.partitions
            .unwrap_or_else(|| partitions_for(captures, self.memory))
            .clamp(1, MAX_PARTITIONS)
    }
}

/// The most partitions a crawl is derived in: each holds up to a dozen spill files open while
/// the rows are routed, and a process may open 1,024 files by default. A crawl of 90 million
/// captures takes 27 with the default budget.
pub const MAX_PARTITIONS: u32 = 64;

/// The partitions a crawl of `captures` robots.txt captures is derived in, to hold `budget`
/// bytes: one when it fits whole, at most [`MAX_PARTITIONS`].
pub fn partitions_for(captures: u64, budget: u64) -> u32 {
    // A budget below the base still gets partitions of a sixteenth of it.
    let room = budget.saturating_sub(BASE_BYTES).max(budget / 16).max(1);
    let need = captures.saturating_mul(BYTES_PER_CAPTURE);
    need.div_ceil(room).clamp(1, u64::from(MAX_PARTITIONS)) as u32
}

/// The partition of a host whose registered domain is `domain` (else its name).
pub fn partition_of(domain: &str, partitions: u32) -> u32 {
    if partitions <= 1 {
        return 0;
    }
    (rustc_hash::FxBuildHasher.hash_one(domain) % u64::from(partitions)) as u32
}

/// The partition of the captures of `url` (by its host, as the `host` and `registered_domain`
/// columns of its captures hold them).
fn partition_of_url(url: &url::Url, partitions: u32) -> Option<u32> {
    let domain = crate::tables::registered_domain(url);
    match domain {
        Some(d) => Some(partition_of(&d, partitions)),
        None => crate::tables::host_of(url).map(|h| partition_of(&h, partitions)),
    }
}

/// A set of partitions (the partitions a capture is wanted by), one bit each: there are at
/// most [`MAX_PARTITIONS`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
struct Guests(u64);

const _: () = assert!(MAX_PARTITIONS <= u64::BITS);

impl Guests {
    fn of(p: u32) -> Self {
        Guests(1 << p)
    }

    /// Add `p`; whether it was new.
    fn add(&mut self, p: u32) -> bool {
        let before = self.0;
        self.0 |= 1 << p;
        self.0 != before
    }

    fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn without(self, p: u32) -> Self {
        Guests(self.0 & !(1 << p))
    }

    /// The partitions, in order.
    fn iter(self) -> impl Iterator<Item = u32> {
        (0..u64::BITS).filter(move |p| self.0 & (1 << p) != 0)
    }
}

/// A URL key, digest or host as [`Wants`] holds it: a 64-bit hash, 8 bytes where the text
/// takes 50 to 100. Two texts of one hash only make a capture a guest of a partition that
/// does not need it, which the derivation never matches (it matches the texts).
fn hashed(text: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(text)
}

/// The captures some partition needs from another: by URL key (redirect targets, revisits'
/// `WARC-Refers-To-Target-URI` and own URLs) and by payload digest (a revisit may stand for a
/// capture of any URL with its digest).
///
/// It holds about 30 bytes per capture wanted by another partition, the one part of the
/// derivation that grows with the crawl (BENCHMARKS.md, "A whole crawl").
#[derive(Default)]
pub struct Wants {
    by_key: FxHashMap<u64, Guests>,
    /// The hosts of `by_key`, as the `host` column writes them: only their captures' URLs are
    /// parsed.
    hosts: FxHashSet<u64>,
    by_digest: FxHashMap<u64, Guests>,
}

/// The `robots_files` columns the wants are found from.
const WANT_COLUMNS: [&str; 7] = [
    "url",
    "host",
    "registered_domain",
    "fetch_outcome",
    "redirect_location",
    "payload_digest",
    "refers_to_url",
];

/// A `robots_files` batch's columns the route reads (`None` for those a part lacks).
struct Rows<'b> {
    url: Option<&'b StringArray>,
    host: Option<&'b StringArray>,
    domain: Option<&'b StringArray>,
    outcome: Option<&'b StringArray>,
    location: Option<&'b StringArray>,
    digest: Option<&'b StringArray>,
    refers_to: Option<&'b StringArray>,
}

impl<'b> Rows<'b> {
    fn of(batch: &'b RecordBatch) -> Self {
        let text = |c: &str| batch.column_by_name(c).and_then(|a| a.as_string_opt());
        Rows {
            url: text("url"),
            host: text("host"),
            domain: text("registered_domain"),
            outcome: text("fetch_outcome"),
            location: text("redirect_location"),
            digest: text("payload_digest"),
            refers_to: text("refers_to_url"),
        }
    }

    fn get(a: Option<&'b StringArray>, i: usize) -> Option<&'b str> {
        a.filter(|a| a.is_valid(i)).map(|a| a.value(i))
    }

    /// Row `i`'s partition: by its registered domain, else its host (`None` without either:
    /// the derivation skips such a row).
    fn partition(&self, i: usize, partitions: u32) -> Option<u32> {
        let key = Self::get(self.domain, i).or_else(|| Self::get(self.host, i))?;
        Some(partition_of(key, partitions))
    }

    fn outcome(&self, i: usize) -> Option<&'b str> {
        Self::get(self.outcome, i)
    }

    /// Where row `i` redirects: the target's URL key and partition.
    fn target(&self, i: usize, partitions: u32) -> Option<(String, u32)> {
        let c = Capture {
            url: Self::get(self.url, i)?,
            redirect: self.outcome(i) == Some("redirect"),
            location: Self::get(self.location, i),
        };
        let (to, key) = redirects::target_url(&c)?;
        Some((key, partition_of_url(&to, partitions)?))
    }

    /// A URL column's value at row `i` as a key and partition.
    fn url_of(
        &self,
        a: Option<&'b StringArray>,
        i: usize,
        partitions: u32,
    ) -> Option<(String, u32)> {
        let u = url::Url::parse(Self::get(a, i)?).ok()?;
        let p = partition_of_url(&u, partitions)?;
        Some((redirects::url_key(u.as_str())?, p))
    }
}

impl Wants {
    /// Find what each of `partitions` partitions needs from the others, reading the crawl's
    /// `robots_files` parts once, then again (only the rows of wanted captures count) as long
    /// as a guest leads on to another (a chain of redirects through other partitions).
    pub fn find(out: &OutDir, parts: &[PartRef], partitions: u32) -> Result<Wants> {
        let mut wants = Wants::default();
        let mut first = true;
        // Bounded like a chain of redirects: each round follows guests one hop on.
        for _ in 0..=redirects::MAX_HOPS + 1 {
            let mut grew = false;
            super::read::read_beside(out, parts, &WANT_COLUMNS, &[], |_, batch| {
                let rows = Rows::of(batch);
                for i in 0..batch.num_rows() {
                    grew |= wants.note(&rows, i, partitions, first);
                }
                Ok(())
            })?;
            first = false;
            if !grew {
                break;
            }
        }
        Ok(wants)
    }

    /// Note what row `i` leads to: for its own partition on the first round, for the
    /// partitions it is a guest of on every round. Whether a want was added on a later round.
    fn note(&mut self, rows: &Rows<'_>, i: usize, partitions: u32, first: bool) -> bool {
        let Some(own) = rows.partition(i, partitions) else {
            return false;
        };
        let mut wanting = if first {
            Guests::of(own)
        } else {
            Guests::default()
        };
        wanting.0 |= self.guests_of(rows, i, own).0;
        if wanting.is_empty() {
            return false;
        }
        let mut grew = false;
        let is_revisit = rows.outcome(i) == Some("revisit");
        let mut want = |key: String, at: u32, wants: &mut Wants| {
            let others = wanting.without(at);
            if others.is_empty() {
                return;
            }
            let set = wants.by_key.entry(hashed(&key)).or_default();
            for p in others.iter() {
                grew |= set.add(p) && !first;
            }
            let url = url::Url::parse(&key).ok();
            if let Some(h) = url.as_ref().and_then(crate::tables::host_of) {
                wants.hosts.insert(hashed(&h));
            }
        };
        if let Some((key, at)) = rows.target(i, partitions) {
            want(key, at, self);
        }
        if is_revisit {
            for column in [rows.refers_to, rows.url] {
                if let Some((key, at)) = rows.url_of(column, i, partitions) {
                    want(key, at, self);
                }
            }
            if let Some(d) = Rows::get(rows.digest, i) {
                let set = self.by_digest.entry(hashed(d)).or_default();
                for p in wanting.iter() {
                    // Every partition's captures of the digest are candidates, its own too.
                    grew |= set.add(p) && !first;
                }
            }
        }
        grew
    }

    /// The partitions row `i` (of partition `own`) is a guest of.
    fn guests_of(&self, rows: &Rows<'_>, i: usize, own: u32) -> Guests {
        let by_key = Rows::get(rows.host, i)
            .filter(|h| self.hosts.contains(&hashed(h)))
            .and_then(|_| Rows::get(rows.url, i))
            .and_then(redirects::url_key)
            .and_then(|k| self.by_key.get(&hashed(&k)));
        let by_digest = (Rows::get(rows.digest, i)).and_then(|d| self.by_digest.get(&hashed(d)));
        let all = [by_key, by_digest].into_iter().flatten();
        Guests(all.fold(0, |set, g| set | g.0)).without(own)
    }

    /// No partition needs another's captures.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty() && self.by_digest.is_empty()
    }
}

/// The tables routed, besides `robots_files` and `pages`: keyed by capture, routed where the
/// capture's `robots_files` row went.
pub const BY_CAPTURE: [Table; 5] = [
    Table::AgentVerdictRuns,
    Table::RobotsAgents,
    Table::RobotsRules,
    Table::AppDirectives,
    Table::AcapFields,
];

/// The columns of `table` a partition's derivation reads (a part of an earlier schema lacks
/// some, and is read with those it has), each once.
fn columns_of(table: crate::tables::Table) -> Vec<&'static str> {
    use crate::tables::Table;
    let lists: Vec<&[&'static str]> = match table {
        Table::RobotsFiles => vec![
            &super::host_index::CAPTURE_COLUMNS,
            &super::host_index::TARGET_COLUMNS,
            &super::host_index::REVISIT_COLUMNS,
            &WANT_COLUMNS,
        ],
        Table::AgentVerdictRuns => vec![&super::agent_summary::RUN_COLUMNS],
        Table::RobotsAgents => vec![
            &super::lines::AGENT_COLUMNS,
            &super::page_verdicts::AGENT_LINE_COLUMNS,
        ],
        Table::RobotsRules => vec![
            &super::lines::RULE_COLUMNS,
            &super::page_verdicts::RULE_LINE_COLUMNS,
        ],
        Table::AppDirectives => vec![&super::extensions::APP_COLUMNS],
        Table::AcapFields => vec![&super::extensions::ACAP_COLUMNS],
        Table::Pages => vec![&super::page_verdicts::PAGE_COLUMNS, &["registered_domain"]],
        _ => vec![],
    };
    let mut columns: Vec<&'static str> = Vec::new();
    for c in lists.into_iter().flatten() {
        if !columns.contains(c) {
            columns.push(c);
        }
    }
    columns
}

/// The rows of `batch` at `rows`, in order.
fn take(batch: &RecordBatch, rows: &[u32]) -> Result<RecordBatch> {
    let indices = UInt32Array::from(rows.to_vec());
    Ok(arrow_select::take::take_record_batch(batch, &indices)?)
}

/// Where each capture of one input's `robots_files` part went: its partition and the
/// partitions it is a guest of, by file and offset (24 bytes a capture, sorted to be searched).
#[derive(Default)]
struct Placed {
    /// The part's `warc_file` names (an input's part names one or a few).
    files: Vec<Arc<str>>,
    /// (index into `files`, offset, partition, guests).
    at: Vec<(u32, i64, u32, Guests)>,
}

impl Placed {
    fn file_id(&mut self, file: &str) -> u32 {
        match self.files.iter().rposition(|f| &**f == file) {
            Some(i) => i as u32,
            None => {
                self.files.push(file.into());
                (self.files.len() - 1) as u32
            }
        }
    }

    /// Where the capture at `file` and `offset` went.
    fn get(&self, file: &str, offset: i64) -> Option<(u32, Guests)> {
        let id = self.files.iter().position(|f| &**f == file)? as u32;
        let at = self.at.binary_search_by(|e| (e.0, e.1).cmp(&(id, offset)));
        at.ok().map(|i| (self.at[i].2, self.at[i].3))
    }
}

/// The parts of the crawl a route reads, by table.
pub struct CrawlParts<'p> {
    pub robots_files: &'p [PartRef],
    /// The tables of [`BY_CAPTURE`], in its order.
    pub by_capture: [&'p [PartRef]; 5],
    pub pages: &'p [PartRef],
}

/// Write the crawl's rows into the partitions of `spill`.
pub fn route(out: &OutDir, parts: &CrawlParts<'_>, wants: &Wants, spill: &mut Spill) -> Result<()> {
    let partitions = spill.partitions;
    for part in parts.robots_files {
        let placed = route_captures(out, part, wants, spill)?;
        let name = part_name(part);
        for (table, of) in BY_CAPTURE.iter().zip(parts.by_capture) {
            // The same input's part of this table (none when it was not written).
            for p in of.iter().filter(|p| part_name(p) == name) {
                route_by_capture(out, p, *table, &placed, spill)?;
            }
        }
    }
    let page_columns = columns_of(Table::Pages);
    for part in parts.pages {
        out.each_batch(part, &page_columns, &[], |batch| {
            let rows = Rows::of(&batch);
            let mut by_partition: Vec<Vec<u32>> = vec![Vec::new(); partitions as usize];
            for i in 0..batch.num_rows() {
                if let Some(p) = rows.partition(i, partitions) {
                    by_partition[p as usize].push(i as u32);
                }
            }
            for (p, rows) in by_partition.iter().enumerate() {
                if !rows.is_empty() {
                    spill.write(p as u32, Table::Pages.name(), false, &take(&batch, rows)?)?;
                }
            }
            Ok(())
        })?;
    }
    spill.close()
}

fn part_name(p: &PartRef) -> String {
    p.name().rsplit('/').next().unwrap_or_default().to_string()
}

/// Route one `robots_files` part: each row to its partition, and with `_guest` set to those it
/// is a guest of.
fn route_captures(
    out: &OutDir,
    part: &PartRef,
    wants: &Wants,
    spill: &mut Spill,
) -> Result<Placed> {
    let partitions = spill.partitions;
    let mut placed = Placed::default();
    let columns = columns_of(Table::RobotsFiles);
    out.each_batch(part, &columns, &[], |batch| {
        let rows = Rows::of(&batch);
        let files = batch
            .column_by_name("warc_file")
            .and_then(|a| a.as_string_opt::<i32>());
        let offsets = batch
            .column_by_name("warc_offset")
            .and_then(|a| a.as_primitive_opt::<Int64Type>());
        let n = partitions as usize;
        let (mut own, mut guests): (Vec<Vec<u32>>, Vec<Vec<u32>>) =
            (vec![Vec::new(); n], vec![Vec::new(); n]);
        for i in 0..batch.num_rows() {
            let Some(p) = rows.partition(i, partitions) else {
                continue;
            };
            own[p as usize].push(i as u32);
            let guest_of = if wants.is_empty() {
                Guests::default()
            } else {
                wants.guests_of(&rows, i, p)
            };
            for q in guest_of.iter() {
                guests[q as usize].push(i as u32);
            }
            if let (Some(f), Some(o)) = (files, offsets) {
                if f.is_valid(i) && o.is_valid(i) {
                    let file = placed.file_id(f.value(i));
                    placed.at.push((file, o.value(i), p, guest_of));
                }
            }
        }
        for p in 0..partitions {
            for (rows, guest) in [(&own[p as usize], false), (&guests[p as usize], true)] {
                if rows.is_empty() {
                    continue;
                }
                let taken = take(&batch, rows)?;
                let flag = Arc::new(BooleanArray::from(vec![guest; rows.len()]));
                let mut columns = taken.columns().to_vec();
                let mut fields: Vec<arrow_schema::FieldRef> =
                    taken.schema().fields().iter().cloned().collect();
                columns.push(flag);
                fields.push(Arc::new(arrow_schema::Field::new(
                    super::host_index::GUEST_COLUMN,
                    arrow_schema::DataType::Boolean,
                    false,
                )));
                let schema = Arc::new(arrow_schema::Schema::new(fields));
                let with_flag = RecordBatch::try_new(schema, columns)?;
                spill.write(p, Table::RobotsFiles.name(), guest, &with_flag)?;
            }
        }
        Ok(())
    })?;
    // Written in record order, mostly sorted already; a capture twice keeps its first place.
    placed.at.sort_by_key(|e| (e.0, e.1));
    placed.at.dedup_by_key(|e| (e.0, e.1));
    placed.at.shrink_to_fit();
    Ok(placed)
}

/// Route one part of a table keyed by capture where its captures went.
fn route_by_capture(
    out: &OutDir,
    part: &PartRef,
    table: crate::tables::Table,
    placed: &Placed,
    spill: &mut Spill,
) -> Result<()> {
    let n = spill.partitions as usize;
    let columns = columns_of(table);
    let table = table.name();
    out.each_batch(part, &columns, &[], |batch| {
        let files = batch
            .column_by_name("warc_file")
            .and_then(|a| a.as_string_opt::<i32>())
            .with_context(|| super::tally::missing(part, "warc_file"))?;
        let offsets = batch
            .column_by_name("warc_offset")
            .and_then(|a| a.as_primitive_opt::<Int64Type>())
            .with_context(|| super::tally::missing(part, "warc_offset"))?;
        let (mut own, mut guests): (Vec<Vec<u32>>, Vec<Vec<u32>>) =
            (vec![Vec::new(); n], vec![Vec::new(); n]);
        let mut key: Option<(&str, i64)> = None;
        let mut at: Option<(u32, Guests)> = None;
        for i in 0..batch.num_rows() {
            if !(files.is_valid(i) && offsets.is_valid(i)) {
                continue;
            }
            let (f, o) = (files.value(i), offsets.value(i));
            // A capture's rows are together: look it up once.
            if key != Some((f, o)) {
                at = placed.get(f, o);
                key = Some((f, o));
            }
            // A row of a capture `robots_files` does not have counts for no host: left out.
            let Some((p, set)) = at else {
                continue;
            };
            own[p as usize].push(i as u32);
            for q in set.iter() {
                guests[q as usize].push(i as u32);
            }
        }
        for p in 0..n {
            for (rows, guest) in [(&own[p], false), (&guests[p], true)] {
                if !rows.is_empty() {
                    spill.write(p as u32, table, guest, &take(&batch, rows)?)?;
                }
            }
        }
        Ok(())
    })
}

/// A partition's parts, as the derivation reads them.
pub struct PartitionParts {
    pub robots_files: Vec<PartRef>,
    /// By table of [`BY_CAPTURE`]: the own parts, then the guests'.
    pub own: [Vec<PartRef>; 5],
    pub guests: [Vec<PartRef>; 5],
    pub pages: Vec<PartRef>,
}

impl PartitionParts {
    /// The parts of partition folder `dir` (opened as `out`).
    pub fn of(out: &OutDir) -> Result<Self> {
        let list = |table: &str| -> Result<(Vec<PartRef>, Vec<PartRef>)> {
            let parts: Vec<PartRef> = out.table_parts(table)?.into_iter().map(|p| p.1).collect();
            Ok(parts
                .into_iter()
                .partition(|p| !part_name(p).starts_with("part-guest")))
        };
        let (own_files, guest_files) = list(Table::RobotsFiles.name())?;
        let mut own: [Vec<PartRef>; 5] = Default::default();
        let mut guests: [Vec<PartRef>; 5] = Default::default();
        for (k, t) in BY_CAPTURE.iter().enumerate() {
            (own[k], guests[k]) = list(t.name())?;
        }
        Ok(PartitionParts {
            robots_files: own_files.into_iter().chain(guest_files).collect(),
            own,
            guests,
            pages: list(Table::Pages.name())?.0,
        })
    }
}

/// Where partition folders go: the output's staging folder (local, an `s3://` output's too).
pub fn spill_root(out: &OutDir, crawl: &str) -> PathBuf {
    out.scratch_path(&format!(
        "derive-{}",
        crate::archive::source::input::crawl_folder(crawl)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crawl_the_budget_holds_is_one_partition_and_a_larger_one_more_up_to_the_most() {
        assert_eq!(partitions_for(1_000_000, DEFAULT_BUDGET), 1);
        // Ten times the benchmark: 8.1 million captures.
        assert_eq!(partitions_for(8_100_300, DEFAULT_BUDGET), 3);
        assert_eq!(partitions_for(8_100_300, 512 << 20), 6);
        assert_eq!(partitions_for(90_000_000, DEFAULT_BUDGET), 27);
        assert_eq!(partitions_for(u64::MAX, 1), MAX_PARTITIONS);
        assert_eq!(partitions_for(0, 0), 1);
    }

    #[test]
    fn guests_are_a_set_of_partitions_in_order() {
        let mut g = Guests::default();
        assert!(g.is_empty());
        assert!(g.add(63));
        assert!(g.add(0));
        assert!(!g.add(63));
        assert!(g.add(5));
        assert_eq!(g.iter().collect::<Vec<_>>(), [0, 5, 63]);
        assert_eq!(g.without(5).iter().collect::<Vec<_>>(), [0, 63]);
        assert_eq!(Guests::of(7).iter().collect::<Vec<_>>(), [7]);
    }

    #[test]
    fn a_placed_capture_is_found_by_file_and_offset_and_no_other() {
        let mut placed = Placed::default();
        for (file, offset, p) in [("b.warc", 9, 1), ("a.warc", 5, 2), ("b.warc", 3, 0)] {
            let id = placed.file_id(file);
            placed.at.push((id, offset, p, Guests::of(p + 1)));
        }
        placed.at.sort_by_key(|e| (e.0, e.1));
        assert_eq!(placed.files.len(), 2);
        assert_eq!(placed.get("b.warc", 9), Some((1, Guests::of(2))));
        assert_eq!(placed.get("a.warc", 5), Some((2, Guests::of(3))));
        assert_eq!(placed.get("b.warc", 3), Some((0, Guests::of(1))));
        assert_eq!(placed.get("a.warc", 9), None);
        assert_eq!(placed.get("c.warc", 9), None);
    }

    #[test]
    fn what_is_held_is_taken_off_the_budget_down_to_half() {
        let b = Budget {
            memory: 512 << 20,
            ..Budget::default()
        };
        assert_eq!(b.less(100 << 20).memory, 412 << 20);
        assert_eq!(b.less(400 << 20).memory, 256 << 20);
        assert_eq!(b.less(0).memory, 512 << 20);
    }

    #[test]
    fn a_domains_hosts_share_a_partition_whatever_the_count() {
        for n in [1, 2, 7, 64] {
            let p = partition_of("example.co.uk", n);
            assert!(p < n);
            assert_eq!(p, partition_of("example.co.uk", n));
        }
        let u = url::Url::parse("https://WWW.Example.co.uk./robots.txt").unwrap();
        assert_eq!(
            partition_of_url(&u, 64),
            Some(partition_of("example.co.uk", 64))
        );
        let ip = url::Url::parse("http://192.0.2.1:8080/robots.txt").unwrap();
        assert_eq!(
            partition_of_url(&ip, 64),
            Some(partition_of("192.0.2.1", 64))
        );
    }
}

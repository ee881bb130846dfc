//! The summaries of a crawl's page signals, from its `page_signals` parts: responses and hosts
//! per directive (`summary_page_directives`), per robots header syntax
//! (`summary_page_headers`), per media type of responses with robots headers
//! (`summary_page_header_types`), per pair of opposite header and meta directives
//! (`summary_page_conflicts`), and whether a response's `X-Robots-Tag` and `Robots-Tag`
//! headers give each agent the same directives (`summary_page_header_pairs`).
//!
//! A response's rows are written together, so responses are counted by stamping each tally
//! with the response's serial number. Hosts are not together: each tally's (tally, host) pairs
//! are kept apart, each pair once in a row of the same host, and sorted without repeats when
//! they grow large and at the end, so memory grows with the distinct pairs, not the rows.

use super::plan::{CrawlParts, Derivation};
use super::read::{read_beside, summary_part};
use super::tally::{missing, Dict};
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartOutcome, PartRef};
use crate::signals::{Source, OPPOSITE_DIRECTIVES};
use crate::tables::{
    status_class, SummaryPageConflictRow, SummaryPageConflictsBuilder, SummaryPageDirectiveRow,
    SummaryPageDirectivesBuilder, SummaryPageHeaderPairRow, SummaryPageHeaderPairsBuilder,
    SummaryPageHeaderRow, SummaryPageHeaderTypeRow, SummaryPageHeaderTypesBuilder,
    SummaryPageHeadersBuilder, Table,
};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use rustc_hash::{FxHashMap, FxHashSet};

/// The tables derived here.
pub const TABLES: [Table; 5] = [
    Table::SummaryPageDirectives,
    Table::SummaryPageHeaders,
    Table::SummaryPageHeaderTypes,
    Table::SummaryPageConflicts,
    Table::SummaryPageHeaderPairs,
];

/// The page summaries, derived from `page_signals`.
pub struct PageSummaries;

impl Derivation for PageSummaries {
    fn from(&self) -> Table {
        Table::PageSignals
    }

    fn writes(&self) -> &'static [Table] {
        &TABLES
    }

    fn derive(&self, out: &OutDir, crawl: &str, parts: &CrawlParts<'_>) -> Result<Vec<u64>> {
        Ok(derive_crawl(out, crawl, parts.of(Table::PageSignals))?.to_vec())
    }

    fn name(&self) -> &'static str {
        "summary_page_*"
    }

    fn say(&self, crawl: &str, rows: &[u64]) -> Option<String> {
        let r = |t| super::read::rows_of(&TABLES, rows, t);
        Some(format!(
            "summary_page  {crawl}: {} directive rows, {} header rows, {} conflict rows, {} \
             header pair rows",
            r(Table::SummaryPageDirectives),
            r(Table::SummaryPageHeaders),
            r(Table::SummaryPageConflicts),
            r(Table::SummaryPageHeaderPairs)
        ))
    }
}

/// The columns of `page_signals` read.
const COLUMNS: [&str; 11] = [
    "warc_file",
    "warc_offset",
    "host",
    "http_status",
    "content_type",
    "source",
    "signal_index",
    "agent",
    "directive",
    "syntax",
    "in_head",
];

/// Those read as dictionaries.
const DICTIONARIES: [&str; 7] = [
    "warc_file",
    "host",
    "content_type",
    "source",
    "agent",
    "directive",
    "syntax",
];

/// Derive the crawl's page summaries from its `page_signals` parts and commit them together;
/// the rows written to each of [`TABLES`].
pub fn derive_crawl(out: &OutDir, crawl: &str, parts: &[PartRef]) -> Result<[u64; TABLES.len()]> {
    let mut s = Signals::default();
    let mut files = Names::default();
    read_beside(out, parts, &COLUMNS, &DICTIONARIES, |part, batch| {
        s.batch(part, batch, &mut files)
    })?;
    s.end_response();
    let parts = [
        s.directives_part(out, crawl)?,
        s.headers_part(out, crawl)?,
        s.types_part(out, crawl)?,
        s.conflicts_part(out, crawl)?,
        s.pairs_part(out, crawl)?,
    ];
    let rows = parts.each_ref().map(|p| p.1);
    out.commit(parts.into_iter().map(|p| p.0).collect())?;
    Ok(rows)
}

/// Responses, rows and distinct hosts of each key of one table.
struct Counts<K> {
    index: FxHashMap<K, u32>,
    keys: Vec<K>,
    /// Per key: rows, responses, and the serial of the last response counted.
    rows: Vec<[i64; 2]>,
    last: Vec<u64>,
    hosts: DistinctHosts,
}

impl<K> Default for Counts<K> {
    fn default() -> Self {
        Counts {
            index: FxHashMap::default(),
            keys: Vec::new(),
            rows: Vec::new(),
            last: Vec::new(),
            hosts: DistinctHosts::default(),
        }
    }
}

impl<K: Copy + Eq + std::hash::Hash> Counts<K> {
    /// Count a row of response `serial` and host `host` under `key`; its index.
    fn add(&mut self, key: K, serial: u64, host: Option<u32>) -> usize {
        let keys = &mut self.keys;
        let k = *self.index.entry(key).or_insert_with(|| {
            keys.push(key);
            (keys.len() - 1) as u32
        }) as usize;
        if k == self.rows.len() {
            self.rows.push([0; 2]);
            self.last.push(0);
        }
        self.rows[k][0] += 1;
        if self.last[k] != serial {
            self.last[k] = serial;
            self.rows[k][1] += 1;
        }
        if let Some(host) = host {
            self.hosts.add(k as u32, host);
        }
        k
    }
}

/// (key, host) pairs, each kept once.
#[derive(Default)]
struct DistinctHosts {
    pairs: Vec<u64>,
    /// Per key: the host of its last pair.
    last: Vec<u32>,
    /// When `pairs` is next sorted and its repeats dropped.
    compact_at: usize,
}

impl DistinctHosts {
    fn add(&mut self, key: u32, host: u32) {
        let k = key as usize;
        if self.last.len() <= k {
            self.last.resize(k + 1, u32::MAX);
        }
        if self.last[k] == host {
            return;
        }
        self.last[k] = host;
        self.pairs.push(u64::from(key) << 32 | u64::from(host));
        if self.pairs.len() >= self.compact_at.max(1 << 20) {
            self.compact();
            self.compact_at = self.pairs.len() * 2;
        }
    }

    fn compact(&mut self) {
        self.pairs.sort_unstable();
        self.pairs.dedup();
    }

    /// Distinct hosts per key.
    fn counts(&mut self, keys: usize) -> Vec<i64> {
        self.compact();
        let mut n = vec![0i64; keys];
        for p in &self.pairs {
            n[(p >> 32) as usize] += 1;
        }
        n
    }
}

/// Where a signal of the response being read was said, meta tags first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Meta,
    XRobotsTag,
    RobotsTag,
}

/// The signals of the response being read, for its conflicts and header pairs: (where,
/// agent, directive).
type Said = (Place, Option<u32>, u32);

#[derive(Default)]
struct Signals {
    names: Names,
    hosts: Names,
    /// (source, agent, directive, status class)
    directives: Counts<[Option<u32>; 4]>,
    /// (source, syntax, status class), robots headers only.
    headers: Counts<[Option<u32>; 3]>,
    /// Per key of `headers`: header values (rows of one value share the response and
    /// `signal_index`, and come together), and the last value counted.
    header_values: Vec<(i64, (u64, i32))>,
    /// (content type, status class), robots headers only.
    types: Counts<[Option<u32>; 2]>,
    /// Rows per (content type key, directive).
    type_directives: FxHashMap<(usize, u32), i64>,
    /// (agent, header directive, meta directive, status class)
    conflicts: Counts<[Option<u32>; 4]>,
    /// (agent or none for the response as a whole, status class, `agree` or `differ`)
    pairs: Counts<[Option<u32>; 3]>,
    /// The response being read: its place, serial, host, status class and what it says.
    at: Option<(usize, u32, i64)>,
    serial: u64,
    /// The response's host (`None`: no host, counted in no host count).
    host: Option<u32>,
    status: u32,
    said: Vec<Said>,
    opposite: FxHashSet<(u32, u32)>,
}

impl Signals {
    /// Count a batch's rows in every table. Long because the four tables are tallied in one
    /// pass over the batch's columns, row by row (the columns are looked up once per batch).
    fn batch(&mut self, part: &PartRef, batch: &RecordBatch, files: &mut Names) -> Result<()> {
        if self.opposite.is_empty() {
            for (a, b) in OPPOSITE_DIRECTIVES {
                let (a, b) = (self.names.id(a), self.names.id(b));
                self.opposite.extend([(a, b), (b, a)]);
            }
        }
        let mut d: Vec<Dict> = Vec::new();
        for c in DICTIONARIES {
            d.push(Dict::of(batch, c, part)?);
        }
        let int = |c: &str| {
            batch
                .column_by_name(c)
                .and_then(|a| a.as_primitive_opt::<Int32Type>())
                .with_context(|| missing(part, c))
        };
        let (status, signal_index) = (int("http_status")?, int("signal_index")?);
        let offset = batch
            .column_by_name("warc_offset")
            .and_then(|a| a.as_primitive_opt::<Int64Type>())
            .with_context(|| missing(part, "warc_offset"))?;
        let in_head = batch
            .column_by_name("in_head")
            .and_then(|a| a.as_boolean_opt())
            .with_context(|| missing(part, "in_head"))?;
        let (x_robots, robots, meta) = (
            self.names.id(Source::XRobotsTag.as_str()),
            self.names.id(Source::RobotsTag.as_str()),
            self.names.id(Source::Meta.as_str()),
        );
        let part_id = part as *const PartRef as usize;
        for i in 0..batch.num_rows() {
            let file = d[0].id(i, files).unwrap_or(u32::MAX);
            let at = (
                part_id,
                file,
                if offset.is_valid(i) {
                    offset.value(i)
                } else {
                    -1
                },
            );
            if self.at != Some(at) {
                self.end_response();
                self.at = Some(at);
                self.serial += 1;
                self.host = d[1].id(i, &mut self.hosts);
                let code = status.is_valid(i).then(|| status.value(i));
                self.status = self.names.id(status_class(code));
            }
            let names = &mut self.names;
            let (content_type, source) = (d[2].id(i, names), d[3].id(i, names));
            let (agent, directive, syntax) =
                (d[4].id(i, names), d[5].id(i, names), d[6].id(i, names));
            let (serial, host, st) = (self.serial, self.host, Some(self.status));
            self.directives
                .add([source, agent, directive, st], serial, host);
            let is_header = source == Some(x_robots) || source == Some(robots);
            if is_header {
                let k = self.headers.add([source, syntax, st], serial, host);
                let index = signal_index.is_valid(i).then(|| signal_index.value(i));
                if k == self.header_values.len() {
                    self.header_values.push((0, (0, -1)));
                }
                let e = &mut self.header_values[k];
                if e.1 != (serial, index.unwrap_or(-1)) {
                    e.1 = (serial, index.unwrap_or(-1));
                    e.0 += 1;
                }
                let t = self.types.add([content_type, st], serial, host);
                if let Some(dir) = directive {
                    *self.type_directives.entry((t, dir)).or_default() += 1;
                }
            }
            let head = !in_head.is_valid(i) || in_head.value(i);
            let place = match source {
                s if s == Some(x_robots) => Some(Place::XRobotsTag),
                s if s == Some(robots) => Some(Place::RobotsTag),
                s if s == Some(meta) && head => Some(Place::Meta),
                _ => None,
            };
            if let (Some(dir), Some(place)) = (directive, place) {
                self.said.push((place, agent, dir));
            }
        }
        Ok(())
    }

    /// Count the conflicts of the response just read.
    fn end_response(&mut self) {
        if self.said.is_empty() {
            return;
        }
        // Each (source, agent, directive) once, meta tags first, each source by agent: a
        // header is joined with the meta tags of its agent alone (a response may carry a million
        // headers; pairing all with all took a minute).
        self.said.sort_unstable();
        self.said.dedup();
        let said = std::mem::take(&mut self.said);
        let (metas, headers) = said.split_at(said.partition_point(|s| s.0 == Place::Meta));
        let mut found: Vec<[Option<u32>; 4]> = Vec::new();
        for &(_, h_agent, h_dir) in headers {
            // As SQL joins them: an agent that is NULL matches none.
            if h_agent.is_none() {
                continue;
            }
            let from = metas.partition_point(|m| m.1 < h_agent);
            for &(_, _, m_dir) in metas[from..].iter().take_while(|m| m.1 == h_agent) {
                if self.opposite.contains(&(h_dir, m_dir)) {
                    found.push([h_agent, Some(h_dir), Some(m_dir), Some(self.status)]);
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        for key in found {
            self.conflicts.add(key, self.serial, self.host);
        }
        self.count_pair(headers);
        self.said = said;
        self.said.clear();
    }

    /// When the response carries both robots headers (each with a directive for some agent),
    /// count, per agent either addresses and for the response as a whole, whether the two give
    /// the same directives: what `signals_robots_headers_disagree.sql` lists where they do not.
    fn count_pair(&mut self, headers: &[Said]) {
        // As the query reads them: rows with an agent.
        let of = |place| -> Vec<(u32, u32)> {
            let rows = headers.iter().filter(|s| s.0 == place);
            rows.filter_map(|s| Some((s.1?, s.2))).collect()
        };
        let (x, r) = (of(Place::XRobotsTag), of(Place::RobotsTag));
        if x.is_empty() || r.is_empty() {
            return;
        }
        let (agree, differ) = (self.names.id("agree"), self.names.id("differ"));
        let mut agents: Vec<u32> = x.iter().chain(&r).map(|s| s.0).collect();
        agents.sort_unstable();
        agents.dedup();
        // Each side is sorted by agent, then directive (as `said` is), and has no repeats.
        fn says(rows: &[(u32, u32)], a: u32) -> impl Iterator<Item = u32> + '_ {
            let from = rows.partition_point(|s| s.0 < a);
            rows[from..]
                .iter()
                .take_while(move |s| s.0 == a)
                .map(|s| s.1)
        }
        let mut all_agree = true;
        for a in agents {
            let same = says(&x, a).eq(says(&r, a));
            all_agree &= same;
            let verdict = if same { agree } else { differ };
            let key = [Some(a), Some(self.status), Some(verdict)];
            self.pairs.add(key, self.serial, self.host);
        }
        let verdict = if all_agree { agree } else { differ };
        let key = [None, Some(self.status), Some(verdict)];
        self.pairs.add(key, self.serial, self.host);
    }

    fn text(&self, id: Option<u32>) -> Option<&str> {
        id.map(|i| self.names.get(i))
    }

    /// A table's keys in the order of their text, with their rows, responses and hosts.
    fn sorted<const N: usize>(
        &self,
        counts: &mut Counts<[Option<u32>; N]>,
    ) -> Vec<(usize, [i64; 3])> {
        let hosts = counts.hosts.counts(counts.keys.len());
        let mut order: Vec<usize> = (0..counts.keys.len()).collect();
        order.sort_unstable_by_key(|&k| counts.keys[k].map(|x| self.text(x)));
        order
            .into_iter()
            .map(|k| (k, [counts.rows[k][0], counts.rows[k][1], hosts[k]]))
            .collect()
    }

    fn directives_part(&mut self, out: &OutDir, crawl: &str) -> Result<(PartOutcome, u64)> {
        let mut counts = std::mem::take(&mut self.directives);
        let mut b = SummaryPageDirectivesBuilder::default();
        let rows = self.sorted(&mut counts);
        for (k, [signals, responses, hosts]) in &rows {
            let key = counts.keys[*k];
            b.append(&SummaryPageDirectiveRow {
                source: self.text(key[0]),
                agent: self.text(key[1]),
                directive: self.text(key[2]),
                status_class: self.text(key[3]),
                signals: Some(*signals),
                responses: Some(*responses),
                hosts: Some(*hosts),
            });
        }
        summary_part(out, crawl, b)
    }

    fn headers_part(&mut self, out: &OutDir, crawl: &str) -> Result<(PartOutcome, u64)> {
        let mut counts = std::mem::take(&mut self.headers);
        let mut b = SummaryPageHeadersBuilder::default();
        let rows = self.sorted(&mut counts);
        for (k, [_, responses, hosts]) in &rows {
            let key = counts.keys[*k];
            b.append(&SummaryPageHeaderRow {
                source: self.text(key[0]),
                syntax: self.text(key[1]),
                status_class: self.text(key[2]),
                headers: Some(self.header_values[*k].0),
                responses: Some(*responses),
                hosts: Some(*hosts),
            });
        }
        summary_part(out, crawl, b)
    }

    fn types_part(&mut self, out: &OutDir, crawl: &str) -> Result<(PartOutcome, u64)> {
        let mut counts = std::mem::take(&mut self.types);
        let mut directives: FxHashMap<usize, Vec<(u32, i64)>> = FxHashMap::default();
        for (&(t, d), &n) in &self.type_directives {
            directives.entry(t).or_default().push((d, n));
        }
        let mut b = SummaryPageHeaderTypesBuilder::default();
        let rows = self.sorted(&mut counts);
        for (k, [_, responses, hosts]) in &rows {
            let key = counts.keys[*k];
            let mut sent: Vec<(&str, i64)> = directives
                .get(k)
                .map(|v| v.iter().map(|&(d, n)| (self.names.get(d), n)).collect())
                .unwrap_or_default();
            sent.sort_unstable();
            let top = sent.iter().max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)));
            let names: Vec<&str> = sent.iter().map(|s| s.0).collect();
            b.append(&SummaryPageHeaderTypeRow {
                content_type: self.text(key[0]),
                status_class: self.text(key[1]),
                responses: Some(*responses),
                hosts: Some(*hosts),
                top_directive: top.map(|t| t.0),
                directives: (!names.is_empty()).then_some(&names[..]),
            });
        }
        summary_part(out, crawl, b)
    }

    fn conflicts_part(&mut self, out: &OutDir, crawl: &str) -> Result<(PartOutcome, u64)> {
        let mut counts = std::mem::take(&mut self.conflicts);
        let mut b = SummaryPageConflictsBuilder::default();
        let rows = self.sorted(&mut counts);
        for (k, [_, responses, hosts]) in &rows {
            let key = counts.keys[*k];
            b.append(&SummaryPageConflictRow {
                agent: self.text(key[0]),
                header_directive: self.text(key[1]),
                meta_directive: self.text(key[2]),
                status_class: self.text(key[3]),
                responses: Some(*responses),
                hosts: Some(*hosts),
            });
        }
        summary_part(out, crawl, b)
    }

    fn pairs_part(&mut self, out: &OutDir, crawl: &str) -> Result<(PartOutcome, u64)> {
        let mut counts = std::mem::take(&mut self.pairs);
        let mut b = SummaryPageHeaderPairsBuilder::default();
        let rows = self.sorted(&mut counts);
        for (k, [_, responses, hosts]) in &rows {
            let key = counts.keys[*k];
            b.append(&SummaryPageHeaderPairRow {
                agent: self.text(key[0]),
                status_class: self.text(key[1]),
                headers_agree: Some(self.text(key[2]) == Some("agree")),
                responses: Some(*responses),
                hosts: Some(*hosts),
            });
        }
        summary_part(out, crawl, b)
    }
}

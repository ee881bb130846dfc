//! `page_tdm` and `summary_page_tdm`: each 2xx page's effective TDM reservation and policy by
//! the TDM Reservation Protocol's processing priority (`files::tdmrep::Effective`): the rule of
//! its host's `/.well-known/tdmrep.json` whose location matches the page, then its
//! `tdm-reservation` / `tdm-policy` headers, then its meta tags.
//!
//! The host's file is its latest capture in the crawl that is not a revisit (`tdmrep_rules`,
//! whose rows keep every rule); a host's file applies to its pages whatever their scheme and
//! port. A page's headers and meta tags are its `page_signals` rows of syntax `tdmrep`.
//!
//! Memory: the crawl's TDM files (a few rules per host that serves one), and one input's TDM
//! `page_signals` rows at a time: a `pages` part is read with the `page_signals` part of the
//! same input (both are named after it), so neither grows with the crawl.

use super::latest::When;
use super::plan::{CrawlParts, Derivation};
use super::read::{read_beside, summary_part};
use super::tally::missing;
use crate::files::tdmrep::{Effective, Rule, Stated, TdmFile, Technique};
use crate::parts::{OutDir, PartOutcome, PartRef};
use crate::robots::{path_params_query, Matcher};
use crate::signals::Source;
use crate::tables::{
    PageTdmBuilder, PageTdmRow, SummaryPageTdmBuilder, SummaryPageTdmRow, Table, TableBuilder,
};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{Array, Int32Array, Int64Array, RecordBatch, StringArray};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// The tables derived here.
pub const TABLES: [Table; 2] = [Table::PageTdm, Table::SummaryPageTdm];

/// `page_tdm` and `summary_page_tdm`, derived from `pages` with `page_signals` and
/// `tdmrep_rules`.
pub struct PageTdm;

impl Derivation for PageTdm {
    fn from(&self) -> Table {
        Table::Pages
    }

    fn reads(&self) -> &'static [Table] {
        &[Table::PageSignals, Table::TdmrepRules]
    }

    fn writes(&self) -> &'static [Table] {
        &TABLES
    }

    fn derive(&self, out: &OutDir, crawl: &str, parts: &CrawlParts<'_>) -> Result<Vec<u64>> {
        let (pages, signals) = (parts.of(Table::Pages), parts.of(Table::PageSignals));
        let rows = derive_crawl(out, crawl, pages, signals, parts.of(Table::TdmrepRules))?;
        Ok(vec![rows.0, rows.1])
    }

    /// Said for a crawl with a page that states or is given a TDM value.
    fn say(&self, crawl: &str, rows: &[u64]) -> Option<String> {
        let pages = *rows.first().filter(|n| **n > 0)?;
        let s = if pages == 1 { "" } else { "s" };
        Some(format!(
            "page_tdm  {crawl}: {pages} page{s} with a TDM value"
        ))
    }
}

/// Rows of `page_tdm` per batch written.
const BATCH_ROWS: usize = 1 << 16;

/// The columns of `pages` read for pages that may have a TDM value, and for the others.
const PAGE_COLUMNS: [&str; 6] = [
    "warc_file",
    "warc_offset",
    "url",
    "host",
    "capture_time",
    "http_status",
];
const STATUS_ONLY: [&str; 1] = ["http_status"];

/// Derive the crawl's `page_tdm` and `summary_page_tdm` from its `pages`, `page_signals` and
/// `tdmrep_rules` parts and commit them; the rows of each.
pub fn derive_crawl(
    out: &OutDir,
    crawl: &str,
    pages: &[PartRef],
    signals: &[PartRef],
    rules: &[PartRef],
) -> Result<(u64, u64)> {
    let files = host_files(out, rules)?;
    let signals: BTreeMap<String, &PartRef> =
        signals.iter().map(|p| (part_file_name(p), p)).collect();
    let mut d = Pass {
        crawl,
        files: &files,
        matcher: Matcher::default(),
        builder: PageTdmBuilder::default(),
        part: out.part_writer(&PageTdmBuilder::desc(), crawl, crawl)?,
        rows: 0,
        summary: FxHashMap::default(),
        unset: 0,
    };
    for part in pages {
        let said = match signals.get(&part_file_name(part)) {
            Some(s) => said_by_pages(out, s)?,
            None => FxHashMap::default(),
        };
        if files.is_empty() && said.is_empty() {
            read_beside(
                out,
                std::slice::from_ref(part),
                &STATUS_ONLY,
                &[],
                |p, b| {
                    d.unset += twoxx(p, b)?;
                    Ok(())
                },
            )?;
            continue;
        }
        read_beside(
            out,
            std::slice::from_ref(part),
            &PAGE_COLUMNS,
            &[],
            |p, b| d.batch(p, b, &said),
        )?;
    }
    d.finish(out)
}

/// A part's file name (`part-{input}.parquet`), which the parts of one input share.
fn part_file_name(part: &PartRef) -> String {
    let name = part.name();
    name.rsplit('/').next().unwrap_or(&name).to_string()
}

/// 2xx pages of a batch of `http_status`.
fn twoxx(part: &PartRef, batch: &RecordBatch) -> Result<u64> {
    let status = int32(part, batch, "http_status")?;
    Ok(status.iter().flatten().filter(|s| is_2xx(*s)).count() as u64)
}

fn is_2xx(status: i32) -> bool {
    (200..=299).contains(&status)
}

fn int32<'b>(part: &PartRef, batch: &'b RecordBatch, c: &str) -> Result<&'b Int32Array> {
    (batch
        .column_by_name(c)
        .and_then(|a| a.as_primitive_opt::<Int32Type>()))
    .with_context(|| missing(part, c))
}

fn int64<'b>(part: &PartRef, batch: &'b RecordBatch, c: &str) -> Result<&'b Int64Array> {
    (batch
        .column_by_name(c)
        .and_then(|a| a.as_primitive_opt::<Int64Type>()))
    .with_context(|| missing(part, c))
}

fn text<'b>(part: &PartRef, batch: &'b RecordBatch, c: &str) -> Result<&'b StringArray> {
    (batch
        .column_by_name(c)
        .and_then(|a| a.as_string_opt::<i32>()))
    .with_context(|| missing(part, c))
}

fn opt_str(a: &StringArray, i: usize) -> Option<&str> {
    a.is_valid(i).then(|| a.value(i))
}

/// A host's TDM file: the capture read and its usable rules, in file order.
struct HostFile {
    warc_file: String,
    warc_offset: i64,
    file: TdmFile,
}

/// The columns of `tdmrep_rules` read.
const RULE_COLUMNS: [&str; 11] = [
    "warc_file",
    "warc_offset",
    "warc_type",
    "host",
    "capture_time",
    "http_status",
    "file_problem",
    "rules",
    "rule_index",
    "location",
    "tdm_reservation",
];

/// Each host's TDM file, from its latest capture that is not a revisit (none when that one is
/// not a 2xx TDM file).
fn host_files(out: &OutDir, parts: &[PartRef]) -> Result<FxHashMap<String, HostFile>> {
    // Per host: the latest capture, whether it is a TDM file, and its usable rules by index.
    type Latest = (When, bool, Vec<(i32, Rule)>);
    let mut latest: FxHashMap<String, Latest> = FxHashMap::default();
    let mut columns = RULE_COLUMNS.to_vec();
    columns.push("tdm_policy");
    columns.push("rule_problem");
    read_beside(out, parts, &columns, &[], |part, batch| {
        let (file, kind, host) = (
            text(part, batch, "warc_file")?,
            text(part, batch, "warc_type")?,
            text(part, batch, "host")?,
        );
        let offset = int64(part, batch, "warc_offset")?;
        let time = (batch.column_by_name("capture_time"))
            .and_then(|a| a.as_primitive_opt::<TimestampMicrosecondType>())
            .with_context(|| missing(part, "capture_time"))?;
        let (status, rules, index, reservation) = (
            int32(part, batch, "http_status")?,
            int32(part, batch, "rules")?,
            int32(part, batch, "rule_index")?,
            int32(part, batch, "tdm_reservation")?,
        );
        let (problem, location, policy, rule_problem) = (
            text(part, batch, "file_problem")?,
            text(part, batch, "location")?,
            text(part, batch, "tdm_policy")?,
            text(part, batch, "rule_problem")?,
        );
        for i in 0..batch.num_rows() {
            let (Some(h), false) = (opt_str(host, i), opt_str(kind, i) == Some("revisit")) else {
                continue;
            };
            let when: When = (
                time.is_valid(i).then(|| time.value(i)),
                opt_str(file, i).unwrap_or_default().to_string(),
                offset.value(i),
            );
            let is_file = status.is_valid(i)
                && is_2xx(status.value(i))
                && rules.is_valid(i)
                && problem.is_null(i);
            let entry = latest
                .entry(h.to_string())
                .or_insert_with(|| (when.clone(), is_file, Vec::new()));
            if when > entry.0 {
                *entry = (when.clone(), is_file, Vec::new());
            }
            let usable = reservation.is_valid(i) && rule_problem.is_null(i) && location.is_valid(i);
            if when == entry.0 && is_file && usable {
                let rule = Rule {
                    location: opt_str(location, i).map(str::to_string),
                    reservation: Some(reservation.value(i).clamp(0, 1) as u8),
                    policy: opt_str(policy, i).map(str::to_string),
                    ..Rule::default()
                };
                entry.2.push((index.value(i), rule));
            }
        }
        Ok(())
    })?;
    Ok(latest
        .into_iter()
        .filter(|(_, (_, is_file, _))| *is_file)
        .map(|(host, ((_, warc_file, warc_offset), _, mut rules))| {
            rules.sort_by_key(|r| r.0);
            let file = TdmFile {
                rules: rules.into_iter().map(|r| r.1).collect(),
                ..TdmFile::default()
            };
            let f = HostFile {
                warc_file,
                warc_offset,
                file,
            };
            (host, f)
        })
        .collect())
}

/// What a page's headers and meta tags state, by file and offset.
type Said = FxHashMap<String, FxHashMap<i64, [Stated; 2]>>;

/// The TDM statements of the pages of one `page_signals` part.
fn said_by_pages(out: &OutDir, part: &PartRef) -> Result<Said> {
    const COLUMNS: [&str; 6] = [
        "warc_file",
        "warc_offset",
        "source",
        "directive",
        "directive_value",
        "syntax",
    ];
    let mut said = Said::default();
    read_beside(
        out,
        std::slice::from_ref(part),
        &COLUMNS,
        &[],
        |part, batch| {
            let (file, source, directive, value, syntax) = (
                text(part, batch, "warc_file")?,
                text(part, batch, "source")?,
                text(part, batch, "directive")?,
                text(part, batch, "directive_value")?,
                text(part, batch, "syntax")?,
            );
            let offset = int64(part, batch, "warc_offset")?;
            for i in 0..batch.num_rows() {
                if opt_str(syntax, i) != Some("tdmrep") || offset.is_null(i) {
                    continue;
                }
                let place = match opt_str(source, i).and_then(Source::from_name) {
                    Some(Source::TdmHeader) => 0,
                    Some(Source::Meta) => 1,
                    _ => continue,
                };
                let f = opt_str(file, i).unwrap_or_default();
                if !said.contains_key(f) {
                    said.insert(f.to_string(), FxHashMap::default());
                }
                let by_offset = said.get_mut(f).expect("inserted");
                let stated = &mut by_offset.entry(offset.value(i)).or_default()[place];
                let v = opt_str(value, i).unwrap_or_default();
                match opt_str(directive, i) {
                    Some("tdm-reservation") => stated.reservation_value(v),
                    Some("tdm-policy") => stated.policy_value(v),
                    _ => {}
                }
            }
            Ok(())
        },
    )?;
    Ok(said)
}

/// The summary's key: reservation, technique, policy set, overridden.
type Key = (Option<i32>, Technique, bool, bool);

/// One pass over a crawl's pages: its hosts' TDM files, the rows being written and the
/// summary's counts.
struct Pass<'a> {
    crawl: &'a str,
    files: &'a FxHashMap<String, HostFile>,
    matcher: Matcher,
    builder: PageTdmBuilder,
    part: crate::parts::PartWriter,
    rows: u64,
    /// Pages and their hosts per key.
    summary: FxHashMap<Key, (i64, FxHashSet<String>)>,
    /// 2xx pages nothing is stated for.
    unset: u64,
}

impl Pass<'_> {
    /// Each 2xx page of a batch of `pages`: its effective values, a row when it has some.
    fn batch(&mut self, part: &PartRef, batch: &RecordBatch, said: &Said) -> Result<()> {
        let (file, url, host) = (
            text(part, batch, "warc_file")?,
            text(part, batch, "url")?,
            text(part, batch, "host")?,
        );
        let (offset, status) = (
            int64(part, batch, "warc_offset")?,
            int32(part, batch, "http_status")?,
        );
        let time = (batch.column_by_name("capture_time"))
            .and_then(|a| a.as_primitive_opt::<TimestampMicrosecondType>())
            .with_context(|| missing(part, "capture_time"))?;
        let none = [Stated::default(), Stated::default()];
        for i in 0..batch.num_rows() {
            if !status.is_valid(i) || !is_2xx(status.value(i)) {
                continue;
            }
            let (h, u) = (opt_str(host, i), opt_str(url, i));
            let host_file = h.and_then(|h| self.files.get(h));
            let rule = match (host_file, u) {
                (Some(f), Some(u)) => {
                    let path = path_params_query(u);
                    (f.file.rule_for(path.as_bytes(), &mut self.matcher)).map(|k| &f.file.rules[k])
                }
                _ => None,
            };
            let by_page = (opt_str(file, i).and_then(|f| said.get(f)))
                .and_then(|s| s.get(&offset.value(i)))
                .unwrap_or(&none);
            let from_file = Stated {
                reservation: rule.and_then(|r| r.reservation),
                policy: rule.and_then(|r| r.policy.clone()),
            };
            let e = Effective::of(&from_file, &by_page[0], &by_page[1]);
            if !e.is_set() {
                self.unset += 1;
                continue;
            }
            // The technique that set the reservation, or the policy when only that is set.
            let technique = (e.reservation.as_ref().map(|r| r.1))
                .or(e.policy.as_ref().map(|p| p.1))
                .expect("set");
            let reservation = e.reservation.map(|r| i32::from(r.0));
            let key: Key = (reservation, technique, e.policy.is_some(), e.overridden);
            let entry = self.summary.entry(key).or_default();
            entry.0 += 1;
            if let Some(h) = h.filter(|h| !entry.1.contains(*h)) {
                entry.1.insert(h.to_string());
            }
            let tdmrep = host_file.filter(|_| rule.is_some());
            self.builder.append(&PageTdmRow {
                warc_file: opt_str(file, i),
                warc_offset: offset.is_valid(i).then(|| offset.value(i)),
                url: u,
                host: h,
                capture_time: time.is_valid(i).then(|| time.value(i)),
                http_status: Some(status.value(i)),
                tdm_reservation: reservation,
                technique: e.reservation.map(|r| r.1.as_str()),
                tdm_policy: e.policy.as_ref().map(|p| p.0.as_str()),
                policy_technique: e.policy.as_ref().map(|p| p.1.as_str()),
                overridden: Some(e.overridden),
                file_reservation: from_file.reservation.map(i32::from),
                header_reservation: by_page[0].reservation.map(i32::from),
                meta_reservation: by_page[1].reservation.map(i32::from),
                tdmrep_warc_file: tdmrep.map(|f| f.warc_file.as_str()),
                tdmrep_warc_offset: tdmrep.map(|f| f.warc_offset),
                file_location: rule.and_then(|r| r.location.as_deref()),
            });
            if self.builder.len() >= BATCH_ROWS {
                self.rows += self.builder.len() as u64;
                self.part.write(&self.builder.finish(self.crawl))?;
            }
        }
        Ok(())
    }

    /// Write the rest of `page_tdm`, make the summary, and commit both.
    fn finish(mut self, out: &OutDir) -> Result<(u64, u64)> {
        self.rows += self.builder.len() as u64;
        if !self.builder.is_empty() {
            self.part.write(&self.builder.finish(self.crawl))?;
        }
        let page_tdm = match self.rows {
            0 => PartOutcome::Empty(out.part_path(Table::PageTdm.name(), self.crawl, self.crawl)),
            _ => self.part.finish()?,
        };
        let mut b = SummaryPageTdmBuilder::default();
        let mut keys: Vec<_> = self.summary.into_iter().collect();
        keys.sort_by_key(|k| k.0);
        for ((reservation, technique, has_policy, overridden), (pages, hosts)) in keys {
            b.append(&SummaryPageTdmRow {
                tdm_reservation: reservation,
                technique: Some(technique.as_str()),
                has_policy: Some(has_policy),
                overridden: Some(overridden),
                pages: Some(pages),
                hosts: Some(hosts.len() as i64),
            });
        }
        if self.unset > 0 {
            b.append(&SummaryPageTdmRow {
                has_policy: Some(false),
                overridden: Some(false),
                pages: Some(self.unset as i64),
                ..SummaryPageTdmRow::default()
            });
        }
        let (summary, summary_rows) = summary_part(out, self.crawl, b)?;
        out.commit(vec![page_tdm, summary])?;
        Ok((self.rows, summary_rows))
    }
}

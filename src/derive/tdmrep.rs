//! `summary_tdmrep`: a crawl's captures of `/.well-known/tdmrep.json` per status class, what
//! the body is, and the reservation the file gives the site's root, with the hosts whose latest
//! capture is of that kind, so `tdm_reservation_adoption.sql` reads a few rows for the file
//! technique. A capture is several `tdmrep_rules` rows (one per rule), written together; the
//! table is small, so its rows are read as plain strings.

use super::latest::{ByLatest, When};
use super::plan::{CrawlParts, Derivation};
use super::read::{read_beside, summary_part};
use super::tally::missing;
use crate::parts::{OutDir, PartOutcome, PartRef};
use crate::tables::{status_class, SummaryTdmrepBuilder, SummaryTdmrepRow, Table};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};
use std::collections::HashMap;

/// The tables derived here.
pub const TABLES: [Table; 1] = [Table::SummaryTdmrep];

/// `summary_tdmrep`, derived from `tdmrep_rules`.
pub struct TdmrepSummary;

impl Derivation for TdmrepSummary {
    fn from(&self) -> Table {
        Table::TdmrepRules
    }

    fn writes(&self) -> &'static [Table] {
        &TABLES
    }

    fn derive(&self, out: &OutDir, crawl: &str, parts: &CrawlParts<'_>) -> Result<Vec<u64>> {
        Ok(vec![derive_crawl(
            out,
            crawl,
            parts.of(Table::TdmrepRules),
        )?])
    }
}

/// The columns of `tdmrep_rules` read.
const COLUMNS: [&str; 10] = [
    "warc_file",
    "warc_offset",
    "host",
    "capture_time",
    "http_status",
    "file_problem",
    "rules",
    "tdm_reservation",
    "rule_problem",
    "decides_root",
];

/// What a capture is counted under: status class, file problem, a TDM file, the root's
/// reservation, some usable rule reserves.
type Kind = (&'static str, Option<String>, bool, Option<i32>, bool);

/// Derive the crawl's `summary_tdmrep` from its `tdmrep_rules` parts and commit it; its rows.
pub fn derive_crawl(out: &OutDir, crawl: &str, parts: &[PartRef]) -> Result<u64> {
    let mut captures: HashMap<(String, i64), (Option<String>, When, Kind)> = HashMap::new();
    read_beside(out, parts, &COLUMNS, &[], |part, batch| {
        each_row(part, batch, &mut captures)
    })?;
    let mut tally: ByLatest<String, Kind> = ByLatest::default();
    for (host, when, kind) in captures.into_values() {
        tally.add(host, when, kind);
    }
    let mut b = SummaryTdmrepBuilder::default();
    for (kind, n, hosts) in tally.counts() {
        b.append(&SummaryTdmrepRow {
            status_class: Some(kind.0),
            file_problem: kind.1.as_deref(),
            tdm_file: Some(kind.2),
            root_reservation: kind.3,
            reserves_some_path: Some(kind.4),
            captures: Some(n),
            hosts: Some(hosts),
        });
    }
    let (part, rows): (PartOutcome, u64) = summary_part(out, crawl, b)?;
    out.commit(vec![part])?;
    Ok(rows)
}

/// Fold a batch's rows into their captures (by file and offset).
fn each_row(
    part: &PartRef,
    batch: &RecordBatch,
    captures: &mut HashMap<(String, i64), (Option<String>, When, Kind)>,
) -> Result<()> {
    let col = |c: &str| batch.column_by_name(c).with_context(|| missing(part, c));
    let text = |c: &str| -> Result<_> {
        col(c)?
            .as_string_opt::<i32>()
            .with_context(|| missing(part, c))
    };
    let int = |c: &str| -> Result<_> {
        col(c)?
            .as_primitive_opt::<Int32Type>()
            .with_context(|| missing(part, c))
    };
    let (file, host, problem, rule_problem) = (
        text("warc_file")?,
        text("host")?,
        text("file_problem")?,
        text("rule_problem")?,
    );
    let (status, rules, reservation) =
        (int("http_status")?, int("rules")?, int("tdm_reservation")?);
    let offset = col("warc_offset")?
        .as_primitive_opt::<Int64Type>()
        .with_context(|| missing(part, "warc_offset"))?;
    let time = col("capture_time")?
        .as_primitive_opt::<TimestampMicrosecondType>()
        .with_context(|| missing(part, "capture_time"))?;
    let root = col("decides_root")?
        .as_boolean_opt()
        .with_context(|| missing(part, "decides_root"))?;
    let opt =
        |a: &arrow_array::StringArray, i: usize| a.is_valid(i).then(|| a.value(i).to_string());
    for i in 0..batch.num_rows() {
        let file_name = opt(file, i).unwrap_or_default();
        let key = (file_name.clone(), offset.value(i));
        let entry = captures.entry(key).or_insert_with(|| {
            let code = status.is_valid(i).then(|| status.value(i));
            let tdm_file = rules.is_valid(i) && !problem.is_valid(i);
            let when = (
                time.is_valid(i).then(|| time.value(i)),
                file_name,
                offset.value(i),
            );
            let kind = (status_class(code), opt(problem, i), tdm_file, None, false);
            (opt(host, i), when, kind)
        });
        let usable = reservation.is_valid(i) && !rule_problem.is_valid(i);
        if usable && root.is_valid(i) && root.value(i) {
            entry.2 .3 = Some(reservation.value(i));
        }
        if usable && reservation.value(i) == 1 {
            entry.2 .4 = true;
        }
    }
    Ok(())
}

//! `summary_llms_txt`: a crawl's captures of `/llms.txt` and `/llms-full.txt` per file, status
//! class, form and validity, with the hosts whose latest capture of the file is of that kind,
//! so `llms_txt_adoption.sql` reads a few rows instead of every capture. The table of captures
//! is small (a host has one or two), so its rows are read as plain strings.

use super::latest::{ByLatest, When};
use super::plan::{CrawlParts, Derivation};
use super::read::{read_beside, summary_part};
use super::tally::missing;
use crate::parts::{OutDir, PartOutcome, PartRef};
use crate::tables::{status_class, SummaryLlmsTxtBuilder, SummaryLlmsTxtRow, Table};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};

/// The tables derived here.
pub const TABLES: [Table; 1] = [Table::SummaryLlmsTxt];

/// `summary_llms_txt`, derived from `llms_txt`.
pub struct LlmsSummary;

impl Derivation for LlmsSummary {
    fn from(&self) -> Table {
        Table::LlmsTxt
    }

    fn writes(&self) -> &'static [Table] {
        &TABLES
    }

    fn derive(&self, out: &OutDir, crawl: &str, parts: &CrawlParts<'_>) -> Result<Vec<u64>> {
        Ok(vec![derive_crawl(out, crawl, parts.of(Table::LlmsTxt))?])
    }
}

/// The columns of `llms_txt` read.
const COLUMNS: [&str; 8] = [
    "warc_file",
    "warc_offset",
    "host",
    "capture_time",
    "file",
    "http_status",
    "form",
    "valid",
];

/// What a row is counted under: file, status class, form, valid.
type Kind = (String, &'static str, Option<String>, Option<bool>);

/// Derive the crawl's `summary_llms_txt` from its `llms_txt` parts and commit it; its rows.
pub fn derive_crawl(out: &OutDir, crawl: &str, parts: &[PartRef]) -> Result<u64> {
    let mut tally: ByLatest<(String, String), Kind> = ByLatest::default();
    read_beside(out, parts, &COLUMNS, &[], |part, batch| {
        each_row(part, batch, |host, when, kind| {
            let group = host.map(|h| (h, kind.0.clone()));
            tally.add(group, when, kind);
        })
    })?;
    let mut b = SummaryLlmsTxtBuilder::default();
    for (kind, n, hosts) in tally.counts() {
        b.append(&SummaryLlmsTxtRow {
            file: Some(&kind.0),
            status_class: Some(kind.1),
            form: kind.2.as_deref(),
            valid: kind.3,
            captures: Some(n),
            hosts: Some(hosts),
        });
    }
    let (part, rows): (PartOutcome, u64) = summary_part(out, crawl, b)?;
    out.commit(vec![part])?;
    Ok(rows)
}

/// Call `f` with each row's host, capture time and place, and kind.
fn each_row(
    part: &PartRef,
    batch: &RecordBatch,
    mut f: impl FnMut(Option<String>, When, Kind),
) -> Result<()> {
    let col = |c: &str| batch.column_by_name(c).with_context(|| missing(part, c));
    let text = |c: &str| -> Result<_> {
        col(c)?
            .as_string_opt::<i32>()
            .with_context(|| missing(part, c))
    };
    let (file_col, host, file, form) = (
        text("warc_file")?,
        text("host")?,
        text("file")?,
        text("form")?,
    );
    let offset = col("warc_offset")?
        .as_primitive_opt::<Int64Type>()
        .with_context(|| missing(part, "warc_offset"))?;
    let time = col("capture_time")?
        .as_primitive_opt::<TimestampMicrosecondType>()
        .with_context(|| missing(part, "capture_time"))?;
    let status = col("http_status")?
        .as_primitive_opt::<Int32Type>()
        .with_context(|| missing(part, "http_status"))?;
    let valid = col("valid")?
        .as_boolean_opt()
        .with_context(|| missing(part, "valid"))?;
    let opt_str =
        |a: &arrow_array::StringArray, i: usize| a.is_valid(i).then(|| a.value(i).to_string());
    for i in 0..batch.num_rows() {
        let when = (
            time.is_valid(i).then(|| time.value(i)),
            opt_str(file_col, i).unwrap_or_default(),
            offset.value(i),
        );
        let code = status.is_valid(i).then(|| status.value(i));
        let kind = (
            opt_str(file, i).unwrap_or_default(),
            status_class(code),
            opt_str(form, i),
            valid.is_valid(i).then(|| valid.value(i)),
        );
        f(opt_str(host, i), when, kind);
    }
    Ok(())
}

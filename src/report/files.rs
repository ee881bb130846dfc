//! The well-known files of a crawl besides robots.txt: who serves a valid llms.txt
//! (`llms_txt_adoption.sql`), from `summary_llms_txt`.

use super::html::{cell, esc, thousands, Figure, Num};
use super::load::Tables;
use crate::tables::Table;
use anyhow::Result;
use arrow_array::Array;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One row of `llms_txt_adoption.sql`.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct LlmsFile {
    pub file: String,
    pub hosts_valid: u64,
    pub hosts_captured: u64,
    pub captures: u64,
    pub captures_html: u64,
}

/// The crawl's llms.txt files; none when the crawl has no `summary_llms_txt` (no capture of
/// the paths, or tables of a schema before 21).
pub(super) fn load_llms(t: &Tables<'_>, crawl: &str) -> Result<Vec<LlmsFile>> {
    let mut by_file: BTreeMap<String, LlmsFile> = BTreeMap::new();
    let cols = ["file", "form", "valid", "captures", "hosts"];
    t.each(Table::SummaryLlmsTxt, crawl, &cols, &[], |b| {
        let (file, form, valid) = (b.strings("file")?, b.strings("form")?, b.bools("valid")?);
        let (captures, hosts) = (b.i64s("captures")?, b.i64s("hosts")?);
        for i in 0..b.len() {
            let name = if file.is_valid(i) { file.value(i) } else { "" };
            let f = by_file.entry(name.to_string()).or_insert_with(|| LlmsFile {
                file: name.to_string(),
                ..LlmsFile::default()
            });
            let (n, h) = (
                captures.value(i).max(0) as u64,
                hosts.value(i).max(0) as u64,
            );
            f.captures += n;
            f.hosts_captured += h;
            if valid.is_valid(i) && valid.value(i) {
                f.hosts_valid += h;
            }
            if form.is_valid(i) && form.value(i) == "html" {
                f.captures_html += n;
            }
        }
        Ok(())
    })?;
    Ok(by_file.into_values().collect())
}

/// A share as the queries round it: 4 decimals; none over nothing.
fn share(n: u64, of: u64) -> Option<f64> {
    (of > 0).then(|| (n as f64 / of as f64 * 10_000.0).round() / 10_000.0)
}

/// The llms.txt figure: per file, hosts with a valid one over those whose file was captured
/// and over every host with a response (`crawl_hosts`, 0 when the crawl has no `host_counts`).
pub(super) fn llms_figure(crawl: &str, files: &[LlmsFile], crawl_hosts: u64, body: &mut String) {
    if files.is_empty() {
        return;
    }
    let q = "llms_txt_adoption";
    let rows = files
        .iter()
        .map(|f| {
            let k = f.file.as_str();
            let of_hosts = (crawl_hosts > 0)
                .then(|| share(f.hosts_valid, crawl_hosts))
                .flatten();
            format!(
                "{}{}{}{}{}{}{}",
                cell(k, "file", Num::Text(k)),
                cell(k, "hosts_valid", Num::Count(f.hosts_valid)),
                cell(k, "hosts_captured", Num::Count(f.hosts_captured)),
                cell(
                    k,
                    "share_of_captured",
                    Num::Share(share(f.hosts_valid, f.hosts_captured))
                ),
                cell(k, "share_of_hosts", Num::Share(of_hosts)),
                cell(k, "captures", Num::Count(f.captures)),
                cell(k, "captures_html", Num::Count(f.captures_html)),
            )
        })
        .collect();
    // The sentence is of /llms.txt when it was captured: the proposal's file.
    let first = (files.iter().find(|f| f.file == "llms.txt")).unwrap_or(&files[0]);
    let _ = write!(
        body,
        r#"<p id="{}-llms-said">{} of the {} hosts whose <code>/{}</code> was captured serve the proposal's Markdown there (an H1 first); {} of the {} captures are HTML pages (soft 404s, error pages).</p>"#,
        esc(crawl),
        thousands(first.hosts_valid),
        thousands(first.hosts_captured),
        esc(&first.file),
        thousands(first.captures_html),
        thousands(first.captures)
    );
    Figure {
        id: format!("{crawl}-llms"),
        title: "llms.txt",
        chart: None,
        legend: &[],
        unit: &format!(
            "Hosts whose latest capture of /llms.txt (or /llms-full.txt) answered 2xx with the \
             llms.txt proposal's Markdown, over the hosts whose file was captured and over the \
             {} hosts with any response in the crawl (a lower bound where the crawl \
             fetches the path only for some hosts). HTML pages served at the path (soft 404s, error pages: the last column) \
             are not valid.",
            thousands(crawl_hosts)
        ),
        totals: None,
        queries: &[q],
        head: &[
            "file",
            "hosts with a valid file",
            "hosts captured",
            "share of captured",
            "share of all hosts",
            "captures",
            "of them HTML",
        ],
        rows,
    }
    .render(body);
}

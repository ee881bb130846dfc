//! The well-known files of a crawl besides robots.txt: who serves a valid llms.txt
//! (`llms_txt_adoption.sql`), from `summary_llms_txt`, and which pages reserve their TDM rights
//! by TDMRep's processing priority (`tdm_pages_reserved.sql`), from `summary_page_tdm` and
//! `summary_tdmrep`.

use super::html::{cell, esc, thousands, Figure, Num};
use super::load::Tables;
use crate::files::tdmrep::Technique;
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

/// A crawl's TDM reservations: the pages per technique that set their value (file, header,
/// meta), as `tdm_pages_reserved.sql` counts them, and the hosts' tdmrep.json files.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Tdm {
    /// Per technique (in the order of `Technique::ALL`, the processing order): pages reserved,
    /// not reserved, overriding.
    pub techniques: [(u64, u64, u64); 3],
    pub pages_2xx: u64,
    /// Hosts whose tdmrep.json was captured, those whose latest capture is a TDM file, and
    /// those whose file reserves the root.
    pub hosts_captured: u64,
    pub hosts_with_file: u64,
    pub hosts_root_reserved: u64,
}

impl Tdm {
    /// Whether the crawl says anything of TDM: a tdmrep.json captured or a page with a value.
    pub fn is_empty(&self) -> bool {
        self.hosts_captured == 0 && self.techniques.iter().all(|t| t.0 + t.1 == 0)
    }
}

/// The crawl's TDM reservations (empty for tables of a schema before 22).
pub(super) fn load_tdm(t: &Tables<'_>, crawl: &str) -> Result<Tdm> {
    let mut tdm = Tdm::default();
    let cols = ["tdm_reservation", "technique", "overridden", "pages"];
    t.each(Table::SummaryPageTdm, crawl, &cols, &[], |b| {
        let (reservation, technique) = (b.i32s("tdm_reservation")?, b.strings("technique")?);
        let (overridden, pages) = (b.bools("overridden")?, b.i64s("pages")?);
        for i in 0..b.len() {
            let n = pages.value(i).max(0) as u64;
            tdm.pages_2xx += n;
            let k = (technique.is_valid(i))
                .then(|| (Technique::ALL.iter()).position(|t| t.as_str() == technique.value(i)))
                .flatten();
            let (Some(k), true) = (k, reservation.is_valid(i)) else {
                continue;
            };
            let at = &mut tdm.techniques[k];
            match reservation.value(i) {
                1 => at.0 += n,
                _ => at.1 += n,
            }
            if overridden.is_valid(i) && overridden.value(i) {
                at.2 += n;
            }
        }
        Ok(())
    })?;
    let cols = ["tdm_file", "root_reservation", "hosts"];
    t.each(Table::SummaryTdmrep, crawl, &cols, &[], |b| {
        let (file, root, hosts) = (
            b.bools("tdm_file")?,
            b.i32s("root_reservation")?,
            b.i64s("hosts")?,
        );
        for i in 0..b.len() {
            let h = hosts.value(i).max(0) as u64;
            tdm.hosts_captured += h;
            if file.is_valid(i) && file.value(i) {
                tdm.hosts_with_file += h;
            }
            if root.is_valid(i) && root.value(i) == 1 {
                tdm.hosts_root_reserved += h;
            }
        }
        Ok(())
    })?;
    Ok(tdm)
}

/// The TDM figure: per technique, the 2xx pages whose effective reservation it set, reserved
/// or not, and those where it replaced another technique's value; a sentence on the files.
pub(super) fn tdm_figure(crawl: &str, tdm: &Tdm, body: &mut String) {
    if tdm.is_empty() {
        return;
    }
    let q = "tdm_pages_reserved";
    let row = |k: &str, (reserved, not, overriding): (u64, u64, u64)| {
        format!(
            "{}{}{}{}{}",
            cell(k, "technique", Num::Text(k)),
            cell(k, "pages_reserved", Num::Count(reserved)),
            cell(
                k,
                "share_reserved",
                Num::Share(share(reserved, tdm.pages_2xx))
            ),
            cell(k, "pages_not_reserved", Num::Count(not)),
            cell(k, "pages_overriding", Num::Count(overriding)),
        )
    };
    let mut rows: Vec<String> = (Technique::ALL.iter().zip(tdm.techniques))
        .map(|(k, n)| row(k.as_str(), n))
        .collect();
    let any = tdm
        .techniques
        .iter()
        .fold((0, 0, 0), |a, t| (a.0 + t.0, a.1 + t.1, a.2 + t.2));
    rows.push(row("any", any));
    let _ = write!(
        body,
        r#"<p id="{}-tdm-said">{} of the {} 2xx pages reserve their text and data mining rights once TDMRep's processing priority is applied. {} of the {} hosts whose <code>/.well-known/tdmrep.json</code> was captured serve a TDM file there; {} of them reserve their whole site (the rule for <code>/</code>).</p>"#,
        esc(crawl),
        thousands(any.0),
        thousands(tdm.pages_2xx),
        thousands(tdm.hosts_with_file),
        thousands(tdm.hosts_captured),
        thousands(tdm.hosts_root_reserved),
    );
    Figure {
        id: format!("{crawl}-tdm"),
        title: "TDM reservations (TDMRep)",
        chart: None,
        legend: &[],
        unit: &format!(
            "2xx pages per technique of the TDM Reservation Protocol that set their effective \
             reservation: the rule of the host's tdmrep.json that matches the page, then the \
             page's tdm-reservation header, then its meta tag, each superseding the one before \
             (one that says nothing leaves the value as it was). Shares are of the crawl's {} \
             2xx pages. The last column counts the pages where the technique replaced another \
             technique's different value.",
            thousands(tdm.pages_2xx)
        ),
        totals: None,
        queries: &[q, "tdm_reservation_adoption"],
        head: &[
            "technique",
            "pages reserved",
            "share of 2xx pages",
            "pages not reserved",
            "of them overriding",
        ],
        rows,
    }
    .render(body);
}

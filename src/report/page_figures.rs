//! The page signal figures of a crawl's section: pages with a robots header or meta tag,
//! directive frequencies, header syntaxes and meta/header conflicts.

use super::chart;
use super::facts::{share, PageSignals};
use super::html::{cell, esc, esc_value, thousands, Figure, Num};
use super::page_numbers::PageDirectives;
use super::{TOP_AI, TOP_ROWS};
use crate::signals::Source;
use std::fmt::Write;

/// What pages' robots headers and meta tags say: directive frequencies, the header syntaxes
/// (Structured Fields adoption) and meta/header conflicts.
pub(super) fn directive_figures(crawl: &str, d: &PageDirectives, body: &mut String) {
    if !d.directives.is_empty() {
        directive_frequency_figure(crawl, d, body);
    }
    if !d.syntaxes.is_empty() {
        syntax_figure(crawl, d, body);
    }
    conflicts_figure(crawl, d, body);
    header_pairs_figure(crawl, d, body);
}

fn directive_frequency_figure(crawl: &str, d: &PageDirectives, body: &mut String) {
    const SOURCES: [&str; 3] = [
        Source::Meta.as_str(),
        Source::XRobotsTag.as_str(),
        Source::RobotsTag.as_str(),
    ];
    // The chart: directives addressed to every crawler, by source, most responses first.
    let mut by_directive: Vec<(&str, [u64; 3])> = Vec::new();
    for r in d.directives.iter().filter(|r| r.agent == "*") {
        let Some(k) = SOURCES.iter().position(|s| *s == r.source) else {
            continue;
        };
        match by_directive.iter_mut().find(|(x, _)| *x == r.directive) {
            Some((_, n)) => n[k] += r.responses,
            None => {
                let mut n = [0; 3];
                n[k] = r.responses;
                by_directive.push((&r.directive, n));
            }
        }
    }
    by_directive.sort_by(|a, b| {
        let total = |n: &[u64; 3]| n.iter().sum::<u64>();
        total(&b.1).cmp(&total(&a.1)).then_with(|| a.0.cmp(b.0))
    });
    let bars: Vec<chart::Bar<'_>> = (by_directive.iter().take(TOP_AI))
        .map(|(label, n)| chart::Bar {
            label,
            parts: n.iter().map(|&x| x as f64).collect(),
        })
        .collect();
    let legend = chart::legend(&["meta tag", "X-Robots-Tag", "Robots-Tag"]);
    let q = "signals_directive_frequency";
    let shown = d.directives.len().min(TOP_ROWS);
    Figure {
        id: format!("{crawl}-directives"),
        title: "Directives pages give",
        chart: (!bars.is_empty()).then(|| chart::count_bars(&bars)),
        legend: if bars.is_empty() { &[] } else { &legend },
        unit: &format!(
            "Responses that answered 2xx (any media type) giving each directive, by where it is \
             written and the agent it addresses (`*`: all crawlers); each response once per row. \
             The chart stacks, for directives addressed to all crawlers, the responses giving \
             them in each place. The table shows the {shown} most frequent of the query's {} rows.",
            d.directives.len()
        ),
        totals: None,
        queries: &[q],
        head: &["source", "agent", "directive", "responses", "hosts"],
        rows: (d.directives.iter().take(TOP_ROWS))
            .map(|r| {
                let k = format!("{}|{}|{}", r.source, r.agent, r.directive);
                format!(
                    "<td>{}</td><td>{}</td><td>{}</td>{}{}",
                    esc_value(&r.source),
                    esc_value(&r.agent),
                    esc_value(&r.directive),
                    cell(&k, "responses", Num::Count(r.responses)),
                    cell(&k, "hosts", Num::Count(r.hosts)),
                )
            })
            .collect(),
    }
    .render(body);
}

fn syntax_figure(crawl: &str, d: &PageDirectives, body: &mut String) {
    let q = "signals_sfv_adoption";
    let labels: Vec<String> = (d.syntaxes.iter())
        .map(|s| format!("{}: {}", s.source, s.syntax))
        .collect();
    let bars: Vec<chart::Bar<'_>> = (d.syntaxes.iter().zip(&labels))
        .map(|(s, label)| chart::Bar {
            label,
            parts: vec![share(s.headers, d.headers).unwrap_or(0.0)],
        })
        .collect();
    Figure {
        id: format!("{crawl}-syntax"),
        title: "Robots headers by name and syntax (Structured Fields adoption)",
        chart: Some(chart::bars(&bars)),
        legend: &[],
        unit: &format!(
            "Share of the {} X-Robots-Tag and Robots-Tag header values of responses that answered \
             2xx, by the header written and the syntax that parsed: `sfv` (valid Structured \
             Fields, the repext draft), `sfv_lenient` (the draft's intent, not valid Structured \
             Fields), `legacy`, `invalid`.",
            thousands(d.headers)
        ),
        totals: None,
        queries: &[q],
        head: &["header", "syntax", "values", "responses", "hosts", "share"],
        rows: (d.syntaxes.iter())
            .map(|s| {
                let k = format!("{}|{}", s.source, s.syntax);
                format!(
                    "<td>{}</td><td>{}</td>{}{}{}{}",
                    esc_value(&s.source),
                    esc_value(&s.syntax),
                    cell(&k, "headers", Num::Count(s.headers)),
                    cell(&k, "responses", Num::Count(s.responses)),
                    cell(&k, "hosts", Num::Count(s.hosts)),
                    cell(&k, "share", Num::Share(share(s.headers, d.headers))),
                )
            })
            .collect(),
    }
    .render(body);
}

/// Rows of the conflicts listed on the page.
const CONFLICTS_SHOWN: usize = 10;

fn conflicts_figure(crawl: &str, d: &PageDirectives, body: &mut String) {
    if d.directives.is_empty() {
        return;
    }
    let q = "signals_meta_header_conflicts";
    let n = d.conflicts.len();
    if n == 0 {
        let _ = write!(
            body,
            r#"<p id="{}-conflicts">No page that answered 2xx has a robots header saying the opposite of its robots meta tag (<code>queries/{q}.sql</code> gives no row).</p>"#,
            esc(crawl)
        );
        return;
    }
    let mut rows = Vec::new();
    for c in d.conflicts.iter().take(CONFLICTS_SHOWN) {
        let k = format!(
            "{}|{}|{}|{}",
            c.url, c.agent, c.header_directive, c.meta_directive
        );
        rows.push(format!(
            "{}{}{}{}",
            cell(&k, "url", Num::Text(&c.url)),
            cell(&k, "agent", Num::Text(&c.agent)),
            cell(&k, "header_directive", Num::Text(&c.header_directive)),
            cell(&k, "meta_directive", Num::Text(&c.meta_directive)),
        ));
    }
    Figure {
        id: format!("{crawl}-conflicts"),
        title: "Pages whose robots header and meta tag disagree",
        chart: None,
        legend: &[],
        unit: &format!(
            "Pages that answered 2xx whose robots header says the opposite of their robots meta \
             tag (in the head) for the same agent: index/noindex, follow/nofollow, \
             archive/noarchive, snippet/nosnippet, imageindex/noimageindex, all against \
             noindex, nofollow or none. {}",
            if n > CONFLICTS_SHOWN {
                format!("The first {CONFLICTS_SHOWN} of {n}, by URL.")
            } else {
                "All of them, by URL.".to_string()
            }
        ),
        totals: Some((
            &["conflicts (rows of the query)"],
            cell("", "conflicts", Num::Count(n as u64)),
        )),
        queries: &[q],
        head: &["url", "agent", "header says", "meta tag says"],
        rows,
    }
    .render(body);
}

/// Pages that carry both robots headers, and those whose two headers disagree.
fn header_pairs_figure(crawl: &str, d: &PageDirectives, body: &mut String) {
    let (Some(p), false) = (d.header_pairs, d.directives.is_empty()) else {
        return;
    };
    let q = "signals_robots_headers_both";
    if p.both == 0 {
        let _ = write!(
            body,
            r#"<p id="{}-header-pairs">No page that answered 2xx carries both an <code>X-Robots-Tag</code> and a <code>Robots-Tag</code> header (<code>queries/{q}.sql</code>).</p>"#,
            esc(crawl)
        );
        return;
    }
    let share = (p.disagree as f64 / p.both as f64 * 10_000.0).round() / 10_000.0;
    let row = format!(
        "{}{}{}{}",
        cell("", "pages_both", Num::Count(p.both)),
        cell("", "pages_disagree", Num::Count(p.disagree)),
        cell("", "share_disagree", Num::Share(Some(share))),
        cell("", "hosts_disagree", Num::Count(p.hosts_disagree)),
    );
    Figure {
        id: format!("{crawl}-header-pairs"),
        title: "Pages with two robots headers",
        chart: None,
        legend: &[],
        unit: &format!(
            "Pages that answered 2xx with both an X-Robots-Tag and a Robots-Tag header (repext's \
             name, draft-illyes-repext; it leaves open what a crawler does with both), and those \
             where the two give some crawler different directives{}. \
             queries/signals_robots_headers_disagree.sql lists them, per page and agent.",
            if p.disagree == 0 { ": none" } else { "" }
        ),
        totals: None,
        queries: &[q, "signals_robots_headers_disagree"],
        head: &[
            "pages with both",
            "the two disagree",
            "share that disagree",
            "hosts where they disagree",
        ],
        rows: vec![row],
    }
    .render(body);
}

pub(super) fn page_figures(crawl: &str, p: &PageSignals, body: &mut String) {
    let q = "signals_html_share";
    let kinds = [
        ("robots meta tag", "with_meta", "share_meta", p.with_meta),
        (
            "robots header",
            "with_header",
            "share_header",
            p.with_header,
        ),
        ("either", "with_any", "share_any", p.with_any),
    ];
    let bars: Vec<chart::Bar<'_>> = kinds
        .iter()
        .map(|(label, _, _, n)| chart::Bar {
            label,
            parts: vec![share(*n, p.html_pages).unwrap_or(0.0)],
        })
        .collect();
    let mut rows: Vec<String> = kinds
        .iter()
        .map(|(label, count, share_col, n)| {
            format!(
                "<td>{}</td>{}{}",
                esc(label),
                cell("", count, Num::Count(*n)),
                cell("", share_col, Num::Share(share(*n, p.html_pages)))
            )
        })
        .collect();
    rows.push(format!(
        "<td>TDM Reservation Protocol signal</td>{}<td></td>",
        cell("", "with_tdm", Num::Count(p.with_tdm))
    ));
    rows.push(format!(
        "<td>HTML pages (2xx)</td>{}<td></td>",
        cell("", "html_pages", Num::Count(p.html_pages))
    ));
    rows.push(format!(
        "<td>hosts with such pages</td>{}<td></td>",
        cell("", "hosts", Num::Count(p.hosts))
    ));
    Figure {
        id: format!("{crawl}-pages"),
        title: "HTML pages with a robots meta tag or header",
        chart: (p.with_any > 0).then(|| chart::bars(&bars)),
        legend: &[],
        unit: &format!(
            "Share of the crawl's {} that answered 2xx (every response counts).",
            match p.html_pages {
                1 => "1 HTML page".to_string(),
                n => format!("{} HTML pages", thousands(n)),
            }
        ),
        totals: None,
        queries: &[q],
        head: &["", "pages", "share"],
        rows,
    }
    .render(body);
}

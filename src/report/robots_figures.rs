//! What was read into a crawl and how its robots.txt files are written: inputs, errors, fetch
//! outcomes, extensions, accidental blocks, Content-Signal values.

use super::chart;
use super::facts::{share, Extensions, Read};
use super::html::{cell, error_kind, esc, esc_value, hosts_words, thousands, Figure, Num};
use super::{TOP_AI, TOP_ROWS};

pub(super) fn read_figures(crawl: &str, r: &Read, body: &mut String) {
    body.push_str("<h3>What was read</h3>");
    let q = "read_summary";
    let row = |label: &str, column: &str, n: u64| {
        format!("<td>{}</td>{}", esc(label), cell("", column, Num::Count(n)))
    };
    Figure {
        id: format!("{crawl}-read"),
        title: "Inputs, records and robots.txt captures",
        chart: None,
        legend: &[],
        unit: "Counts over the crawl's inputs.",
        totals: None,
        queries: &[q],
        head: &["", "count"],
        rows: vec![
            row("inputs", "inputs", r.inputs),
            row(
                "inputs that could not be read",
                "inputs_failed",
                r.inputs_failed,
            ),
            row(
                "inputs read with problems",
                "inputs_with_errors",
                r.inputs_with_errors,
            ),
            row("records", "records", r.records),
            row("robots.txt captures", "robots_captures", r.robots_captures),
            row(
                "hosts with a robots.txt capture",
                "robots_hosts",
                r.robots_hosts,
            ),
            row("problems (errors rows)", "errors", r.errors),
        ],
    }
    .render(body);
    if !r.errors_by_kind.is_empty() {
        Figure {
            id: format!("{crawl}-errors"),
            title: "Problems by kind",
            chart: None,
            legend: &[],
            unit: "errors rows, summed over the crawl's inputs.",
            totals: None,
            queries: &["errors_by_input"],
            head: &["kind", "errors"],
            rows: r
                .errors_by_kind
                .iter()
                .map(|(k, n)| {
                    format!(
                        "<td>{}</td>{}",
                        error_kind(k),
                        cell(k, "errors", Num::Count(*n))
                    )
                })
                .collect(),
        }
        .render(body);
    }
    if r.robots_captures > 0 {
        let bars: Vec<chart::Bar<'_>> = r
            .fetch_outcomes
            .iter()
            .map(|(o, n)| chart::Bar {
                label: o,
                parts: vec![share(*n, r.robots_captures).unwrap_or(0.0)],
            })
            .collect();
        let q = "robots_fetch_outcomes";
        Figure {
            id: format!("{crawl}-fetch"),
            title: "How robots.txt fetches ended",
            chart: Some(chart::bars(&bars)),
            legend: &[],
            unit: &format!(
                "Share of the crawl's {} (every capture counts, repeated captures of a host \
                 included).",
                match r.robots_captures {
                    1 => "1 robots.txt capture".to_string(),
                    n => format!("{} robots.txt captures", thousands(n)),
                }
            ),
            totals: None,
            queries: &[q],
            head: &["fetch outcome", "captures", "share"],
            rows: r
                .fetch_outcomes
                .iter()
                .map(|(o, n)| {
                    format!(
                        "<td>{}</td>{}{}",
                        esc_value(o),
                        cell(o, "captures", Num::Count(*n)),
                        cell(o, "share", Num::Share(share(*n, r.robots_captures)))
                    )
                })
                .collect(),
        }
        .render(body);
    }
}

pub(super) fn extension_figures(crawl: &str, e: &Extensions, body: &mut String) {
    if e.rows.is_empty() {
        return;
    }
    body.push_str("<h3>robots.txt extensions</h3>");
    let q = "robots_extension_adoption";
    let bars: Vec<chart::Bar<'_>> = e
        .rows
        .iter()
        .map(|x| chart::Bar {
            label: &x.extension,
            parts: vec![share(x.hosts, e.parsed_hosts).unwrap_or(0.0)],
        })
        .collect();
    Figure {
        id: format!("{crawl}-extensions"),
        title: "Hosts writing each extension and non-standard line",
        chart: Some(chart::bars(&bars)),
        legend: &[],
        unit: &format!(
            "Share of the {} whose latest robots.txt capture was parsed (a 2xx or a resource \
             record) that have at least one such line.{}",
            hosts_words(e.parsed_hosts),
            redirected_hosts_said(e)
        ),
        totals: None,
        queries: &[q],
        head: &["extension", "hosts", "lines", "share"],
        rows: e
            .rows
            .iter()
            .map(|x| {
                let k = &x.extension;
                format!(
                    "<td>{}</td>{}{}{}",
                    esc_value(k),
                    cell(k, "hosts", Num::Count(x.hosts)),
                    cell(k, "lines", Num::Count(x.lines)),
                    cell(k, "share", Num::Share(share(x.hosts, e.parsed_hosts)))
                )
            })
            .collect(),
    }
    .render(body);
    content_signal_figure(crawl, e, body);
    accidental_blocks_figure(crawl, e, body);
}

/// Why the extensions' denominator differs from the AI figures' hosts (2xx): those read a host
/// at its governing capture, which follows its latest capture's redirects; the extensions read
/// the lines of the latest capture itself. Every parsed latest capture governs its host, so
/// the difference is the hosts whose latest capture redirects to a 2xx.
fn redirected_hosts_said(e: &Extensions) -> String {
    let redirected = e.hosts_2xx.saturating_sub(e.parsed_hosts);
    if redirected == 0 {
        return String::new();
    }
    format!(
        " Fewer than the {} (2xx) of the AI figures: those read a host where its redirects \
         lead, so they also count the {} whose latest capture is a redirect to a robots.txt \
         that answered 2xx; here only the lines of a host's own latest capture are counted.",
        hosts_words(e.hosts_2xx),
        hosts_words(redirected)
    )
}

/// Files whose `*` shares the group of AI agents (`robots_accidental_blocks.sql`).
fn accidental_blocks_figure(crawl: &str, e: &Extensions, body: &mut String) {
    if e.hosts_2xx == 0 {
        return;
    }
    let (Some(with_ai), Some(split)) = (e.wildcard_with_ai, e.wildcard_split) else {
        body.push_str(
            "<p>The files that may block every crawler by accident are not counted: this \
             crawl's summary_robots_hosts predates them (run <code>repcensus hosts</code> on \
             the tables of a scan of schema 12 or later).</p>",
        );
        return;
    };
    let q = "robots_accidental_blocks";
    Figure {
        id: format!("{crawl}-accidental-blocks"),
        title: "Files that may block every crawler by accident",
        chart: None,
        legend: &[],
        unit: &format!(
            "Of the {} whose governing robots.txt is a 2xx: those whose file puts `*` in \
             one group with AI agents (their rules then bind every crawler, Googlebot included), \
             and those where a blank, comment, Sitemap or Crawl-delay line sits between `*` and \
             the agent lines after it, which RFC 9309 and Google read as one group.",
            hosts_words(e.hosts_2xx)
        ),
        totals: None,
        queries: &[q],
        head: &[
            "hosts (2xx)",
            "* in one group with AI agents",
            "its share",
            "* split from the agents after it",
        ],
        rows: vec![format!(
            "{}{}{}{}",
            cell("", "hosts_2xx", Num::Count(e.hosts_2xx)),
            cell("", "hosts_wildcard_with_ai", Num::Count(with_ai)),
            cell(
                "",
                "share_wildcard_with_ai",
                Num::Share(share(with_ai, e.hosts_2xx))
            ),
            cell("", "hosts_wildcard_split", Num::Count(split)),
        )],
    }
    .render(body);
}

/// Content-Signal's values (`robots_content_signal_values.sql`).
fn content_signal_figure(crawl: &str, e: &Extensions, body: &mut String) {
    let Some(users) = e.rows.iter().find(|x| x.extension == "content_signal") else {
        return;
    };
    let q = "robots_content_signal_values";
    let labels: Vec<String> = (e.content_signals.iter())
        .map(|v| match &v.value {
            Some(value) => format!("{}={value}", v.signal),
            None => v.signal.clone(),
        })
        .collect();
    let bars: Vec<chart::Bar<'_>> = (e.content_signals.iter())
        .zip(&labels)
        .take(TOP_AI)
        .map(|(v, label)| chart::Bar {
            label,
            parts: vec![share(v.hosts, users.hosts).unwrap_or(0.0)],
        })
        .collect();
    Figure {
        id: format!("{crawl}-content-signal"),
        title: "What Content-Signal lines say",
        chart: Some(chart::bars(&bars)),
        legend: &[],
        unit: &format!(
            "Share of the {} whose latest robots.txt capture has a Content-Signal line that \
             gives each signal each value (a line's value split at commas into `signal=value`, \
             lowercased); a host giving both values of a signal counts for each.{} {}",
            hosts_words(users.hosts),
            if e.content_signals.iter().any(|v| v.value.is_none()) {
                " A signal written without `=` (`ai-input` alone) has no value written: the \
                 query's value is NULL, and contentsignals.org gives it no meaning."
            } else {
                ""
            },
            if e.content_signals.len() > TOP_ROWS {
                format!(
                    "The {TOP_ROWS} most frequent of the query's {} rows.",
                    e.content_signals.len()
                )
            } else {
                String::new()
            }
        ),
        totals: None,
        queries: &[q],
        head: &["signal", "value", "hosts", "share"],
        rows: (e.content_signals.iter().take(TOP_ROWS))
            .map(|v| {
                let value = v.value.as_deref().unwrap_or("");
                let k = format!("{}|{value}", v.signal);
                format!(
                    "<td>{}</td><td>{}</td>{}{}",
                    esc_value(&v.signal),
                    if v.value.is_some() {
                        esc_value(value)
                    } else {
                        "<i>no value written</i>".into()
                    },
                    cell(&k, "hosts", Num::Count(v.hosts)),
                    cell(&k, "share", Num::Share(share(v.hosts, users.hosts))),
                )
            })
            .collect(),
    }
    .render(body);
}

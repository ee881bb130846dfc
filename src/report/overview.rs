//! The top of the page: what the folder holds and the answer to the first questions before any
//! detail. Every crawl is named with what was read into it, every kind of problem with its
//! count (also for crawls without a section), the latest crawl's headline figures, and what
//! changed between the two latest crawls of one collection.

use super::crawls::{collection, collections, CrawlFigures};
use super::csv_link::Csv;
use super::facts::share;
use super::html::{cell_of, error_glossary, error_kind, esc, esc_value, thousands, Num};
use std::fmt::Write;

/// AI agents named in the overview's figures.
const GLANCE_AGENTS: usize = 5;

pub(super) fn overview(
    figures: &[&CrawlFigures],
    failed: &[(&str, &str)],
    shown: &[&str],
    body: &mut String,
) {
    body.push_str(r#"<section id="overview"><h2>At a glance</h2>"#);
    totals(figures, failed, body);
    let latest = (figures.iter().rev()).find(|f| has_headline(f));
    if let Some(latest) = latest {
        latest_figure(latest, body);
    }
    changed(figures, body);
    crawls_table(figures, failed, shown, body);
    problems_table(figures, body);
    body.push_str("</section>\n");
}

/// Whether the overview can give a crawl's headline (it has agent figures and a date): the
/// last such crawl in page order is the one it gives.
pub(super) fn has_headline(f: &CrawlFigures) -> bool {
    f.agents.is_some() && f.read.first_capture.is_some()
}

/// One sentence of totals over every crawl.
fn totals(figures: &[&CrawlFigures], failed: &[(&str, &str)], body: &mut String) {
    let sum = |f: fn(&CrawlFigures) -> u64| figures.iter().map(|c| f(c)).sum::<u64>();
    let hosts = sum(|c| c.read.robots_hosts);
    let pages = sum(|c| c.pages_any.map_or(0, |p| p.1));
    let errors = sum(|c| c.read.errors);
    let kinds: std::collections::BTreeSet<&str> = (figures.iter())
        .flat_map(|c| c.read.errors_by_kind.keys().map(|k| k.as_str()))
        .collect();
    let _ =
        write!(
        body,
        "<p>{} crawl{} ({} with robots.txt captures): {} hosts with a robots.txt capture and {} \
         HTML pages that answered 2xx, summed over the crawls; {} problem{} met while reading \
         (errors rows{}), each crawl's below.{}</p>",
        figures.len() + failed.len(),
        if figures.len() + failed.len() == 1 { "" } else { "s" },
        figures.iter().filter(|c| c.read.robots_captures > 0).count(),
        thousands(hosts),
        thousands(pages),
        thousands(errors),
        if errors == 1 { "" } else { "s" },
        if kinds.is_empty() {
            String::new()
        } else {
            format!(", of {} kind{}", kinds.len(), if kinds.len() == 1 { "" } else { "s" })
        },
        if failed.is_empty() {
            String::new()
        } else {
            format!(
                " The tables of {} crawl{} could not be read: {}.",
                failed.len(),
                if failed.len() == 1 { "" } else { "s" },
                failed.iter().map(|(c, _)| esc_value(c)).collect::<Vec<_>>().join(", ")
            )
        }
    );
}

/// The latest crawl's headline: hosts blocking every crawler through `*`, the AI agents most
/// blocked by name, hosts naming an AI agent.
fn latest_figure(f: &CrawlFigures, body: &mut String) {
    let a = f.agents.as_ref().expect("a crawl with agents");
    let c = &f.crawl;
    let mut rows = Vec::new();
    // A row of the figure: its label, then a count and a share of one query's row.
    let row =
        |label: String, query: &str, key: &str, count: (&str, u64), share: (&str, Option<f64>)| {
            format!(
                "<td>{label}</td>{}{}",
                cell_of(query, c, key, count.0, Num::Count(count.1)),
                cell_of(query, c, key, share.0, Num::Share(share.1)),
            )
        };
    if let Some(star) = a.star {
        rows.push(row(
            "hosts blocking every crawler they do not name, through <code>*</code>".into(),
            "agents_wildcard_blocking",
            "",
            ("star_full_block", star.full_block),
            ("share_full_block", share(star.full_block, a.hosts_2xx)),
        ));
    }
    for s in a.top_named(GLANCE_AGENTS).agents() {
        rows.push(row(
            format!(
                "hosts fully blocking {} ({} of them by name)",
                esc_value(&s.agent),
                thousands(s.by_own_group)
            ),
            "agents_full_block_share",
            &s.agent,
            ("full_block", s.full_block),
            ("share_2xx", s.share_2xx()),
        ));
    }
    rows.push(row(
        "hosts naming an AI agent".into(),
        "agents_ai_named_share",
        "",
        ("hosts_naming_ai", a.hosts_naming_ai),
        ("share", share(a.hosts_naming_ai, a.hosts_2xx)),
    ));
    let _ = write!(
        body,
        r##"<h3>The latest crawl: {} ({})</h3><p>Of its {} whose robots.txt answered 2xx, each read at the capture that governs it. The AI agents are those most often fully blocked, of those some host blocks by a group naming them, most first (as in section <a href="#crawl-{}">{}</a>).</p>"##,
        esc_value(c),
        f.period().unwrap_or_default(),
        match a.hosts_2xx {
            1 => "one host".to_string(),
            n => format!("{} hosts", thousands(n)),
        },
        esc(c),
        esc_value(c),
    );
    table("at-a-glance", &["", "hosts", "share"], &rows, body);
    super::studies::figure(c, &f.studies, body);
}

/// What changed between the two latest crawls of one collection, in the shares of the latest
/// crawl's headline; or why nothing is compared.
fn changed(figures: &[&CrawlFigures], body: &mut String) {
    body.push_str("<h3>What changed</h3>");
    let with_agents: Vec<&CrawlFigures> = (figures.iter().copied())
        .filter(|f| f.agents.is_some() && f.read.first_capture.is_some())
        .collect();
    let names: Vec<&str> = with_agents.iter().map(|f| f.crawl.as_str()).collect();
    let ids = collections(&names);
    let pair = (1..with_agents.len()).rev().find_map(|later| {
        let id = ids[later]?;
        let earlier = (0..later).rev().find(|&e| ids[e] == Some(id))?;
        Some((with_agents[earlier], with_agents[later]))
    });
    let Some((before, after)) = pair else {
        body.push_str(
            "<p>No two crawls of this folder are of one collection (crawls whose names differ \
             only in their digits, like CC-MAIN-2024-22 and CC-MAIN-2024-26): a share in one \
             crawl is not compared with a share in a crawl of another kind. The change section \
             shows each crawl apart, in date order.</p>",
        );
        return;
    };
    let (a, b) = (
        before.agents.as_ref().expect("agents"),
        after.agents.as_ref().expect("agents"),
    );
    let mut rows = Vec::new();
    let q = "agents_full_block_share";
    let points = |x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) => format!(r#"<td class="num">{:+.2}</td>"#, (y - x) * 100.0),
        _ => r#"<td class="num">n/a</td>"#.to_string(),
    };
    if let (Some(sa), Some(sb)) = (a.star, b.star) {
        let (x, y) = (
            share(sa.full_block, a.hosts_2xx),
            share(sb.full_block, b.hosts_2xx),
        );
        let of = |f: &CrawlFigures, v| {
            cell_of(
                "agents_wildcard_blocking",
                &f.crawl,
                "",
                "share_full_block",
                Num::Share(v),
            )
        };
        rows.push(format!(
            "<td>every crawler, through <code>*</code></td>{}{}{}",
            of(before, x),
            of(after, y),
            points(x, y)
        ));
    }
    for s in b.top_named(GLANCE_AGENTS).agents() {
        let k = &s.agent;
        let x = a
            .shares
            .iter()
            .find(|o| &o.agent == k)
            .and_then(|o| o.share_2xx());
        rows.push(format!(
            "<td>{}</td>{}{}{}",
            esc_value(k),
            match x {
                Some(_) => cell_of(q, &before.crawl, k, "share_2xx", Num::Share(x)),
                None => r#"<td class="num">n/a</td>"#.to_string(),
            },
            cell_of(q, &after.crawl, k, "share_2xx", Num::Share(s.share_2xx())),
            points(x, s.share_2xx())
        ));
    }
    let _ = write!(
        body,
        "<p>From {} ({}) to {} ({}), crawls of one collection: the share of hosts whose \
         robots.txt answered 2xx that fully block each, and the change in percentage points. \
         Each crawl's hosts are its own: agents_blocking_change.sql follows the hosts captured \
         in both.</p>",
        esc_value(&before.crawl),
        before.period().unwrap_or_default(),
        esc_value(&after.crawl),
        after.period().unwrap_or_default(),
    );
    let head = [
        "fully blocked",
        before.crawl.as_str(),
        after.crawl.as_str(),
        "change (points)",
    ];
    table("what-changed", &head, &rows, body);
}

/// Every crawl with what was read into it, when, what it can be compared with and where its
/// section is.
fn crawls_table(
    figures: &[&CrawlFigures],
    failed: &[(&str, &str)],
    shown: &[&str],
    body: &mut String,
) {
    // Each crawl's collection once: the peers of a crawl are a pass over these.
    let keys: Vec<(&str, Option<String>)> = (figures.iter())
        .map(|f| (f.crawl.as_str(), collection(&f.crawl)))
        .collect();
    let mut rows = Vec::new();
    for f in figures {
        let c = &f.crawl;
        let key = collection(c);
        let peers: Vec<&str> = (keys.iter())
            .filter(|(o, k)| o != c && key.is_some() && *k == key)
            .map(|(o, _)| *o)
            .collect();
        let of = |column: &str, n: u64| cell_of("read_summary", c, "", column, Num::Count(n));
        rows.push(format!(
            "<td>{}</td><td>{}</td><td>{}</td>{}{}{}{}<td>{}</td>",
            esc_value(c),
            f.period().unwrap_or_else(|| "no robots.txt capture".into()),
            if peers.is_empty() {
                "none".to_string()
            } else {
                peers
                    .iter()
                    .map(|p| esc_value(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
            of("inputs", f.read.inputs),
            of("robots_hosts", f.read.robots_hosts),
            match f.pages_any {
                Some((_, pages)) => {
                    cell_of("signals_html_share", c, "", "html_pages", Num::Count(pages))
                }
                None => r#"<td class="num">0</td>"#.to_string(),
            },
            of("errors", f.read.errors),
            if shown.contains(&c.as_str()) {
                format!(r##"<a href="#crawl-{}">below</a>"##, esc(c))
            } else {
                format!("not shown: <code>--crawl {}</code>", esc_value(c))
            },
        ));
    }
    for (c, _) in failed {
        rows.push(format!(
            r##"<td>{}</td><td colspan="6">its tables could not be read</td><td><a href="#crawl-{}">below</a></td>"##,
            esc_value(c),
            esc(c)
        ));
    }
    body.push_str(
        "<h3>Crawls</h3><p>Every crawl of the folder, by date (its robots.txt captures; crawls \
         without one last). Crawls are comparable when their names differ only in their digits \
         (one collection, like CC-MAIN-2024-22 and CC-MAIN-2024-26); <code>unknown</code> \
         holds the inputs that named no crawl. Reproduce: <code>queries/read_summary.sql</code>, \
         <code>queries/signals_html_share.sql</code>.</p>",
    );
    let head = [
        "crawl",
        "robots.txt captured",
        "comparable with",
        "inputs",
        "robots.txt hosts",
        "HTML pages (2xx)",
        "problems",
        "section",
    ];
    table("crawls", &head, &rows, body);
}

/// Every kind of problem of every crawl, with its count.
fn problems_table(figures: &[&CrawlFigures], body: &mut String) {
    let mut rows = Vec::new();
    for f in figures {
        for (kind, n) in &f.read.errors_by_kind {
            rows.push(format!(
                "<td>{}</td><td>{}</td>{}",
                esc_value(&f.crawl),
                error_kind(kind),
                cell_of("errors_by_input", &f.crawl, kind, "errors", Num::Count(*n)),
            ));
        }
    }
    if rows.is_empty() {
        body.push_str("<p>No problem was met while reading: the errors table has no row.</p>");
        return;
    }
    body.push_str(
        "<h3>Problems met while reading</h3><p>errors rows by crawl and kind, summed over each \
         crawl's inputs (every intact record of a damaged input is kept). Reproduce: \
         <code>queries/errors_by_input.sql</code> (by input, with the first offset).</p>",
    );
    table("problems", &["crawl", "kind", "errors"], &rows, body);
    let kinds: std::collections::BTreeSet<&str> = (figures.iter())
        .flat_map(|f| f.read.errors_by_kind.keys().map(String::as_str))
        .collect();
    body.push_str("<p>What each kind means:</p>");
    error_glossary(kinds, body);
}

/// A table whose cells each name their query and crawl, with its rows as CSV (`name.csv`).
fn table(name: &str, head: &[&str], rows: &[String], body: &mut String) {
    body.push_str(r#"<table data-query=""><thead><tr>"#);
    for h in head {
        let _ = write!(body, "<th>{}</th>", esc(h));
    }
    body.push_str("</tr></thead><tbody>");
    for r in rows {
        let _ = write!(body, "<tr>{r}</tr>");
    }
    body.push_str("</tbody></table>");
    body.push_str(&Csv::of_rows(head, rows).link(name, None));
}

//! `repcensus report`: the census as one HTML page, read from the tables of an output folder
//! (any number of crawls and runs). Every number is the one a bundled query gives on the same
//! folder, and says so ([`html`]); charts are SVG drawn with plotters ([`chart`]).

mod chart;
mod facts;
mod html;
mod load;
mod signals;

use crate::parts::OutDir;
use anyhow::{Context, Result};
use facts::{share, Agents, Extensions, PageSignals, Read};
use html::{cell, esc, esc_value, thousands, Figure, Num};
use load::Tables;
use signals::PageDirectives;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// What to report on.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// The scan's output folder (or `s3://` prefix).
    pub tables: PathBuf,
    /// The HTML file to write.
    pub html: PathBuf,
    /// Only these crawls (all when empty).
    pub crawls: Vec<String>,
}

/// What a report held.
#[derive(Debug, Clone, Default)]
pub struct ReportSummary {
    pub crawls: Vec<String>,
    /// The crawls with a section on the page (the latest few unless crawls were named).
    pub sections: Vec<String>,
    /// What the folder lacks, as said on the page.
    pub missing: Vec<String>,
    /// Crawls whose tables could not be read (crawl, why): the page says so in their section
    /// and shows the others.
    pub failed: Vec<(String, String)>,
    pub bytes: usize,
}

/// The tables the report reads.
const TABLES: [&str; 17] = [
    "inputs",
    "errors",
    "robots_files",
    "robots_hosts",
    "summary_agents",
    "summary_agent_groups",
    "summary_robots_hosts",
    "summary_robots_outcomes",
    "summary_robots_keys",
    "summary_content_signals",
    "summary_page_directives",
    "summary_page_headers",
    "summary_page_conflicts",
    "robots_agents",
    "robots_rules",
    "host_counts",
    "page_signals",
];

/// Crawl sections a page holds unless `--crawl` names crawls (each adds 50 to 90 KB).
const MAX_SECTIONS: usize = 4;

/// AI agents shown in the blocking chart.
const TOP_AI: usize = 15;

/// Write the report of `opts.tables` to `opts.html`.
pub fn report(opts: &ReportOptions) -> Result<ReportSummary> {
    let (page, summary) = OutDir::read_existing(&opts.tables, |out| render(out, opts))?;
    write_atomically(&opts.html, page.as_bytes())?;
    Ok(ReportSummary {
        bytes: page.len(),
        ..summary
    })
}

/// Write the page beside `path` and move it into place; a failed write (a full disk) leaves
/// nothing behind.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("html.tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The page and what it holds.
fn render(out: &OutDir, opts: &ReportOptions) -> Result<(String, ReportSummary)> {
    let tables = Tables::list(out, &TABLES)?;
    let mut crawls = tables.crawls();
    if !opts.crawls.is_empty() {
        let unknown: Vec<&String> = opts
            .crawls
            .iter()
            .filter(|c| !crawls.contains(*c))
            .collect();
        anyhow::ensure!(
            unknown.is_empty(),
            "no crawl {} in {} (crawls: {})",
            unknown
                .iter()
                .map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            out.location(),
            crawls.iter().cloned().collect::<Vec<_>>().join(", ")
        );
        crawls.retain(|c| opts.crawls.contains(c));
    }
    let mut missing = missing(&tables, &out.location());
    if out.has_unfinished_runs() {
        missing.push(format!(
            "A scan into {} did not finish (it was stopped, or is still running): the inputs it had not completed are not counted here. Run it again with `--resume` to read only those.",
            out.location()
        ));
    }
    let mut body = String::new();
    if !missing.is_empty() {
        body.push_str(r#"<section class="missing"><h2>Missing</h2><ul>"#);
        for m in &missing {
            let _ = write!(body, "<li>{}</li>", esc(m));
        }
        body.push_str("</ul></section>");
    }
    // Every crawl is read (the change section needs each); a crawl whose parts cannot be read
    // gets a notice instead of half a section.
    let mut sections: Vec<(String, String)> = Vec::new();
    let mut crawl_figures = Vec::new();
    let mut failed = Vec::new();
    for crawl in &crawls {
        let mut section = String::new();
        match crawl_section(&tables, crawl, &mut section) {
            Ok(d) => {
                sections.push((crawl.clone(), section));
                crawl_figures.push(d);
            }
            Err(e) => {
                let why = format!("{e:#}");
                section.clear();
                let _ = write!(
                    section,
                    r#"<section id="crawl-{0}" class="missing"><h2>Crawl {0}</h2><p>Its tables could not be read: {1}</p></section>"#,
                    esc(crawl),
                    esc_value(&why)
                );
                sections.push((crawl.clone(), section));
                failed.push((crawl.clone(), why));
            }
        }
    }
    // Crawls in the order of their earliest robots.txt capture, as agents_blocking_change.sql.
    crawl_figures.sort_by(|a, b| {
        (a.first_capture.is_none(), a.first_capture, &a.crawl).cmp(&(
            b.first_capture.is_none(),
            b.first_capture,
            &b.crawl,
        ))
    });
    // Unless crawls are named, the page holds the sections of the latest few (and of those that
    // failed), so its size does not grow with the crawls a folder gathers.
    let shown: Vec<&str> = if opts.crawls.is_empty() && crawl_figures.len() > MAX_SECTIONS {
        // Crawls without a robots.txt capture (no time to order them by) count as the oldest.
        let mut by_time: Vec<&CrawlFigures> = crawl_figures.iter().collect();
        by_time.sort_by_key(|d| (d.first_capture.is_some(), d.first_capture, &d.crawl));
        let latest = &by_time[by_time.len() - MAX_SECTIONS..];
        let _ = write!(
            body,
            r#"<p class="missing">The folder holds {} crawls: the sections of the {MAX_SECTIONS} latest (by their earliest robots.txt capture) follow, and the change between crawls covers them all. <code>repcensus report --crawl NAME</code> (repeatable) shows the crawls named.</p>"#,
            crawls.len()
        );
        (crawls.iter())
            .filter(|c| {
                latest.iter().any(|d| &d.crawl == *c) || failed.iter().any(|(f, _)| f == *c)
            })
            .map(|c| c.as_str())
            .collect()
    } else {
        crawls.iter().map(|c| c.as_str()).collect()
    };
    let mut nav = String::new();
    for (crawl, section) in sections.iter().filter(|(c, _)| shown.contains(&c.as_str())) {
        let _ = write!(nav, r##"<a href="#crawl-{0}">{0}</a>"##, esc(crawl));
        body.push_str(section);
    }
    crawl_figures.retain(|d| d.agents.is_some());
    if crawl_figures.len() >= 2 {
        let _ = write!(nav, r##"<a href="#change">Change between crawls</a>"##);
        change_section(&crawl_figures, &mut body);
    }
    let intro = format!(
        "<p>The tables in <code>{}</code>: {} crawl{}. Written by repcensus {} (schema {}). Each \
         figure says its unit and denominator and names the bundled query that gives the same \
         numbers (run it from inside the tables' folder: <code>duckdb -c \".read REPO/queries/NAME.sql\"</code>, REPO the repcensus repository; <code>..</code> for the README's <code>out</code>).</p>",
        esc(&out.location()),
        crawls.len(),
        if crawls.len() == 1 { "" } else { "s" },
        env!("CARGO_PKG_VERSION"),
        crate::tables::SCHEMA_VERSION,
    );
    let page = html::page("repcensus report", &intro, &nav, &body);
    Ok((
        page,
        ReportSummary {
            sections: shown.iter().map(|c| c.to_string()).collect(),
            crawls: crawls.iter().cloned().collect(),
            missing,
            failed,
            bytes: 0,
        },
    ))
}

/// What the folder lacks for a full report, in words.
fn missing(t: &Tables<'_>, location: &str) -> Vec<String> {
    let mut m = Vec::new();
    if !t.has("inputs") {
        m.push(format!(
            "No tables: {location} holds no inputs table (is it the --out of a scan?)."
        ));
        return m;
    }
    if !t.has("robots_files") {
        m.push(
            "No robots_files table: no robots.txt capture was read (or scan --tables left it out)."
                .into(),
        );
    } else if !t.has("robots_hosts") || !t.has("summary_robots_outcomes") {
        m.push(format!(
            "No robots_hosts or no summaries (a sharded scan does not write them, nor did versions before the summaries): run `repcensus hosts {location}`."
        ));
    }
    if t.has("robots_files") && !t.has("summary_agents") {
        m.push("No summary_agents table (scan --tables left agent_verdict_runs out, or a sharded scan: run `repcensus hosts`): the AI crawler figures are not drawn.".into());
    }
    if t.has("robots_files") && !t.has("robots_rules") {
        m.push("No robots_rules table (scan --tables left it out): the extension figures are not drawn.".into());
    }
    if t.has("page_signals") && !t.has("summary_page_directives") {
        m.push(format!(
            "No page summaries (a sharded scan, or tables of an earlier version): run `repcensus hosts {location}`; the directive and syntax figures are not drawn."
        ));
    }
    if !t.has("host_counts") {
        m.push("No host_counts table (no page was read, or scan --tables left it out): the page signal figures are not drawn.".into());
    } else if !t.has("page_signals") {
        m.push("No page_signals table (no page gave a robots header or meta tag, or scan --tables left it out): the directive, syntax and conflict figures are not drawn.".into());
    }
    m
}

/// What the change between crawls needs of each.
struct CrawlFigures {
    crawl: String,
    first_capture: Option<i64>,
    agents: Option<Agents>,
    /// Hosts writing Content-Signal, of hosts whose latest capture was parsed (none: no such
    /// line or no robots_rules).
    content_signal: Option<(u64, u64)>,
    /// HTML pages with a robots meta tag or header, of 2xx HTML pages (none: no such page).
    pages_any: Option<(u64, u64)>,
}

/// The section of one crawl.
fn crawl_section(t: &Tables<'_>, crawl: &str, body: &mut String) -> Result<CrawlFigures> {
    let _ = write!(
        body,
        r#"<section id="crawl-{0}" data-crawl="{0}"><h2>Crawl {0}</h2>"#,
        esc(crawl)
    );
    let read = Read::load(t, crawl)?;
    read_figures(crawl, &read, body);
    let mut agents = None;
    if read.robots_hosts > 0 && t.has("summary_agents") {
        let a = Agents::load(t, crawl)?;
        agent_figures(crawl, &a, body);
        agents = Some(a);
    }
    let mut content_signal = None;
    if read.robots_hosts > 0 && t.has("summary_robots_keys") {
        let e = Extensions::load(t, crawl)?;
        extension_figures(crawl, &e, body);
        content_signal = (e.rows.iter())
            .find(|x| x.extension == "content_signal")
            .map(|x| (x.hosts, e.parsed_hosts));
    }
    let pages = PageSignals::load(t, crawl)?;
    let directives = PageDirectives::load(t, crawl)?;
    if pages.html_pages > 0 || !directives.syntaxes.is_empty() || !directives.directives.is_empty()
    {
        body.push_str("<h3>Page signals</h3>");
    }
    if pages.html_pages > 0 {
        page_figures(crawl, &pages, body);
    }
    directive_figures(crawl, &directives, body);
    body.push_str("</section>\n");
    Ok(CrawlFigures {
        crawl: crawl.to_string(),
        first_capture: read.first_capture,
        agents,
        content_signal,
        pages_any: (pages.html_pages > 0).then_some((pages.with_any, pages.html_pages)),
    })
}

/// AI agents whose full-block share the change chart follows.
const CHANGE_AGENTS: usize = 8;

/// The change of the headline shares between crawls: the AI agents most often fully blocked in
/// the last crawl, their share of hosts in each crawl (agents_full_block_share.sql), and the share
/// of hosts naming an AI agent (agents_ai_named_share.sql).
fn change_section(crawl_figures: &[CrawlFigures], body: &mut String) {
    fn agents(d: &CrawlFigures) -> &Agents {
        d.agents.as_ref().expect("crawl_figures with agents")
    }
    let last = agents(&crawl_figures[crawl_figures.len() - 1]);
    let followed: Vec<&str> = last
        .top_ai(CHANGE_AGENTS)
        .iter()
        .map(|s| s.agent.as_str())
        .collect();
    let share_of = |d: &CrawlFigures, agent: &str| {
        agents(d)
            .shares
            .iter()
            .find(|s| s.agent == agent)
            .and_then(|s| s.share_2xx())
    };
    let crawls: Vec<&str> = crawl_figures.iter().map(|d| d.crawl.as_str()).collect();
    let lines: Vec<chart::Line> = followed
        .iter()
        .map(|a| chart::Line {
            points: crawl_figures.iter().map(|d| share_of(d, a)).collect(),
        })
        .collect();
    body.push_str(r#"<section id="change"><h2>Change between crawls</h2>"#);
    let q = "agents_full_block_share";
    let legend: Vec<(&str, String)> = followed
        .iter()
        .enumerate()
        .map(|(k, a)| (*a, chart::line_colour(k)))
        .collect();
    let mut head = vec!["agent"];
    head.extend(crawls.iter().copied());
    Figure {
        id: "change-ai-blocking".into(),
        title: "AI crawlers fully blocked, crawl by crawl",
        chart: Some(chart::lines(&crawls, &lines)),
        legend: &legend,
        unit: "Share of hosts whose robots.txt answered 2xx that fully block the agent, in each \
               crawl (each host read at its governing capture); the AI agents most often fully \
               blocked in the last crawl. Crawls in the order of their earliest robots.txt \
               capture.",
        queries: &[q],
        head: &head,
        rows: followed
            .iter()
            .map(|a| {
                let mut r = format!("<td>{}</td>", esc_value(a));
                for d in crawl_figures {
                    r.push_str(&html::cell_in(
                        &d.crawl,
                        a,
                        "share_2xx",
                        Num::Share(share_of(d, a)),
                    ));
                }
                r
            })
            .collect(),
    }
    .render(body);
    other_shares_figure(crawl_figures, &crawls, body);
    body.push_str("</section>\n");
}

/// The other headline shares crawl by crawl: hosts naming an AI agent, hosts writing
/// Content-Signal, HTML pages with a robots meta tag or header.
fn other_shares_figure(crawl_figures: &[CrawlFigures], crawls: &[&str], body: &mut String) {
    type Of = fn(&CrawlFigures) -> Option<(u64, u64)>;
    let series: [(&str, &str, &str, &str, Of); 3] = [
        (
            "hosts naming an AI agent",
            "agents_ai_named_share",
            "",
            "share",
            |d| d.agents.as_ref().map(|a| (a.hosts_naming_ai, a.hosts_2xx)),
        ),
        (
            "hosts writing Content-Signal",
            "robots_extension_adoption",
            "content_signal",
            "share",
            |d| d.content_signal,
        ),
        (
            "HTML pages with a robots meta tag or header",
            "signals_html_share",
            "",
            "share_any",
            |d| d.pages_any,
        ),
    ];
    let value = |of: Of, d: &CrawlFigures| of(d).and_then(|(part, whole)| share(part, whole));
    let lines: Vec<chart::Line> = (series.iter())
        .map(|s| chart::Line {
            points: crawl_figures.iter().map(|d| value(s.4, d)).collect(),
        })
        .collect();
    let legend: Vec<(&str, String)> = (series.iter().enumerate())
        .map(|(k, s)| (s.0, chart::line_colour(k)))
        .collect();
    let rows = (series.iter())
        .map(|&(label, q, key, column, of)| {
            let mut row = format!("<td>{}</td>", esc(label));
            for d in crawl_figures {
                row.push_str(&match of(d) {
                    Some((part, whole)) => {
                        html::cell_of(q, &d.crawl, key, column, Num::Share(share(part, whole)))
                    }
                    None => r#"<td class="num">n/a</td>"#.to_string(),
                });
            }
            row
        })
        .collect();
    let mut head = vec![""];
    head.extend(crawls.iter().copied());
    Figure {
        id: "change-other".into(),
        title: "Other headline shares, crawl by crawl",
        chart: Some(chart::lines(crawls, &lines)),
        legend: &legend,
        unit: "Hosts naming an AI agent: share of hosts whose robots.txt answered 2xx that write \
               the name of an AI agent. Hosts writing Content-Signal: share of hosts whose latest \
               robots.txt capture was parsed. HTML pages: share of the HTML pages that answered \
               2xx with a robots meta tag or header. n/a: the crawl has none.",
        queries: &[
            "agents_ai_named_share",
            "robots_extension_adoption",
            "signals_html_share",
        ],
        head: &head,
        rows,
    }
    .render(body);
}

fn read_figures(crawl: &str, r: &Read, body: &mut String) {
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
            queries: &["errors_by_input"],
            head: &["kind", "errors"],
            rows: r
                .errors_by_kind
                .iter()
                .map(|(k, n)| {
                    format!(
                        "<td>{}</td>{}",
                        esc_value(k),
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
                "Share of the crawl's {} robots.txt captures (every capture counts, repeated \
                 captures of a host included).",
                thousands(r.robots_captures)
            ),
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

fn agent_figures(crawl: &str, a: &Agents, body: &mut String) {
    body.push_str("<h3>AI crawlers</h3>");
    if a.hosts_2xx == 0 {
        let _ = write!(
            body,
            r#"<p id="{}-ai-none">No host's robots.txt answered 2xx (see how the fetches ended): there is no verdict to count.</p>"#,
            esc(crawl)
        );
        return;
    }
    let top = a.top_ai(TOP_AI);
    if let Some(first) = top.first() {
        let bars: Vec<chart::Bar<'_>> = top
            .iter()
            .map(|s| chart::Bar {
                label: &s.agent,
                parts: vec![
                    s.share_2xx().unwrap_or(0.0),
                    s.share_partial_2xx().unwrap_or(0.0),
                ],
            })
            .collect();
        let q = "agents_full_block_share";
        let legend = chart::legend(&["fully blocked", "partly blocked"]);
        Figure {
            id: format!("{crawl}-ai-blocking"),
            title: "AI crawlers blocked, by share of hosts",
            chart: Some(chart::bars(&bars)),
            legend: &legend,
            unit: &format!(
                "Share of the {} hosts whose robots.txt answered 2xx (each host once, read at the \
                 capture that governs it: its latest, or where its redirects lead). The {} AI \
                 agents (registry categories ai_*) most often fully blocked. Fully: nothing may \
                 be fetched; partly: some rule disallows something, often a generic \
                 `Disallow: /admin` (agents_singled_out.sql counts hosts treating an agent more \
                 strictly than `*`).",
                thousands(first.hosts_2xx),
                top.len()
            ),
            queries: &[q],
            head: &[
                "agent",
                "operator",
                "category",
                "fully blocked",
                "share",
                "partly blocked",
                "share",
                "hosts (2xx)",
            ],
            rows: top
                .iter()
                .map(|s| {
                    let k = &s.agent;
                    format!(
                        "<td>{}</td><td>{}</td><td>{}</td>{}{}{}{}{}",
                        esc_value(k),
                        esc_value(&s.operator),
                        esc_value(&s.category),
                        cell(k, "full_block", Num::Count(s.full_block)),
                        cell(k, "share_2xx", Num::Share(s.share_2xx())),
                        cell(k, "partial_block", Num::Count(s.partial_block)),
                        cell(k, "share_partial_2xx", Num::Share(s.share_partial_2xx())),
                        cell(k, "hosts_2xx", Num::Count(s.hosts_2xx)),
                    )
                })
                .collect(),
        }
        .render(body);
    }
    singled_out_figure(crawl, a, body);
    groups_figure(crawl, a, body);
    let q = "agents_ai_named_share";
    Figure {
        id: format!("{crawl}-ai-named"),
        title: "Hosts naming an AI agent",
        chart: None,
        legend: &[],
        unit: "Hosts whose robots.txt writes the name of at least one AI agent on a user-agent \
               line, over hosts whose governing capture answered 2xx.",
        queries: &[q],
        head: &["hosts (2xx)", "naming an AI agent", "share"],
        rows: vec![format!(
            "{}{}{}",
            cell("", "hosts_2xx", Num::Count(a.hosts_2xx)),
            cell("", "hosts_naming_ai", Num::Count(a.hosts_naming_ai)),
            cell(
                "",
                "share",
                Num::Share(share(a.hosts_naming_ai, a.hosts_2xx))
            ),
        )],
    }
    .render(body);
}

fn extension_figures(crawl: &str, e: &Extensions, body: &mut String) {
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
            "Share of the {} hosts whose latest robots.txt capture was parsed (a 2xx or a \
             resource record) that have at least one such line.",
            thousands(e.parsed_hosts)
        ),
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
            "Of the {} hosts whose governing robots.txt is a 2xx: those whose file puts `*` in \
             one group with AI agents (their rules then bind every crawler, Googlebot included), \
             and those where a blank, comment, Sitemap or Crawl-delay line sits between `*` and \
             the agent lines after it, which RFC 9309 and Google read as one group.",
            thousands(e.hosts_2xx)
        ),
        queries: &[q],
        head: &[
            "hosts_2xx",
            "hosts_wildcard_with_ai",
            "share_wildcard_with_ai",
            "hosts_wildcard_split",
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
            "Share of the {} hosts whose latest robots.txt capture has a Content-Signal line that \
             give each signal each value (a line's value split at commas into `signal=value`, \
             lowercased); a host giving both values of a signal counts for each. {}",
            thousands(users.hosts),
            if e.content_signals.len() > TOP_ROWS {
                format!(
                    "The {TOP_ROWS} most frequent of the query's {} rows.",
                    e.content_signals.len()
                )
            } else {
                String::new()
            }
        ),
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
                        "<i>none</i>".into()
                    },
                    cell(&k, "hosts", Num::Count(v.hosts)),
                    cell(&k, "share", Num::Share(share(v.hosts, users.hosts))),
                )
            })
            .collect(),
    }
    .render(body);
}

/// Rows of a long query shown in its table; the query lists all.
const TOP_ROWS: usize = 20;

/// What pages' robots headers and meta tags say: directive frequencies, the header syntaxes
/// (Structured Fields adoption) and meta/header conflicts.
fn directive_figures(crawl: &str, d: &PageDirectives, body: &mut String) {
    if !d.directives.is_empty() {
        directive_frequency_figure(crawl, d, body);
    }
    if !d.syntaxes.is_empty() {
        syntax_figure(crawl, d, body);
    }
    conflicts_figure(crawl, d, body);
}

fn directive_frequency_figure(crawl: &str, d: &PageDirectives, body: &mut String) {
    const SOURCES: [&str; 3] = ["meta", "x_robots_tag", "robots_tag"];
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
    let mut rows = vec![format!(
        "<td colspan=\"3\">conflicts (rows of the query)</td>{}",
        cell("", "conflicts", Num::Count(n as u64))
    )];
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
        queries: &[q],
        head: &["url", "agent", "header says", "meta tag says"],
        rows,
    }
    .render(body);
}

fn page_figures(crawl: &str, p: &PageSignals, body: &mut String) {
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
            "Share of the crawl's {} HTML pages that answered 2xx (every response counts).",
            thousands(p.html_pages)
        ),
        queries: &[q],
        head: &["", "pages", "share"],
        rows,
    }
    .render(body);
}

fn singled_out_figure(crawl: &str, a: &Agents, body: &mut String) {
    let top = a.top_singled_out(TOP_AI);
    if top.is_empty() {
        return;
    }
    let q = "agents_singled_out";
    let bars: Vec<chart::Bar<'_>> = top
        .iter()
        .map(|s| chart::Bar {
            label: &s.agent,
            parts: vec![
                share(s.singled_to_full_block, a.hosts_with_star).unwrap_or(0.0),
                share(s.singled_out - s.singled_to_full_block, a.hosts_with_star).unwrap_or(0.0),
            ],
        })
        .collect();
    let legend = chart::legend(&["to a full block", "to a partial block"]);
    Figure {
        id: format!("{crawl}-ai-singled-out"),
        title: "AI crawlers singled out",
        chart: Some(chart::bars(&bars)),
        legend: &legend,
        unit: &format!(
            "Share of the {} hosts whose robots.txt answered 2xx (and leaves some agent to `*`) \
             whose group for the agent is stricter than their `*` reading: AI-specific \
             restriction, not a generic `Disallow: /admin`. The AI agents most often singled out.",
            thousands(a.hosts_with_star)
        ),
        queries: &[q],
        head: &[
            "agent",
            "category",
            "singled out",
            "to a full block",
            "share",
            "hosts (2xx)",
        ],
        rows: top
            .iter()
            .map(|s| {
                let k = &s.agent;
                format!(
                    "<td>{}</td><td>{}</td>{}{}{}{}",
                    esc_value(k),
                    esc_value(&s.category),
                    cell(k, "singled_out", Num::Count(s.singled_out)),
                    cell(k, "to_full_block", Num::Count(s.singled_to_full_block)),
                    cell(
                        k,
                        "share",
                        Num::Share(share(s.singled_out, a.hosts_with_star))
                    ),
                    cell(k, "hosts_2xx", Num::Count(a.hosts_with_star)),
                )
            })
            .collect(),
    }
    .render(body);
}

fn groups_figure(crawl: &str, a: &Agents, body: &mut String) {
    let mut top: Vec<&facts::Group> = a
        .groups
        .iter()
        .filter(|g| g.category.starts_with("ai_"))
        .collect();
    top.sort_by(|x, y| {
        y.full_share()
            .partial_cmp(&x.full_share())
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| (&x.category, &x.operator).cmp(&(&y.category, &y.operator)))
    });
    top.truncate(TOP_AI);
    if top.is_empty() {
        return;
    }
    let labels: Vec<String> = top
        .iter()
        .map(|g| format!("{} ({})", g.operator, g.category))
        .collect();
    let bars: Vec<chart::Bar<'_>> = top
        .iter()
        .zip(&labels)
        .map(|(g, label)| chart::Bar {
            label,
            parts: vec![
                g.full_share().unwrap_or(0.0),
                g.partial_share().unwrap_or(0.0),
            ],
        })
        .collect();
    let legend = chart::legend(&["fully blocked", "partly blocked"]);
    let q = "agents_blocking_by_category";
    Figure {
        id: format!("{crawl}-ai-operators"),
        title: "AI crawlers blocked, by operator and category",
        chart: Some(chart::bars(&bars)),
        legend: &legend,
        unit: "Share of host x agent pairs, over hosts whose robots.txt answered 2xx and the \
               operator's agents of that category (each host read at its governing capture). \
               The AI operators and categories most often fully blocked; the query lists all.",
        queries: &[q],
        head: &[
            "operator",
            "category",
            "agents",
            "hosts blocking any",
            "fully",
            "partly",
        ],
        rows: top
            .iter()
            .map(|g| {
                let k = format!("{}|{}", g.category, g.operator);
                format!(
                    "<td>{}</td><td>{}</td>{}{}{}{}",
                    esc_value(&g.operator),
                    esc_value(&g.category),
                    cell(&k, "agents", Num::Count(g.agents)),
                    cell(&k, "hosts_blocking_any", Num::Count(g.hosts_blocking_any)),
                    cell(&k, "full_block_share", Num::Share(g.full_share())),
                    cell(&k, "partial_block_share", Num::Share(g.partial_share())),
                )
            })
            .collect(),
    }
    .render(body);
}

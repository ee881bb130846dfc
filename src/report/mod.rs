//! `repcensus report`: the census as one HTML page, read from the tables of an output folder
//! (any number of crawls and runs). Every number is the one a bundled query gives on the same
//! folder, and says so ([`html`]); charts are SVG drawn with plotters ([`chart`]).

mod agent_figures;
mod change;
mod chart;
mod crawls;
mod csv_link;
mod facts;
mod file_figures;
mod html;
mod load;
mod overview;
mod page_figures;
mod page_numbers;
mod robots_figures;
mod studies;

use crate::parts::OutDir;
use crate::tables::Table;
use anyhow::{Context, Result};
use crawls::CrawlFigures;
use facts::{Agents, Extensions, PageSignals, Read};
use html::{esc, esc_value};
use load::Tables;
use page_numbers::PageDirectives;
use std::collections::BTreeSet;
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

impl ReportSummary {
    /// What `repcensus report` says when it wrote the page `html`: the crawls and sections, what
    /// the folder lacks (`quiet`: only the crawls that could not be reported).
    pub fn render(&self, html: &std::path::Path, quiet: bool) -> String {
        let mut s = String::new();
        if !quiet {
            let sections = if self.sections.len() < self.crawls.len() {
                let shown = self.sections.join(", ");
                format!(" (sections for {shown}; --crawl NAME shows others)")
            } else {
                String::new()
            };
            s += &format!(
                "wrote {}: {} crawl(s){sections}, {} KB\n",
                html.display(),
                self.crawls.len(),
                self.bytes.div_ceil(1000)
            );
            for m in &self.missing {
                s += &format!("missing: {m}\n");
            }
        }
        for (crawl, why) in &self.failed {
            s += &format!("repcensus: crawl {crawl} not reported: {why}\n");
        }
        s
    }
}

/// The tables the report reads.
const TABLES: [Table; 23] = [
    Table::Inputs,
    Table::Errors,
    Table::SummaryErrors,
    Table::RobotsFiles,
    Table::RobotsHosts,
    Table::SummaryAgents,
    Table::SummaryAgentGroups,
    Table::SummaryBlockSets,
    Table::SummaryRobotsHosts,
    Table::SummaryRobotsOutcomes,
    Table::SummaryRobotsKeys,
    Table::SummaryContentSignals,
    Table::SummaryPageDirectives,
    Table::SummaryPageHeaders,
    Table::SummaryPageConflicts,
    Table::SummaryPageHeaderPairs,
    Table::SummaryLlmsTxt,
    Table::SummaryTdmrep,
    Table::SummaryPageTdm,
    Table::RobotsAgents,
    Table::RobotsRules,
    Table::HostCounts,
    Table::PageSignals,
];

/// Crawl sections a page holds unless `--crawl` names crawls (each adds 50 to 90 KB).
const MAX_SECTIONS: usize = 4;

/// Bars of a chart of agents or directives, at most.
const TOP_AI: usize = 15;

/// Rows of a long query shown in its table; the query lists all.
const TOP_ROWS: usize = 20;

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
    let crawls = chosen_crawls(&tables, opts, out)?;
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
    // Every crawl is read (the overview and the change section need each); a crawl whose parts
    // cannot be read gets a notice instead of half a section.
    let lists = studies::ranked_lists(&tables)?;
    let mut read: Vec<Crawl> = crawls.iter().map(|c| Crawl::read(&tables, c)).collect();
    read.sort_by(|a, b| a.order_key().cmp(&b.order_key()));
    // The studies' shares stand beside the latest crawl's headline only: counted for it alone.
    let headline = (read.iter_mut().rev())
        .filter_map(|c| c.figures.as_mut().ok())
        .find(|f| overview::has_headline(f));
    if let Some(f) = headline.filter(|_| !lists.is_empty()) {
        f.studies = studies::rows(&tables, &f.crawl, &lists).map_err(|e| format!("{e:#}"));
    }
    // Parts the inputs rows count but the folder lacks: the crawl's figures would be too small.
    let lost = crate::tables::missing_parts(out)?;
    for (crawl, parts) in lost.iter().filter(|(c, _)| crawls.contains(*c)) {
        missing.push(format!(
            "Crawl {crawl}: {}.",
            crate::tables::missing_message(parts)
        ));
    }
    let shown = shown(&read, opts);
    let figures: Vec<&CrawlFigures> = read
        .iter()
        .filter_map(|c| c.figures.as_ref().ok())
        .collect();
    overview::overview(&figures, &read_failures(&read), &shown, &mut body);
    let mut nav = String::from(r##"<a href="#overview">At a glance</a>"##);
    for c in read.iter().filter(|c| shown.contains(&c.crawl.as_str())) {
        let _ = write!(nav, r##"<a href="#crawl-{0}">{0}</a>"##, esc(&c.crawl));
        body.push_str(&c.section);
    }
    if figures.iter().filter(|d| d.agents.is_some()).count() >= 2 {
        let _ = write!(nav, r##"<a href="#change">Change between crawls</a>"##);
        change::change_section(&figures, &mut body);
    }
    let intro = format!(
        "<p>The tables in <code>{}</code>: {} crawl{}. Written by repcensus {} (schema {}). Each \
         figure says its unit and denominator and names the bundled query that gives the same \
         numbers: <code>repcensus query NAME {}</code>, from any folder.</p>",
        esc(&out.location()),
        crawls.len(),
        if crawls.len() == 1 { "" } else { "s" },
        env!("CARGO_PKG_VERSION"),
        crate::tables::SCHEMA_VERSION,
        esc(&out.location()),
    );
    let page = html::page("repcensus report", &intro, &nav, &body);
    Ok((
        page,
        ReportSummary {
            sections: shown.iter().map(|c| c.to_string()).collect(),
            crawls: read.iter().map(|c| c.crawl.clone()).collect(),
            missing,
            failed: read_failures(&read)
                .into_iter()
                .map(|(c, why)| (c.to_string(), why.to_string()))
                .chain(
                    (lost.iter())
                        .filter(|(c, _)| crawls.contains(*c))
                        .map(|(c, parts)| (c.clone(), crate::tables::missing_message(parts))),
                )
                .collect(),
            bytes: 0,
        },
    ))
}

/// The crawls of the folder, or those `opts` names (an error names any it does not hold).
fn chosen_crawls(
    tables: &Tables<'_>,
    opts: &ReportOptions,
    out: &OutDir,
) -> Result<BTreeSet<String>> {
    let mut crawls = tables.crawls();
    if opts.crawls.is_empty() {
        return Ok(crawls);
    }
    let unknown: Vec<&str> = (opts.crawls.iter())
        .filter(|c| !crawls.contains(*c))
        .map(|c| c.as_str())
        .collect();
    anyhow::ensure!(
        unknown.is_empty(),
        "no crawl {} in {} (crawls: {})",
        unknown.join(", "),
        out.location(),
        crawls.iter().cloned().collect::<Vec<_>>().join(", ")
    );
    crawls.retain(|c| opts.crawls.contains(c));
    Ok(crawls)
}

/// A crawl as read for the page: its section, and its figures or why its tables could not be
/// read.
struct Crawl {
    crawl: String,
    section: String,
    figures: std::result::Result<CrawlFigures, String>,
}

impl Crawl {
    fn read(tables: &Tables<'_>, crawl: &str) -> Crawl {
        let mut section = String::new();
        let figures = crawl_section(tables, crawl, &mut section).map_err(|e| {
            let why = format!("{e:#}");
            section.clear();
            let _ = write!(
                section,
                r#"<section id="crawl-{0}" class="missing"><h2>Crawl {0}</h2><p>Its tables could not be read: {1}</p></section>"#,
                esc(crawl),
                esc_value(&why)
            );
            why
        });
        Crawl {
            crawl: crawl.to_string(),
            section,
            figures,
        }
    }

    /// Dated crawls first, by their earliest robots.txt capture; then the others, then those
    /// that failed, each by name.
    fn order_key(&self) -> (u8, Option<i64>, &str) {
        match &self.figures {
            Ok(f) => {
                let (undated, first, _) = f.order_key();
                (u8::from(undated), first, &self.crawl)
            }
            Err(_) => (2, None, &self.crawl),
        }
    }
}

/// The crawls whose tables could not be read, and why.
fn read_failures(read: &[Crawl]) -> Vec<(&str, &str)> {
    (read.iter())
        .filter_map(|c| {
            c.figures
                .as_ref()
                .err()
                .map(|e| (c.crawl.as_str(), e.as_str()))
        })
        .collect()
}

/// The crawls with a section on the page: all of them when crawls are named or few; else the
/// [`MAX_SECTIONS`] latest by their earliest robots.txt capture (crawls without one count as
/// the oldest) and those that failed, so the page does not grow with the crawls a folder
/// gathers. The overview names the others.
fn shown<'c>(read: &'c [Crawl], opts: &ReportOptions) -> Vec<&'c str> {
    if !opts.crawls.is_empty() || read.len() <= MAX_SECTIONS {
        return read.iter().map(|c| c.crawl.as_str()).collect();
    }
    let mut dated: Vec<&Crawl> = read.iter().filter(|c| c.figures.is_ok()).collect();
    dated.sort_by_key(|c| {
        let f = c.figures.as_ref().ok().map(|f| f.read.first_capture);
        (f.flatten().is_some(), f.flatten(), &c.crawl)
    });
    let latest = &dated[dated.len().saturating_sub(MAX_SECTIONS)..];
    (read.iter())
        .filter(|c| c.figures.is_err() || latest.iter().any(|l| l.crawl == c.crawl))
        .map(|c| c.crawl.as_str())
        .collect()
}

/// What the folder lacks for a full report, in words.
fn missing(t: &Tables<'_>, location: &str) -> Vec<String> {
    let mut m = Vec::new();
    if !t.has(Table::Inputs) {
        m.push(format!(
            "No tables: {location} holds no inputs table (is it the --out of a scan?)."
        ));
        return m;
    }
    if !t.has(Table::RobotsFiles) {
        m.push(
            "No robots_files table: no robots.txt capture was read (or scan --tables left it out)."
                .into(),
        );
    } else if !t.has(Table::RobotsHosts) || !t.has(Table::SummaryRobotsOutcomes) {
        m.push(format!(
            "No robots_hosts or no summaries (a sharded scan does not write them, nor did versions before the summaries): run `repcensus hosts {location}`."
        ));
    }
    if t.has(Table::RobotsFiles) && !t.has(Table::SummaryAgents) {
        m.push("No summary_agents table (scan --tables left agent_verdict_runs out, or a sharded scan: run `repcensus hosts`): the AI crawler figures are not drawn.".into());
    }
    if t.has(Table::RobotsFiles) && !t.has(Table::RobotsRules) {
        m.push("No robots_rules table (scan --tables left it out): the extension figures are not drawn.".into());
    }
    if t.has(Table::PageSignals) && !t.has(Table::SummaryPageDirectives) {
        m.push(format!(
            "No page summaries (a sharded scan, or tables of an earlier version): run `repcensus hosts {location}`; the directive and syntax figures are not drawn."
        ));
    }
    if !t.has(Table::HostCounts) {
        if responses_besides_robots(t) {
            m.push("No host_counts table (no page was read, or scan --tables left it out): the page signal figures are not drawn.".into());
        }
    } else if !t.has(Table::PageSignals) {
        m.push("No page_signals table (no page gave a robots header or meta tag, or scan --tables left it out): the directive, syntax and conflict figures are not drawn.".into());
    }
    m
}

/// Whether any input holds a response (or resource) that is not a robots.txt capture: a scan
/// of robots.txt files alone writes no `host_counts` row, and lacks nothing. Unreadable inputs
/// tables count as such responses, so that what may be missing is said.
fn responses_besides_robots(t: &Tables<'_>) -> bool {
    let mut besides = 0i64;
    let cols = ["records_response", "records_resource", "rows_robots_files"];
    for crawl in t.crawls() {
        let counted = t.each(Table::Inputs, &crawl, &cols, &[], |b| {
            let (responses, resources) = (b.i64s(cols[0])?, b.i64s(cols[1])?);
            let robots = b.i64s(cols[2])?;
            for i in 0..b.len() {
                besides += responses.value(i) + resources.value(i) - robots.value(i);
            }
            Ok(())
        });
        if counted.is_err() || besides > 0 {
            return true;
        }
    }
    false
}

/// The section of one crawl.
fn crawl_section(t: &Tables<'_>, crawl: &str, body: &mut String) -> Result<CrawlFigures> {
    let _ = write!(
        body,
        r#"<section id="crawl-{0}" data-crawl="{0}"><h2>Crawl {0}</h2>"#,
        esc(crawl)
    );
    let read = Read::load(t, crawl)?;
    robots_figures::read_figures(crawl, &read, body);
    let mut agents = None;
    if read.robots_hosts > 0 && t.has(Table::SummaryAgents) {
        let a = Agents::load(t, crawl)?;
        agent_figures::agent_figures(crawl, &a, body);
        agents = Some(a);
    }
    let mut content_signal = None;
    if read.robots_hosts > 0 && t.has(Table::SummaryRobotsKeys) {
        let e = Extensions::load(t, crawl)?;
        robots_figures::extension_figures(crawl, &e, body);
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
        page_figures::page_figures(crawl, &pages, body);
    }
    page_figures::directive_figures(crawl, &directives, body);
    let llms = file_figures::load_llms(t, crawl)?;
    let tdm = file_figures::load_tdm(t, crawl)?;
    if !llms.is_empty() || !tdm.is_empty() {
        body.push_str("<h3>Other files</h3>");
        file_figures::llms_figure(crawl, &llms, pages.all_hosts, body);
        file_figures::tdm_figure(crawl, &tdm, body);
    }
    body.push_str("</section>\n");
    Ok(CrawlFigures {
        crawl: crawl.to_string(),
        read,
        agents,
        content_signal,
        pages_any: (pages.html_pages > 0).then_some((pages.with_any, pages.html_pages)),
        // Counted by `render` for the crawl whose headline the overview shows.
        studies: Ok(Vec::new()),
    })
}

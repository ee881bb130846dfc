//! `page_verdicts`: whether each 2xx HTML page of a crawl may be fetched by each chosen agent,
//! by the robots.txt capture that governs the page's host (`robots_hosts`), in Google's
//! reading, RFC 9309's and the crawler's documented one.
//!
//! The robots.txt bodies are not kept, but every line a matcher reads is: the user-agent and
//! purpose lines (`robots_agents.agent_raw`) and the Allow/Disallow lines (`robots_rules.value`,
//! the pattern %-normalised as Google matches it). A governing capture's file is made again from
//! those lines in line order (`key:value`, one per line) and parsed: groups start and end only
//! at those lines, so the groups, and every verdict, are the original's (tests/derived/page_verdicts.rs
//! checks it against the original bodies of samples/real-robots.warc.gz).
//!
//! The pages are read twice: once for the captures that govern their hosts, then once per pass
//! over those captures, at most [`CAPTURES_PER_PASS`] files made again and parsed at a time, so
//! memory is bounded whatever the crawl's size (a pass reads the crawl's `robots_agents` and
//! `robots_rules` parts too).

use super::read::{read_beside, Governs};
use super::site::Site;
use super::tally::missing;
use crate::agents::{Agent, Registry, CATEGORIES};
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartOutcome, PartRef};
use crate::robots::classify::Verdict;
use crate::robots::{encoding, path_params_query, Matcher, RobotsTxt, Source};
use crate::rows::from_robots::verdicts::{unparsed, DocumentedSource};
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::{PageVerdictRow, PageVerdictsBuilder, Table, TableBuilder};
use anyhow::{bail, Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use rustc_hash::FxHashMap;

str_enum! {
    /// Whether an agent may fetch a page (the `verdict*` columns of `page_verdicts`).
    pub enum PageVerdict {
        /// A rule allows the URL, or none disallows it.
        Allowed = "allowed",
        Disallowed = "disallowed",
        /// The host's robots.txt is unavailable (4xx, empty): everything may be fetched.
        NoRobots = "no_robots",
        /// A 5xx or 429 robots.txt: Google stops crawling (RFC 9309's reading: a 5xx
        /// disallows, a 429 allows).
        Unreachable = "unreachable",
        /// The host's robots.txt redirects to a URL the crawl never captured.
        Redirect = "redirect",
        /// A revisit that could not be resolved, or a capture without an HTTP status.
        Unknown = "unknown",
        /// `verdict_documented` only: the crawler does not honour robots.txt.
        NotHonored = "not_honored",
    }
}

/// Captures whose files are made again and parsed in one pass over the pages, at most.
pub const CAPTURES_PER_PASS: usize = 50_000;

/// The agents whose page verdicts are derived, as registry positions: those named in `names`
/// (an agent's name, any case, or a category: all its agents), by default the `ai_training`
/// agents.
pub fn choose_agents(registry: &Registry, names: Option<&[String]>) -> Result<Vec<usize>> {
    let default = ["ai_training".to_string()];
    let mut chosen = Vec::new();
    for name in names.unwrap_or(&default) {
        let name = name.trim();
        if let Some(k) = registry.position(name) {
            chosen.push(k);
        } else if CATEGORIES.contains(&name) {
            let of = |a: &(usize, &Agent)| a.1.category == name;
            chosen.extend(registry.agents.iter().enumerate().filter(of).map(|a| a.0));
        } else {
            bail!("--page-agents: {name:?} is neither an agent of the registry (repcensus agents) nor a category ({CATEGORIES:?})");
        }
    }
    chosen.sort_unstable();
    chosen.dedup();
    Ok(chosen)
}

/// What a crawl's `robots_hosts` derivation knows, which the page verdicts read.
pub struct Hosts<'a> {
    /// One per host (by the site of its latest capture), with ids of `hosts`, `files` and
    /// `outcomes`.
    pub governs: &'a [Governs],
    /// Each site of the hosts that have more than one.
    pub sites: &'a super::host_index::SiteGoverns,
    pub hosts: &'a Names,
    pub files: &'a Names,
    pub outcomes: &'a Names,
}

/// The crawl's parts the page verdicts are made from.
pub struct Parts<'a> {
    pub pages: &'a [PartRef],
    pub robots_agents: &'a [PartRef],
    pub robots_rules: &'a [PartRef],
    /// The crawl's `inputs` parts: they say whether each input's lines were written.
    pub inputs: &'a [PartRef],
}

/// The columns of `robots_agents` and `robots_rules` a file is made again from.
pub(super) const AGENT_LINE_COLUMNS: [&str; 5] = [
    "warc_file",
    "warc_offset",
    "line_no",
    "line_kind",
    "agent_raw",
];
pub(super) const RULE_LINE_COLUMNS: [&str; 5] =
    ["warc_file", "warc_offset", "line_no", "key", "value"];

pub(super) const PAGE_COLUMNS: [&str; 6] = [
    "warc_file",
    "warc_offset",
    "url",
    "host",
    "http_status",
    "html",
];

/// What deriving a crawl's `page_verdicts` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Derived {
    /// Rows written (none when the crawl has no pages, or none on a host with a robots.txt).
    Rows(u64),
    /// Not derived, and why: the robots.txt files cannot be made again (an input was scanned
    /// without `robots_agents` or `robots_rules`). An earlier part is removed.
    Skipped(String),
}

/// Derive the crawl's `page_verdicts` part (none when it has no pages or no chosen agent) and
/// commit it.
pub fn derive_crawl(
    out: &OutDir,
    crawl: &str,
    parts: &Parts<'_>,
    hosts: &Hosts<'_>,
    registry: &Registry,
    agents: &[usize],
) -> Result<Derived> {
    if let Some(done) = nothing_to_derive(out, crawl, parts, agents)? {
        return Ok(done);
    }
    let mut rows = Rows::new(out, crawl)?;
    rows.add(out, parts, hosts, registry, agents)?;
    rows.finish(out)
}

/// When the crawl gets no `page_verdicts` rows (no pages, no chosen agent, or inputs without
/// their lines): its part removed (committed empty), and why. `None` when it has rows to make.
pub fn nothing_to_derive(
    out: &OutDir,
    crawl: &str,
    parts: &Parts<'_>,
    agents: &[usize],
) -> Result<Option<Derived>> {
    let empty = || PartOutcome::Empty(out.part_path(Table::PageVerdicts.name(), crawl, crawl));
    if parts.pages.is_empty() || agents.is_empty() {
        out.commit(vec![empty()])?;
        return Ok(Some(Derived::Rows(0)));
    }
    if let Some(input) = input_without_lines(out, parts)? {
        out.commit(vec![empty()])?;
        return Ok(Some(Derived::Skipped(format!(
            "input {input} was scanned without robots_agents or robots_rules (scan --tables), \
             whose lines page verdicts are read from"
        ))));
    }
    Ok(None)
}

/// A crawl's `page_verdicts` part being written: the pages of each partition of the crawl's
/// hosts are added in turn ([`Rows::add`]), and the part committed once ([`Rows::finish`]).
pub struct Rows {
    crawl: String,
    part: crate::parts::PartWriter,
    builder: PageVerdictsBuilder,
    rows: u64,
}

impl Rows {
    pub fn new(out: &OutDir, crawl: &str) -> Result<Self> {
        Ok(Rows {
            crawl: crawl.to_string(),
            part: out.part_writer(&PageVerdictsBuilder::desc(), crawl, crawl)?,
            builder: PageVerdictsBuilder::default(),
            rows: 0,
        })
    }

    /// Write the rows of the pages of `parts.pages` (read from `out`) on the hosts of `hosts`.
    pub fn add(
        &mut self,
        out: &OutDir,
        parts: &Parts<'_>,
        hosts: &Hosts<'_>,
        registry: &Registry,
        agents: &[usize],
    ) -> Result<()> {
        let mut d = Derivation::new(hosts, registry, agents);
        read_beside(out, parts.pages, &PAGE_COLUMNS, &[], |part, batch| {
            d.note_captures(&PageColumns::of(batch, part)?);
            Ok(())
        })?;
        let passes = d.needed.len().div_ceil(captures_per_pass()).max(1);
        let crawl = &self.crawl;
        let (part, builder, rows) = (&mut self.part, &mut self.builder, &mut self.rows);
        for pass in 0..passes {
            let files = Files::read(out, parts, hosts.files, &d.needed, |c| {
                pass_of(c, passes) == pass
            })?;
            let parsed: FxHashMap<(u32, i64), File<'_>> = (files.bodies.iter())
                .map(|(c, (body, numbers))| {
                    let robots = RobotsTxt::parse_up_to(body, usize::MAX);
                    (*c, File::new(robots, numbers))
                })
                .collect();
            let empty = File::new(RobotsTxt::parse(b""), &[]);
            read_beside(out, parts.pages, &PAGE_COLUMNS, &[], |part_ref, batch| {
                let cols = PageColumns::of(batch, part_ref)?;
                for i in 0..batch.num_rows() {
                    let Some((g, page)) = d.page(&cols, i) else {
                        continue;
                    };
                    let capture = (g.file, g.offset);
                    let outcome = d.outcome(g);
                    let robots = match outcome.has_rules() {
                        true if pass_of(capture, passes) != pass => continue,
                        true => Some(parsed.get(&capture).unwrap_or(&empty)),
                        false if pass != 0 => continue,
                        false => None,
                    };
                    d.emit(builder, &page, g, outcome, robots);
                    if builder.len() >= BATCH_ROWS {
                        *rows += builder.len() as u64;
                        part.write(&builder.finish(crawl))?;
                    }
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    /// Commit the part (none when no row was made, which removes an earlier one).
    pub fn finish(mut self, out: &OutDir) -> Result<Derived> {
        self.rows += self.builder.len() as u64;
        if !self.builder.is_empty() {
            self.part.write(&self.builder.finish(&self.crawl))?;
        }
        let part = match self.rows {
            0 => PartOutcome::Empty(out.part_path(
                Table::PageVerdicts.name(),
                &self.crawl,
                &self.crawl,
            )),
            _ => self.part.finish()?,
        };
        out.commit(vec![part])?;
        Ok(Derived::Rows(self.rows))
    }
}

const BATCH_ROWS: usize = 1 << 16;

/// An input of the crawl that has robots.txt captures but neither `robots_agents` nor
/// `robots_rules` rows from its last run (`--tables` left them out; its `inputs` row counts
/// them NULL) nor parts of them from an earlier run.
fn input_without_lines(out: &OutDir, parts: &Parts<'_>) -> Result<Option<String>> {
    let columns = [
        "path",
        "input_id",
        "rows_robots_files",
        "rows_robots_agents",
        "rows_robots_rules",
    ];
    let has_part = |of: &[PartRef], id: &str| {
        let name = format!("part-{id}.parquet");
        of.iter().any(|p| p.name().ends_with(&name))
    };
    let mut found = None;
    read_beside(out, parts.inputs, &columns, &[], |part, batch| {
        let col = |c: &str| batch.column_by_name(c).with_context(|| missing(part, c));
        let count =
            |c: &str| (col(c)?.as_primitive_opt::<Int64Type>()).with_context(|| missing(part, c));
        let text = |c: &str| {
            col(c)?
                .as_string_opt::<i32>()
                .with_context(|| missing(part, c))
        };
        let (files, agents) = (count("rows_robots_files")?, count("rows_robots_agents")?);
        let (rules, path, id) = (
            count("rows_robots_rules")?,
            text("path")?,
            text("input_id")?,
        );
        for i in 0..batch.num_rows() {
            if found.is_some() || !(files.is_valid(i) && files.value(i) > 0) {
                continue;
            }
            let id = id.value(i);
            let lost =
                |n: &arrow_array::Int64Array, of: &[PartRef]| n.is_null(i) && !has_part(of, id);
            if lost(agents, parts.robots_agents) || lost(rules, parts.robots_rules) {
                found = Some(path.value(i).to_string());
            }
        }
        Ok(())
    })?;
    Ok(found)
}

#[cfg(not(test))]
fn captures_per_pass() -> usize {
    CAPTURES_PER_PASS
}

#[cfg(test)]
thread_local! {
    /// The unit tests' [`CAPTURES_PER_PASS`], to make several passes over a few pages.
    static PER_PASS: std::cell::Cell<usize> = const { std::cell::Cell::new(CAPTURES_PER_PASS) };
}

#[cfg(test)]
fn captures_per_pass() -> usize {
    PER_PASS.get()
}

/// Which pass reads the file of `capture`.
fn pass_of(capture: (u32, i64), passes: usize) -> usize {
    let h = std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, capture);
    (h % passes as u64) as usize
}

/// The columns of a batch of `pages`.
struct PageColumns<'b> {
    file: &'b arrow_array::StringArray,
    offset: &'b arrow_array::Int64Array,
    url: &'b arrow_array::StringArray,
    host: &'b arrow_array::StringArray,
    status: &'b arrow_array::Int32Array,
    html: &'b arrow_array::BooleanArray,
}

impl<'b> PageColumns<'b> {
    fn of(batch: &'b RecordBatch, part: &PartRef) -> Result<Self> {
        let col = |c: &str| batch.column_by_name(c).with_context(|| missing(part, c));
        let text = |c: &str| col(c)?.as_string_opt().with_context(|| missing(part, c));
        Ok(PageColumns {
            file: text("warc_file")?,
            offset: (col("warc_offset")?.as_primitive_opt::<Int64Type>())
                .with_context(|| missing(part, "warc_offset"))?,
            url: text("url")?,
            host: text("host")?,
            status: (col("http_status")?.as_primitive_opt::<Int32Type>())
                .with_context(|| missing(part, "http_status"))?,
            html: (col("html")?.as_boolean_opt()).with_context(|| missing(part, "html"))?,
        })
    }
}

/// A page, as its rows name it.
struct Page<'b> {
    file: &'b str,
    offset: i64,
    url: &'b str,
    host: &'b str,
}

struct Derivation<'a> {
    hosts: &'a Hosts<'a>,
    /// Governs index by host id (`u32::MAX`: the host has no robots.txt capture).
    by_host: Vec<u32>,
    agents: Vec<&'a Agent>,
    /// The captures whose files the pages need.
    needed: rustc_hash::FxHashSet<(u32, i64)>,
    outcomes: Vec<FetchOutcome>,
    matcher: Matcher,
    path: String,
}

impl<'a> Derivation<'a> {
    fn new(hosts: &'a Hosts<'a>, registry: &'a Registry, agents: &[usize]) -> Self {
        let mut by_host = vec![u32::MAX; hosts.hosts.len()];
        for (k, g) in hosts.governs.iter().enumerate() {
            by_host[g.host as usize] = k as u32;
        }
        let outcomes = (0..hosts.outcomes.len() as u32)
            .map(|o| {
                let s = hosts.outcomes.get(o);
                let known = FetchOutcome::ALL.iter().find(|f| f.as_str() == s);
                known.copied().unwrap_or(FetchOutcome::NoHttpResponse)
            })
            .collect();
        Derivation {
            hosts,
            by_host,
            agents: agents.iter().map(|&k| &registry.agents[k]).collect(),
            needed: Default::default(),
            outcomes,
            matcher: Matcher::new(),
            path: String::new(),
        }
    }

    /// The page of row `i` and what governs its host, when it is a 2xx HTML page of a host with
    /// a robots.txt capture.
    fn page<'b>(&self, cols: &PageColumns<'b>, i: usize) -> Option<(&'a Governs, Page<'b>)> {
        let status = cols.status.is_valid(i).then(|| cols.status.value(i))?;
        let html = cols.html.is_valid(i) && cols.html.value(i);
        if !(html && (200..300).contains(&status)) {
            return None;
        }
        let host = cols.host.is_valid(i).then(|| cols.host.value(i))?;
        let id = self.hosts.hosts.find(host)?;
        let g = *self.by_host.get(id as usize).filter(|&&k| k != u32::MAX)?;
        let url = cols.url.value(i);
        // The robots.txt of the page's own scheme, host and port governs it (RFC 9309 section
        // 2.3): a page of a site without a capture is not covered.
        let site = Site::of_url(url)?;
        let g = &self.hosts.governs[g as usize];
        let g = match g.site == site {
            true => g,
            false => self.hosts.sites.get(&(id, site))?,
        };
        let page = Page {
            file: cols.file.value(i),
            offset: cols.offset.value(i),
            url,
            host,
        };
        Some((g, page))
    }

    fn outcome(&self, g: &Governs) -> FetchOutcome {
        g.outcome
            .map_or(FetchOutcome::NoHttpResponse, |o| self.outcomes[o as usize])
    }

    /// Note the captures that govern the hosts of a batch's pages and were parsed.
    fn note_captures(&mut self, cols: &PageColumns<'_>) {
        for i in 0..cols.file.len() {
            if let Some((g, _)) = self.page(cols, i) {
                if self.outcome(g).has_rules() {
                    self.needed.insert((g.file, g.offset));
                }
            }
        }
    }

    /// Append the page's row for each agent.
    fn emit(
        &mut self,
        out: &mut PageVerdictsBuilder,
        page: &Page<'_>,
        g: &Governs,
        outcome: FetchOutcome,
        robots: Option<&File<'_>>,
    ) {
        self.path = path_params_query(page.url);
        let files = self.hosts.files;
        for k in 0..self.agents.len() {
            let agent = self.agents[k];
            let r = match robots {
                Some(robots) => self.read(robots, agent),
                None => Reading::unparsed(outcome, agent),
            };
            out.append(&PageVerdictRow {
                warc_file: Some(page.file),
                warc_offset: Some(page.offset),
                url: Some(page.url),
                host: Some(page.host),
                agent: Some(&agent.name),
                agent_category: Some(&agent.category),
                robots_warc_file: Some(files.get(g.file)),
                robots_warc_offset: Some(g.offset),
                robots_fetch_outcome: Some(outcome.as_str()),
                verdict: Some(r.verdict.as_str()),
                verdict_rfc9309: Some(r.rfc9309.as_str()),
                verdict_source: r.source.map(Source::as_str),
                rule_line: r.line,
                verdict_documented: Some(r.documented.as_str()),
                verdict_documented_source: r.documented_source.map(DocumentedSource::as_str),
                content_usage: r.content_usage.as_deref(),
            });
        }
    }

    /// An agent's readings of a parsed file for the page's path.
    fn read(&mut self, file: &File<'_>, agent: &Agent) -> Reading {
        reading(&mut self.matcher, file, agent, self.path.as_bytes())
    }
}

/// An agent's readings of `file` for `path`: Google's, RFC 9309's (Google's but for the
/// encoding of paths, for a file that was parsed) and the documented one. `repcensus explain`
/// gives the same for one host.
pub fn reading(matcher: &mut Matcher, file: &File<'_>, agent: &Agent, path: &[u8]) -> Reading {
    let (robots, numbers) = (&file.robots, file.numbers);
    let purpose = agent.purpose.as_deref();
    let sel = matcher.select(robots, &[&agent.token], purpose);
    let v = matcher.decide(robots, sel, path);
    let verdict = allowed(v.allowed);
    // RFC 9309 compares the path and the patterns %-encoded alike; Google's library only
    // encodes the patterns (`robots::encoding`).
    let rfc9309 = match encoding::changes(path) || file.encoded_patterns {
        true => allowed(matcher.decide_rfc9309(robots, sel, path).allowed),
        false => verdict,
    };
    let rules = agent.group_rules();
    let (documented, documented_source, documented_line) = if agent.ignores_robots_txt() {
        (PageVerdict::NotHonored, DocumentedSource::NotHonored, None)
    } else if rules.is_google() {
        (
            verdict,
            sel.source.into(),
            (v.priority > 0).then_some(v.line_index).flatten(),
        )
    } else {
        let sel = matcher.select_documented(robots, &agent.token, purpose, rules);
        let d = matcher.decide(robots, sel, path);
        let line = (d.priority > 0).then_some(d.line_index).flatten();
        (allowed(d.allowed), sel.source.into(), line)
    };
    // attach-05: the agent's groups' preferences for the path, where it may be crawled.
    let content_usage = (verdict == PageVerdict::Allowed && robots.summary.has_content_usage)
        .then(|| {
            let mut lines = Vec::new();
            crate::robots::usage::usage_lines(robots, &agent.token, &mut lines);
            crate::signals::ai_prefs::robots_preferences(robots, &lines, matcher, path)
        })
        .flatten();
    // The line in the original file.
    let original = |index: Option<usize>| index.and_then(|i| numbers.get(i).copied());
    Reading {
        verdict,
        rfc9309,
        source: Some(v.source),
        line: original((v.priority > 0).then_some(v.line_index).flatten()),
        documented,
        documented_source: Some(documented_source),
        documented_line: original(documented_line),
        decision: Some(v),
        content_usage,
    }
}

fn allowed(yes: bool) -> PageVerdict {
    match yes {
        true => PageVerdict::Allowed,
        false => PageVerdict::Disallowed,
    }
}

/// An agent's readings of a page.
#[derive(Debug, Clone)]
pub struct Reading {
    pub verdict: PageVerdict,
    pub rfc9309: PageVerdict,
    pub source: Option<Source>,
    /// The deciding line of Google's reading, in the original file.
    pub line: Option<i32>,
    pub documented: PageVerdict,
    pub documented_source: Option<DocumentedSource>,
    /// The deciding line of the documented reading, in the original file.
    pub documented_line: Option<i32>,
    /// Google's reading as the matcher made it, for a file that was parsed.
    pub decision: Option<crate::robots::matcher::Decision>,
    /// The agent's `Content-Usage` preferences for the path, where Google's reading allows it.
    pub content_usage: Option<String>,
}

impl Reading {
    /// The readings of a capture whose body was not parsed, from its outcome (as its
    /// `agent_verdicts` rows read it).
    pub fn unparsed(outcome: FetchOutcome, agent: &Agent) -> Self {
        let v = unparsed(outcome);
        let of = |v: Verdict| match v {
            Verdict::NoRobots | Verdict::Allowed => PageVerdict::NoRobots,
            Verdict::Unreachable => PageVerdict::Unreachable,
            Verdict::FullBlock => PageVerdict::Disallowed,
            Verdict::Redirect => PageVerdict::Redirect,
            _ => PageVerdict::Unknown,
        };
        let (documented, documented_source) = match agent.ignores_robots_txt() {
            true => (PageVerdict::NotHonored, Some(DocumentedSource::NotHonored)),
            false => (of(v.verdict_documented), v.documented_source),
        };
        Reading {
            verdict: of(v.verdict),
            rfc9309: of(v.verdict_rfc9309),
            source: v.source,
            line: None,
            documented,
            documented_source,
            documented_line: None,
            decision: None,
            content_usage: None,
        }
    }
}

/// A file made again from its lines, parsed, with the original number of each of its lines.
pub struct File<'b> {
    pub robots: RobotsTxt<'b>,
    pub numbers: &'b [i32],
    /// Some pattern reads otherwise once %-encoded as RFC 9309 says (`robots::encoding`):
    /// found once per file, not for each page and agent.
    encoded_patterns: bool,
}

impl<'b> File<'b> {
    pub fn new(robots: RobotsTxt<'b>, numbers: &'b [i32]) -> Self {
        let encoded_patterns = encoding::patterns_change(&robots);
        File {
            robots,
            numbers,
            encoded_patterns,
        }
    }
}

/// The files of some captures, made again from their lines, with each line's number in the
/// original.
struct Files {
    bodies: FxHashMap<(u32, i64), (Vec<u8>, Vec<i32>)>,
}

impl Files {
    /// Read the lines of the captures of `needed` that `take` takes from the crawl's
    /// `robots_agents` and `robots_rules` parts, and make each file again from them.
    fn read(
        out: &OutDir,
        parts: &Parts<'_>,
        files: &Names,
        needed: &rustc_hash::FxHashSet<(u32, i64)>,
        take: impl Fn((u32, i64)) -> bool,
    ) -> Result<Self> {
        let mut lines: FxHashMap<(u32, i64), Vec<(i32, String)>> = FxHashMap::default();
        let mut add = |part: &PartRef, batch: &RecordBatch, key: &str, value: &str| -> Result<()> {
            let col = |c: &str| batch.column_by_name(c).with_context(|| missing(part, c));
            let text = |c: &str| {
                col(c)?
                    .as_string_opt::<i32>()
                    .with_context(|| missing(part, c))
            };
            let (file, key_col, value_col) = (text("warc_file")?, text(key)?, text(value)?);
            let offset = (col("warc_offset")?.as_primitive_opt::<Int64Type>())
                .with_context(|| missing(part, "warc_offset"))?;
            let line_no = (col("line_no")?.as_primitive_opt::<Int32Type>())
                .with_context(|| missing(part, "line_no"))?;
            let mut last: Option<(usize, Option<u32>)> = None;
            for i in 0..batch.num_rows() {
                let Some(spelled) = line_key(key_col.is_valid(i).then(|| key_col.value(i))) else {
                    continue;
                };
                // A part's rows mostly share one file name.
                let f = match last {
                    Some((j, f)) if file.value(j) == file.value(i) => f,
                    _ => files.find(file.value(i)),
                };
                last = Some((i, f));
                let Some(capture) = f.map(|f| (f, offset.value(i))) else {
                    continue;
                };
                if !needed.contains(&capture) || !take(capture) {
                    continue;
                }
                let v = value_col.is_valid(i).then(|| value_col.value(i));
                let text = line_again(spelled, v);
                lines
                    .entry(capture)
                    .or_default()
                    .push((line_no.value(i), text));
            }
            Ok(())
        };
        read_beside(
            out,
            parts.robots_agents,
            &AGENT_LINE_COLUMNS,
            &[],
            |part, batch| add(part, batch, "line_kind", "agent_raw"),
        )?;
        read_beside(
            out,
            parts.robots_rules,
            &RULE_LINE_COLUMNS,
            &[],
            |part, batch| add(part, batch, "key", "value"),
        )?;
        let bodies = (lines.into_iter())
            .map(|(capture, lines)| (capture, file_again(lines)))
            .collect();
        Ok(Files { bodies })
    }
}

/// A line of a file made again: `key:value` and a line end.
pub fn line_again(key: &str, value: Option<&str>) -> String {
    format!("{key}:{}\n", value.unwrap_or(""))
}

/// A file made again from its lines (each with its number in the original, in any order): the
/// body and, for each of its lines, the original's number.
pub fn file_again(mut lines: Vec<(i32, String)>) -> (Vec<u8>, Vec<i32>) {
    lines.sort_unstable_by_key(|l| l.0);
    let numbers = lines.iter().map(|l| l.0).collect();
    let body = lines.into_iter().flat_map(|l| l.1.into_bytes()).collect();
    (body, numbers)
}

/// The key a file made again writes for a line of this `line_kind` (`robots_agents`) or `key`
/// (`robots_rules`), for the lines a matcher reads.
pub fn line_key(kind: Option<&str>) -> Option<&'static str> {
    match kind? {
        "user_agent" => Some("user-agent"),
        "purpose" => Some("user-agent-purpose"),
        "allow" => Some("allow"),
        "disallow" => Some("disallow"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{scan, ScanOptions};
    use crate::tables::TableSelection;

    #[test]
    fn a_pages_content_usage_is_its_own_paths_where_it_may_be_fetched() {
        let body = "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\n\
                    Disallow: /never\n\nUser-agent: GPTBot\nAllow: /\n";
        let file = File::new(RobotsTxt::parse(body.as_bytes()), &[]);
        let usage = |name: &str, url: &str| {
            let path = path_params_query(url);
            let agent = Agent::for_test(name);
            reading(&mut Matcher::new(), &file, &agent, path.as_bytes()).content_usage
        };
        let s = |v: &str| Some(v.to_string());
        assert_eq!(usage("a", "https://x.example/page"), s("train-ai=n"));
        assert_eq!(usage("a", "https://x.example/open/1"), s("train-ai=y"));
        // What may not be fetched has no preference; GPTBot's own group states none.
        assert_eq!(usage("a", "https://x.example/never/1"), None);
        assert_eq!(usage("GPTBot", "https://x.example/page"), None);
    }

    #[test]
    fn rfc_9309_encodes_the_pages_path_before_matching_and_google_does_not() {
        let agent = Agent::for_test("a");
        let read = |body: &str, url: &str| {
            let file = File::new(RobotsTxt::parse(body.as_bytes()), &[]);
            let path = path_params_query(url);
            let r = reading(&mut Matcher::new(), &file, &agent, path.as_bytes());
            (r.verdict.as_str(), r.rfc9309.as_str())
        };
        let both = |v| (v, v);
        // A URL archived unencoded, a rule written either way.
        let cafe = "User-agent: *\nDisallow: /café\n";
        assert_eq!(
            read(cafe, "https://a.example/café/1"),
            ("allowed", "disallowed")
        );
        assert_eq!(
            read(cafe, "https://a.example/caf%C3%A9/1"),
            both("disallowed")
        );
        let space = "User-agent: *\nDisallow: /a%20b\n";
        assert_eq!(
            read(space, "https://a.example/a b"),
            ("allowed", "disallowed")
        );
        assert_eq!(read(space, "https://a.example/a%20b"), both("disallowed"));
        // An encoded unreserved character is the character itself; an encoded `/` is not.
        let b = "User-agent: *\nDisallow: /%62\n";
        assert_eq!(read(b, "https://a.example/b"), ("allowed", "disallowed"));
        let slash = "User-agent: *\nDisallow: /x/y\n";
        assert_eq!(read(slash, "https://a.example/x%2Fy"), both("allowed"));
        // Nothing to encode: the readings agree.
        assert_eq!(read(slash, "https://a.example/x/y?z"), both("disallowed"));
    }

    /// A WARC of robots.txt files, each of its host, and two pages on each host.
    fn archive(path: &std::path::Path) {
        let bodies = [
            "User-agent: *\nDisallow: /a\n",
            "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
            "User-agent: CCBot\nAllow: /a$\nDisallow: /\n",
            "Disallow: /orphan\nUser-agent: *\nDisallow: /b\nAllow: /b/ok\n",
        ];
        let mut out = String::new();
        let mut record = |url: &str, ty: &str, body: &str| {
            let http = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {ty}\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            out.push_str(&format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\n\
                 WARC-Date: 2026-01-01T00:00:00Z\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
                http.len()
            ));
        };
        for (h, body) in bodies.iter().enumerate() {
            record(
                &format!("http://h{h}.example/robots.txt"),
                "text/plain",
                body,
            );
            for p in ["/a", "/b/ok", "/b/no"] {
                record(&format!("http://h{h}.example{p}"), "text/html", "<p>");
            }
        }
        std::fs::write(path, out).unwrap();
    }

    /// `page_verdicts`' rows as (page offset, agent, verdict, documented verdict, line), sorted.
    fn rows(out: &std::path::Path) -> Vec<(i64, String, String, String, Option<i32>)> {
        use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
        let path = out.join("page_verdicts/crawl=c/part-c.parquet");
        let file = std::fs::File::open(&path).expect("the page_verdicts part");
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        let mut rows = Vec::new();
        for batch in reader {
            let batch = batch.unwrap();
            let text = |c: &str| -> Vec<String> {
                let a = batch.column_by_name(c).unwrap();
                match a.as_dictionary_opt::<Int32Type>() {
                    Some(d) => (d.keys().iter())
                        .map(|k| {
                            d.values()
                                .as_string::<i32>()
                                .value(k.unwrap() as usize)
                                .into()
                        })
                        .collect(),
                    None => (0..a.len())
                        .map(|i| a.as_string::<i32>().value(i).into())
                        .collect(),
                }
            };
            let offset = batch.column_by_name("warc_offset").unwrap();
            let line = batch.column_by_name("rule_line").unwrap();
            let (agent, v, d) = (text("agent"), text("verdict"), text("verdict_documented"));
            for i in 0..batch.num_rows() {
                let offset = offset.as_primitive::<Int64Type>().value(i);
                let line = line.as_primitive::<Int32Type>();
                let line = line.is_valid(i).then(|| line.value(i));
                rows.push((offset, agent[i].clone(), v[i].clone(), d[i].clone(), line));
            }
        }
        rows.sort();
        rows
    }

    #[test]
    fn several_passes_over_the_captures_give_the_rows_of_one() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.warc");
        archive(&input);
        let out = dir.path().join("out");
        let registry = Registry::builtin();
        let opts = ScanOptions {
            inputs: vec![input],
            targets: Vec::new(),
            fetch_concurrency: 1,
            range_redirects: Default::default(),
            out: out.clone(),
            threads: 1,
            crawl: Some("c".into()),
            chunk_size: crate::scan::DEFAULT_CHUNK,
            progress: false,
            registry: registry.clone(),
            ids: None,
            resume: false,
            inflate_all: false,
            tables: TableSelection::all(),
            derive_hosts: true,
            page_agents: Some(vec![
                "GPTBot".into(),
                "CCBot".into(),
                "Googlebot-Image".into(),
            ]),
            derive_budget: Default::default(),
            hooks: Default::default(),
            stall_timeout: std::time::Duration::from_secs(60),
            input_deadline: None,
            inputs_done: None,
        };
        scan(&opts).unwrap();
        let one = rows(&out);
        assert_eq!(
            one.len(),
            4 * 3 * 3,
            "four hosts, three pages each, three agents"
        );
        let blocked = |agent: &str, page: usize| {
            (one.iter().filter(|r| r.1 == agent && r.2 == "disallowed")).count() >= page
        };
        assert!(blocked("GPTBot", 3) && blocked("CCBot", 3));
        PER_PASS.set(1);
        let agents = opts.page_agents.clone();
        crate::derive::hosts::derive_in(
            &out,
            None,
            &registry,
            agents.as_deref(),
            &Default::default(),
        )
        .unwrap();
        PER_PASS.set(CAPTURES_PER_PASS);
        assert_eq!(rows(&out), one);
    }

    #[test]
    fn page_verdicts_name_every_value_docs_schema_lists() {
        let docs = include_str!("../../docs/schema.md");
        for v in PageVerdict::ALL {
            assert!(docs.contains(&format!("`{v}`")), "{v}");
        }
    }
}

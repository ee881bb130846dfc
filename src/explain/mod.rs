//! `repcensus explain`: why one host's robots.txt lets an agent fetch a path or not, from the
//! tables of a scan alone: the capture that governs the host (`robots_hosts`: its latest
//! capture, the redirects and revisits on the way), that file as the tables hold it (the lines
//! of `robots_agents` and `robots_rules`), and each reading of it (Google's, RFC 9309's, the
//! crawler's documented one) with the groups and the line that decided, as `check --explain`
//! gives them for a file. The file is made again from its lines as `page_verdicts` makes it
//! (`derive::page_verdicts::reading`), so the two agree.

use crate::agents::{Agent, Registry};
use crate::archive::source::input::crawl_folder;
use crate::check::groups_words;
use crate::derive::page_verdicts::{
    file_again, line_again, line_key, reading, File, PageVerdict, Reading,
};
use crate::derive::read::read_beside;
use crate::derive::site::Site;
use crate::parts::{OutDir, PartRef, SCHEMA_CRAWL};
use crate::robots::{path_params_query, Matcher, RobotsTxt};
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::Table;
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};
use std::path::Path;

/// What `explain` is asked.
#[derive(Debug, Clone)]
pub struct ExplainOptions {
    pub host: String,
    /// Agents: names in the registry, or any product tokens (an explanation for each).
    pub agents: Vec<String>,
    /// The URL or path to decide (`/` by default).
    pub url: String,
    /// Only these crawls (default: every crawl the host has a robots.txt capture in).
    pub crawls: Vec<String>,
}

/// A capture of `robots_files`, as `explain` names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capture {
    pub warc_file: String,
    pub warc_offset: i64,
    pub url: Option<String>,
    pub capture_time: Option<String>,
    pub fetch_outcome: String,
}

/// One line of the governing file as the tables hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldLine {
    pub number: i32,
    /// The line as written (key, separator and value as the tables keep them).
    pub text: String,
}

/// The explanation for one crawl.
#[derive(Debug, Clone)]
pub struct Explanation {
    pub crawl: String,
    pub host: String,
    pub agent: Agent,
    /// Whether the registry knows the agent (else it is read by its product token alone).
    pub registered: bool,
    pub path: String,
    /// The site (`https://host:443`) whose robots.txt is read: the URL's own when it names
    /// one, else the site of the host's latest capture (whose figures are the host's).
    pub site: String,
    /// Captures of the site's `/robots.txt` in the crawl.
    pub captures: i32,
    pub latest: Capture,
    pub governing: Capture,
    pub resolution: String,
    pub hops: i32,
    pub cross_host: bool,
    pub revisit: Option<String>,
    pub lines: Vec<HeldLine>,
    pub reading: Reading,
    /// The governing file, made again, and the original number of each of its lines.
    body: Vec<u8>,
    numbers: Vec<i32>,
}

/// Explain each of `opts.agents` on `opts.host` for each crawl of the output folder `out` that
/// has the host (none: the host has no robots.txt capture there), crawl by crawl.
pub fn explain(out: &Path, registry: &Registry, opts: &ExplainOptions) -> Result<Vec<Explanation>> {
    let host = opts.host.trim().trim_end_matches('.').to_ascii_lowercase();
    let agents: Vec<(Agent, bool)> = (opts.agents.iter())
        .map(|name| match find_agent(registry, name) {
            Some(a) => (a.clone(), true),
            None => (Agent::unregistered(name), false),
        })
        .collect();
    let path = path_params_query(&opts.url);
    // RFC 9309 section 2.3: a URL is governed by its own scheme, host and port's robots.txt.
    let url_site = opts
        .url
        .contains("://")
        .then(|| Site::of_url(&opts.url))
        .flatten();
    let folders: Vec<String> = opts.crawls.iter().map(|c| crawl_folder(c)).collect();
    OutDir::read_existing(out, |dir| {
        let hosts = host_rows(dir, &host, &folders)?;
        let hosts = hosts.into_iter().filter(|row| match (url_site, row.site) {
            (Some(want), Some(site)) => want == site,
            (None, _) => row.counts_for_host,
            // A table before schema 19 has a row per host, of no site.
            (Some(_), None) => true,
        });
        let mut found = Vec::new();
        for row in hosts {
            let governing = capture(dir, &row.crawl, &row.governing)?;
            let (held, made) = held_lines(dir, &row.crawl, &row.governing)?;
            let (body, numbers) = file_again(made);
            let outcome = (FetchOutcome::ALL.iter())
                .find(|o| o.as_str() == governing.fetch_outcome)
                .copied()
                .unwrap_or(FetchOutcome::NoHttpResponse);
            let file = File::new(RobotsTxt::parse_up_to(&body, usize::MAX), &numbers);
            let mut matcher = Matcher::new();
            for (agent, registered) in &agents {
                let reading = match outcome.has_rules() {
                    true => reading(&mut matcher, &file, agent, path.as_bytes()),
                    false => Reading::unparsed(outcome, agent),
                };
                found.push(Explanation {
                    crawl: row.crawl.clone(),
                    host: host.clone(),
                    agent: agent.clone(),
                    registered: *registered,
                    path: path.clone(),
                    site: match row.site {
                        Some(site) => format!("{}://{host}:{}", site.scheme(), site.port),
                        None => host.clone(),
                    },
                    captures: row.captures,
                    latest: row.latest.clone(),
                    governing: governing.clone(),
                    resolution: row.resolution.clone(),
                    hops: row.hops,
                    cross_host: row.cross_host,
                    revisit: row.revisit.clone(),
                    lines: held.clone(),
                    reading,
                    body: body.clone(),
                    numbers: numbers.clone(),
                });
            }
        }
        Ok(found)
    })
}

/// The registry's agent named `name`, else the first whose product token it is (any case).
fn find_agent<'r>(registry: &'r Registry, name: &str) -> Option<&'r Agent> {
    let by_name = registry.position(name).map(|i| &registry.agents[i]);
    by_name.or_else(|| (registry.agents.iter()).find(|a| a.token.eq_ignore_ascii_case(name)))
}

/// A site's row of `robots_hosts` in one crawl.
struct HostRow {
    crawl: String,
    /// `None` in a table before schema 19, whose rows are hosts.
    site: Option<Site>,
    counts_for_host: bool,
    captures: i32,
    latest: Capture,
    resolution: String,
    hops: i32,
    cross_host: bool,
    revisit: Option<String>,
    /// The governing capture: (warc_file, warc_offset).
    governing: (String, i64),
}

/// The parts of `table` in the crawls `folders` (every crawl when empty), `_schema` left out.
fn parts_of(dir: &OutDir, table: &str, folders: &[String]) -> Result<Vec<(String, PartRef)>> {
    Ok((dir.table_parts(table)?.into_iter())
        .filter(|(c, _)| c != SCHEMA_CRAWL && (folders.is_empty() || folders.contains(c)))
        .collect())
}

fn text<'b>(batch: &'b RecordBatch, name: &str) -> Result<&'b arrow_array::StringArray> {
    (batch.column_by_name(name))
        .and_then(|c| c.as_string_opt::<i32>())
        .with_context(|| format!("no string column {name}"))
}

fn string_at(a: &arrow_array::StringArray, i: usize) -> Option<String> {
    a.is_valid(i).then(|| a.value(i).to_string())
}

fn int64_at(batch: &RecordBatch, name: &str, i: usize) -> Result<Option<i64>> {
    let c = (batch.column_by_name(name))
        .and_then(|c| c.as_primitive_opt::<Int64Type>())
        .with_context(|| format!("no int64 column {name}"))?;
    Ok(c.is_valid(i).then(|| c.value(i)))
}

fn int32_at(batch: &RecordBatch, name: &str, i: usize) -> Result<Option<i32>> {
    let c = (batch.column_by_name(name))
        .and_then(|c| c.as_primitive_opt::<Int32Type>())
        .with_context(|| format!("no int32 column {name}"))?;
    Ok(c.is_valid(i).then(|| c.value(i)))
}

/// A capture time as RFC 3339 (the tables hold microseconds since the epoch, UTC).
fn time_at(batch: &RecordBatch, name: &str, i: usize) -> Option<String> {
    let c = batch
        .column_by_name(name)?
        .as_primitive_opt::<TimestampMicrosecondType>()?;
    let t = c.is_valid(i).then(|| c.value(i))?;
    chrono::DateTime::from_timestamp_micros(t).map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

const HOST_COLUMNS: [&str; 16] = [
    "host",
    "scheme",
    "port",
    "counts_for_host",
    "captures",
    "warc_file",
    "warc_offset",
    "url",
    "capture_time",
    "fetch_outcome",
    "resolution",
    "hops",
    "cross_host",
    "revisit",
    "effective_warc_file",
    "effective_warc_offset",
];

fn host_rows(dir: &OutDir, host: &str, folders: &[String]) -> Result<Vec<HostRow>> {
    let parts = parts_of(dir, Table::RobotsHosts.name(), folders)?;
    let crawl_of: Vec<String> = parts.iter().map(|(c, _)| c.clone()).collect();
    let refs: Vec<PartRef> = parts.into_iter().map(|(_, p)| p).collect();
    let mut rows = Vec::new();
    read_beside(dir, &refs, &HOST_COLUMNS, &[], |part, batch| {
        // The part itself, not its name: parts of two crawls may share a name.
        let k = refs.iter().position(|r| std::ptr::eq(r, part)).unwrap_or(0);
        let hosts = text(batch, "host")?;
        for i in (0..batch.num_rows()).filter(|&i| hosts.is_valid(i) && hosts.value(i) == host) {
            let cross = (batch.column_by_name("cross_host"))
                .and_then(|c| c.as_boolean_opt().map(|b| b.is_valid(i) && b.value(i)))
                .unwrap_or(false);
            let scheme = (batch.column_by_name("scheme"))
                .and_then(|c| c.as_string_opt::<i32>())
                .and_then(|c| string_at(c, i));
            let port = int32_at(batch, "port", i).ok().flatten();
            let site = match (scheme.as_deref(), port.and_then(|p| u16::try_from(p).ok())) {
                (Some(scheme), Some(port)) => Some(Site {
                    https: scheme == "https",
                    port,
                }),
                _ => None,
            };
            let counts_for_host = (batch.column_by_name("counts_for_host"))
                .and_then(|c| c.as_boolean_opt().map(|b| !b.is_valid(i) || b.value(i)))
                .unwrap_or(true);
            rows.push(HostRow {
                crawl: crawl_of[k].clone(),
                site,
                counts_for_host,
                captures: int32_at(batch, "captures", i)?.unwrap_or(0),
                latest: Capture {
                    warc_file: string_at(text(batch, "warc_file")?, i).unwrap_or_default(),
                    warc_offset: int64_at(batch, "warc_offset", i)?.unwrap_or(0),
                    url: string_at(text(batch, "url")?, i),
                    capture_time: time_at(batch, "capture_time", i),
                    fetch_outcome: string_at(text(batch, "fetch_outcome")?, i).unwrap_or_default(),
                },
                resolution: string_at(text(batch, "resolution")?, i).unwrap_or_default(),
                hops: int32_at(batch, "hops", i)?.unwrap_or(0),
                cross_host: cross,
                revisit: string_at(text(batch, "revisit")?, i),
                governing: (
                    string_at(text(batch, "effective_warc_file")?, i).unwrap_or_default(),
                    int64_at(batch, "effective_warc_offset", i)?.unwrap_or(0),
                ),
            });
        }
        Ok(())
    })?;
    Ok(rows)
}

/// The governing capture's `robots_files` row.
fn capture(dir: &OutDir, crawl: &str, (file, offset): &(String, i64)) -> Result<Capture> {
    let parts = parts_of(dir, Table::RobotsFiles.name(), &[crawl.to_string()])?;
    let refs: Vec<PartRef> = parts.into_iter().map(|(_, p)| p).collect();
    let columns = [
        "warc_file",
        "warc_offset",
        "url",
        "capture_time",
        "fetch_outcome",
    ];
    let mut found = Capture {
        warc_file: file.clone(),
        warc_offset: *offset,
        fetch_outcome: "no_http_response".into(),
        ..Default::default()
    };
    read_beside(dir, &refs, &columns, &[], |_, batch| {
        let files = text(batch, "warc_file")?;
        for i in 0..batch.num_rows() {
            if files.value(i) == file && int64_at(batch, "warc_offset", i)? == Some(*offset) {
                found.url = string_at(text(batch, "url")?, i);
                found.capture_time = time_at(batch, "capture_time", i);
                found.fetch_outcome =
                    string_at(text(batch, "fetch_outcome")?, i).unwrap_or_default();
            }
        }
        Ok(())
    })?;
    Ok(found)
}

/// Lines as a matcher reads them, each with its number in the original file.
type MatcherLines = Vec<(i32, String)>;

/// The lines `robots_agents` and `robots_rules` hold of a capture: as written (every line
/// they keep), and as a matcher reads them (`key:value`, the lines that make groups and rules).
fn held_lines(
    dir: &OutDir,
    crawl: &str,
    (file, offset): &(String, i64),
) -> Result<(Vec<HeldLine>, MatcherLines)> {
    let mut held = Vec::new();
    let mut made = Vec::new();
    for (table, kind, raw, value) in [
        (Table::RobotsAgents, "line_kind", "agent_raw", "agent_raw"),
        (Table::RobotsRules, "key", "value_raw", "value"),
    ] {
        let parts = parts_of(dir, table.name(), &[crawl.to_string()])?;
        let refs: Vec<PartRef> = parts.into_iter().map(|(_, p)| p).collect();
        let columns = [
            "warc_file",
            "warc_offset",
            "line_no",
            kind,
            "key_raw",
            "separator",
            raw,
            value,
        ];
        read_beside(dir, &refs, &columns, &[], |_, batch| {
            let files = text(batch, "warc_file")?;
            for i in 0..batch.num_rows() {
                if files.value(i) != file || int64_at(batch, "warc_offset", i)? != Some(*offset) {
                    continue;
                }
                let number = int32_at(batch, "line_no", i)?.unwrap_or(0);
                let key_raw = string_at(text(batch, "key_raw")?, i).unwrap_or_default();
                let separator = match string_at(text(batch, "separator")?, i).as_deref() {
                    Some("colon") => ": ",
                    _ => " ",
                };
                let raw_value = string_at(text(batch, raw)?, i).unwrap_or_default();
                held.push(HeldLine {
                    number,
                    text: format!("{key_raw}{separator}{raw_value}"),
                });
                let kind_value = string_at(text(batch, kind)?, i);
                if let Some(key) = line_key(kind_value.as_deref()) {
                    let v = string_at(text(batch, value)?, i);
                    made.push((number, line_again(key, v.as_deref())));
                }
            }
            Ok(())
        })?;
    }
    held.sort_by_key(|l| l.number);
    Ok((held, made))
}

impl Explanation {
    /// The decision as `check --json` gives it, with the governing capture and each reading.
    pub fn json(&self) -> serde_json::Value {
        let r = &self.reading;
        let d = r.decision.as_ref();
        let robots = RobotsTxt::parse_up_to(&self.body, usize::MAX);
        let line = d.and_then(|d| d.line_index).map(|i| &robots.lines[i]);
        let allowed = allowed(r.verdict);
        let capture = |c: &Capture| {
            serde_json::json!({
                "warc_file": c.warc_file, "warc_offset": c.warc_offset, "url": c.url,
                "capture_time": c.capture_time, "fetch_outcome": c.fetch_outcome,
            })
        };
        serde_json::json!({
            "crawl": self.crawl,
            "host": self.host,
            "site": self.site,
            "agent": self.agent.name,
            "registered": self.registered,
            "url": self.path,
            "path": self.path,
            "allowed": allowed,
            "verdict": allowed.map(|a| if a { "ALLOWED" } else { "DISALLOWED" }),
            "source": r.source.map(|s| s.as_str()),
            "group": d.and_then(|d| d.group),
            // As `check --json`: the line of the matching pattern, an empty one too.
            "line": d.and_then(|d| d.line_index).and_then(|i| self.numbers.get(i)),
            "rule": line.map(|l| l.key.as_str()),
            "pattern": d.and_then(|d| d.line_index).map(|i| String::from_utf8_lossy(robots.norm_value(i)).into_owned()),
            "priority": d.map(|d| d.priority),
            "rules_considered": d.map(|d| d.n_rules),
            "readings": {
                "google": r.verdict.as_str(),
                "rfc9309": r.rfc9309.as_str(),
                "documented": r.documented.as_str(),
                "documented_source": r.documented_source.map(|s| s.as_str()),
                "documented_line": r.documented_line,
            },
            "governing_capture": capture(&self.governing),
            "latest_capture": capture(&self.latest),
            "captures": self.captures,
            "reached": {
                "resolution": self.resolution,
                "hops": self.hops,
                "cross_host": self.cross_host,
                "revisit": self.revisit,
            },
        })
    }

    /// The explanation for a reader.
    pub fn render(&self) -> String {
        let r = &self.reading;
        let mut s = format!(
            "{} on {} ({}), path {}\n",
            self.agent.name, self.site, self.crawl, self.path
        );
        if !self.registered {
            s.push_str(
                "  (not in the registry: read by its product token alone, no documented reading)\n",
            );
        }
        let g = &self.governing;
        s.push_str(&format!(
            "governing capture  {} at {} ({}), {} @ {}\n",
            g.url.as_deref().unwrap_or("?"),
            g.capture_time.as_deref().unwrap_or("no time"),
            g.fetch_outcome,
            g.warc_file,
            g.warc_offset
        ));
        s.push_str(&format!("how it was reached {}\n", self.reached()));
        if self.lines.is_empty() {
            s.push_str("the file           the tables hold no line of it\n");
        } else {
            s.push_str(
                "the file           as the tables hold it (the lines they keep, by number):\n",
            );
            for l in &self.lines {
                s.push_str(&format!(
                    "  {:>5}  {}\n",
                    l.number,
                    crate::check::terminal_safe(&l.text)
                ));
            }
        }
        let word = |v: PageVerdict| match v {
            PageVerdict::Allowed => "ALLOWED".to_string(),
            PageVerdict::Disallowed => "DISALLOWED".to_string(),
            other => format!(
                "{} ({})",
                other.as_str().to_ascii_uppercase(),
                outcome_words(other)
            ),
        };
        s.push_str(&format!("Google's reading   {}\n", word(r.verdict)));
        if let Some(d) = &r.decision {
            let groups = groups_words(d.source, &self.agent.token, "", false);
            s.push_str(&format!(
                "  decided by {groups} ({} allow/disallow lines considered)\n",
                d.n_rules
            ));
            s.push_str(&format!("  {}\n", self.line_words(r.line, d.priority)));
        }
        let same = if r.rfc9309 == r.verdict {
            " (as Google's: a file that was read)"
        } else {
            ""
        };
        s.push_str(&format!("RFC 9309 reading   {}{same}\n", word(r.rfc9309)));
        let source = r.documented_source.map_or("", |s| s.as_str());
        s.push_str(&format!(
            "documented reading {} (groups: {source})",
            word(r.documented)
        ));
        if let Some(n) = r.documented_line {
            s.push_str(&format!(", line {n}"));
        }
        s.push('\n');
        s
    }

    fn reached(&self) -> String {
        let mut s = match self.resolution.as_str() {
            "direct" => format!(
                "the site's latest capture (of {} in the crawl)",
                self.captures
            ),
            "resolved" => format!(
                "through {} redirect{} from the site's latest capture {}{}",
                self.hops,
                if self.hops == 1 { "" } else { "s" },
                self.latest.url.as_deref().unwrap_or("?"),
                if self.cross_host {
                    ", to another host"
                } else {
                    ""
                }
            ),
            other => format!("the site's latest capture, a redirect that leads nowhere ({other})"),
        };
        if let Some(r) = &self.revisit {
            s.push_str(&format!("; read through a revisit ({r})"));
        }
        s
    }

    fn line_words(&self, line: Option<i32>, priority: i64) -> String {
        let text = |n: i32| {
            (self.lines.iter())
                .find(|l| l.number == n)
                .map_or(String::new(), |l| crate::check::terminal_safe(&l.text))
        };
        match line {
            Some(n) => format!(
                "line {n}: {}  (the longest matching pattern, {priority} byte{}; ties go to Allow)",
                text(n),
                if priority == 1 { "" } else { "s" }
            ),
            None => "no rule matches this path".to_string(),
        }
    }

    /// The file made again (for tests: the body the readings were made on).
    pub fn made_again(&self) -> (&[u8], &[i32]) {
        (&self.body, &self.numbers)
    }
}

fn allowed(v: PageVerdict) -> Option<bool> {
    match v {
        PageVerdict::Allowed | PageVerdict::NoRobots => Some(true),
        PageVerdict::Disallowed => Some(false),
        _ => None,
    }
}

fn outcome_words(v: PageVerdict) -> &'static str {
    match v {
        PageVerdict::NoRobots => "no robots.txt: everything may be fetched",
        PageVerdict::Unreachable => "a 5xx or 429 robots.txt: Google stops crawling the host",
        PageVerdict::Redirect => "redirects to a URL the crawl never captured",
        PageVerdict::Unknown => "a revisit no capture matches, or no HTTP status",
        PageVerdict::NotHonored => "the crawler does not honour robots.txt",
        PageVerdict::Allowed | PageVerdict::Disallowed => "",
    }
}

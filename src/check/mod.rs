//! `repcensus check`: what a robots.txt lets each agent fetch, URL by URL, as Google's parser
//! reads it (or as the crawler's operator documents it), with the line that decided and the
//! App-Directives for the path. The command line only dispatches here.

use crate::agents::{Agent, Registry};
use crate::archive::source::local::read_start;
use crate::robots::ext::app_directives_at;
use crate::robots::matcher::{path_params_query, Decision, Matcher, Source};
use crate::robots::parse::{is_valid_product_token, RobotsTxt, PARSE_LIMIT};
use crate::signals::ai_prefs::robots_preferences;
use anyhow::Result;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A robots.txt to `check` or `parse`: its first 500 KiB, as much as RFC 9309 asks a crawler to
/// parse and as much as the scan reads (`/dev/zero` or an endless pipe ends there), and its size;
/// a FIFO or pipe (or `-`) that stays silent for `stall` is an error, not a wait without end.
/// A longer file is said in `notes`.
pub fn read_robots_txt(
    path: &Path,
    stall: Duration,
    notes: &mut dyn Write,
) -> Result<(Vec<u8>, u64)> {
    let (b, bytes) = read_start(path, PARSE_LIMIT, stall)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    if bytes > PARSE_LIMIT as u64 {
        writeln!(
            notes,
            "repcensus: note: {} is longer than 500 KiB; only its first 500 KiB are read (RFC 9309 2.5)",
            path.display()
        )?;
    }
    Ok((b, bytes))
}

/// The registry's agent named `agent`, or else the first whose product token it is (ignoring
/// case).
fn registry_entry<'r>(registry: &'r Registry, agent: &str) -> Option<&'r Agent> {
    let by_name = registry.position(agent).map(|i| &registry.agents[i]);
    by_name.or_else(|| (registry.agents.iter()).find(|e| e.token.eq_ignore_ascii_case(agent)))
}

/// Text from a file, made safe to print on a terminal: control characters (escape sequences
/// can retitle the window or clear the screen) and the bidirectional controls are written as
/// escapes (`\u{1b}`).
pub fn terminal_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            let bidi = matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
            if (c.is_control() && c != '\t') || bidi {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// What `check` is asked.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The robots.txt: a file, a FIFO, or `-` for standard input.
    pub robots: PathBuf,
    pub agents: Vec<String>,
    pub urls: Vec<String>,
    /// The `User-Agent-Purpose` the agents crawl for.
    pub purpose: Option<String>,
    /// A JSON object per decision instead of a line.
    pub json: bool,
    /// Say which groups and line decided, and the App-Directives for the path.
    pub explain: bool,
    /// Read each agent's groups as its operator documents them (registry fallback tokens,
    /// ignoring `*`).
    pub documented: bool,
    /// How long a silent pipe may stay silent.
    pub stall_timeout: Duration,
}

/// `repcensus check`: each agent against each URL, a line (or JSON object) per pair written to
/// `out`, warnings and notes to `notes`; whether every pair is allowed (the command exits 1
/// when one is not).
pub fn check(a: &CheckOptions, out: &mut dyn Write, notes: &mut dyn Write) -> Result<bool> {
    if a.agents.is_empty() || a.urls.is_empty() {
        anyhow::bail!("give an agent and a URL (AGENT URL, or --agent A --url U)");
    }
    let (body, _) = read_robots_txt(&a.robots, a.stall_timeout, notes)?;
    let parsed = RobotsTxt::parse(&body);
    let mut m = Matcher::new();
    let mut all_allowed = true;
    let registry = a.documented.then(Registry::builtin);
    for agent in &a.agents {
        let entry = registry.as_ref().and_then(|r| registry_entry(r, agent));
        let rules = entry.map(|e| e.group_rules()).unwrap_or_default();
        if let Some(e) = entry.filter(|e| e.ignores_robots_txt()) {
            writeln!(
                notes,
                "repcensus: note: the registry says {} does not honour robots.txt ({}): its documented reading is not_honored; the lines below say what the file asks of it",
                e.name,
                e.robots_txt_source.as_deref().unwrap_or("no source given")
            )?;
        }
        if !is_valid_product_token(agent) {
            writeln!(
                notes,
                "repcensus: warning: '{agent}' is not a product token (letters, '_' and '-' only, like 'Googlebot'): Google's matcher compares the user-agent lines with it whole, so no group names it and the '*' group decides"
            )?;
        }
        // The groups depend on the agent only; each URL is decided against them.
        let sel = m.select_documented(&parsed, agent, a.purpose.as_deref(), rules);
        let fallback = sel
            .fallback
            .map_or("", |k| &rules.fallback_tokens[usize::from(k)]);
        // Its `Content-Usage` lines (attach-05's groups), for every URL.
        let mut usage = Vec::new();
        crate::robots::usage::usage_lines(&parsed, agent, &mut usage);
        for u in &a.urls {
            let path = path_params_query(u);
            let v = m.decide(&parsed, sel, path.as_bytes());
            let apps = app_directives_at(&parsed, agent, path.as_bytes());
            all_allowed &= v.allowed;
            // attach-05: the agent's groups' preferences for the URL, where it may be crawled.
            let content_usage = (v.allowed)
                .then(|| robots_preferences(&parsed, &usage, &mut m, path.as_bytes()))
                .flatten();
            let d = Answer {
                agent,
                url: u,
                path: &path,
                verdict: &v,
                apps: &apps,
                content_usage: content_usage.as_deref(),
            };
            if a.json {
                writeln!(out, "{}", d.json(&parsed, a))?;
                continue;
            }
            let word = if v.allowed { "ALLOWED" } else { "DISALLOWED" };
            writeln!(out, "user-agent '{agent}' with URI '{u}': {word}")?;
            if a.explain {
                d.explain(out, &parsed, fallback, rules.ignores_wildcard)?;
            }
        }
    }
    Ok(all_allowed)
}

/// Which groups decided, in words (`check --explain`, `explain`).
pub fn groups_words(source: Source, agent: &str, fallback: &str, ignores_wildcard: bool) -> String {
    match source {
        Source::Specific => format!("the group(s) naming '{agent}'"),
        Source::Purpose => "the group(s) with a matching User-Agent-Purpose line".into(),
        Source::Wildcard => "the '*' group(s): no group names this agent".into(),
        Source::Fallback => format!(
            "the group(s) naming '{fallback}', which the crawler follows when no group names '{agent}' (its operator documents it)"
        ),
        Source::None if ignores_wildcard => {
            "no group names this agent, and it ignores the '*' group(s) (its operator documents it): everything is allowed".into()
        }
        Source::None => "no group applies: everything is allowed".into(),
    }
}

/// One agent x URL answer of `check`: the matcher's decision and the App-Directives.
struct Answer<'a> {
    agent: &'a str,
    url: &'a str,
    path: &'a str,
    verdict: &'a Decision,
    apps: &'a [(String, String, String, &'a str)],
    /// The agent's `Content-Usage` preferences for the URL (`train-ai=n,search=y`).
    content_usage: Option<&'a str>,
}

impl Answer<'_> {
    /// The decision as `--json` prints it.
    fn json(&self, parsed: &RobotsTxt<'_>, a: &CheckOptions) -> serde_json::Value {
        let v = self.verdict;
        let line = v.line_index.map(|i| &parsed.lines[i]);
        serde_json::json!({
            "agent": self.agent,
            "purpose": a.purpose,
            "url": self.url,
            "path": self.path,
            "allowed": v.allowed,
            "verdict": if v.allowed { "ALLOWED" } else { "DISALLOWED" },
            "source": v.source.as_str(),
            "group": v.group,
            "line": v.line,
            "rule": line.map(|l| l.key.as_str()),
            "pattern": v.line_index.map(|i| String::from_utf8_lossy(parsed.norm_value(i)).into_owned()),
            "priority": v.priority,
            "rules_considered": v.n_rules,
            "documented": a.documented,
            "app_directives": self.apps.iter().map(|(app, k, v, t)| serde_json::json!({
                "app": app, "directive": k, "value": v, "value_type": t,
            })).collect::<Vec<_>>(),
            "content_usage": self.content_usage,
        })
    }

    /// The lines `--explain` adds: which groups decided, the deciding line, the App-Directives.
    fn explain(
        &self,
        out: &mut dyn Write,
        parsed: &RobotsTxt<'_>,
        fallback: &str,
        ignores_wildcard: bool,
    ) -> Result<()> {
        let (v, agent) = (self.verdict, self.agent);
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let groups = groups_words(v.source, agent, fallback, ignores_wildcard);
        writeln!(
            out,
            "  path {}; decided by {groups} ({} allow/disallow line{} considered)",
            self.path,
            v.n_rules,
            plural(v.n_rules as usize)
        )?;
        let text = |i: usize| {
            let l = &parsed.lines[i];
            let t = String::from_utf8_lossy(l.text(parsed.body));
            (l.number, terminal_safe(t.trim()))
        };
        match v.line_index.map(text) {
            Some((number, line)) if v.priority > 0 => writeln!(
                out,
                "  line {number}: {line}  (the longest matching pattern, {} byte{}; ties go to Allow)",
                v.priority,
                plural(v.priority as usize)
            )?,
            Some((number, line)) => writeln!(
                out,
                "  line {number}: {line}  (an empty pattern decides nothing)"
            )?,
            None => writeln!(out, "  no rule matches this path")?,
        }
        if !self.apps.is_empty() {
            let list: Vec<String> = (self.apps.iter())
                .map(|(app, k, v, _)| terminal_safe(&format!("{app}: {k}={v}")))
                .collect();
            writeln!(
                out,
                "  App-Directives for this path (its longest matching App-Directives path in the agent's groups): {}",
                list.join(", ")
            )?;
        }
        Ok(())
    }
}

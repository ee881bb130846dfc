//! The registry of tracked agents: AI crawlers and assistants, search engines, SEO tools,
//! archivers, link previewers. Embedded from `registry.csv` (its header cites the sources); a run
//! may add or override entries from a CSV or JSON file (`--agents FILE`).
//!
//! Each agent is matched against robots.txt by one product token: the leading `[A-Za-z_-]` run of
//! its name, as Google's parser extracts it from a user-agent line (so `MJ12bot` is matched as
//! `MJ`, exactly as Google would match a crawler calling itself that). RFC 9309's product tokens
//! have no digits either. Agents whose tokens collide (`AI2Bot` and `Ai2Bot-Dolma` are both `AI`
//! to Google) get the same verdicts; `agent_verdicts.named_exact` tells them apart.

mod listing;

use crate::robots::parse::product_token;
use anyhow::{bail, Context, Result};
pub use listing::ListFormat;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The embedded registry, as a CSV file with `#` comment lines.
pub const REGISTRY_CSV: &str = include_str!("registry.csv");

/// Categories an agent may have.
pub const CATEGORIES: &[&str] = &[
    "ai_training",
    "ai_search",
    "ai_assistant",
    "ai_other",
    "search_engine",
    "seo",
    "archiver",
    "social_preview",
    "other",
];

/// Values of [`Agent::robots_txt`].
pub const ROBOTS_TXT_SUPPORT: &[&str] = &["documented", "not_honored", "unknown"];

/// One tracked agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Agent {
    /// The agent as the tables show it.
    pub name: String,
    /// The product token matched against user-agent lines (derived from the name).
    pub token: String,
    pub category: String,
    pub operator: String,
    /// Whether the operator documents that the agent obeys robots.txt: documented, not_honored,
    /// unknown.
    pub robots_txt: String,
    pub robots_txt_source: Option<String>,
    /// App-Directives application identifier (draft-nottingham-plan-b), if registered.
    pub app: Option<String>,
    /// User-Agent-Purpose token (draft-illyes-rep-purpose), if the agent sends one.
    pub purpose: Option<String>,
    /// Where the entry comes from (`ai.robots.txt`, `operator`, `both`, or the override file).
    pub source: String,
    /// A page for the entry (operator page, the crawler's user-agent URL, or the list it is from).
    pub source_url: Option<String>,
    /// Product tokens whose groups the crawler follows, in order, when no group names its own
    /// (as its operator documents; space separated in CSV).
    #[serde(serialize_with = "space_separated")]
    pub fallback_tokens: Vec<String>,
    /// The crawler ignores the `*` groups (as its operator documents).
    pub ignores_wildcard: bool,
    /// Where `fallback_tokens` and `ignores_wildcard` are documented.
    pub groups_source: Option<String>,
}

fn space_separated<S: serde::Serializer>(v: &[String], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.join(" "))
}

impl Agent {
    /// The registry says the agent does not honour robots.txt (`robots_txt` `not_honored`):
    /// its documented reading is `not_honored` whatever the file says.
    pub fn ignores_robots_txt(&self) -> bool {
        self.robots_txt == "not_honored"
    }

    /// How the crawler chooses its groups, as its operator documents it.
    pub fn group_rules(&self) -> crate::robots::GroupRules<'_> {
        crate::robots::GroupRules {
            fallback_tokens: &self.fallback_tokens,
            ignores_wildcard: self.ignores_wildcard,
        }
    }

    /// An agent for unit tests: `name` is its token too; category `other`, operator `x`,
    /// nothing documented.
    #[cfg(test)]
    pub fn for_test(name: &str) -> Agent {
        Agent {
            operator: "x".into(),
            source: "test".into(),
            ..Agent::unregistered(name)
        }
    }

    /// An agent the registry does not know, read by its product token alone: `name` is its
    /// token too; category `other`, nothing documented.
    pub fn unregistered(name: &str) -> Agent {
        Agent {
            name: name.into(),
            token: name.into(),
            category: "other".into(),
            operator: String::new(),
            robots_txt: "unknown".into(),
            robots_txt_source: None,
            app: None,
            purpose: None,
            source: String::new(),
            source_url: None,
            fallback_tokens: Vec::new(),
            ignores_wildcard: false,
            groups_source: None,
        }
    }
}

/// The agents of a run, in registry order, with the registry's version.
#[derive(Clone, Debug)]
pub struct Registry {
    pub version: String,
    pub agents: Vec<Agent>,
}

/// An entry as read from CSV or JSON: everything but the name is optional in an override.
#[derive(Debug, Default, serde::Deserialize)]
struct Entry {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    category: Option<String>,
    #[serde(default)]
    operator: Option<String>,
    #[serde(default)]
    robots_txt: Option<String>,
    #[serde(default)]
    robots_txt_source: Option<String>,
    #[serde(default)]
    app: Option<String>,
    #[serde(default)]
    purpose: Option<String>,
    #[serde(default)]
    source: Option<String>,
    /// ai.robots.txt's `respect` field (robots.json files load as overrides).
    #[serde(default)]
    respect: Option<String>,
    #[serde(default)]
    source_url: Option<String>,
    #[serde(default, deserialize_with = "text_or_json")]
    fallback_tokens: Option<String>,
    #[serde(default, deserialize_with = "text_or_json")]
    ignores_wildcard: Option<String>,
    #[serde(default)]
    groups_source: Option<String>,
}

/// A field as CSV gives it (text), or as JSON may: `true`, or `["Googlebot", "GoogleOther"]`
/// (read as the space-separated text the CSV column holds).
fn text_or_json<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Loose {
        Text(String),
        Flag(bool),
        List(Vec<String>),
    }
    Ok(match Option::<Loose>::deserialize(d)? {
        None => None,
        Some(Loose::Text(t)) => Some(t),
        Some(Loose::Flag(b)) => Some(b.to_string()),
        Some(Loose::List(l)) => Some(l.join(" ")),
    })
}

/// `true` / `false` (any case; empty is none).
fn parse_bool(name: &str, column: &str, v: Option<String>) -> Result<Option<bool>> {
    match non_empty(v).map(|v| v.to_ascii_lowercase()).as_deref() {
        None => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(other) => bail!("agent {name:?}: {column} {other:?} is not true or false"),
    }
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

/// `[text](url)` (Markdown links, as in ai.robots.txt's fields) to `text`.
fn unlink(s: &str) -> String {
    let t = s.trim();
    match (t.strip_prefix('['), t.find("](")) {
        (Some(_), Some(end)) if t.ends_with(')') => t[1..end].to_string(),
        _ => t.to_string(),
    }
}

/// ai.robots.txt's free-text `respect` ("Yes", "[Yes](url)", "No", "Unclear at this time.").
fn respect_to_support(r: &str) -> &'static str {
    let r = r.trim_start_matches('[').to_ascii_lowercase();
    if r.starts_with("yes") {
        "documented"
    } else if r.starts_with("no") {
        "not_honored"
    } else {
        "unknown"
    }
}

impl Entry {
    /// Turn into an agent; `base` fills what an override leaves out.
    fn into_agent(self, base: Option<&Agent>, default_source: &str) -> Result<Agent> {
        let name = non_empty(self.name).context("an agent without a name")?;
        let name = base.map_or(name, |b| b.name.clone());
        let token = String::from_utf8_lossy(product_token(name.as_bytes())).into_owned();
        if token.is_empty() {
            bail!("agent {name:?}: its name does not start with a product token ([A-Za-z_-])");
        }
        let pick = |v: Option<String>, f: fn(&Agent) -> &str, dflt: &str| {
            non_empty(v).unwrap_or_else(|| base.map_or(dflt, f).to_string())
        };
        let category = pick(self.category, |a| &a.category, "other");
        if !CATEGORIES.contains(&category.as_str()) {
            bail!("agent {name:?}: unknown category {category:?} (one of {CATEGORIES:?})");
        }
        let respect = non_empty(self.respect).map(|r| respect_to_support(&r).to_string());
        let robots_txt = pick(self.robots_txt.or(respect), |a| &a.robots_txt, "unknown");
        if !ROBOTS_TXT_SUPPORT.contains(&robots_txt.as_str()) {
            bail!("agent {name:?}: robots_txt {robots_txt:?} is not one of {ROBOTS_TXT_SUPPORT:?}");
        }
        let keep = |v: Option<String>, f: fn(&Agent) -> &Option<String>| {
            non_empty(v).or_else(|| base.and_then(|a| f(a).clone()))
        };
        let fallback_tokens = match non_empty(self.fallback_tokens) {
            Some(t) => t.split_whitespace().map(str::to_string).collect(),
            None => base.map_or_else(Vec::new, |a| a.fallback_tokens.clone()),
        };
        if let Some(t) = fallback_tokens
            .iter()
            .find(|t| !crate::robots::parse::is_valid_product_token(t))
        {
            bail!("agent {name:?}: fallback token {t:?} is not a product token ([A-Za-z_-]+)");
        }
        let ignores_wildcard = parse_bool(&name, "ignores_wildcard", self.ignores_wildcard)?
            .unwrap_or_else(|| base.is_some_and(|a| a.ignores_wildcard));
        Ok(Agent {
            operator: pick(
                self.operator.map(|o| unlink(&o)),
                |a| &a.operator,
                "unknown",
            ),
            robots_txt_source: keep(self.robots_txt_source, |a| &a.robots_txt_source),
            app: keep(self.app, |a| &a.app),
            purpose: keep(self.purpose, |a| &a.purpose),
            source: non_empty(self.source).unwrap_or_else(|| default_source.to_string()),
            groups_source: keep(self.groups_source, |a| &a.groups_source),
            source_url: keep(self.source_url, |a| &a.source_url),
            fallback_tokens,
            ignores_wildcard,
            name,
            token,
            category,
            robots_txt,
        })
    }
}

fn read_csv(text: &str) -> Result<Vec<Entry>> {
    let mut r = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = r.headers()?.clone();
    let entry = |record: csv::Result<csv::StringRecord>| -> Result<Entry> {
        let record: csv::StringRecord = record?.iter().map(formula_unsafe).collect();
        Ok(record.deserialize(Some(&headers))?)
    };
    (r.records().enumerate())
        .map(|(i, record)| entry(record).with_context(|| format!("row {}", i + 1)))
        .collect()
}

/// A CSV cell as a spreadsheet shows it: with a `'` before a leading `=`, `+`, `-` or `@`.
fn formula_safe(cell: &str) -> std::borrow::Cow<'_, str> {
    match cell.starts_with(['=', '+', '-', '@']) {
        true => format!("'{cell}").into(),
        false => cell.into(),
    }
}

/// The cell [`formula_safe`] was given.
fn formula_unsafe(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@']) => rest,
        _ => cell,
    }
}

/// JSON: an array of entries, or an object keyed by agent name (ai.robots.txt's robots.json).
fn read_json(text: &str) -> Result<Vec<Entry>> {
    let v: serde_json::Value = serde_json::from_str(text)?;
    let mut out = Vec::new();
    match v {
        serde_json::Value::Array(items) => {
            for item in items {
                out.push(serde_json::from_value(item)?);
            }
        }
        serde_json::Value::Object(map) => {
            for (name, item) in map {
                let mut e: Entry = serde_json::from_value(item)?;
                e.name = Some(e.name.unwrap_or(name));
                out.push(e);
            }
        }
        _ => bail!("expected a JSON array of agents or an object keyed by agent name"),
    }
    Ok(out)
}

fn version_of(text: &str) -> Option<String> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| {
            l.trim_start_matches('#')
                .trim()
                .strip_prefix("registry_version:")
        })
        .map(|v| v.trim().to_string())
}

impl Registry {
    /// The embedded registry.
    pub fn builtin() -> Registry {
        let agents = read_csv(REGISTRY_CSV)
            .and_then(|es| {
                es.into_iter()
                    .map(|e| e.into_agent(None, "builtin"))
                    .collect::<Result<Vec<_>>>()
            })
            .expect("the embedded registry is valid (tested)");
        Registry {
            version: version_of(REGISTRY_CSV).expect("the embedded registry has a version"),
            agents,
        }
    }

    /// Index of the agent with this name (case-insensitive).
    pub fn position(&self, name: &str) -> Option<usize> {
        self.agents
            .iter()
            .position(|a| a.name.eq_ignore_ascii_case(name))
    }

    /// Add or override agents from a CSV or JSON file (by extension, else by first byte). An
    /// entry whose name is already registered (case-insensitively) replaces that agent's given
    /// fields.
    pub fn apply_file(&mut self, path: &Path) -> Result<usize> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let json = ext.eq_ignore_ascii_case("json")
            || (!ext.eq_ignore_ascii_case("csv")
                && matches!(text.trim_start().chars().next(), Some('[' | '{')));
        let entries = if json {
            read_json(&text)
        } else {
            read_csv(&text)
        }
        .with_context(|| format!("{}", path.display()))?;
        let source = path
            .file_name()
            .map_or("override".into(), |n| n.to_string_lossy().into_owned());
        let n = entries.len();
        for e in entries {
            let name = e.name.clone().unwrap_or_default();
            match self.position(name.trim()) {
                Some(i) => {
                    let a = e
                        .into_agent(Some(&self.agents[i]), &source)
                        .with_context(|| format!("{}", path.display()))?;
                    self.agents[i] = a;
                }
                None => {
                    let a = e
                        .into_agent(None, &source)
                        .with_context(|| format!("{}", path.display()))?;
                    self.agents.push(a);
                }
            }
        }
        self.version = format!(
            "{}+{}",
            self.version.split('+').next().unwrap_or(""),
            source
        );
        Ok(n)
    }

    /// The embedded registry's header: version, column meanings and sources (comment text).
    pub fn header() -> String {
        REGISTRY_CSV
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| {
                format!(
                    "{}\n",
                    l.trim_start_matches('#').strip_prefix(' ').unwrap_or("")
                )
            })
            .collect()
    }

    /// The registry as plain CSV (the embedded file's columns, plus `token`; no comment lines):
    /// a cell that begins with `=`, `+`, `-` or `@` gets a `'` before it, so that a spreadsheet
    /// shows it instead of running it as a formula (reading it back takes the `'` off again).
    pub fn to_csv(&self) -> Result<String> {
        let mut plain = csv::Writer::from_writer(Vec::new());
        for a in &self.agents {
            plain.serialize(a)?;
        }
        let plain = plain.into_inner()?;
        let mut w = csv::Writer::from_writer(Vec::new());
        for record in csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&plain[..])
            .records()
        {
            let record = record?;
            w.write_record(record.iter().map(|c| formula_safe(c).into_owned()))?;
        }
        Ok(String::from_utf8(w.into_inner()?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_that_a_spreadsheet_would_run_get_a_quote_and_read_back_unchanged() {
        let mut r = Registry::builtin();
        r.agents.truncate(1);
        r.agents[0].operator = "=HYPERLINK(\"x\")".into();
        r.agents[0].source = "-1+2".into();
        let csv = r.to_csv().unwrap();
        assert!(!csv.starts_with('#') && !csv.contains("\n#"), "{csv}");
        assert!(
            csv.contains("\"'=HYPERLINK(\"\"x\"\")\"") && csv.contains(",'-1+2,"),
            "{csv}"
        );
        let back = read_csv(&csv).unwrap();
        assert_eq!(back[0].operator.as_deref(), Some("=HYPERLINK(\"x\")"));
        assert_eq!(back[0].source.as_deref(), Some("-1+2"));
    }

    #[test]
    fn builtin_is_valid_and_unique() {
        let r = Registry::builtin();
        assert_eq!(r.version, "2026-11-27.2");
        assert!(r.agents.len() >= 150, "{}", r.agents.len());
        let mut names: Vec<String> = r
            .agents
            .iter()
            .map(|a| a.name.to_ascii_lowercase())
            .collect();
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "two agents share a name");
        assert_eq!(r.agents[r.position("mj12BOT").unwrap()].token, "MJ");
        assert_eq!(
            r.agents[r.position("gptbot").unwrap()].category,
            "ai_training"
        );
        for a in &r.agents {
            assert!(!a.operator.is_empty() && CATEGORIES.contains(&a.category.as_str()));
        }
    }

    /// "Does this file name an AI agent" must not count files naming a spider or an operator:
    /// no registry name is a common word.
    #[test]
    fn no_agent_is_named_by_a_common_word() {
        const COMMON: &[&str] = &[
            "agent", "ai", "bot", "code", "crawl", "crawler", "fetcher", "operator", "robot",
            "search", "spider", "user", "web",
        ];
        for a in &Registry::builtin().agents {
            let name = a.name.to_ascii_lowercase();
            assert!(!COMMON.contains(&name.as_str()), "{}", a.name);
        }
    }

    /// Every built-in agent cites a page, every `documented` claim its page, and agents Google's
    /// token rule cannot tell apart, or one crawler under two names (`X` and `Operator-X`), share
    /// one category.
    #[test]
    fn every_agent_is_cited_and_has_one_category() {
        let r = Registry::builtin();
        for a in &r.agents {
            let url = a.source_url.as_deref().unwrap_or_default();
            assert!(url.starts_with("http"), "{} has no source_url", a.name);
            if a.robots_txt == "documented" {
                assert!(
                    a.robots_txt_source.is_some(),
                    "{}: documented where?",
                    a.name
                );
            }
            if !a.group_rules().is_google() {
                assert!(
                    a.groups_source.is_some(),
                    "{}: group rules from where?",
                    a.name
                );
            }
        }
        for a in &r.agents {
            for b in &r.agents {
                let same_token = a.token.eq_ignore_ascii_case(&b.token);
                let (an, bn) = (a.name.to_ascii_lowercase(), b.name.to_ascii_lowercase());
                let prefixed = an.ends_with(&format!("-{bn}"));
                if same_token || prefixed {
                    assert_eq!(a.category, b.category, "{} and {}", a.name, b.name);
                }
            }
        }
    }

    /// Overrides give the group rules as CSV text or as JSON values, to the same effect.
    #[test]
    fn group_rules_from_csv_text_or_json_values() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("o.json");
        std::fs::write(
            &json,
            r#"[{"name": "GPTBot", "ignores_wildcard": true, "fallback_tokens": ["Googlebot", "GoogleOther"]}]"#,
        )
        .unwrap();
        let csv = dir.path().join("o.csv");
        std::fs::write(
            &csv,
            "name,ignores_wildcard,fallback_tokens\nGPTBot,TRUE,Googlebot GoogleOther\n",
        )
        .unwrap();
        for path in [&json, &csv] {
            let mut r = Registry::builtin();
            r.apply_file(path).unwrap();
            let a = &r.agents[r.position("GPTBot").unwrap()];
            assert!(a.ignores_wildcard, "{}", path.display());
            assert_eq!(a.fallback_tokens, ["Googlebot", "GoogleOther"]);
        }
        std::fs::write(&csv, "name,ignores_wildcard\nGPTBot,maybe\n").unwrap();
        let err = Registry::builtin().apply_file(&csv).unwrap_err();
        assert!(format!("{err:#}").contains("not true or false"), "{err:#}");
    }

    #[test]
    fn markdown_operator() {
        assert_eq!(unlink("[Ai2](https://allenai.org/crawler)"), "Ai2");
        assert_eq!(unlink("Meta/Facebook"), "Meta/Facebook");
    }

    #[test]
    fn respect_text() {
        assert_eq!(respect_to_support("[Yes](https://x)"), "documented");
        assert_eq!(respect_to_support("No"), "not_honored");
        assert_eq!(respect_to_support("Unclear at this time."), "unknown");
    }
}

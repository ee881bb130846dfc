//! The numbers of the report, per crawl, computed from the tables exactly as the bundled queries
//! compute them (each struct names its query; `tests/report.rs` runs the queries with DuckDB and
//! compares).

use super::load::{flag, text, Tables};
use anyhow::Result;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A robots.txt capture answered 2xx (or is a resource record): the `hosts_2xx` of the queries.
pub(super) const OUTCOMES_2XX: [&str; 4] =
    ["ok", "ok_empty", "not_robots_html", "not_robots_binary"];

/// A share as the queries give it: `round(part / whole, 4)`, `None` when `whole` is 0.
pub(super) fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| (part as f64 / whole as f64 * 1e4).round() / 1e4)
}

/// What was read into a crawl (`read_summary.sql`, `errors_by_input.sql` summed by kind,
/// `robots_fetch_outcomes.sql`).
#[derive(Debug, Default)]
pub(super) struct Read {
    pub inputs: u64,
    pub inputs_failed: u64,
    pub inputs_with_errors: u64,
    pub records: u64,
    pub robots_captures: u64,
    pub robots_hosts: u64,
    pub errors: u64,
    pub errors_by_kind: BTreeMap<String, u64>,
    /// Captures by fetch outcome, most first (ties by name).
    pub fetch_outcomes: Vec<(String, u64)>,
}

impl Read {
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<Read> {
        let mut r = Read::default();
        t.each("inputs", crawl, &["status", "records", "errors"], |b| {
            let (status, records, errors) =
                (b.strings("status")?, b.i64s("records")?, b.i64s("errors")?);
            for i in 0..b.len() {
                r.inputs += 1;
                match text(status, i) {
                    Some("failed") => r.inputs_failed += 1,
                    Some("ok_with_errors") => r.inputs_with_errors += 1,
                    _ => {}
                }
                r.records += records.value(i).max(0) as u64;
                r.errors += errors.value(i).max(0) as u64;
            }
            Ok(())
        })?;
        let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
        t.each("robots_files", crawl, &["fetch_outcome"], |b| {
            let o = b.strings("fetch_outcome")?;
            for i in 0..b.len() {
                r.robots_captures += 1;
                *outcomes
                    .entry(text(o, i).unwrap_or("").to_string())
                    .or_default() += 1;
            }
            Ok(())
        })?;
        r.fetch_outcomes = outcomes.into_iter().collect();
        r.fetch_outcomes
            .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        t.each("robots_hosts", crawl, &["host"], |b| {
            r.robots_hosts += b.len() as u64;
            Ok(())
        })?;
        t.each("errors", crawl, &["kind"], |b| {
            let k = b.strings("kind")?;
            for i in 0..b.len() {
                *r.errors_by_kind
                    .entry(text(k, i).unwrap_or("").to_string())
                    .or_default() += 1;
            }
            Ok(())
        })?;
        Ok(r)
    }
}

/// One agent's row of `agents_full_block_share.sql`.
#[derive(Debug, Default, Clone)]
pub(super) struct AgentShare {
    pub agent: String,
    pub category: String,
    pub operator: String,
    pub hosts_2xx: u64,
    pub hosts_any: u64,
    pub full_block: u64,
    pub by_own_group: u64,
    pub by_star: u64,
    pub partial_block: u64,
    pub hosts_resolved: u64,
}

impl AgentShare {
    pub(super) fn share_2xx(&self) -> Option<f64> {
        share(self.full_block, self.hosts_2xx)
    }
    pub(super) fn share_partial_2xx(&self) -> Option<f64> {
        share(self.partial_block, self.hosts_2xx)
    }
    pub(super) fn is_ai(&self) -> bool {
        self.category.starts_with("ai_")
    }
}

/// The agents of a crawl: each agent's shares (`agents_full_block_share.sql`) and the hosts
/// naming an AI agent (`agents_ai_named_share.sql`). Each host is read at the capture that
/// governs it (`robots_hosts`).
#[derive(Debug, Default)]
pub(super) struct Agents {
    pub shares: Vec<AgentShare>,
    /// Hosts whose governing capture is 2xx (the denominator of agents_ai_named_share).
    pub hosts_2xx: u64,
    /// Of those, hosts whose robots.txt writes the name of at least one AI agent.
    pub hosts_naming_ai: u64,
}

/// How many hosts a capture governs, and how many of them through redirects.
#[derive(Default, Clone, Copy)]
struct Governs {
    hosts: u64,
    resolved: u64,
}

impl Agents {
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<Agents> {
        let mut files: HashMap<String, u32> = HashMap::new();
        let mut file_id = |f: &str| -> u32 {
            let n = files.len() as u32;
            *files.entry(f.to_string()).or_insert(n)
        };
        let mut governs: HashMap<(u32, i64), Governs> = HashMap::new();
        let cols = ["effective_warc_file", "effective_warc_offset", "resolution"];
        t.each("robots_hosts", crawl, &cols, |b| {
            let (f, o, r) = (
                b.strings("effective_warc_file")?,
                b.i64s("effective_warc_offset")?,
                b.strings("resolution")?,
            );
            for i in 0..b.len() {
                let g = governs
                    .entry((file_id(text(f, i).unwrap_or("")), o.value(i)))
                    .or_default();
                g.hosts += 1;
                g.resolved += u64::from(text(r, i) == Some("resolved"));
            }
            Ok(())
        })?;
        let mut by_agent: BTreeMap<String, AgentShare> = BTreeMap::new();
        let mut captures_2xx: HashSet<(u32, i64)> = HashSet::new();
        let mut naming_ai: HashSet<(u32, i64)> = HashSet::new();
        let cols = [
            "warc_file",
            "warc_offset",
            "agent",
            "agent_category",
            "operator",
            "fetch_outcome",
            "verdict",
            "verdict_source",
            "named_exact",
        ];
        t.each("agent_verdicts", crawl, &cols, |b| {
            let (f, o) = (b.strings("warc_file")?, b.i64s("warc_offset")?);
            let (agent, cat, op) = (
                b.strings("agent")?,
                b.strings("agent_category")?,
                b.strings("operator")?,
            );
            let (outcome, verdict, source, named) = (
                b.strings("fetch_outcome")?,
                b.strings("verdict")?,
                b.strings("verdict_source")?,
                b.bools("named_exact")?,
            );
            for i in 0..b.len() {
                let key = (file_id(text(f, i).unwrap_or("")), o.value(i));
                let Some(g) = governs.get(&key).copied() else {
                    continue;
                };
                let name = text(agent, i).unwrap_or("");
                let s = by_agent
                    .entry(name.to_string())
                    .or_insert_with(|| AgentShare {
                        agent: name.to_string(),
                        category: text(cat, i).unwrap_or("").to_string(),
                        operator: text(op, i).unwrap_or("").to_string(),
                        ..AgentShare::default()
                    });
                let is_2xx = text(outcome, i).is_some_and(|o| OUTCOMES_2XX.contains(&o));
                s.hosts_any += g.hosts;
                s.hosts_resolved += g.resolved;
                if is_2xx {
                    s.hosts_2xx += g.hosts;
                    captures_2xx.insert(key);
                    if flag(named, i) && s.is_ai() {
                        naming_ai.insert(key);
                    }
                }
                match (text(verdict, i), text(source, i)) {
                    (Some("full_block"), source) => {
                        s.full_block += g.hosts;
                        s.by_own_group += g.hosts * u64::from(source == Some("specific"));
                        s.by_star += g.hosts * u64::from(source == Some("wildcard"));
                    }
                    (Some("partial_block"), _) => s.partial_block += g.hosts,
                    _ => {}
                }
            }
            Ok(())
        })?;
        let hosts = |set: &HashSet<(u32, i64)>| set.iter().map(|k| governs[k].hosts).sum();
        Ok(Agents {
            shares: by_agent.into_values().collect(),
            hosts_2xx: hosts(&captures_2xx),
            hosts_naming_ai: hosts(&naming_ai),
        })
    }

    /// The AI agents (registry categories `ai_*`) most often fully blocked, at most `n`.
    pub(super) fn top_ai(&self, n: usize) -> Vec<&AgentShare> {
        let mut ai: Vec<&AgentShare> = self.shares.iter().filter(|s| s.is_ai()).collect();
        ai.sort_by(|a, b| {
            b.share_2xx()
                .partial_cmp(&a.share_2xx())
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| {
                    b.share_partial_2xx()
                        .partial_cmp(&a.share_partial_2xx())
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .then_with(|| a.agent.cmp(&b.agent))
        });
        ai.truncate(n);
        ai
    }
}

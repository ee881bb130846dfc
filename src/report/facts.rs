//! The numbers of the report, per crawl, computed from the tables exactly as the bundled queries
//! compute them (each struct names its query; `tests/report.rs` runs the queries with DuckDB and
//! compares).

use super::load::{flag, text, Names, Tables};
use anyhow::Result;
use arrow_array::Array;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;

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
    /// The earliest robots.txt capture (microseconds since 1970), which orders crawls.
    pub first_capture: Option<i64>,
}

impl Read {
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<Read> {
        let mut r = Read::default();
        t.each(
            "inputs",
            crawl,
            &["status", "records", "errors"],
            &[],
            |b| {
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
            },
        )?;
        let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
        t.each(
            "robots_files",
            crawl,
            &["fetch_outcome", "capture_time"],
            &[],
            |b| {
                let (o, time) = (b.strings("fetch_outcome")?, b.times("capture_time")?);
                for i in 0..b.len() {
                    r.robots_captures += 1;
                    if time.is_valid(i) {
                        let t = time.value(i);
                        r.first_capture = Some(r.first_capture.map_or(t, |f| f.min(t)));
                    }
                    *outcomes
                        .entry(text(o, i).unwrap_or("").to_string())
                        .or_default() += 1;
                }
                Ok(())
            },
        )?;
        r.fetch_outcomes = outcomes.into_iter().collect();
        r.fetch_outcomes
            .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        t.each("robots_hosts", crawl, &["host"], &[], |b| {
            r.robots_hosts += b.len() as u64;
            Ok(())
        })?;
        t.each("errors", crawl, &["kind"], &[], |b| {
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
    /// `agents_singled_out.sql`: hosts whose group for the agent gives a stricter verdict than
    /// their `*` reading, and of those, hosts fully blocking it.
    pub singled_out: u64,
    pub singled_to_full_block: u64,
    /// Of `hosts_2xx`, hosts read through redirects.
    pub hosts_2xx_resolved: u64,
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
    /// Hosts with a 2xx governing capture that leave some agent to the `*` reading (the
    /// denominator of agents_singled_out).
    pub hosts_with_star: u64,
    /// Blocking by category and operator (agents_blocking_by_category.sql), in its order.
    pub groups: Vec<Group>,
}

/// One (category, operator) row of `agents_blocking_by_category.sql`.
#[derive(Debug, Default, Clone)]
pub(super) struct Group {
    pub category: String,
    pub operator: String,
    pub agents: u64,
    pub hosts_2xx: u64,
    pub hosts_blocking_any: u64,
    /// Full and partial blocks, and host x agent pairs, summed over the group's agents.
    pub full: u64,
    pub partial: u64,
    pub pairs: u64,
    pub hosts_resolved: u64,
}

impl Group {
    pub(super) fn full_share(&self) -> Option<f64> {
        share(self.full, self.pairs)
    }
    pub(super) fn partial_share(&self) -> Option<f64> {
        share(self.partial, self.pairs)
    }
}

/// The rows of agents_blocking_by_category.sql from the agents' shares and the hosts fully
/// blocking any agent of each (category, operator): (category, operator) groups of agents with 2xx hosts, by category,
/// then most blocked first, then operator.
fn groups(shares: &[AgentShare], blocking_any: &HashMap<(String, String), u64>) -> Vec<Group> {
    let mut by: BTreeMap<(&str, &str), Group> = BTreeMap::new();
    for s in shares.iter().filter(|s| s.hosts_2xx > 0) {
        let g = by
            .entry((&s.category, &s.operator))
            .or_insert_with(|| Group {
                category: s.category.clone(),
                operator: s.operator.clone(),
                ..Group::default()
            });
        g.agents += 1;
        g.hosts_2xx = g.hosts_2xx.max(s.hosts_2xx);
        g.hosts_resolved = g.hosts_resolved.max(s.hosts_2xx_resolved);
        g.full += s.full_block;
        g.partial += s.partial_block;
        g.pairs += s.hosts_2xx;
    }
    for ((category, operator), hosts) in blocking_any {
        if let Some(g) = by.get_mut(&(category.as_str(), operator.as_str())) {
            g.hosts_blocking_any += hosts;
        }
    }
    let mut groups: Vec<Group> = by.into_values().collect();
    groups.sort_by(|a, b| {
        a.category
            .cmp(&b.category)
            .then_with(|| {
                b.full_share()
                    .partial_cmp(&a.full_share())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .then_with(|| a.operator.cmp(&b.operator))
    });
    groups
}

/// Add each agent's singled-out hosts from the captures' readings (agents_singled_out.sql):
/// hosts whose group for the agent is stricter than their `*` reading. Returns the hosts whose
/// capture leaves some agent to `*` (the denominator).
fn singled_out(
    readings: &HashMap<(u32, i64), Readings>,
    governs: &HashMap<(u32, i64), Governs>,
    shares: &mut [AgentShare],
) -> u64 {
    let mut hosts_with_star = 0;
    for (key, r) in readings {
        let Some(star) = r.star else {
            continue;
        };
        let hosts = governs[key].hosts;
        hosts_with_star += hosts;
        for &(a, v) in r.specific.iter().filter(|(_, v)| v.strictness() > star) {
            shares[a].singled_out += hosts;
            shares[a].singled_to_full_block += hosts * u64::from(v == Verdict::Full);
        }
    }
    hosts_with_star
}

/// The verdicts the agent figures count.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Full,
    Partial,
    Other,
}

impl Verdict {
    fn of(v: &str) -> Verdict {
        match v {
            "full_block" => Verdict::Full,
            "partial_block" => Verdict::Partial,
            _ => Verdict::Other,
        }
    }

    /// full_block > partial_block > the rest, as agents_singled_out.sql ranks them.
    fn strictness(self) -> u8 {
        match self {
            Verdict::Full => 2,
            Verdict::Partial => 1,
            Verdict::Other => 0,
        }
    }
}

/// One 2xx capture's readings, for agents_singled_out: the strictest verdict of the agents no
/// group names (`*` or none), and each agent's verdict from a group naming it.
#[derive(Default)]
struct Readings {
    star: Option<u8>,
    specific: Vec<(usize, Verdict)>,
}

/// The capture whose agent_verdicts rows are being read: how many hosts it governs (none:
/// it governs none) and what its rows added so far.
#[derive(Default)]
struct Current {
    key: Option<(u32, i64)>,
    governs: Option<Governs>,
    readings: Readings,
    blocked: Vec<usize>,
}

impl Current {
    /// Merge what the capture's rows added into the crawl's maps, and start empty.
    fn flush(
        &mut self,
        readings: &mut HashMap<(u32, i64), Readings>,
        blocked: &mut HashMap<(u32, i64), Vec<usize>>,
    ) {
        let Some(key) = self.key else { return };
        let r = std::mem::take(&mut self.readings);
        if r.star.is_some() || !r.specific.is_empty() {
            let into = readings.entry(key).or_default();
            into.star = into.star.max(r.star);
            into.specific.extend(r.specific);
        }
        if !self.blocked.is_empty() {
            blocked.entry(key).or_default().append(&mut self.blocked);
        }
    }
}

/// How many hosts a capture governs, and how many of them through redirects.
#[derive(Default, Clone, Copy)]
struct Governs {
    hosts: u64,
    resolved: u64,
}

impl Agents {
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<Agents> {
        let mut files = Names::default();
        let mut file_id = |f: &str| files.id(f);
        let mut governs: HashMap<(u32, i64), Governs> = HashMap::default();
        let cols = ["effective_warc_file", "effective_warc_offset", "resolution"];
        t.each("robots_hosts", crawl, &cols, &[], |b| {
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
        let mut shares: Vec<AgentShare> = Vec::new();
        let mut agent_index: HashMap<String, usize> = HashMap::default();
        let mut naming_ai: HashSet<(u32, i64)> = HashSet::default();
        let mut readings: HashMap<(u32, i64), Readings> = HashMap::default();
        // The agents each 2xx capture fully blocks (for hosts blocking any of a group's).
        let mut blocked: HashMap<(u32, i64), Vec<usize>> = HashMap::default();
        // A capture's rows come together: what they add is gathered here and merged into the
        // maps when the next capture's rows begin (merging is right in any order).
        let mut current = Current::default();
        let labels = [
            "warc_file",
            "agent",
            "agent_category",
            "operator",
            "fetch_outcome",
            "verdict",
            "verdict_source",
        ];
        let mut cols = labels.to_vec();
        cols.extend(["warc_offset", "named_exact"]);
        // 215 rows per capture: every string column is read as a dictionary and mapped once
        // per batch, so a row costs integer look-ups.
        // Per part (a capture's rows all lie in its input's part): what each capture's rows
        // add is tallied when the part ends, and then forgotten.
        let (mut hosts_with_star, mut hosts_naming_ai) = (0, 0);
        let mut blocking_any: HashMap<(String, String), u64> = HashMap::default();
        for part in t.parts("agent_verdicts", crawl) {
            t.each_in(part, &cols, &labels, |b| {
                let f = b.labels("warc_file")?.map(&mut file_id);
                let agent = b.labels("agent")?;
                let agents = agent.map(|name| {
                    *agent_index.entry(name.to_string()).or_insert_with(|| {
                        shares.push(AgentShare {
                            agent: name.to_string(),
                            ..AgentShare::default()
                        });
                        shares.len() - 1
                    })
                });
                let (cat, op) = (b.labels("agent_category")?, b.labels("operator")?);
                let is_2xx = b
                    .labels("fetch_outcome")?
                    .map(|o| OUTCOMES_2XX.contains(&o));
                let verdict = b.labels("verdict")?.map(Verdict::of);
                let source = b.labels("verdict_source")?.map(|s| s.to_string());
                let (o, named) = (b.i64s("warc_offset")?, b.bools("named_exact")?);
                let keys = [b.labels("warc_file")?, agent, b.labels("fetch_outcome")?];
                let (verdict_keys, source_keys) =
                    (b.labels("verdict")?, b.labels("verdict_source")?);
                for i in 0..b.len() {
                    let (Some(fk), Some(ak)) = (keys[0].key(i), keys[1].key(i)) else {
                        continue;
                    };
                    let key = (f[fk], o.value(i));
                    if current.key != Some(key) {
                        current.flush(&mut readings, &mut blocked);
                        current.key = Some(key);
                        current.governs = governs.get(&key).copied();
                    }
                    let Some(g) = current.governs else {
                        continue;
                    };
                    let s = &mut shares[agents[ak]];
                    if s.category.is_empty() {
                        s.category = cat.key(i).map_or("", |k| cat.values.value(k)).to_string();
                        s.operator = op.key(i).map_or("", |k| op.values.value(k)).to_string();
                    }
                    s.hosts_any += g.hosts;
                    s.hosts_resolved += g.resolved;
                    let v = verdict_keys.key(i).map_or(Verdict::Other, |k| verdict[k]);
                    if keys[2].key(i).is_some_and(|k| is_2xx[k]) {
                        s.hosts_2xx += g.hosts;
                        s.hosts_2xx_resolved += g.resolved;
                        if v == Verdict::Full {
                            current.blocked.push(agents[ak]);
                        }
                        if flag(named, i) && s.is_ai() {
                            naming_ai.insert(key);
                        }
                        let r = &mut current.readings;
                        match source_keys.key(i).map(|k| source[k].as_str()) {
                            Some("specific") => r.specific.push((agents[ak], v)),
                            Some("wildcard" | "none") => {
                                r.star = Some(r.star.unwrap_or(0).max(v.strictness()))
                            }
                            _ => {}
                        }
                    }
                    match verdict_keys.key(i).map(|k| verdict[k]) {
                        Some(Verdict::Full) => {
                            let source = source_keys.key(i).map(|k| source[k].as_str());
                            s.full_block += g.hosts;
                            s.by_own_group += g.hosts * u64::from(source == Some("specific"));
                            s.by_star += g.hosts * u64::from(source == Some("wildcard"));
                        }
                        Some(Verdict::Partial) => s.partial_block += g.hosts,
                        _ => {}
                    }
                }
                Ok(())
            })?;
            current.flush(&mut readings, &mut blocked);
            current = Current::default();
            hosts_with_star += singled_out(&readings, &governs, &mut shares);
            hosts_naming_ai += naming_ai.iter().map(|k| governs[k].hosts).sum::<u64>();
            for (key, agents) in &blocked {
                // The (category, operator) groups of the agents the capture fully blocks.
                let mut seen: Vec<(&str, &str)> = Vec::new();
                for &a in agents {
                    let k = (shares[a].category.as_str(), shares[a].operator.as_str());
                    if !seen.contains(&k) {
                        seen.push(k);
                        *blocking_any
                            .entry((k.0.to_string(), k.1.to_string()))
                            .or_default() += governs[key].hosts;
                    }
                }
            }
            readings.clear();
            blocked.clear();
            naming_ai.clear();
        }
        let groups = groups(&shares, &blocking_any);
        shares.sort_by(|a, b| a.agent.cmp(&b.agent));
        Ok(Agents {
            hosts_with_star,
            groups,
            // Every capture has a row for every agent: any agent's count of 2xx hosts is the
            // count of hosts with a 2xx capture.
            hosts_2xx: shares.iter().map(|s| s.hosts_2xx).max().unwrap_or(0),
            hosts_naming_ai,
            shares,
        })
    }

    /// The AI agents most often singled out (most first, then by name), at most `n`; none when
    /// no agent is.
    pub(super) fn top_singled_out(&self, n: usize) -> Vec<&AgentShare> {
        let mut ai: Vec<&AgentShare> = self
            .shares
            .iter()
            .filter(|s| s.is_ai() && s.singled_out > 0)
            .collect();
        ai.sort_by(|a, b| {
            b.singled_out
                .cmp(&a.singled_out)
                .then_with(|| a.agent.cmp(&b.agent))
        });
        ai.truncate(n);
        ai
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

/// The keys `robots_extension_adoption.sql` counts among `robots_rules` lines (and `purpose`,
/// the `User-Agent-Purpose` lines of `robots_agents`).
const EXTENSION_KEYS: [&str; 11] = [
    "app_directives",
    "acap",
    "content_usage",
    "content_signal",
    "crawl_delay",
    "host",
    "clean_param",
    "noindex",
    "request_rate",
    "visit_time",
    "sitemap",
];

/// One extension's row of `robots_extension_adoption.sql`.
#[derive(Debug, Clone)]
pub(super) struct Extension {
    pub extension: String,
    pub hosts: u64,
    pub lines: u64,
}

/// `robots_extension_adoption.sql`: hosts (by their latest capture) writing each extension, over
/// hosts whose latest capture was parsed.
#[derive(Debug, Default)]
pub(super) struct Extensions {
    pub parsed_hosts: u64,
    /// Most hosts first (ties by name).
    pub rows: Vec<Extension>,
    /// `robots_content_signal_values.sql`; its denominator is the `content_signal` row's hosts.
    pub content_signals: Vec<SignalValue>,
}

/// One row of `robots_content_signal_values.sql`: a signal, its value (none when the pair has
/// no `=`) and the hosts giving it.
#[derive(Debug, Clone)]
pub(super) struct SignalValue {
    pub signal: String,
    pub value: Option<String>,
    pub hosts: u64,
}

/// The signal/value pairs of the Content-Signal lines of hosts' latest captures, each host
/// (its latest capture) once per pair.
#[derive(Default)]
struct ContentSignals(HashSet<(String, Option<String>, (u32, i64))>);

impl ContentSignals {
    /// Add one line's value: split at commas, each pair lowercased and trimmed of spaces as the
    /// query's `trim(lower(...))` does, the signal before the first `=` and the value up to the
    /// next (`split_part`).
    fn add(&mut self, capture: (u32, i64), value: &str) {
        for pair in value.split(',') {
            let pair = pair.to_lowercase();
            let pair = pair.trim_matches(' ');
            if pair.is_empty() {
                continue;
            }
            let mut parts = pair.split('=');
            let signal = parts.next().unwrap_or("").trim_matches(' ').to_string();
            let value = parts.next().map(|v| v.trim_matches(' ').to_string());
            self.0.insert((signal, value, capture));
        }
    }

    /// Most hosts first, then by signal and value (a pair without `=` last among equals).
    fn rows(self) -> Vec<SignalValue> {
        let mut hosts: BTreeMap<(String, Option<String>), u64> = BTreeMap::new();
        for (signal, value, _) in self.0 {
            *hosts.entry((signal, value)).or_default() += 1;
        }
        let mut rows: Vec<SignalValue> = hosts
            .into_iter()
            .map(|((signal, value), hosts)| SignalValue {
                signal,
                value,
                hosts,
            })
            .collect();
        rows.sort_by(|a, b| {
            (b.hosts.cmp(&a.hosts))
                .then_with(|| a.signal.cmp(&b.signal))
                .then_with(|| match (&a.value, &b.value) {
                    (Some(x), Some(y)) => x.cmp(y),
                    (x, y) => x.is_none().cmp(&y.is_none()),
                })
        });
        rows
    }
}

impl Extensions {
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<Extensions> {
        let mut files = Names::default();
        // Each host's latest capture (a capture is the latest of at most one host).
        let mut latest: HashSet<(u32, i64)> = HashSet::default();
        t.each(
            "robots_hosts",
            crawl,
            &["warc_file", "warc_offset"],
            &[],
            |b| {
                let (f, o) = (b.strings("warc_file")?, b.i64s("warc_offset")?);
                for i in 0..b.len() {
                    latest.insert((files.id(text(f, i).unwrap_or("")), o.value(i)));
                }
                Ok(())
            },
        )?;
        let mut parsed_hosts = 0;
        t.each(
            "robots_files",
            crawl,
            &["warc_file", "warc_offset", "parsed"],
            &[],
            |b| {
                let (f, o, p) = (
                    b.strings("warc_file")?,
                    b.i64s("warc_offset")?,
                    b.bools("parsed")?,
                );
                for i in 0..b.len() {
                    let key = (files.id(text(f, i).unwrap_or("")), o.value(i));
                    parsed_hosts += u64::from(flag(p, i) && latest.contains(&key));
                }
                Ok(())
            },
        )?;
        // Extension k is EXTENSION_KEYS[k], or `purpose` past them.
        let purpose = EXTENSION_KEYS.len();
        let mut lines = [0u64; EXTENSION_KEYS.len() + 1];
        let mut hosts: HashSet<(usize, (u32, i64))> = HashSet::default();
        let mut count = |ext: usize, capture: (u32, i64)| {
            if latest.contains(&capture) {
                lines[ext] += 1;
                hosts.insert((ext, capture));
            }
        };
        let cols = ["warc_file", "warc_offset", "line_kind"];
        t.each(
            "robots_agents",
            crawl,
            &cols,
            &["warc_file", "line_kind"],
            |b| {
                let (f, o, k) = (
                    b.labels("warc_file")?,
                    b.i64s("warc_offset")?,
                    b.labels("line_kind")?,
                );
                let files = f.map(|name| files.id(name));
                let is_purpose = k.map(|kind| kind == "purpose");
                for i in 0..b.len() {
                    if k.key(i).is_some_and(|k| is_purpose[k]) {
                        count(
                            purpose,
                            (f.key(i).map_or(u32::MAX, |f| files[f]), o.value(i)),
                        );
                    }
                }
                Ok(())
            },
        )?;
        let mut signals = ContentSignals::default();
        let cols = ["warc_file", "warc_offset", "key", "value"];
        t.each("robots_rules", crawl, &cols, &["warc_file", "key"], |b| {
            let (f, o, k, v) = (
                b.labels("warc_file")?,
                b.i64s("warc_offset")?,
                b.labels("key")?,
                b.strings("value")?,
            );
            let files = f.map(|name| files.id(name));
            let ext = k.map(|k| EXTENSION_KEYS.iter().position(|e| *e == k));
            for i in 0..b.len() {
                let Some(x) = k.key(i).and_then(|key| ext[key]) else {
                    continue;
                };
                let capture = (f.key(i).map_or(u32::MAX, |f| files[f]), o.value(i));
                count(x, capture);
                if EXTENSION_KEYS[x] == "content_signal" && latest.contains(&capture) {
                    signals.add(capture, text(v, i).unwrap_or(""));
                }
            }
            Ok(())
        })?;
        let mut by_ext = [0u64; EXTENSION_KEYS.len() + 1];
        for (ext, _) in &hosts {
            by_ext[*ext] += 1;
        }
        let name = |k: usize| EXTENSION_KEYS.get(k).copied().unwrap_or("purpose");
        let mut rows: Vec<Extension> = (0..lines.len())
            .filter(|&k| lines[k] > 0)
            .map(|k| Extension {
                extension: name(k).to_string(),
                hosts: by_ext[k],
                lines: lines[k],
            })
            .collect();
        rows.sort_by(|a, b| {
            b.hosts
                .cmp(&a.hosts)
                .then_with(|| a.extension.cmp(&b.extension))
        });
        if parsed_hosts == 0 {
            rows.clear();
        }
        Ok(Extensions {
            parsed_hosts,
            rows,
            content_signals: signals.rows(),
        })
    }
}

/// `signals_html_share.sql`: 2xx HTML responses and those with a robots meta tag, header,
/// either, or a TDM signal.
#[derive(Debug, Default)]
pub(super) struct PageSignals {
    pub html_pages: u64,
    pub with_meta: u64,
    pub with_header: u64,
    pub with_any: u64,
    pub with_tdm: u64,
    pub hosts: u64,
}

impl PageSignals {
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<PageSignals> {
        let mut p = PageSignals::default();
        let mut hosts: HashSet<String> = HashSet::default();
        let cols = [
            "host",
            "status_class",
            "html",
            "responses",
            "with_meta",
            "with_header",
            "with_both",
            "with_tdm",
        ];
        t.each("host_counts", crawl, &cols, &[], |b| {
            let (host, class, html) = (
                b.strings("host")?,
                b.strings("status_class")?,
                b.bools("html")?,
            );
            let n = |c: &str| b.i64s(c);
            let (responses, meta, header, both, tdm) = (
                n("responses")?,
                n("with_meta")?,
                n("with_header")?,
                n("with_both")?,
                n("with_tdm")?,
            );
            let v = |a: &arrow_array::Int64Array, i: usize| a.value(i).max(0) as u64;
            for i in 0..b.len() {
                if text(class, i) != Some("2xx") || !flag(html, i) {
                    continue;
                }
                p.html_pages += v(responses, i);
                p.with_meta += v(meta, i);
                p.with_header += v(header, i);
                p.with_any += v(meta, i) + v(header, i) - v(both, i);
                p.with_tdm += v(tdm, i);
                if let Some(h) = text(host, i) {
                    hosts.insert(h.to_string());
                }
            }
            Ok(())
        })?;
        p.hosts = hosts.len() as u64;
        Ok(p)
    }
}

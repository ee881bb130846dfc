//! The numbers of the report, per crawl, computed from the tables exactly as the bundled queries
//! compute them (each struct names its query; `tests/answers/report.rs` runs the queries with DuckDB and
//! compares).

use super::load::{flag, text, Tables};
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::Table;
use anyhow::Result;
use arrow_array::Array;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// A share as the queries give it: `round(part / whole, 4)`, `None` when `whole` is 0.
pub(super) fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| (part as f64 / whole as f64 * 1e4).round() / 1e4)
}

/// What was read into a crawl (`read_summary.sql`, `errors_by_kind.sql` (`errors_by_input.sql`
/// summed by kind), `robots_fetch_outcomes.sql`).
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
    /// The latest robots.txt capture.
    pub last_capture: Option<i64>,
}

impl Read {
    /// The problems per kind: from `summary_errors`, or from `errors` itself for a crawl that
    /// has no summary part (none derived yet, as after `scan --shard`, or no problem at all).
    fn count_errors(&mut self, t: &Tables<'_>, crawl: &str) -> Result<()> {
        let by_kind = &mut self.errors_by_kind;
        if t.parts(Table::SummaryErrors, crawl).is_empty() {
            return t.each(Table::Errors, crawl, &["kind"], &[], |b| {
                let k = b.strings("kind")?;
                for i in 0..b.len() {
                    *by_kind
                        .entry(text(k, i).unwrap_or("").to_string())
                        .or_default() += 1;
                }
                Ok(())
            });
        }
        t.each(Table::SummaryErrors, crawl, &["kind", "errors"], &[], |b| {
            let (k, n) = (b.strings("kind")?, b.i64s("errors")?);
            for i in 0..b.len() {
                *by_kind
                    .entry(text(k, i).unwrap_or("").to_string())
                    .or_default() += n.value(i).max(0) as u64;
            }
            Ok(())
        })
    }

    /// The captures per fetch outcome and the earliest capture, from `robots_files` itself.
    fn outcomes_from_captures(&mut self, t: &Tables<'_>, crawl: &str) -> Result<()> {
        let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
        let cols = ["fetch_outcome", "capture_time"];
        t.each(Table::RobotsFiles, crawl, &cols, &[], |b| {
            let (o, time) = (b.strings("fetch_outcome")?, b.times("capture_time")?);
            for i in 0..b.len() {
                self.robots_captures += 1;
                if time.is_valid(i) {
                    let t = time.value(i);
                    self.first_capture = Some(self.first_capture.map_or(t, |f| f.min(t)));
                    self.last_capture = Some(self.last_capture.map_or(t, |l| l.max(t)));
                }
                *outcomes
                    .entry(text(o, i).unwrap_or("").to_string())
                    .or_default() += 1;
            }
            Ok(())
        })?;
        self.fetch_outcomes = outcomes.into_iter().collect();
        Ok(())
    }

    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<Read> {
        let mut r = Read::default();
        t.each(
            Table::Inputs,
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
        if t.parts(Table::SummaryRobotsOutcomes, crawl).is_empty() {
            // Not derived yet (a sharded scan before `hosts`): count the captures themselves.
            r.outcomes_from_captures(t, crawl)?;
        }
        let cols = ["fetch_outcome", "captures", "first_capture", "last_capture"];
        t.each(Table::SummaryRobotsOutcomes, crawl, &cols, &[], |b| {
            let (o, captures) = (b.strings("fetch_outcome")?, b.i64s("captures")?);
            let (first, last) = (b.times("first_capture")?, b.times("last_capture")?);
            for i in 0..b.len() {
                let n = captures.value(i).max(0) as u64;
                r.robots_captures += n;
                if first.is_valid(i) {
                    let t = first.value(i);
                    r.first_capture = Some(r.first_capture.map_or(t, |f| f.min(t)));
                }
                if last.is_valid(i) {
                    let t = last.value(i);
                    r.last_capture = Some(r.last_capture.map_or(t, |l| l.max(t)));
                }
                r.fetch_outcomes
                    .push((text(o, i).unwrap_or("").to_string(), n));
            }
            Ok(())
        })?;
        r.fetch_outcomes
            .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        t.each(Table::SummaryRobotsHosts, crawl, &["hosts"], &[], |b| {
            let hosts = b.i64s("hosts")?;
            r.robots_hosts += (0..b.len())
                .map(|i| hosts.value(i).max(0) as u64)
                .sum::<u64>();
            Ok(())
        })?;
        r.count_errors(t, crawl)?;
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
    /// Of `partial_block`, through a group naming the agent.
    pub partial_by_own_group: u64,
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
    /// The hosts' `*` readings (agents_wildcard_blocking.sql); `None` when
    /// `summary_agent_groups` predates them (schema 12 and before).
    pub star: Option<Star>,
}

/// `agents_wildcard_blocking.sql`: hosts whose governing capture is a 2xx, by their `*`
/// reading, the verdict of every agent their file does not name.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Star {
    pub full_block: u64,
    pub partial_block: u64,
    /// Hosts fully blocking some AI agent while `*` blocks nothing.
    pub ai_blocked_star_open: u64,
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
    /// Of `full`, blocks through a group naming the agent.
    pub by_name: u64,
    pub partial: u64,
    pub pairs: u64,
    pub hosts_resolved: u64,
}

impl Group {
    /// Hosts fully blocking at least one of the group's agents, over the 2xx hosts.
    pub(super) fn any_share(&self) -> Option<f64> {
        share(self.hosts_blocking_any, self.hosts_2xx)
    }
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
fn groups(shares: &[AgentShare], blocking_any: &BlockingAny) -> Vec<Group> {
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
        g.by_name += s.by_own_group;
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

/// Hosts fully blocking some agent of a (category, operator).
type BlockingAny = HashMap<(String, String), u64>;

/// From `summary_agent_groups`, over hosts whose governing capture is a 2xx: the hosts fully
/// blocking some agent of each (category, operator), the hosts naming an AI agent, and the
/// hosts by their `*` reading (none when a part predates it).
fn group_counts(t: &Tables<'_>, crawl: &str) -> Result<(BlockingAny, u64, Option<Star>)> {
    let (mut blocking_any, mut naming_ai) = (HashMap::default(), 0);
    let mut star = Some(Star::default());
    let cols = [
        "agent_group",
        "agent_category",
        "operator",
        "fetch_outcome",
        "blocks_any",
        "names_exact",
        "star_verdict",
        "hosts",
    ];
    t.each(Table::SummaryAgentGroups, crawl, &cols, &[], |b| {
        let (group, cat, op) = (
            b.strings("agent_group")?,
            b.strings("agent_category")?,
            b.strings("operator")?,
        );
        let outcome = b.strings("fetch_outcome")?;
        let (blocks, names, hosts) = (
            b.bools("blocks_any")?,
            b.bools("names_exact")?,
            b.i64s("hosts")?,
        );
        // Parts of an earlier schema lack the `*` reading: only its figures are left out.
        let star_verdict = b.strings("star_verdict").ok();
        if star_verdict.is_none() {
            star = None;
        }
        for i in 0..b.len() {
            if !text(outcome, i).is_some_and(FetchOutcome::is_2xx_name) {
                continue;
            }
            let n = hosts.value(i).max(0) as u64;
            let sv = star_verdict.and_then(|v| text(v, i));
            match (text(group, i), star.as_mut()) {
                (Some("all"), Some(s)) => match sv {
                    Some("full_block") => s.full_block += n,
                    Some("partial_block") => s.partial_block += n,
                    _ => {}
                },
                (Some("ai"), Some(s))
                    if flag(blocks, i) && !matches!(sv, Some("full_block" | "partial_block")) =>
                {
                    s.ai_blocked_star_open += n
                }
                _ => {}
            }
            match text(group, i) {
                Some("operator") if flag(blocks, i) => {
                    let key = (
                        text(cat, i).unwrap_or_default().to_string(),
                        text(op, i).unwrap_or_default().to_string(),
                    );
                    *blocking_any.entry(key).or_default() += n;
                }
                Some("ai") if flag(names, i) => naming_ai += n,
                _ => {}
            }
        }
        Ok(())
    })?;
    Ok((blocking_any, naming_ai, star))
}

/// What the agent figures count of a verdict: a full block, a partial block, or neither.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Blocking {
    Full,
    Partial,
    Other,
}

impl Blocking {
    fn of(v: &str) -> Blocking {
        match v {
            "full_block" => Blocking::Full,
            "partial_block" => Blocking::Partial,
            _ => Blocking::Other,
        }
    }
}

impl Agents {
    /// The agents' figures from `summary_agents` and `summary_agent_groups`, summed as the
    /// bundled queries sum them.
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<Agents> {
        let mut shares: Vec<AgentShare> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::default();
        // Per agent: hosts whose governing capture is a 2xx leaving some agent to `*` (the
        // same hosts for every agent: the denominator of agents_singled_out).
        let mut with_star: Vec<u64> = Vec::new();
        let cols = [
            "agent",
            "agent_category",
            "operator",
            "fetch_outcome",
            "resolution",
            "verdict",
            "verdict_source",
            "singled_out",
            "hosts",
        ];
        t.each(Table::SummaryAgents, crawl, &cols, &[], |b| {
            let text_of = |c: &str| b.strings(c);
            let (agent, cat, op) = (
                text_of("agent")?,
                text_of("agent_category")?,
                text_of("operator")?,
            );
            let (outcome, resolution) = (text_of("fetch_outcome")?, text_of("resolution")?);
            let (verdict, source) = (text_of("verdict")?, text_of("verdict_source")?);
            let (singled, hosts) = (b.bools("singled_out")?, b.i64s("hosts")?);
            for i in 0..b.len() {
                let name = text(agent, i).unwrap_or_default();
                let a = *index.entry(name.to_string()).or_insert_with(|| {
                    shares.push(AgentShare {
                        agent: name.to_string(),
                        category: text(cat, i).unwrap_or_default().to_string(),
                        operator: text(op, i).unwrap_or_default().to_string(),
                        ..AgentShare::default()
                    });
                    with_star.push(0);
                    shares.len() - 1
                });
                let n = hosts.value(i).max(0) as u64;
                let s = &mut shares[a];
                let resolved = text(resolution, i) == Some("resolved");
                let v = Blocking::of(text(verdict, i).unwrap_or_default());
                s.hosts_any += n;
                s.hosts_resolved += n * u64::from(resolved);
                if text(outcome, i).is_some_and(FetchOutcome::is_2xx_name) {
                    s.hosts_2xx += n;
                    s.hosts_2xx_resolved += n * u64::from(resolved);
                }
                match v {
                    Blocking::Full => {
                        let source = text(source, i);
                        s.full_block += n;
                        s.by_own_group += n * u64::from(source == Some("specific"));
                        s.by_star += n * u64::from(source == Some("wildcard"));
                    }
                    Blocking::Partial => {
                        s.partial_block += n;
                        s.partial_by_own_group +=
                            n * u64::from(text(source, i) == Some("specific"));
                    }
                    Blocking::Other => {}
                }
                if singled.is_valid(i) {
                    with_star[a] += n;
                    if singled.value(i) {
                        s.singled_out += n;
                        s.singled_to_full_block += n * u64::from(v == Blocking::Full);
                    }
                }
            }
            Ok(())
        })?;
        let (blocking_any, hosts_naming_ai, star) = group_counts(t, crawl)?;
        let groups = groups(&shares, &blocking_any);
        shares.sort_by(|a, b| a.agent.cmp(&b.agent));
        Ok(Agents {
            hosts_with_star: with_star.iter().copied().max().unwrap_or(0),
            groups,
            // Every host counts once for every agent: any agent's count of 2xx hosts is the
            // count of hosts with a 2xx governing capture.
            hosts_2xx: shares.iter().map(|s| s.hosts_2xx).max().unwrap_or(0),
            hosts_naming_ai,
            shares,
            star,
        })
    }

    /// The AI agents most often singled out (most first, then by name), at most `n`; none when
    /// no agent is.
    pub(super) fn top_singled_out(&self, n: usize) -> Top<'_> {
        let ai = (self.shares.iter()).filter(|s| s.is_ai() && s.singled_out > 0);
        Top::of(ai.collect(), n, |s| s.singled_out)
    }

    /// The AI agents most often fully blocked, by what the figure's bar shows (all full
    /// blocks), at most `n`; those no host blocks by name are left out (their blocks are the
    /// `*` readings, the same for every agent).
    pub(super) fn top_named(&self, n: usize) -> Top<'_> {
        let ai = (self.shares.iter()).filter(|s| s.is_ai() && s.by_own_group > 0);
        Top::of(ai.collect(), n, |s| s.full_block)
    }

    /// The AI agents most often partly blocked by a group naming them, at most `n` (all
    /// partial blocks are mostly the `*` group's generic rules, the same for every agent).
    pub(super) fn top_partial_named(&self, n: usize) -> Top<'_> {
        let ai = (self.shares.iter()).filter(|s| s.is_ai() && s.partial_by_own_group > 0);
        Top::of(ai.collect(), n, |s| s.partial_by_own_group)
    }

    /// AI agents of the registry with 2xx hosts, and of those, the ones no host fully blocks by
    /// a group naming them.
    pub(super) fn ai_agents(&self) -> (usize, usize) {
        let ai = || (self.shares.iter()).filter(|s| s.is_ai() && s.hosts_2xx > 0);
        (ai().count(), ai().filter(|s| s.by_own_group == 0).count())
    }
}

/// The keys `robots_extension_adoption.sql` counts among `robots_rules` lines (and `purpose`,
/// the `User-Agent-Purpose` lines of `robots_agents`).
const EXTENSION_KEYS: [&str; 12] = [
    "app_directives",
    "acap",
    "content_usage",
    "content_signal",
    "license",
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
    /// `robots_accidental_blocks.sql`: hosts whose governing capture is a 2xx robots.txt, and
    /// those whose file groups `*` with AI agents, or joins `*` to the agents after it.
    pub hosts_2xx: u64,
    /// `None` when `summary_robots_hosts` predates the counts (tables of schema 11 and before).
    pub wildcard_with_ai: Option<u64>,
    pub wildcard_split: Option<u64>,
}

/// One row of `robots_content_signal_values.sql`: a signal, its value (none when the pair has
/// no `=`) and the hosts giving it.
#[derive(Debug, Clone)]
pub(super) struct SignalValue {
    pub signal: String,
    pub value: Option<String>,
    pub hosts: u64,
}

impl Extensions {
    /// The extensions' figures from `summary_robots_hosts`, `summary_robots_keys` and
    /// `summary_content_signals`, as the bundled queries read them.
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<Extensions> {
        let mut parsed_hosts = 0;
        let (mut hosts_2xx, mut wildcard_with_ai, mut wildcard_split) = (0, Some(0), Some(0));
        let cols = [
            "fetch_outcome",
            "revisited_fetch_outcome",
            "effective_fetch_outcome",
            "hosts",
            "hosts_wildcard_split",
            "hosts_wildcard_with_ai",
        ];
        t.each(Table::SummaryRobotsHosts, crawl, &cols, &[], |b| {
            let (outcome, hosts) = (b.strings("fetch_outcome")?, b.i64s("hosts")?);
            let revisited = b.strings("revisited_fetch_outcome")?;
            let effective = b.strings("effective_fetch_outcome")?;
            // Parts of an earlier schema lack the accidental-block counts: that figure is
            // left out, not the rest of the crawl's section.
            let (split, ai) = match (
                b.i64s("hosts_wildcard_split"),
                b.i64s("hosts_wildcard_with_ai"),
            ) {
                // NULL: derived from robots_files parts of an earlier schema.
                (Ok(s), Ok(a)) if s.null_count() == 0 && a.null_count() == 0 => (Some(s), Some(a)),
                _ => {
                    (wildcard_split, wildcard_with_ai) = (None, None);
                    (None, None)
                }
            };
            let n = |a: &arrow_array::Int64Array, i: usize| a.value(i).max(0) as u64;
            for i in 0..b.len() {
                // The host's file: its latest capture, read through a revisit.
                let file = text(revisited, i).or(text(outcome, i));
                if file.is_some_and(FetchOutcome::is_2xx_name) {
                    parsed_hosts += n(hosts, i);
                }
                // The capture that governs it, for the accidental blocks.
                if text(effective, i).is_some_and(FetchOutcome::is_2xx_name) {
                    hosts_2xx += n(hosts, i);
                    if let (Some(s), Some(w)) = (split, wildcard_split.as_mut()) {
                        *w += n(s, i);
                    }
                    if let (Some(a), Some(w)) = (ai, wildcard_with_ai.as_mut()) {
                        *w += n(a, i);
                    }
                }
            }
            Ok(())
        })?;
        let mut rows: Vec<Extension> = Vec::new();
        let cols = ["key", "lines", "hosts"];
        t.each(Table::SummaryRobotsKeys, crawl, &cols, &[], |b| {
            let (key, lines, hosts) = (b.strings("key")?, b.i64s("lines")?, b.i64s("hosts")?);
            for i in 0..b.len() {
                let k = text(key, i).unwrap_or_default();
                if (k == "purpose" || EXTENSION_KEYS.contains(&k)) && hosts.value(i) > 0 {
                    rows.push(Extension {
                        extension: k.to_string(),
                        hosts: hosts.value(i) as u64,
                        lines: lines.value(i).max(0) as u64,
                    });
                }
            }
            Ok(())
        })?;
        rows.sort_by(|a, b| {
            b.hosts
                .cmp(&a.hosts)
                .then_with(|| a.extension.cmp(&b.extension))
        });
        if parsed_hosts == 0 {
            rows.clear();
        }
        let mut content_signals = Vec::new();
        let cols = ["key", "signal", "value", "hosts"];
        t.each(Table::SummaryContentSignals, crawl, &cols, &[], |b| {
            let (key, signal, value) =
                (b.strings("key")?, b.strings("signal")?, b.strings("value")?);
            let hosts = b.i64s("hosts")?;
            for i in 0..b.len() {
                if text(key, i) == Some("content_signal") && hosts.value(i) > 0 {
                    content_signals.push(SignalValue {
                        signal: text(signal, i).unwrap_or_default().to_string(),
                        value: text(value, i).map(str::to_string),
                        hosts: hosts.value(i) as u64,
                    });
                }
            }
            Ok(())
        })?;
        // Most hosts first, then by signal and value (a pair without `=` last among equals).
        content_signals.sort_by(|a, b| {
            (b.hosts.cmp(&a.hosts))
                .then_with(|| a.signal.cmp(&b.signal))
                .then_with(|| match (&a.value, &b.value) {
                    (Some(x), Some(y)) => x.cmp(y),
                    (x, y) => x.is_none().cmp(&y.is_none()),
                })
        });
        Ok(Extensions {
            parsed_hosts,
            rows,
            content_signals,
            hosts_2xx,
            wildcard_with_ai,
            wildcard_split,
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
    /// Distinct hosts with any response (the denominator of `llms_txt_adoption.sql`).
    pub all_hosts: u64,
}

impl PageSignals {
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<PageSignals> {
        let mut p = PageSignals::default();
        // Every host with a response, and whether it has a 2xx HTML page: one entry a host
        // for both counts (two sets cost the report 10 MB more at ten times the benchmark).
        let mut hosts: HashMap<String, bool> = HashMap::default();
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
        t.each(Table::HostCounts, crawl, &cols, &[], |b| {
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
                let page = text(class, i) == Some("2xx") && flag(html, i);
                if let Some(h) = text(host, i) {
                    match hosts.get_mut(h) {
                        Some(seen) => *seen |= page,
                        None => {
                            hosts.insert(h.to_string(), page);
                        }
                    }
                }
                if !page {
                    continue;
                }
                p.html_pages += v(responses, i);
                p.with_meta += v(meta, i);
                p.with_header += v(header, i);
                p.with_any += v(meta, i) + v(header, i) - v(both, i);
                p.with_tdm += v(tdm, i);
            }
            Ok(())
        })?;
        p.hosts = hosts.values().filter(|&&page| page).count() as u64;
        p.all_hosts = hosts.keys().filter(|h| !h.is_empty()).count() as u64;
        Ok(p)
    }
}

/// The first agents of a ranking, most first: tied agents (the same count) share a rank (1, 2,
/// 2, 4) and come by name, and a list cut inside a tie says how many more tie with its last.
pub(super) struct Top<'a> {
    /// Each agent shown, with its rank.
    pub rows: Vec<(usize, &'a AgentShare)>,
    /// Agents left out that tie with the last one shown.
    pub more_tied: usize,
}

impl<'a> Top<'a> {
    fn of(mut all: Vec<&'a AgentShare>, n: usize, key: impl Fn(&AgentShare) -> u64) -> Self {
        all.sort_by(|a, b| key(b).cmp(&key(a)).then_with(|| a.agent.cmp(&b.agent)));
        let mut rows: Vec<(usize, &AgentShare)> = Vec::with_capacity(n.min(all.len()));
        for (k, s) in all.iter().enumerate().take(n) {
            let rank = match rows.last() {
                Some(&(r, last)) if key(last) == key(s) => r,
                _ => k + 1,
            };
            rows.push((rank, s));
        }
        let more_tied = match rows.last() {
            Some(&(_, last)) => (all[rows.len()..].iter())
                .take_while(|s| key(s) == key(last))
                .count(),
            None => 0,
        };
        Top { rows, more_tied }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The agents shown, in order.
    pub(super) fn agents(&self) -> impl Iterator<Item = &'a AgentShare> + '_ {
        self.rows.iter().map(|r| r.1)
    }

    /// The sentence a caption ends with when the list stops inside a tie (`counted`: what the
    /// tied agents have, in words).
    pub(super) fn cut_words(&self, counted: impl Fn(&AgentShare) -> String) -> String {
        match (self.more_tied, self.rows.last()) {
            (0, _) | (_, None) => String::new(),
            (n, Some(&(_, last))) => format!(
                " The list stops inside a tie: {n} more AI agent{} also {} (the query lists \
                 all).",
                if n == 1 { "" } else { "s" },
                counted(last)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(name: &str, full_block: u64, by_own_group: u64) -> AgentShare {
        AgentShare {
            agent: name.into(),
            full_block,
            by_own_group,
            ..AgentShare::default()
        }
    }

    fn top(all: &[AgentShare], n: usize) -> (Vec<(usize, &str)>, usize) {
        let t = Top::of(all.iter().collect(), n, |s| s.full_block);
        let rows = t.rows.iter().map(|&(r, s)| (r, s.agent.as_str())).collect();
        (rows, t.more_tied)
    }

    #[test]
    fn tied_agents_share_a_rank_come_by_name_and_a_cut_inside_a_tie_is_counted() {
        let all = [
            agent("d", 1, 1),
            agent("b", 5, 1),
            agent("c", 1, 1),
            agent("a", 5, 5),
            agent("e", 1, 1),
            agent("f", 1, 0),
        ];
        // By the count alone, then by name: a and b tie at 5 whatever their blocks by name.
        assert_eq!(
            top(&all, 4),
            (vec![(1, "a"), (1, "b"), (3, "c"), (3, "d")], 2)
        );
        assert_eq!(
            top(&all, 6),
            (
                vec![(1, "a"), (1, "b"), (3, "c"), (3, "d"), (3, "e"), (3, "f")],
                0
            )
        );
        assert_eq!(top(&all, 0), (vec![], 0));
        let t = Top::of(all.iter().collect(), 3, |s| s.full_block);
        assert_eq!(
            t.cut_words(|s| format!("at {}", crate::report::html::hosts_words(s.full_block))),
            " The list stops inside a tie: 3 more AI agents also at 1 host (the query lists all)."
        );
    }
}

//! `summary_agent_changes`: how the blocking of each tracked agent changed from one crawl to
//! the next of its collection (crawls ordered by their earliest robots.txt capture; names that
//! differ only in their digits, `archive::source::input::crawl_collection`), among the hosts captured
//! in both, so that `agents_blocking_change.sql` reads a row per agent instead of joining two
//! crawls' hosts.
//!
//! Each host's verdicts are its `robots_hosts.block_set` (the agents its governing capture
//! fully blocks, an id of the crawl's `summary_block_sets`): two crawls' hosts are matched by
//! name and tallied by (set before, set after), and each pair of sets is spread over its agents
//! once at the end. The hosts of the earlier crawl are held in memory by name, in as many
//! rounds of a hash of the name as `--memory` needs (each round reads both crawls' hosts again).

use super::partitions::Budget;
use super::read::read_beside;
use crate::agents::Registry;
use crate::archive::source::input::crawl_collection;
use crate::parts::{OutDir, PartRef};
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::{SummaryAgentChangeRow, SummaryAgentChangesBuilder, Table};
use anyhow::{bail, Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, TimestampMicrosecondType};
use arrow_array::Array;
use rustc_hash::{FxHashMap, FxHasher};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

/// What deriving a crawl's changes did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlChange {
    pub crawl: String,
    pub from_crawl: String,
    /// Hosts compared (a 2xx governing capture in both crawls).
    pub hosts_both: u64,
    /// Rounds the earlier crawl's hosts were read in (`--memory`).
    pub rounds: u32,
}

/// Bytes a host of the earlier crawl takes while it is held, as planned for: its name (a
/// 16-byte pointer and the name on the heap, about 40 bytes with the allocator's share), its
/// flags and set (8 bytes), the hash table's control byte and room.
const BYTES_PER_HOST: u64 = 80;

/// A crawl's sets of blocked agents by id (`summary_block_sets`), as registry positions.
type Sets = FxHashMap<i64, Vec<u16>>;

/// The sets of the earlier crawl's hosts, numbered as they are met.
#[derive(Default)]
struct Interned {
    ids: Vec<Option<i64>>,
    index: FxHashMap<Option<i64>, u32>,
}

impl Interned {
    fn id(&mut self, set: Option<i64>) -> u32 {
        let next = self.ids.len() as u32;
        *self.index.entry(set).or_insert_with(|| {
            self.ids.push(set);
            next
        })
    }
}

/// A host's state in one crawl: flags and its set of fully blocked agents.
#[derive(Clone, Copy, Default)]
struct State {
    flags: u8,
    set: Option<i64>,
}

const IS_2XX: u8 = 1;
const RESOLVED: u8 = 2;
const UNRESOLVED: u8 = 4;
const IS_5XX: u8 = 8;

/// The changes of every crawl whose crawl before is not the one its part was derived from, or
/// when either was derived in this run (`derived`): a part is derived anew, or removed for the
/// first crawl. Errors are output errors; a crawl whose changes could not be derived is added
/// to `failed`, with why.
pub fn derive(
    out: &OutDir,
    derived: &BTreeSet<String>,
    registry: &Registry,
    budget: &Budget,
    failed: &mut Vec<(String, String)>,
) -> Result<Vec<CrawlChange>> {
    let order = crawl_order(out)?;
    let hosts_parts = by_crawl(out, Table::RobotsHosts)?;
    let sets_parts = by_crawl(out, Table::SummaryBlockSets)?;
    let mut done = Vec::new();
    let table = Table::SummaryAgentChanges;
    for (k, crawl) in order.iter().enumerate() {
        // The crawl before it of its own collection (names that differ only in their digits):
        // two crawls of different kinds, or the inputs that named none, are not compared.
        let collection = crawl_collection(crawl);
        let from = (order[..k].iter().rev())
            .find(|c| collection.is_some() && crawl_collection(c) == collection);
        let Some(from) = from else {
            out.remove_parts(table.name(), crawl)?;
            continue;
        };
        // A part comparing the right two crawls, neither derived again, is kept.
        let changed = derived.contains(crawl) || derived.contains(from);
        if !changed && from_crawl_of(out, crawl)?.as_deref() == Some(from.as_str()) {
            continue;
        }
        let pair = Pair {
            from,
            crawl,
            from_hosts: hosts_parts.get(from).map_or(&[][..], Vec::as_slice),
            hosts: hosts_parts.get(crawl).map_or(&[][..], Vec::as_slice),
            from_sets: sets_parts.get(from).map_or(&[][..], Vec::as_slice),
            sets: sets_parts.get(crawl).map_or(&[][..], Vec::as_slice),
        };
        if pair.sets.is_empty() {
            // No verdicts in this crawl: no agent to count (as the summaries have none).
            out.remove_parts(table.name(), crawl)?;
            continue;
        }
        match pair.derive(out, registry, budget) {
            Ok((builder, change)) => {
                let (part, _) = super::read::summary_part(out, crawl, builder)?;
                out.commit(vec![part])?;
                done.push(change);
            }
            Err(e) => {
                out.remove_parts(table.name(), crawl)?;
                failed.push((crawl.clone(), format!("summary_agent_changes: {e:#}")));
            }
        }
    }
    Ok(done)
}

/// The crawls with `robots_hosts`, by their earliest robots.txt capture
/// (`summary_robots_outcomes.first_capture`; crawls without one last), then by name.
fn crawl_order(out: &OutDir) -> Result<Vec<String>> {
    let mut first: BTreeMap<String, Option<i64>> = BTreeMap::new();
    for (crawl, _) in out.table_parts(Table::RobotsHosts.name())? {
        first.insert(crawl, None);
    }
    for (crawl, part) in out.table_parts(Table::SummaryRobotsOutcomes.name())? {
        let Some(earliest) = first.get_mut(&crawl) else {
            continue;
        };
        out.each_batch(&part, &["first_capture"], &[], |batch| {
            let col = batch.column_by_name("first_capture");
            let times = col.and_then(|c| c.as_primitive_opt::<TimestampMicrosecondType>());
            for t in times.into_iter().flat_map(|t| t.iter()).flatten() {
                *earliest = Some(earliest.map_or(t, |e| e.min(t)));
            }
            Ok(())
        })?;
    }
    let mut order: Vec<(Option<i64>, String)> = first.into_iter().map(|(c, t)| (t, c)).collect();
    // Crawls with no capture time last: `None` sorts first, so compare on (is none, time).
    order.sort_by(|a, b| (a.0.is_none(), a.0, &a.1).cmp(&(b.0.is_none(), b.0, &b.1)));
    Ok(order.into_iter().map(|(_, c)| c).collect())
}

/// The parts of `table` by crawl.
fn by_crawl(out: &OutDir, table: Table) -> Result<BTreeMap<String, Vec<PartRef>>> {
    let mut parts: BTreeMap<String, Vec<PartRef>> = BTreeMap::new();
    for (crawl, part) in out.table_parts(table.name())? {
        parts.entry(crawl).or_default().push(part);
    }
    Ok(parts)
}

/// The `from_crawl` the crawl's changes part compares with, if it has one.
fn from_crawl_of(out: &OutDir, crawl: &str) -> Result<Option<String>> {
    let mut from = None;
    for (_, part) in out.find_parts(Table::SummaryAgentChanges.name(), crawl) {
        out.each_batch(&part, &["from_crawl"], &[], |batch| {
            let col = batch
                .column_by_name("from_crawl")
                .and_then(|c| c.as_string_opt::<i32>());
            if let Some(c) = col.filter(|c| !c.is_empty() && c.is_valid(0)) {
                from = Some(c.value(0).to_string());
            }
            Ok(())
        })?;
    }
    Ok(from)
}

/// Two consecutive crawls' parts.
struct Pair<'a> {
    from: &'a str,
    crawl: &'a str,
    from_hosts: &'a [PartRef],
    hosts: &'a [PartRef],
    from_sets: &'a [PartRef],
    sets: &'a [PartRef],
}

/// Hosts counted of a pair of crawls.
#[derive(Default)]
struct Tally {
    both: i64,
    resolved: i64,
    unresolved: i64,
    server_error: i64,
    /// Hosts compared, by (set before, set after).
    by_sets: FxHashMap<(Option<i64>, Option<i64>), i64>,
}

impl Pair<'_> {
    fn derive(
        &self,
        out: &OutDir,
        registry: &Registry,
        budget: &Budget,
    ) -> Result<(SummaryAgentChangesBuilder, CrawlChange)> {
        let (before, after) = (
            read_sets(out, self.from_sets, registry)?,
            read_sets(out, self.sets, registry)?,
        );
        let hosts: u64 = self
            .from_hosts
            .iter()
            .filter_map(|p| out.part_rows(p))
            .sum();
        // Half the budget for the hosts held: the rest is the process's and the parts read.
        let rounds = hosts
            .saturating_mul(BYTES_PER_HOST)
            .div_ceil((budget.memory / 2).max(1))
            .clamp(1, u64::from(u32::MAX)) as u32;
        let mut tally = Tally::default();
        // The earlier crawl's sets, numbered: a host held keeps 4 bytes for its set, not 16.
        let mut sets = Interned::default();
        for round in 0..rounds {
            let room = (hosts / u64::from(rounds)) as usize;
            let mut held: FxHashMap<Box<str>, (u8, u32)> =
                FxHashMap::with_capacity_and_hasher(room + room / 16, Default::default());
            read_hosts(out, self.from_hosts, round, rounds, |host, was| {
                held.insert(host.into(), (was.flags, sets.id(was.set)));
            })?;
            read_hosts(out, self.hosts, round, rounds, |host, now| {
                if let Some(&(flags, set)) = held.get(host) {
                    let set = sets.ids[set as usize];
                    tally.add(State { flags, set }, now);
                }
            })?;
        }
        let change = CrawlChange {
            crawl: self.crawl.to_string(),
            from_crawl: self.from.to_string(),
            hosts_both: tally.both as u64,
            rounds,
        };
        Ok((tally.rows(self.from, registry, &before, &after), change))
    }
}

impl Tally {
    fn add(&mut self, was: State, now: State) {
        let either = was.flags | now.flags;
        self.unresolved += i64::from(either & UNRESOLVED != 0);
        self.server_error += i64::from(either & IS_5XX != 0);
        if was.flags & now.flags & IS_2XX != 0 {
            self.both += 1;
            self.resolved += i64::from(either & RESOLVED != 0);
            *self.by_sets.entry((was.set, now.set)).or_default() += 1;
        }
    }

    /// A row per agent of the registry, in its order.
    fn rows(
        &self,
        from: &str,
        registry: &Registry,
        before: &Sets,
        after: &Sets,
    ) -> SummaryAgentChangesBuilder {
        let n = registry.agents.len();
        let (mut was, mut now, mut kept) = (vec![0i64; n], vec![0i64; n], vec![0i64; n]);
        let agents = |sets: &Sets, s: Option<i64>| -> Vec<u16> {
            s.and_then(|s| sets.get(&s)).cloned().unwrap_or_default()
        };
        for (&(b, a), &hosts) in &self.by_sets {
            let (b, a) = (agents(before, b), agents(after, a));
            for &x in &b {
                was[usize::from(x)] += hosts;
            }
            for &x in &a {
                now[usize::from(x)] += hosts;
            }
            // Both sets are ascending: their common agents in one pass.
            let (mut i, mut j) = (0, 0);
            while i < b.len() && j < a.len() {
                match b[i].cmp(&a[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        kept[usize::from(b[i])] += hosts;
                        (i, j) = (i + 1, j + 1);
                    }
                }
            }
        }
        let mut builder = SummaryAgentChangesBuilder::default();
        for (k, agent) in registry.agents.iter().enumerate() {
            builder.append(&SummaryAgentChangeRow {
                from_crawl: Some(from),
                agent: Some(&agent.name),
                agent_index: Some(k as i32),
                agent_category: Some(&agent.category),
                operator: Some(&agent.operator),
                hosts_both: Some(self.both),
                blocking_before: Some(was[k]),
                blocking_after: Some(now[k]),
                newly_blocking: Some(now[k] - kept[k]),
                unblocking: Some(was[k] - kept[k]),
                hosts_resolved: Some(self.resolved),
                hosts_unresolved: Some(self.unresolved),
                hosts_5xx: Some(self.server_error),
            });
        }
        builder
    }
}

/// A crawl's `summary_block_sets`: per set id, its agents as positions of `registry` (by
/// name, so that crawls scanned with registries of other orders compare; an agent the registry
/// does not have is left out), ascending.
fn read_sets(out: &OutDir, parts: &[PartRef], registry: &Registry) -> Result<Sets> {
    let place: FxHashMap<&str, u16> = (registry.agents.iter().enumerate())
        .map(|(k, a)| (a.name.as_str(), k as u16))
        .collect();
    let mut sets = Sets::default();
    read_beside(out, parts, &["block_set", "agents"], &[], |part, batch| {
        let missing = |c: &str| super::tally::missing(part, c);
        let ids = (batch.column_by_name("block_set"))
            .and_then(|c| c.as_primitive_opt::<Int64Type>())
            .with_context(|| missing("block_set"))?;
        let lists = (batch.column_by_name("agents"))
            .and_then(|c| c.as_list_opt::<i32>())
            .with_context(|| missing("agents"))?;
        for i in 0..batch.num_rows() {
            let names = lists.value(i);
            let names = names
                .as_string_opt::<i32>()
                .with_context(|| missing("agents"))?;
            let mut agents: Vec<u16> = (names.iter().flatten())
                .filter_map(|n| place.get(n).copied())
                .collect();
            agents.sort_unstable();
            sets.insert(ids.value(i), agents);
        }
        Ok(())
    })?;
    Ok(sets)
}

/// Hand `use_host` each host of the crawl's `robots_hosts` parts whose name falls in `round`
/// of `rounds`, with its state.
fn read_hosts(
    out: &OutDir,
    parts: &[PartRef],
    round: u32,
    rounds: u32,
    mut use_host: impl FnMut(&str, State),
) -> Result<()> {
    const COLUMNS: [&str; 5] = [
        "host",
        "effective_fetch_outcome",
        "resolution",
        "block_set",
        "counts_for_host",
    ];
    read_beside(out, parts, &COLUMNS, &[], |part, batch| {
        let missing = |c: &str| super::tally::missing(part, c);
        let text = |c: &str| {
            (batch.column_by_name(c))
                .and_then(|a| a.as_string_opt::<i32>())
                .with_context(|| missing(c))
        };
        let (host, outcome, resolution) = (
            text("host")?,
            text("effective_fetch_outcome")?,
            text("resolution")?,
        );
        let Some(set) =
            (batch.column_by_name("block_set")).and_then(|c| c.as_primitive_opt::<Int64Type>())
        else {
            bail!(
                "{}: no column block_set (derived by an earlier version: run `repcensus hosts` \
                 on the output folder)",
                part.name()
            );
        };
        // A host's row (schema 19: a row per site; before, every row is a host's).
        let for_host = (batch.column_by_name("counts_for_host")).and_then(|c| c.as_boolean_opt());
        for i in 0..batch.num_rows() {
            let counts = for_host.is_none_or(|c| !c.is_valid(i) || c.value(i));
            if !host.is_valid(i) || !counts {
                continue;
            }
            let name = host.value(i);
            if rounds > 1 && round_of(name, rounds) != round {
                continue;
            }
            let outcome = outcome.is_valid(i).then(|| outcome.value(i));
            let resolution = resolution.is_valid(i).then(|| resolution.value(i));
            let flags = state_flags(outcome, resolution);
            let set = set.is_valid(i).then(|| set.value(i));
            use_host(name, State { flags, set });
        }
        Ok(())
    })
}

/// The round of `rounds` a host's name falls in.
fn round_of(host: &str, rounds: u32) -> u32 {
    let mut h = FxHasher::default();
    host.hash(&mut h);
    (h.finish() % u64::from(rounds)) as u32
}

/// A host's flags from its governing capture's fetch outcome and its resolution.
fn state_flags(outcome: Option<&str>, resolution: Option<&str>) -> u8 {
    let is_2xx = outcome.is_some_and(FetchOutcome::is_2xx_name);
    let mut flags = if is_2xx { IS_2XX } else { 0 };
    if outcome == Some("server_error") {
        flags |= IS_5XX;
    }
    match resolution {
        Some("resolved") => flags |= RESOLVED,
        Some("direct") => {}
        _ => flags |= UNRESOLVED,
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(flags: u8, set: Option<i64>) -> State {
        State { flags, set }
    }

    #[test]
    fn only_hosts_2xx_in_both_are_compared_and_the_left_out_are_counted() {
        let mut t = Tally::default();
        t.add(state(IS_2XX, Some(0)), state(IS_2XX | RESOLVED, Some(1)));
        t.add(state(IS_2XX, Some(0)), state(IS_5XX, None));
        t.add(state(UNRESOLVED, None), state(IS_2XX, Some(1)));
        assert_eq!(
            (t.both, t.resolved, t.unresolved, t.server_error),
            (1, 1, 1, 1)
        );
    }

    #[test]
    fn kept_new_and_dropped_agents_come_from_the_two_sets() {
        let registry = Registry::builtin();
        let mut t = Tally::default();
        // Agents 0 and 2 blocked before; 2 and 3 after: 2 kept, 3 new, 0 dropped.
        for _ in 0..2 {
            t.add(state(IS_2XX, Some(0)), state(IS_2XX, Some(1)));
        }
        let before: Sets = [(0, vec![0, 2])].into_iter().collect();
        let after: Sets = [(0, vec![]), (1, vec![2, 3])].into_iter().collect();
        let rows = t.rows("a", &registry, &before, &after);
        let batch = {
            let mut rows = rows;
            rows.finish("b")
        };
        let col = |c: &str| -> Vec<i64> {
            let a = batch.column_by_name(c).unwrap();
            let a = a.as_primitive::<arrow_array::types::Int64Type>();
            a.values()[..4].to_vec()
        };
        assert_eq!(col("blocking_before"), [2, 0, 2, 0]);
        assert_eq!(col("blocking_after"), [0, 0, 2, 2]);
        assert_eq!(col("newly_blocking"), [0, 0, 0, 2]);
        assert_eq!(col("unblocking"), [2, 0, 0, 0]);
        assert_eq!(col("hosts_both")[0], 2);
    }

    #[test]
    fn a_host_name_falls_in_one_round() {
        for host in ["example.com", "a.b.example.org", ""] {
            let r = round_of(host, 7);
            assert!(r < 7);
            assert_eq!(round_of(host, 7), r);
            assert_eq!(round_of(host, 1), 0);
        }
    }
}

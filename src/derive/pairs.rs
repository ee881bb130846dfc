//! `summary_agent_pairs` and `summary_agent_domains`: the two agent summaries that need more
//! than one verdict per host, computed, as `summary_agent_groups` is, once per profile (the
//! governing capture's runs) rather than per host.
//!
//! * Pairs: does a site that fully blocks an AI training crawler let another crawler of the
//!   same operator in (GPTBot and OAI-SearchBot, Google-Extended and Googlebot), or the search
//!   engines (CCBot and Googlebot)? Every `ai_training` agent is paired with each agent of its
//!   operator in another category and with `Googlebot` and `bingbot`.
//! * Domains: a registered domain of several hosts counts once per agent, by whether all or
//!   some of its hosts with a 2xx robots.txt fully block the agent.

use super::classes::{Classes, Run};
use super::redirects::Resolution;
use crate::agents::Registry;
use crate::parts::runs::Names;
use crate::tables::{
    SummaryAgentDomainRow, SummaryAgentDomainsBuilder, SummaryAgentPairRow,
    SummaryAgentPairsBuilder,
};
use rustc_hash::FxHashMap;

/// The search engines every AI training crawler is paired with.
const SEARCH_ENGINES: [&str; 2] = ["Googlebot", "bingbot"];

/// The pairs of a registry: (training agent, other agent), by registry position.
pub fn pairs_of(registry: &Registry) -> Vec<(u16, u16)> {
    let agents = &registry.agents;
    let position = |name: &str| agents.iter().position(|a| a.name == name);
    let engines: Vec<usize> = SEARCH_ENGINES.iter().filter_map(|n| position(n)).collect();
    let mut pairs = Vec::new();
    for (t, a) in agents.iter().enumerate() {
        if a.category != "ai_training" {
            continue;
        }
        let mut others: Vec<usize> = (agents.iter().enumerate())
            .filter(|(_, b)| b.operator == a.operator && b.category != "ai_training")
            .map(|(o, _)| o)
            .chain(engines.iter().copied())
            .collect();
        others.sort_unstable();
        others.dedup();
        pairs.extend(others.into_iter().map(|o| (t as u16, o as u16)));
    }
    pairs
}

/// The class of agent `agent` in a profile's runs (sorted by first agent, covering every agent).
fn class_of(runs: &[Run], agent: u16) -> u32 {
    let k = runs.partition_point(|r| r.0 <= agent) - 1;
    runs[k].2
}

/// Hosts tallied by (profile, governing capture's fetch outcome, resolution).
pub type ProfileTally = FxHashMap<(u32, Option<u32>, Resolution), i64>;

/// The rows of `summary_agent_pairs`.
///
/// A profile's tally is added for every pair, so the work is (tallied profiles × pairs): each
/// addition is an index into a dense table by (pair, outcome and resolution, the first agent's
/// verdict, the other's verdict and `root_allowed`), whose few values are numbered first.
pub fn pair_rows(
    registry: &Registry,
    profiles: &[Vec<Run>],
    classes: &Classes,
    tally: &ProfileTally,
    outcomes: &Names,
) -> SummaryAgentPairsBuilder {
    let pairs = pairs_of(registry);
    // The agents of some pair, in registry order, and each pair's places among them.
    let mut involved: Vec<u16> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    involved.sort_unstable();
    involved.dedup();
    let place = |agent: u16| involved.binary_search(&agent).unwrap_or_default();
    let places: Vec<(usize, usize)> = pairs.iter().map(|&(a, b)| (place(a), place(b))).collect();
    // The values written, numbered: verdicts, (verdict, root_allowed), (outcome, resolution).
    let mut firsts = Numbered::default();
    let mut others = Numbered::default();
    let (mut first_code, mut other_code) = (Vec::new(), Vec::new());
    for class in 0..classes.len() as u32 {
        let c = classes.get(class);
        first_code.push(firsts.id(c.verdict));
        other_code.push(others.id((c.verdict, c.root_allowed)));
    }
    let mut combo_of: FxHashMap<(Option<u32>, Resolution), usize> = FxHashMap::default();
    for &(_, outcome, resolution) in tally.keys() {
        let n = combo_of.len();
        combo_of.entry((outcome, resolution)).or_insert(n);
    }
    let (nf, no) = (firsts.len(), others.len());
    let stride = pairs.len() * nf * no;
    let mut counts = vec![0i64; combo_of.len() * stride];
    // Many profiles differ only in agents of no pair: each is reduced to the codes of its
    // involved agents, as runs (first involved place, codes), and the hosts of equal
    // reductions are added up before the pairs are walked.
    let first_place: Vec<usize> = (0..=registry.agents.len())
        .map(|agent| involved.partition_point(|&a| usize::from(a) < agent))
        .collect();
    let mut reduction_ids: FxHashMap<Vec<(u16, u16, u16)>, u32> = FxHashMap::default();
    let mut reduction_runs: Vec<Vec<(u16, u16, u16)>> = Vec::new();
    let mut reduction_of: Vec<Option<u32>> = vec![None; profiles.len()];
    let mut by_reduction: FxHashMap<(u32, usize), i64> = FxHashMap::default();
    let mut reduced = Vec::new();
    for (&(p, outcome, resolution), &hosts) in tally {
        let r = *reduction_of[p as usize].get_or_insert_with(|| {
            reduced.clear();
            for &(first, _, class) in &profiles[p as usize] {
                let place = first_place[usize::from(first)];
                let codes = (first_code[class as usize], other_code[class as usize]);
                let codes = (codes.0 as u16, codes.1 as u16);
                if place == involved.len() {
                    break;
                }
                // A run before that covers no involved agent is left out, and a run with the
                // codes of the one before continues it.
                if reduced
                    .last()
                    .is_some_and(|l: &(u16, u16, u16)| usize::from(l.0) == place)
                {
                    reduced.pop();
                }
                if reduced.last().is_some_and(|l| (l.1, l.2) == codes) {
                    continue;
                }
                reduced.push((place as u16, codes.0, codes.1));
            }
            if let Some(&r) = reduction_ids.get(&reduced) {
                return r;
            }
            let r = reduction_runs.len() as u32;
            reduction_runs.push(reduced.clone());
            reduction_ids.insert(reduced.clone(), r);
            r
        });
        *by_reduction
            .entry((r, combo_of[&(outcome, resolution)]))
            .or_default() += hosts;
    }
    let mut codes = vec![(0u16, 0u16); involved.len()];
    for (&(r, combo), &hosts) in &by_reduction {
        // Each involved agent's codes, from the reduction's runs.
        let runs = &reduction_runs[r as usize];
        for (k, &(place, f, o)) in runs.iter().enumerate() {
            let end = runs.get(k + 1).map_or(involved.len(), |n| usize::from(n.0));
            codes[usize::from(place)..end].fill((f, o));
        }
        // One combination's counts lie together, pair after pair, so that the additions of a
        // reduction touch a few KiB.
        let base = combo * stride;
        for (pair, &(a, b)) in places.iter().enumerate() {
            let (f, o) = (usize::from(codes[a].0), usize::from(codes[b].1));
            counts[base + (pair * nf + f) * no + o] += hosts;
        }
    }
    let mut rows = Vec::new();
    for (&(outcome, resolution), &combo) in &combo_of {
        for (pair, &(a, b)) in pairs.iter().enumerate() {
            for f in 0..nf {
                for o in 0..no {
                    let hosts = counts[combo * stride + (pair * nf + f) * no + o];
                    if hosts == 0 {
                        continue;
                    }
                    let text = |id: Option<u32>| classes.text(id);
                    let verdict = firsts.values[f];
                    let (other_verdict, root) = others.values[o];
                    rows.push((
                        (pair, a, b),
                        (outcome.map(|o| outcomes.get(o)), resolution),
                        (text(verdict), text(other_verdict), root),
                        hosts,
                    ));
                }
            }
        }
    }
    rows.sort_unstable();
    let mut builder = SummaryAgentPairsBuilder::default();
    for ((_, a, b), (outcome, resolution), (verdict, other_verdict, root), hosts) in &rows {
        builder.append(&SummaryAgentPairRow {
            agent: Some(&registry.agents[*a as usize].name),
            other_agent: Some(&registry.agents[*b as usize].name),
            fetch_outcome: *outcome,
            resolution: Some(resolution.as_str()),
            verdict: *verdict,
            other_verdict: *other_verdict,
            other_root_allowed: *root,
            hosts: Some(*hosts),
        });
    }
    builder
}

/// Values numbered in the order first seen.
struct Numbered<T> {
    values: Vec<T>,
    ids: FxHashMap<T, usize>,
}

impl<T> Default for Numbered<T> {
    fn default() -> Self {
        Numbered {
            values: Vec::new(),
            ids: FxHashMap::default(),
        }
    }
}

impl<T: Copy + Eq + std::hash::Hash> Numbered<T> {
    fn id(&mut self, v: T) -> usize {
        let values = &mut self.values;
        *self.ids.entry(v).or_insert_with(|| {
            values.push(v);
            values.len() - 1
        })
    }

    fn len(&self) -> usize {
        self.values.len()
    }
}

/// Registered domains counted by their profiles, for `summary_agent_domains`: those with one
/// profile per profile, the others per set of profiles. The counts of each partition of a
/// crawl's hosts add up, as a domain's hosts are all in one.
#[derive(Default)]
pub struct DomainTally {
    single: Vec<i64>,
    several: FxHashMap<Vec<u32>, i64>,
}

impl DomainTally {
    /// Count `domains`: the (domain, profile) pairs of hosts with a 2xx governing capture,
    /// sorted, without repeats.
    pub fn add(&mut self, domains: &[(u32, u32)]) {
        for d in domains.chunk_by(|a, b| a.0 == b.0) {
            match d {
                [(_, p)] => {
                    let p = *p as usize;
                    if self.single.len() <= p {
                        self.single.resize(p + 1, 0);
                    }
                    self.single[p] += 1;
                }
                _ => {
                    *self
                        .several
                        .entry(d.iter().map(|e| e.1).collect())
                        .or_default() += 1
                }
            }
        }
    }

    /// The rows of `summary_agent_domains`.
    ///
    /// Most domains have one profile: they are counted per profile and spread over its runs (an
    /// addition at each run's first agent and a subtraction after its last, summed along the
    /// agents at the end), so a profile costs its runs, not the registry's agents.
    pub fn rows(
        &self,
        registry: &Registry,
        profiles: &[Vec<Run>],
        classes: &Classes,
    ) -> SummaryAgentDomainsBuilder {
        let n = registry.agents.len();
        let blocks = |class: u32| classes.traits(class).strictness == 2;
        // Per agent (and one past the last): changes in domains by 0: no host blocks, 1: some
        // but not all, 2: all.
        let mut steps: Vec<[i64; 3]> = vec![[0; 3]; n + 1];
        for (p, &count) in self.single.iter().enumerate().filter(|(_, &c)| c > 0) {
            for &(first, len, class) in &profiles[p] {
                let i = if blocks(class) { 2 } else { 0 };
                steps[first as usize][i] += count;
                steps[(first + len) as usize][i] -= count;
            }
        }
        for (set, &count) in &self.several {
            for agent in 0..n as u16 {
                let mut blocking = set
                    .iter()
                    .map(|&p| blocks(class_of(&profiles[p as usize], agent)));
                let first = blocking.next().unwrap_or(false);
                let (mut all, mut some) = (first, first);
                for b in blocking {
                    all &= b;
                    some |= b;
                }
                let i = if all { 2 } else { usize::from(some) };
                steps[agent as usize][i] += count;
                steps[agent as usize + 1][i] -= count;
            }
        }
        let mut builder = SummaryAgentDomainsBuilder::default();
        let mut running = [0i64; 3];
        for (a, step) in registry.agents.iter().zip(&steps) {
            for (i, (r, s)) in running.iter_mut().zip(step).enumerate() {
                *r += s;
                if *r == 0 {
                    continue;
                }
                builder.append(&SummaryAgentDomainRow {
                    agent: Some(&a.name),
                    agent_category: Some(&a.category),
                    operator: Some(&a.operator),
                    all_hosts_block: Some(i == 2),
                    some_host_blocks: Some(i > 0),
                    domains: Some(*r),
                });
            }
        }
        builder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in registry pairs GPTBot with OAI-SearchBot and ChatGPT-User, Google-Extended
    /// with Googlebot, and CCBot with the two search engines, and never a training crawler
    /// with another.
    #[test]
    fn training_crawlers_pair_with_their_operators_others_and_the_search_engines() {
        let registry = Registry::builtin();
        let names: Vec<(&str, &str)> = pairs_of(&registry)
            .into_iter()
            .map(|(a, b)| {
                (
                    registry.agents[a as usize].name.as_str(),
                    registry.agents[b as usize].name.as_str(),
                )
            })
            .collect();
        for want in [
            ("GPTBot", "OAI-SearchBot"),
            ("GPTBot", "ChatGPT-User"),
            ("GPTBot", "Googlebot"),
            ("Google-Extended", "Googlebot"),
            ("CCBot", "Googlebot"),
            ("CCBot", "bingbot"),
            ("ClaudeBot", "Claude-SearchBot"),
            ("Applebot-Extended", "Applebot"),
        ] {
            assert!(names.contains(&want), "{want:?} not in {names:?}");
        }
        let category = |n: &str| {
            let a = registry.agents.iter().find(|a| a.name == n).unwrap();
            a.category.as_str()
        };
        for (a, b) in &names {
            assert_eq!(category(a), "ai_training");
            assert_ne!(category(b), "ai_training", "{a} {b}");
        }
    }
}

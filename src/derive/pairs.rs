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

/// The agents of some pair of a registry, in registry order, with each pair's places among
/// them and each registry position's first place at or after it.
struct Involved {
    pairs: Vec<(u16, u16)>,
    involved: Vec<u16>,
    places: Vec<(usize, usize)>,
    first_place: Vec<usize>,
}

impl Involved {
    fn of(registry: &Registry) -> Involved {
        let pairs = pairs_of(registry);
        let mut involved: Vec<u16> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        involved.sort_unstable();
        involved.dedup();
        let place = |agent: u16| involved.binary_search(&agent).unwrap_or_default();
        let places = pairs.iter().map(|&(a, b)| (place(a), place(b))).collect();
        let first_place = (0..=registry.agents.len())
            .map(|agent| involved.partition_point(|&a| usize::from(a) < agent))
            .collect();
        Involved {
            pairs,
            involved,
            places,
            first_place,
        }
    }
}

/// A row of `summary_agent_pairs` as numbers: (pair, outcome and resolution, first agent's
/// value, other's value).
type PairCell = (usize, (Option<u32>, Resolution), usize, usize);

/// Hosts counted for `summary_agent_pairs` by what the pairs see of their profiles: these add
/// up over the partitions of a crawl's hosts, whose profiles are each partition's own.
#[derive(Default)]
pub struct PairFold {
    /// The values written, numbered: verdicts, (verdict, root_allowed); and each class's codes.
    firsts: Numbered<Option<u32>>,
    others: Numbered<(Option<u32>, Option<bool>)>,
    first_code: Vec<u16>,
    other_code: Vec<u16>,
    /// Hosts by (pair, outcome and resolution, first agent's value, other's value).
    counts: FxHashMap<PairCell, i64>,
}

impl PairFold {
    /// Add hosts tallied by (profile, fetch outcome, resolution), `profiles` holding each
    /// profile's runs.
    ///
    /// Many profiles differ only in agents of no pair: each is reduced to the codes of its
    /// involved agents, as runs (first involved place, codes), and the hosts of equal
    /// reductions are added up before the pairs are walked.
    pub fn add(
        &mut self,
        registry: &Registry,
        profiles: &[Vec<Run>],
        classes: &Classes,
        tally: &ProfileTally,
    ) {
        let inv = Involved::of(registry);
        for class in self.first_code.len() as u32..classes.len() as u32 {
            let c = classes.get(class);
            self.first_code.push(self.firsts.id(c.verdict) as u16);
            self.other_code
                .push(self.others.id((c.verdict, c.root_allowed)) as u16);
        }
        let mut reduction_of: Vec<Option<u32>> = vec![None; profiles.len()];
        let mut reduction_ids: FxHashMap<Vec<(u16, u16, u16)>, u32> = FxHashMap::default();
        let mut reduction_runs: Vec<Vec<(u16, u16, u16)>> = Vec::new();
        let mut by_reduction: FxHashMap<(u32, (Option<u32>, Resolution)), i64> =
            FxHashMap::default();
        let mut reduced = Vec::new();
        for (&(p, outcome, resolution), &hosts) in tally {
            let r = *reduction_of[p as usize].get_or_insert_with(|| {
                reduced.clear();
                for &(first, _, class) in &profiles[p as usize] {
                    let place = inv.first_place[usize::from(first)];
                    let codes = (
                        self.first_code[class as usize],
                        self.other_code[class as usize],
                    );
                    if place == inv.involved.len() {
                        break;
                    }
                    // A run before that covers no involved agent is left out, and a run with
                    // the codes of the one before continues it.
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
            *by_reduction.entry((r, (outcome, resolution))).or_default() += hosts;
        }
        self.count(&inv, &reduction_runs, &by_reduction);
    }

    /// Add the hosts of each reduction to every pair's counts.
    ///
    /// A reduction's hosts are added for every pair, so the work is (reductions × pairs): each
    /// addition is an index into a dense table by (pair, outcome and resolution, the first
    /// agent's value, the other's), whose nonzero cells are then added to `counts`.
    fn count(
        &mut self,
        inv: &Involved,
        reduction_runs: &[Vec<(u16, u16, u16)>],
        by_reduction: &FxHashMap<(u32, (Option<u32>, Resolution)), i64>,
    ) {
        let mut combos: Vec<(Option<u32>, Resolution)> = Vec::new();
        let mut combo_of: FxHashMap<(Option<u32>, Resolution), usize> = FxHashMap::default();
        for &(_, combo) in by_reduction.keys() {
            combo_of.entry(combo).or_insert_with(|| {
                combos.push(combo);
                combos.len() - 1
            });
        }
        let (nf, no) = (self.firsts.len(), self.others.len());
        let stride = inv.pairs.len() * nf * no;
        let mut counts = vec![0i64; combos.len() * stride];
        let mut codes = vec![(0u16, 0u16); inv.involved.len()];
        for (&(r, combo), &hosts) in by_reduction {
            let combo = combo_of[&combo];
            // Each involved agent's codes, from the reduction's runs.
            let runs = &reduction_runs[r as usize];
            for (k, &(place, f, o)) in runs.iter().enumerate() {
                let end = runs
                    .get(k + 1)
                    .map_or(inv.involved.len(), |n| usize::from(n.0));
                codes[usize::from(place)..end].fill((f, o));
            }
            // One combination's counts lie together, pair after pair, so that the additions of
            // a reduction touch a few KiB.
            let base = combo * stride;
            for (pair, &(a, b)) in inv.places.iter().enumerate() {
                let (f, o) = (usize::from(codes[a].0), usize::from(codes[b].1));
                counts[base + (pair * nf + f) * no + o] += hosts;
            }
        }
        for (k, &hosts) in counts.iter().enumerate().filter(|(_, &h)| h != 0) {
            let (combo, rest) = (combos[k / stride], k % stride);
            let (pair, f, o) = (rest / (nf * no), (rest / no) % nf, rest % no);
            *self.counts.entry((pair, combo, f, o)).or_default() += hosts;
        }
    }
}

/// The rows of `summary_agent_pairs` of the hosts folded.
pub fn pair_rows(
    fold: &PairFold,
    registry: &Registry,
    classes: &Classes,
    outcomes: &Names,
) -> SummaryAgentPairsBuilder {
    let pairs = pairs_of(registry);
    let text = |id: Option<u32>| classes.text(id);
    let mut rows = Vec::new();
    for (&(pair, (outcome, resolution), f, o), &hosts) in &fold.counts {
        let (a, b) = pairs[pair];
        let verdict = fold.firsts.values[f];
        let (other_verdict, root) = fold.others.values[o];
        rows.push((
            (pair, a, b),
            (outcome.map(|o| outcomes.get(o)), resolution),
            (text(verdict), text(other_verdict), root),
            hosts,
        ));
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

/// Registered domains counted for `summary_agent_domains`, per agent, as steps along the
/// registry. The counts of each partition of a crawl's hosts add up, as a domain's hosts are
/// all in one; a partition's profiles are spread into them before the next partition's are
/// made, so the profiles of one partition at a time are held.
#[derive(Default)]
pub struct DomainTally {
    /// Per agent (and one past the last): changes in domains by 0: no host blocks, 1: some but
    /// not all, 2: all.
    steps: Vec<[i64; 3]>,
}

impl DomainTally {
    /// Count `domains`: the (domain, profile) pairs of hosts with a 2xx governing capture,
    /// sorted, without repeats, the profiles those of `profiles`.
    ///
    /// Most domains have one profile: they are counted per profile and spread over its runs (an
    /// addition at each run's first agent and a subtraction after its last, summed along the
    /// agents at the end), so a profile costs its runs, not the registry's agents.
    pub fn add(
        &mut self,
        domains: &[(u32, u32)],
        agents: usize,
        profiles: &[Vec<Run>],
        classes: &Classes,
    ) {
        let mut single: FxHashMap<u32, i64> = FxHashMap::default();
        let mut several: FxHashMap<Vec<u32>, i64> = FxHashMap::default();
        for d in domains.chunk_by(|a, b| a.0 == b.0) {
            match d {
                [(_, p)] => *single.entry(*p).or_default() += 1,
                _ => *several.entry(d.iter().map(|e| e.1).collect()).or_default() += 1,
            }
        }
        if self.steps.len() < agents + 1 {
            self.steps.resize(agents + 1, [0; 3]);
        }
        let steps = &mut self.steps;
        let blocks = |class: u32| classes.traits(class).strictness == 2;
        for (&p, &count) in &single {
            for &(first, len, class) in &profiles[p as usize] {
                let i = if blocks(class) { 2 } else { 0 };
                steps[first as usize][i] += count;
                steps[(first + len) as usize][i] -= count;
            }
        }
        for (set, &count) in &several {
            for agent in 0..agents as u16 {
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
    }

    /// The rows of `summary_agent_domains`.
    pub fn rows(&self, registry: &Registry) -> SummaryAgentDomainsBuilder {
        let mut builder = SummaryAgentDomainsBuilder::default();
        let mut running = [0i64; 3];
        for (a, step) in registry.agents.iter().zip(&self.steps) {
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

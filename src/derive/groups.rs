//! `summary_agent_groups`: the hosts of a crawl per group of tracked agents (the agents of one
//! category and operator, of one category, the four AI categories, every agent), by whether
//! the host fully blocks or names some agent of the group. Such "at least one of them" counts
//! cannot be added up from `summary_agents`' per-agent rows; sums over the group's agents
//! (host × agent counts, mean agents blocked per host) can, and are left to it.
//!
//! A host's row follows from its governing capture's runs alone, so it is computed once per
//! distinct set of runs as the groups see them (each run reduced to whether it blocks and
//! names its agents) and counted once per (reduction, fetch outcome, resolution).
//! Only the groups a profile blocks or names are kept per profile; each group's other hosts,
//! those that neither block nor name any of its agents, are the rest of its denominator.

use super::classes::{Classes, Run};
use super::redirects::Resolution;
use crate::agents::Registry;
use crate::parts::runs::Names;
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::{SummaryAgentGroupRow, SummaryAgentGroupsBuilder};
use rustc_hash::FxHashMap;

str_enum! {
    /// Which agents a row of `summary_agent_groups` is about.
    pub enum GroupKind {
        /// The agents of one category and one operator.
        Operator = "operator",
        /// The agents of one category.
        Category = "category",
        /// The agents of the categories `ai_training`, `ai_search`, `ai_assistant`, `ai_other`.
        Ai = "ai",
        /// Every tracked agent.
        All = "all",
    }
}

/// What a group's row is counted by besides the group and its bits: the governing capture's
/// fetch outcome, the host's resolution, and its `*` reading (a verdict's id in the classes'
/// names; none for a host whose governing capture is not a 2xx or that names every agent).
type Combo = (Option<u32>, Resolution, Option<u32>);

/// Hosts counted for `summary_agent_groups` by what the groups see of their profiles (each
/// run reduced to whether it blocks and names its agents): these add up over the partitions of
/// a crawl's hosts, whose profiles are each partition's own.
#[derive(Default)]
pub struct GroupFold {
    /// Hosts by (group, combination, bits), for the groups some of their agents touch.
    rows: FxHashMap<(u16, Combo, Bits), i64>,
    /// Every host by combination: each group's rest is what its rows leave of these.
    totals: FxHashMap<Combo, i64>,
}

struct Group<'r> {
    kind: GroupKind,
    category: Option<&'r str>,
    operator: Option<&'r str>,
    agents: u32,
}

/// The groups of a registry, and each agent's groups.
pub struct Groups<'r> {
    groups: Vec<Group<'r>>,
    of_agent: Vec<Vec<u16>>,
    /// Per group, its agents before each registry position (`agents + 1` entries): a run of
    /// many agents counts its agents of a group by one subtraction.
    before: Vec<Vec<u32>>,
}

/// What a run of agents does to them, as the groups see it: fully blocks them (`BLOCKS`),
/// through a group naming them (`BY_NAME`), names them by name or by product token.
type Touch = u8;
const BLOCKS: Touch = 1;
const BY_NAME: Touch = 2;
const NAMES_EXACT: Touch = 4;
const NAMES_TOKEN: Touch = 8;

fn touch(t: super::classes::Traits) -> Touch {
    let blocks = t.strictness == 2;
    let mut touch = 0;
    if blocks {
        touch |= BLOCKS;
    }
    if blocks && t.specific {
        touch |= BY_NAME;
    }
    if t.named_exact {
        touch |= NAMES_EXACT;
    }
    if t.named {
        touch |= NAMES_TOKEN;
    }
    touch
}

/// A profile's runs as (first agent, touch), runs of one touch merged: profiles that differ
/// in nothing the groups see reduce to the same runs.
fn reduce(runs: &[Run], classes: &Classes, reduced: &mut Vec<(u16, Touch)>) {
    reduced.clear();
    for &(first, _, class) in runs {
        let t = touch(classes.traits(class));
        if reduced.last().is_none_or(|l| l.1 != t) {
            reduced.push((first, t));
        }
    }
}

/// What a host does to a group's agents: fully blocks some (`verdict`), every one it fully
/// blocks through a group naming it (`verdict_source` specific), names some by name
/// (`named_exact`) or by product token (`named`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Bits {
    blocks_any: bool,
    blocked_by_name_only: bool,
    names_exact: bool,
    names_token: bool,
}

impl Bits {
    /// Distinct codes of [`Bits::code`].
    const CODES: usize = 16;

    fn code(self) -> usize {
        usize::from(self.blocks_any)
            | usize::from(self.blocked_by_name_only) << 1
            | usize::from(self.names_exact) << 2
            | usize::from(self.names_token) << 3
    }

    fn of_code(code: usize) -> Bits {
        Bits {
            blocks_any: code & 1 != 0,
            blocked_by_name_only: code & 2 != 0,
            names_exact: code & 4 != 0,
            names_token: code & 8 != 0,
        }
    }
}

impl<'r> Groups<'r> {
    pub fn of(registry: &'r Registry) -> Self {
        let mut groups: Vec<Group<'r>> = Vec::new();
        let mut ids: FxHashMap<(GroupKind, Option<&str>, Option<&str>), u16> = FxHashMap::default();
        let mut of_agent = Vec::with_capacity(registry.agents.len());
        for a in &registry.agents {
            let (c, o) = (a.category.as_str(), a.operator.as_str());
            let ai = c.starts_with("ai_");
            let mut mine = Vec::new();
            for &kind in GroupKind::ALL {
                let key = match kind {
                    GroupKind::Operator => (kind, Some(c), Some(o)),
                    GroupKind::Category => (kind, Some(c), None),
                    GroupKind::Ai if !ai => continue,
                    GroupKind::Ai | GroupKind::All => (kind, None, None),
                };
                let id = *ids.entry(key).or_insert_with(|| {
                    groups.push(Group {
                        kind: key.0,
                        category: key.1,
                        operator: key.2,
                        agents: 0,
                    });
                    (groups.len() - 1) as u16
                });
                groups[id as usize].agents += 1;
                mine.push(id);
            }
            of_agent.push(mine);
        }
        let mut before = vec![vec![0u32; of_agent.len() + 1]; groups.len()];
        for (agent, mine) in of_agent.iter().enumerate() {
            for (g, counts) in before.iter_mut().enumerate() {
                counts[agent + 1] = counts[agent] + u32::from(mine.contains(&(g as u16)));
            }
        }
        Groups {
            groups,
            of_agent,
            before,
        }
    }

    /// The groups whose agents a capture with these reduced runs blocks or names, with what it
    /// does. `touched` is all zeros on entry and left so.
    fn of_reduced(
        &self,
        reduced: &[(u16, Touch)],
        touched: &mut [(u32, u32, Touch)],
    ) -> Vec<(u16, Bits)> {
        let agents = self.of_agent.len();
        let mut add = |g: usize, n: u32, t: Touch| {
            let e = &mut touched[g];
            if t & BLOCKS != 0 {
                e.0 += n;
            }
            if t & BY_NAME != 0 {
                e.1 += n;
            }
            e.2 |= t;
        };
        for (k, &(first, t)) in reduced.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let end = reduced.get(k + 1).map_or(agents, |n| usize::from(n.0));
            let first = usize::from(first);
            // Agent by agent when that is fewer steps than group by group.
            if (end - first) * GroupKind::ALL.len() < self.groups.len() {
                for agent in first..end {
                    for &g in &self.of_agent[agent] {
                        add(usize::from(g), 1, t);
                    }
                }
            } else {
                for (g, before) in self.before.iter().enumerate() {
                    let n = before[end] - before[first];
                    if n > 0 {
                        add(g, n, t);
                    }
                }
            }
        }
        let mut bits = Vec::new();
        for (g, e) in touched.iter_mut().enumerate() {
            let (blocked, by_name, t) = std::mem::take(e);
            let b = Bits {
                blocks_any: blocked > 0,
                blocked_by_name_only: blocked > 0 && blocked == by_name,
                names_exact: t & NAMES_EXACT != 0,
                names_token: t & NAMES_TOKEN != 0,
            };
            if b != Bits::default() {
                bits.push((g as u16, b));
            }
        }
        bits
    }

    /// Add hosts tallied by (profile, fetch outcome, resolution) to `fold`, `profiles` holding
    /// each profile's runs and `stars` the class of its `*` reading. What is added no longer
    /// refers to the profiles: the next partition of the crawl's hosts brings its own.
    pub fn fold(
        &self,
        fold: &mut GroupFold,
        profiles: &[Vec<Run>],
        stars: &[Option<u32>],
        classes: &Classes,
        tally: &FxHashMap<(u32, Option<u32>, Resolution), i64>,
        outcomes: &Names,
    ) {
        let is_2xx: Vec<bool> = (0..outcomes.len() as u32)
            .map(|o| FetchOutcome::is_2xx_name(outcomes.get(o)))
            .collect();
        // Profiles reduced to what the groups see, and hosts tallied by reduction first.
        let mut reduction_of: Vec<Option<u32>> = vec![None; profiles.len()];
        let mut reduction_ids: FxHashMap<Vec<(u16, Touch)>, u32> = FxHashMap::default();
        let mut reductions: Vec<Vec<(u16, Touch)>> = Vec::new();
        let mut by_reduction: FxHashMap<(u32, Combo), i64> = FxHashMap::default();
        let mut totals: FxHashMap<Combo, i64> = FxHashMap::default();
        let mut reduced = Vec::new();
        for (&(p, outcome, resolution), &hosts) in tally {
            // The `*` reading's verdict (its id in `classes.names`), for 2xx hosts.
            let star = (stars[p as usize])
                .filter(|_| outcome.is_some_and(|o| is_2xx[o as usize]))
                .and_then(|c| classes.get(c).verdict);
            let combo = (outcome, resolution, star);
            *totals.entry(combo).or_default() += hosts;
            let r = *reduction_of[p as usize].get_or_insert_with(|| {
                reduce(&profiles[p as usize], classes, &mut reduced);
                if let Some(&r) = reduction_ids.get(&reduced) {
                    return r;
                }
                reductions.push(reduced.clone());
                let r = (reductions.len() - 1) as u32;
                reduction_ids.insert(reduced.clone(), r);
                r
            });
            *by_reduction.entry((r, combo)).or_default() += hosts;
        }
        let mut of_reduction: Vec<Option<Vec<(u16, Bits)>>> = vec![None; reductions.len()];
        let mut touched = vec![(0, 0, 0); self.groups.len()];
        // Hosts by (outcome, resolution and `*` reading, group, bits), a dense table: a
        // reduction that blocks every agent touches every group.
        let combos: Vec<Combo> = totals.keys().copied().collect();
        let combo_of: FxHashMap<Combo, usize> =
            combos.iter().enumerate().map(|(k, &c)| (c, k)).collect();
        let width = self.groups.len() * Bits::CODES;
        let mut dense = vec![0i64; combos.len() * width];
        for (&(r, combo), &hosts) in &by_reduction {
            let bits = of_reduction[r as usize]
                .get_or_insert_with(|| self.of_reduced(&reductions[r as usize], &mut touched));
            let base = combo_of[&combo] * width;
            for &(g, b) in bits.iter() {
                dense[base + usize::from(g) * Bits::CODES + b.code()] += hosts;
            }
        }
        for (k, &hosts) in dense.iter().enumerate().filter(|(_, &h)| h != 0) {
            let (g, b) = ((k % width) / Bits::CODES, Bits::of_code(k % Bits::CODES));
            *fold
                .rows
                .entry((g as u16, combos[k / width], b))
                .or_default() += hosts;
        }
        for (combo, hosts) in totals {
            *fold.totals.entry(combo).or_default() += hosts;
        }
    }

    /// The rows of `summary_agent_groups` of the hosts folded.
    pub fn rows(
        &self,
        fold: &GroupFold,
        classes: &Classes,
        outcomes: &Names,
    ) -> SummaryAgentGroupsBuilder {
        let (mut rows, totals) = (fold.rows.clone(), &fold.totals);
        // Each group's hosts that neither block nor name any of its agents: the rest.
        let mut touched: FxHashMap<(u16, Combo), i64> = FxHashMap::default();
        for (&(g, combo, _), &n) in &rows {
            *touched.entry((g, combo)).or_default() += n;
        }
        for g in 0..self.groups.len() as u16 {
            for (&combo, &total) in totals {
                let seen = touched.get(&(g, combo)).copied().unwrap_or(0);
                if total > seen {
                    *rows.entry((g, combo, Bits::default())).or_default() += total - seen;
                }
            }
        }
        self.builder(rows, classes, outcomes)
    }

    /// The rows in the table's order.
    fn builder(
        &self,
        rows: FxHashMap<(u16, Combo, Bits), i64>,
        classes: &Classes,
        outcomes: &Names,
    ) -> SummaryAgentGroupsBuilder {
        let mut rows: Vec<_> = rows.into_iter().collect();
        rows.sort_unstable_by(|(a, _), (b, _)| {
            let of = |k: &(u16, Combo, Bits)| {
                let g = &self.groups[k.0 as usize];
                let (outcome, resolution, star) = k.1;
                (
                    g.kind,
                    g.category,
                    g.operator,
                    outcome.map(|o| outcomes.get(o)),
                    resolution,
                    classes.text(star),
                    k.2,
                )
            };
            of(a).cmp(&of(b))
        });
        let mut builder = SummaryAgentGroupsBuilder::default();
        for ((g, (outcome, resolution, star), b), hosts) in &rows {
            let group = &self.groups[*g as usize];
            builder.append(&SummaryAgentGroupRow {
                agent_group: Some(group.kind.as_str()),
                agent_category: group.category,
                operator: group.operator,
                agents: Some(group.agents as i32),
                fetch_outcome: outcome.map(|o| outcomes.get(o)),
                resolution: Some(resolution.as_str()),
                star_verdict: classes.text(*star),
                blocks_any: Some(b.blocks_any),
                blocked_by_name_only: b.blocks_any.then_some(b.blocked_by_name_only),
                names_exact: Some(b.names_exact),
                names_token: Some(b.names_token),
                hosts: Some(*hosts),
            });
        }
        builder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every agent of the built-in registry is in one operator group, one category group,
    /// the AI group when its category is an AI one, and the group of all agents.
    #[test]
    fn each_agent_is_in_its_operator_category_ai_and_all_groups() {
        let registry = Registry::builtin();
        let groups = Groups::of(&registry);
        for (a, mine) in registry.agents.iter().zip(&groups.of_agent) {
            let kinds: Vec<GroupKind> = mine
                .iter()
                .map(|&g| groups.groups[g as usize].kind)
                .collect();
            let want: Vec<GroupKind> = (GroupKind::ALL.iter().copied())
                .filter(|&k| k != GroupKind::Ai || a.category.starts_with("ai_"))
                .collect();
            assert_eq!(kinds, want, "{}", a.name);
            let op = &groups.groups[mine[0] as usize];
            assert_eq!(
                (op.category, op.operator),
                (Some(a.category.as_str()), Some(a.operator.as_str()))
            );
        }
        let total = |k: GroupKind| -> u32 {
            groups
                .groups
                .iter()
                .filter(|g| g.kind == k)
                .map(|g| g.agents)
                .sum()
        };
        let n = registry.agents.len() as u32;
        assert_eq!(
            (
                total(GroupKind::Operator),
                total(GroupKind::Category),
                total(GroupKind::All)
            ),
            (n, n, n)
        );
        let ai = registry
            .agents
            .iter()
            .filter(|a| a.category.starts_with("ai_"))
            .count() as u32;
        assert_eq!(total(GroupKind::Ai), ai);
        assert!(ai > 50, "{ai}");
    }
}

//! `summary_agent_groups`: the hosts of a crawl per group of tracked agents (the agents of one
//! category and operator, of one category, the four AI categories, every agent), by whether
//! the host fully blocks or names some agent of the group. Such "at least one of them" counts
//! cannot be added up from `summary_agents`' per-agent rows; sums over the group's agents
//! (host × agent counts, mean agents blocked per host) can, and are left to it.
//!
//! A host's row follows from its governing capture's runs alone, so it is computed once per
//! distinct set of runs (a profile) and counted once per (profile, fetch outcome, resolution).
//! Only the groups a profile blocks or names are kept per profile; each group's other hosts,
//! those that neither block nor name any of its agents, are the rest of its denominator.

use super::classes::{Classes, Run};
use super::redirects::Resolution;
use crate::agents::Registry;
use crate::parts::runs::Names;
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
        Groups { groups, of_agent }
    }

    /// The groups whose agents a capture with these runs blocks or names, with what it does.
    fn of_profile(&self, runs: &[Run], classes: &Classes) -> Vec<(u16, Bits)> {
        // Per touched group: agents fully blocked, of those through a group naming them, and
        // the naming bits.
        let mut touched: FxHashMap<u16, (u32, u32, bool, bool)> = FxHashMap::default();
        for &(first, n, class) in runs {
            let t = classes.traits(class);
            if !(t.strictness == 2 || t.named || t.named_exact) {
                continue;
            }
            for agent in first..first + n {
                for &g in &self.of_agent[agent as usize] {
                    let e = touched.entry(g).or_default();
                    if t.strictness == 2 {
                        e.0 += 1;
                        e.1 += u32::from(t.specific);
                    }
                    e.2 |= t.named_exact;
                    e.3 |= t.named;
                }
            }
        }
        let mut bits: Vec<(u16, Bits)> = touched
            .into_iter()
            .map(|(g, (blocked, by_name, exact, token))| {
                let b = Bits {
                    blocks_any: blocked > 0,
                    blocked_by_name_only: blocked > 0 && blocked == by_name,
                    names_exact: exact,
                    names_token: token,
                };
                (g, b)
            })
            .filter(|(_, b)| *b != Bits::default())
            .collect();
        bits.sort_unstable();
        bits
    }

    /// The rows of `summary_agent_groups` for hosts tallied by (profile, fetch outcome,
    /// resolution), `profiles` holding each profile's runs.
    pub fn rows(
        &self,
        profiles: &[Vec<Run>],
        classes: &Classes,
        tally: &FxHashMap<(u32, Option<u32>, Resolution), i64>,
        outcomes: &Names,
    ) -> SummaryAgentGroupsBuilder {
        let mut of_profile: Vec<Option<Vec<(u16, Bits)>>> = vec![None; profiles.len()];
        let mut rows: FxHashMap<(u16, Option<u32>, Resolution, Bits), i64> = FxHashMap::default();
        let mut totals: FxHashMap<(Option<u32>, Resolution), i64> = FxHashMap::default();
        for (&(p, outcome, resolution), &hosts) in tally {
            *totals.entry((outcome, resolution)).or_default() += hosts;
            let bits = of_profile[p as usize]
                .get_or_insert_with(|| self.of_profile(&profiles[p as usize], classes));
            for &(g, b) in bits.iter() {
                *rows.entry((g, outcome, resolution, b)).or_default() += hosts;
            }
        }
        // Each group's hosts that neither block nor name any of its agents: the rest.
        let mut touched: FxHashMap<(u16, Option<u32>, Resolution), i64> = FxHashMap::default();
        for (&(g, outcome, resolution, _), &n) in &rows {
            *touched.entry((g, outcome, resolution)).or_default() += n;
        }
        for g in 0..self.groups.len() as u16 {
            for (&(outcome, resolution), &total) in &totals {
                let seen = touched.get(&(g, outcome, resolution)).copied().unwrap_or(0);
                if total > seen {
                    let key = (g, outcome, resolution, Bits::default());
                    *rows.entry(key).or_default() += total - seen;
                }
            }
        }
        let mut rows: Vec<_> = rows.into_iter().collect();
        rows.sort_unstable_by(|(a, _), (b, _)| {
            let of = |k: &(u16, Option<u32>, Resolution, Bits)| {
                let g = &self.groups[k.0 as usize];
                (
                    g.kind,
                    g.category,
                    g.operator,
                    k.1.map(|o| outcomes.get(o)),
                    k.2,
                    k.3,
                )
            };
            of(a).cmp(&of(b))
        });
        let mut builder = SummaryAgentGroupsBuilder::default();
        for ((g, outcome, resolution, b), hosts) in &rows {
            let group = &self.groups[*g as usize];
            builder.append(&SummaryAgentGroupRow {
                agent_group: Some(group.kind.as_str()),
                agent_category: group.category,
                operator: group.operator,
                agents: Some(group.agents as i32),
                fetch_outcome: outcome.map(|o| outcomes.get(o)),
                resolution: Some(resolution.as_str()),
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

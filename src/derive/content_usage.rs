//! `summary_agent_content_usage`: per tracked agent, the hosts whose governing capture (a 2xx)
//! gives `/` a `Content-Usage` rule for it, by the rule's value (`agent_verdict_runs.content_usage`),
//! so `agents_content_usage.sql` reads a few hundred rows instead of the runs of every capture.
//!
//! Counted beside `summary_agents` ([`super::agent_summary::Agents`]) as the runs are read: a capture's
//! runs with a `content_usage` are its *usages*, each added once per host it governs.

use super::classes::Classes;
use crate::agents::Registry;
use crate::tables::{SummaryAgentContentUsageBuilder, SummaryAgentContentUsageRow};
use rustc_hash::FxHashMap;

/// A run of agents with a `content_usage`: the first's registry position, how many, and the
/// value (an id of [`Classes::names`]).
pub type Usage = (u16, u16, u32);

/// The hosts of a crawl per run of agents and `content_usage`, added up over the partitions of
/// its hosts.
#[derive(Default)]
pub struct ContentUsage {
    by_run: FxHashMap<Usage, i64>,
    /// Some `agent_verdict_runs` part read had no `content_usage` column (schema 14 and
    /// before): the counts are not known, and no rows are written.
    unknown: bool,
}

impl ContentUsage {
    /// Add `hosts` hosts governed by a 2xx capture whose runs hold `usages`.
    pub fn add(&mut self, usages: &[Usage], hosts: i64) {
        for &u in usages {
            *self.by_run.entry(u).or_default() += hosts;
        }
    }

    /// A part without the column was read.
    pub fn unknown(&mut self) {
        self.unknown = true;
    }

    /// The table's rows: per agent (in registry order) and value (in byte order), its hosts.
    pub fn rows(&self, registry: &Registry, classes: &Classes) -> SummaryAgentContentUsageBuilder {
        let mut builder = SummaryAgentContentUsageBuilder::default();
        for (agent, usage, hosts) in self.per_agent(classes) {
            let a = &registry.agents[usize::from(agent)];
            builder.append(&SummaryAgentContentUsageRow {
                agent: Some(&a.name),
                agent_index: Some(i32::from(agent)),
                agent_category: Some(&a.category),
                operator: Some(&a.operator),
                content_usage: Some(usage),
                hosts: Some(hosts),
            });
        }
        builder
    }

    /// (registry position, value, hosts), sorted; none when the counts are not known.
    fn per_agent<'c>(&self, classes: &'c Classes) -> Vec<(u16, &'c str, i64)> {
        if self.unknown {
            return Vec::new();
        }
        let mut per_agent: FxHashMap<(u16, u32), i64> = FxHashMap::default();
        for (&(first, n, usage), &hosts) in &self.by_run {
            for agent in first..first + n {
                *per_agent.entry((agent, usage)).or_default() += hosts;
            }
        }
        let mut rows: Vec<_> = (per_agent.into_iter())
            .map(|((agent, usage), hosts)| (agent, classes.names.get(usage), hosts))
            .collect();
        rows.sort_unstable();
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::TableBuilder;

    #[test]
    fn runs_are_spread_over_their_agents_and_added_per_value() {
        let mut classes = Classes::default();
        let (n, y) = (classes.names.id("train-ai=n"), classes.names.id("search=y"));
        let mut usage = ContentUsage::default();
        usage.add(&[(0, 2, n), (3, 1, y)], 5);
        usage.add(&[(1, 1, n)], 2);
        assert_eq!(
            usage.per_agent(&classes),
            [
                (0, "train-ai=n", 5),
                (1, "train-ai=n", 7),
                (3, "search=y", 5)
            ]
        );
    }

    #[test]
    fn a_part_without_the_column_leaves_the_table_empty_not_zero() {
        let mut classes = Classes::default();
        let n = classes.names.id("train-ai=n");
        let mut usage = ContentUsage::default();
        usage.add(&[(0, 1, n)], 1);
        usage.unknown();
        assert!(usage.per_agent(&classes).is_empty());
        assert_eq!(usage.rows(&Registry::builtin(), &classes).len(), 0);
    }
}

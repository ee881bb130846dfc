//! `summary_block_sets`: the distinct sets of tracked agents a crawl's governing captures fully
//! block (Google's reading, `verdict` full_block), each host's set named by
//! `robots_hosts.block_set`. A crawl has far fewer sets than hosts (every file that blocks the
//! same agents shares one), so comparing two crawls host by host (`super::changes`) reads a
//! number per host, not its verdicts.

use crate::agents::Registry;
use crate::tables::{SummaryBlockSetRow, SummaryBlockSetsBuilder};
use anyhow::{bail, Result};
use rustc_hash::FxHashMap;

str_enum! {
    /// What puts an agent in one of a host's sets ([`HostSets`]), each the reading of one
    /// study's definition (../shared/specs/studies.md), from the governing capture's verdicts.
    pub enum SetKind {
        /// `verdict` full_block (Google's reading): `robots_hosts.block_set`.
        FullBlock = "full_block",
        /// ... decided by a group naming the agent (`verdict_source` specific).
        FullBlockByName = "full_block_by_name",
        /// A group naming the agent disallows `/` (`verdict_source` specific, `root_allowed`
        /// false: the `*` group does not count).
        OwnGroupRoot = "own_group_root",
        /// The agent's product token is on a user-agent line (`named`), whatever its rules.
        Named = "named",
        /// RFC 9309's reading disallows `/`: `verdict_rfc9309` full_block (a 5xx or an
        /// unreachable file too), or partial_block with `/` disallowed.
        Rfc9309Root = "rfc9309_root",
    }
}

/// The sets of tracked agents a host's governing capture puts each agent in, one per
/// [`SetKind`] (in its order), as ids of `summary_block_sets`.
pub type HostSets = [i64; 5];

/// The sets of a crawl with their hosts, added up over the partitions of the crawl's hosts.
/// A set's id is a hash of its agents' names ([`set_id`]), so that it is the same however the
/// crawl's hosts are partitioned and whichever order the sets are met in.
#[derive(Default)]
pub struct BlockSets {
    ids: FxHashMap<Box<[u16]>, i64>,
    /// Per id: the set's agents' registry positions, ascending, and its hosts and those whose
    /// governing capture is a 2xx.
    sets: FxHashMap<i64, (Box<[u16]>, [i64; 2])>,
}

impl BlockSets {
    /// The id of the set of `agents` (registry positions of `registry`, ascending). Two sets of
    /// one id (a hash collision, about one chance in 10^12 for a crawl of 5,000 sets) are an
    /// error rather than one set.
    pub fn id(&mut self, agents: &[u16], registry: &Registry) -> Result<i64> {
        if let Some(&id) = self.ids.get(agents) {
            return Ok(id);
        }
        let id = set_id(
            agents
                .iter()
                .map(|&a| registry.agents[usize::from(a)].name.as_str()),
        );
        if self.sets.contains_key(&id) {
            bail!("two sets of blocked agents have one block_set id ({id})");
        }
        self.sets.insert(id, (agents.into(), [0; 2]));
        self.ids.insert(agents.into(), id);
        Ok(id)
    }

    /// Count `hosts` hosts governed by a capture blocking set `id`.
    pub fn add_hosts(&mut self, id: i64, hosts: i64, is_2xx: bool) {
        if let Some((_, h)) = self.sets.get_mut(&id) {
            h[0] += hosts;
            h[1] += if is_2xx { hosts } else { 0 };
        }
    }

    /// The table's rows, by id.
    pub fn rows(&self, registry: &Registry) -> SummaryBlockSetsBuilder {
        let mut builder = SummaryBlockSetsBuilder::default();
        let mut ids: Vec<&i64> = self.sets.keys().collect();
        ids.sort_unstable();
        let mut names: Vec<&str> = Vec::new();
        for id in ids {
            let (set, hosts) = &self.sets[id];
            names.clear();
            names.extend(
                set.iter()
                    .map(|&a| registry.agents[usize::from(a)].name.as_str()),
            );
            builder.append(&SummaryBlockSetRow {
                block_set: Some(*id),
                agents: Some(&names),
                agent_count: Some(set.len() as i32),
                hosts: Some(hosts[0]),
                hosts_2xx: Some(hosts[1]),
            });
        }
        builder
    }
}

/// The id of the set of these agents (their names, in registry order): FNV-1a over the names,
/// each ended by a newline, kept to 63 bits so that it is a positive int64. Stable across runs,
/// partitions and versions.
pub fn set_id<'a>(names: impl Iterator<Item = &'a str>) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for name in names {
        for &b in name.as_bytes().iter().chain(b"\n") {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    (h >> 1) as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::TableBuilder;

    #[test]
    fn one_set_has_one_id_whatever_the_order_sets_are_met_in() {
        let registry = Registry::builtin();
        let mut sets = BlockSets::default();
        let (a, b) = (
            sets.id(&[0, 3], &registry).unwrap(),
            sets.id(&[], &registry).unwrap(),
        );
        assert_eq!(sets.id(&[0, 3], &registry).unwrap(), a);
        assert_ne!(a, b);
        let mut other = BlockSets::default();
        assert_eq!(other.id(&[], &registry).unwrap(), b);
        assert_eq!(other.id(&[0, 3], &registry).unwrap(), a);
        sets.add_hosts(a, 5, true);
        sets.add_hosts(a, 2, false);
        assert_eq!(sets.sets[&a].1, [7, 5]);
        assert_eq!(sets.rows(&registry).len(), 2);
    }

    #[test]
    fn the_id_is_fnv_1a_of_the_names() {
        // FNV-1a 64 of "" is its offset basis; of "a\n", 0x089bdc07b544e7b2 (with the
        // published constants: "a" alone gives the published 0xaf63dc4c8601ec8c).
        assert_eq!(
            set_id(std::iter::empty()),
            (0xcbf2_9ce4_8422_2325u64 >> 1) as i64
        );
        assert_eq!(
            set_id(["a"].into_iter()),
            (0x089b_dc07_b544_e7b2u64 >> 1) as i64
        );
        assert!(set_id(["GPTBot", "CCBot"].into_iter()) >= 0);
        assert_ne!(
            set_id(["ab", "c"].into_iter()),
            set_id(["a", "bc"].into_iter())
        );
    }
}

//! Captures per kind, and hosts counted once each by their latest capture: what the summaries
//! of the well-known files (`summary_llms_txt`, `summary_tdmrep`) hold. Kept apart from
//! `robots_hosts`' index, which also follows redirects and revisits: these files are counted
//! as they were captured.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// Which capture is the later: capture time, then file and offset (a tie in time is broken the
/// same way in every run).
pub type When = (Option<i64>, String, i64);

/// Captures per kind `K`, and per group `G` (a host, or a host and file) its latest capture's
/// kind.
pub struct ByLatest<G, K> {
    captures: BTreeMap<K, i64>,
    latest: HashMap<G, (When, K)>,
}

impl<G, K> Default for ByLatest<G, K> {
    fn default() -> Self {
        ByLatest {
            captures: BTreeMap::new(),
            latest: HashMap::new(),
        }
    }
}

impl<G: Eq + Hash, K: Ord + Clone> ByLatest<G, K> {
    /// Count a capture of kind `kind`; a capture without a host (`group` none) counts among
    /// the captures only.
    pub fn add(&mut self, group: Option<G>, when: When, kind: K) {
        *self.captures.entry(kind.clone()).or_default() += 1;
        let Some(group) = group else { return };
        match self.latest.get_mut(&group) {
            Some(slot) if when > slot.0 => *slot = (when, kind),
            Some(_) => {}
            None => {
                self.latest.insert(group, (when, kind));
            }
        }
    }

    /// Per kind, in order: its captures, and the groups whose latest capture is of it.
    pub fn counts(self) -> Vec<(K, i64, i64)> {
        let mut groups: BTreeMap<K, i64> = BTreeMap::new();
        for (_, kind) in self.latest.into_values() {
            *groups.entry(kind).or_default() += 1;
        }
        (self.captures.into_iter())
            .map(|(k, n)| {
                let g = groups.get(&k).copied().unwrap_or(0);
                (k, n, g)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each host counts once, by its latest capture (ties broken by place); every capture
    /// counts among the captures, those without a host too.
    #[test]
    fn a_host_counts_once_by_its_latest_capture() {
        let at = |t: i64, off: i64| (Some(t), "a.warc".to_string(), off);
        let mut b = ByLatest::default();
        b.add(Some("h"), at(2, 0), "valid");
        b.add(Some("h"), at(1, 5), "html");
        b.add(Some("h"), at(2, 9), "empty");
        b.add(Some("g"), at(1, 0), "html");
        b.add(None, at(9, 0), "valid");
        assert_eq!(
            b.counts(),
            [("empty", 1, 1), ("html", 2, 1), ("valid", 2, 0)]
        );
    }
}

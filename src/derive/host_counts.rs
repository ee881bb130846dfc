//! `summary_robots_hosts` and `summary_robots_outcomes`: a crawl's hosts by how their fetches
//! went and its captures by fetch outcome, counted from the index `robots_hosts` is made from,
//! partition by partition of the crawl's hosts when it is derived in partitions.

use super::host_index::CrawlIndex;
use super::read::{summary_part, Governs};
use super::redirects::Resolution;
use super::revisits::Revisit;
use crate::parts::runs::Names;
use crate::parts::OutDir;
use crate::robots::parse::Split;
use crate::tables::{
    SummaryRobotsHostRow, SummaryRobotsHostsBuilder, SummaryRobotsOutcomeRow,
    SummaryRobotsOutcomesBuilder,
};
use anyhow::Result;
use rustc_hash::FxHashMap;

/// (latest outcome, resolution, revisit, governing outcome, revisited outcome): a row of
/// `summary_robots_hosts`.
type HostKey = (
    Option<u32>,
    Resolution,
    Option<Revisit>,
    Option<u32>,
    Option<u32>,
);

/// What `summary_robots_hosts` and `summary_robots_outcomes` count of a crawl's hosts and
/// captures, added up over the partitions of its hosts (outcome ids are those every partition
/// shares).
#[derive(Default)]
pub struct HostCounts {
    /// Per row: hosts, captures, hosts with wildcard_split, with wildcard_with_ai, then hosts
    /// by `group_split` (in the order of [`Split::ALL`]), then hosts with a Cloudflare managed
    /// block and with one their own lines contradict.
    by_key: FxHashMap<HostKey, [i64; 6 + Split::ALL.len()]>,
    /// Per outcome id: captures, and the earliest and latest capture time.
    by_outcome: Vec<(i64, Option<i64>, Option<i64>)>,
    /// Per outcome id: hosts with a capture of it.
    hosts_by_outcome: Vec<i64>,
    /// Every part read had the accidental-block flags.
    mistakes_known: Option<bool>,
    /// Every part read had the Cloudflare columns.
    cloudflare_known: Option<bool>,
}

impl HostCounts {
    /// Count the hosts of `governs` and the captures of `index`.
    pub(super) fn add(&mut self, index: &CrawlIndex, governs: &[Governs]) {
        for g in governs {
            let key = (
                g.latest_outcome,
                g.resolution,
                g.revisit,
                g.outcome,
                g.revisited_outcome,
            );
            let c = self.by_key.entry(key).or_default();
            c[0] += 1;
            c[1] += i64::from(g.captures);
            c[2] += i64::from(g.wildcard_split);
            c[3] += i64::from(g.wildcard_with_ai);
            if let Some(split) = g.group_split {
                c[4 + split as usize] += 1;
            }
            c[4 + Split::ALL.len()] += i64::from(g.cloudflare_managed);
            c[5 + Split::ALL.len()] += i64::from(g.cloudflare_contradicted);
        }
        let n = index.by_outcome.len();
        if self.by_outcome.len() < n {
            self.by_outcome.resize(n, (0, None, None));
            self.hosts_by_outcome.resize(n, 0);
        }
        for (sum, &(captures, first, last)) in self.by_outcome.iter_mut().zip(&index.by_outcome) {
            sum.0 += captures;
            sum.1 = sum.1.min(first).or(first).or(sum.1);
            sum.2 = sum.2.max(last);
        }
        for mut bits in index.host_outcomes() {
            while bits != 0 {
                let o = bits.trailing_zeros() as usize;
                if let Some(h) = self.hosts_by_outcome.get_mut(o) {
                    *h += 1;
                }
                bits &= bits - 1;
            }
        }
        let known = self.mistakes_known.unwrap_or(true) && index.mistakes_known;
        self.mistakes_known = Some(known);
        let cloudflare = self.cloudflare_known.unwrap_or(true) && index.cloudflare_known;
        self.cloudflare_known = Some(cloudflare);
    }

    /// The parts of `summary_robots_outcomes` and `summary_robots_hosts`.
    pub(super) fn parts(
        &self,
        out: &OutDir,
        crawl: &str,
        outcomes: &Names,
    ) -> Result<[crate::parts::PartOutcome; 2]> {
        Ok([
            self.outcomes_part(out, crawl, outcomes)?,
            self.hosts_part(out, crawl, outcomes)?,
        ])
    }

    /// `summary_robots_hosts`: hosts and their captures by latest capture's outcome,
    /// resolution and governing capture's outcome.
    fn hosts_part(
        &self,
        out: &OutDir,
        crawl: &str,
        outcomes: &Names,
    ) -> Result<crate::parts::PartOutcome> {
        let text = |o: Option<u32>| o.map(|o| outcomes.get(o));
        let mut rows: Vec<_> = self.by_key.iter().collect();
        rows.sort_unstable_by(|(a, _), (b, _)| {
            let of = |k: &HostKey| (text(k.0), k.1, k.2, text(k.3), text(k.4));
            of(a).cmp(&of(b))
        });
        let known = self.mistakes_known.unwrap_or(true);
        let cloudflare = self.cloudflare_known.unwrap_or(true);
        let mut builder = SummaryRobotsHostsBuilder::default();
        for ((latest, resolution, revisit, effective, revisited), counts) in rows {
            let [hosts, captures, split, ai, blank, comment, sitemap, crawl_delay, other, cf, cf_contradicted] =
                counts;
            builder.append(&SummaryRobotsHostRow {
                fetch_outcome: text(*latest),
                resolution: Some(resolution.as_str()),
                revisit: revisit.map(Revisit::as_str),
                effective_fetch_outcome: text(*effective),
                revisited_fetch_outcome: text(*revisited),
                hosts: Some(*hosts),
                captures: Some(*captures),
                hosts_wildcard_split: known.then_some(*split),
                hosts_wildcard_with_ai: known.then_some(*ai),
                hosts_split_blank: known.then_some(*blank),
                hosts_split_comment: known.then_some(*comment),
                hosts_split_sitemap: known.then_some(*sitemap),
                hosts_split_crawl_delay: known.then_some(*crawl_delay),
                hosts_split_other: known.then_some(*other),
                hosts_cloudflare_managed: cloudflare.then_some(*cf),
                hosts_cloudflare_contradicted: cloudflare.then_some(*cf_contradicted),
            });
        }
        Ok(summary_part(out, crawl, builder)?.0)
    }

    /// `summary_robots_outcomes`: the crawl's captures and hosts per fetch outcome.
    fn outcomes_part(
        &self,
        out: &OutDir,
        crawl: &str,
        outcomes: &Names,
    ) -> Result<crate::parts::PartOutcome> {
        let mut rows: Vec<usize> = (0..self.by_outcome.len()).collect();
        rows.sort_unstable_by_key(|&o| outcomes.get(o as u32));
        let mut b = SummaryRobotsOutcomesBuilder::default();
        for &o in &rows {
            let (captures, first, last) = self.by_outcome[o];
            b.append(&SummaryRobotsOutcomeRow {
                fetch_outcome: Some(outcomes.get(o as u32)),
                captures: Some(captures),
                // An outcome id past 32 has no bit: its hosts are not known (NULL).
                hosts: (o < 32).then_some(self.hosts_by_outcome[o]),
                first_capture: first,
                last_capture: last,
            });
        }
        Ok(summary_part(out, crawl, b)?.0)
    }
}

//! The index `robots_hosts` is made from: a crawl's `robots_files` parts read twice, a few
//! columns at a time, each site's latest capture and each redirect target's, interned, and the
//! rows made from it (each site's governing capture through redirects and revisits).
//!
//! A robots.txt governs one scheme, host and port (RFC 9309 section 2.3: a [`Site`]), so each
//! site of a host has its own latest capture and governing capture. A host's figures (the
//! summaries count hosts) are those of the site of its latest capture, whatever the scheme or
//! port: the same capture that governed the host before sites were told apart (schema 18).

use super::agent_summary::CrawlAgents;
use super::host_capture::{
    group_split, prefix_key, robots_url_of, Domain, Latest, Seen, CLOUDFLARE_CONTRADICTED,
    CLOUDFLARE_MANAGED, MISTAKE_AI, MISTAKE_SPLIT, SPLIT_SHIFT,
};
use super::lines::CrawlLines;
use super::read::{read_beside, Governs};
use super::redirects::{self, Capture, Effective, Index, Resolution};
use super::revisits::{Originals, Reference, Revisit};
use super::site::Site;
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartRef};
use crate::robots::parse::Split;
use crate::tables::{RobotsHostRow, RobotsHostsBuilder, TableBuilder};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch, StringArray};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::hash_map::Entry;
use std::collections::BTreeMap;

/// What deriving `robots_hosts` did for one crawl.
#[derive(Debug, Clone, Default)]
pub struct CrawlHosts {
    pub crawl: String,
    pub captures: u64,
    pub hosts: u64,
    /// Sites (scheme, host and port): as many as hosts, but for hosts captured under more than
    /// one scheme or port.
    pub sites: u64,
    /// Hosts by how their latest capture's chain of redirects ended.
    pub resolutions: BTreeMap<Resolution, u64>,
    /// Hosts resolved through a hop to another host.
    pub cross_host: u64,
    /// Hosts whose way to their governing capture met a revisit, by how it was read.
    pub revisits: BTreeMap<Revisit, u64>,
    /// What deriving `summary_agents` did (`None` when the crawl has no `agent_verdict_runs`).
    pub agents: Option<CrawlAgents>,
    /// What deriving the summaries of robots.txt lines did (`None` when it failed).
    pub lines: Option<CrawlLines>,
    /// Rows written to `page_verdicts` (`None` when the crawl has no pages, or they failed).
    pub page_verdicts: Option<u64>,
    /// Why `page_verdicts` was not derived, when its lines were not written.
    pub page_verdicts_skipped: Option<String>,
    /// The partitions of its hosts the crawl was derived in, to stay within `--memory` (1:
    /// whole).
    pub partitions: u32,
}

/// The columns of `robots_files` each pass reads (the second reads [`REVISIT_COLUMNS`] too when
/// the crawl has revisits).
pub(super) const TARGET_COLUMNS: [&str; 5] = [
    "url",
    "fetch_outcome",
    "redirect_location",
    "payload_digest",
    "refers_to_url",
];
pub(super) const REVISIT_COLUMNS: [&str; 4] = [
    "payload_digest",
    "refers_to_url",
    "refers_to_date",
    "http_status",
];
/// The column a partition's spilled `robots_files` rows have (`super::partitions`): true for a
/// guest, a capture of another partition's host.
pub(super) const GUEST_COLUMN: &str = "_guest";
pub(super) const CAPTURE_COLUMNS: [&str; 13] = [
    "warc_file",
    "warc_offset",
    "url",
    "host",
    "registered_domain",
    "capture_time",
    "fetch_outcome",
    "redirect_location",
    "wildcard_split",
    "wildcard_with_ai",
    "group_split",
    "cloudflare_managed",
    "cloudflare_contradicted",
];

/// Read a crawl's parts: the URLs its redirects point to, then each host's latest capture and
/// each such URL's latest capture.
pub(super) fn read_crawl(out: &OutDir, parts: &[PartRef]) -> Result<CrawlIndex> {
    read_partition(out, parts, Names::default(), Names::default())
}

/// The same for one partition of a crawl's hosts (`super::partitions`), whose parts also hold
/// guests (rows of [`GUEST_COLUMN`]: captures of other partitions some host's chain of
/// redirects or revisit may lead to); its file and outcome ids are those of `files` and
/// `outcomes`, which every partition shares.
pub(super) fn read_partition(
    out: &OutDir,
    parts: &[PartRef],
    files: Names,
    outcomes: Names,
) -> Result<CrawlIndex> {
    let mut index = CrawlIndex {
        files,
        outcomes,
        ..CrawlIndex::default()
    };
    read_beside(out, parts, &TARGET_COLUMNS, &[], |part, batch| {
        let cols = Columns::of(batch, part)?;
        for i in 0..batch.num_rows() {
            let capture = cols.capture(i);
            if let Some((host, key)) = capture.as_ref().and_then(redirects::target_of) {
                index.target_hosts.insert(host);
                index.targets.insert(key);
            }
            if let Some(c) = capture.filter(|_| cols.is_revisit(i)) {
                let refers_to = Columns::get(cols.refers_to, i).and_then(redirects::host_and_key);
                let digest = Columns::get(cols.digest, i);
                index
                    .originals
                    .refer(redirects::host_and_key(c.url), refers_to, digest);
            }
        }
        Ok(())
    })?;
    // Room for a host per capture: growing the table rehashes every host name, and growing
    // `latest` copies it. Room reserved and never used is never touched, so costs no memory.
    let rows: u64 = parts.iter().filter_map(|p| out.part_rows(p)).sum();
    index.hosts.reserve(rows as usize, 32);
    index.latest.reserve(rows as usize);
    let mut columns = CAPTURE_COLUMNS.to_vec();
    if index.originals.any() {
        columns.extend(REVISIT_COLUMNS);
    }
    // A part without it (every part of an unpartitioned crawl) has no guest.
    columns.push(GUEST_COLUMN);
    index.mistakes_known = true;
    index.cloudflare_known = true;
    read_beside(out, parts, &columns, &[], |part, batch| {
        let cols = Columns::of(batch, part)?;
        // A part of an earlier schema has no accidental-block flags: their counts are unknown.
        index.mistakes_known &= cols.wildcard_split.is_some()
            && cols.wildcard_with_ai.is_some()
            && cols.group_split.is_some();
        // ... nor, before schema 18, the Cloudflare managed block's.
        index.cloudflare_known &= cols.cloudflare_managed.is_some();
        for i in 0..batch.num_rows() {
            index.add(&cols, i);
        }
        Ok(())
    })?;
    Ok(index)
}

/// The columns of a batch of `robots_files` (those read: the others are `None`).
struct Columns<'b> {
    file: Option<&'b StringArray>,
    offset: Option<&'b arrow_array::Int64Array>,
    url: &'b StringArray,
    host: Option<&'b StringArray>,
    domain: Option<&'b StringArray>,
    time: Option<&'b arrow_array::TimestampMicrosecondArray>,
    outcome: &'b StringArray,
    location: &'b StringArray,
    digest: Option<&'b StringArray>,
    refers_to: Option<&'b StringArray>,
    refers_to_date: Option<&'b arrow_array::TimestampMicrosecondArray>,
    status: Option<&'b arrow_array::Int32Array>,
    wildcard_split: Option<&'b arrow_array::BooleanArray>,
    wildcard_with_ai: Option<&'b arrow_array::BooleanArray>,
    group_split: Option<&'b StringArray>,
    cloudflare_managed: Option<&'b arrow_array::BooleanArray>,
    cloudflare_contradicted: Option<&'b arrow_array::BooleanArray>,
    guest: Option<&'b arrow_array::BooleanArray>,
}

impl<'b> Columns<'b> {
    fn of(batch: &'b RecordBatch, part: &PartRef) -> Result<Self> {
        let missing = |c: &str| super::tally::missing(part, c);
        let text = |c: &str| batch.column_by_name(c).and_then(|a| a.as_string_opt());
        let need = |c: &str| text(c).with_context(|| missing(c));
        Ok(Columns {
            file: text("warc_file"),
            offset: batch
                .column_by_name("warc_offset")
                .and_then(|a| a.as_primitive_opt::<Int64Type>()),
            url: need("url")?,
            host: text("host"),
            domain: text("registered_domain"),
            time: batch
                .column_by_name("capture_time")
                .and_then(|a| a.as_primitive_opt::<TimestampMicrosecondType>()),
            outcome: need("fetch_outcome")?,
            location: need("redirect_location")?,
            digest: text("payload_digest"),
            refers_to: text("refers_to_url"),
            refers_to_date: batch
                .column_by_name("refers_to_date")
                .and_then(|a| a.as_primitive_opt::<TimestampMicrosecondType>()),
            status: batch
                .column_by_name("http_status")
                .and_then(|a| a.as_primitive_opt::<arrow_array::types::Int32Type>()),
            wildcard_split: batch
                .column_by_name("wildcard_split")
                .and_then(|a| a.as_boolean_opt()),
            wildcard_with_ai: batch
                .column_by_name("wildcard_with_ai")
                .and_then(|a| a.as_boolean_opt()),
            group_split: text("group_split"),
            cloudflare_managed: batch
                .column_by_name("cloudflare_managed")
                .and_then(|a| a.as_boolean_opt()),
            cloudflare_contradicted: batch
                .column_by_name("cloudflare_contradicted")
                .and_then(|a| a.as_boolean_opt()),
            guest: batch
                .column_by_name(GUEST_COLUMN)
                .and_then(|a| a.as_boolean_opt()),
        })
    }

    /// Row `i`'s HTTP status (read only with [`REVISIT_COLUMNS`]).
    fn status(&self, i: usize) -> Option<u16> {
        let a = self.status.filter(|a| a.is_valid(i))?;
        u16::try_from(a.value(i)).ok()
    }

    fn is_guest(&self, i: usize) -> bool {
        self.guest.is_some_and(|a| a.is_valid(i) && a.value(i))
    }

    /// Row `i`'s accidental-block flags ([`MISTAKE_SPLIT`], [`MISTAKE_AI`]), its
    /// `group_split` (its place in [`Split::ALL`] plus one, from bit [`SPLIT_SHIFT`]) and its
    /// Cloudflare flags ([`CLOUDFLARE_MANAGED`], [`CLOUDFLARE_CONTRADICTED`]).
    fn mistakes(&self, i: usize) -> u8 {
        let set =
            |a: Option<&arrow_array::BooleanArray>| a.is_some_and(|a| a.is_valid(i) && a.value(i));
        let split = Self::get(self.group_split, i)
            .and_then(|s| Split::ALL.iter().position(|k| k.as_str() == s))
            .map_or(0, |k| k as u8 + 1);
        u8::from(set(self.wildcard_split)) * MISTAKE_SPLIT
            + u8::from(set(self.wildcard_with_ai)) * MISTAKE_AI
            + (split << SPLIT_SHIFT)
            + u8::from(set(self.cloudflare_managed)) * CLOUDFLARE_MANAGED
            + u8::from(set(self.cloudflare_contradicted)) * CLOUDFLARE_CONTRADICTED
    }

    fn is_revisit(&self, i: usize) -> bool {
        Self::get(Some(self.outcome), i) == Some(REVISIT)
    }

    fn get(a: Option<&StringArray>, i: usize) -> Option<&str> {
        a.filter(|a| a.is_valid(i)).map(|a| a.value(i))
    }

    /// Row `i` as the resolver sees it; `None` without a URL.
    fn capture(&self, i: usize) -> Option<Capture<'b>> {
        Some(Capture {
            url: Self::get(Some(self.url), i)?,
            redirect: Self::get(Some(self.outcome), i) == Some("redirect"),
            location: Self::get(Some(self.location), i),
        })
    }
}

/// What is kept of a crawl's captures.
#[derive(Default)]
pub(super) struct CrawlIndex {
    pub(super) files: Names,
    pub(super) domains: Names,
    pub(super) outcomes: Names,
    /// Host names; a host's id indexes `latest`.
    pub(super) hosts: Names,
    /// The latest capture of each host's other sites: `latest` holds that of the site it was
    /// first seen on. Nearly every host has one site.
    pub(super) more_sites: FxHashMap<(u32, Site), Latest>,
    /// The host names of guests, which are not the partition's hosts: a [`Seen::host`] with
    /// [`GUEST_HOST`] set is an id of these.
    pub(super) guest_hosts: Names,
    /// Each host's latest capture of the site it was first seen on, by host id.
    pub(super) latest: Vec<Latest>,
    /// The URLs (keys) redirects point to.
    pub(super) targets: FxHashSet<String>,
    /// The hosts of `targets`, as the `host` column writes them: only a capture of one of these
    /// can be a target, so only their URLs are parsed.
    pub(super) target_hosts: FxHashSet<String>,
    /// Each redirect target's latest capture.
    pub(super) urls: FxHashMap<String, Latest>,
    pub(super) captures: u64,
    /// Every part read has the accidental-block flags (`robots_files.wildcard_split`, ...).
    pub(super) mistakes_known: bool,
    /// Every part read had the Cloudflare managed block's columns (schema 18).
    pub(super) cloudflare_known: bool,
    /// Per outcome id: captures, and the earliest and latest capture time.
    pub(super) by_outcome: Vec<(i64, Option<i64>, Option<i64>)>,
    /// The captures revisits may stand for, and what each revisit refers to, by file and
    /// offset.
    pub(super) originals: Originals<Seen>,
    pub(super) revisits: FxHashMap<(u32, i64), Reference>,
}

/// The `fetch_outcome` of a revisit record.
const REVISIT: &str = "revisit";

/// Set in a [`Seen::host`] that is an id of [`CrawlIndex::guest_hosts`].
const GUEST_HOST: u32 = 1 << 31;

impl CrawlIndex {
    fn add(&mut self, cols: &Columns<'_>, i: usize) {
        let (Some(c), Some(host)) = (cols.capture(i), Columns::get(cols.host, i)) else {
            return;
        };
        let guest = cols.is_guest(i);
        self.captures += u64::from(!guest);
        let host_id = match guest {
            true => self.guest_hosts.id(host) | GUEST_HOST,
            false => self.hosts.id(host),
        };
        let time = cols.time.filter(|a| a.is_valid(i)).map(|a| a.value(i));
        // A redirect's URL is kept whole: the resolver reads it (`Index::redirect`).
        let https = robots_url_of(c.url, host).filter(|_| !c.redirect);
        let seen = Seen {
            file: self
                .files
                .id(Columns::get(cols.file, i).unwrap_or_default()),
            offset: cols
                .offset
                .filter(|a| a.is_valid(i))
                .map_or(0, |a| a.value(i)),
            time: time.unwrap_or_default(),
            has_time: time.is_some(),
            host: host_id,
            domain: match Columns::get(cols.domain, i) {
                None => Domain::None,
                Some(d) if host.ends_with(d) && d.len() <= usize::from(u16::MAX) => {
                    Domain::EndOfHost(d.len() as u16)
                }
                Some(d) => Domain::Other(self.domains.id(d)),
            },
            outcome: Columns::get(Some(cols.outcome), i).map(|o| self.outcomes.id(o)),
            url: https.is_none().then(|| c.url.into()),
            https: https == Some(true),
            redirect: c.redirect,
            location: c.location.map(Into::into),
            mistakes: cols.mistakes(i),
        };
        if self.originals.any() {
            self.note_revisit(cols, i, host, &seen);
        }
        if self.target_hosts.contains(host) {
            if let Some(key) = redirects::url_key(c.url).filter(|k| self.targets.contains(k)) {
                let seen = seen.copy();
                match self.urls.entry(key) {
                    Entry::Vacant(v) => {
                        v.insert(Latest {
                            seen,
                            captures: 1,
                            outcomes: 0,
                        });
                    }
                    Entry::Occupied(mut o) => o.get_mut().keep(seen, &self.files),
                }
            }
        }
        if guest {
            // Only a redirect target or a revisit's original here: counted in its partition.
            return;
        }
        if let Some(o) = seen.outcome {
            let o = o as usize;
            if self.by_outcome.len() <= o {
                self.by_outcome.resize(o + 1, (0, None, None));
            }
            let c = &mut self.by_outcome[o];
            c.0 += 1;
            if let Some(t) = time {
                c.1 = Some(c.1.map_or(t, |f| f.min(t)));
                c.2 = Some(c.2.map_or(t, |l| l.max(t)));
            }
        }
        let bit = seen.outcome.filter(|&o| o < 32).map_or(0, |o| 1u32 << o);
        let first = Latest {
            seen,
            captures: 1,
            outcomes: bit,
        };
        if host_id as usize == self.latest.len() {
            self.latest.push(first);
            return;
        }
        let site = first.seen.site();
        let latest = &mut self.latest[host_id as usize];
        if latest.seen.site() == site {
            latest.keep(first.seen, &self.files);
            latest.outcomes |= bit;
            return;
        }
        match self.more_sites.entry((host_id, site)) {
            Entry::Vacant(v) => {
                v.insert(first);
            }
            Entry::Occupied(mut o) => {
                o.get_mut().keep(first.seen, &self.files);
                o.get_mut().outcomes |= bit;
            }
        }
    }

    /// The hosts with more than one site, and their other sites, in order.
    pub(super) fn other_sites(&self) -> FxHashMap<u32, Vec<Site>> {
        let mut by_host: FxHashMap<u32, Vec<Site>> = FxHashMap::default();
        for &(host, site) in self.more_sites.keys() {
            by_host.entry(host).or_default().push(site);
        }
        for sites in by_host.values_mut() {
            sites.sort_unstable();
        }
        by_host
    }

    /// Each site of host `id` (`others` its other sites, from [`Self::other_sites`]) with its
    /// latest capture, in order (http before https, then by port), into `sites` (one buffer
    /// for every host: a crawl has millions).
    fn sites_of<'s>(
        &'s self,
        id: u32,
        others: Option<&[Site]>,
        sites: &mut Vec<(Site, &'s Latest)>,
    ) {
        sites.clear();
        let first = &self.latest[id as usize];
        sites.push((first.seen.site(), first));
        if let Some(others) = others {
            for &site in others {
                sites.push((site, &self.more_sites[&(id, site)]));
            }
            sites.sort_unstable_by_key(|s| s.0);
        }
    }

    /// The site of `sites` a host's figures are those of, that of its latest capture, and the
    /// host's captures and the fetch outcomes they had (as [`Latest::outcomes`]) on all its
    /// sites.
    fn host_site<'s>(&self, sites: &[(Site, &'s Latest)]) -> (Site, &'s Latest, u32, u32) {
        let mut at = sites[0];
        let (mut captures, mut outcomes) = (0, 0);
        for &(site, latest) in sites {
            if latest.seen.is_after(&at.1.seen, &self.files) {
                at = (site, latest);
            }
            captures += latest.captures;
            outcomes |= latest.outcomes;
        }
        (at.0, at.1, captures, outcomes)
    }

    /// The fetch outcomes each host's captures had on all its sites (as [`Latest::outcomes`]).
    pub(super) fn host_outcomes(&self) -> Vec<u32> {
        let mut outcomes: Vec<u32> = self.latest.iter().map(|l| l.outcomes).collect();
        for (&(host, _), latest) in &self.more_sites {
            outcomes[host as usize] |= latest.outcomes;
        }
        outcomes
    }

    /// Keep what a revisit refers to, or a capture some revisit may stand for.
    fn note_revisit(&mut self, cols: &Columns<'_>, i: usize, host: &str, seen: &Seen) {
        let digest = Columns::get(cols.digest, i);
        let url = Columns::get(Some(cols.url), i).unwrap_or_default();
        if cols.is_revisit(i) {
            let key = |u: &str| redirects::url_key(u).map(String::into_boxed_str);
            let reference = Reference {
                url: key(url),
                refers_to: Columns::get(cols.refers_to, i).and_then(key),
                refers_to_date: cols
                    .refers_to_date
                    .filter(|a| a.is_valid(i))
                    .map(|a| a.value(i)),
                digest: digest.map(Into::into),
                time: seen.time(),
                status: cols.status(i),
            };
            self.revisits.insert((seen.file, seen.offset), reference);
        } else {
            let key = self
                .originals
                .wants_host(host)
                .then(|| redirects::url_key(url))
                .flatten();
            let status = cols.status(i);
            self.originals
                .offer(key.as_deref(), digest, seen.time(), status, || seen.copy());
        }
    }

    /// The capture that governs a host whose latest capture is `start`: the end of its chain
    /// of redirects, read through a revisit to the capture it stands for (whose own chain is
    /// followed on: a revisit of a redirect), and how a revisit met on the way was resolved.
    fn govern<'s>(&'s self, start: &'s Seen) -> (Effective<&'s Seen>, Option<Revisit>) {
        let mut e = redirects::follow(&self, start);
        let mut revisit = None;
        // A revisit never stands for a revisit, but its capture's chain may end at another:
        // as many rounds as hops, so that no crawl makes this loop for long.
        for _ in 0..redirects::MAX_HOPS {
            let Some((how, original)) = e.capture.and_then(|at| self.stands_for(at)) else {
                break;
            };
            revisit = Some(how);
            let Some(original) = original else {
                break;
            };
            let next = redirects::follow(&self, original);
            e = Effective {
                capture: next.capture,
                hops: e.hops.saturating_add(next.hops),
                cross_host: e.cross_host || next.cross_host,
                resolution: match next.resolution {
                    Resolution::Direct => e.resolution,
                    other => other,
                },
            };
        }
        (e, revisit)
    }

    /// When `s` is a revisit: the capture it stands for, and how that was found.
    fn stands_for(&self, s: &Seen) -> Option<(Revisit, Option<&Seen>)> {
        if s.outcome.is_none_or(|o| self.outcomes.get(o) != REVISIT) {
            return None;
        }
        Some(match self.revisits.get(&(s.file, s.offset)) {
            Some(r) => self.originals.resolve(r, |a, b| a.is_after(b, &self.files)),
            None => (Revisit::Unresolved, None),
        })
    }

    /// The name of host id `id` (a guest's too).
    fn host_name(&self, id: u32) -> &str {
        match id & GUEST_HOST {
            0 => self.hosts.get(id),
            _ => self.guest_hosts.get(id & !GUEST_HOST),
        }
    }

    fn domain<'s>(&'s self, host: &'s str, d: Domain) -> Option<&'s str> {
        match d {
            Domain::None => None,
            Domain::EndOfHost(n) => Some(&host[host.len() - usize::from(n)..]),
            Domain::Other(id) => Some(self.domains.get(id)),
        }
    }

    /// The crawl's hosts sorted by name: the order of `robots_hosts` and of the [`Governs`]
    /// made from them.
    pub(super) fn order(&self) -> Vec<u32> {
        use rayon::slice::ParallelSliceMut;
        // The first 16 bytes of each name, zero-padded and read as one number, order names as
        // their bytes do wherever they differ there; only names that share them are compared
        // whole. The sort then reads the array it moves, not 750,000 strings scattered in the
        // names' buffer.
        let mut hosts: Vec<(u128, &str, u32)> = (0..self.latest.len() as u32)
            .map(|id| {
                let host = self.hosts.get(id);
                (prefix_key(host), host, id)
            })
            .collect();
        hosts.par_sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
        hosts.into_iter().map(|h| h.2).collect()
    }

    /// Each host of `order` as the summaries see it (`governs`, in that order: by the site of
    /// its latest capture), each site of a host with more than one (`sites`, for the page
    /// verdicts), and what the hosts count.
    pub(super) fn governs(
        &self,
        crawl: &str,
        order: &[u32],
        governs: &mut Vec<Governs>,
        sites: &mut SiteGoverns,
        domains: &mut Names,
    ) -> CrawlHosts {
        let mut counts = CrawlHosts {
            crawl: crawl.to_string(),
            captures: self.captures,
            hosts: self.latest.len() as u64,
            sites: (self.latest.len() + self.more_sites.len()) as u64,
            partitions: 1,
            ..CrawlHosts::default()
        };
        let (others, mut all) = (self.other_sites(), Vec::new());
        governs.reserve(order.len());
        domains.reserve(order.len(), 16);
        for &host_id in order {
            self.sites_of(host_id, others.get(&host_id).map(Vec::as_slice), &mut all);
            let (site, latest, captures, _) = self.host_site(&all);
            let (g, e, revisit) = self.site_governs(host_id, site, latest, captures, domains);
            *counts.resolutions.entry(e.resolution).or_default() += 1;
            if let Some(r) = revisit {
                *counts.revisits.entry(r).or_default() += 1;
            }
            counts.cross_host += u64::from(e.cross_host && e.capture.is_some());
            governs.push(g);
            if all.len() > 1 {
                for &(site, latest) in &all {
                    let (g, _, _) =
                        self.site_governs(host_id, site, latest, latest.captures, domains);
                    sites.insert((host_id, site), g);
                }
            }
        }
        counts
    }

    /// What governs the site `site` of host `host_id`, whose latest capture is `latest`: as the
    /// summaries and the page verdicts see it, and how its chain of redirects ended.
    fn site_governs<'s>(
        &'s self,
        host_id: u32,
        site: Site,
        latest: &'s Latest,
        captures: u32,
        domains: &mut Names,
    ) -> (Governs, Effective<&'s Seen>, Option<Revisit>) {
        let host = self.hosts.get(host_id);
        let s = &latest.seen;
        let (e, revisit) = self.govern(s);
        let eff = e.capture.unwrap_or(s);
        // The file of the site, whose lines the line summaries count: its latest capture, or
        // the capture that one stands for when it is a revisit.
        let revisited = self.stands_for(s).and_then(|r| r.1);
        let file = revisited.unwrap_or(s);
        let g = Governs {
            host: host_id,
            site,
            wildcard_split: eff.mistakes & MISTAKE_SPLIT != 0,
            wildcard_with_ai: eff.mistakes & MISTAKE_AI != 0,
            group_split: group_split(eff.mistakes),
            cloudflare_managed: eff.mistakes & CLOUDFLARE_MANAGED != 0,
            cloudflare_contradicted: eff.mistakes & CLOUDFLARE_CONTRADICTED != 0,
            file: eff.file,
            offset: eff.offset,
            outcome: eff.outcome,
            resolution: e.resolution,
            revisit,
            latest_outcome: s.outcome,
            own_file: file.file,
            own_offset: file.offset,
            revisited_outcome: revisited.and_then(|r| r.outcome),
            captures,
            domain: domains.id(self.domain(host, s.domain).unwrap_or(host)),
        };
        (g, e, revisit)
    }

    /// The rows of `robots_hosts` of the hosts of `order`, a row per site, handed to `write` a
    /// batch at a time; `sets` holds each host's place in the crawl's distinct agent sets (in
    /// that order), and those sets, when known: they are those of the row that counts for the
    /// host (the summaries' sets), NULL on its other sites' rows.
    pub(super) fn rows(
        &self,
        crawl: &str,
        order: &[u32],
        sets: Option<(&[Option<u32>], &[super::block_sets::HostSets])>,
        mut write: impl FnMut(RecordBatch) -> Result<()>,
    ) -> Result<()> {
        let mut builder = RobotsHostsBuilder::default();
        let (mut url, mut effective_url) = (String::new(), String::new());
        let (others, mut all) = (self.other_sites(), Vec::new());
        for (k, &host_id) in order.iter().enumerate() {
            let host = self.hosts.get(host_id);
            self.sites_of(host_id, others.get(&host_id).map(Vec::as_slice), &mut all);
            let (host_site, ..) = self.host_site(&all);
            for &(site, latest) in &all {
                let s = &latest.seen;
                let (e, revisit) = self.govern(s);
                let eff = e.capture.unwrap_or(s);
                let revisited = self.stands_for(s).and_then(|r| r.1);
                let counts = site == host_site;
                let host_sets = sets
                    .filter(|_| counts)
                    .and_then(|(at, sets)| at[k].map(|i| &sets[i as usize]));
                let set = |kind: usize| host_sets.map(|s| s[kind]);
                let effective_host = if eff.host == s.host {
                    host
                } else {
                    self.host_name(eff.host)
                };
                builder.append(&RobotsHostRow {
                    host: Some(host),
                    scheme: Some(site.scheme()),
                    port: Some(i32::from(site.port)),
                    counts_for_host: Some(counts),
                    registered_domain: self.domain(host, s.domain),
                    captures: Some(latest.captures as i32),
                    warc_file: Some(self.files.get(s.file)),
                    warc_offset: Some(s.offset),
                    url: Some(s.url(host, &mut url)),
                    capture_time: s.time(),
                    fetch_outcome: text(&self.outcomes, s.outcome),
                    resolution: Some(e.resolution.as_str()),
                    hops: Some(i32::from(e.hops)),
                    cross_host: Some(e.cross_host),
                    revisit: revisit.map(Revisit::as_str),
                    revisited_warc_file: revisited.map(|r| self.files.get(r.file)),
                    revisited_warc_offset: revisited.map(|r| r.offset),
                    revisited_fetch_outcome: revisited
                        .and_then(|r| text(&self.outcomes, r.outcome)),
                    effective_warc_file: Some(self.files.get(eff.file)),
                    effective_warc_offset: Some(eff.offset),
                    effective_url: Some(eff.url(effective_host, &mut effective_url)),
                    effective_host: Some(effective_host),
                    effective_fetch_outcome: text(&self.outcomes, eff.outcome),
                    block_set: set(0),
                    full_block_by_name_set: set(1),
                    own_group_root_set: set(2),
                    named_set: set(3),
                    rfc9309_root_set: set(4),
                });
                if builder.len() >= BATCH_ROWS {
                    write(builder.finish(crawl))?;
                }
            }
        }
        if !builder.is_empty() {
            write(builder.finish(crawl))?;
        }
        Ok(())
    }
}

/// What governs each site of the hosts that have more than one, by host id and site.
pub(super) type SiteGoverns = FxHashMap<(u32, Site), Governs>;

fn text(names: &Names, id: Option<u32>) -> Option<&str> {
    id.map(|i| names.get(i))
}

/// Rows per batch of `robots_hosts`.
const BATCH_ROWS: usize = 1 << 16;

/// A capture kept by a [`CrawlIndex`] (a host's latest, or a redirect target's latest) is named
/// by reference.
impl<'s> Index for &'s CrawlIndex {
    type Id = &'s Seen;
    fn redirect(&self, s: &'s Seen) -> Option<Capture<'_>> {
        if !s.redirect {
            return None;
        }
        Some(Capture {
            // `CrawlIndex::add` keeps a redirect's URL whole.
            url: s.url.as_deref().expect("a redirect keeps its URL"),
            redirect: true,
            location: s.location.as_deref(),
        })
    }
    fn find(&self, key: &str) -> Option<&'s Seen> {
        self.urls.get(key).map(|l| &l.seen)
    }
}

//! `summary_agents`: the hosts of a crawl per tracked agent, by the verdicts of the capture that
//! governs each host (`robots_hosts`), in a table of a few thousand rows whatever the crawl's
//! size, so the headline shares read it instead of joining `robots_hosts` with `agent_verdicts`
//! (a row per capture and agent).
//!
//! A capture's verdicts come from its `agent_verdict_runs` rows: runs of agents in registry
//! order sharing their verdict columns, a few per capture. The runs of a capture are its
//! *profile*; hosts are tallied by (profile, governing capture's fetch outcome, resolution),
//! and each tally is spread over its agents only once at the end. Many hosts share a profile
//! (every file that names no tracked agent and disallows the same way), so the work grows with
//! the crawl's captures (reading the runs) and hosts (one lookup each), not hosts × agents.

use super::block_sets::{BlockSets, HostSets, SetKind};
use super::classes::{Class, Classes, Run};
use super::content_usage::{ContentUsage, Usage};
use super::groups::{GroupFold, Groups};
use super::pairs;
use super::read::{read_beside, summary_part, Governs, Slots};
use super::redirects::Resolution;
use crate::agents::{Agent, Registry};
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartRef};
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::{SummaryAgentRow, SummaryAgentsBuilder, Table};
use anyhow::{bail, Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use rustc_hash::FxHashMap;

/// The tables derived here, from `agent_verdict_runs`.
pub const TABLES: [Table; 6] = [
    Table::SummaryAgents,
    Table::SummaryAgentGroups,
    Table::SummaryAgentPairs,
    Table::SummaryAgentDomains,
    Table::SummaryAgentContentUsage,
    Table::SummaryBlockSets,
];

/// What deriving `summary_agents` did for one crawl.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrawlAgents {
    /// Rows written.
    pub rows: u64,
    /// Hosts tallied.
    pub hosts: u64,
    /// Rows of `summary_agent_groups` written.
    pub group_rows: u64,
    /// Rows of `summary_agent_pairs` and `summary_agent_domains` written.
    pub pair_rows: u64,
    pub domain_rows: u64,
    /// Rows of `summary_agent_content_usage` and `summary_block_sets` written.
    pub content_usage_rows: u64,
    pub block_set_rows: u64,
    /// Hosts whose governing capture has no `agent_verdict_runs` rows (its input was scanned
    /// without verdicts): they are in no row.
    pub hosts_without_verdicts: u64,
}

/// A capture that governs hosts: its fetch outcome, its hosts by how their redirects ended (in
/// the order of [`Resolution::ALL`]), and whether its runs were found.
struct Governed {
    outcome: Option<u32>,
    hosts: [u32; Resolution::ALL.len()],
    found: bool,
    /// The capture's profile (its runs), once found.
    profile: u32,
    /// Its `robots_files.wildcard_split` or `wildcard_with_ai` is set.
    flagged: bool,
}

/// The distinct sets of runs of the crawl's governing captures, each with its `*` reading.
#[derive(Default)]
struct Profiles {
    runs: Vec<Vec<Run>>,
    /// Per profile, the class of its `*` reading ([`Classes::star_class`]): `singled_out` and
    /// `summary_agent_groups.star_verdict` read it.
    stars: Vec<Option<u32>>,
    ids: FxHashMap<Vec<Run>, u32>,
}

impl Profiles {
    fn id(&mut self, runs: &[Run], classes: &Classes) -> u32 {
        if let Some(&id) = self.ids.get(runs) {
            return id;
        }
        let id = self.runs.len() as u32;
        self.runs.push(runs.to_vec());
        self.stars.push(classes.star_class(runs));
        self.ids.insert(runs.to_vec(), id);
        id
    }
}

/// Hosts by run of agents, governing capture's fetch outcome, resolution and `singled_out`:
/// all of them, and those whose capture is flagged (`hosts_wildcard_flagged`).
type RunTally = FxHashMap<(Run, Option<u32>, Resolution, Option<bool>), [i64; 2]>;

/// The columns of `agent_verdict_runs` the derivation reads.
pub(super) const RUN_COLUMNS: [&str; 14] = [
    "warc_file",
    "warc_offset",
    "agent_index",
    "agent",
    "agents",
    "named",
    "named_exact",
    "verdict_source",
    "root_allowed",
    "verdict",
    "verdict_rfc9309",
    "verdict_documented",
    "verdict_documented_source",
    "content_usage",
];

/// Remove the crawl's parts of the tables derived here (it has no runs).
pub fn remove(out: &OutDir, crawl: &str) -> Result<()> {
    for t in TABLES {
        out.remove_parts(t.name(), crawl)?;
    }
    Ok(())
}

/// The agent summaries of a crawl being counted: the hosts of each partition of the crawl are
/// added in turn ([`Agents::add`]), and the tables written once ([`Agents::finish`]).
#[derive(Default)]
pub struct Agents {
    classes: Classes,
    tally: RunTally,
    /// The profiles of the partition being added and its hosts by profile: folded into
    /// `groups`, `pairs` and `domains` at the end of [`Agents::add`], so that one partition's
    /// are held at a time.
    profiles: Profiles,
    by_profile: FxHashMap<(u32, Option<u32>, Resolution), i64>,
    groups: GroupFold,
    pairs: pairs::PairFold,
    domains: pairs::DomainTally,
    usage: ContentUsage,
    block_sets: BlockSets,
    /// Per profile, its sets' place in `host_sets`, once asked for.
    profile_sets: Vec<Option<u32>>,
    /// The distinct [`HostSets`] of the partition being added, and each one's place: taken
    /// with its hosts' rows ([`Agents::take_host_sets`]), so that a crawl's are never held
    /// whole (at ten times the benchmark, 2 million tuples held crawl-wide cost 150 MB).
    host_sets: Vec<HostSets>,
    host_set_ids: FxHashMap<HostSets, u32>,
    /// Some `robots_files` part read had no accidental-block flags (schema 11 and before):
    /// `hosts_wildcard_flagged` is NULL.
    flags_unknown: bool,
    counts: CrawlAgents,
}

impl Agents {
    /// Whether the `robots_files` parts of the hosts added had the accidental-block flags
    /// (`host_index::CrawlIndex::mistakes_known`).
    pub fn flags_known(&mut self, known: bool) {
        self.flags_unknown |= !known;
    }

    /// Count the hosts of `governs` by the runs of their governing captures in `parts` (read
    /// from `out`). Each host's sets, as a place in [`Agents::host_sets`] (in the order of
    /// `governs`; `None` for a capture without runs).
    pub fn add(
        &mut self,
        out: &OutDir,
        parts: &[PartRef],
        governs: &[Governs],
        files: &mut Names,
        outcomes: &Names,
        registry: &Registry,
    ) -> Result<Vec<Option<u32>>> {
        let (mut slots, mut governed, slot_of_host) = governing_captures(governs);
        let (tally, profiles, usage) = (&mut self.tally, &mut self.profiles, &mut self.usage);
        let mut usage_missing = false;
        read_runs(
            out,
            parts,
            registry,
            files,
            &mut self.classes,
            |classes, capture| {
                let Some(s) = slots.find(capture.file, capture.offset) else {
                    return;
                };
                let g = &mut governed[s as usize];
                if g.found {
                    return;
                }
                g.found = true;
                g.profile = profiles.id(&capture.runs, classes);
                let star = profiles.stars[g.profile as usize];
                add_capture(tally, classes, outcomes, g, &capture.runs, star);
                if is_2xx(g.outcome, outcomes) {
                    usage.add(&capture.usages, g.hosts.iter().map(|&n| i64::from(n)).sum());
                }
            },
            || usage_missing = true,
        )?;
        if usage_missing {
            self.usage.unknown();
        }
        // Places in this partition's sets: those of an earlier partition are taken or dropped.
        self.host_sets.clear();
        self.host_set_ids.clear();
        let mut sets: Vec<Option<u32>> = Vec::with_capacity(governed.len());
        for g in &governed {
            let hosts: u64 = g.hosts.iter().map(|&n| u64::from(n)).sum();
            if !g.found {
                self.counts.hosts_without_verdicts += hosts;
                sets.push(None);
                continue;
            }
            self.counts.hosts += hosts;
            let set = self.sets_of(g.profile, registry)?;
            let is_2xx = is_2xx(g.outcome, outcomes);
            let block_set = self.host_sets[set as usize][0];
            self.block_sets.add_hosts(block_set, hosts as i64, is_2xx);
            sets.push(Some(set));
            for (&resolution, &n) in Resolution::ALL.iter().zip(&g.hosts) {
                if n > 0 {
                    *self
                        .by_profile
                        .entry((g.profile, g.outcome, resolution))
                        .or_default() += i64::from(n);
                }
            }
        }
        // A registered domain's hosts are all in one partition (`super::partitions`).
        let domains = domain_profiles(governs, &slot_of_host, &governed, outcomes);
        let (runs, classes) = (&self.profiles.runs, &self.classes);
        self.domains
            .add(&domains, registry.agents.len(), runs, classes);
        let stars = &self.profiles.stars;
        Groups::of(registry).fold(
            &mut self.groups,
            runs,
            stars,
            classes,
            &self.by_profile,
            outcomes,
        );
        self.pairs.add(registry, runs, classes, &self.by_profile);
        // The partition's profiles are folded: the next partition's are its own.
        self.profiles = Profiles::default();
        self.by_profile.clear();
        self.profile_sets.clear();
        Ok(slot_of_host.iter().map(|&s| sets[s as usize]).collect())
    }

    /// The distinct sets of the hosts of the last [`Agents::add`], by the places it gave;
    /// the next `add` starts again.
    pub fn take_host_sets(&mut self) -> Vec<HostSets> {
        self.host_set_ids = FxHashMap::default();
        std::mem::take(&mut self.host_sets)
    }

    /// The place in `host_sets` of the sets of profile `profile`: the agents it fully blocks
    /// (`block_set`), and those of each other [`SetKind`].
    fn sets_of(&mut self, profile: u32, registry: &Registry) -> Result<u32> {
        let p = profile as usize;
        if self.profile_sets.len() <= p {
            self.profile_sets.resize(p + 1, None);
        }
        if let Some(k) = self.profile_sets[p] {
            return Ok(k);
        }
        let mut sets: HostSets = [0; 5];
        for (slot, &kind) in sets.iter_mut().zip(SetKind::ALL) {
            let classes = &self.classes;
            let agents: Vec<u16> = (self.profiles.runs[p].iter())
                .filter(|r| in_set(classes, classes.get(r.2), kind))
                .flat_map(|&(first, n, _)| first..first + n)
                .collect();
            *slot = self.block_sets.id(&agents, registry)?;
        }
        let next = self.host_sets.len() as u32;
        let k = *self.host_set_ids.entry(sets).or_insert(next);
        if k == next {
            self.host_sets.push(sets);
        }
        self.profile_sets[p] = Some(k);
        Ok(k)
    }

    /// Write the tables counted, and commit them together.
    pub fn finish(
        self,
        out: &OutDir,
        crawl: &str,
        outcomes: &Names,
        registry: &Registry,
    ) -> Result<CrawlAgents> {
        let Agents {
            mut classes,
            tally,
            profiles: _,
            by_profile: _,
            groups: group_fold,
            pairs: pair_fold,
            domains,
            usage,
            block_sets,
            profile_sets: _,
            host_sets: _,
            host_set_ids: _,
            flags_unknown,
            mut counts,
        } = self;
        let groups = Groups::of(registry);
        let group_rows = groups.rows(&group_fold, &classes, outcomes);
        let not_honored: Vec<bool> = (registry.agents.iter())
            .map(Agent::ignores_robots_txt)
            .collect();
        let usage_rows = usage.rows(registry, &classes);
        let rows = spread(&mut classes, outcomes, tally, &not_honored);
        let mut builder = SummaryAgentsBuilder::default();
        for ((agent, outcome, resolution, class, singled_out), hosts) in &rows {
            let a = &registry.agents[*agent as usize];
            let c = classes.get(*class);
            builder.append(&SummaryAgentRow {
                agent: Some(&a.name),
                agent_index: Some(i32::from(*agent)),
                agent_category: Some(&a.category),
                operator: Some(&a.operator),
                fetch_outcome: outcome.map(|o| outcomes.get(o)),
                resolution: Some(resolution.as_str()),
                verdict: classes.text(c.verdict),
                verdict_rfc9309: classes.text(c.verdict_rfc9309),
                verdict_documented: classes.text(c.verdict_documented),
                verdict_source: classes.text(c.source),
                verdict_documented_source: classes.text(c.documented_source),
                named: c.named,
                named_exact: c.named_exact,
                root_allowed: c.root_allowed,
                singled_out: *singled_out,
                hosts: Some(hosts[0]),
                hosts_wildcard_flagged: (!flags_unknown).then_some(hosts[1]),
            });
        }
        let pair_rows = pairs::pair_rows(&pair_fold, registry, &classes, outcomes);
        let domain_rows = domains.rows(registry);
        let parts = [
            summary_part(out, crawl, builder)?,
            summary_part(out, crawl, group_rows)?,
            summary_part(out, crawl, pair_rows)?,
            summary_part(out, crawl, domain_rows)?,
            summary_part(out, crawl, usage_rows)?,
            summary_part(out, crawl, block_sets.rows(registry))?,
        ];
        [
            counts.rows,
            counts.group_rows,
            counts.pair_rows,
            counts.domain_rows,
            counts.content_usage_rows,
            counts.block_set_rows,
        ] = parts.each_ref().map(|p| p.1);
        out.commit(parts.into_iter().map(|p| p.0).collect())?;
        Ok(counts)
    }
}

/// The (domain, profile) of each host whose governing capture is a 2xx (and has verdicts),
/// sorted and without repeats: each domain's distinct profiles, one after another.
fn domain_profiles(
    governs: &[Governs],
    slot_of_host: &[u32],
    governed: &[Governed],
    outcomes: &Names,
) -> Vec<(u32, u32)> {
    let is_2xx: Vec<bool> = (0..outcomes.len() as u32)
        .map(|o| FetchOutcome::is_2xx_name(outcomes.get(o)))
        .collect();
    let mut pairs: Vec<(u32, u32)> = governs
        .iter()
        .zip(slot_of_host)
        .filter(|(g, _)| g.outcome.is_some_and(|o| is_2xx[o as usize]))
        .filter_map(|(g, &s)| {
            let c = &governed[s as usize];
            c.found.then_some((g.domain, c.profile))
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// The captures that govern some host, each with its hosts, and where to find each by file
/// and offset.
/// Also each host's slot (by its place in `governs`).
fn governing_captures(governs: &[Governs]) -> (Slots, Vec<Governed>, Vec<u32>) {
    // Sorted by file and offset, hosts of one capture together; slots are numbered in that
    // order, as they are looked up, so the captures' hosts are read one after another too.
    let mut order: Vec<u32> = (0..governs.len() as u32).collect();
    order.sort_unstable_by_key(|&h| (governs[h as usize].file, governs[h as usize].offset));
    let mut by_file: Vec<Vec<(i64, u32)>> = Vec::new();
    let mut governed: Vec<Governed> = Vec::new();
    let mut slot_of_host = vec![0u32; governs.len()];
    for h in order {
        let g = &governs[h as usize];
        let f = g.file as usize;
        if by_file.len() <= f {
            by_file.resize_with(f + 1, Vec::new);
        }
        if by_file[f].last().is_none_or(|e| e.0 != g.offset) {
            by_file[f].push((g.offset, governed.len() as u32));
            governed.push(Governed {
                outcome: g.outcome,
                hosts: [0; Resolution::ALL.len()],
                found: false,
                profile: 0,
                flagged: g.wildcard_split || g.wildcard_with_ai,
            });
        }
        slot_of_host[h as usize] = (governed.len() - 1) as u32;
        let last = governed.last_mut().expect("pushed");
        last.hosts[g.resolution as usize] += 1;
    }
    (Slots::new(by_file), governed, slot_of_host)
}

/// Whether a fetch outcome (an id of `outcomes`) is a 2xx one ([`FetchOutcome::is_2xx_name`]).
fn is_2xx(outcome: Option<u32>, outcomes: &Names) -> bool {
    outcome.is_some_and(|o| FetchOutcome::is_2xx_name(outcomes.get(o)))
}

/// Add the hosts a capture governs, `g`, to `tally` by the capture's runs.
fn add_capture(
    tally: &mut RunTally,
    classes: &Classes,
    outcomes: &Names,
    g: &Governed,
    runs: &[Run],
    star_class: Option<u32>,
) {
    let is_2xx = is_2xx(g.outcome, outcomes);
    // The `*` reading (the class of the profile's `star_class`), for a 2xx capture that
    // leaves some agent to it.
    let star = star_class
        .map(|c| classes.traits(c).strictness)
        .filter(|_| is_2xx);
    for &run in runs {
        let t = classes.traits(run.2);
        let singled_out = star.map(|s| t.specific && t.strictness > s);
        for (&resolution, &hosts) in Resolution::ALL.iter().zip(&g.hosts) {
            if hosts > 0 {
                let t = tally
                    .entry((run, g.outcome, resolution, singled_out))
                    .or_default();
                t[0] += i64::from(hosts);
                t[1] += i64::from(if g.flagged { hosts } else { 0 });
            }
        }
    }
}

/// A summary row's key: agent (registry position), fetch outcome, resolution, class,
/// `singled_out`.
type RowKey = (u16, Option<u32>, Resolution, u32, Option<bool>);

/// Spread each run's tally over its agents: the rows of `summary_agents`, in registry order,
/// then by their other columns. An agent that does not honour robots.txt (`not_honored`, by
/// registry position) reads `not_honored` in the documented reading.
fn spread(
    classes: &mut Classes,
    outcomes: &Names,
    tally: RunTally,
    not_honored: &[bool],
) -> Vec<(RowKey, [i64; 2])> {
    let ignoring = classes.not_honored();
    let mut rows: FxHashMap<RowKey, [i64; 2]> = FxHashMap::default();
    for (((first, n, class), outcome, resolution, singled_out), hosts) in tally {
        for agent in first..first + n {
            let class = match not_honored[usize::from(agent)] {
                true => ignoring[class as usize],
                false => class,
            };
            let row = rows
                .entry((agent, outcome, resolution, class, singled_out))
                .or_default();
            row[0] += hosts[0];
            row[1] += hosts[1];
        }
    }
    let mut rows: Vec<(RowKey, [i64; 2])> = rows.into_iter().collect();
    let text = |id: Option<u32>| classes.text(id);
    rows.sort_unstable_by(|(a, _), (b, _)| {
        let of = |k: &RowKey| {
            let c = classes.get(k.3);
            (
                k.0,
                k.1.map(|o| outcomes.get(o)),
                k.2,
                text(c.verdict),
                text(c.verdict_rfc9309),
                text(c.verdict_documented),
                text(c.source),
                text(c.documented_source),
                (c.named, c.named_exact, c.root_allowed, k.4),
            )
        };
        of(a).cmp(&of(b))
    });
    rows
}

/// A capture of `agent_verdict_runs`: its file (an id of the crawl's `files`), offset, runs
/// (joined where only columns the summaries do not read split them) and the runs of its
/// agents with a `content_usage`.
pub(super) struct CaptureRuns {
    file: u32,
    offset: i64,
    runs: Vec<Run>,
    usages: Vec<Usage>,
}

/// Read the crawl's `agent_verdict_runs` parts and hand `use_runs` each capture. A capture's
/// rows are written together, so they are read one after another (across batches, never
/// across parts). String columns are read as dictionaries and their few values translated once
/// per batch. `no_usage` is called for each part without a `content_usage` column.
fn read_runs(
    out: &OutDir,
    parts: &[PartRef],
    registry: &Registry,
    files: &mut Names,
    classes: &mut Classes,
    mut use_runs: impl FnMut(&Classes, &CaptureRuns),
    mut no_usage: impl FnMut(),
) -> Result<()> {
    let mut capture = CaptureRuns {
        file: 0,
        offset: 0,
        runs: Vec::new(),
        usages: Vec::new(),
    };
    let mut started = false;
    // The part of the last batch: a capture's rows never span two parts.
    let mut last_part: *const PartRef = std::ptr::null();
    let mut finish = |c: &mut CaptureRuns, started: &mut bool, classes: &Classes| -> Result<()> {
        if std::mem::take(started) {
            let covered: usize = c.runs.iter().map(|r| usize::from(r.1)).sum();
            if covered != registry.agents.len() {
                bail!(
                    "the agent_verdict_runs rows of a capture (offset {}) cover {covered} \
                     agents, the registry has {}: the crawl's verdicts were made with another \
                     agent registry (give `repcensus hosts` the scan's --agents FILE)",
                    c.offset,
                    registry.agents.len()
                );
            }
            use_runs(classes, c);
        }
        c.runs.clear();
        c.usages.clear();
        Ok(())
    };
    let mut cols = RunColumns::default();
    read_beside(
        out,
        parts,
        &RUN_COLUMNS,
        &DICTIONARY_COLUMNS,
        |part, batch| {
            if !std::ptr::eq(part, last_part) {
                finish(&mut capture, &mut started, classes)?;
                last_part = part;
            }
            cols.read(batch, part, files, classes)?;
            if cols.usage.is_none() {
                no_usage();
            }
            for i in 0..batch.num_rows() {
                let at = (cols.file[i], cols.offset[i]);
                if !started || (capture.file, capture.offset) != at {
                    finish(&mut capture, &mut started, classes)?;
                    (capture.file, capture.offset, started) = (at.0, at.1, true);
                }
                // Runs split by columns the summaries do not read (rules, crawl delay,
                // application directives, content usage) join again: a profile is the same
                // whatever those columns say.
                let run = cols.run(i, registry, classes, part)?;
                if let Some(u) = cols.usage.as_ref().and_then(|u| u[i]) {
                    capture.usages.push((run.0, run.1, u));
                }
                match capture.runs.last_mut() {
                    Some(last) if last.2 == run.2 && last.0 + last.1 == run.0 => last.1 += run.1,
                    _ => capture.runs.push(run),
                }
            }
            Ok(())
        },
    )?;
    finish(&mut capture, &mut started, classes)
}

/// The string columns of `agent_verdict_runs` read as dictionaries.
const DICTIONARY_COLUMNS: [&str; 8] = [
    "content_usage",
    "warc_file",
    "agent",
    "verdict_source",
    "verdict",
    "verdict_rfc9309",
    "verdict_documented",
    "verdict_documented_source",
];

/// A batch of `agent_verdict_runs`, its strings as ids: file ids of the crawl's `files`,
/// verdict strings as ids of [`Classes::names`].
#[derive(Default)]
struct RunColumns {
    file: Vec<u32>,
    offset: Vec<i64>,
    agent_index: Vec<i32>,
    agents: Vec<i32>,
    /// The agent names of the batch's dictionary, and each row's key into them.
    agent_names: Vec<String>,
    agent: Vec<usize>,
    flags: [Vec<Option<bool>>; 3],
    texts: [Vec<Option<u32>>; 5],
    /// `content_usage` as ids of [`Classes::names`]; `None` for a part without the column
    /// (schema 14 and before).
    usage: Option<Vec<Option<u32>>>,
}

impl RunColumns {
    fn read(
        &mut self,
        batch: &RecordBatch,
        part: &PartRef,
        files: &mut Names,
        classes: &mut Classes,
    ) -> Result<()> {
        let missing = |c: &str| super::tally::missing(part, c);
        let col = |c: &str| batch.column_by_name(c).with_context(|| missing(c));
        let dict = |c: &str| {
            col(c)?
                .as_dictionary_opt::<Int32Type>()
                .with_context(|| missing(c))
        };
        let ints = |c: &str, to: &mut Vec<i32>| -> Result<()> {
            let a = col(c)?
                .as_primitive_opt::<Int32Type>()
                .with_context(|| missing(c))?;
            if a.null_count() > 0 {
                bail!("{}: NULL in column {c}", part.name());
            }
            to.clear();
            to.extend_from_slice(a.values());
            Ok(())
        };
        ints("agent_index", &mut self.agent_index)?;
        ints("agents", &mut self.agents)?;
        let offset = (col("warc_offset")?.as_primitive_opt::<Int64Type>())
            .with_context(|| missing("warc_offset"))?;
        self.offset.clear();
        self.offset.extend_from_slice(offset.values());
        // Each dictionary column's rows as ids, its values translated once.
        let keyed = |c: &str, id: &mut dyn FnMut(&str) -> u32| -> Result<Vec<Option<u32>>> {
            let d = dict(c)?;
            let values = d
                .values()
                .as_string_opt::<i32>()
                .with_context(|| missing(c))?;
            let ids: Vec<u32> = (0..values.len()).map(|v| id(values.value(v))).collect();
            Ok(d.keys()
                .iter()
                .map(|k| k.map(|k| ids[k as usize]))
                .collect())
        };
        let file = keyed("warc_file", &mut |f| files.id(f))?;
        let mut names = Vec::new();
        let agent = keyed("agent", &mut |a| {
            names.push(a.to_string());
            (names.len() - 1) as u32
        })?;
        let (Some(file), Some(agent)) = (
            file.into_iter().collect::<Option<Vec<u32>>>(),
            agent.into_iter().collect::<Option<Vec<u32>>>(),
        ) else {
            bail!("{}: NULL in column warc_file or agent", part.name());
        };
        self.file = file;
        self.agent = agent.into_iter().map(|a| a as usize).collect();
        self.agent_names = names;
        for (k, c) in [
            "verdict_source",
            "verdict",
            "verdict_rfc9309",
            "verdict_documented",
            "verdict_documented_source",
        ]
        .into_iter()
        .enumerate()
        {
            self.texts[k] = keyed(c, &mut |v| classes.names.id(v))?;
        }
        self.usage = match batch.column_by_name("content_usage") {
            None => None,
            Some(_) => Some(keyed("content_usage", &mut |v| classes.names.id(v))?),
        };
        for (k, c) in ["named", "named_exact", "root_allowed"]
            .into_iter()
            .enumerate()
        {
            let a = col(c)?.as_boolean_opt().with_context(|| missing(c))?;
            self.flags[k].clear();
            self.flags[k].extend(a.iter());
        }
        Ok(())
    }

    /// Row `i` as a run, checked against the registry: its agents must be the registry's at
    /// those places.
    fn run(
        &self,
        i: usize,
        registry: &Registry,
        classes: &mut Classes,
        part: &PartRef,
    ) -> Result<Run> {
        let (first, n) = (self.agent_index[i], self.agents[i]);
        let agent = &self.agent_names[self.agent[i]];
        let fits = first >= 0 && n > 0 && (first as usize + n as usize) <= registry.agents.len();
        if !fits || registry.agents[first as usize].name != *agent {
            bail!(
                "{}: agent_verdict_runs names {agent} at registry position {first} ({n} agents), \
                 which this registry does not: the crawl's verdicts were made with another agent \
                 registry (give `repcensus hosts` the scan's --agents FILE)",
                part.name()
            );
        }
        let class = Class {
            named: self.flags[0][i],
            named_exact: self.flags[1][i],
            source: self.texts[0][i],
            root_allowed: self.flags[2][i],
            verdict: self.texts[1][i],
            verdict_rfc9309: self.texts[2][i],
            verdict_documented: self.texts[3][i],
            documented_source: self.texts[4][i],
        };
        Ok((first as u16, n as u16, classes.id(class)))
    }
}

/// Whether an agent of class `c` is in a host's set of kind `kind`.
fn in_set(classes: &Classes, c: &Class, kind: SetKind) -> bool {
    let is = |id: Option<u32>, text: &str| classes.text(id) == Some(text);
    let by_name = is(c.source, "specific");
    match kind {
        SetKind::FullBlock => is(c.verdict, "full_block"),
        SetKind::FullBlockByName => is(c.verdict, "full_block") && by_name,
        SetKind::OwnGroupRoot => by_name && c.root_allowed == Some(false),
        SetKind::Named => c.named == Some(true),
        SetKind::Rfc9309Root => {
            is(c.verdict_rfc9309, "full_block")
                || (is(c.verdict_rfc9309, "partial_block") && c.root_allowed == Some(false))
        }
    }
}

//! `summary_agents`: the hosts of a crawl per tracked agent, by the verdicts of the capture that
//! governs each host (`robots_hosts`), in a table of a few thousand rows whatever the crawl's
//! size, so the headline shares read it instead of joining `robots_hosts` with `agent_verdicts`
//! (215 rows per capture).
//!
//! A capture's verdicts come from its `agent_verdict_runs` rows: runs of agents in registry
//! order sharing their verdict columns, a few per capture. The runs of a capture are its
//! *profile*; hosts are tallied by (profile, governing capture's fetch outcome, resolution),
//! and each tally is spread over its agents only once at the end. Many hosts share a profile
//! (every file that names no tracked agent and disallows the same way), so the work grows with
//! the crawl's captures (reading the runs) and hosts (one lookup each), not hosts × agents.

use super::hosts::{read_beside, Governs};
use super::redirects::Resolution;
use crate::agents::Registry;
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartOutcome, PartRef};
use crate::tables::{SummaryAgentRow, SummaryAgentsBuilder, Table};
use anyhow::{bail, Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, BooleanArray, Int32Array, RecordBatch, StringArray};
use rustc_hash::FxHashMap;

/// What deriving `summary_agents` did for one crawl.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrawlAgents {
    /// Rows written.
    pub rows: u64,
    /// Hosts tallied.
    pub hosts: u64,
    /// Hosts whose governing capture has no `agent_verdict_runs` rows (its input was scanned
    /// without verdicts): they are in no row.
    pub hosts_without_verdicts: u64,
}

/// The fetch outcomes of a 2xx capture (or a resource record), whose body was parsed: the
/// denominators `hosts_2xx` and the `*` reading of [`SummaryAgentRow::singled_out`] use them.
pub const OUTCOMES_2XX: [&str; 4] = ["ok", "ok_empty", "not_robots_html", "not_robots_binary"];

/// The verdict columns of a run, each string as an id in [`Profiles::names`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Class {
    named: Option<bool>,
    named_exact: Option<bool>,
    source: Option<u32>,
    root_allowed: Option<bool>,
    verdict: Option<u32>,
    verdict_rfc9309: Option<u32>,
    verdict_documented: Option<u32>,
}

/// A run of agents: the first's registry position, how many, and their class.
type Run = (u16, u16, u32);

/// The profiles of the crawl's governing captures, interned.
#[derive(Default)]
struct Profiles {
    names: Names,
    classes: Vec<Class>,
    class_ids: FxHashMap<Class, u32>,
    runs: Vec<Vec<Run>>,
    ids: FxHashMap<Vec<Run>, u32>,
}

impl Profiles {
    fn class(&mut self, c: Class) -> u32 {
        *self.class_ids.entry(c).or_insert_with(|| {
            self.classes.push(c);
            (self.classes.len() - 1) as u32
        })
    }

    fn profile(&mut self, runs: &[Run]) -> u32 {
        if let Some(&id) = self.ids.get(runs) {
            return id;
        }
        let id = self.runs.len() as u32;
        self.runs.push(runs.to_vec());
        self.ids.insert(runs.to_vec(), id);
        id
    }

    fn text(&self, id: Option<u32>) -> Option<&str> {
        id.map(|i| self.names.get(i))
    }

    /// How strict a class's `verdict` is: full_block 2, partial_block 1, anything else 0 (the
    /// order `agents_singled_out.sql` states).
    fn strictness(&self, class: u32) -> u8 {
        match self.text(self.classes[class as usize].verdict) {
            Some("full_block") => 2,
            Some("partial_block") => 1,
            _ => 0,
        }
    }

    fn source(&self, class: u32) -> Option<&str> {
        self.text(self.classes[class as usize].source)
    }
}

/// The columns of `agent_verdict_runs` the derivation reads.
const RUN_COLUMNS: [&str; 12] = [
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
];

/// Derive the crawl's `summary_agents` part from its hosts (`governs`, one per host, with file
/// ids of `files` and outcome ids of `outcomes`) and its `agent_verdict_runs` parts, and commit
/// it (or remove the crawl's part when it has no runs). `None` when there were no runs.
pub fn derive_crawl(
    out: &OutDir,
    crawl: &str,
    governs: &[Governs],
    files: &mut Names,
    outcomes: &Names,
    registry: &Registry,
) -> Result<Option<CrawlAgents>> {
    let table = Table::SummaryAgents;
    let parts: Vec<PartRef> = (out.table_parts(Table::AgentVerdictRuns.name())?)
        .into_iter()
        .filter(|(c, _)| c == crawl)
        .map(|(_, p)| p)
        .collect();
    if parts.is_empty() {
        out.remove_parts(table.name(), crawl)?;
        return Ok(None);
    }
    // The captures that govern some host, each with a slot for its profile.
    let mut slot_of: FxHashMap<(u32, i64), u32> = FxHashMap::default();
    let host_slots: Vec<u32> = governs
        .iter()
        .map(|g| {
            let n = slot_of.len() as u32;
            *slot_of.entry((g.file, g.offset)).or_insert(n)
        })
        .collect();
    let mut profiles = Profiles::default();
    let mut slots: Vec<Option<u32>> = vec![None; slot_of.len()];
    read_profiles(
        out,
        &parts,
        registry,
        &mut profiles,
        |file, offset, profile| {
            if let Some(&s) = files.find(file).and_then(|f| slot_of.get(&(f, offset))) {
                slots[s as usize] = Some(profile);
            }
        },
    )?;
    let mut tally: FxHashMap<(u32, Option<u32>, Resolution), i64> = FxHashMap::default();
    let mut counts = CrawlAgents::default();
    for (g, &s) in governs.iter().zip(&host_slots) {
        match slots[s as usize] {
            Some(p) => *tally.entry((p, g.outcome, g.resolution)).or_default() += 1,
            None => counts.hosts_without_verdicts += 1,
        }
    }
    counts.hosts = governs.len() as u64 - counts.hosts_without_verdicts;
    let rows = spread(&profiles, outcomes, &tally);
    let mut builder = SummaryAgentsBuilder::default();
    for ((agent, outcome, resolution, class, singled_out), hosts) in &rows {
        let a = &registry.agents[*agent as usize];
        let c = &profiles.classes[*class as usize];
        builder.append(&SummaryAgentRow {
            agent: Some(&a.name),
            agent_category: Some(&a.category),
            operator: Some(&a.operator),
            fetch_outcome: outcome.map(|o| outcomes.get(o)),
            resolution: Some(resolution.as_str()),
            verdict: profiles.text(c.verdict),
            verdict_rfc9309: profiles.text(c.verdict_rfc9309),
            verdict_documented: profiles.text(c.verdict_documented),
            verdict_source: profiles.text(c.source),
            named: c.named,
            named_exact: c.named_exact,
            root_allowed: c.root_allowed,
            singled_out: *singled_out,
            hosts: Some(*hosts),
        });
    }
    counts.rows = rows.len() as u64;
    let part = if rows.is_empty() {
        PartOutcome::Empty(out.part_path(table.name(), crawl, crawl))
    } else {
        let mut part = out.part_writer(&table.desc(), crawl, crawl)?;
        part.write(&builder.finish(crawl))?;
        part.finish()?
    };
    out.commit(vec![part])?;
    Ok(Some(counts))
}

/// A summary row's key: agent (registry position), fetch outcome, resolution, class,
/// `singled_out`.
type RowKey = (u16, Option<u32>, Resolution, u32, Option<bool>);

/// Spread each tally over the agents of its profile: the rows of `summary_agents`, in registry
/// order, then by their other columns.
fn spread(
    profiles: &Profiles,
    outcomes: &Names,
    tally: &FxHashMap<(u32, Option<u32>, Resolution), i64>,
) -> Vec<(RowKey, i64)> {
    let mut rows: FxHashMap<RowKey, i64> = FxHashMap::default();
    for (&(profile, outcome, resolution), &hosts) in tally {
        let runs = &profiles.runs[profile as usize];
        let is_2xx = outcome.is_some_and(|o| OUTCOMES_2XX.contains(&outcomes.get(o)));
        // The `*` reading: the strictest verdict of the agents that no group names (those
        // decided by `*` or by no group), for a 2xx capture that leaves some agent to it.
        let star = runs
            .iter()
            .filter(|r| matches!(profiles.source(r.2), Some("wildcard" | "none")))
            .map(|r| profiles.strictness(r.2))
            .max()
            .filter(|_| is_2xx);
        for &(first, n, class) in runs {
            let singled_out = star.map(|s| {
                profiles.source(class) == Some("specific") && profiles.strictness(class) > s
            });
            for agent in first..first + n {
                *rows
                    .entry((agent, outcome, resolution, class, singled_out))
                    .or_default() += hosts;
            }
        }
    }
    let mut rows: Vec<(RowKey, i64)> = rows.into_iter().collect();
    let text = |id: Option<u32>| profiles.text(id);
    rows.sort_unstable_by(|(a, _), (b, _)| {
        let (ca, cb) = (
            &profiles.classes[a.3 as usize],
            &profiles.classes[b.3 as usize],
        );
        let of = |k: &RowKey, c: &Class| {
            (
                k.0,
                k.1.map(|o| outcomes.get(o)),
                k.2,
                text(c.verdict),
                text(c.verdict_rfc9309),
                text(c.verdict_documented),
                text(c.source),
                (c.named, c.named_exact, c.root_allowed, k.4),
            )
        };
        of(a, ca).cmp(&of(b, cb))
    });
    rows
}

/// Read the crawl's `agent_verdict_runs` parts and hand `use_profile` each capture's file,
/// offset and profile id. A capture's rows are written together, so they are read one after
/// another (across batches, never across parts).
fn read_profiles(
    out: &OutDir,
    parts: &[PartRef],
    registry: &Registry,
    profiles: &mut Profiles,
    mut use_profile: impl FnMut(&str, i64, u32),
) -> Result<()> {
    let mut capture: Option<(String, i64)> = None;
    let mut runs: Vec<Run> = Vec::new();
    let mut last_part = usize::MAX;
    let mut finish = |capture: &mut Option<(String, i64)>,
                      runs: &mut Vec<Run>,
                      profiles: &mut Profiles|
     -> Result<()> {
        if let Some((file, offset)) = capture.take() {
            let covered: usize = runs.iter().map(|r| usize::from(r.1)).sum();
            if covered != registry.agents.len() {
                bail!(
                    "agent_verdict_runs of {file} at {offset} cover {covered} agents, the \
                     registry has {}: the capture's rows were made with another agent registry \
                     (give `repcensus hosts` the scan's --agents FILE)",
                    registry.agents.len()
                );
            }
            let p = profiles.profile(runs);
            use_profile(&file, offset, p);
        }
        runs.clear();
        Ok(())
    };
    read_beside(out, parts, &RUN_COLUMNS, |part, batch| {
        let k = parts
            .iter()
            .position(|p| std::ptr::eq(p, part))
            .unwrap_or(0);
        if k != last_part {
            finish(&mut capture, &mut runs, profiles)?;
            last_part = k;
        }
        let cols = RunColumns::of(batch, part)?;
        for i in 0..batch.num_rows() {
            let (file, offset) = (cols.file.value(i), cols.offset.value(i));
            if capture
                .as_ref()
                .is_none_or(|(f, o)| *o != offset || f != file)
            {
                finish(&mut capture, &mut runs, profiles)?;
                capture = Some((file.to_string(), offset));
            }
            runs.push(cols.run(i, registry, profiles, part)?);
        }
        Ok(())
    })?;
    finish(&mut capture, &mut runs, profiles)
}

/// The columns of a batch of `agent_verdict_runs`.
struct RunColumns<'b> {
    file: &'b StringArray,
    offset: &'b arrow_array::Int64Array,
    agent_index: &'b Int32Array,
    agent: &'b StringArray,
    agents: &'b Int32Array,
    named: &'b BooleanArray,
    named_exact: &'b BooleanArray,
    source: &'b StringArray,
    root_allowed: &'b BooleanArray,
    verdict: &'b StringArray,
    verdict_rfc9309: &'b StringArray,
    verdict_documented: &'b StringArray,
}

impl<'b> RunColumns<'b> {
    fn of(batch: &'b RecordBatch, part: &PartRef) -> Result<Self> {
        let missing = |c: &str| format!("{}: no column {c} of the expected type", part.name());
        let col = |c: &str| batch.column_by_name(c).with_context(|| missing(c));
        let text = |c: &str| col(c)?.as_string_opt().with_context(|| missing(c));
        let int = |c: &str| (col(c)?.as_primitive_opt::<Int32Type>()).with_context(|| missing(c));
        let boolean = |c: &str| col(c)?.as_boolean_opt().with_context(|| missing(c));
        let cols = RunColumns {
            file: text("warc_file")?,
            offset: (col("warc_offset")?.as_primitive_opt::<Int64Type>())
                .with_context(|| missing("warc_offset"))?,
            agent_index: int("agent_index")?,
            agent: text("agent")?,
            agents: int("agents")?,
            named: boolean("named")?,
            named_exact: boolean("named_exact")?,
            source: text("verdict_source")?,
            root_allowed: boolean("root_allowed")?,
            verdict: text("verdict")?,
            verdict_rfc9309: text("verdict_rfc9309")?,
            verdict_documented: text("verdict_documented")?,
        };
        for (c, nulls) in [
            ("warc_file", cols.file.null_count()),
            ("warc_offset", cols.offset.null_count()),
            ("agent_index", cols.agent_index.null_count()),
            ("agent", cols.agent.null_count()),
            ("agents", cols.agents.null_count()),
        ] {
            if nulls > 0 {
                bail!("{}: NULL in column {c}", part.name());
            }
        }
        Ok(cols)
    }

    /// Row `i` as a run, checked against the registry: its agents must be the registry's at
    /// those places.
    fn run(
        &self,
        i: usize,
        registry: &Registry,
        profiles: &mut Profiles,
        part: &PartRef,
    ) -> Result<Run> {
        let (first, n) = (self.agent_index.value(i), self.agents.value(i));
        let agent = self.agent.value(i);
        let fits = first >= 0 && n > 0 && (first as usize + n as usize) <= registry.agents.len();
        if !fits || registry.agents[first as usize].name != agent {
            bail!(
                "{}: agent_verdict_runs names {agent} at registry position {first} ({n} agents), \
                 which this registry does not: the crawl's verdicts were made with another agent \
                 registry (give `repcensus hosts` the scan's --agents FILE)",
                part.name()
            );
        }
        let flag = |a: &BooleanArray| a.is_valid(i).then(|| a.value(i));
        let mut text = |a: &StringArray| a.is_valid(i).then(|| profiles.names.id(a.value(i)));
        let class = Class {
            named: flag(self.named),
            named_exact: flag(self.named_exact),
            source: text(self.source),
            root_allowed: flag(self.root_allowed),
            verdict: text(self.verdict),
            verdict_rfc9309: text(self.verdict_rfc9309),
            verdict_documented: text(self.verdict_documented),
        };
        Ok((first as u16, n as u16, profiles.class(class)))
    }
}

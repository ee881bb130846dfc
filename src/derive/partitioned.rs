//! A crawl derived in partitions of its hosts ([`super::partitions`] routes the rows): each
//! partition's `robots_hosts` rows, summary counts and `page_verdicts` rows, from its own
//! folder of spilled parts, added into the crawl's one part of each table.

use super::agent_summary::{self, Agents, CrawlAgents};
use super::host_counts::HostCounts;
use super::host_index::{read_partition, CrawlHosts, SiteGoverns};
use super::lines::{self, CrawlLines, Lines};
use super::page_verdicts;
use super::partitions::{self, CrawlParts, PartitionParts, Spill, Wants};
use super::tally::LineParts;
use crate::agents::Registry;
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartOutcome, PartRef};
use crate::tables::Table;
use anyhow::Result;

/// The crawl's parts in the output folder.
pub struct Inputs<'a> {
    pub robots_files: &'a [PartRef],
    pub runs: &'a [PartRef],
    pub lines: LineParts<'a>,
    pub pages: &'a [PartRef],
    pub inputs: &'a [PartRef],
}

/// What deriving a crawl in partitions did: its `robots_hosts` counts, and each summary's
/// outcome (its rows, or why it failed: its parts are then removed).
pub struct Derived {
    pub hosts: CrawlHosts,
    pub agents: Result<Option<CrawlAgents>, String>,
    pub lines: Result<CrawlLines, String>,
    pub pages: Result<page_verdicts::Derived, String>,
}

/// The stages after `robots_hosts`, each until it fails.
struct Stages {
    agents: Option<Result<Agents, String>>,
    lines: Result<Lines, String>,
    pages: Option<Result<page_verdicts::Rows, String>>,
}

/// Derive `crawl` in `partitions` partitions, spilled in parts of `spill_rows` rows
/// ([`super::partitions::Budget::spill_rows`]). An error is the crawl's (its parts could not be
/// read, or the output not written): nothing of it is committed.
pub fn derive_crawl(
    out: &OutDir,
    crawl: &str,
    inputs: &Inputs<'_>,
    registry: &Registry,
    page_agents: &[usize],
    (partitions, spill_rows): (u32, Option<usize>),
) -> Result<Derived> {
    let wants = Wants::find(out, inputs.robots_files, partitions)?;
    let root = partitions::spill_root(out, crawl);
    let mut spill = Spill::new(root, crawl, partitions, spill_rows);
    let l = &inputs.lines;
    let by_capture = [
        inputs.runs,
        l.agents,
        l.rules,
        l.app_directives,
        l.acap_fields,
    ];
    let parts = CrawlParts {
        robots_files: inputs.robots_files,
        by_capture,
        pages: inputs.pages,
    };
    partitions::route(out, &parts, &wants, &mut spill)?;
    give_back_memory();
    drop(wants);
    let real_pages = page_verdicts::Parts {
        pages: inputs.pages,
        robots_agents: l.agents,
        robots_rules: l.rules,
        inputs: inputs.inputs,
    };
    let pages_done = page_verdicts::nothing_to_derive(out, crawl, &real_pages, page_agents)?;
    let mut stages = Stages {
        agents: (!inputs.runs.is_empty()).then(|| Ok(Agents::default())),
        lines: Ok(Lines::default()),
        pages: match pages_done {
            Some(_) => None,
            None => Some(page_verdicts::Rows::new(out, crawl).map_err(|e| format!("{e:#}"))),
        },
    };
    let mut hosts_part = out.part_writer(&Table::RobotsHosts.desc(), crawl, crawl)?;
    let mut total = CrawlHosts {
        crawl: crawl.to_string(),
        partitions,
        ..CrawlHosts::default()
    };
    let mut counts = HostCounts::default();
    let (mut files, mut outcomes) = (Names::default(), Names::default());
    for p in 0..partitions {
        let folder = spill.folder(p);
        if !folder.is_dir() {
            continue;
        }
        OutDir::read_existing(&folder, |sp| {
            let parts = PartitionParts::of(sp)?;
            let mut index = read_partition(
                sp,
                &parts.robots_files,
                std::mem::take(&mut files),
                std::mem::take(&mut outcomes),
            )?;
            let (mut governs, mut domains) = (Vec::new(), Names::default());
            let order = index.order();
            let mut sites = SiteGoverns::default();
            let made = index.governs(crawl, &order, &mut governs, &mut sites, &mut domains);
            add_hosts(&mut total, made);
            counts.add(&index, &governs);
            let all = |k: usize| -> Vec<PartRef> {
                parts.own[k]
                    .iter()
                    .chain(&parts.guests[k])
                    .cloned()
                    .collect()
            };
            // The agent summaries first: `robots_hosts` names each host's set of blocked agents.
            let mut block_sets = None;
            if let Some(Ok(a)) = &mut stages.agents {
                a.flags_known(index.mistakes_known);
                let added = a.add(
                    sp,
                    &all(0),
                    &governs,
                    &mut index.files,
                    &index.outcomes,
                    registry,
                );
                match added {
                    Ok(at) => block_sets = Some((at, a.take_host_sets())),
                    Err(e) => stages.agents = Some(Err(format!("{e:#}"))),
                }
            }
            let sets = block_sets.as_ref().map(|(at, sets)| (&at[..], &sets[..]));
            index.rows(crawl, &order, sets, |b| hosts_part.write(&b))?;
            drop(order);
            if let Ok(lines) = &mut stages.lines {
                let own = LineParts {
                    agents: &parts.own[1],
                    rules: &parts.own[2],
                    app_directives: &parts.own[3],
                    acap_fields: &parts.own[4],
                };
                let guests = LineParts {
                    agents: &parts.guests[1],
                    rules: &parts.guests[2],
                    app_directives: &parts.guests[3],
                    acap_fields: &parts.guests[4],
                };
                if let Err(e) = lines.add(sp, &own, Some(&guests), &governs, &mut index.files) {
                    stages.lines = Err(format!("{e:#}"));
                }
            }
            if let Some(Ok(rows)) = &mut stages.pages {
                let (agents_parts, rules_parts) = (all(1), all(2));
                let page_parts = page_verdicts::Parts {
                    pages: &parts.pages,
                    robots_agents: &agents_parts,
                    robots_rules: &rules_parts,
                    inputs: &[],
                };
                let hosts = page_verdicts::Hosts {
                    governs: &governs,
                    sites: &sites,
                    hosts: &index.hosts,
                    files: &index.files,
                    outcomes: &index.outcomes,
                };
                if let Err(e) = rows.add(sp, &page_parts, &hosts, registry, page_agents) {
                    stages.pages = Some(Err(format!("{e:#}")));
                }
            }
            files = std::mem::take(&mut index.files);
            outcomes = std::mem::take(&mut index.outcomes);
            Ok(())
        })?;
        give_back_memory();
    }
    drop(spill);
    let hosts_part = match total.hosts {
        0 => PartOutcome::Empty(out.part_path(Table::RobotsHosts.name(), crawl, crawl)),
        _ => hosts_part.finish()?,
    };
    let [by_outcome, by_resolution] = counts.parts(out, crawl, &outcomes)?;
    out.commit(vec![hosts_part, by_outcome, by_resolution])?;
    finish(out, crawl, stages, pages_done, total, &outcomes, registry)
}

/// Write (or, for a stage that failed, remove) the summaries and `page_verdicts`.
fn finish(
    out: &OutDir,
    crawl: &str,
    stages: Stages,
    pages_done: Option<page_verdicts::Derived>,
    hosts: CrawlHosts,
    outcomes: &Names,
    registry: &Registry,
) -> Result<Derived> {
    let failed = |e: anyhow::Error| format!("{e:#}");
    let agents = match stages.agents {
        None => agent_summary::remove(out, crawl)
            .map(|()| None)
            .map_err(failed),
        Some(Ok(a)) => a
            .finish(out, crawl, outcomes, registry)
            .map(Some)
            .map_err(failed),
        Some(Err(e)) => Err(e),
    };
    if agents.is_err() {
        agent_summary::remove(out, crawl)?;
    }
    let lines = match stages.lines {
        Ok(l) => l.finish(out, crawl).map_err(failed),
        Err(e) => Err(e),
    };
    if lines.is_err() {
        for t in lines::TABLES {
            out.remove_parts(t.name(), crawl)?;
        }
    }
    let pages = match (stages.pages, pages_done) {
        (_, Some(done)) => Ok(done),
        (Some(Ok(rows)), None) => rows.finish(out).map_err(failed),
        (Some(Err(e)), None) => Err(e),
        (None, None) => Ok(page_verdicts::Derived::Rows(0)),
    };
    if pages.is_err() {
        out.remove_parts(Table::PageVerdicts.name(), crawl)?;
    }
    Ok(Derived {
        hosts,
        agents,
        lines,
        pages,
    })
}

/// Add a partition's counts of `robots_hosts` to the crawl's.
fn add_hosts(total: &mut CrawlHosts, part: CrawlHosts) {
    total.captures += part.captures;
    total.hosts += part.hosts;
    total.sites += part.sites;
    total.cross_host += part.cross_host;
    for (r, n) in part.resolutions {
        *total.resolutions.entry(r).or_default() += n;
    }
    for (r, n) in part.revisits {
        *total.revisits.entry(r).or_default() += n;
    }
}

/// Hand the memory a phase freed back to the system: glibc's allocator keeps it otherwise, and
/// the next partition's allocations land among the last one's leftovers (after the route, 390
/// MB of 480 stayed with the process at ten times the benchmark; 60 with this).
pub(super) fn give_back_memory() {
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim only returns free memory of the allocator to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The process's resident memory now, in bytes (Linux's `/proc/self/statm`; 0 where there is
/// none).
pub(super) fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = (statm.split_whitespace().nth(1))
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    pages * u64::try_from(page).unwrap_or(4096)
}

//! `robots_hosts`: one row per host of a crawl, with its latest robots.txt capture and the capture
//! that governs it, the end of that capture's chain of redirects ([`super::redirects`]). The
//! `agents_*` queries read each host's verdicts from its governing capture.
//!
//! A crawl's `robots_files` parts are read twice, a few columns at a time, so that memory grows
//! with the crawl's hosts and redirect targets, not with its captures: the first pass collects
//! the URLs redirects point to, the second keeps each host's latest capture and each such URL's
//! latest capture. The crawl's part (`robots_hosts/crawl=C/part-C.parquet`) replaces the one an
//! earlier derivation wrote, whole, when it is complete.

use super::agent_summary::{self, Agents, CrawlAgents};
use super::host_counts::HostCounts;
pub use super::host_index::CrawlHosts;
use super::host_index::{read_crawl, CrawlIndex, SiteGoverns};
use super::lines::{self, CrawlLines};
use super::page_verdicts;
use super::partitioned;
pub use super::partitions::Budget;
use super::plan::parts_by_crawl;
use super::read::Governs;
use super::redirects::Resolution;
use super::revisits::Revisit;
use crate::agents::Registry;
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartRef};
use crate::tables::Table;
use anyhow::Result;
use arrow_array::RecordBatch;
use std::collections::{BTreeMap, BTreeSet};

/// What deriving `robots_hosts` did.
#[derive(Debug, Clone, Default)]
pub struct HostsSummary {
    pub crawls: Vec<CrawlHosts>,
    /// Crawls whose `robots_files` could not be read (crawl, why): their `robots_hosts` part is
    /// left as it was.
    pub failed: Vec<(String, String)>,
    /// Crawls whose `robots_hosts` part was removed: they have no `robots_files` any more.
    pub removed: Vec<String>,
    /// Crawls whose summaries could not be derived (crawl, why): their summary parts are
    /// removed, since they would no longer agree with `robots_hosts`.
    pub summaries_failed: Vec<(String, String)>,
    /// What each derivation of the plan (`derive::PLAN`) made, crawl by crawl.
    pub derived: Vec<super::plan::Derived>,
    /// The crawls whose `summary_agent_changes` were derived.
    pub changes: Vec<super::changes::CrawlChange>,
}

/// What a crawl's redirecting governing captures came to, in words: "; 26 of them redirect:
/// 19 to a captured robots.txt, 3 to a URL the crawl never captured".
fn redirect_words(resolutions: &BTreeMap<Resolution, u64>) -> String {
    let n = |r: Resolution| resolutions.get(&r).copied().unwrap_or(0);
    let redirected: u64 = (Resolution::ALL.iter())
        .filter(|&&r| r != Resolution::Direct)
        .map(|&r| n(r))
        .sum();
    if redirected == 0 {
        return String::new();
    }
    let ends: Vec<String> = (Resolution::ALL.iter())
        .filter(|&&r| r != Resolution::Direct && n(r) > 0)
        .map(|&r| {
            let how = match r {
                Resolution::Resolved => "to a captured robots.txt",
                Resolution::BadLocation => "with no usable Location",
                Resolution::MissingTarget => "to a URL the crawl never captured",
                Resolution::Loop => "in a loop",
                Resolution::TooManyHops => "through more than five redirects",
                Resolution::Direct => unreachable!("left out above"),
            };
            format!("{} {how}", n(r))
        })
        .collect();
    format!("; {redirected} of them redirect: {}", ends.join(", "))
}

/// How a crawl's governing captures that are revisits were read, in words.
fn revisit_words(revisits: &BTreeMap<Revisit, u64>) -> String {
    let total: u64 = revisits.values().sum();
    if total == 0 {
        return String::new();
    }
    let how: Vec<String> = (Revisit::ALL.iter())
        .filter_map(|r| {
            let words = match r {
                Revisit::RefersTo => "as the capture they name",
                Revisit::SameUrl => "as an earlier capture of the same URL and payload",
                Revisit::SameDigest => "as a capture of another URL with the same payload",
                Revisit::Unresolved => "as nothing: no capture matches (verdict unknown)",
            };
            revisits.get(r).map(|n| format!("{n} {words}"))
        })
        .collect();
    format!("; {total} are revisits, read {}", how.join(", "))
}

impl HostsSummary {
    /// Lines for the end of a scan or `repcensus hosts`: per crawl, hosts and how redirects
    /// resolved.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for c in &self.crawls {
            s.push_str(&format!(
                "robots_hosts  {}: {} hosts, each by its latest robots.txt capture",
                c.crawl, c.hosts
            ));
            if c.sites > c.hosts {
                s.push_str(&format!(
                    " ({} sites: {} more under another scheme or port)",
                    c.sites,
                    c.sites - c.hosts
                ));
            }
            s.push_str(&redirect_words(&c.resolutions));
            s.push_str(&revisit_words(&c.revisits));
            if c.partitions > 1 {
                s.push_str(&format!(
                    "; derived in {} partitions of its hosts (--memory)",
                    c.partitions
                ));
            }
            s.push('\n');
            if let Some(a) = &c.agents {
                s.push_str(&format!(
                    "summary_agents  {}: {} hosts, {} rows ({} rows of summary_agent_groups)",
                    c.crawl, a.hosts, a.rows, a.group_rows
                ));
                if a.hosts_without_verdicts > 0 {
                    s.push_str(&format!(
                        "; {} hosts left out: their governing capture has no verdicts \
                         (scanned without agent_verdict_runs)",
                        a.hosts_without_verdicts
                    ));
                }
                s.push('\n');
            }
            let keys = |l: &CrawlLines| l.rows_of(Table::SummaryRobotsKeys);
            if let Some(l) = c.lines.as_ref().filter(|l| keys(l) > 0) {
                s.push_str(&format!(
                    "summary_robots  {}: {} keys, {} key forms, {} agent names\n",
                    c.crawl,
                    keys(l),
                    l.rows_of(Table::SummaryRobotsKeyForms),
                    l.rows_of(Table::SummaryRobotsAgents)
                ));
            }
        }
        for c in &self.crawls {
            if let Some(rows) = c.page_verdicts {
                s.push_str(&format!("page_verdicts  {}: {rows} rows\n", c.crawl));
            }
            if let Some(why) = &c.page_verdicts_skipped {
                s.push_str(&format!("page_verdicts  {}: not derived: {why}\n", c.crawl));
            }
        }
        for said in self.derived.iter().filter_map(|d| d.said.as_ref()) {
            s.push_str(said);
            s.push('\n');
        }
        // A crawl sharing no host with the crawl before is in `--summary`, not said here: a
        // folder of unrelated crawls would list every one.
        for c in self.changes.iter().filter(|c| c.hosts_both > 0) {
            s.push_str(&format!(
                "summary_agent_changes  {}: from {}, {} hosts in both with a 2xx robots.txt\n",
                c.crawl, c.from_crawl, c.hosts_both
            ));
        }
        for (crawl, why) in &self.failed {
            s.push_str(&format!("robots_hosts  {crawl}: not derived: {why}\n"));
        }
        for (crawl, why) in &self.summaries_failed {
            s.push_str(&format!("summaries  {crawl}: not derived: {why}\n"));
        }
        for crawl in &self.removed {
            s.push_str(&format!(
                "robots_hosts  {crawl}: removed (no robots_files left)\n"
            ));
        }
        s
    }

    /// The same, for `--summary`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "crawls": self.crawls.iter().map(|c| serde_json::json!({
                "crawl": c.crawl,
                "captures": c.captures,
                "hosts": c.hosts,
                "sites": c.sites,
                "resolutions": c.resolutions.iter()
                    .map(|(r, n)| (r.as_str().to_string(), *n))
                    .collect::<BTreeMap<_, _>>(),
                "cross_host": c.cross_host,
                "revisits": c.revisits.iter()
                    .map(|(r, n)| (r.as_str().to_string(), *n))
                    .collect::<BTreeMap<_, _>>(),
                (Table::SummaryAgents.name()): c.agents.as_ref().map(|a| serde_json::json!({
                    "hosts": a.hosts,
                    "rows": a.rows,
                    "group_rows": a.group_rows,
                    "pair_rows": a.pair_rows,
                    "domain_rows": a.domain_rows,
                    "hosts_without_verdicts": a.hosts_without_verdicts,
                })),
                (Table::PageVerdicts.name()): c.page_verdicts,
                "partitions": c.partitions.max(1),
                "page_verdicts_skipped": c.page_verdicts_skipped,
                "summary_robots": c.lines.as_ref().map(|l| lines::TABLES.iter().zip(l.rows)
                    .map(|(t, n)| (t.name().to_string(), n))
                    .collect::<BTreeMap<_, _>>()),
            })).collect::<Vec<_>>(),
            "changes": self.changes.iter().map(|c| serde_json::json!({
                "crawl": c.crawl,
                "from_crawl": c.from_crawl,
                "hosts_both": c.hosts_both,
                "rounds": c.rounds,
            })).collect::<Vec<_>>(),
            "failed": self.failed.iter()
                .map(|(c, why)| serde_json::json!({"crawl": c, "error": why}))
                .collect::<Vec<_>>(),
            "removed": self.removed,
            "derived": self.derived_json(),
            "summaries_failed": self.summaries_failed.iter()
                .map(|(c, why)| serde_json::json!({"crawl": c, "error": why}))
                .collect::<Vec<_>>(),
        })
    }
}

impl HostsSummary {
    /// The rows the plan's derivations wrote, by table and crawl.
    fn derived_json(&self) -> BTreeMap<&'static str, BTreeMap<&str, u64>> {
        let mut by_table: BTreeMap<&'static str, BTreeMap<&str, u64>> = BTreeMap::new();
        for d in &self.derived {
            for (t, rows) in &d.rows {
                by_table
                    .entry(t.name())
                    .or_default()
                    .insert(&d.crawl, *rows);
            }
        }
        by_table
    }
}

/// Derive `robots_hosts` in the output folder (or `s3://` prefix) `out` of a scan, for the
/// crawls in `only` (every crawl with `robots_files` when `None`).
pub fn derive_in(
    out: &std::path::Path,
    only: Option<&BTreeSet<String>>,
    registry: &Registry,
    page_agents: Option<&[String]>,
    budget: &Budget,
) -> Result<HostsSummary> {
    let page_agents = page_verdicts::choose_agents(registry, page_agents)?;
    // A crawl is named by its folder (`crawl=NAME`) or by the name it was scanned under.
    let only: Option<BTreeSet<String>> = only.map(|o| {
        o.iter()
            .map(|c| crate::archive::source::input::crawl_folder(c))
            .collect()
    });
    OutDir::with_existing(out, |dir| {
        Table::write_schemas(dir, crate::tables::TableSelection::default())?;
        derive(dir, only.as_ref(), registry, &page_agents, budget)
    })
}

/// Derive `robots_hosts` in `out` for the crawls in `only` (every crawl with `robots_files`
/// when `None`), and remove it for crawls that have no `robots_files` left; then the plan's
/// derivations and the changes between crawls. Errors are output errors; a crawl whose parts
/// cannot be read is in `failed`.
pub fn derive(
    out: &OutDir,
    only: Option<&BTreeSet<String>>,
    registry: &Registry,
    page_agents: &[usize],
    budget: &Budget,
) -> Result<HostsSummary> {
    // At the end of a scan, what the scan freed goes back first, and what it still holds is
    // taken off the budget: `--memory` is the process's.
    partitioned::give_back_memory();
    let budget = &budget.less(partitioned::resident_bytes());
    let mut by_crawl = parts_by_crawl(out, Table::RobotsFiles)?;
    let listed = Listed::list(out)?;
    let mut summary = HostsSummary {
        removed: remove_stale(out, &by_crawl)?,
        ..HostsSummary::default()
    };
    by_crawl.retain(|c, _| only.is_none_or(|o| o.contains(c)));
    // A crawl some of whose counted parts are gone is not derived from the rest.
    let missing = crate::tables::missing_parts(out)?;
    for (crawl, parts) in by_crawl {
        if let Some(lost) = missing.get(&crawl) {
            summary
                .failed
                .push((crawl, crate::tables::missing_message(lost)));
            continue;
        }
        let inputs = listed.of(&crawl, &parts);
        let captures: u64 = parts.iter().filter_map(|p| out.part_rows(p)).sum();
        let partitions = budget.partitions(captures);
        let failed = &mut summary.summaries_failed;
        let derived = if partitions > 1 {
            let spilled = (partitions, budget.spill_rows);
            match partitioned::derive_crawl(out, &crawl, &inputs, registry, page_agents, spilled) {
                Ok(d) => Ok(in_partitions(d, failed, inputs.pages.is_empty())),
                Err(e) => Err(format!("{e:#}")),
            }
        } else {
            derive_whole(out, &crawl, &inputs, registry, page_agents, failed)?
        };
        match derived {
            Ok(counts) => summary.crawls.push(counts),
            Err(why) => summary.failed.push((crawl, why)),
        }
    }
    // `pages` was listed for `page_verdicts` above; nothing has written it since.
    let listed = BTreeMap::from([(Table::Pages, listed.pages)]);
    let ran = super::plan::run(super::PLAN, out, only, &missing, listed)?;
    for (crawl, why) in ran.failed {
        if !summary.failed.iter().any(|(c, _)| *c == crawl) {
            summary.failed.push((crawl, why));
        }
    }
    summary.summaries_failed.extend(ran.summaries_failed);
    summary.derived = ran.derived;
    let derived: BTreeSet<String> = summary.crawls.iter().map(|c| c.crawl.clone()).collect();
    // The crawls' derivations are done: what they freed goes back before the changes are read.
    partitioned::give_back_memory();
    let failed = &mut summary.summaries_failed;
    summary.changes = super::changes::derive(out, &derived, registry, budget, failed)?;
    Ok(summary)
}

/// The tables a crawl's `robots_hosts` family reads besides `robots_files`, each listed once
/// for every crawl (a listing of an `s3://` output is a request per page of keys).
struct Listed {
    runs: BTreeMap<String, Vec<PartRef>>,
    agents: BTreeMap<String, Vec<PartRef>>,
    rules: BTreeMap<String, Vec<PartRef>>,
    app_directives: BTreeMap<String, Vec<PartRef>>,
    acap_fields: BTreeMap<String, Vec<PartRef>>,
    pages: BTreeMap<String, Vec<PartRef>>,
    inputs: BTreeMap<String, Vec<PartRef>>,
}

impl Listed {
    fn list(out: &OutDir) -> Result<Listed> {
        Ok(Listed {
            runs: parts_by_crawl(out, Table::AgentVerdictRuns)?,
            agents: parts_by_crawl(out, Table::RobotsAgents)?,
            rules: parts_by_crawl(out, Table::RobotsRules)?,
            app_directives: parts_by_crawl(out, Table::AppDirectives)?,
            acap_fields: parts_by_crawl(out, Table::AcapFields)?,
            pages: parts_by_crawl(out, Table::Pages)?,
            inputs: parts_by_crawl(out, Table::Inputs)?,
        })
    }

    /// The parts `crawl`'s derivation reads.
    fn of<'a>(&'a self, crawl: &str, robots_files: &'a [PartRef]) -> partitioned::Inputs<'a> {
        let of =
            |m: &'a BTreeMap<String, Vec<PartRef>>| m.get(crawl).map_or(&[][..], Vec::as_slice);
        partitioned::Inputs {
            robots_files,
            runs: of(&self.runs),
            lines: super::tally::LineParts {
                agents: of(&self.agents),
                rules: of(&self.rules),
                app_directives: of(&self.app_directives),
                acap_fields: of(&self.acap_fields),
            },
            pages: of(&self.pages),
            inputs: of(&self.inputs),
        }
    }
}

/// Remove the parts of the family's tables for crawls without `robots_files` (whatever was
/// asked: a crawl whose inputs were scanned again under another name keeps none); the crawls
/// they were removed for.
fn remove_stale(out: &OutDir, by_crawl: &BTreeMap<String, Vec<PartRef>>) -> Result<Vec<String>> {
    let planned = |t: &Table| super::PLAN.iter().any(|d| d.writes().contains(t));
    let mut removed = Vec::new();
    for derived in Table::DERIVED.into_iter().filter(|t| !planned(t)) {
        for (crawl, _) in out.table_parts(derived.name())? {
            if !by_crawl.contains_key(&crawl) {
                out.remove_parts(derived.name(), &crawl)?;
                if !removed.contains(&crawl) {
                    removed.push(crawl);
                }
            }
        }
    }
    Ok(removed)
}

/// Derive a crawl that fits the memory budget whole: its hosts, the agent summaries,
/// `robots_hosts` and the hosts' summaries, the line summaries and `page_verdicts`. Errors are
/// output errors; the crawl's own failure (its parts cannot be read) is the inner `Err`, and a
/// summary that fails is in `failed`, its parts removed.
fn derive_whole(
    out: &OutDir,
    crawl: &str,
    inputs: &partitioned::Inputs<'_>,
    registry: &Registry,
    page_agents: &[usize],
    failed: &mut Vec<(String, String)>,
) -> Result<std::result::Result<CrawlHosts, String>> {
    let mut hosts = match read_crawl(out, inputs.robots_files) {
        Ok(h) => h,
        Err(e) => return Ok(Err(format!("{e:#}"))),
    };
    let (mut governs, mut domains) = (Vec::new(), Names::default());
    let order = hosts.order();
    let mut sites = SiteGoverns::default();
    let mut counts = hosts.governs(crawl, &order, &mut governs, &mut sites, &mut domains);
    drop(domains);
    // The agent summaries first: `robots_hosts` names each host's set of blocked agents.
    let (agents, block_sets) =
        whole_agents(out, crawl, inputs.runs, &governs, &mut hosts, registry);
    // What the agents' tally freed goes back before the rows are made.
    partitioned::give_back_memory();
    let table = Table::RobotsHosts;
    let mut part = out.part_writer(&table.desc(), crawl, crawl)?;
    write_beside(&mut part, |write| {
        let sets = block_sets.as_ref().map(|(at, sets)| (&at[..], &sets[..]));
        hosts.rows(crawl, &order, sets, write)
    })?;
    drop(order);
    let part = if counts.hosts == 0 {
        // No host: no part (an earlier one is removed on commit).
        crate::parts::PartOutcome::Empty(out.part_path(table.name(), crawl, crawl))
    } else {
        part.finish()?
    };
    // The summaries of the hosts themselves are committed with them.
    let mut host_counts = HostCounts::default();
    host_counts.add(&hosts, &governs);
    let [by_outcome, by_resolution] = host_counts.parts(out, crawl, &hosts.outcomes)?;
    out.commit(vec![part, by_outcome, by_resolution])?;
    match agents {
        Ok(agents) => counts.agents = agents,
        Err(e) => {
            for t in agent_summary::TABLES {
                out.remove_parts(t.name(), crawl)?;
            }
            failed.push((crawl.to_string(), format!("summary_agents: {e:#}")));
        }
    }
    match lines::derive_crawl(out, crawl, &inputs.lines, &governs, &mut hosts.files) {
        Ok(l) => counts.lines = Some(l),
        Err(e) => {
            for t in lines::TABLES {
                out.remove_parts(t.name(), crawl)?;
            }
            failed.push((crawl.to_string(), format!("summary_robots_*: {e:#}")));
        }
    }
    let page_parts = page_verdicts::Parts {
        pages: inputs.pages,
        robots_agents: inputs.lines.agents,
        robots_rules: inputs.lines.rules,
        inputs: inputs.inputs,
    };
    let crawl_hosts = page_verdicts::Hosts {
        governs: &governs,
        sites: &sites,
        hosts: &hosts.hosts,
        files: &hosts.files,
        outcomes: &hosts.outcomes,
    };
    let derived =
        page_verdicts::derive_crawl(out, crawl, &page_parts, &crawl_hosts, registry, page_agents);
    match derived {
        Ok(page_verdicts::Derived::Rows(rows)) => {
            counts.page_verdicts = (!inputs.pages.is_empty()).then_some(rows)
        }
        Ok(page_verdicts::Derived::Skipped(why)) => counts.page_verdicts_skipped = Some(why),
        Err(e) => {
            out.remove_parts(Table::PageVerdicts.name(), crawl)?;
            failed.push((crawl.to_string(), format!("page_verdicts: {e:#}")));
        }
    }
    Ok(Ok(counts))
}

/// Each host's place in the crawl's distinct sets (`None`: no verdicts), and those sets.
type HostSetsOf = (Vec<Option<u32>>, Vec<super::block_sets::HostSets>);

/// The agent summaries of a crawl derived whole, committed (or its parts removed when it has no
/// runs), and each host's sets (a place in the crawl's distinct sets, in the order of
/// `governs`, and those sets) when they were.
fn whole_agents(
    out: &OutDir,
    crawl: &str,
    runs: &[PartRef],
    governs: &[Governs],
    hosts: &mut CrawlIndex,
    registry: &Registry,
) -> (Result<Option<CrawlAgents>>, Option<HostSetsOf>) {
    if runs.is_empty() {
        return (agent_summary::remove(out, crawl).map(|()| None), None);
    }
    let mut a = Agents::default();
    a.flags_known(hosts.mistakes_known);
    let sets = match a.add(
        out,
        runs,
        governs,
        &mut hosts.files,
        &hosts.outcomes,
        registry,
    ) {
        Ok(sets) => sets,
        Err(e) => return (Err(e), None),
    };
    let distinct = a.take_host_sets();
    match a.finish(out, crawl, &hosts.outcomes, registry) {
        Ok(counts) => (Ok(Some(counts)), Some((sets, distinct))),
        Err(e) => (Err(e), None),
    }
}

/// The counts of a crawl derived in partitions, its failed summaries said in `failed`.
fn in_partitions(
    d: partitioned::Derived,
    failed: &mut Vec<(String, String)>,
    no_pages: bool,
) -> CrawlHosts {
    let mut counts = d.hosts;
    let crawl = counts.crawl.clone();
    match d.agents {
        Ok(a) => counts.agents = a,
        Err(why) => failed.push((crawl.clone(), format!("summary_agents: {why}"))),
    }
    match d.lines {
        Ok(l) => counts.lines = Some(l),
        Err(why) => failed.push((crawl.clone(), format!("summary_robots_*: {why}"))),
    }
    match d.pages {
        Ok(page_verdicts::Derived::Rows(rows)) => {
            counts.page_verdicts = (!no_pages).then_some(rows)
        }
        Ok(page_verdicts::Derived::Skipped(why)) => counts.page_verdicts_skipped = Some(why),
        Err(why) => failed.push((crawl, format!("page_verdicts: {why}"))),
    }
    counts
}

/// Run `make`, which hands batches to `write`, while another thread writes them to `part`
/// (encoding and compressing a part costs about as much as making its rows).
fn write_beside<T>(
    part: &mut crate::parts::PartWriter,
    make: impl FnOnce(&mut dyn FnMut(RecordBatch) -> Result<()>) -> Result<T>,
) -> Result<T> {
    let (send, receive) = std::sync::mpsc::sync_channel::<RecordBatch>(1);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> Result<()> {
            for batch in receive {
                part.write(&batch)?;
            }
            Ok(())
        });
        // A send fails only when the writer stopped on an error: making rows stops too, and the
        // writer's error (from `join`) is the one returned.
        let made = make(&mut |batch| {
            send.send(batch)
                .map_err(|_| anyhow::anyhow!("the robots_hosts writer stopped"))
        });
        drop(send);
        let written = writer
            .join()
            .map_err(|_| anyhow::anyhow!("the robots_hosts writer panicked"))?;
        written?;
        made
    })
}

#[cfg(test)]
mod words_tests {
    use super::*;

    #[test]
    fn only_crawls_sharing_hosts_with_the_crawl_before_are_said_but_all_are_in_json() {
        let change = |crawl: &str, hosts_both| super::super::changes::CrawlChange {
            crawl: crawl.into(),
            from_crawl: "A".into(),
            hosts_both,
            rounds: 1,
        };
        let summary = HostsSummary {
            changes: vec![change("B", 0), change("C", 7)],
            ..HostsSummary::default()
        };
        assert_eq!(
            summary.render(),
            "summary_agent_changes  C: from A, 7 hosts in both with a 2xx robots.txt\n"
        );
        assert_eq!(summary.to_json()["changes"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn redirects_and_revisits_are_said_in_words_not_column_values() {
        let resolutions = BTreeMap::from([
            (Resolution::Direct, 1469),
            (Resolution::MissingTarget, 111),
            (Resolution::Resolved, 2),
        ]);
        let said = redirect_words(&resolutions);
        assert_eq!(
            said,
            "; 113 of them redirect: 2 to a captured robots.txt, 111 to a URL the crawl never captured"
        );
        assert!(!said.contains("missing_target"));
        assert_eq!(
            redirect_words(&BTreeMap::from([(Resolution::Direct, 5)])),
            ""
        );
        let revisits = BTreeMap::from([(Revisit::Unresolved, 2), (Revisit::SameUrl, 4)]);
        assert_eq!(
            revisit_words(&revisits),
            "; 6 are revisits, read 4 as an earlier capture of the same URL and payload, \
             2 as nothing: no capture matches (verdict unknown)"
        );
    }
}

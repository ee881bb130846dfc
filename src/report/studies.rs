//! The earlier studies' shares beside the headline: when the folder holds a ranked list
//! (`repcensus ranks`), the hosts "any AI agent" counts for under three of the definitions of
//! `../shared/specs/studies.md`, over the whole crawl and per tier of each list, as the bundled
//! `queries/study_*.sql` count them (a test holds every cell equal to its query's row).
//!
//! Read from `robots_hosts` (a host's row: `counts_for_host`; its set columns name the agents
//! each reading counts), `summary_block_sets` (the agents of each set), `summary_agents` (which
//! agents are AI agents) and `ranks`: never the verdicts. Memory holds the crawl's sets and, per
//! ranked list, one entry per ranked name that a host of the crawl matches.

use super::csv_link::Csv;
use super::load::{flag, text, Tables};
use crate::parts::SCHEMA_CRAWL;
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::Table;
use anyhow::Result;
use arrow_array::cast::AsArray;
use arrow_array::Array;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// Which governing fetch outcomes a definition's denominator takes.
#[derive(Clone, Copy)]
enum Denominator {
    /// A 2xx robots.txt (`ok`, `ok_empty`, `not_robots_html`, `not_robots_binary`).
    Answered2xx,
    /// A 2xx, or a 404/410 (which allows everything).
    Answered2xxOrGone,
    /// Every host with a robots.txt capture.
    Any,
}

impl Denominator {
    fn takes(self, outcome: Option<&str>) -> bool {
        let ok = outcome.is_some_and(FetchOutcome::is_2xx_name);
        match self {
            Denominator::Answered2xx => ok,
            Denominator::Answered2xxOrGone => ok || outcome == Some("not_found"),
            Denominator::Any => true,
        }
    }
}

/// A definition the report shows, as its bundled query counts it.
pub(super) struct Study {
    pub query: &'static str,
    /// What a host must do to count, and who counted so.
    pub definition: &'static str,
    pub source: &'static str,
    /// The `robots_hosts` column naming the agents it counts a host for.
    set_column: &'static str,
    denominator: Denominator,
    pub denominator_words: &'static str,
}

pub(super) const STUDIES: [Study; 3] = [
    Study {
        query: "study_own_group_root",
        definition: "a group naming the AI agent disallows <code>/</code> (a <code>*</code> group does not count)",
        source: "HasData 2026; IPTC Metawatch",
        set_column: "own_group_root_set",
        denominator: Denominator::Answered2xx,
        denominator_words: "hosts with a 2xx robots.txt",
    },
    Study {
        query: "study_somesite_full_block",
        definition: "Google's parser allows the AI agent no path (<code>*</code> included)",
        source: "\u{201c}Somesite I used to crawl\u{201d}, IMC 2025",
        set_column: "block_set",
        denominator: Denominator::Answered2xxOrGone,
        denominator_words: "hosts with a 2xx or 404/410 robots.txt",
    },
    Study {
        query: "study_almanac_named",
        definition: "the AI agent's token is on a user-agent line, whatever its rules",
        source: "Web Almanac 2025, SEO chapter",
        set_column: "named_set",
        denominator: Denominator::Any,
        denominator_words: "every host with a robots.txt capture",
    },
];

/// The tiers of the study queries: cumulative (`top10k` holds ranks 1 to 10,000); `rest` is
/// beyond 1,000,000.
pub(super) const TIERS: [(&str, i64, i64); 5] = [
    ("top1k", 1, 1_000),
    ("top10k", 1, 10_000),
    ("top100k", 1, 100_000),
    ("top1m", 1, 1_000_000),
    ("rest", 1_000_001, i64::MAX),
];

/// One row of a study query's "any AI agent" answer.
pub(super) struct Row {
    /// In [`STUDIES`].
    pub study: usize,
    /// The ranked list and tier; `None`: every host of the crawl.
    pub list: Option<(String, &'static str)>,
    pub hosts: u64,
    pub denominator: u64,
}

/// A host as the definitions read it.
#[derive(Clone, Copy)]
struct Unit {
    /// Whether each definition's denominator takes it, and counts it for some AI agent.
    takes: [bool; 3],
    counts: [bool; 3],
}

/// A ranked list: each name's kind (a host, else a registered domain) and rank.
type List = FxHashMap<String, (bool, i64)>;

/// The ranked lists of a folder, by name.
pub(super) type Lists = BTreeMap<String, List>;

/// The ranked lists of the folder, by name (none: the studies are not shown).
pub(super) fn ranked_lists(t: &Tables<'_>) -> Result<Lists> {
    let mut lists: BTreeMap<String, List> = BTreeMap::new();
    for (list, part) in t.keyed("ranks", "list")? {
        if list == SCHEMA_CRAWL {
            continue;
        }
        let names = lists.entry(list).or_default();
        t.each_in(&part, &["name", "kind", "rank"], &[], |b| {
            let (name, kind, rank) = (b.strings("name")?, b.strings("kind")?, b.i64s("rank")?);
            for i in (0..b.len()).filter(|&i| name.is_valid(i) && rank.is_valid(i)) {
                let is_host = text(kind, i) == Some("host");
                names.insert(name.value(i).to_string(), (is_host, rank.value(i)));
            }
            Ok(())
        })?;
    }
    lists.retain(|_, names| !names.is_empty());
    Ok(lists)
}

/// The rows of the three study queries for `crawl`, agent NULL ("any AI agent"): the whole
/// crawl, then each list's tiers that some ranked name's host is in.
pub(super) fn rows(t: &Tables<'_>, crawl: &str, lists: &Lists) -> Result<Vec<Row>> {
    let any_ai = ai_sets(t, crawl)?;
    // Per list, each ranked name's host: (preference, host name, unit).
    let mut chosen: Vec<FxHashMap<&str, (u8, String, Unit)>> =
        vec![Default::default(); lists.len()];
    let mut whole = [(0u64, 0u64); 3];
    let columns = [
        "host",
        "registered_domain",
        "effective_fetch_outcome",
        "counts_for_host",
        "own_group_root_set",
        "block_set",
        "named_set",
    ];
    t.each(Table::RobotsHosts, crawl, &columns, &[], |b| {
        let (host, domain) = (b.strings("host")?, b.strings("registered_domain")?);
        let outcome = b.strings("effective_fetch_outcome")?;
        let counts_for_host = b.bools("counts_for_host").ok();
        let sets = [
            b.i64s(STUDIES[0].set_column)?,
            b.i64s(STUDIES[1].set_column)?,
            b.i64s(STUDIES[2].set_column)?,
        ];
        for i in 0..b.len() {
            // A table before schema 19 has a row per host.
            if counts_for_host.is_some_and(|c| !flag(c, i)) || !host.is_valid(i) {
                continue;
            }
            let mut unit = Unit {
                takes: [false; 3],
                counts: [false; 3],
            };
            for (k, s) in STUDIES.iter().enumerate() {
                unit.takes[k] = s.denominator.takes(text(outcome, i));
                let set = sets[k].is_valid(i).then(|| sets[k].value(i));
                unit.counts[k] = unit.takes[k] && set.is_some_and(|s| any_ai.contains(&s));
                whole[k].0 += u64::from(unit.counts[k]);
                whole[k].1 += u64::from(unit.takes[k]);
            }
            let h = host.value(i);
            for (names, chosen) in lists.values().zip(chosen.iter_mut()) {
                if let Some((name, &(true, _))) = names.get_key_value(h) {
                    chosen.insert(name.as_str(), (0, h.to_string(), unit));
                }
                let Some(d) = text(domain, i) else {
                    continue;
                };
                if let Some((name, &(false, _))) = names.get_key_value(d) {
                    let preference = if h == d {
                        0
                    } else if h.strip_prefix("www.") == Some(d) {
                        1
                    } else {
                        2
                    };
                    let better = |c: &(u8, String, Unit)| (preference, h) < (c.0, c.1.as_str());
                    if chosen.get(name.as_str()).is_none_or(better) {
                        chosen.insert(name.as_str(), (preference, h.to_string(), unit));
                    }
                }
            }
        }
        Ok(())
    })?;
    let mut rows = Vec::new();
    for (k, &(hosts, denominator)) in whole.iter().enumerate() {
        if denominator > 0 {
            rows.push(Row {
                study: k,
                list: None,
                hosts,
                denominator,
            });
        }
    }
    for ((list, names), chosen) in lists.iter().zip(&chosen) {
        for &(tier, first, last) in &TIERS {
            let mut counted = [(0u64, 0u64); 3];
            for (name, (_, _, unit)) in chosen {
                let rank = names[*name].1;
                if rank < first || rank > last {
                    continue;
                }
                for (k, c) in counted.iter_mut().enumerate() {
                    c.0 += u64::from(unit.counts[k]);
                    c.1 += u64::from(unit.takes[k]);
                }
            }
            for (k, &(hosts, denominator)) in counted.iter().enumerate() {
                if denominator > 0 {
                    rows.push(Row {
                        study: k,
                        list: Some((list.clone(), tier)),
                        hosts,
                        denominator,
                    });
                }
            }
        }
    }
    rows.sort_by_key(|r| r.study);
    Ok(rows)
}

/// The crawl's sets (`summary_block_sets`) that hold an agent of the `ai_training` or
/// `ai_search` category (as `summary_agents` says).
fn ai_sets(t: &Tables<'_>, crawl: &str) -> Result<FxHashSet<i64>> {
    let mut ai: FxHashSet<String> = FxHashSet::default();
    t.each(
        Table::SummaryAgents,
        crawl,
        &["agent", "agent_category"],
        &[],
        |b| {
            let (agent, category) = (b.strings("agent")?, b.strings("agent_category")?);
            for i in 0..b.len() {
                if matches!(text(category, i), Some("ai_training" | "ai_search")) {
                    ai.extend(text(agent, i).map(str::to_string));
                }
            }
            Ok(())
        },
    )?;
    let mut sets = FxHashSet::default();
    t.each(
        Table::SummaryBlockSets,
        crawl,
        &["block_set", "agents"],
        &[],
        |b| {
            let ids = b.i64s("block_set")?;
            let agents = b.lists("agents")?;
            for i in (0..b.len()).filter(|&i| ids.is_valid(i) && agents.is_valid(i)) {
                let names = agents.value(i);
                let names = names.as_string::<i32>();
                if (0..names.len()).any(|j| names.is_valid(j) && ai.contains(names.value(j))) {
                    sets.insert(ids.value(i));
                }
            }
            Ok(())
        },
    )?;
    Ok(sets)
}

/// The studies' shares of the latest crawl, beside its headline: each definition named with
/// its source and query, over the whole crawl and per tier of each ranked list.
pub(super) fn figure(crawl: &str, rows: &Result<Vec<Row>, String>, body: &mut String) {
    use super::html::{cell_of, esc, esc_value, Num};
    use std::fmt::Write;
    let rows = match rows {
        Ok(rows) if rows.is_empty() => return,
        Ok(rows) => rows,
        Err(why) => {
            let _ = write!(
                body,
                "<p>The earlier studies' shares could not be counted: {} (<code>repcensus \
                 hosts</code> derives the columns they read).</p>",
                esc_value(why)
            );
            return;
        }
    };
    body.push_str(
        "<h4>The same crawl, counted as earlier studies counted</h4><p>Each study defined \
         blocking its own way (docs/guide.md, \u{201c}Earlier studies\u{201d}): a host counts \
         when it does what the definition says for at least one AI agent (the registry's \
         <code>ai_training</code> and <code>ai_search</code> categories), over the study's own \
         denominator, for every host of the crawl and for the ranked names of each list \
         (<code>repcensus ranks</code>; tiers are cumulative, one host per ranked name). Each \
         row is its query's row with <code>agent</code> NULL.</p>",
    );
    body.push_str(
        r#"<table data-query=""><thead><tr><th>definition</th><th>list</th><th>tier</th><th>hosts</th><th>denominator</th><th>share</th></tr></thead><tbody>"#,
    );
    let mut csv = Csv {
        header: ["query", "list", "tier", "hosts", "denominator", "share"]
            .map(String::from)
            .to_vec(),
        rows: Vec::new(),
    };
    for (k, s) in STUDIES.iter().enumerate() {
        let of_study: Vec<&Row> = rows.iter().filter(|r| r.study == k).collect();
        for (n, r) in of_study.iter().enumerate() {
            let (list, tier) = match &r.list {
                Some((list, tier)) => (list.as_str(), *tier),
                None => ("", ""),
            };
            let key = format!("{list}|{tier}|");
            csv.rows.push(vec![
                s.query.to_string(),
                list.to_string(),
                tier.to_string(),
                r.hosts.to_string(),
                r.denominator.to_string(),
                super::facts::share(r.hosts, r.denominator)
                    .map_or(String::new(), |v| v.to_string()),
            ]);
            let num = |column, n| cell_of(s.query, crawl, &key, column, n);
            body.push_str("<tr>");
            if n == 0 {
                let _ = write!(
                    body,
                    r#"<td class="text" rowspan="{}"><code>{}</code>: {} ({}; over {})</td>"#,
                    of_study.len(),
                    esc(s.query),
                    s.definition,
                    esc(s.source),
                    s.denominator_words,
                );
            }
            let _ = write!(
                body,
                "<td>{}</td><td>{}</td>{}{}{}</tr>",
                match list {
                    "" => "every host".to_string(),
                    list => esc_value(list),
                },
                esc(tier),
                num("hosts", Num::Count(r.hosts)),
                num("denominator", Num::Count(r.denominator)),
                num(
                    "share",
                    Num::Share(super::facts::share(r.hosts, r.denominator))
                ),
            );
        }
    }
    body.push_str("</tbody></table>");
    body.push_str(&csv.link(&format!("{crawl}-studies"), None));
}

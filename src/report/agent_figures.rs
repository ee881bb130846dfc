//! The AI crawler figures of a crawl's section: full blocks (by a group naming the agent and
//! through `*`), agents singled out, partial blocks apart, blocking by operator and category,
//! hosts naming an AI agent.

use super::chart;
use super::facts::{self, share, AgentShare, Agents};
use super::html::{self, cell, esc, esc_value, hosts_words, Figure, Num};
use super::TOP_AI;
use std::fmt::Write;

pub(super) fn agent_figures(crawl: &str, a: &Agents, body: &mut String) {
    body.push_str("<h3>AI crawlers</h3>");
    if a.hosts_2xx == 0 {
        let _ = write!(
            body,
            r#"<p id="{}-ai-none">No host's robots.txt answered 2xx (see how the fetches ended; a revisit counts when the capture it stands for is in the crawl and answered 2xx): there is no verdict to count.</p>"#,
            esc(crawl)
        );
        return;
    }
    full_block_figure(crawl, a, body);
    singled_out_figure(crawl, a, body);
    partial_block_figure(crawl, a, body);
    groups_figure(crawl, a, body);
    let q = "agents_ai_named_share";
    Figure {
        id: format!("{crawl}-ai-named"),
        title: "Hosts naming an AI agent",
        chart: None,
        legend: &[],
        unit: "Hosts whose robots.txt writes the name of at least one AI agent on a user-agent \
               line, over hosts whose governing capture answered 2xx.",
        totals: None,
        queries: &[q],
        head: &["hosts (2xx)", "naming an AI agent", "share"],
        rows: vec![format!(
            "{}{}{}",
            cell("", "hosts_2xx", Num::Count(a.hosts_2xx)),
            cell("", "hosts_naming_ai", Num::Count(a.hosts_naming_ai)),
            cell(
                "",
                "share",
                Num::Share(share(a.hosts_naming_ai, a.hosts_2xx))
            ),
        )],
    }
    .render(body);
}

fn singled_out_figure(crawl: &str, a: &Agents, body: &mut String) {
    let top = a.top_singled_out(TOP_AI);
    if top.is_empty() {
        return;
    }
    let q = "agents_singled_out";
    let bars: Vec<chart::Bar<'_>> = top
        .agents()
        .map(|s| chart::Bar {
            label: &s.agent,
            parts: vec![
                share(s.singled_to_full_block, a.hosts_with_star).unwrap_or(0.0),
                share(s.singled_out - s.singled_to_full_block, a.hosts_with_star).unwrap_or(0.0),
            ],
        })
        .collect();
    let legend = chart::legend(&["to a full block", "to a partial block"]);
    Figure {
        id: format!("{crawl}-ai-singled-out"),
        title: "AI crawlers singled out",
        chart: Some(chart::bars(&bars)),
        legend: &legend,
        unit: &format!(
            "Share of the {} whose robots.txt answered 2xx and leaves some agent to its \
             `*` reading (the `*` group, or no group where it has none: everything allowed) \
             whose group for the agent is stricter than that reading: AI-specific restriction, \
             not a generic `Disallow: /admin`. Each kind has its own share: singled out to a \
             full block (nothing may be fetched; dark) and to a partial block (light). The AI \
             agents most often singled out (the whole bar), at most {TOP_AI} (tied agents \
             share a rank, by name).{}",
            hosts_words(a.hosts_with_star),
            top.cut_words(|s| format!("single out at {}", hosts_words(s.singled_out)))
        ),
        totals: None,
        queries: &[q],
        head: &[
            "rank",
            "agent",
            "category",
            "to a full block",
            "its share",
            "to a partial block",
            "its share",
            "hosts (2xx)",
        ],
        rows: (top.rows.iter())
            .map(|&(rank, s)| {
                let k = &s.agent;
                let (full, partial) = (
                    s.singled_to_full_block,
                    s.singled_out - s.singled_to_full_block,
                );
                let of_hosts = |n| share(n, a.hosts_with_star);
                format!(
                    "<td>{rank}</td><td>{}</td><td>{}</td>{}{}{}{}{}",
                    esc_value(k),
                    esc_value(&s.category),
                    cell(k, "to_full_block", Num::Count(full)),
                    cell(k, "share_full_block", Num::Share(of_hosts(full))),
                    cell(k, "to_partial_block", Num::Count(partial)),
                    cell(k, "share_partial_block", Num::Share(of_hosts(partial))),
                    cell(k, "hosts_2xx", Num::Count(a.hosts_with_star)),
                )
            })
            .collect(),
    }
    .render(body);
}

fn groups_figure(crawl: &str, a: &Agents, body: &mut String) {
    let ai: Vec<&facts::Group> = (a.groups.iter())
        .filter(|g| g.category.starts_with("ai_"))
        .collect();
    // As for agents: groups none of whose agents a host blocks by name share the `*` reading's
    // blocks, and would look ranked by name.
    let mut top: Vec<&facts::Group> = ai.iter().copied().filter(|g| g.by_name > 0).collect();
    // By what the bar shows: the share of hosts fully blocking at least one of the agents.
    top.sort_by(|x, y| {
        (y.any_share().partial_cmp(&x.any_share()))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| (&x.category, &x.operator).cmp(&(&y.category, &y.operator)))
    });
    top.truncate(TOP_AI);
    if top.is_empty() {
        return;
    }
    let labels: Vec<String> = top
        .iter()
        .map(|g| format!("{} ({})", g.operator, g.category))
        .collect();
    let bars: Vec<chart::Bar<'_>> = top
        .iter()
        .zip(&labels)
        .map(|(g, label)| chart::Bar {
            label,
            parts: vec![g.any_share().unwrap_or(0.0)],
        })
        .collect();
    let unit = format!(
        "Share of hosts whose robots.txt answered 2xx (each read at its governing capture) that \
         fully block at least one of the operator's agents of that category. Beside it, per \
         host x agent pair (each agent of the group counted on each host): the shares of full \
         and of partial blocks. The AI operators and categories whose agents most hosts fully \
         block, of those with an agent some host blocks by name{}. The query lists all.",
        match ai.len() - ai.iter().filter(|g| g.by_name > 0).count() {
            0 => String::new(),
            1 => ": 1 other AI operator group is fully blocked only through `*`".to_string(),
            n => format!(": {n} other AI operator groups are fully blocked only through `*`"),
        }
    );
    let q = "agents_blocking_by_category";
    Figure {
        id: format!("{crawl}-ai-operators"),
        title: "AI crawlers fully blocked, by operator and category",
        chart: Some(chart::bars(&bars)),
        legend: &[],
        unit: &unit,
        totals: None,
        queries: &[q],
        head: &[
            "operator",
            "category",
            "agents",
            "hosts blocking any",
            "share of hosts",
            "pairs fully",
            "pairs partly",
        ],
        rows: top
            .iter()
            .map(|g| {
                let k = format!("{}|{}", g.category, g.operator);
                format!(
                    "<td>{}</td><td>{}</td>{}{}{}{}{}",
                    esc_value(&g.operator),
                    esc_value(&g.category),
                    cell(&k, "agents", Num::Count(g.agents)),
                    cell(&k, "hosts_blocking_any", Num::Count(g.hosts_blocking_any)),
                    cell(&k, "share_blocking_any", Num::Share(g.any_share())),
                    cell(&k, "full_block_share", Num::Share(g.full_share())),
                    cell(&k, "partial_block_share", Num::Share(g.partial_share())),
                )
            })
            .collect(),
    }
    .render(body);
}

/// The query giving each host's `*` reading once.
const STAR_QUERY: &str = "agents_wildcard_blocking";

/// The label of the `*` reading's row.
const STAR_ROW: &str = "every crawler, through *";

/// AI agents in the partial blocks' table.
const TOP_PARTIAL: usize = 10;

/// Which of the crawl's `ai` AI agents the table leaves out: those some host blocks by name
/// beyond the `listed` ones (the query has them), and the `only_star` no host blocks by name
/// (their full blocks are the first row's).
fn unlisted_said(listed: usize, ai: usize, only_star: usize) -> String {
    let is = |n: usize| if n == 1 { "is" } else { "are" };
    let agents = |n: usize| match n {
        1 => "AI agent",
        _ => "AI agents",
    };
    let more = ai.saturating_sub(only_star + listed);
    let mut said = format!(
        "Of the crawl's {ai} {}, {listed} {} listed",
        agents(ai),
        is(listed)
    );
    if more > 0 {
        said += &format!(
            "; {more} more {} {} fully blocked by a group naming {} on fewer hosts (the query \
             lists every agent)",
            agents(more),
            is(more),
            if more == 1 { "it" } else { "them" }
        );
    }
    if only_star > 0 {
        said += &format!(
            "; {only_star} {} {} fully blocked by name nowhere: {} full blocks are the first \
             row's",
            agents(only_star),
            is(only_star),
            if only_star == 1 { "its" } else { "their" }
        );
    }
    said + "."
}

/// The headline: hosts fully blocking AI agents. The `*` reading first, once (it is the same
/// for every agent a host does not name, so per agent it only repeats), then the AI agents that
/// hosts block by name, split into blocks by a group naming them and blocks through `*`.
fn full_block_figure(crawl: &str, a: &Agents, body: &mut String) {
    let top = a.top_named(TOP_AI);
    let (ai, only_star) = a.ai_agents();
    let star_full = a.star.map(|s| s.full_block);
    let mut bars: Vec<chart::Bar<'_>> = Vec::new();
    let mut rows = Vec::new();
    if let Some(n) = star_full {
        bars.push(chart::Bar {
            label: STAR_ROW,
            parts: vec![0.0, share(n, a.hosts_2xx).unwrap_or(0.0)],
        });
        rows.push(star_row(crawl, "star_full_block", "share_full_block", n, a));
    }
    for &(rank, s) in &top.rows {
        bars.push(chart::Bar {
            label: &s.agent,
            parts: vec![
                share(s.by_own_group, s.hosts_2xx).unwrap_or(0.0),
                share(s.full_block - s.by_own_group, s.hosts_2xx).unwrap_or(0.0),
            ],
        });
        rows.push(agent_row(
            rank,
            s,
            ("by_own_group", s.by_own_group),
            ("full_block", s.full_block),
            ("share_2xx", s.share_2xx()),
        ));
    }
    let nothing = top.is_empty() && star_full.unwrap_or(0) == 0;
    let star_said = match star_full {
        Some(_) => format!(
            "The first row counts each host once by its `*` reading: hosts whose `*` group \
             disallows everything to every crawler they do not name ({STAR_QUERY}.sql); per \
             agent it would only repeat. "
        ),
        None => "This crawl's summary_agent_groups predates the `*` readings (schema 12 and \
                 before): run `repcensus hosts` to count them. "
            .to_string(),
    };
    let listed = if nothing {
        "No host fully blocks an AI agent, by name or through `*`.".to_string()
    } else if top.is_empty() {
        format!(
            "No host fully blocks an AI agent by a group naming it: the {ai} AI agents are \
             fully blocked only through `*`, the first row. Partial blocks are apart, below."
        )
    } else {
        format!(
            "Then the AI agents (registry categories ai_*) that most hosts fully block, of \
             those some host blocks by a group naming them (dark: by such a group; light: the \
             same agent's blocks through `*`, or a User-Agent-Purpose group, on hosts that do \
             not name it), most first by the whole bar, at most {TOP_AI} (tied agents share a \
             rank, by name). {} Partial blocks are apart, below.{}",
            unlisted_said(top.rows.len(), ai, only_star),
            top.cut_words(|s| format!("at {}", hosts_words(s.full_block)))
        )
    };
    let legend = match top.is_empty() {
        false => chart::legend(&["by a group naming the agent", "through *"]),
        true => vec![("through *", chart::css_colour(1))],
    };
    Figure {
        id: format!("{crawl}-ai-blocking"),
        title: "AI crawlers fully blocked, by share of hosts",
        chart: (!nothing).then(|| chart::bars(&bars)),
        legend: if nothing { &[] } else { &legend },
        unit: &format!(
            "Share of the {} whose robots.txt answered 2xx (each host once, read at the \
             capture that governs it: its latest, or where its redirects lead) that fully block \
             the agent: nothing may be fetched. {star_said}{listed}",
            hosts_words(a.hosts_2xx),
        ),
        totals: None,
        queries: &["agents_full_block_share", STAR_QUERY],
        head: &agents_head("fully blocked"),
        rows,
    }
    .render(body);
}

/// The head of a table of agents blocked (`blocked`: fully or partly), by name and in all.
fn agents_head(blocked: &str) -> [&str; 8] {
    [
        "rank",
        "agent",
        "operator",
        "category",
        "by name",
        blocked,
        "share",
        "hosts (2xx)",
    ]
}

/// An agent's row of a table of [`agents_head`]: blocked by name, blocked in all, its share of
/// the hosts (each a column of `agents_full_block_share.sql`).
fn agent_row(
    rank: usize,
    s: &AgentShare,
    by_name: (&str, u64),
    blocked: (&str, u64),
    share_2xx: (&str, Option<f64>),
) -> String {
    let k = &s.agent;
    format!(
        "<td>{rank}</td><td>{}</td><td>{}</td><td>{}</td>{}{}{}{}",
        esc_value(k),
        esc_value(&s.operator),
        esc_value(&s.category),
        cell(k, by_name.0, Num::Count(by_name.1)),
        cell(k, blocked.0, Num::Count(blocked.1)),
        cell(k, share_2xx.0, Num::Share(share_2xx.1)),
        cell(k, "hosts_2xx", Num::Count(s.hosts_2xx)),
    )
}

/// The row of the `*` reading in a table of agents: its count and share from
/// [`STAR_QUERY`]'s `count` and `share` columns.
fn star_row(crawl: &str, count: &str, share_column: &str, n: u64, a: &Agents) -> String {
    let of = |column: &str, v: Num| html::cell_of(STAR_QUERY, crawl, "", column, v);
    format!(
        "<td></td><td>{}</td><td></td><td></td><td></td>{}{}{}",
        esc(STAR_ROW),
        of(count, Num::Count(n)),
        of(share_column, Num::Share(share(n, a.hosts_2xx))),
        of("hosts_2xx", Num::Count(a.hosts_2xx)),
    )
}

/// Partial blocks, apart from full ones: mostly the generic rules of `*` groups
/// (`Disallow: /admin`), so the `*` reading first, then the AI agents hosts partly block by name.
fn partial_block_figure(crawl: &str, a: &Agents, body: &mut String) {
    let top = a.top_partial_named(TOP_PARTIAL);
    let mut rows = Vec::new();
    if let Some(star) = a.star {
        let n = star.partial_block;
        rows.push(star_row(
            crawl,
            "star_partial_block",
            "share_partial_block",
            n,
            a,
        ));
    }
    for &(rank, s) in &top.rows {
        rows.push(agent_row(
            rank,
            s,
            ("partial_by_own_group", s.partial_by_own_group),
            ("partial_block", s.partial_block),
            ("share_partial_2xx", s.share_partial_2xx()),
        ));
    }
    if rows.is_empty() {
        return;
    }
    Figure {
        id: format!("{crawl}-ai-partial"),
        title: "AI crawlers partly blocked",
        chart: None,
        legend: &[],
        unit: &format!(
            "Share of the {} whose robots.txt answered 2xx that disallow some path, not \
             all, to the agent. Mostly the generic rules of a `*` group (`Disallow: /admin`), \
             which every crawler a host does not name gets: the first row, each host once. \
             Then the AI agents that most hosts partly block by a group naming them, at most \
             {TOP_PARTIAL} (tied agents share a rank, by name).{}",
            hosts_words(a.hosts_2xx),
            top.cut_words(|s| format!("at {} by name", hosts_words(s.partial_by_own_group)))
        ),
        totals: None,
        queries: &["agents_full_block_share", STAR_QUERY],
        head: &agents_head("partly blocked"),
        rows,
    }
    .render(body);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agents_left_out_of_the_table_are_counted_in_words_that_agree() {
        assert_eq!(
            unlisted_said(15, 148, 1),
            "Of the crawl's 148 AI agents, 15 are listed; 132 more AI agents are fully blocked \
             by a group naming them on fewer hosts (the query lists every agent); 1 AI agent is \
             fully blocked by name nowhere: its full blocks are the first row's."
        );
        assert_eq!(
            unlisted_said(1, 2, 0),
            "Of the crawl's 2 AI agents, 1 is listed; 1 more AI agent is fully blocked by a \
             group naming it on fewer hosts (the query lists every agent)."
        );
        assert_eq!(
            unlisted_said(5, 148, 143),
            "Of the crawl's 148 AI agents, 5 are listed; 143 AI agents are fully blocked by \
             name nowhere: their full blocks are the first row's."
        );
    }
}

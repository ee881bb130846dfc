//! The change between crawls: the headline shares of each crawl, in date order, lines joining
//! only crawls of one collection.

use super::chart;
use super::crawls::{collections, CrawlFigures};
use super::facts::{share, Agents};
use super::html::{self, esc, esc_value, Figure, Num};
use std::fmt::Write;

/// Lines of the change chart: the `*` reading and the AI agents most blocked by name.
const CHANGE_LINES: usize = 7;

/// The colour of the `*` reading's line (grey).
const STAR_COLOUR: usize = 7;

/// Days that change what a share of written blocks means (days since 1970, what happened):
/// marked on the charts, and said, when the compared crawls straddle them.
const EVENTS: [(f64, &str, &str); 1] = [(
    20_711.0,
    "2026-09-15",
    "Cloudflare began blocking AI training and agent crawlers at its edge for new and free \
     zones without writing it in robots.txt: a share of written blocks that falls across that \
     day reads fewer written disallows, not fewer blocks",
)];

fn agents(d: &CrawlFigures) -> &Agents {
    d.agents.as_ref().expect("crawl figures with agents")
}

/// The change of the headline shares between crawls (those with robots.txt hosts and agent
/// summaries, in date order; the others named): hosts blocking every crawler through `*`
/// (agents_wildcard_blocking.sql), the AI agents most blocked by name in the last crawl
/// (agents_full_block_share.sql), and the other headline shares.
pub(super) fn change_section(figures: &[&CrawlFigures], body: &mut String) {
    body.push_str(r#"<section id="change"><h2>Change between crawls</h2>"#);
    let names = |of: &[&CrawlFigures]| -> String {
        let names: Vec<String> = of.iter().map(|d| esc_value(&d.crawl)).collect();
        names.join(", ")
    };
    let (with_agents, without): (Vec<&CrawlFigures>, Vec<&CrawlFigures>) =
        figures.iter().partition(|d| d.agents.is_some());
    if !without.is_empty() {
        let _ = write!(
            body,
            "<p>Left out, without a robots.txt host whose verdicts were counted: {}.</p>",
            names(&without)
        );
    }
    let (dated, undated): (Vec<&CrawlFigures>, Vec<&CrawlFigures>) =
        with_agents.iter().partition(|d| d.first_day().is_some());
    if !undated.is_empty() {
        let _ = write!(
            body,
            "<p>Left out, no capture time to place them by: {}.</p>",
            names(&undated)
        );
    }
    if dated.is_empty() {
        body.push_str("</section>\n");
        return;
    }
    let axis = Axis::of(&dated);
    let _ = write!(body, "<p>{}</p>", axis.said);
    blocking_figure(&dated, &axis, body);
    other_shares_figure(&dated, &axis, body);
    body.push_str("</section>\n");
}

/// Where the crawls sit: each in a slot of its own, in the order of its earliest robots.txt
/// capture, with its collection.
struct Axis<'a> {
    slots: Vec<chart::Slot<'a>>,
    collections: Vec<Option<usize>>,
    /// The [`EVENTS`] between the first and the last crawl.
    marks: Vec<chart::Mark<'static>>,
    /// The table's first rows: when each crawl was captured and what it is compared with.
    head_rows: Vec<String>,
    said: String,
}

impl<'a> Axis<'a> {
    fn of(dated: &[&'a CrawlFigures]) -> Axis<'a> {
        let names: Vec<&str> = dated.iter().map(|d| d.crawl.as_str()).collect();
        let collections = collections(&names);
        let days: Vec<f64> = dated.iter().filter_map(|d| d.first_day()).collect();
        let slots = (names.iter().zip(&days))
            .map(|(crawl, &day)| chart::Slot { crawl, day })
            .collect();
        let mut captured = String::from("<td>robots.txt captured</td>");
        let mut compared = String::from("<td>joined with</td>");
        for (i, d) in dated.iter().enumerate() {
            let _ = write!(captured, "<td>{}</td>", d.period().unwrap_or_default());
            let peers: Vec<String> = (0..dated.len())
                .filter(|&j| j != i && collections[i].is_some() && collections[j] == collections[i])
                .map(|j| esc_value(names[j]))
                .collect();
            let _ = write!(
                compared,
                "<td>{}</td>",
                if peers.is_empty() {
                    "no crawl (a kind of its own)".to_string()
                } else {
                    peers.join(", ")
                }
            );
        }
        let joined = collections.iter().flatten().count();
        let (first, last) = (
            days.iter().copied().fold(f64::INFINITY, f64::min),
            days.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        let events: Vec<&(f64, &str, &str)> = EVENTS
            .iter()
            .filter(|e| first < e.0 && e.0 < last)
            .collect();
        let marks = events
            .iter()
            .map(|e| chart::Mark {
                day: e.0,
                label: e.1,
            })
            .collect();
        let events_said: String = (events.iter())
            .map(|e| format!(" The grey line marks {}: {}.", e.1, e.2))
            .collect();
        let said = format!(
            "Each crawl has a place of its own, in the order of its earliest robots.txt \
             capture (the date under its name). A line joins only \
             crawls of one collection (names that differ only in their digits, like \
             CC-MAIN-2024-22 and CC-MAIN-2024-26); a dot without a line is a crawl of a kind of \
             its own, whose shares are not comparable with the others' (another archive, \
             another way of choosing hosts). {}",
            if joined == 0 {
                "No two of these crawls are of one collection: nothing here is a trend.".to_string()
            } else {
                format!("{joined} of the {} crawls are joined.", dated.len())
            }
        ) + &events_said;
        Axis {
            slots,
            collections,
            marks,
            head_rows: vec![captured, compared],
            said,
        }
    }

    fn chart(&self, lines: &[chart::Line]) -> String {
        chart::timeline(&self.slots, &self.collections, lines, &self.marks)
    }
}

/// The `*` reading and the AI agents most blocked by name in the last crawl, crawl by crawl.
fn blocking_figure(dated: &[&CrawlFigures], axis: &Axis, body: &mut String) {
    let last = agents(dated[dated.len() - 1]);
    let followed: Vec<&str> = (last.top_named(CHANGE_LINES - 1).agents())
        .map(|s| s.agent.as_str())
        .collect();
    let share_of = |d: &CrawlFigures, agent: &str| {
        (agents(d).shares.iter())
            .find(|s| s.agent == agent)
            .and_then(|s| s.share_2xx())
    };
    let mut lines = Vec::new();
    let mut legend: Vec<(&str, String)> = Vec::new();
    let mut rows = axis.head_rows.clone();
    let with_star = dated.iter().all(|d| agents(d).star.is_some());
    if with_star {
        let star_share = |d: &CrawlFigures| {
            let a = agents(d);
            a.star.and_then(|s| share(s.full_block, a.hosts_2xx))
        };
        lines.push(chart::Line {
            points: dated.iter().map(|d| star_share(d)).collect(),
            colour: STAR_COLOUR,
        });
        legend.push(("every crawler, through *", chart::line_colour(STAR_COLOUR)));
        let mut row = String::from("<td>every crawler, through <code>*</code></td>");
        for d in dated {
            row.push_str(&html::cell_of(
                "agents_wildcard_blocking",
                &d.crawl,
                "",
                "share_full_block",
                Num::Share(star_share(d)),
            ));
        }
        rows.push(row);
    }
    for (k, a) in followed.iter().enumerate() {
        lines.push(chart::Line {
            points: dated.iter().map(|d| share_of(d, a)).collect(),
            colour: k,
        });
        legend.push((a, chart::line_colour(k)));
        let mut row = format!("<td>{}</td>", esc_value(a));
        for d in dated {
            row.push_str(&html::cell_in(
                &d.crawl,
                a,
                "share_2xx",
                Num::Share(share_of(d, a)),
            ));
        }
        rows.push(row);
    }
    let mut head = vec![""];
    head.extend(dated.iter().map(|d| d.crawl.as_str()));
    Figure {
        id: "change-ai-blocking".into(),
        title: "AI crawlers fully blocked, crawl by crawl",
        chart: Some(axis.chart(&lines)),
        legend: &legend,
        unit: "Share of hosts whose robots.txt answered 2xx that fully block the agent, in each \
               crawl (each host read at its governing capture): hosts blocking every crawler \
               they do not name through `*`, then the AI agents most often fully blocked by a \
               group naming them in the last crawl (their share counts blocks through `*` too).",
        totals: None,
        queries: &["agents_full_block_share", "agents_wildcard_blocking"],
        head: &head,
        rows,
    }
    .render(body);
}

/// The other headline shares crawl by crawl: hosts naming an AI agent, hosts writing
/// Content-Signal, HTML pages with a robots meta tag or header.
fn other_shares_figure(dated: &[&CrawlFigures], axis: &Axis, body: &mut String) {
    type Of = fn(&CrawlFigures) -> Option<(u64, u64)>;
    let series: [(&str, &str, &str, &str, Of); 3] = [
        (
            "hosts naming an AI agent",
            "agents_ai_named_share",
            "",
            "share",
            |d| d.agents.as_ref().map(|a| (a.hosts_naming_ai, a.hosts_2xx)),
        ),
        (
            "hosts writing Content-Signal",
            "robots_extension_adoption",
            "content_signal",
            "share",
            |d| d.content_signal,
        ),
        (
            "HTML pages with a robots meta tag or header",
            "signals_html_share",
            "",
            "share_any",
            |d| d.pages_any,
        ),
    ];
    let value = |of: Of, d: &CrawlFigures| of(d).and_then(|(part, whole)| share(part, whole));
    let lines: Vec<chart::Line> = (series.iter().enumerate())
        .map(|(k, s)| chart::Line {
            points: dated.iter().map(|d| value(s.4, d)).collect(),
            colour: k,
        })
        .collect();
    let legend: Vec<(&str, String)> = (series.iter().enumerate())
        .map(|(k, s)| (s.0, chart::line_colour(k)))
        .collect();
    let mut rows = axis.head_rows.clone();
    rows.extend(series.iter().map(|&(label, q, key, column, of)| {
        let mut row = format!("<td>{}</td>", esc(label));
        for d in dated {
            row.push_str(&match of(d) {
                Some((part, whole)) => {
                    html::cell_of(q, &d.crawl, key, column, Num::Share(share(part, whole)))
                }
                None => r#"<td class="num">n/a</td>"#.to_string(),
            });
        }
        row
    }));
    let mut head = vec![""];
    head.extend(dated.iter().map(|d| d.crawl.as_str()));
    Figure {
        id: "change-other".into(),
        title: "Other headline shares, crawl by crawl",
        chart: Some(axis.chart(&lines)),
        legend: &legend,
        unit: "Hosts naming an AI agent: share of hosts whose robots.txt answered 2xx that write \
               the name of an AI agent. Hosts writing Content-Signal: share of hosts whose latest \
               robots.txt capture was parsed. HTML pages: share of the HTML pages that answered \
               2xx with a robots meta tag or header. n/a: the crawl has none.",
        totals: None,
        queries: &[
            "agents_ai_named_share",
            "robots_extension_adoption",
            "signals_html_share",
        ],
        head: &head,
        rows,
    }
    .render(body);
}

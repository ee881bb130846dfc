//! The numbers of the page-signal figures: `signals_directive_frequency.sql` and
//! `signals_sfv_adoption.sql` read from the page summaries as the queries read them, and the
//! pages of `signals_meta_header_conflicts.sql` from one pass over `page_signals`, made only
//! when `summary_page_conflicts` counts a conflict.
//!
//! A response's rows all lie in the part of the input that held it, so what is counted per
//! response (distinct responses, distinct header values, a page's meta tags against its
//! headers) lives for one part at a time; only the distinct hosts per row of a query and the
//! conflicts found are kept for the whole crawl.

use super::load::{flag, text, Batch, Names, Tables};
use crate::signals::{are_opposite, Source};
use crate::tables::Table;
use anyhow::Result;
use arrow_array::Array;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

/// One row of `signals_directive_frequency.sql`.
#[derive(Debug, Clone)]
pub(super) struct DirectiveCount {
    pub source: String,
    pub agent: String,
    pub directive: String,
    pub responses: u64,
    pub hosts: u64,
}

/// One row of `signals_sfv_adoption.sql`.
#[derive(Debug, Clone)]
pub(super) struct SyntaxCount {
    pub source: String,
    pub syntax: String,
    pub headers: u64,
    pub responses: u64,
    pub hosts: u64,
}

/// One row of `signals_meta_header_conflicts.sql`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Conflict {
    pub url: String,
    pub agent: String,
    pub header_directive: String,
    pub meta_directive: String,
}

/// What a crawl's pages say in their robots headers and meta tags.
#[derive(Debug, Default)]
pub(super) struct PageDirectives {
    /// Most responses first, then by source, agent and directive (the query's order).
    pub directives: Vec<DirectiveCount>,
    /// Most header values first, then by source and syntax.
    pub syntaxes: Vec<SyntaxCount>,
    /// Robots header values of 2xx responses: the denominator of the syntaxes' shares.
    pub headers: u64,
    /// In the query's order (url, agent, header directive, meta directive).
    pub conflicts: Vec<Conflict>,
    /// The row of `signals_robots_headers_both.sql`: 2xx pages with both robots headers (none
    /// when the crawl's summaries are of a schema before `summary_page_header_pairs`).
    pub header_pairs: Option<HeaderPairs>,
}

/// 2xx pages that carry both `X-Robots-Tag` and `Robots-Tag`, from `summary_page_header_pairs`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct HeaderPairs {
    pub both: u64,
    /// Of `both`, those where the two give some agent different directives, and their hosts.
    pub disagree: u64,
    pub hosts_disagree: u64,
}

/// The source of a robots directive the conflicts read: a meta tag or a robots header (the
/// queries' `source` values); `None` for the others.
fn robots_source(s: &str) -> Option<Source> {
    Source::from_name(s).filter(|s| s.is_robots_header() || *s == Source::Meta)
}

/// What one response says, for the conflicts: (agent, directive) pairs by side.
#[derive(Default)]
struct Response {
    url: String,
    header: Vec<(u32, u32)>,
    meta: Vec<(u32, u32)>,
}

/// The state of the pass: counts by a row's group, distinct sets, and the part's responses.
#[derive(Default)]
struct Pass {
    names: Names,
    /// (source, agent, directive) and (source, syntax) groups, as ids into the counts.
    directive_groups: HashMap<(u32, u32, u32), usize>,
    directives: Vec<(u32, u32, u32, u64, u64)>,
    syntax_groups: HashMap<(u32, u32), usize>,
    syntaxes: Vec<(u32, u32, u64, u64, u64)>,
    /// Crawl-wide: (group, host) pairs seen.
    directive_hosts: HashSet<(usize, u32)>,
    syntax_hosts: HashSet<(usize, u32)>,
    /// Per part: (group, file, offset) seen, header values seen, and each response's pairs.
    directive_responses: HashSet<(usize, u32, i64)>,
    syntax_responses: HashSet<(usize, u32, i64)>,
    header_values: HashSet<(u32, i64, i32, usize)>,
    responses: HashMap<(u32, i64), Response>,
    conflicts: BTreeSet<Conflict>,
}

/// The columns the pass reads, and those read as dictionaries.
const COLUMNS: [&str; 11] = [
    "warc_file",
    "warc_offset",
    "url",
    "host",
    "http_status",
    "source",
    "agent",
    "directive",
    "syntax",
    "signal_index",
    "in_head",
];
const DICTIONARIES: [&str; 6] = [
    "warc_file",
    "host",
    "source",
    "agent",
    "directive",
    "syntax",
];

impl PageDirectives {
    /// The directives and syntaxes from the page summaries; the conflicts, a list of pages,
    /// from one pass over `page_signals`, made only when `summary_page_conflicts` counts some.
    pub(super) fn load(t: &Tables<'_>, crawl: &str) -> Result<PageDirectives> {
        let mut found = Self::from_summaries(t, crawl)?;
        if found.has_conflicts {
            let mut pass = Pass::default();
            for part in t.parts(Table::PageSignals, crawl) {
                t.each_in(part, &COLUMNS, &DICTIONARIES, |b| pass.batch(b))?;
                pass.end_part();
            }
            found.page.conflicts = pass.finish().conflicts;
        }
        Ok(found.page)
    }

    /// The rows of `signals_directive_frequency.sql` and `signals_sfv_adoption.sql` (2xx
    /// responses), read from `summary_page_directives` and `summary_page_headers`, and whether
    /// `summary_page_conflicts` counts a 2xx response.
    fn from_summaries(t: &Tables<'_>, crawl: &str) -> Result<Summarized> {
        let mut page = PageDirectives::default();
        let is_2xx = |b: &Batch<'_>, i: usize| -> Result<bool> {
            Ok(text(b.strings("status_class")?, i) == Some("2xx"))
        };
        let cols = [
            "source",
            "agent",
            "directive",
            "status_class",
            "responses",
            "hosts",
        ];
        t.each(Table::SummaryPageDirectives, crawl, &cols, &[], |b| {
            let (source, agent, directive) = (
                b.strings("source")?,
                b.strings("agent")?,
                b.strings("directive")?,
            );
            let (responses, hosts) = (b.i64s("responses")?, b.i64s("hosts")?);
            for i in 0..b.len() {
                let src = text(source, i).unwrap_or_default();
                let Some(d) = text(directive, i).filter(|d| !d.starts_with("tdm-")) else {
                    continue;
                };
                if !is_2xx(b, i)? || robots_source(src).is_none() {
                    continue;
                }
                page.directives.push(DirectiveCount {
                    source: src.to_string(),
                    agent: text(agent, i).unwrap_or_default().to_string(),
                    directive: d.to_string(),
                    responses: responses.value(i).max(0) as u64,
                    hosts: hosts.value(i).max(0) as u64,
                });
            }
            Ok(())
        })?;
        let cols = [
            "source",
            "syntax",
            "status_class",
            "headers",
            "responses",
            "hosts",
        ];
        t.each(Table::SummaryPageHeaders, crawl, &cols, &[], |b| {
            let (source, syntax) = (b.strings("source")?, b.strings("syntax")?);
            let (headers, responses, hosts) =
                (b.i64s("headers")?, b.i64s("responses")?, b.i64s("hosts")?);
            for i in 0..b.len() {
                if is_2xx(b, i)? {
                    page.syntaxes.push(SyntaxCount {
                        source: text(source, i).unwrap_or_default().to_string(),
                        syntax: text(syntax, i).unwrap_or_default().to_string(),
                        headers: headers.value(i).max(0) as u64,
                        responses: responses.value(i).max(0) as u64,
                        hosts: hosts.value(i).max(0) as u64,
                    });
                }
            }
            Ok(())
        })?;
        let mut has_conflicts = false;
        t.each(
            Table::SummaryPageConflicts,
            crawl,
            &["status_class"],
            &[],
            |b| {
                for i in 0..b.len() {
                    has_conflicts |= is_2xx(b, i)?;
                }
                Ok(())
            },
        )?;
        let cols = [
            "agent",
            "status_class",
            "headers_agree",
            "responses",
            "hosts",
        ];
        let mut pairs = HeaderPairs::default();
        t.each(Table::SummaryPageHeaderPairs, crawl, &cols, &[], |b| {
            let (agent, agree) = (b.strings("agent")?, b.bools("headers_agree")?);
            let (responses, hosts) = (b.i64s("responses")?, b.i64s("hosts")?);
            for i in 0..b.len() {
                if agent.is_valid(i) || !is_2xx(b, i)? {
                    continue;
                }
                let n = responses.value(i).max(0) as u64;
                pairs.both += n;
                if !agree.value(i) {
                    pairs.disagree += n;
                    pairs.hosts_disagree += hosts.value(i).max(0) as u64;
                }
            }
            Ok(())
        })?;
        let summarized = t.known(Table::SummaryPageHeaderPairs);
        page.header_pairs = summarized.then_some(pairs);
        page.directives.sort_by(|x, y| {
            (y.responses.cmp(&x.responses)).then_with(|| {
                (&x.source, &x.agent, &x.directive).cmp(&(&y.source, &y.agent, &y.directive))
            })
        });
        page.syntaxes.sort_by(|x, y| {
            (y.headers.cmp(&x.headers))
                .then_with(|| (&x.source, &x.syntax).cmp(&(&y.source, &y.syntax)))
        });
        page.headers = page.syntaxes.iter().map(|s| s.headers).sum();
        Ok(Summarized {
            page,
            has_conflicts,
        })
    }
}

/// What the page summaries give of a crawl's page directives.
struct Summarized {
    page: PageDirectives,
    has_conflicts: bool,
}

impl Pass {
    /// Count one batch's rows. Long because it is the one loop over every row: each query's
    /// condition is tested on the row in place, and the columns are bound once per batch.
    fn batch(&mut self, b: &Batch<'_>) -> Result<()> {
        let (file, host) = (b.labels("warc_file")?, b.labels("host")?);
        let (source, agent) = (b.labels("source")?, b.labels("agent")?);
        let (directive, syntax) = (b.labels("directive")?, b.labels("syntax")?);
        let (offset, url, status) = (
            b.i64s("warc_offset")?,
            b.strings("url")?,
            b.i32s("http_status")?,
        );
        let (signal_index, in_head) = (b.i32s("signal_index")?, b.bools("in_head")?);
        let files = self.names.of(&file);
        let hosts = self.names.of(&host);
        let sources: Vec<Option<Source>> = source.map(robots_source);
        let source_ids = self.names.of(&source);
        let agents = self.names.of(&agent);
        let directives = self.names.of(&directive);
        let syntaxes = self.names.of(&syntax);
        for i in 0..b.len() {
            let ok = status.is_valid(i) && (200..=299).contains(&status.value(i));
            let Some(s) = source.key(i).filter(|_| ok) else {
                continue;
            };
            let Some(src) = sources[s] else { continue };
            let f = file.key(i).map_or(u32::MAX, |k| files[k]);
            let h = host.key(i).map(|k| hosts[k]);
            let at = (f, offset.value(i));
            let a = agent
                .key(i)
                .map_or_else(|| self.names.id(""), |k| agents[k]);
            if src != Source::Meta {
                let x = syntax
                    .key(i)
                    .map_or_else(|| self.names.id(""), |k| syntaxes[k]);
                let g = self.syntax_group(source_ids[s], x);
                let value = (at.0, at.1, signal_index.value(i), g);
                if self.header_values.insert(value) {
                    self.syntaxes[g].2 += 1;
                }
                if self.syntax_responses.insert((g, at.0, at.1)) {
                    self.syntaxes[g].3 += 1;
                }
                if h.is_some_and(|h| self.syntax_hosts.insert((g, h))) {
                    self.syntaxes[g].4 += 1;
                }
            }
            let Some(d) = directive.key(i) else { continue };
            let (d, d_name) = (directives[d], directive.values.value(d));
            if !d_name.starts_with("tdm-") {
                let g = self.directive_group(source_ids[s], a, d);
                if self.directive_responses.insert((g, at.0, at.1)) {
                    self.directives[g].3 += 1;
                }
                if h.is_some_and(|h| self.directive_hosts.insert((g, h))) {
                    self.directives[g].4 += 1;
                }
            }
            let in_head = !in_head.is_valid(i) || flag(in_head, i);
            if in_head {
                let r = self.responses.entry(at).or_default();
                if r.url.is_empty() {
                    r.url = text(url, i).unwrap_or("").to_string();
                }
                let side = if src == Source::Meta {
                    &mut r.meta
                } else {
                    &mut r.header
                };
                side.push((a, d));
            }
        }
        Ok(())
    }

    fn directive_group(&mut self, source: u32, agent: u32, directive: u32) -> usize {
        let next = self.directives.len();
        let g = *(self.directive_groups)
            .entry((source, agent, directive))
            .or_insert(next);
        if g == next {
            self.directives.push((source, agent, directive, 0, 0));
        }
        g
    }

    fn syntax_group(&mut self, source: u32, syntax: u32) -> usize {
        let next = self.syntaxes.len();
        let g = *self.syntax_groups.entry((source, syntax)).or_insert(next);
        if g == next {
            self.syntaxes.push((source, syntax, 0, 0, 0));
        }
        g
    }

    /// A part is done: find its responses' conflicts and forget what was per response.
    fn end_part(&mut self) {
        for r in self.responses.values_mut() {
            // Each pair once, the meta tags by agent: a header is joined with its agent's alone
            // (a response may carry a million headers).
            for pairs in [&mut r.header, &mut r.meta] {
                pairs.sort_unstable();
                pairs.dedup();
            }
            for &(ha, hd) in &r.header {
                let from = r.meta.partition_point(|m| m.0 < ha);
                for &(ma, md) in r.meta[from..].iter().take_while(|m| m.0 == ha) {
                    let (hd, md) = (self.names.name(hd), self.names.name(md));
                    if are_opposite(hd, md) {
                        self.conflicts.insert(Conflict {
                            url: r.url.clone(),
                            agent: self.names.name(ma).to_string(),
                            header_directive: hd.to_string(),
                            meta_directive: md.to_string(),
                        });
                    }
                }
            }
        }
        self.responses.clear();
        self.directive_responses.clear();
        self.syntax_responses.clear();
        self.header_values.clear();
    }

    fn finish(self) -> PageDirectives {
        let name = |id: u32| self.names.name(id).to_string();
        let mut directives: Vec<DirectiveCount> = (self.directives.iter())
            .map(|&(s, a, d, responses, hosts)| DirectiveCount {
                source: name(s),
                agent: name(a),
                directive: name(d),
                responses,
                hosts,
            })
            .collect();
        directives.sort_by(|x, y| {
            (y.responses.cmp(&x.responses)).then_with(|| {
                (&x.source, &x.agent, &x.directive).cmp(&(&y.source, &y.agent, &y.directive))
            })
        });
        let mut syntaxes: Vec<SyntaxCount> = (self.syntaxes.iter())
            .map(|&(s, x, headers, responses, hosts)| SyntaxCount {
                source: name(s),
                syntax: name(x),
                headers,
                responses,
                hosts,
            })
            .collect();
        syntaxes.sort_by(|x, y| {
            (y.headers.cmp(&x.headers))
                .then_with(|| (&x.source, &x.syntax).cmp(&(&y.source, &y.syntax)))
        });
        PageDirectives {
            headers: syntaxes.iter().map(|s| s.headers).sum(),
            directives,
            syntaxes,
            conflicts: self.conflicts.into_iter().collect(),
            header_pairs: None,
        }
    }
}

//! Who may crawl what: the verdict of every robots.txt capture for every tracked agent (the
//! `agent_verdicts` and `agent_verdict_runs` rows), with Google's semantics. What a parsed file
//! lets an agent crawl is `robots::classify`'s; here are the caches that make it once per file,
//! group choice and body (agents sharing groups, bodies seen lately), the documented readings,
//! and the rows.
//!
//! Without a parsed body the verdict follows the capture's status: `no_robots` for an empty
//! body or a 4xx (RFC 9309: unavailable, crawl freely), `unreachable` for a 5xx or 429 (and
//! `verdict_rfc9309` gives RFC 9309's reading: full_block for a 5xx, no_robots for a 429),
//! `redirect` for an unresolved 3xx, `unknown` for revisits and records without an HTTP status.

use super::verdict_rows::{push, RunRows};
pub use super::verdict_rows::{unparsed, AgentVerdict, DocumentedSource, VerdictTables};
use crate::agents::{Agent, Registry};
use crate::robots::classify::{Classifier, Verdict};
use crate::robots::ext::app_directives_for;
use crate::robots::matcher::Selection;
use crate::robots::parse::{one_word_name, product_token, writes_name, written_name};
use crate::robots::{Key, Matcher, RobotsTxt, Source};
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::{AgentVerdictRow, RobotsFileRow};

/// Reusable state for computing verdicts.
#[derive(Default)]
pub struct Verdicts {
    matcher: Matcher,
    classifier: Classifier,
    /// Indexes of the user-agent lines of the file being emitted.
    ua_lines: Vec<usize>,
    /// The one-word name each of those lines writes ([`written_name`]), as a range of the body.
    written: Vec<std::ops::Range<usize>>,
    /// Per registry agent, its name as a one-word name ([`one_word_name`]); `None` for a name of
    /// several words. Made with `by_token`.
    one_word: Vec<Option<Box<[u8]>>>,
    /// The registry's agents by lower-cased product token, for the registry they were built
    /// from (its address and size), and which agents the file being emitted names. Slots past
    /// the agents stand for the registry's fallback tokens: `fallbacks[k]` lists agent `k`'s,
    /// and `fallback_verdicts` keeps, per slot, the verdict of the groups naming that token
    /// once computed for the file (Googlebot's serves five agents).
    by_token: rustc_hash::FxHashMap<Vec<u8>, Vec<usize>>,
    by_token_of: (usize, usize),
    named: Vec<bool>,
    fallbacks: Vec<Vec<usize>>,
    fallback_verdicts: Vec<Option<Verdict>>,
    /// Agents with no purpose, application or documented group rules: unless named, their
    /// verdicts are all the shared one.
    plain: Vec<bool>,
    token: Vec<u8>,
    /// The verdicts of bodies seen lately, by digest.
    seen: SeenBodies,
    /// The classifications made for the file [`Verdicts::runs`] is emitting.
    classified: Classified,
    /// The `Content-Usage` lines of the agent being classified ([`crate::robots::usage`]).
    usage_lines: Vec<usize>,
    /// The joined runs of the capture being emitted (`agent_verdict_runs`), kept for the next.
    run_buf: Vec<(AgentVerdict, u32, u32)>,
    /// The registry positions of the agents that do not honour robots.txt, for the registry
    /// at `not_honored_of` (its address and size).
    not_honored: Vec<u32>,
    not_honored_of: (usize, usize),
}

/// Hands on the runs of a capture's verdicts, in registry order, with the documented reading
/// of the agents that do not honour robots.txt made `not_honored`: a run holding some is cut
/// around them.
struct Honoring<F> {
    not_honored: Vec<u32>,
    /// The registry position of the next run's first agent.
    next: u32,
    push: F,
}

impl<F: FnMut(&AgentVerdict, u32)> Honoring<F> {
    fn new(not_honored: Vec<u32>, push: F) -> Self {
        Honoring {
            not_honored,
            next: 0,
            push,
        }
    }

    fn push(&mut self, v: &AgentVerdict, n: u32) {
        let (first, end) = (self.next, self.next + n);
        self.next = end;
        let at = self.not_honored.partition_point(|&k| k < first);
        let inside = self.not_honored[at..].iter().take_while(|&&k| k < end);
        let mut from = first;
        let mut ignoring: Option<AgentVerdict> = None;
        for &k in inside {
            if k > from {
                (self.push)(v, k - from);
            }
            let ignores = ignoring.get_or_insert_with(|| AgentVerdict {
                verdict_documented: Verdict::NotHonored,
                documented_source: Some(DocumentedSource::NotHonored),
                ..v.clone()
            });
            (self.push)(ignores, 1);
            from = k + 1;
        }
        if end > from {
            (self.push)(v, end - from);
        }
    }
}

/// The classifications of one file, by the groups they were made of: agents chosen the same
/// groups the same way get the same classification, as every agent of a group that lists forty
/// AI crawlers over one `Disallow: /` does. A classification is a function of the file and of
/// the lines the selection chooses (the matcher's flags and `want`), so the key is the
/// [`Selection`] and its groups. Only [`Verdicts::runs`] turns it on, emptied, for each file.
#[derive(Default)]
struct Classified {
    on: bool,
    /// Each classification: its selection, a hash of its groups, its groups (a range of
    /// `groups`) and the result. The hash keeps a lookup from comparing long lists of groups
    /// (a crafted file's thousands) with every earlier one.
    made: Vec<(Selection, u64, std::ops::Range<usize>, AgentVerdict)>,
    groups: Vec<u32>,
}

impl Classified {
    fn begin(&mut self) {
        self.on = true;
        self.made.clear();
        self.groups.clear();
    }
}

/// The verdict runs of recently seen bodies, by the body's digest: a body's verdicts are a
/// function of its bytes (and the registry), and many hosts serve the same robots.txt (a
/// platform's or a CMS's default, a site's hosts and schemes). Direct-mapped: a body takes the
/// slot its digest hashes to, replacing what was there.
#[derive(Default)]
struct SeenBodies {
    /// The registry the runs are for (its address and size).
    of: (usize, usize),
    slots: Vec<Option<SeenBody>>,
}

struct SeenBody {
    digest: Box<str>,
    runs: Vec<(AgentVerdict, u32)>,
    undetermined: bool,
}

/// Slots of [`SeenBodies`] (a power of two).
const SEEN_BODIES: usize = 1024;

impl SeenBodies {
    /// The slot of `digest`, after emptying every slot if the registry is not the one the
    /// runs are for.
    fn slot(&mut self, registry: &Registry, digest: &str) -> usize {
        let of = (registry.agents.as_ptr() as usize, registry.agents.len());
        if self.of != of || self.slots.is_empty() {
            self.of = of;
            self.slots.clear();
            self.slots.resize_with(SEEN_BODIES, || None);
        }
        let hash = std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, digest);
        hash as usize & (SEEN_BODIES - 1)
    }
}

impl Verdicts {
    /// The verdict of a parsed, non-empty robots.txt for `agent`.
    pub fn parsed(&mut self, robots: &RobotsTxt<'_>, agent: &Agent, named: bool) -> AgentVerdict {
        let sel = self
            .matcher
            .select(robots, &[&agent.token], agent.purpose.as_deref());
        let mut v = self.classify(robots, sel);
        // The preferences of the agent's groups as attach-05 draws them, where crawling `/`
        // is allowed: not by the groups Google's reading chose (see `robots::usage`).
        if v.root_allowed == Some(true) && robots.summary.has_content_usage {
            crate::robots::usage::usage_lines(robots, &agent.token, &mut self.usage_lines);
            v.content_usage = crate::signals::ai_prefs::robots_preferences(
                robots,
                &self.usage_lines,
                &mut self.matcher,
                b"/",
            );
        }
        let (documented, source) = self.documented(robots, agent, sel.source, v.verdict);
        (v.verdict_documented, v.documented_source) = (documented, Some(source.into()));
        v.named = Some(named);
        if let Some(app) = &agent.app {
            v.app_directives = Some(
                app_directives_for(robots, &agent.token, app, b"/")
                    .into_iter()
                    .map(|(k, val, _)| format!("{k}={val}"))
                    .collect(),
            );
        }
        v
    }

    /// [`Verdicts::documented`] for the `k`-th agent, which the file does not name and which
    /// has no purpose: Google's verdict for it is `google` (from `google_source`), the verdict
    /// of the groups of the first fallback token the file names if any (computed once per
    /// file), `allowed` if it ignores the `*` groups that decide for it.
    fn documented_unnamed(
        &mut self,
        robots: &RobotsTxt<'_>,
        registry: &Registry,
        k: usize,
        google_source: Source,
        google: Verdict,
    ) -> (Verdict, Source) {
        let a = &registry.agents[k];
        let n = registry.agents.len();
        let Some(j) = self.fallbacks[k].iter().position(|&slot| self.named[slot]) else {
            let ignored = a.ignores_wildcard && google_source == Source::Wildcard;
            return match ignored {
                true => (Verdict::Allowed, Source::None),
                false => (google, google_source),
            };
        };
        let slot = self.fallbacks[k][j] - n;
        if let Some(v) = self.fallback_verdicts[slot] {
            return (v, Source::Fallback);
        }
        let sel = self.matcher.select(robots, &[&a.fallback_tokens[j]], None);
        let v = self.classify(robots, sel).verdict;
        self.fallback_verdicts[slot] = Some(v);
        (v, Source::Fallback)
    }

    /// The verdict with the groups chosen as `agent`'s operator documents, and which groups
    /// those are, given Google's choice (its source) and verdict: the same unless the choice
    /// differs.
    fn documented(
        &mut self,
        robots: &RobotsTxt<'_>,
        agent: &Agent,
        google_source: Source,
        google: Verdict,
    ) -> (Verdict, Source) {
        let rules = agent.group_rules();
        if rules.is_google() {
            return (google, google_source);
        }
        let purpose = agent.purpose.as_deref();
        let sel = (self.matcher).select_documented(robots, &agent.token, purpose, rules);
        // Each source but `Fallback` stands for one choice of groups.
        if sel.source == google_source {
            return (google, google_source);
        }
        (self.classify(robots, sel).verdict, sel.source)
    }

    /// [`Verdicts::classify_now`], or the classification made earlier for the same file and
    /// the same groups chosen the same way (see [`Classified`]).
    fn classify(&mut self, robots: &RobotsTxt<'_>, sel: Selection) -> AgentVerdict {
        if !self.classified.on {
            return self.classify_now(robots, sel);
        }
        let c = &mut self.classified;
        let start = c.groups.len();
        c.groups
            .extend(self.matcher.selected_groups(sel).map(|g| g as u32));
        let key = start..c.groups.len();
        let groups = &c.groups;
        let hash =
            std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, &groups[key.clone()]);
        let earlier = (c.made.iter()).find(|(s, h, r, _)| {
            *s == sel && *h == hash && groups[r.clone()] == groups[key.clone()]
        });
        if let Some((_, _, _, v)) = earlier {
            let v = v.clone();
            c.groups.truncate(start);
            return v;
        }
        let v = self.classify_now(robots, sel);
        self.classified.made.push((sel, hash, key, v.clone()));
        v
    }

    fn classify_now(&mut self, robots: &RobotsTxt<'_>, sel: Selection) -> AgentVerdict {
        let c = self.classifier.classify(&mut self.matcher, robots, sel);
        AgentVerdict {
            named: None,
            named_exact: None,
            source: Some(c.source),
            root_allowed: Some(c.root_allowed),
            verdict: c.verdict,
            verdict_rfc9309: c.verdict,
            verdict_documented: c.verdict,
            documented_source: Some(c.source.into()),
            n_rules: Some(c.n_rules as i32),
            crawl_delay: c.crawl_delay,
            app_directives: None,
            // Per agent, not per selection: [`Verdicts::parsed`].
            content_usage: None,
        }
    }

    /// Append a capture's verdicts to `out`: one `agent_verdicts` row per registry agent, and
    /// its `agent_verdict_runs` rows. `robots` is the parsed body (`None` when the body was not
    /// parsed); `file` is the capture's `robots_files` row and `outcome` its fetch outcome.
    /// Returns whether some verdict was left `undetermined` (probe budget spent).
    pub fn emit(
        &mut self,
        out: VerdictTables<'_>,
        registry: &Registry,
        file: &RobotsFileRow<'_>,
        outcome: FetchOutcome,
        robots: Option<&RobotsTxt<'_>>,
    ) -> bool {
        let robots = robots.filter(|_| outcome.has_rules());
        let VerdictTables { mut rows, runs } = out;
        if let Some(rows) = rows.as_deref_mut() {
            let row = AgentVerdictRow {
                warc_file: file.warc_file,
                warc_offset: file.warc_offset,
                host: file.host,
                registered_domain: file.registered_domain,
                capture_time: file.capture_time,
                http_status: file.http_status,
                fetch_outcome: file.fetch_outcome,
                ..AgentVerdictRow::default()
            };
            rows.capture(&row, &registry.agents);
        }
        let mut runs = runs.map(|out| RunRows {
            out,
            file: (file.warc_file, file.warc_offset),
            registry,
            next: 0,
            runs: {
                let mut buf = std::mem::take(&mut self.run_buf);
                buf.clear();
                buf
            },
        });
        // `agent_verdicts` rows say `not_honored` for the agents that do not honour robots.txt;
        // the runs keep the file's reading for them, so that those agents, spread over the
        // registry, do not cut every capture's runs in pieces (the summaries apply it).
        let mut rows = Honoring::new(self.not_honored(registry), |v: &AgentVerdict, n| {
            if let Some(rows) = rows.as_deref_mut() {
                push(rows, v, n);
            }
        });
        let mut push_each = |v: &AgentVerdict, n: u32| {
            rows.push(v, n);
            if let Some(runs) = runs.as_mut() {
                runs.push(v, n);
            }
        };
        let undetermined = match (robots, file.body_digest) {
            (None, _) => {
                push_each(&unparsed(outcome), registry.agents.len() as u32);
                false
            }
            (Some(robots), Some(digest)) => {
                self.runs_by_digest(registry, robots, digest, push_each)
            }
            (Some(robots), None) => self.runs(registry, robots, push_each),
        };
        self.not_honored = rows.not_honored;
        if let Some(mut runs) = runs {
            runs.close();
            self.run_buf = runs.runs;
        }
        undetermined
    }

    /// [`Verdicts::runs`] of a body whose digest is `digest`: those of the last body seen with
    /// that digest, when its slot still holds them.
    fn runs_by_digest(
        &mut self,
        registry: &Registry,
        robots: &RobotsTxt<'_>,
        digest: &str,
        mut push: impl FnMut(&AgentVerdict, u32),
    ) -> bool {
        let slot = self.seen.slot(registry, digest);
        if let Some(seen) = self.seen.slots[slot]
            .as_ref()
            .filter(|s| *s.digest == *digest)
        {
            for (v, n) in &seen.runs {
                push(v, *n);
            }
            return seen.undetermined;
        }
        let mut runs = Vec::new();
        let undetermined = self.runs(registry, robots, |v, n| {
            push(v, n);
            runs.push((v.clone(), n));
        });
        self.seen.slots[slot] = Some(SeenBody {
            digest: digest.into(),
            runs,
            undetermined,
        });
        undetermined
    }

    /// Each registry agent with its verdict, in the registry's order, for a capture with fetch
    /// outcome `outcome` and parsed body `robots` (the rows [`Verdicts::emit`] appends).
    pub fn each<'r>(
        &mut self,
        registry: &'r Registry,
        outcome: FetchOutcome,
        robots: Option<&RobotsTxt<'_>>,
        mut f: impl FnMut(&'r Agent, &AgentVerdict),
    ) {
        let mut agents = registry.agents.iter();
        let each_of_run = |v: &AgentVerdict, n: u32| {
            for a in agents.by_ref().take(n as usize) {
                f(a, v);
            }
        };
        let mut each_of_run = Honoring::new(self.not_honored(registry), each_of_run);
        match robots.filter(|_| outcome != FetchOutcome::OkEmpty) {
            Some(robots) => {
                self.runs(registry, robots, |v, n| each_of_run.push(v, n));
            }
            None => each_of_run.push(&unparsed(outcome), registry.agents.len() as u32),
        }
        self.not_honored = each_of_run.not_honored;
    }

    /// The registry positions of the agents that do not honour robots.txt, taken out of
    /// `self` (to be given back) and made again for another registry.
    fn not_honored(&mut self, registry: &Registry) -> Vec<u32> {
        let key = (registry.agents.as_ptr() as usize, registry.agents.len());
        if self.not_honored_of != key {
            self.not_honored_of = key;
            self.not_honored = (registry.agents.iter().enumerate())
                .filter(|(_, a)| a.ignores_robots_txt())
                .map(|(k, _)| k as u32)
                .collect();
        }
        std::mem::take(&mut self.not_honored)
    }

    /// The verdicts of a parsed body for the registry's agents, in their order, as runs: `push`
    /// gets each verdict and the number of agents in a row it stands for. Returns whether some
    /// verdict was left `undetermined`.
    fn runs(
        &mut self,
        registry: &Registry,
        robots: &RobotsTxt<'_>,
        mut push: impl FnMut(&AgentVerdict, u32),
    ) -> bool {
        // The user-agent lines; an agent none of them names (and without a purpose or
        // application) gets the same Google verdict as every other such agent: compute it
        // once, and append it as one run for each stretch of such agents whose operator
        // documents nothing else (`verdict_documented` breaks the run where it differs).
        self.classified.begin();
        let mut ua_lines = std::mem::take(&mut self.ua_lines);
        ua_lines.clear();
        ua_lines.extend(
            (robots.agent_lines.iter().map(|&i| i as usize))
                .filter(|&i| robots.lines[i].key == Key::UserAgent),
        );
        let value = |i: usize| robots.lines[i].value(robots.body);
        self.mark_named(registry, ua_lines.iter().map(|&i| product_token(value(i))));
        // Each line's written name once, not once per named agent (`named_exact`).
        self.written.clear();
        self.written.extend(ua_lines.iter().map(|&i| {
            let start = robots.lines[i].value_start as usize;
            start..start + written_name(value(i)).len()
        }));
        // The shared verdict, and how many agents in a row (`run`) it stands for with one
        // documented verdict (`shared.verdict_documented`).
        let mut shared: Option<AgentVerdict> = None;
        let mut run = 0u32;
        let mut undetermined = false;
        for (k, a) in registry.agents.iter().enumerate() {
            let is_named = self.named[k];
            // The common case, kept short: one more agent for the current run.
            if let (false, true, Some(v)) = (is_named, self.plain[k], &shared) {
                if v.verdict_documented == v.verdict
                    && v.documented_source == v.source.map(DocumentedSource::from)
                {
                    run += 1;
                    continue;
                }
            }
            if is_named || a.purpose.is_some() || a.app.is_some() {
                if let (Some(v), true) = (&shared, run > 0) {
                    push(v, std::mem::take(&mut run));
                }
                let exact = is_named
                    && match &self.one_word[k] {
                        Some(name) => (self.written.iter())
                            .any(|w| robots.body[w.clone()].eq_ignore_ascii_case(name)),
                        None => {
                            (ua_lines.iter()).any(|&i| writes_name(value(i), a.name.as_bytes()))
                        }
                    };
                let mut v = self.parsed(robots, a, is_named);
                v.named_exact = Some(exact);
                undetermined |= [v.verdict, v.verdict_documented].contains(&Verdict::Undetermined);
                push(&v, 1);
            } else {
                let v = shared.get_or_insert_with(|| {
                    let v = self.parsed(robots, a, false);
                    undetermined |= v.verdict == Verdict::Undetermined;
                    AgentVerdict {
                        named_exact: Some(false),
                        ..v
                    }
                });
                let source = v.source.unwrap_or(Source::None);
                let (documented, doc_source) =
                    self.documented_unnamed(robots, registry, k, source, v.verdict);
                let doc_source = Some(DocumentedSource::from(doc_source));
                undetermined |= documented == Verdict::Undetermined;
                let differs =
                    (documented, doc_source) != (v.verdict_documented, v.documented_source);
                if run > 0 && differs {
                    push(v, std::mem::take(&mut run));
                }
                (v.verdict_documented, v.documented_source) = (documented, doc_source);
                run += 1;
            }
        }
        if let (Some(v), true) = (&shared, run > 0) {
            push(v, run);
        }
        self.classified.on = false;
        self.ua_lines = ua_lines;
        undetermined
    }
}

impl Verdicts {
    /// Index the registry's product tokens and fallback tokens (see [`Verdicts::by_token`]).
    fn index_tokens(&mut self, registry: &Registry) {
        let n = registry.agents.len();
        self.by_token.clear();
        for (k, a) in registry.agents.iter().enumerate() {
            let t = a.token.to_ascii_lowercase().into_bytes();
            self.by_token.entry(t).or_default().push(k);
        }
        let mut slots: Vec<Vec<u8>> = Vec::new();
        self.fallbacks = (registry.agents.iter())
            .map(|a| {
                (a.fallback_tokens.iter())
                    .map(|t| {
                        let t = t.to_ascii_lowercase().into_bytes();
                        let slot = slots.iter().position(|s| *s == t).unwrap_or_else(|| {
                            slots.push(t.clone());
                            slots.len() - 1
                        });
                        n + slot
                    })
                    .collect()
            })
            .collect();
        self.one_word = (registry.agents.iter())
            .map(|a| one_word_name(a.name.as_bytes()).map(Into::into))
            .collect();
        self.plain = (registry.agents.iter())
            .map(|a| a.purpose.is_none() && a.app.is_none() && a.group_rules().is_google())
            .collect();
        self.fallback_verdicts = vec![None; slots.len()];
        for (slot, t) in slots.into_iter().enumerate() {
            self.by_token.entry(t).or_default().push(n + slot);
        }
    }

    /// Whether a group of `robots` has both a `*` line and a user-agent line naming an AI agent
    /// of the registry (category `ai_*`) by its product token: the accidental block of a file
    /// that meant `*` to be a group of its own (`robots_files.wildcard_with_ai`).
    pub fn wildcard_with_ai(&mut self, registry: &Registry, robots: &RobotsTxt<'_>) -> bool {
        let key = (registry.agents.as_ptr() as usize, registry.agents.len());
        if self.by_token_of != key {
            self.index_tokens(registry);
            self.by_token_of = key;
        }
        let n = registry.agents.len();
        let (mut group, mut wildcard, mut ai) = (u32::MAX, false, false);
        for &i in &robots.agent_lines {
            let i = i as usize;
            if robots.line_group[i] != group {
                (group, wildcard, ai) = (robots.line_group[i], false, false);
            }
            let line = &robots.lines[i];
            if line.key != Key::UserAgent {
                continue;
            }
            let value = line.value(robots.body);
            if crate::robots::parse::is_wildcard_agent(value) {
                wildcard = true;
            } else {
                self.token.clear();
                self.token
                    .extend(product_token(value).iter().map(u8::to_ascii_lowercase));
                let agents = self.by_token.get(&self.token).into_iter().flatten();
                ai |= agents
                    .filter(|&&k| k < n)
                    .any(|&k| registry.agents[k].category.starts_with("ai_"));
            }
            if wildcard && ai {
                return true;
            }
        }
        false
    }

    /// Set `self.named[k]` for the registry agents whose product token (ignoring case) is one
    /// of `tokens`, and for the fallback token slots likewise.
    fn mark_named<'b>(&mut self, registry: &Registry, tokens: impl Iterator<Item = &'b [u8]>) {
        let key = (registry.agents.as_ptr() as usize, registry.agents.len());
        if self.by_token_of != key {
            self.index_tokens(registry);
            self.by_token_of = key;
        }
        let slots = self.fallback_verdicts.len();
        self.fallback_verdicts.clear();
        self.fallback_verdicts.resize(slots, None);
        self.named.clear();
        self.named.resize(registry.agents.len() + slots, false);
        for t in tokens {
            self.token.clear();
            self.token.extend(t.iter().map(u8::to_ascii_lowercase));
            for &k in self.by_token.get(&self.token).into_iter().flatten() {
                self.named[k] = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(name: &str) -> Agent {
        Agent::for_test(name)
    }

    fn kind(body: &str, name: &str) -> (&'static str, Option<Source>) {
        let r = RobotsTxt::parse(body.as_bytes());
        let v = Verdicts::default().parsed(&r, &agent(name), false);
        (v.verdict.as_str(), v.source)
    }

    #[test]
    fn content_usage_for_the_root_follows_attach_05_and_vocab_08() {
        let usage = |body: &str, name: &str| {
            let r = RobotsTxt::parse(body.as_bytes());
            Verdicts::default()
                .parsed(&r, &agent(name), false)
                .content_usage
        };
        let s = |v: &str| Some(v.to_string());
        // attach-05's example.
        let example = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n\
                       Content-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\n\
                       Content-Usage: train-ai=y\n";
        assert_eq!(usage(example, "ExampleBot"), s("train-ai=y"));
        assert_eq!(usage(example, "OtherBot"), s("train-ai=n"));
        // A `Content-Usage` line ends its group's agent lines (attach-05 makes it a rule), so
        // a preference reaches neither an agent named after it in Google's merged group nor
        // the next agent's group.
        let star_first = "User-agent: *\nContent-Usage: train-ai=n\nUser-agent: GPTBot\nAllow: /\n";
        assert_eq!(usage(star_first, "GPTBot"), None);
        assert_eq!(usage(star_first, "OtherBot"), s("train-ai=n"));
        let named_first =
            "User-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: CCBot\nAllow: /\n";
        assert_eq!(usage(named_first, "GPTBot"), s("train-ai=n"));
        assert_eq!(usage(named_first, "CCBot"), None);
        // Identical paths combine most restrictively; a longer matching path wins.
        let same =
            "User-agent: *\nContent-Usage: train-ai=y, search=y\nContent-Usage: train-ai=n\n";
        assert_eq!(usage(same, "a"), s("train-ai=n,search=y"));
        let longer = "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / train-ai=y\n";
        assert_eq!(usage(longer, "a"), s("train-ai=y"));
        // -08's `ai-use` is a preference, in the vocabulary's order; a proposed label is not.
        let use_08 = "User-agent: *\nContent-Usage: search=y, infer-train=n, ai-use=n\n";
        assert_eq!(usage(use_08, "a"), s("ai-use=n,search=y"));
        // Nothing for what may not be crawled, nor without a rule; a value that does not parse
        // (uppercase) leaves every preference unknown.
        assert_eq!(
            usage(
                "User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n",
                "a"
            ),
            None
        );
        assert_eq!(usage("User-agent: *\nDisallow: /x\n", "a"), None);
        assert_eq!(
            usage("User-agent: *\nContent-Usage: Train-AI=n\n", "a"),
            s("")
        );
    }

    #[test]
    fn wildcard_with_ai_needs_star_and_a_registry_ai_agent_in_one_group() {
        let registry = Registry::builtin();
        let mut v = Verdicts::default();
        let mut ai = |body: &str| v.wildcard_with_ai(&registry, &RobotsTxt::parse(body.as_bytes()));
        assert!(ai("User-agent: GPTBot\nUser-agent: *\nDisallow: /x\n"));
        assert!(ai("User-agent: *\n\nUser-agent: ccbot/2.0\nDisallow: /\n"));
        // Separate groups, or a group of `*` and a search engine: no.
        assert!(!ai(
            "User-agent: *\nDisallow: /x\nUser-agent: GPTBot\nDisallow: /\n"
        ));
        assert!(!ai("User-agent: *\nUser-agent: Googlebot\nDisallow: /x\n"));
        assert!(!ai("User-agent: GPTBot\nDisallow: /\n"));
    }

    #[test]
    fn kinds() {
        use Source::*;
        let k = |b, n| kind(b, n).0;
        assert_eq!(
            kind("User-agent: *\nDisallow: /", "GPTBot"),
            ("full_block", Some(Wildcard))
        );
        assert_eq!(
            kind("User-agent: GPTBot\nDisallow: /", "gptbot"),
            ("full_block", Some(Specific))
        );
        assert_eq!(
            k("User-agent: *\nDisallow: /\nAllow: /public", "a"),
            "partial_block"
        );
        assert_eq!(
            k("User-agent: *\nDisallow: /\nAllow: /$", "a"),
            "partial_block"
        );
        assert_eq!(k("User-agent: *\nDisallow: /\nAllow: /", "a"), "allowed");
        assert_eq!(k("User-agent: *\nDisallow: /\nAllow:", "a"), "full_block");
        assert_eq!(k("User-agent: *\nDisallow: /*", "a"), "full_block");
        assert_eq!(
            k("User-agent: *\nDisallow: /private\n", "a"),
            "partial_block"
        );
        assert_eq!(k("User-agent: *\nDisallow: *.pdf$\n", "a"), "partial_block");
        assert_eq!(k("User-agent: *\nDisallow:\n", "a"), "allowed");
        assert_eq!(
            kind("User-agent: b\nDisallow: /\n", "a"),
            ("allowed", Some(None))
        );
        assert_eq!(k("User-agent: *\nDisallow: x\n", "a"), "allowed");
        // The agent's own group decides, even when it allows more than `*`.
        assert_eq!(
            kind(
                "User-agent: *\nDisallow: /\n\nUser-agent: a\nDisallow:\n",
                "a"
            ),
            ("allowed", Some(Specific))
        );
        // A disallow that an equally long allow overrides blocks nothing.
        assert_eq!(
            k("User-agent: *\nDisallow: /x\nAllow: /x\n", "a"),
            "allowed"
        );
    }

    /// `full_block` means every path but the robots.txt is disallowed (docs/agents.md), on the
    /// patterns that make it hard: `$`, `*`, `/*`, Allow rules that reopen one path, the
    /// robots.txt itself, percent-encoding.
    #[test]
    fn full_block_means_every_path_but_the_robots_txt_is_disallowed() {
        let k = |rules: &str| kind(&format!("User-agent: *\n{rules}"), "a").0;
        let cases = [
            ("Disallow: /", "full_block"),
            ("Disallow: *", "full_block"),
            ("Disallow: /*", "full_block"),
            ("Disallow: /*$", "full_block"),
            ("Disallow: *$", "full_block"),
            ("Disallow: /**", "full_block"),
            // Only the home page is blocked.
            ("Disallow: /$", "partial_block"),
            ("Disallow: /$\nDisallow: /index.html", "partial_block"),
            // Both together block everything.
            ("Disallow: /$\nDisallow: /*", "full_block"),
            // The robots.txt is implicitly allowed (RFC 9309 section 2.3): allowing it reopens
            // nothing, disallowing it blocks nothing.
            ("Disallow: /\nAllow: /robots.txt", "full_block"),
            ("Disallow: /\nAllow: /robots.txt$", "full_block"),
            ("Disallow: /robots.txt", "allowed"),
            ("Disallow: /robots.txt$", "allowed"),
            ("Disallow: /robots", "partial_block"),
            ("Disallow: /\nAllow: /robots", "partial_block"),
            // Allow rules that reopen one path, or paths by a wildcard.
            ("Disallow: /\nAllow: /about.html$", "partial_block"),
            ("Disallow: /\nAllow: /*.css$", "partial_block"),
            ("Disallow: /*\nAllow: /$", "partial_block"),
            // An Allow that a longer Disallow always outranks reopens nothing.
            ("Disallow: /\nDisallow: /a*\nAllow: /a", "full_block"),
            // A Disallow with only literal text past the `/` leaves the rest open.
            ("Disallow: /*/", "partial_block"),
            ("Disallow: /%7Euser\nDisallow: /~user", "partial_block"),
            ("Disallow: /\nAllow: /%7Euser/", "partial_block"),
            ("Disallow: /\nAllow: /caf%C3%A9", "partial_block"),
            ("Disallow: /\nAllow: /café", "partial_block"),
        ];
        for (rules, want) in cases {
            assert_eq!(k(rules), want, "{rules:?}");
        }
    }

    #[test]
    fn kinds_more() {
        let k = |b: &str| kind(b, "a").0;
        assert_eq!(k("User-agent: *\nDisallow: /\nAllow: /*\n"), "allowed");
        assert_eq!(
            k("User-agent: *\nDisallow: /*.pdf$\nAllow: /*.pdf$\n"),
            "allowed"
        );
        // `/*/a` (the star kept) ties and goes to Allow; `/a` (the star dropped) is disallowed.
        assert_eq!(
            k("User-agent: *\nAllow: /*/\nDisallow: */a\n"),
            "partial_block"
        );
        // Every path `/*ab` matches, `/*a*b` (longer) matches too.
        assert_eq!(
            k("User-agent: *\nAllow: /*a*b\nDisallow: /*ab\n"),
            "allowed"
        );
    }

    /// A crafted file whose probes would be quadratic: the budget stops them, the verdict says
    /// so, and `/` is still decided.
    #[test]
    fn probe_budget_bounds_crafted_files() {
        let mut body = String::from("User-agent: *\nDisallow: /\n");
        for n in 0..3000 {
            body.push_str(&format!("Allow: /a{n}\nDisallow: /a{n}*\n"));
        }
        let r = RobotsTxt::parse(body.as_bytes());
        let v = Verdicts::default().parsed(&r, &agent("a"), false);
        assert_eq!(v.verdict, Verdict::Undetermined);
        assert_eq!(v.root_allowed, Some(false));
        // The same shape, small, is decided: nothing reopens.
        let r = RobotsTxt::parse(b"User-agent: *\nDisallow: /\nAllow: /a1\nDisallow: /a1*\n");
        assert_eq!(
            Verdicts::default().parsed(&r, &agent("a"), false).verdict,
            Verdict::FullBlock
        );
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_give_a_consistent_verdict(body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400),
                                              lines in proptest::collection::vec("(User-agent: (\\*|a|b)|(Allow|Disallow): /?[a*$]{0,3})", 0..12)) {
            let mut b = lines.join("\n").into_bytes();
            b.extend_from_slice(&body);
            let r = RobotsTxt::parse(&b);
            let v = Verdicts::default().parsed(&r, &agent("a"), false);
            let root = Matcher::new().verdict(&r, &["a"], None, b"/");
            proptest::prop_assert_eq!(v.root_allowed, Some(root.allowed));
            match v.verdict.as_str() {
                "full_block" => proptest::prop_assert!(!root.allowed),
                "allowed" | "partial_block" => {}
                k => proptest::prop_assert!(false, "unexpected {}", k),
            }
        }
    }

    /// Every path over `alphabet` of up to `max` bytes after the leading `/`.
    fn all_paths(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
        let mut level = vec![b"/".to_vec()];
        let mut all = level.clone();
        for _ in 0..max {
            level = (level.iter())
                .flat_map(|p| alphabet.iter().map(move |&c| [p.as_slice(), &[c]].concat()))
                .collect();
            all.extend(level.iter().cloned());
        }
        all
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// The verdict kinds agree with trying every short path: `full_block` when every path
        /// is disallowed, `allowed` when none is, `partial_block` otherwise. Patterns of up to
        /// four bytes over `/ a * $` have their probe paths among the paths tried.
        #[test]
        fn verdicts_agree_with_trying_every_path(
            rules in proptest::collection::vec("(Allow|Disallow): [/*]?[/a*$]{0,3}", 0..6)
        ) {
            let body = format!("User-agent: *\n{}", rules.join("\n"));
            let r = RobotsTxt::parse(body.as_bytes());
            let verdict = Verdicts::default().parsed(&r, &agent("a"), false).verdict;
            let mut m = Matcher::new();
            let sel = m.select(&r, &["a"], None);
            let paths = all_paths(b"/a*$\x01", 5);
            let disallowed = paths.iter().filter(|p| !m.decide(&r, sel, p).allowed).count();
            let want = match disallowed {
                0 => Verdict::Allowed,
                n if n == paths.len() => Verdict::FullBlock,
                _ => Verdict::PartialBlock,
            };
            proptest::prop_assert_eq!(verdict, want, "{}", body);
        }
    }

    /// The verdicts of a body for every built-in agent, by name: Google's, the documented and
    /// which groups decided the documented.
    fn both_readings(body: &str) -> Vec<(String, Verdict, Verdict, Option<DocumentedSource>)> {
        let registry = Registry::builtin();
        let r = RobotsTxt::parse(body.as_bytes());
        let mut rows = Vec::new();
        Verdicts::default().each(&registry, FetchOutcome::Ok, Some(&r), |a, v| {
            rows.push((
                a.name.clone(),
                v.verdict,
                v.verdict_documented,
                v.documented_source,
            ));
        });
        assert_eq!(rows.len(), registry.agents.len());
        rows
    }

    type Readings = [(String, Verdict, Verdict, Option<DocumentedSource>)];

    fn reading(rows: &Readings, name: &str) -> (&'static str, &'static str) {
        let (_, google, documented, _) = rows.iter().find(|r| r.0 == name).unwrap();
        (google.as_str(), documented.as_str())
    }

    fn documented_source(rows: &Readings, name: &str) -> &'static str {
        let (.., source) = rows.iter().find(|r| r.0 == name).unwrap();
        source.map_or("NULL", DocumentedSource::as_str)
    }

    /// Crawlers that do not honour robots.txt (Feedfetcher-Google, Perplexity-User) read
    /// `not_honored` in every file, `User-agent: *` / `Disallow: /` and a group naming them
    /// included, and without a body; their neighbours in the registry keep their readings.
    #[test]
    fn crawlers_that_ignore_robots_txt_read_not_honored() {
        for body in [
            "User-agent: *\nDisallow: /\n",
            "User-agent: Perplexity-User\nUser-agent: Feedfetcher-Google\nDisallow: /\n",
        ] {
            let rows = both_readings(body);
            for name in ["Feedfetcher-Google", "Perplexity-User"] {
                assert_eq!(
                    reading(&rows, name),
                    ("full_block", "not_honored"),
                    "{name}"
                );
            }
            assert_eq!(reading(&rows, "Bytespider").1, "not_honored");
            for name in ["Feedfetcher-Google", "Perplexity-User", "Bytespider"] {
                assert_eq!(documented_source(&rows, name), "not_honored");
            }
            assert_eq!(reading(&rows, "GPTBot").1, reading(&rows, "GPTBot").0);
            let honouring = rows.iter().filter(|r| r.2 != Verdict::NotHonored).count();
            let registry = Registry::builtin();
            let ignoring = (registry.agents.iter())
                .filter(|a| a.ignores_robots_txt())
                .count();
            assert_eq!(honouring + ignoring, rows.len());
        }
        let registry = Registry::builtin();
        let mut unparsed = Vec::new();
        Verdicts::default().each(&registry, FetchOutcome::NotFound, None, |a, v| {
            unparsed.push((
                a.name.clone(),
                v.verdict,
                v.verdict_documented,
                v.documented_source,
            ));
        });
        assert_eq!(
            reading(&unparsed, "Perplexity-User"),
            ("no_robots", "not_honored")
        );
        assert_eq!(
            reading(&unparsed, "PerplexityBot"),
            ("no_robots", "no_robots")
        );
    }

    /// `verdict_documented` chooses groups as each crawler's operator documents: fallback
    /// tokens in order after the crawler's own, `*` ignored by Google's special-case crawlers;
    /// `verdict` stays Google's library's reading.
    #[test]
    fn documented_verdicts_follow_each_crawlers_own_rules() {
        let rows = both_readings("User-agent: *\nDisallow: /\n");
        assert_eq!(reading(&rows, "AdsBot-Google"), ("full_block", "allowed"));
        assert_eq!(
            reading(&rows, "Mediapartners-Google"),
            ("full_block", "allowed")
        );
        assert_eq!(
            reading(&rows, "Googlebot-Image"),
            ("full_block", "full_block")
        );
        assert_eq!(reading(&rows, "GPTBot"), ("full_block", "full_block"));

        let rows = both_readings("User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n");
        for name in [
            "Googlebot-Image",
            "Googlebot-News",
            "Googlebot-Video",
            "Applebot",
        ] {
            assert_eq!(reading(&rows, name), ("allowed", "full_block"), "{name}");
        }
        assert_eq!(reading(&rows, "Googlebot"), ("full_block", "full_block"));
        assert_eq!(reading(&rows, "GoogleOther-Image"), ("allowed", "allowed"));
        assert_eq!(reading(&rows, "bingbot"), ("allowed", "allowed"));

        // The crawler's own group comes first.
        let rows = both_readings(
            "User-agent: Googlebot-Image\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /\n",
        );
        assert_eq!(reading(&rows, "Googlebot-Image"), ("allowed", "allowed"));
        assert_eq!(reading(&rows, "Googlebot-News"), ("allowed", "full_block"));

        let rows = both_readings(
            "User-agent: YandexBot\nAllow: /\n\nUser-agent: Yandex\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n",
        );
        assert_eq!(reading(&rows, "YandexBot"), ("allowed", "allowed"));
        assert_eq!(
            reading(&rows, "YandexImages"),
            ("full_block", "partial_block")
        );

        // Claims without a current source were dropped: bingbot does not follow msnbot's group,
        // nor YandexAdditional `Yandex`'s.
        let rows = both_readings("User-agent: msnbot\nUser-agent: Yandex\nDisallow: /\n");
        assert_eq!(reading(&rows, "bingbot"), ("allowed", "allowed"));
        assert_eq!(reading(&rows, "msnbot"), ("full_block", "full_block"));
        assert_eq!(reading(&rows, "YandexAdditional"), ("allowed", "allowed"));
        assert_eq!(reading(&rows, "YandexBot"), ("allowed", "full_block"));
        assert_eq!(documented_source(&rows, "YandexBot"), "fallback");
        assert_eq!(documented_source(&rows, "YandexAdditional"), "none");

        // A special-case crawler named by its own group is read as Google reads it.
        let rows = both_readings(
            "User-agent: AdsBot-Google\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n",
        );
        assert_eq!(
            reading(&rows, "AdsBot-Google"),
            ("partial_block", "partial_block")
        );
        assert_eq!(
            reading(&rows, "AdsBot-Google-Mobile"),
            ("full_block", "allowed")
        );
        assert_eq!(documented_source(&rows, "AdsBot-Google"), "specific");
        assert_eq!(documented_source(&rows, "AdsBot-Google-Mobile"), "none");
        assert_eq!(documented_source(&rows, "GPTBot"), "wildcard");
    }

    proptest::proptest! {
        /// The runs `emit` appends give every agent every column that classifying it alone
        /// gives, though agents a file does not name share one verdict and agents chosen the
        /// same groups share one classification (groups naming several agents at once, with
        /// rules, crawl delays, `*` groups and crawlers whose operators document other rules),
        /// and `named_exact` is whether some user-agent line writes the agent's name.
        #[test]
        fn runs_give_each_agent_what_it_gets_alone(
            lines in proptest::collection::vec(
                "(User-agent: (\\*|Googlebot|GPTBot|CCBot|ClaudeBot|msnbot|Yandex|YandexBot|AdsBot-Google|gptbot/1\\.0|GPTBot-News|CCBot, GPTBot|AI2Bot|ai2bot-DeepResearchEval|bigsur\\.ai|ChatGPT  agent|ChatGPT)|(Allow|Disallow): /?[a*$]{0,2}|Crawl-delay: [0-9])",
                0..14)
        ) {
            let body = lines.join("\n");
            let registry = Registry::builtin();
            let r = RobotsTxt::parse(body.as_bytes());
            let mut shared = Vec::new();
            Verdicts::default().each(&registry, FetchOutcome::Ok, Some(&r), |a, v| {
                shared.push((a, v.clone()));
            });
            let mut alone = Verdicts::default();
            let ua_values: Vec<&[u8]> = (r.agent_lines.iter().map(|&i| &r.lines[i as usize]))
                .filter(|l| l.key == Key::UserAgent)
                .map(|l| l.value(r.body))
                .collect();
            for (a, v) in shared {
                let named = v.named == Some(true);
                let mut own = alone.parsed(&r, a, named);
                let exact = ua_values.iter().any(|u| writes_name(u, a.name.as_bytes()));
                own.named_exact = Some(named && exact);
                if a.ignores_robots_txt() {
                    own.verdict_documented = Verdict::NotHonored;
                    own.documented_source = Some(DocumentedSource::NotHonored);
                }
                proptest::prop_assert_eq!(&v, &own, "{} in {:?}", a.name, body);
            }
        }
    }

    #[test]
    fn a_group_naming_several_agents_is_classified_once_for_them() {
        let registry = Registry::builtin();
        let body = "User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: ClaudeBot\n\
                    User-agent: Bytespider\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n";
        let r = RobotsTxt::parse(body.as_bytes());
        let mut v = Verdicts::default();
        let mut full = Vec::new();
        v.each(&registry, FetchOutcome::Ok, Some(&r), |a, verdict| {
            if verdict.named == Some(true) {
                full.push((a.name.as_str(), verdict.verdict));
            }
        });
        assert_eq!(full.len(), 4, "{full:?}");
        assert!(full.iter().all(|(_, k)| *k == Verdict::FullBlock));
        let specific = (v.classified.made.iter())
            .filter(|(sel, _, _, _)| sel.source == Source::Specific)
            .count();
        assert_eq!(
            specific, 1,
            "one classification of the group for its four agents"
        );
    }

    /// Verdicts and the number of agents in a row each stands for.
    type VerdictRuns = Vec<(AgentVerdict, u32)>;

    /// The runs of `body` as `runs` computes them, and as `runs_by_digest` gives them under `key`.
    fn fresh_and_by_digest(
        v: &mut Verdicts,
        registry: &Registry,
        body: &str,
        key: &str,
    ) -> (VerdictRuns, VerdictRuns) {
        let r = RobotsTxt::parse(body.as_bytes());
        let (mut fresh, mut by_digest) = (Vec::new(), Vec::new());
        Verdicts::default().runs(registry, &r, |a, n| fresh.push((a.clone(), n)));
        v.runs_by_digest(registry, &r, key, |a, n| by_digest.push((a.clone(), n)));
        (fresh, by_digest)
    }

    #[test]
    fn bodies_seen_again_get_their_own_verdicts_even_when_their_digests_share_a_slot() {
        let registry = Registry::builtin();
        let mut v = Verdicts::default();
        // Two keys that hash to the same slot (1025 keys cannot all take different ones).
        let mut by_slot = std::collections::HashMap::new();
        let (a, b) = (0..=SEEN_BODIES)
            .map(|i| format!("sha256:{i}"))
            .find_map(|k| {
                let slot = v.seen.slot(&registry, &k);
                by_slot.insert(slot, k.clone()).map(|earlier| (earlier, k))
            })
            .expect("two keys share a slot");
        let bodies = [
            "User-agent: *\nDisallow: /",
            "User-agent: GPTBot\nDisallow: /\nUser-agent: *\nAllow: /",
        ];
        for (body, key) in [(0, &a), (0, &a), (1, &b), (0, &a), (1, &b), (1, &b)] {
            let (fresh, by_digest) = fresh_and_by_digest(&mut v, &registry, bodies[body], key);
            assert_eq!(by_digest, fresh, "body {body} under {key}");
            let slot = v.seen.slot(&registry, key);
            let kept = v.seen.slots[slot].as_ref().map(|s| &*s.digest);
            assert_eq!(
                kept,
                Some(key.as_str()),
                "the slot holds the body last seen"
            );
        }
        assert_ne!(
            fresh_and_by_digest(&mut v, &registry, bodies[0], &a).0,
            fresh_and_by_digest(&mut v, &registry, bodies[1], &b).0,
            "the two bodies have different verdicts"
        );
    }

    #[test]
    fn status_readings() {
        assert_eq!(
            unparsed(FetchOutcome::NotFound).verdict.as_str(),
            "no_robots"
        );
        assert_eq!(
            unparsed(FetchOutcome::ServerError).verdict.as_str(),
            "unreachable"
        );
        assert_eq!(
            unparsed(FetchOutcome::ServerError).verdict_rfc9309.as_str(),
            "full_block"
        );
        assert_eq!(
            unparsed(FetchOutcome::Redirect).verdict.as_str(),
            "redirect"
        );
        assert_eq!(unparsed(FetchOutcome::Revisit).verdict.as_str(), "unknown");
    }

    #[test]
    fn crawl_delay_of_the_deciding_group() {
        let r = RobotsTxt::parse(
            b"User-agent: *\nCrawl-delay: 5\nDisallow: /a\n\nUser-agent: b\nCrawl-delay: 2.5\n",
        );
        let mut v = Verdicts::default();
        assert_eq!(v.parsed(&r, &agent("a"), false).crawl_delay, Some(5.0));
        assert_eq!(v.parsed(&r, &agent("b"), true).crawl_delay, Some(2.5));
    }
}

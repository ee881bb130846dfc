//! What a parsed robots.txt lets an agent crawl as a whole: a pure function of the file and the
//! groups the matcher chose for the agent ([`Classifier::classify`]), the vocabulary of the
//! `verdict` columns ([`Verdict`]).
//!
//! Verdict kinds, for a parsed body:
//! * `full_block`: every path but the robots.txt is disallowed: `/` and a path no pattern names
//!   are disallowed, and no Allow rule reopens any part of the site;
//! * `partial_block`: not a full block, and some Disallow rule disallows something;
//! * `allowed`: nothing is disallowed (including files with no group for the agent).
//!
//! The robots.txt itself (every path that begins `/robots.txt`) is implicitly allowed (RFC 9309
//! section 2.3): a rule that only allows or disallows it neither reopens nor blocks anything.
//!
//! A rule "reopens" (Allow) or "disallows something" (Disallow) when one of its probe paths gets
//! that rule's outcome from the agent's groups. The probes are the path the pattern describes
//! with a final `$` dropped and each `*` either kept literally (a byte no pattern names) or
//! dropped, every choice for up to four stars and all-kept or all-dropped past that (a
//! leading `*` that leaves no `/` stands for it), and, unless the pattern ends in `$`, each of
//! those paths followed by a byte no pattern names (0x01). Dropping matters: with
//! `Allow: /*/` beside `Disallow: */a`, `/*/a` is allowed (the tie goes to Allow) but `/a` is
//! not. So `Disallow: /` with
//! `Allow: /public` is a partial block, `Disallow: /` with `Allow: /$` too (only the home page is
//! open), while `Allow: /` beside `Disallow: /` reopens everything (ties go to Allow) and leaves
//! nothing blocked. A pattern that starts with neither `/` nor `*` matches no URL path and is
//! ignored.
//!
//! Probing costs a pass over the agent's rules per probe, so a crafted file (thousands of Allow
//! rules each outranked by a longer Disallow) could make it quadratic: a verdict may spend at most
//! [`PROBE_BUDGET`] rule evaluations on probes. Past that it is `undetermined` (`root_allowed`
//! stays exact) and the capture gets an `errors` row. No real file comes near it.

use super::ext::leading_number;
use super::matcher::{Matcher, Selection, Source};
use super::parse::RobotsTxt;
use super::Key;

str_enum! {
    /// What a capture lets an agent crawl: the `verdict`, `verdict_rfc9309` and
    /// `verdict_documented` columns. A parsed file gives `full_block`, `partial_block`,
    /// `allowed` or `undetermined` (module doc); the others follow the capture's status.
    pub enum Verdict {
        FullBlock = "full_block",
        PartialBlock = "partial_block",
        Allowed = "allowed",
        NoRobots = "no_robots",
        Unreachable = "unreachable",
        Redirect = "redirect",
        Unknown = "unknown",
        /// The probes spent their budget ([`PROBE_BUDGET`]).
        Undetermined = "undetermined",
        /// `verdict_documented` only: the crawler does not honour robots.txt, whatever the
        /// file says (its registry entry's `robots_txt`).
        NotHonored = "not_honored",
    }
}

/// Rule evaluations a verdict may spend on probes (a few tens of milliseconds).
pub const PROBE_BUDGET: u64 = 4_000_000;

/// What [`Classifier::classify`] finds for an agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Classification {
    pub verdict: Verdict,
    /// The groups that decide.
    pub source: Source,
    /// `/` may be fetched.
    pub root_allowed: bool,
    /// Allow and Disallow lines of the deciding groups.
    pub n_rules: u32,
    /// The first `Crawl-delay` of the deciding groups, as a number.
    pub crawl_delay: Option<f64>,
}

/// Reusable state for classifying files: the deciding groups' rules, probe paths and budget.
#[derive(Default)]
pub struct Classifier {
    allows: Vec<usize>,
    disallows: Vec<usize>,
    path: Vec<u8>,
    /// Rule evaluations left for the verdict being classified, and the cost of one probe.
    budget: u64,
    probe_cost: u64,
    exhausted: bool,
}

/// A path that only a rule matching every path matches: no pattern names the byte 0x01, so a
/// pattern that matches it has no literal but its first `/` and matches any path.
const UNNAMED_PATH: &[u8] = b"/\x01";

/// Whether a path is the robots.txt itself (or begins with it: `/robots.txt?x`), which RFC 9309
/// (section 2.3, end) makes implicitly allowed, so rules about it neither block nor reopen the site.
fn is_robots_txt(path: &[u8]) -> bool {
    path.starts_with(b"/robots.txt")
}

/// Stars of a pattern past which its probes stop trying every choice (2^4 = 16 spellings).
const PROBE_STARS: u32 = 4;

/// Fill `buf` with the probe paths of a rule's pattern (see the module doc), separated by
/// 0x00; returns false if the pattern can match no path.
fn probe_paths(pattern: &[u8], buf: &mut Vec<u8>) -> bool {
    buf.clear();
    let anchored = pattern.last() == Some(&b'$');
    let p = pattern.strip_suffix(b"$").unwrap_or(pattern);
    if !matches!(p.first(), Some(b'/' | b'*')) {
        return false;
    }
    let stars = p.iter().filter(|&&b| b == b'*').count() as u32;
    // Bit i of a choice says whether star i stands for itself (a byte no pattern names
    // literally) or for nothing. Past PROBE_STARS stars: all kept, or all dropped.
    let choices: Vec<u64> = if stars <= PROBE_STARS {
        (0..1u64 << stars).rev().collect()
    } else {
        vec![u64::MAX, 0]
    };
    for choice in choices {
        let start = buf.len();
        let mut star = 0;
        for &b in p {
            if b == b'*' {
                if choice >> star.min(63) & 1 == 1 {
                    buf.push(b'*');
                }
                star += 1;
            } else {
                buf.push(b);
            }
        }
        // Only a leading star can leave the path without its `/`; that star matches the `/`.
        if buf.get(start) != Some(&b'/') {
            buf.insert(start, b'/');
        }
        if !anchored {
            let n = buf.len();
            buf.push(0);
            buf.extend_from_within(start..n);
            buf.push(1);
        }
        buf.push(0);
    }
    buf.pop();
    true
}

impl Classifier {
    /// Classify the file for the agent whose groups `sel` chose (`matcher` chose them).
    pub fn classify(
        &mut self,
        matcher: &mut Matcher,
        robots: &RobotsTxt<'_>,
        sel: Selection,
    ) -> Classification {
        self.allows.clear();
        self.disallows.clear();
        let mut crawl_delay = None;
        for i in matcher.selected_lines(robots, sel) {
            match robots.lines[i].key {
                Key::Allow if !robots.norm_value(i).is_empty() => self.allows.push(i),
                Key::Disallow if !robots.norm_value(i).is_empty() => self.disallows.push(i),
                Key::CrawlDelay if crawl_delay.is_none() => {
                    let v = robots.lines[i].value(robots.body);
                    crawl_delay = leading_number(&String::from_utf8_lossy(v));
                }
                _ => {}
            }
        }
        let root = matcher.decide(robots, sel, b"/");
        self.budget = PROBE_BUDGET;
        self.probe_cost = u64::from(root.n_rules).max(1);
        self.exhausted = false;
        // A path no pattern names is disallowed only by a rule that disallows every path.
        let all_paths = !root.allowed && !matcher.decide(robots, sel, UNNAMED_PATH).allowed;
        let full_block = all_paths
            && !(0..self.allows.len()).any(|k| self.has_effect(matcher, robots, sel, k, true));
        // Without Allow rules any Disallow that can match a path (but the robots.txt) blocks it.
        let partial = !full_block
            && (!root.allowed
                || (0..self.disallows.len()).any(|k| {
                    if self.allows.is_empty() {
                        probe_paths(robots.norm_value(self.disallows[k]), &mut self.path)
                            && self.path.split(|&b| b == 0).any(|p| !is_robots_txt(p))
                    } else {
                        self.has_effect(matcher, robots, sel, k, false)
                    }
                }));
        let verdict = if self.exhausted {
            Verdict::Undetermined
        } else if full_block {
            Verdict::FullBlock
        } else if partial {
            Verdict::PartialBlock
        } else {
            Verdict::Allowed
        };
        Classification {
            verdict,
            source: root.source,
            root_allowed: root.allowed,
            n_rules: root.n_rules,
            crawl_delay,
        }
    }

    /// Whether the k-th selected Allow (or Disallow) rule decides one of its probe paths its way.
    fn has_effect(
        &mut self,
        matcher: &mut Matcher,
        robots: &RobotsTxt<'_>,
        sel: Selection,
        k: usize,
        allow: bool,
    ) -> bool {
        let i = if allow {
            self.allows[k]
        } else {
            self.disallows[k]
        };
        let mut probes = std::mem::take(&mut self.path);
        let mut hit = false;
        if probe_paths(robots.norm_value(i), &mut probes) {
            hit = probes
                .split(|&b| b == 0)
                .filter(|p| !is_robots_txt(p))
                .any(|path| {
                    if self.budget < self.probe_cost {
                        self.exhausted = true;
                        return false;
                    }
                    self.budget -= self.probe_cost;
                    matcher.decide(robots, sel, path).allowed == allow
                });
        }
        self.path = probes;
        hit
    }
}

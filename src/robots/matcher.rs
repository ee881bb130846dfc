//! Google-compatible allow/disallow verdicts (robots.cc `RobotsMatcher`), by agent and by purpose.
//!
//! * The groups that name one of the agents (by product token, case-insensitively) are merged and
//!   decide; if no group names one, the `*` groups decide; if none exists, everything is allowed.
//!   A group naming the agent with no matching rule (or only empty ones) allows everything: the
//!   `*` groups are not consulted.
//! * The longest matching pattern wins (length in bytes of the %-normalised pattern, `*` and `$`
//!   included); a tie goes to Allow. An empty pattern matches with priority 0 and decides nothing.
//! * `*` matches any run of bytes; `$` anchors only at the end of a pattern.
//! * An `Allow` pattern ending in `/index.htm...` that does not match also allows its directory
//!   (`/x/index.html` allows `/x/`).
//! * Matching is O(pattern × path) with no backtracking (Google's position-set algorithm).
//!
//! Purposes (draft-illyes-rep-purpose): when a purpose is given and no group names the agent,
//! the groups with a matching `User-Agent-Purpose` line decide before `*`. Purpose lines never
//! match product tokens. (Google's parser reads `User-Agent-Purpose:` as a user-agent line by its
//! prefix rule; its value would then be compared with product tokens. We keep the namespaces apart.)

use super::key::Key;
use super::parse::{is_wildcard_agent, product_token, RobotsTxt};

/// Which groups decided a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A group naming one of the agents.
    Specific,
    /// A group with a matching `User-Agent-Purpose` line.
    Purpose,
    /// The `*` group(s).
    Wildcard,
    /// A group naming a token the crawler's operator documents it follows when no group names
    /// its own ([`GroupRules`]; never in Google's reading).
    Fallback,
    /// No group applies.
    None,
}

/// How a crawler chooses its groups where its operator documents more than Google's library
/// does (see docs/agents.md): the tokens whose groups it follows, in order, when no group names
/// its own, and whether it ignores the `*` groups.
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupRules<'a> {
    pub fallback_tokens: &'a [String],
    pub ignores_wildcard: bool,
}

impl GroupRules<'_> {
    /// Whether these rules choose exactly as Google's library does.
    pub fn is_google(&self) -> bool {
        self.fallback_tokens.is_empty() && !self.ignores_wildcard
    }
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Specific => "specific",
            Source::Purpose => "purpose",
            Source::Wildcard => "wildcard",
            Source::Fallback => "fallback",
            Source::None => "none",
        }
    }
}

/// Whether one path may be fetched, and what decided it (a classification of the whole file is
/// `robots::classify`'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    pub source: Source,
    /// The deciding line (1-based line number), if a rule matched.
    pub line: Option<u32>,
    /// Index into [`RobotsTxt::lines`] of the deciding line.
    pub line_index: Option<usize>,
    /// Group index of the deciding line.
    pub group: Option<u32>,
    /// Priority (matched pattern length) of the deciding rule; -1 when none matched.
    pub priority: i64,
    /// Number of allow/disallow lines in the deciding groups.
    pub n_rules: u32,
}

/// Google's `GetPathParamsQuery`: the path, params and query of a URL (no scheme, authority or
/// fragment), always starting with `/`. The URL must already be %-encoded; it is not normalised.
pub fn path_params_query(url: &str) -> String {
    let b = url.as_bytes();
    let search_start = if b.starts_with(b"//") { 2 } else { 0 };
    let find_any = |from: usize| {
        b[from.min(b.len())..]
            .iter()
            .position(|c| matches!(c, b'/' | b'?' | b';'))
            .map(|i| i + from)
    };
    let early_path = find_any(search_start);
    let mut protocol_end =
        memchr::memmem::find(&b[search_start..], b"://").map(|i| i + search_start);
    if let (Some(e), Some(p)) = (early_path, protocol_end) {
        if e < p {
            protocol_end = None;
        }
    }
    let protocol_end = protocol_end.map_or(search_start, |p| p + 3);
    let Some(path_start) = find_any(protocol_end) else {
        return "/".into();
    };
    let hash = memchr::memchr(b'#', &b[search_start..]).map(|i| i + search_start);
    if hash.is_some_and(|h| h < path_start) {
        return "/".into();
    }
    let path_end = hash.unwrap_or(b.len());
    let p = &url[path_start..path_end];
    if p.starts_with('/') {
        p.to_string()
    } else {
        format!("/{p}")
    }
}

/// The groups chosen for an agent by [`Matcher::select`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    want: u8,
    pub source: Source,
    /// For [`Source::Fallback`], which of the [`GroupRules::fallback_tokens`] named the groups.
    pub fallback: Option<u8>,
}

/// Reusable scratch space for matching.
#[derive(Default)]
pub struct Matcher {
    flags: Vec<u8>,
}

const SPECIFIC: u8 = 1;
const GLOBAL: u8 = 2;
const PURPOSE: u8 = 4;

#[derive(Clone, Copy)]
struct Best {
    priority: i64,
    index: usize,
}

impl Best {
    const NONE: Best = Best {
        priority: -1,
        index: usize::MAX,
    };
    fn offer(&mut self, priority: i64, index: usize) {
        if priority > self.priority {
            *self = Best { priority, index };
        }
    }
}

impl Matcher {
    pub fn new() -> Self {
        Self::default()
    }

    /// Does `pattern` match the start of `path`? (robots.cc `RobotsMatchStrategy::Matches`.)
    /// A `$` is an end anchor only as the pattern's last byte.
    pub fn matches(&mut self, path: &[u8], pattern: &[u8]) -> bool {
        match pattern.split_last() {
            Some((b'$', body)) => self.match_literal(path, body, true),
            _ => self.match_literal(path, pattern, false),
        }
    }

    /// Match `pattern`, whose bytes are all literal but `*`, against the start of `path`, or
    /// against all of it when `to_end`. Google's matcher keeps the set of positions of `path`
    /// the pattern so far can reach, O(pattern × path): 20,000 wildcard rules against a 100 KB
    /// URL took 30 s. The answer is the same when each `*`-separated piece is taken at its
    /// leftmost place after the previous one (the first piece at the start, with `$` the last
    /// at the end): a later place never lets more of the rest match. That is linear in the path
    /// (one memmem pass), and [`tests::leftmost_pieces_agree_with_googles_position_sets`] checks
    /// it against Google's algorithm.
    fn match_literal(&mut self, path: &[u8], pattern: &[u8], to_end: bool) -> bool {
        let mut pieces = pattern.split(|&b| b == b'*');
        let first = pieces.next().unwrap_or_default();
        if !path.starts_with(first) {
            return false;
        }
        let Some(mut last) = pieces.next() else {
            // No wildcard.
            return !to_end || path.len() == first.len();
        };
        let mut at = first.len();
        for piece in pieces {
            match memchr::memmem::find(&path[at..], last) {
                Some(i) => at += i + last.len(),
                None => return false,
            }
            last = piece;
        }
        if to_end {
            path.len() - at >= last.len() && path.ends_with(last)
        } else {
            memchr::memmem::find(&path[at..], last).is_some()
        }
    }

    /// Priority of an allow pattern against `path` (-1: no match), with Google's `index.htm` rule:
    /// a pattern ending in `/index.htm...` that does not match is retried as its directory
    /// followed by `$` (every `$` inside that directory being literal).
    fn allow_priority(&mut self, path: &[u8], pattern: &[u8]) -> i64 {
        if self.matches(path, pattern) {
            return pattern.len() as i64;
        }
        if let Some(slash) = memchr::memrchr(b'/', pattern) {
            if pattern[slash..].starts_with(b"/index.htm") {
                let dir = &pattern[..=slash];
                if self.match_literal(path, dir, true) {
                    return dir.len() as i64 + 1;
                }
            }
        }
        -1
    }

    /// The verdict for a path (as from [`path_params_query`]) and a set of agents (product tokens,
    /// compared case-insensitively with each user-agent line's product token), optionally with
    /// a purpose token.
    pub fn verdict(
        &mut self,
        robots: &RobotsTxt<'_>,
        agents: &[&str],
        purpose: Option<&str>,
        path: &[u8],
    ) -> Decision {
        let sel = self.select(robots, agents, purpose);
        self.decide(robots, sel, path)
    }

    /// Choose the groups that decide for these agents (and purpose). The choice is kept in the
    /// matcher until the next `select`: [`Matcher::decide`] and [`Matcher::selected_lines`] use it.
    pub fn select(
        &mut self,
        robots: &RobotsTxt<'_>,
        agents: &[&str],
        purpose: Option<&str>,
    ) -> Selection {
        let flags = &mut self.flags;
        flags.clear();
        flags.resize(robots.groups.len(), 0);
        // Only agent lines choose groups; each belongs to the group it starts or joins.
        for &i in &robots.agent_lines {
            let line = &robots.lines[i as usize];
            let value = line.value(robots.body);
            let f = match line.key {
                Key::UserAgent if is_wildcard_agent(value) => GLOBAL,
                Key::UserAgent => {
                    let token = product_token(value);
                    let named = agents
                        .iter()
                        .any(|a| a.as_bytes().eq_ignore_ascii_case(token));
                    if named {
                        SPECIFIC
                    } else {
                        0
                    }
                }
                Key::Purpose
                    if purpose.is_some_and(|p| p.as_bytes().eq_ignore_ascii_case(value)) =>
                {
                    PURPOSE
                }
                _ => 0,
            };
            flags[robots.line_group[i as usize] as usize] |= f;
        }
        let any_specific = flags.iter().any(|f| f & SPECIFIC != 0);
        let any_purpose = flags.iter().any(|f| f & PURPOSE != 0);
        let (want, source) = if any_specific {
            (SPECIFIC, Source::Specific)
        } else if any_purpose {
            (PURPOSE, Source::Purpose)
        } else if flags.iter().any(|f| f & GLOBAL != 0) {
            (GLOBAL, Source::Wildcard)
        } else {
            (0, Source::None)
        };
        Selection {
            want,
            source,
            fallback: None,
        }
    }

    /// Choose the groups as the crawler documents it ([`GroupRules`]): the groups naming its
    /// token, else those naming its first fallback token that some group names, else its
    /// purpose's, else (unless it ignores them) the `*` groups, else none.
    pub fn select_documented(
        &mut self,
        robots: &RobotsTxt<'_>,
        token: &str,
        purpose: Option<&str>,
        rules: GroupRules<'_>,
    ) -> Selection {
        if rules.is_google() {
            return self.select(robots, &[token], purpose);
        }
        let own = self.select(robots, &[token], None);
        if own.source == Source::Specific {
            return own;
        }
        for (k, fallback) in rules.fallback_tokens.iter().enumerate() {
            if self.select(robots, &[fallback.as_str()], None).source == Source::Specific {
                return Selection {
                    want: SPECIFIC,
                    source: Source::Fallback,
                    fallback: u8::try_from(k).ok(),
                };
            }
        }
        let sel = self.select(robots, &[token], purpose);
        if sel.source == Source::Wildcard && rules.ignores_wildcard {
            return Selection {
                want: 0,
                source: Source::None,
                fallback: None,
            };
        }
        sel
    }

    /// The groups chosen by the last [`Matcher::select`] (or [`Matcher::select_documented`])
    /// that returned `sel`, in file order.
    pub fn selected_groups(&self, sel: Selection) -> impl Iterator<Item = usize> + '_ {
        (self.flags.iter().enumerate())
            // `want` is the highest kind present, so a group with a higher one never reaches
            // a lower bucket (a group naming the agent decides even if it is also `*`).
            .filter(move |&(_, &f)| f & sel.want != 0)
            .map(|(g, _)| g)
    }

    /// The lines (indexes into [`RobotsTxt::lines`]) of the groups chosen by the last
    /// [`Matcher::select`], in file order.
    pub fn selected_lines<'r>(
        &'r self,
        robots: &'r RobotsTxt<'_>,
        sel: Selection,
    ) -> impl Iterator<Item = usize> + 'r {
        self.selected_groups(sel)
            .flat_map(move |g| robots.group_lines(g))
    }

    /// The verdict for a path under the groups chosen by the last [`Matcher::select`].
    pub fn decide(&mut self, robots: &RobotsTxt<'_>, sel: Selection, path: &[u8]) -> Decision {
        self.decide_by(robots, sel, path, false)
    }

    /// [`Matcher::decide`] as RFC 9309 compares paths: the path and each pattern encoded alike
    /// first (`robots::encoding`), a rule's length that of its encoded pattern.
    pub fn decide_rfc9309(
        &mut self,
        robots: &RobotsTxt<'_>,
        sel: Selection,
        path: &[u8],
    ) -> Decision {
        self.decide_by(robots, sel, path, true)
    }

    fn decide_by(
        &mut self,
        robots: &RobotsTxt<'_>,
        sel: Selection,
        path: &[u8],
        rfc9309: bool,
    ) -> Decision {
        let (mut encoded_path, mut encoded) = (Vec::new(), Vec::new());
        let path = if rfc9309 && super::encoding::changes(path) {
            super::encoding::rfc9309_path(path, &mut encoded_path);
            &encoded_path[..]
        } else {
            path
        };
        let flags = std::mem::take(&mut self.flags);
        let mut allow = Best::NONE;
        let mut disallow = Best::NONE;
        let mut n_rules = 0;
        for (g, &f) in flags.iter().enumerate() {
            if f & sel.want == 0 {
                continue;
            }
            for i in robots.group_lines(g) {
                let key = robots.lines[i].key;
                if !key.is_rule() {
                    continue;
                }
                n_rules += 1;
                let mut pattern = robots.norm_value(i);
                if rfc9309 && super::encoding::changes(pattern) {
                    super::encoding::rfc9309_path(pattern, &mut encoded);
                    pattern = &encoded;
                }
                if key == Key::Allow {
                    let p = self.allow_priority(path, pattern);
                    allow.offer(p, i);
                } else if self.matches(path, pattern) {
                    disallow.offer(pattern.len() as i64, i);
                }
            }
        }
        self.flags = flags;
        let allowed =
            !(disallow.priority > 0 || allow.priority > 0) || disallow.priority <= allow.priority;
        // Google's `HigherPriorityMatch(disallow, allow)`: ties go to allow.
        let best = if disallow.priority > allow.priority {
            disallow
        } else {
            allow
        };
        let line_index = (best.priority >= 0).then_some(best.index);
        Decision {
            allowed,
            source: sel.source,
            line: line_index.map(|i| robots.lines[i].number),
            line_index,
            group: line_index.map(|i| robots.line_group[i]),
            priority: best.priority,
            n_rules,
        }
    }

    /// Convenience: the verdict for one agent and a URL.
    pub fn allowed(&mut self, robots: &RobotsTxt<'_>, agent: &str, url: &str) -> bool {
        let path = path_params_query(url);
        self.verdict(robots, &[agent], None, path.as_bytes())
            .allowed
    }
}

/// One-shot check of `robots_txt` for one agent and URL, as Google's `OneAgentAllowedByRobots`.
pub fn allowed_by_robots(robots_txt: &[u8], agent: &str, url: &str) -> bool {
    let robots = RobotsTxt::parse(robots_txt);
    Matcher::new().allowed(&robots, agent, url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Google's `RobotsMatchStrategy::Matches` as robots.cc writes it: the sorted set of path
    /// positions the pattern so far reaches; `$` anchors only as the last byte.
    fn google_matches(path: &[u8], pattern: &[u8]) -> bool {
        let (pattern, to_end) = match pattern.split_last() {
            Some((b'$', body)) => (body, true),
            _ => (pattern, false),
        };
        let n = path.len();
        let mut pos = vec![0usize];
        for &p in pattern {
            if p == b'*' {
                let first = pos[0];
                pos = (first..=n).collect();
            } else {
                pos.retain_mut(|at| {
                    let ok = *at < n && path[*at] == p;
                    *at += 1;
                    ok
                });
                if pos.is_empty() {
                    return false;
                }
            }
        }
        !to_end || *pos.last().unwrap() == n
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn leftmost_pieces_agree_with_googles_position_sets(
            path in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b'/'), Just(b'$')], 0..12),
            pattern in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b'/'), Just(b'*'), Just(b'$')], 0..9),
        ) {
            let mut m = Matcher::new();
            prop_assert_eq!(m.matches(&path, &pattern), google_matches(&path, &pattern),
                "path {:?} pattern {:?}", String::from_utf8_lossy(&path), String::from_utf8_lossy(&pattern));
        }
    }

    #[test]
    fn many_wildcard_rules_against_a_long_path_match_in_one_pass_each() {
        // 2,000 rules of 50 pieces against a 100 KB path of the pieces' byte: the position sets
        // would hold every position after each `*` (about 10^10 steps); the pieces take one pass.
        let path: Vec<u8> = std::iter::once(b'/')
            .chain(std::iter::repeat_n(b'a', 100_000))
            .collect();
        let pattern: Vec<u8> = std::iter::once(b'/')
            .chain((0..50).flat_map(|_| *b"*a"))
            .chain(*b"*b")
            .collect();
        let mut m = Matcher::new();
        for _ in 0..2_000 {
            assert!(!m.matches(&path, &pattern));
        }
        assert!(m.matches(&path, &pattern[..pattern.len() - 2]));
    }

    #[test]
    fn google_get_path_params_query() {
        for (url, want) in [
            ("", "/"),
            ("http://www.example.com", "/"),
            ("http://www.example.com/", "/"),
            ("http://www.example.com/a", "/a"),
            ("http://www.example.com/a/", "/a/"),
            (
                "http://www.example.com/a/b?c=http://d.e/",
                "/a/b?c=http://d.e/",
            ),
            (
                "http://www.example.com/a/b?c=d&e=f#fragment",
                "/a/b?c=d&e=f",
            ),
            ("example.com", "/"),
            ("example.com/", "/"),
            ("example.com/a", "/a"),
            ("example.com/a/", "/a/"),
            ("example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"),
            ("a", "/"),
            ("a/", "/"),
            ("/a", "/a"),
            ("a/b", "/b"),
            ("example.com?a", "/?a"),
            ("example.com/a;b#c", "/a;b"),
            ("//a/b/c", "/b/c"),
        ] {
            assert_eq!(path_params_query(url), want, "{url}");
        }
    }

    #[test]
    fn matching() {
        let mut m = Matcher::new();
        assert!(m.matches(b"/foo/bar", b"/foo"));
        assert!(m.matches(b"/foo/bar", b"/*/bar"));
        assert!(m.matches(b"/foo/bar", b"/*/bar$"));
        assert!(!m.matches(b"/foo/bar/", b"/*/bar$"));
        assert!(m.matches(b"/a$b", b"/a$b"));
        assert!(!m.matches(b"/", b"$"));
        assert!(m.matches(b"", b"$"));
        assert!(m.matches(b"/x", b""));
        assert!(m.matches(b"/x", b"*"));
        // No blow-up on adversarial patterns.
        let path = vec![b'a'; 4000];
        let pat = b"/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b".to_vec();
        assert!(!m.matches(&path, &pat));
    }

    #[test]
    fn index_html_needs_directory_exactly() {
        let mut m = Matcher::new();
        assert_eq!(m.allow_priority(b"/x/", b"/x/index.html"), 4);
        assert_eq!(m.allow_priority(b"/x/y", b"/x/index.html"), -1);
        assert_eq!(m.allow_priority(b"/x/index.html", b"/x/index.html"), 13);
    }
}

//! The parsed file: line descriptors, groups, normalised patterns and the file's summary.
//!
//! Groups follow Google's parser: a group starts at a user-agent (or purpose) line that comes
//! first or follows an `Allow`/`Disallow` line; any other line (sitemap, crawl-delay, unknown,
//! app-directives, ...) neither starts nor closes one. Lines before the first group belong to no
//! group, and the rules among them are ignored. Groups naming the same agent are merged by the
//! matcher, as Google merges them.

use super::key::{Key, KeyForm};
use super::lex::{self, flag, Line, Lines};

/// RFC 9309 §2.5: a crawler must parse at least the first 500 KiB; we parse exactly that.
pub const PARSE_LIMIT: usize = 500 * 1024;

/// Marker for "no group".
pub const NO_GROUP: u32 = u32::MAX;

/// Where a normalised value lives: in the body, or in the parser's side buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
    /// `true`: in [`RobotsTxt::escaped`]; `false`: in the body.
    pub escaped: bool,
}

/// A group: the lines `first..end` (indices into [`RobotsTxt::lines`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub first: u32,
    pub end: u32,
}

str_enum! {
    /// What came between two agent lines of one group (`robots_files.group_split`): a line
    /// that ends nothing for RFC 9309 and Google, though a file's author may have meant it to
    /// end the group (`User-agent: *`, a blank line, then `User-agent: GPTBot` and
    /// `Disallow: /` blocks every crawler).
    pub enum Split {
        Blank = "blank",
        Comment = "comment",
        Sitemap = "sitemap",
        CrawlDelay = "crawl_delay",
        /// Any other line that is neither an agent line nor a rule.
        Other = "other",
    }
}

impl Split {
    fn of(key: Key, line: &Line) -> Split {
        match key {
            Key::Blank if line.has(flag::COMMENT) => Split::Comment,
            Key::Blank => Split::Blank,
            Key::Sitemap => Split::Sitemap,
            Key::CrawlDelay => Split::CrawlDelay,
            _ => Split::Other,
        }
    }
}

/// Counts over the file, for the `robots_files` summary columns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// User-agent and purpose lines.
    pub n_agents: u32,
    /// Allow and disallow lines inside groups.
    pub n_rules: u32,
    /// Allow and disallow lines before the first group (ignored by crawlers).
    pub n_orphan_rules: u32,
    pub n_sitemaps: u32,
    /// Lines with a key this tool does not know.
    pub n_unknown: u32,
    /// Non-blank lines that are not key-value lines.
    pub n_invalid: u32,
    /// Keys written with one of the accepted misspellings.
    pub n_typos: u32,
    /// Lines separated by whitespace instead of a colon.
    pub n_missing_colon: u32,
    pub n_too_long: u32,
    pub has_purpose: bool,
    pub has_app_directives: bool,
    /// An `ACAP-` field, an `##ACAP` comment or the colon-less ignore directive.
    pub has_acap: bool,
    pub has_content_usage: bool,
    pub has_content_signal: bool,
    /// The body is larger than [`PARSE_LIMIT`]; only the first [`PARSE_LIMIT`] bytes were parsed.
    pub truncated: bool,
    /// Bytes of a (possibly partial) UTF-8 BOM skipped at the start.
    pub bom_bytes: u8,
    /// How the parsed part's lines end.
    pub endings: lex::Endings,
    /// What first came between two agent lines of one group, if anything did.
    pub group_split: Option<Split>,
    /// A group's `*` line is followed, past such a line, by more agent lines of its group: `*`
    /// takes the rules written for the agents after it.
    pub wildcard_split: bool,
}

/// A parsed robots.txt. Borrows the body; allocates a few vectors per file, none per line.
#[derive(Clone, Debug)]
pub struct RobotsTxt<'a> {
    /// The parsed part of the body (at most [`PARSE_LIMIT`] bytes).
    pub body: &'a [u8],
    pub lines: Vec<Line>,
    /// Group index of each line (`NO_GROUP` before the first group).
    pub line_group: Vec<u32>,
    /// The normalised value of each line (patterns %-normalised; other values as written).
    pub norm: Vec<Span>,
    pub escaped: Vec<u8>,
    pub groups: Vec<Group>,
    /// The agent lines (user-agent and purpose; indexes into [`Self::lines`]), in file order:
    /// what a matcher looks at to choose groups, without passing over the rules.
    pub agent_lines: Vec<u32>,
    pub summary: Summary,
    /// The body after its BOM as text, when it is valid UTF-8 (checked once, for the lexer and
    /// for [`Self::text_of`]).
    pub utf8: Option<&'a str>,
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Google's `MaybeEscapePattern`: `%xx` escapes get uppercase hex digits, bytes >= 0x80 are
/// %-encoded, everything else is kept. Returns `None` when the value needs no change.
pub fn escape_pattern(src: &[u8], out: &mut Vec<u8>) -> Option<(usize, usize)> {
    if !has_percent_or_high(src) {
        return None;
    }
    let is_hex = |c: Option<&u8>| c.is_some_and(|c| c.is_ascii_hexdigit());
    let mut change = false;
    let mut i = 0;
    while i < src.len() {
        if src[i] == b'%' && is_hex(src.get(i + 1)) && is_hex(src.get(i + 2)) {
            change |= src[i + 1].is_ascii_lowercase() || src[i + 2].is_ascii_lowercase();
            i += 3;
            continue;
        }
        change |= src[i] >= 0x80;
        i += 1;
    }
    if !change {
        return None;
    }
    let start = out.len();
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        if c == b'%' && is_hex(src.get(i + 1)) && is_hex(src.get(i + 2)) {
            out.extend_from_slice(&[
                b'%',
                src[i + 1].to_ascii_uppercase(),
                src[i + 2].to_ascii_uppercase(),
            ]);
            i += 3;
            continue;
        }
        if c >= 0x80 {
            out.extend_from_slice(&[b'%', HEX[usize::from(c >> 4)], HEX[usize::from(c & 15)]]);
        } else {
            out.push(c);
        }
        i += 1;
    }
    Some((start, out.len()))
}

/// Whether `b` holds a `%` or a byte >= 0x80, eight bytes at a time.
fn has_percent_or_high(b: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const PCT: u64 = u64::from_ne_bytes([b'%'; 8]);
    let words = b.chunks_exact(8);
    let tail = words.remainder();
    let found = words.fold(0u64, |acc, w| {
        let w = u64::from_ne_bytes(w.try_into().unwrap());
        // A zero byte of w ^ PCT is a `%` (the classic test: it sets that byte's high bit).
        let x = w ^ PCT;
        acc | w | (x.wrapping_sub(ONES) & !x)
    });
    found & HIGH != 0 || tail.iter().any(|&c| c == b'%' || c >= 0x80)
}

impl<'a> RobotsTxt<'a> {
    /// Parse a robots.txt body. Never fails: every byte sequence gives a (possibly empty) file.
    pub fn parse(body: &'a [u8]) -> Self {
        Self::parse_up_to(body, PARSE_LIMIT)
    }

    /// [`RobotsTxt::parse`] of the first `limit` bytes of `body` (a file made again from its
    /// lines, which may be a little longer than the part of the original that was parsed, is
    /// parsed whole: `derive/page_verdicts.rs`).
    pub fn parse_up_to(body: &'a [u8], limit: usize) -> Self {
        let truncated = body.len() > limit;
        let body = &body[..body.len().min(limit)];
        let mut s = Summary {
            truncated,
            bom_bytes: lex::bom_len(body) as u8,
            ..Summary::default()
        };
        let mut lines = Vec::with_capacity(body.len() / 24 + 1);
        let mut line_group = Vec::with_capacity(body.len() / 24 + 1);
        let mut norm = Vec::with_capacity(body.len() / 24 + 1);
        let mut escaped = Vec::new();
        let mut groups: Vec<Group> = Vec::new();
        let mut agent_lines = Vec::new();
        // Whether the current group has seen an allow/disallow line.
        let mut closed = true;
        // In the open group: whether a `*` line was seen, and what came since its last agent
        // line.
        let (mut wildcard, mut since_agent): (bool, Option<Split>) = (false, None);
        let utf8 = std::str::from_utf8(&body[usize::from(s.bom_bytes)..]).ok();
        // A body without `%` and bytes >= 0x80 has no pattern that escaping changes: one pass
        // over the body saves one per pattern.
        let may_escape = has_percent_or_high(body);
        let mut lexer = Lines::checked(body, utf8.is_some());
        for line in lexer.by_ref() {
            let idx = lines.len() as u32;
            let k = line.key;
            if k.is_agent() {
                if closed {
                    if let Some(g) = groups.last_mut() {
                        g.end = idx;
                    }
                    groups.push(Group {
                        first: idx,
                        end: idx,
                    });
                    closed = false;
                    wildcard = false;
                } else if let Some(split) = since_agent {
                    s.group_split.get_or_insert(split);
                    // Another `*` line after the split gives `*` only `*`'s own rules.
                    let star_again = k == Key::UserAgent && is_wildcard_agent(line.value(body));
                    s.wildcard_split |= wildcard && !star_again;
                }
                since_agent = None;
                wildcard |= k == Key::UserAgent && is_wildcard_agent(line.value(body));
                s.n_agents += 1;
                s.has_purpose |= k == Key::Purpose;
                agent_lines.push(idx);
            } else if k.is_rule() {
                if groups.is_empty() {
                    s.n_orphan_rules += 1;
                } else {
                    s.n_rules += 1;
                    closed = true;
                }
            } else if !closed && since_agent.is_none() {
                since_agent = Some(Split::of(k, &line));
            }
            match k {
                Key::Sitemap => s.n_sitemaps += 1,
                Key::Unknown => s.n_unknown += 1,
                Key::Invalid => {
                    s.n_invalid += 1;
                    s.has_acap |= lex::is_ignore_directive(&line, body);
                }
                Key::AppDirectives => s.has_app_directives = true,
                Key::Acap => s.has_acap = true,
                Key::Blank if line.has(flag::COMMENT) => {
                    s.has_acap |= lex::is_version_comment(&line, body)
                }
                Key::ContentUsage => s.has_content_usage = true,
                Key::ContentSignal => s.has_content_signal = true,
                _ => {}
            }
            if line.form == KeyForm::Typo {
                s.n_typos += 1;
            }
            if line.has(flag::MISSING_COLON) {
                s.n_missing_colon += 1;
            }
            if line.has(flag::TOO_LONG) {
                s.n_too_long += 1;
            }
            let value = line.value(body);
            // Allow/Disallow patterns and App-Directives paths are matched, so normalised.
            let span = if may_escape && (k.is_pattern() || k == Key::AppDirectives) {
                escape_pattern(value, &mut escaped).map(|(a, b)| Span {
                    start: a as u32,
                    end: b as u32,
                    escaped: true,
                })
            } else {
                None
            };
            norm.push(span.unwrap_or(Span {
                start: line.value_start,
                end: line.value_end,
                escaped: false,
            }));
            line_group.push(if groups.is_empty() {
                NO_GROUP
            } else {
                groups.len() as u32 - 1
            });
            lines.push(line);
        }
        s.endings = lexer.endings();
        if let Some(g) = groups.last_mut() {
            g.end = lines.len() as u32;
        }
        RobotsTxt {
            body,
            lines,
            line_group,
            norm,
            escaped,
            groups,
            agent_lines,
            summary: s,
            utf8,
        }
    }

    /// A part of the body (or of a normalised value) as text, invalid UTF-8 replaced. A part of
    /// a valid body is sliced from [`Self::utf8`] (keys, values and names end at ASCII bytes:
    /// line ends, separators, whitespace), so they are not checked again one by one; any other
    /// part (the escape buffer, a line cut inside a character at the length limit) is checked
    /// by itself.
    pub fn text_of<'s>(&self, part: &'s [u8]) -> std::borrow::Cow<'s, str>
    where
        'a: 's,
    {
        let from = part.as_ptr() as usize;
        let base = self.body.as_ptr() as usize + usize::from(self.summary.bom_bytes);
        let sliced = self.utf8.filter(|_| from >= base).and_then(|t| {
            let at = from - base;
            t.get(at..at + part.len())
        });
        match sliced {
            // The same bytes: `part` lies in the body at `at`.
            Some(t) => std::borrow::Cow::Borrowed(t),
            None => match std::str::from_utf8(part) {
                Ok(t) => std::borrow::Cow::Borrowed(t),
                Err(_) => String::from_utf8_lossy(part),
            },
        }
    }

    /// The normalised value of line `i` (index into [`Self::lines`]).
    pub fn norm_value(&self, i: usize) -> &[u8] {
        let s = self.norm[i];
        let src = if s.escaped {
            &self.escaped[..]
        } else {
            self.body
        };
        &src[s.start as usize..s.end as usize]
    }

    /// The lines of group `g`.
    pub fn group_lines(&self, g: usize) -> std::ops::Range<usize> {
        let g = self.groups[g];
        g.first as usize..g.end as usize
    }
}

/// Google's product token of a user-agent value: its leading `[A-Za-z_-]` run.
pub fn product_token(value: &[u8]) -> &[u8] {
    let n = value
        .iter()
        .position(|&c| !(c.is_ascii_alphabetic() || c == b'-' || c == b'_'))
        .unwrap_or(value.len());
    &value[..n]
}

/// A user-agent value as its agent's name: up to the first `/` or ASCII whitespace
/// (`Googlebot/2.1 (+http://...)` is `Googlebot`).
pub fn agent_name(value: &[u8]) -> &[u8] {
    let n = value
        .iter()
        .position(|&c| c == b'/' || c.is_ascii_whitespace())
        .unwrap_or(value.len());
    &value[..n]
}

/// Can `c` continue an agent's name? Letters, digits and `-`, `_`, `.` (`MJ12bot`,
/// `bigsur.ai`): anything else ends it (`GPTBot, ClaudeBot`, `CCBot;`, `GPTBot(1.0)`,
/// `GPTBot*`, `Googlebot/2.1`).
fn continues_name(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')
}

/// Whether a user-agent value writes this agent's name, ignoring case: the name up to the first
/// character that cannot continue a name for a one-word name (`Googlebot/2.1`, `GPTBot,
/// ClaudeBot` and `CCBot;` write `Googlebot`, `GPTBot` and `CCBot`; `Googlebot-News` does not
/// write `Googlebot`), the whole name for one of several words (`Kangaroo Bot/1.0` writes
/// `Kangaroo Bot`, `Kangaroo` does not), runs of spaces and tabs counting as one space.
pub fn writes_name(value: &[u8], name: &[u8]) -> bool {
    if let Some(name) = one_word_name(name) {
        return written_name(value).eq_ignore_ascii_case(name);
    }
    let name = name.trim_ascii();
    let end = (value.iter())
        .position(|&c| !continues_name(c) && !c.is_ascii_whitespace())
        .unwrap_or(value.len());
    fn words(s: &[u8]) -> impl Iterator<Item = &[u8]> {
        s.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty())
    }
    let (mut a, mut b) = (words(&value[..end]), words(name));
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.eq_ignore_ascii_case(y) => {}
            _ => return false,
        }
    }
}

/// What a user-agent value writes as a one-word name ([`writes_name`]): up to the first character
/// that cannot continue a name.
pub fn written_name(value: &[u8]) -> &[u8] {
    let end = value
        .iter()
        .position(|&c| !continues_name(c))
        .unwrap_or(value.len());
    &value[..end]
}

/// An agent's name as [`writes_name`] compares it with [`written_name`], ignoring case, when it is
/// one word; `None` for a name of several words.
pub fn one_word_name(name: &[u8]) -> Option<&[u8]> {
    let name = name.trim_ascii();
    (!name.iter().any(u8::is_ascii_whitespace)).then(|| agent_name(name))
}

/// Google's global agent: `*`, or `*` followed by whitespace and anything.
pub fn is_wildcard_agent(value: &[u8]) -> bool {
    value.first() == Some(&b'*')
        && (value.len() == 1 || matches!(value[1], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
}

/// Google's `IsValidUserAgentToObey`: a non-empty `[A-Za-z_-]` run.
pub fn is_valid_product_token(agent: &str) -> bool {
    !agent.is_empty() && product_token(agent.as_bytes()).len() == agent.len()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_writes_a_name_of_one_word_or_several() {
        use super::writes_name;
        assert!(writes_name(b"Googlebot/2.1 (+http://x)", b"Googlebot"));
        assert!(writes_name(b"googlebot", b"Googlebot"));
        assert!(!writes_name(b"Googlebot-News", b"Googlebot"));
        assert!(!writes_name(b"MJ", b"MJ12bot"));
        // A name ends where a character cannot continue it: lists, punctuation, versions.
        for value in [
            &b"GPTBot, ClaudeBot"[..],
            b"GPTBot;",
            b"GPTBot(1.0)",
            b"GPTBot*",
            b"gptbot,",
        ] {
            assert!(
                writes_name(value, b"GPTBot"),
                "{}",
                String::from_utf8_lossy(value)
            );
        }
        assert!(!writes_name(b"GPTBotX, ClaudeBot", b"GPTBot"));
        assert!(writes_name(b"MJ12bot;", b"MJ12bot"));
        assert!(writes_name(b"bigsur.ai, other", b"bigsur.ai"));
        assert!(writes_name(b"Kangaroo Bot, Other", b"Kangaroo Bot"));
        assert!(writes_name(b"Kangaroo  Bot/1.0", b"Kangaroo Bot"));
        assert!(writes_name(b"kangaroo bot", b"Kangaroo Bot"));
        assert!(!writes_name(b"Kangaroo", b"Kangaroo Bot"));
        assert!(!writes_name(b"ChatGPT", b"ChatGPT Agent"));
        assert!(!writes_name(b"ChatGPT Agent Smith", b"ChatGPT Agent"));
    }

    use super::*;

    fn esc(s: &str) -> String {
        let mut out = Vec::new();
        match escape_pattern(s.as_bytes(), &mut out) {
            Some((a, b)) => String::from_utf8(out[a..b].to_vec()).unwrap(),
            None => s.to_string(),
        }
    }

    #[test]
    fn percent_or_high_byte_found_anywhere() {
        assert!(!has_percent_or_high(b""));
        assert!(!has_percent_or_high(b"User-agent: *\nDisallow: /a$\n"));
        for at in 0..40 {
            for c in [b'%', 0x80, 0xff, 0xc3] {
                let mut b = vec![b'a'; 40];
                b[at] = c;
                assert!(has_percent_or_high(&b), "{c:#x} at {at}");
            }
        }
        // Bytes next to `%` (0x24, 0x26) and just under 0x80 are not found.
        assert!(!has_percent_or_high(&[
            0x24, 0x26, 0x7f, 0x05, 0x24, 0x26, 0x7f, 0x05, 0x24
        ]));
    }

    #[test]
    fn google_maybe_escape_pattern() {
        assert_eq!(esc("http://www.example.com"), "http://www.example.com");
        assert_eq!(esc("/a/b/c"), "/a/b/c");
        assert_eq!(esc("á"), "%C3%A1");
        assert_eq!(esc("%aa"), "%AA");
        assert_eq!(esc("/SanJoséSellers"), "/SanJos%C3%A9Sellers");
        assert_eq!(esc("%a"), "%a");
    }

    #[test]
    fn agent_lines_split_by_a_line_that_ends_no_group_are_flagged_with_what_split_them() {
        let split = |body: &str| {
            let s = RobotsTxt::parse(body.as_bytes()).summary;
            (s.group_split.map(Split::as_str), s.wildcard_split)
        };
        // Real files: jimmyjohns.com (protego's test data) and a Crawl-delay for `*` alone.
        let sitemap = "\u{feff}User-agent: *\nSitemap: https://x/s.xml\n\nUser-agent: SemrushBot\nDisallow: /\n";
        assert_eq!(split(sitemap), (Some("sitemap"), true));
        let delay = "User-agent: *\nCrawl-delay: 10\n\nUser-agent: sistrix\nDisallow: /\n";
        assert_eq!(split(delay), (Some("crawl_delay"), true));
        let blank = "User-agent: *\n\nUser-agent: GPTBot\nDisallow: /\n";
        assert_eq!(split(blank), (Some("blank"), true));
        let comment = "User-agent: *\n# AI crawlers\nUser-agent: GPTBot\nDisallow: /\n";
        assert_eq!(split(comment), (Some("comment"), true));
        // Split, but not after `*`: no wildcard_split.
        let named = "User-agent: a\nHost: x\nUser-agent: b\nDisallow: /\nUser-agent: *\nAllow: /\n";
        assert_eq!(split(named), (Some("other"), false));
        // A rule ends the group: blank lines between groups split nothing.
        let fine = "User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\n\nDisallow: /\n";
        assert_eq!(split(fine), (None, false));
        // `*` split from another `*` line takes only rules written for `*`: harmless.
        let stars = "User-agent: *\n\nUser-agent: *\nDisallow: /private\n";
        assert_eq!(split(stars), (Some("blank"), false));
        let stars_then = "User-agent: *\n\nUser-agent: *\n\nUser-agent: GPTBot\nDisallow: /\n";
        assert_eq!(split(stars_then), (Some("blank"), true));
        let together = "User-agent: *\nUser-agent: GPTBot\nDisallow: /\n";
        assert_eq!(split(together), (None, false));
        // Lines before the first group split nothing.
        assert_eq!(
            split("Sitemap: /s\n\nUser-agent: *\nDisallow: /\n"),
            (None, false)
        );
    }

    #[test]
    fn groups_and_summary() {
        let b = b"allow: /a\nuser-agent: a\nsitemap: /s\nuser-agent: b\ndisallow: /\ncrawl-delay: 1\nuser-agent: c\nfoo: bar\n";
        let r = RobotsTxt::parse(b);
        assert_eq!(r.groups.len(), 2);
        assert_eq!(r.line_group, vec![NO_GROUP, 0, 0, 0, 0, 0, 1, 1]);
        assert_eq!(r.summary.n_orphan_rules, 1);
        assert_eq!(r.summary.n_rules, 1);
        assert_eq!(r.summary.n_agents, 3);
        assert_eq!(r.summary.n_unknown, 1);
        assert_eq!(r.summary.n_sitemaps, 1);
    }

    /// `text_of` gives a part's own text whether it is sliced from the checked body or not:
    /// after a BOM, in a body with invalid UTF-8 elsewhere, and from the escape buffer.
    #[test]
    fn text_of_slices_and_falls_back() {
        for body in [
            "\u{feff}User-agent: b\u{e9}bot\nDisallow: /caf\u{e9}\n".as_bytes(),
            b"\xef\xbbUser-agent: bot\nDisallow: /x\xff\n",
            b"User-agent: bot\nDisallow: /\xc3\xa9t\xc3\xa9\nAllow: /\xff\n",
        ] {
            let r = RobotsTxt::parse(body);
            for (i, l) in r.lines.iter().enumerate() {
                for part in [l.key_raw(r.body), l.value(r.body), r.norm_value(i)] {
                    assert_eq!(r.text_of(part), String::from_utf8_lossy(part), "{body:?}");
                }
            }
        }
        let r = RobotsTxt::parse("Disallow: /\u{e9}".as_bytes());
        assert!(r.utf8.is_some());
        assert_eq!(r.text_of(r.norm_value(0)), "/%C3%A9");
    }

    #[test]
    fn tokens() {
        assert_eq!(product_token(b"Googlebot/2.1"), b"Googlebot");
        assert_eq!(product_token(b"Foo Bar"), b"Foo");
        assert!(is_wildcard_agent(b"*"));
        assert!(is_wildcard_agent(b"* foo"));
        assert!(!is_wildcard_agent(b"*foo"));
        assert!(is_valid_product_token("Foobot-Bar"));
        assert!(is_valid_product_token("Foo_Bar"));
        assert!(!is_valid_product_token(""));
        assert!(!is_valid_product_token("ツ"));
        assert!(!is_valid_product_token("Foobot*"));
        assert!(!is_valid_product_token(" Foobot "));
        assert!(!is_valid_product_token("Foobot/2.1"));
        assert!(!is_valid_product_token("Foobot Bar"));
    }
}

//! One robots header value (or meta `content`) into directives.
//!
//! The order of attempts (draft-illyes-repext-02 first, as the draft asks, then what sites write):
//!
//! 1. **`sfv`**: a valid Structured Fields List (RFC 9651, the `sfv` crate) whose members are
//!    product tokens or `*`, the rules being the parameters: `*;noindex;nosnippet, ExampleBot`.
//!    A list is taken in this reading only if some member has a parameter or is `*`, and no
//!    member is itself a robots rule: `noindex, nofollow` is also a valid List, of two tokens,
//!    and `noindex; nofollow` one of a token with a parameter, and both mean the legacy thing.
//! 2. **`sfv_lenient`**: the draft's own examples are not all valid Structured Fields. Two
//!    readings of their obvious intent are accepted and flagged by this syntax value:
//!    - the List form with an omitted global identifier (`;noindex;nosnippet`), a trailing `;`
//!      (`ExampleBot;`), a `=` after the token (`ExampleBot=;`) or upper-case rule names;
//!    - the older dictionary-like form, groups separated by `;`, each `[agent=] rule, rule`:
//!      `*=noindex, nosnippet; ExampleBot=;` and `noindex, nosnippet; ExampleBot=;`.
//! 3. **`legacy`**: `[agent:] directive[, directive]...`, an agent prefix scoping the directives
//!    after it until the next one (`noindex, googlebot: nofollow`); valued directives
//!    `max-snippet: N`, `max-image-preview: large`, `unavailable_after: <date>` (a date with a
//!    comma, `Wed, 3 Dec 2025 ...`, is joined back); `;` separates like `,`.
//! 4. **`invalid`**: nothing above; the value is kept as one `unknown` directive.
//!
//! Duplicate agents merge and rules deduplicate (the draft: "Duplicate product tokens must be
//! merged and the rules deduplicated"); unknown rules are kept as `unknown` with their text.
//! At most [`PARSE_LIMIT`] bytes of a value are parsed (the draft's 8 KiB floor), cut back to the
//! last `,` before it: -03 ignores a member cut at the limit ([`ParsedValue::truncated`] says
//! the value was cut).

use std::borrow::Cow;

/// The most bytes of one value that are parsed: draft-illyes-repext's "at least 8 kibibytes".
pub const PARSE_LIMIT: usize = 8 * 1024;

/// Which grammar a value parsed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Sfv,
    SfvLenient,
    Legacy,
    Invalid,
}

impl Syntax {
    pub fn as_str(self) -> &'static str {
        match self {
            Syntax::Sfv => "sfv",
            Syntax::SfvLenient => "sfv_lenient",
            Syntax::Legacy => "legacy",
            Syntax::Invalid => "invalid",
        }
    }
}

/// One directive for one agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// `*` or the product token, lower-cased.
    pub agent: String,
    /// The normalized directive (see [`normalize`]), `unknown`, or `None` for an agent named
    /// with no rules (`ExampleBot;` in the draft: "specifies no rules for ExampleBot").
    pub directive: Option<&'static str>,
    /// The directive's value: `max-snippet`'s number, `unavailable_after`'s date, ...; for a
    /// Structured Fields parameter that is not `true`, its value as text.
    pub value: Option<String>,
    /// The directive as written (for `unknown`, the whole text of the part).
    pub raw: String,
}

/// A parsed value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedValue {
    pub syntax: Syntax,
    pub directives: Vec<Directive>,
    /// The value was longer than `PARSE_LIMIT`; only its start was parsed.
    pub truncated: bool,
}

/// The known robots rules, normalized: Google's, Bing's and Yandex's documented rules and the
/// AI opt-outs sites write. Anything else is `unknown`.
const KNOWN: &[&str] = &[
    "all",
    "none",
    "index",
    "noindex",
    "follow",
    "nofollow",
    "archive",
    "noarchive",
    "nocache",
    "snippet",
    "nosnippet",
    "notranslate",
    "imageindex",
    "noimageindex",
    "indexifembedded",
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
    "unavailable_after",
    "noai",
    "noimageai",
    "noodp",
    "noydir",
    "noyaca",
    "nositelinkssearchbox",
    "nopagereadaloud",
];

/// Rules that take a value after `:` (legacy) or `=` (Structured Fields).
const VALUED: &[&str] = &[
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
    "unavailable_after",
];

/// The normalized name of a rule as written, or `None` when it is not a known rule. Case is
/// ignored, and the forms sites write for the same rule are folded: `no-index`, `no_index`,
/// `unavailable-after`, `max_snippet`.
pub fn normalize(word: &str) -> Option<&'static str> {
    let w = word.trim();
    if w.len() > 24 {
        return None;
    }
    let mut buf = [0u8; 24];
    let mut n = 0;
    for &c in w.as_bytes() {
        buf[n] = c.to_ascii_lowercase();
        n += 1;
    }
    let lower = &buf[..n];
    if let Some(k) = KNOWN.iter().find(|k| k.as_bytes() == lower) {
        return Some(k);
    }
    // Folded forms: `-`/`_` variants.
    KNOWN.iter().find(|k| fold_eq(k.as_bytes(), lower)).copied()
}

/// `a` and `b` equal when `-`, `_` and spaces are ignored, except that `max-*` keeps its
/// shape (`maxsnippet` is not folded).
fn fold_eq(known: &[u8], written: &[u8]) -> bool {
    let mut a = known.iter().filter(|c| !matches!(c, b'-' | b'_'));
    let mut b = written.iter().filter(|c| !matches!(c, b'-' | b'_' | b' '));
    let seps = written.iter().any(|c| matches!(c, b'-' | b'_' | b' '));
    if !seps {
        return false;
    }
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
    }
}

fn is_valued(d: &str) -> bool {
    VALUED.contains(&d)
}

/// A product token as sites write them: letters, digits, `_`, `-`, `.` (and `*`).
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'*' | b'/'))
}

/// A rule word: starts with a letter, then letters, digits, `_`, `-`, `.`.
fn is_word(s: &str) -> bool {
    s.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        && s.len() <= 64
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
}

/// Cut a value to [`PARSE_LIMIT`], back to the last `,` before the limit: the member the limit
/// cuts, and all after it, are ignored (draft-illyes-repext-03), so a value whose first member
/// is longer than the limit gives nothing.
fn cut(value: &[u8]) -> (&[u8], bool) {
    if value.len() <= PARSE_LIMIT {
        return (value, false);
    }
    let head = &value[..PARSE_LIMIT];
    let end = memchr::memrchr(b',', head).unwrap_or(0);
    (&value[..end], true)
}

/// Collects directives, merging agents and deduplicating rules.
struct Out {
    directives: Vec<Directive>,
}

impl Out {
    fn new() -> Self {
        Out {
            directives: Vec::new(),
        }
    }

    /// Add a rule for `agent`: `word` as written, with an optional value.
    fn rule(&mut self, agent: &str, word: &str, value: Option<&str>, raw: &str) {
        let word = word.trim();
        let directive = normalize(word).unwrap_or("unknown");
        let value = if directive == "unknown" {
            None
        } else {
            value.map(|v| v.trim()).filter(|v| !v.is_empty()).map(|v| {
                if matches!(directive, "max-image-preview") {
                    v.to_ascii_lowercase()
                } else {
                    v.to_string()
                }
            })
        };
        let raw = raw.trim();
        let agent = agent.to_ascii_lowercase();
        // An agent's placeholder row (no rules) goes once a rule arrives.
        if let Some(i) = self
            .directives
            .iter()
            .position(|d| d.agent == agent && d.directive.is_none())
        {
            self.directives.remove(i);
        }
        let dup = self.directives.iter().any(|d| {
            d.agent == agent
                && d.directive == Some(directive)
                && if directive == "unknown" {
                    d.raw.eq_ignore_ascii_case(raw)
                } else {
                    d.value == value
                }
        });
        if !dup {
            self.directives.push(Directive {
                agent,
                directive: Some(directive),
                value,
                raw: raw.to_string(),
            });
        }
    }

    /// Name `agent` with no rules (kept only while it has none).
    fn agent_only(&mut self, agent: &str, raw: &str) {
        let agent = agent.to_ascii_lowercase();
        if !self.directives.iter().any(|d| d.agent == agent) {
            self.directives.push(Directive {
                agent,
                directive: None,
                value: None,
                raw: raw.trim().to_string(),
            });
        }
    }

    fn done(self, syntax: Syntax, truncated: bool) -> ParsedValue {
        ParsedValue {
            syntax,
            directives: self.directives,
            truncated,
        }
    }
}

/// Parse an `X-Robots-Tag` / `Robots-Tag` header value.
pub fn parse_header_value(value: &[u8]) -> ParsedValue {
    let (value, truncated) = cut(value);
    let text = String::from_utf8_lossy(value);
    let text = text.trim();
    if text.is_empty() {
        return Out::new().done(Syntax::Invalid, truncated);
    }
    if let Some(out) = strict_sfv(text) {
        return out.done(Syntax::Sfv, truncated);
    }
    if text.contains(';') || text.contains('=') {
        if let Some(out) = lenient_list(text).or_else(|| lenient_groups(text)) {
            return out.done(Syntax::SfvLenient, truncated);
        }
    }
    legacy(text, "*", truncated)
}

/// Parse a meta tag's `content` for `agent` (`*` for `name="robots"`): the legacy grammar only
/// (the draft: "the content attribute to specify the comma separated robots-tag rules").
pub fn parse_meta_content(content: &[u8], agent: &str) -> ParsedValue {
    let (content, truncated) = cut(content);
    let text = String::from_utf8_lossy(content);
    let text = text.trim();
    if text.is_empty() {
        return Out::new().done(Syntax::Invalid, truncated);
    }
    legacy(text, agent, truncated)
}

fn strict_sfv(text: &str) -> Option<Out> {
    let list: sfv::List = sfv::Parser::new(text).parse().ok()?;
    let mut any_rule = false;
    for entry in &list {
        let sfv::ListEntry::Item(item) = entry else {
            return None;
        };
        let sfv::BareItem::Token(t) = &item.bare_item else {
            return None;
        };
        // A member named by a robots rule is the legacy form, whether or not it has
        // parameters: `noindex, nofollow` is a List of two tokens, and `noindex; nofollow` one
        // token `noindex` with the parameter `nofollow`; no crawler is called `noindex`.
        if normalize(t.as_str()).is_some() {
            return None;
        }
        any_rule |= !item.params.is_empty();
        any_rule |= t.as_str() == "*";
    }
    if !any_rule {
        return None;
    }
    let mut out = Out::new();
    for entry in &list {
        let sfv::ListEntry::Item(item) = entry else {
            continue;
        };
        let sfv::BareItem::Token(t) = &item.bare_item else {
            continue;
        };
        let agent = t.as_str();
        if item.params.is_empty() {
            out.agent_only(agent, agent);
        }
        for (k, v) in &item.params {
            let value = match v {
                sfv::BareItem::Boolean(true) => None,
                other => Some(crate::robots::ext::bare_item(other).0),
            };
            let raw = match &value {
                Some(v) => format!("{}={v}", k.as_str()),
                None => k.as_str().to_string(),
            };
            out.rule(agent, k.as_str(), value.as_deref(), &raw);
        }
    }
    Some(out)
}

/// The draft's List form, leniently: `;noindex;nosnippet, ExampleBot=;`.
fn lenient_list(text: &str) -> Option<Out> {
    if !text.contains(';') {
        return None;
    }
    let mut out = Out::new();
    for member in text.split(',') {
        let member = member.trim();
        if member.is_empty() {
            continue;
        }
        let mut parts = member.split(';');
        let item = parts.next().unwrap_or_default().trim();
        let item = match item.strip_suffix('=') {
            Some(i) => i.trim_end(),
            None => item,
        };
        let agent = if item.is_empty() { "*" } else { item };
        if !is_token(agent) || normalize(agent).is_some() {
            return None;
        }
        let mut any = false;
        for p in parts {
            let p = p.trim();
            if p.is_empty() {
                continue;
            }
            let (k, v) = match p.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim().trim_matches('"'))),
                None => (p, None),
            };
            if !is_word(k) {
                return None;
            }
            let v = v.filter(|v| *v != "?1");
            out.rule(agent, k, v, p);
            any = true;
        }
        if !any {
            out.agent_only(agent, member);
        }
    }
    Some(out)
}

/// The draft's older dictionary-like form: `*=noindex, nosnippet; ExampleBot=;`.
fn lenient_groups(text: &str) -> Option<Out> {
    if !text.contains('=') {
        return None;
    }
    let mut out = Out::new();
    let mut any_eq = false;
    for group in text.split(';') {
        let group = group.trim();
        if group.is_empty() {
            continue;
        }
        let (agent, rules) = match group.split_once('=') {
            Some((a, r)) => {
                any_eq = true;
                let a = a.trim();
                (if a.is_empty() { "*" } else { a }, r)
            }
            None => ("*", group),
        };
        if !is_token(agent) || normalize(agent).is_some() {
            return None;
        }
        let mut any = false;
        for r in rules.split(',') {
            let r = r.trim();
            if r.is_empty() {
                continue;
            }
            if !is_word(r) {
                return None;
            }
            out.rule(agent, r, None, r);
            any = true;
        }
        if !any {
            out.agent_only(agent, group);
        }
    }
    any_eq.then_some(out)
}

/// The weekday abbreviations of an HTTP date (`Wed, 03 Dec 2025 ...`).
fn is_weekday(s: &str) -> bool {
    let s = s.trim();
    [
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ]
    .iter()
    .any(|d| s.eq_ignore_ascii_case(d))
}

/// The legacy grammar, `default_agent` scoping directives before any agent prefix.
fn legacy(text: &str, default_agent: &str, truncated: bool) -> ParsedValue {
    let mut out = Out::new();
    let mut agent: Cow<'_, str> = Cow::Borrowed(default_agent);
    let mut good = 0usize;
    let parts: Vec<&str> = text.split([',', ';']).collect();
    let mut i = 0;
    while i < parts.len() {
        let part = parts[i].trim();
        i += 1;
        if part.is_empty() {
            continue;
        }
        // `unavailable_after: Wed, 3 Dec 2025 ...`: the date's comma split it.
        let mut joined: Option<String> = None;
        let mut rest = part;
        // An agent prefix: `googlebot: ...` (a word before `:` that is not a valued rule).
        if let Some((left, right)) = part.split_once(':') {
            let l = left.trim();
            let is_valued_rule = normalize(l).is_some_and(is_valued);
            if !is_valued_rule && is_token(l) && normalize(l).is_none() {
                agent = Cow::Owned(l.to_string());
                rest = right.trim();
                if rest.is_empty() {
                    good += 1;
                    continue;
                }
            }
        }
        let (word, value) = match rest.split_once([':', '=']) {
            Some((w, v)) if normalize(w).is_some_and(is_valued) => (w.trim(), Some(v.trim())),
            _ => (rest, None),
        };
        let mut value = value.map(str::to_string);
        if normalize(word) == Some("unavailable_after") {
            if let Some(v) = &value {
                let next_is_date = parts
                    .get(i)
                    .map(|n| {
                        n.trim_start()
                            .as_bytes()
                            .first()
                            .is_some_and(u8::is_ascii_digit)
                    })
                    .unwrap_or(false);
                if is_weekday(v) && next_is_date {
                    let full = format!("{v}, {}", parts[i].trim());
                    joined = Some(format!("{word}: {full}"));
                    value = Some(full);
                    i += 1;
                }
            }
        }
        let raw = joined.as_deref().unwrap_or(rest);
        if normalize(word).is_some() || is_word(word) {
            good += 1;
        }
        out.rule(&agent, word, value.as_deref(), raw);
    }
    let syntax = if good > 0 {
        Syntax::Legacy
    } else {
        Syntax::Invalid
    };
    out.done(syntax, truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_cut_at_the_limit_is_ignored_with_all_after_it() {
        // Members of 10 bytes: the limit falls inside one.
        let member = "a1bot;noai";
        let mut v = std::iter::repeat_n(member, 1000)
            .collect::<Vec<_>>()
            .join(",");
        v.insert_str(0, "*;noindex,");
        let p = parse_header_value(v.as_bytes());
        assert!(p.truncated);
        let kept = (p.directives.iter()).filter(|d| d.agent == "a1bot").count();
        assert_eq!(kept, 1, "the repeated agent merges");
        // One member longer than the limit: nothing is read.
        let long = format!("*;noindex;max-snippet={}", "9".repeat(PARSE_LIMIT));
        let p = parse_header_value(long.as_bytes());
        assert!(p.truncated && p.directives.is_empty(), "{:?}", p.directives);
    }

    /// `(agent, directive, value)` triples.
    fn triples(p: &ParsedValue) -> Vec<(String, String, String)> {
        p.directives
            .iter()
            .map(|d| {
                (
                    d.agent.clone(),
                    d.directive.unwrap_or("-").to_string(),
                    d.value.clone().unwrap_or_default(),
                )
            })
            .collect()
    }

    fn t(a: &str, d: &str, v: &str) -> (String, String, String) {
        (a.into(), d.into(), v.into())
    }

    #[test]
    fn draft_examples() {
        let want = vec![
            t("*", "noindex", ""),
            t("*", "nosnippet", ""),
            t("examplebot", "-", ""),
        ];
        for (v, syntax) in [
            ("*;noindex;nosnippet, ExampleBot", Syntax::Sfv),
            ("*;noindex;nosnippet, ExampleBot;", Syntax::SfvLenient),
            (";noindex;nosnippet, ExampleBot=;", Syntax::SfvLenient),
            ("*=noindex, nosnippet; ExampleBot=;", Syntax::SfvLenient),
            ("noindex, nosnippet; ExampleBot=;", Syntax::SfvLenient),
        ] {
            let p = parse_header_value(v.as_bytes());
            assert_eq!(p.syntax, syntax, "{v}");
            assert_eq!(triples(&p), want, "{v}");
        }
        let p = parse_header_value(b"*;nosnippet, ExampleBot;noindex");
        assert_eq!(p.syntax, Syntax::Sfv);
        assert_eq!(
            triples(&p),
            vec![t("*", "nosnippet", ""), t("examplebot", "noindex", "")]
        );
    }

    #[test]
    fn rules_separated_by_semicolons_are_the_legacy_form_not_an_agent_named_by_a_rule() {
        for (v, want) in [
            ("noindex; nofollow", vec![("noindex", ""), ("nofollow", "")]),
            ("none; noarchive", vec![("none", ""), ("noarchive", "")]),
            ("noai; noimageai", vec![("noai", ""), ("noimageai", "")]),
            ("index;follow", vec![("index", ""), ("follow", "")]),
            ("NOINDEX; NOFOLLOW", vec![("noindex", ""), ("nofollow", "")]),
            (
                "noindex;max-snippet=20",
                vec![("noindex", ""), ("max-snippet", "20")],
            ),
        ] {
            let p = parse_header_value(v.as_bytes());
            assert_eq!(p.syntax, Syntax::Legacy, "{v}");
            let got: Vec<(String, String, String)> = triples(&p);
            let want: Vec<_> = want.iter().map(|(d, x)| t("*", d, x)).collect();
            assert_eq!(got, want, "{v}");
        }
        // An agent's own rules after `;` stay the Structured Fields form.
        let p = parse_header_value(b"googlebot;noindex;nofollow");
        assert_eq!(p.syntax, Syntax::Sfv);
        assert_eq!(
            triples(&p),
            vec![
                t("googlebot", "noindex", ""),
                t("googlebot", "nofollow", "")
            ]
        );
    }

    #[test]
    fn legacy_forms() {
        let p = parse_header_value(b"noindex, googlebot: nofollow");
        assert_eq!(p.syntax, Syntax::Legacy);
        assert_eq!(
            triples(&p),
            vec![t("*", "noindex", ""), t("googlebot", "nofollow", "")]
        );
        let p = parse_header_value(b"BadBot: noindex, nofollow, googlebot: nofollow");
        assert_eq!(
            triples(&p),
            vec![
                t("badbot", "noindex", ""),
                t("badbot", "nofollow", ""),
                t("googlebot", "nofollow", "")
            ]
        );
        let p =
            parse_header_value(b"noimageindex, unavailable_after: Wed, 3 Dec 2025 13:09:53 +0000");
        assert_eq!(
            triples(&p),
            vec![
                t("*", "noimageindex", ""),
                t("*", "unavailable_after", "Wed, 3 Dec 2025 13:09:53 +0000")
            ]
        );
        let p = parse_header_value(
            b"google_bot: max-video-preview: -1, noindex, max-image-preview: Standard",
        );
        assert_eq!(
            triples(&p),
            vec![
                t("google_bot", "max-video-preview", "-1"),
                t("google_bot", "noindex", ""),
                t("google_bot", "max-image-preview", "standard")
            ]
        );
        let p = parse_header_value(b"spawningbot: other, spawningbot: all, test:noai");
        assert_eq!(
            triples(&p),
            vec![
                t("spawningbot", "unknown", ""),
                t("spawningbot", "all", ""),
                t("test", "noai", "")
            ]
        );
        assert_eq!(p.directives[0].raw, "other");
        // `noindex, nofollow` is a valid Structured Fields List too, but means the legacy thing.
        let p = parse_header_value(b"noindex, nofollow");
        assert_eq!(p.syntax, Syntax::Legacy);
        let p = parse_header_value(b"NoIndex; No-Follow");
        assert_eq!(p.syntax, Syntax::Legacy);
        assert_eq!(
            triples(&p),
            vec![t("*", "noindex", ""), t("*", "nofollow", "")]
        );
        let p = parse_header_value(b"noindex, noindex, NOINDEX");
        assert_eq!(p.directives.len(), 1);
    }

    #[test]
    fn invalid_and_limits() {
        let p = parse_header_value(b"");
        assert_eq!(p.syntax, Syntax::Invalid);
        assert!(p.directives.is_empty());
        let p = parse_header_value(b"<html><body>");
        assert_eq!(p.syntax, Syntax::Invalid);
        assert_eq!(triples(&p), vec![t("*", "unknown", "")]);
        let long = "noindex, ".repeat(2000);
        let p = parse_header_value(long.as_bytes());
        assert!(p.truncated);
        assert_eq!(triples(&p), vec![t("*", "noindex", "")]);
    }

    #[test]
    fn meta_content() {
        let p = parse_meta_content(b"INDEX,FOLLOW", "googlebot");
        assert_eq!(
            triples(&p),
            vec![t("googlebot", "index", ""), t("googlebot", "follow", "")]
        );
        let p = parse_meta_content(b"", "*");
        assert_eq!(p.syntax, Syntax::Invalid);
    }

    #[test]
    fn normalizing() {
        assert_eq!(normalize("NoIndex"), Some("noindex"));
        assert_eq!(normalize("no-index"), Some("noindex"));
        assert_eq!(normalize("unavailable-after"), Some("unavailable_after"));
        assert_eq!(normalize("max_snippet"), Some("max-snippet"));
        assert_eq!(normalize("quack"), None);
        assert_eq!(normalize("maxsnippet"), None);
    }
}

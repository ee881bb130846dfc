//! AI usage preferences a page's response carries:
//!
//! * `Content-Usage` (draft-ietf-aipref-attach-05, as an HTTP header) read with the vocabulary
//!   of draft-ietf-aipref-vocab-08 ([`VOCABULARY`]): a Structured Fields Dictionary whose keys
//!   `train-ai`, `ai-use` (new in -08, section 4.2) and `search` take the Token `y` or `n`. Any
//!   other value leaves the preference unknown, a repeated key's last value wins, and a value
//!   that does not parse (an uppercase key included: the format is case-sensitive) leaves every
//!   preference unknown. A key the vocabulary does not define (a retired `bots=n`, a proposed
//!   `infer-*`) is ignored by its readers (section 6.4) but kept here as `unknown` with the
//!   member as written, so that labels which come and go are counted. There is no inheritance
//!   between categories; -08 says Search overrides the other two, which is a reading of the
//!   preferences, not a change of what they state, so the values are kept as stated.
//! * Cloudflare's Content Signals (contentsignals.org) as an HTTP header (`Content-Signal`) or
//!   a `<meta name="content-signal">` tag: comma-separated `key=value` pairs, keys in any case
//!   (`search`, `ai-input`, `ai-train`, and since 2026 `use` with `immediate`, `reference`,
//!   `full`), as the robots.txt `Content-Signal` line writes them.

use crate::robots::{Matcher, RobotsTxt};

/// The vocabulary the `Content-Usage` preferences are read with (`page_signals.vocabulary`,
/// `inputs.aipref_vocabulary`).
pub const VOCABULARY: &str = "aipref-vocab-08";

/// The usage categories of [`VOCABULARY`], by label, in the order preferences are written.
pub const LABELS: [&str; 3] = ["train-ai", "ai-use", "search"];

/// Whether [`VOCABULARY`] defines `label`.
pub fn is_label(label: &str) -> bool {
    LABELS.contains(&label)
}

/// Whether Cloudflare's Content Signals define `key` (lowercase).
pub fn is_content_signal_key(key: &str) -> bool {
    CONTENT_SIGNAL_KEYS.contains(&key)
}

/// The keys Cloudflare's Content Signals define.
pub const CONTENT_SIGNAL_KEYS: [&str; 4] = ["search", "ai-input", "ai-train", "use"];

/// One member of a preference value, as the `page_signals` rows give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The known key or label (`train-ai`, `search`; for Content Signals also `ai-input`,
    /// `ai-train`, `use`), or `unknown`.
    pub key: &'static str,
    /// The preference: for `Content-Usage`, `y` or `n` (NULL when the value is neither, which
    /// leaves the preference unknown); for Content Signals, the value lowercased.
    pub value: Option<String>,
    /// The member as written.
    pub raw: String,
}

/// A parsed preference value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preferences {
    /// The value parsed (`Content-Usage`: as a Structured Fields Dictionary).
    pub valid: bool,
    pub members: Vec<Member>,
}

/// A `Content-Usage` value read with [`VOCABULARY`]: one member per dictionary key (a repeated
/// key once, with its last value), none when the value does not parse.
pub fn parse_content_usage(value: &[u8]) -> Preferences {
    let text = String::from_utf8_lossy(value);
    let Ok(dict) = sfv::Parser::new(text.trim()).parse::<sfv::Dictionary>() else {
        return Preferences {
            valid: false,
            members: Vec::new(),
        };
    };
    let written = member_texts(text.trim());
    let members = (dict.iter())
        .map(|(k, entry)| {
            let key = LABELS.into_iter().find(|l| *l == k.as_str());
            let value = match entry {
                sfv::ListEntry::Item(item) => match &item.bare_item {
                    sfv::BareItem::Token(t) if matches!(t.as_str(), "y" | "n") => {
                        Some(t.as_str().to_string())
                    }
                    _ => None,
                },
                sfv::ListEntry::InnerList(_) => None,
            };
            // The member as written: a repeated key's last.
            let raw = (written.iter().rev())
                .find(|m| member_key(m) == k.as_str())
                .map_or_else(|| k.as_str().to_string(), |m| m.to_string());
            Member {
                key: key.unwrap_or("unknown"),
                value: value.filter(|_| key.is_some()),
                raw,
            }
        })
        .collect();
    Preferences {
        valid: true,
        members,
    }
}

/// The AI usage preferences that the robots.txt `Content-Usage` rules `lines` (of an agent's
/// groups: [`crate::robots::usage::usage_lines`]) give the path `at`, as draft-ietf-aipref-attach-05
/// reads them: a rule's value is an optional path (up to the first space or tab), then a
/// preference of [`VOCABULARY`]; the rules whose path matches `at` longest decide (no path:
/// every path, at length 0), and those of one length combine most restrictively (`n` over
/// `y`). `train-ai=n,search=y`, the labels with no known preference left out; `None` when no
/// rule matches. (Preferences apply only to what may be crawled: the caller asks only when
/// `at` is allowed.)
pub fn robots_preferences(
    robots: &RobotsTxt<'_>,
    lines: &[usize],
    matcher: &mut Matcher,
    at: &[u8],
) -> Option<String> {
    let mut best: Option<(usize, Vec<&[u8]>)> = None;
    for &i in lines {
        let v = robots.lines[i].value(robots.body);
        let (path, pref): (&[u8], &[u8]) = match v.first() {
            Some(b'/') => {
                let end = v
                    .iter()
                    .position(|&b| b == b' ' || b == b'\t')
                    .unwrap_or(v.len());
                (&v[..end], &v[end..])
            }
            _ => (b"", v),
        };
        if !path.is_empty() && !matcher.matches(at, path) {
            continue;
        }
        match &mut best {
            Some((len, prefs)) if *len == path.len() => prefs.push(pref),
            Some((len, _)) if *len > path.len() => {}
            _ => best = Some((path.len(), vec![pref])),
        }
    }
    let (_, prefs) = best?;
    let mut out: Vec<String> = Vec::new();
    for label in LABELS {
        let values: Vec<Option<String>> = (prefs.iter())
            .flat_map(|p| parse_content_usage(p).members)
            .filter(|m| m.key == label)
            .map(|m| m.value)
            .collect();
        let value = if values.iter().any(|v| v.as_deref() == Some("n")) {
            "n"
        } else if values.iter().any(|v| v.as_deref() == Some("y")) {
            "y"
        } else {
            continue;
        };
        out.push(format!("{label}={value}"));
    }
    Some(out.join(","))
}

/// The members of a Structured Fields Dictionary `text` that parsed, as written: split at the
/// commas outside strings and inner lists, trimmed (the `sfv` crate gives values, not where
/// they were written: `search="n"` would read back as `search=n`, `?0` as `false`).
pub fn member_texts(text: &str) -> Vec<&str> {
    let (mut members, mut start, mut depth) = (Vec::new(), 0, 0u32);
    let (mut in_string, mut escaped) = (false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '(' if !in_string => depth += 1,
            ')' if !in_string => depth = depth.saturating_sub(1),
            ',' if !in_string && depth == 0 => {
                members.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    members.push(text[start..].trim());
    members
}

/// The key of a dictionary member as written: up to its `=` or first parameter.
pub fn member_key(member: &str) -> &str {
    let end = member.find(['=', ';']).unwrap_or(member.len());
    member[..end].trim()
}

/// A Content Signals value (`search=yes, ai-train=no, use=reference`): one member per pair,
/// keys and values lowercased; not valid when no pair has an `=`.
pub fn parse_content_signal(value: &[u8]) -> Preferences {
    let text = String::from_utf8_lossy(value);
    let mut members = Vec::new();
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = match pair.split_once('=') {
            Some((k, v)) => (k.trim().to_ascii_lowercase(), Some(v.trim())),
            None => (pair.to_ascii_lowercase(), None),
        };
        let key = CONTENT_SIGNAL_KEYS.into_iter().find(|c| *c == k);
        members.push(Member {
            key: key.unwrap_or("unknown"),
            value: v.map(|v| v.trim_matches('"').to_ascii_lowercase()),
            raw: pair.to_string(),
        });
    }
    let valid = members.iter().any(|m| m.value.is_some());
    Preferences { valid, members }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(v: &str) -> (bool, Vec<(&'static str, Option<String>)>) {
        let p = parse_content_usage(v.as_bytes());
        (
            p.valid,
            p.members.into_iter().map(|m| (m.key, m.value)).collect(),
        )
    }

    #[test]
    fn content_usage_follows_vocab_08() {
        let y = |s: &str| Some(s.to_string());
        // The draft's own examples.
        assert_eq!(
            usage("train-ai=y, search=n"),
            (true, vec![("train-ai", y("y")), ("search", y("n"))])
        );
        // A repeated key: its last value wins (a boolean, a string: neither is y or n).
        assert_eq!(
            usage("train-ai=y, train-ai, search=n, search=\"n\""),
            (true, vec![("train-ai", None), ("search", None)])
        );
        assert_eq!(
            usage("train-ai;allow=n, train-ai=y"),
            (true, vec![("train-ai", y("y"))])
        );
        // The draft's example ends in `;`, which Structured Fields do not allow: the parse
        // fails, so every preference is unknown, as the draft says of this one; without the
        // `;` it parses, and train-ai is unknown all the same.
        assert_eq!(usage("train-ai;has;parameters=\"?\";"), (false, vec![]));
        assert_eq!(
            usage("train-ai;has;parameters=\"?\"").1,
            vec![("train-ai", None)]
        );
        // Unknown keys are kept as `unknown` and give no preference; uppercase fails the parse.
        assert_eq!(
            usage("foo=y, search=y"),
            (true, vec![("unknown", None), ("search", y("y"))])
        );
        assert_eq!(usage("Train-AI=n"), (false, vec![]));
        assert_eq!(usage("train-ai=no").1, vec![("train-ai", None)]);
        // -07 removed the `ai` and `genai` categories: they are unknown keys now.
        assert_eq!(usage("ai=n").1, vec![("unknown", None)]);
    }

    /// -08's three categories are known; a retired label and a proposed `infer-*` one are
    /// `unknown`, each kept with its name as written, never dropped.
    #[test]
    fn vocab_08_knows_ai_use_and_keeps_labels_it_does_not_know_by_name() {
        assert_eq!(VOCABULARY, "aipref-vocab-08");
        let p = parse_content_usage(b"train-ai=n, ai-use=y, infer-train=n, bots=n, search=y");
        let got: Vec<_> = (p.members.iter())
            .map(|m| (m.key, m.value.as_deref(), m.raw.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("train-ai", Some("n"), "train-ai=n"),
                ("ai-use", Some("y"), "ai-use=y"),
                ("unknown", None, "infer-train=n"),
                ("unknown", None, "bots=n"),
                ("search", Some("y"), "search=y"),
            ]
        );
        assert!(is_label("ai-use") && !is_label("infer-train") && !is_label("bots"));
        assert!(is_content_signal_key("ai-input") && !is_content_signal_key("ai-use"));
    }

    #[test]
    fn a_member_is_kept_as_written_not_as_read_back() {
        let raw = |v: &str| {
            (parse_content_usage(v.as_bytes()).members.into_iter())
                .map(|m| m.raw)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            raw("search=\"n\", train-ai=?0"),
            ["search=\"n\"", "train-ai=?0"]
        );
        assert_eq!(
            raw("train-ai;p=\"a,b\" ,search=(y n)"),
            ["train-ai;p=\"a,b\"", "search=(y n)"]
        );
        // A repeated key: the member read is its last.
        assert_eq!(
            raw("search=y, train-ai, search=\"n\""),
            ["search=\"n\"", "train-ai"]
        );
        assert_eq!(raw("train-ai=n"), ["train-ai=n"]);
    }

    #[test]
    fn content_signal_pairs_any_case_with_use() {
        let p = parse_content_signal(b"search=yes,AI-Train=no, use=Reference");
        assert!(p.valid);
        let got: Vec<_> = p
            .members
            .iter()
            .map(|m| (m.key, m.value.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("search", Some("yes")),
                ("ai-train", Some("no")),
                ("use", Some("reference"))
            ]
        );
        let odd = parse_content_signal(b"train=no, nothing");
        assert_eq!(odd.members[0].key, "unknown");
        assert_eq!(odd.members[1].value, None);
        assert!(!parse_content_signal(b"none").valid);
    }
}

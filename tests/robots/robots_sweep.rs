//! Sweep over the 519 real robots.txt files in samples/real-robots.warc.gz: our verdicts against
//! the `robotstxt` crate (a Rust port of an older google/robotstxt) for a set of agents and for
//! paths taken from each file's own rules. Where the two differ, the cause must be one of the
//! known differences of that port (each listed and explained below); any other difference fails.

use crate::common;

use common::corpus::{physical_lines, real_robots};
use repcensus::{Key, Matcher, RobotsTxt};
use std::collections::BTreeMap;

const AGENTS: &[&str] = &[
    "Googlebot",
    "googlebot-image",
    "Bingbot",
    "GPTBot",
    "ClaudeBot",
    "CCBot",
    "Google-Extended",
    "Yandex",
    "Baiduspider",
    "FooBot",
    "Mediapartners-Google",
    "AhrefsBot",
];

/// Paths to try: fixed ones plus, for each rule, its pattern made concrete (`*` -> `x`, `$`
/// dropped), that path plus a suffix, and its parent directory.
fn paths(r: &RobotsTxt<'_>) -> Vec<String> {
    let mut out: Vec<String> = [
        "/",
        "/index.html",
        "/x",
        "/admin/",
        "/search?q=1",
        "/a/b/c.php",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (i, l) in r.lines.iter().enumerate() {
        if !l.key.is_rule() {
            continue;
        }
        let v = String::from_utf8_lossy(r.norm_value(i))
            .replace('*', "x")
            .replace('$', "");
        if v.is_empty() || !v.is_ascii() {
            continue;
        }
        let v = if v.starts_with('/') {
            v
        } else {
            format!("/{v}")
        };
        if let Some(p) = v.rfind('/') {
            out.push(v[..=p].to_string());
        }
        out.push(format!("{v}z"));
        out.push(v);
        if out.len() > 60 {
            break;
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Why the `robotstxt` crate may read a file differently; `None` if no known cause applies.
fn known_cause(body: &[u8]) -> Option<&'static str> {
    if body.starts_with(b"\xEF\xBB\xBF") || body.starts_with(b"\xEF\xBB") {
        // It compares decoded chars with the BOM's bytes, so a BOM (U+FEFF) is never skipped:
        // the first line's key becomes "\u{feff}User-agent", an unknown key.
        return Some("bom_not_skipped");
    }
    if std::str::from_utf8(body).is_err() {
        // It takes &str: invalid bytes reach it as U+FFFD, %-escaped as %EF%BF%BD.
        return Some("invalid_utf8_replaced");
    }
    let s = std::str::from_utf8(body).unwrap();
    if s.contains('\0') {
        // Google's C strings end at NUL; the port's &str does not.
        return Some("nul_not_line_end");
    }
    if s.chars().any(|c| c.is_whitespace() && !c.is_ascii()) {
        // It trims with str::trim (Unicode whitespace); Google trims ASCII whitespace only.
        return Some("unicode_whitespace_trimmed");
    }
    if agent_after_other_line(&RobotsTxt::parse(body)) {
        // The port is of a Google version that closed a group at any line that is not a
        // user-agent line (sitemap, crawl-delay, unknown keys); Google now closes a group only
        // after an allow/disallow line (robots_test.cc `ID_LineSyntax_Groups_OtherRules`).
        return Some("port_closes_group_on_other_lines");
    }
    if s.split(['\r', '\n']).any(|l| {
        let l = l.split('#').next().unwrap_or("").trim();
        let v = l.split_once(':').map_or("", |(_, v)| v.trim());
        (v.starts_with('/') || v.starts_with('*'))
            && v.trim_end_matches('$').trim_end_matches('*').contains('*')
    }) {
        // Its pattern matcher writes positions with Vec::insert where Google assigns, so after a
        // `*` that is not last the position list holds stale entries and a pattern such as
        // `*/feed/*` fails to match `/x/feed/x` (see `port_wildcard_bug` below).
        return Some("port_wildcard_bug");
    }
    if s.lines()
        .any(|l| l.split('#').next().unwrap_or("").len() >= 2083 * 8 - 1)
    {
        // It counts the line cut in chars and cuts before the comment is removed differently.
        return Some("long_line");
    }
    None
}

/// A user-agent line that follows, in the same group, a line that is neither an agent line nor a
/// rule (nor blank or invalid).
fn agent_after_other_line(r: &RobotsTxt<'_>) -> bool {
    (0..r.groups.len()).any(|g| {
        let mut other = false;
        r.group_lines(g).any(|i| {
            let k = r.lines[i].key;
            if k.is_agent() && other {
                return true;
            }
            other |= !k.is_agent() && !matches!(k, Key::Blank | Key::Invalid);
            false
        })
    })
}

#[test]
fn sweep_against_robotstxt_crate() {
    let files = real_robots();
    assert_eq!(files.len(), 519);
    let mut m = Matcher::new();
    let mut checks = 0usize;
    let mut explained: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut unexplained = Vec::new();
    for (name, body) in &files {
        let r = RobotsTxt::parse(body);
        let text = String::from_utf8_lossy(body);
        let mut file_diffs = 0;
        let mut paths = paths(&r);
        // Bound the cost: the port re-parses the file for every check.
        paths.truncate((400_000 / (body.len() + 1)).clamp(8, 60));
        for path in paths {
            let url = format!("http://example.com{path}");
            for agent in AGENTS {
                checks += 1;
                let ours = m.verdict(&r, &[agent], None, path.as_bytes()).allowed;
                let theirs = robotstxt::DefaultMatcher::default()
                    .one_agent_allowed_by_robots(&text, agent, &url);
                if ours != theirs {
                    file_diffs += 1;
                    if known_cause(body).is_none() && unexplained.len() < 20 {
                        unexplained.push(format!(
                            "{name}: {agent} {path}: ours {ours}, robotstxt {theirs}"
                        ));
                    }
                }
            }
        }
        if file_diffs > 0 {
            let e = explained
                .entry(known_cause(body).unwrap_or("UNEXPLAINED"))
                .or_default();
            e.0 += 1;
            e.1 += file_diffs;
        }
    }
    eprintln!(
        "{checks} checks over {} files; differing files by cause (files, checks): {explained:?}",
        files.len()
    );
    assert!(checks > 50_000, "{checks}");
    assert!(
        unexplained.is_empty(),
        "unexplained differences:\n{}",
        unexplained.join("\n")
    );
}

#[test]
fn every_real_file_parses_one_descriptor_per_line() {
    for (name, body) in real_robots() {
        let r = RobotsTxt::parse(&body);
        let n = physical_lines(&body);
        assert_eq!(r.lines.len(), n, "{name}");
        assert!(r
            .lines
            .iter()
            .all(|l| l.key != Key::Blank || l.key_start == l.key_end));
    }
}

/// The difference named `port_wildcard_bug`, on a minimal case: Google's algorithm (and ours)
/// matches `*/feed/*` against `/x/feed/x`; the port does not.
#[test]
fn port_wildcard_bug() {
    let robots = "User-agent: *\nDisallow: */feed/*\n";
    let url = "http://example.com/x/feed/x";
    assert!(!repcensus::allowed_by_robots(
        robots.as_bytes(),
        "FooBot",
        url
    ));
    assert!(robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(robots, "FooBot", url));
}

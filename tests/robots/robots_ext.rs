//! Extensions end to end through the library: User-Agent-Purpose (`purpose_*`), App-Directives
//! (`planb_*`), and golden `parse` output of real files (`golden_*`).

use crate::common;

use common::corpus::real_robots;
use repcensus::internals::app_directives_for;
use repcensus::{path_params_query, Matcher, RobotsTxt, Source};

fn verdict(body: &str, agent: &str, purpose: Option<&str>, url: &str) -> (bool, Source) {
    let r = RobotsTxt::parse(body.as_bytes());
    let v = Matcher::new().verdict(&r, &[agent], purpose, path_params_query(url).as_bytes());
    (v.allowed, v.source)
}

/// The draft's own example (§6).
const PURPOSE_EXAMPLE: &str = "User-Agent: FooBot\nUser-Agent-Purpose: EXAMPLE-PURPOSE-1\nDisallow: /\n\n# EXAMPLE-PURPOSE-2 crawlers are allowed.\nUser-Agent-Purpose: EXAMPLE-PURPOSE-2\n";

#[test]
fn purpose_draft_example() {
    let u = "http://e.com/page";
    assert_eq!(
        verdict(PURPOSE_EXAMPLE, "FooBot", None, u),
        (false, Source::Specific)
    );
    assert_eq!(
        verdict(PURPOSE_EXAMPLE, "BarBot", Some("EXAMPLE-PURPOSE-1"), u),
        (false, Source::Purpose)
    );
    assert_eq!(
        verdict(PURPOSE_EXAMPLE, "BarBot", Some("example-purpose-1"), u),
        (false, Source::Purpose)
    );
    assert_eq!(
        verdict(PURPOSE_EXAMPLE, "BarBot", Some("EXAMPLE-PURPOSE-2"), u),
        (true, Source::Purpose)
    );
    assert_eq!(
        verdict(PURPOSE_EXAMPLE, "BarBot", None, u),
        (true, Source::None)
    );
}

#[test]
fn purpose_product_token_group_wins() {
    let body = "User-agent: FooBot\nAllow: /\n\nUser-Agent-Purpose: ai-training\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n";
    let u = "http://e.com/page";
    assert_eq!(
        verdict(body, "FooBot", Some("ai-training"), u),
        (true, Source::Specific)
    );
    assert_eq!(
        verdict(body, "BarBot", Some("ai-training"), u),
        (false, Source::Purpose)
    );
    assert_eq!(
        verdict(body, "BarBot", Some("search"), u),
        (true, Source::Wildcard)
    );
    assert_eq!(
        verdict(body, "BarBot", Some("search"), "http://e.com/private/x"),
        (false, Source::Wildcard)
    );
}

#[test]
fn purpose_groups_merge_and_never_match_product_tokens() {
    let body = "User-Agent-Purpose: ai-training\nDisallow: /a\n\nUser-agent: x\nDisallow: /\n\nUser-Agent-Purpose: ai-training\nDisallow: /b\n";
    assert!(!verdict(body, "Other", Some("ai-training"), "http://e.com/a").0);
    assert!(!verdict(body, "Other", Some("ai-training"), "http://e.com/b").0);
    assert!(verdict(body, "Other", Some("ai-training"), "http://e.com/c").0);
    // A product token equal to a purpose value does not select the purpose group.
    assert_eq!(
        verdict(body, "ai-training", None, "http://e.com/a"),
        (true, Source::None)
    );
}

#[test]
fn purpose_line_joins_a_group_like_user_agent() {
    // The purpose line after a rule starts a new group; before one it joins the group.
    let body =
        "User-agent: a\nUser-Agent-Purpose: p\nDisallow: /x\nUser-Agent-Purpose: q\nDisallow: /y\n";
    let r = RobotsTxt::parse(body.as_bytes());
    assert_eq!(r.groups.len(), 2);
    assert!(!verdict(body, "z", Some("p"), "http://e.com/x").0);
    assert!(verdict(body, "z", Some("p"), "http://e.com/y").0);
    assert!(!verdict(body, "z", Some("q"), "http://e.com/y").0);
}

/// The draft's combination example: two lines with the same (empty) path combine.
#[test]
fn planb_same_path_lines_combine() {
    let body = "User-Agent: *\nAllow: /\nApp-Directives: examplesearch;widgets=?0\nApp-Directives: someothersearch;foo=bar\n";
    let r = RobotsTxt::parse(body.as_bytes());
    assert_eq!(
        app_directives_for(&r, "AnyBot", "examplesearch", b"/x"),
        vec![("widgets".into(), "false".into(), "boolean")]
    );
    assert_eq!(
        app_directives_for(&r, "AnyBot", "someothersearch", b"/x"),
        vec![("foo".into(), "bar".into(), "token")]
    );
}

#[test]
fn planb_product_group_then_longest_path() {
    let body = "User-Agent: *\nAllow: /\nApp-Directive: examplesearch;widgets=?0\n\nUser-agent: ExampleSearch/1.0\nAllow: /\nApp-Directives: examplesearch;widgets=?1\nApp-Directives: /news/ examplesearch;widgets=?0;limit=3\n";
    let r = RobotsTxt::parse(body.as_bytes());
    // The crawler's own group is chosen over `*`.
    assert_eq!(
        app_directives_for(&r, "examplesearch", "examplesearch", b"/a"),
        vec![("widgets".into(), "true".into(), "boolean")]
    );
    // Longest matching path within the group.
    assert_eq!(
        app_directives_for(&r, "examplesearch", "examplesearch", b"/news/today"),
        vec![
            ("widgets".into(), "false".into(), "boolean"),
            ("limit".into(), "3".into(), "integer")
        ]
    );
    // Other crawlers get the `*` group.
    assert_eq!(
        app_directives_for(&r, "OtherBot", "examplesearch", b"/news/today"),
        vec![("widgets".into(), "false".into(), "boolean")]
    );
    // An invalid list is kept (in the tables) but contributes no directive.
    let r = RobotsTxt::parse(b"User-agent: *\nApp-Directives: examplesearch;widgets=\n");
    assert!(app_directives_for(&r, "x", "examplesearch", b"/").is_empty());
}

/// Like Google, an App-Directives line does not close a group: without an allow/disallow line
/// between them, the next user-agent line joins the same group (docs/robots.md).
#[test]
fn planb_app_directives_line_does_not_close_a_group() {
    let body = "User-Agent: *\nApp-Directives: examplesearch;widgets=?0\nUser-agent: OtherBot\nDisallow: /x\n";
    let r = RobotsTxt::parse(body.as_bytes());
    assert_eq!(r.groups.len(), 1);
    assert_eq!(
        app_directives_for(&r, "OtherBot", "examplesearch", b"/"),
        vec![("widgets".into(), "false".into(), "boolean")]
    );
}

/// `repcensus parse` output of real files, checked against reviewed JSON in
/// tests/expected/robots/ (REPCENSUS_BLESS=1 rewrites them).
#[test]
fn golden_parse_of_real_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/robots");
    let wanted = [
        ("www.independent.ie", "acap"),
        ("www.rsc.org", "acap"),
        ("admin.nawlasnekonto.pl", "crawl_delay_keeps_group_open"),
        ("www.analog.com", "cr_line_endings"),
        ("activdog.pl", "wildcards"),
        ("Research_Square.txt", "cloudflare_managed"),
    ];
    let files = real_robots();
    let bless = std::env::var_os("REPCENSUS_BLESS").is_some();
    std::fs::create_dir_all(&dir).unwrap();
    for (needle, what) in wanted {
        let (path, body) = files
            .iter()
            .find(|(p, _)| p.ends_with(needle))
            .unwrap_or_else(|| panic!("{needle} not in the corpus"));
        let got =
            serde_json::to_string_pretty(&repcensus::file_json(body, path, None)).unwrap() + "\n";
        let file = dir.join(format!("{needle}.{what}.json"));
        if bless {
            std::fs::write(&file, &got).unwrap();
        }
        let want = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            got == want,
            "{} differs from {}; rerun with REPCENSUS_BLESS=1 and review",
            needle,
            file.display()
        );
    }
}

//! Page signals: every real header value and meta tag of ../shared/data/headers (copied into
//! tests/data with their source columns) parses to the reviewed answer in
//! tests/expected/signals/ (REPCENSUS_BLESS=1 rewrites them; review the diff), the repext
//! draft's examples parse to its stated meaning, property tests, and the scan of the samples.

use crate::common;

use common::{duck, repo};
use proptest::prelude::*;
use repcensus::internals::normalize;
use repcensus::internals::HeadScanner;
use repcensus::{parse_header_value, parse_meta_content, ParsedValue, Syntax};
use std::path::Path;

/// `syntax | agent:directive[=value] ...` (agents in order of appearance).
fn render(p: &ParsedValue) -> String {
    let mut s = String::from(p.syntax.as_str());
    if p.truncated {
        s.push_str(" (truncated)");
    }
    s.push_str(" |");
    for d in &p.directives {
        s.push(' ');
        s.push_str(&d.agent);
        s.push(':');
        s.push_str(d.directive.unwrap_or("-"));
        if d.directive == Some("unknown") {
            s.push_str(&format!("({})", d.raw));
        }
        if let Some(v) = &d.value {
            s.push('=');
            s.push_str(v);
        }
    }
    s
}

/// Rows of a TSV file with a header line, as maps by column name.
fn tsv(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            head.iter()
                .zip(l.split('\t'))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn check_golden(name: &str, got: &str) {
    let path = repo().join("tests/expected/signals").join(name);
    if std::env::var_os("REPCENSUS_BLESS").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no {} (run with REPCENSUS_BLESS=1, review)", path.display()));
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        assert_eq!(w, g, "{name} line {}", i + 1);
    }
    assert_eq!(
        want.lines().count(),
        got.lines().count(),
        "{name}: line count"
    );
}

#[test]
fn every_real_header_value_parses_as_reviewed() {
    let rows = tsv(&repo().join("tests/data/x_robots_tag_values.tsv"));
    assert_eq!(rows.len(), 69);
    let mut out = String::from("value\theader_name\tparsed\n");
    for r in &rows {
        let p = parse_header_value(r["value"].as_bytes());
        out.push_str(&format!(
            "{}\t{}\t{}\n",
            r["value"],
            r["header_name"],
            render(&p)
        ));
    }
    check_golden("x_robots_tag_values.tsv", &out);
}

#[test]
fn every_real_meta_tag_is_found_and_parses_as_reviewed() {
    let rows = tsv(&repo().join("tests/data/meta_robots_tags.tsv"));
    assert_eq!(rows.len(), 53);
    let mut out = String::from("tag\tparsed\n");
    let mut s = HeadScanner::new();
    let mut mismatches = Vec::new();
    for r in &rows {
        let html = format!(
            "<!DOCTYPE html><html><head>{}</head><body></body></html>",
            r["tag"]
        );
        s.scan(html.as_bytes());
        assert_eq!(s.tags.len(), 1, "{}", r["tag"]);
        let t = &s.tags[0];
        assert!(t.in_head);
        assert_eq!(
            String::from_utf8_lossy(s.text(&t.name)),
            r["name"],
            "{}",
            r["tag"]
        );
        let content = t.content.as_ref().map(|c| s.text(c)).unwrap_or_default();
        // The TSV's content column is the attribute text as written (entities undecoded), except
        // where its collector matched `content=` inside another attribute's name.
        let written = match TSV_CONTENT_WRONG.iter().find(|(t, _)| *t == r["tag"]) {
            Some((_, right)) => right.to_string(),
            None => r["content"].replace("&amp;", "&"),
        };
        if String::from_utf8_lossy(content) != written {
            mismatches.push(format!(
                "{} -> {:?}",
                r["tag"],
                String::from_utf8_lossy(content)
            ));
        }
        let name = r["name"].to_ascii_lowercase();
        let agent = if name == "robots" { "*" } else { name.as_str() };
        let p = parse_meta_content(content, agent);
        out.push_str(&format!("{}\t{}\n", r["tag"], render(&p)));
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    check_golden("meta_robots_tags.tsv", &out);
}

/// Rows of meta_robots_tags.tsv whose `content` column is wrong, with the right value: the
/// collector took `data-production-content="noindex"` for the content attribute.
const TSV_CONTENT_WRONG: &[(&str, &str)] = &[(
    r#"<meta name="robots" data-production-content="noindex" content="index, follow">"#,
    "index, follow",
)];

#[test]
fn repext_draft_examples_mean_what_the_draft_says() {
    // draft-illyes-repext-02, section "Application Layer Response Header": both examples
    // deserialize to `["*" = [noindex, nosnippet]], ["ExampleBot" = []]`.
    let want = "| *:noindex *:nosnippet examplebot:-";
    let a = parse_header_value(b"*;noindex;nosnippet, ExampleBot;");
    // The trailing `;` is not valid Structured Fields: flagged, intent kept.
    assert_eq!(a.syntax, Syntax::SfvLenient);
    assert!(render(&a).ends_with(want), "{}", render(&a));
    let b = parse_header_value(b";noindex;nosnippet, ExampleBot=;");
    assert_eq!(b.syntax, Syntax::SfvLenient);
    assert!(render(&b).ends_with(want), "{}", render(&b));
    // The same intent in valid Structured Fields parses strictly.
    let c = parse_header_value(b"*;noindex;nosnippet, ExampleBot");
    assert_eq!(c.syntax, Syntax::Sfv);
    assert!(render(&c).ends_with(want));
    // Duplicate product tokens merge and rules deduplicate.
    let d = parse_header_value(b"ExampleBot;noindex, *;nosnippet, examplebot;noindex;nosnippet");
    assert_eq!(
        render(&d),
        "sfv | examplebot:noindex *:nosnippet examplebot:nosnippet"
    );
    // The meta form: name is the product token, content the comma separated rules.
    assert_eq!(
        render(&parse_meta_content(b"nosnippet", "examplebot")),
        "legacy | examplebot:nosnippet"
    );
    // Values: Structured Fields parameters with values.
    assert_eq!(
        render(&parse_header_value(b"googlebot;max-snippet=20;noindex")),
        "sfv | googlebot:max-snippet=20 googlebot:noindex"
    );
}

const WORDS: &[&str] = &[
    "noindex",
    "nofollow",
    "none",
    "all",
    "noarchive",
    "nosnippet",
    "noai",
    "noimageai",
    "indexifembedded",
    "NoIndex",
    "no-index",
    "quack",
];
const AGENTS: &[&str] = &["googlebot", "BingBot", "examplebot", "google_bot"];

fn legacy_value() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::option::of(prop::sample::select(AGENTS)),
            prop::sample::select(WORDS),
            prop::option::of(0u32..500),
        ),
        1..6,
    )
    .prop_map(|parts| {
        parts
            .into_iter()
            .map(|(a, w, n)| {
                let d = match n {
                    Some(n) => format!("max-snippet: {n}"),
                    None => w.to_string(),
                };
                match a {
                    Some(a) => format!("{a}: {d}"),
                    None => d,
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// The canonical legacy text of a parse: `*` rules first, then each agent's.
fn canonical(p: &ParsedValue) -> String {
    let mut parts = Vec::new();
    for star in [true, false] {
        for d in p.directives.iter().filter(|d| (d.agent == "*") == star) {
            let Some(dir) = d.directive else { continue };
            let word = if dir == "unknown" {
                d.raw.clone()
            } else {
                dir.to_string()
            };
            let word = match &d.value {
                Some(v) => format!("{word}: {v}"),
                None => word,
            };
            parts.push(if star {
                word
            } else {
                format!("{}: {word}", d.agent)
            });
        }
    }
    parts.join(", ")
}

fn triples(p: &ParsedValue) -> Vec<(String, Option<&'static str>, Option<String>)> {
    let mut t: Vec<_> = p
        .directives
        .iter()
        .map(|d| (d.agent.clone(), d.directive, d.value.clone()))
        .collect();
    t.sort();
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_bytes_parse_without_panic(v in prop::collection::vec(any::<u8>(), 0..300)) {
        let p = parse_header_value(&v);
        for d in &p.directives {
            if let Some(dir) = d.directive {
                prop_assert!(dir == "unknown" || normalize(dir) == Some(dir));
            }
        }
        let _ = parse_meta_content(&v, "*");
        let mut s = HeadScanner::new();
        s.scan(&v);
    }

    #[test]
    fn html_like_bytes_scan_without_panic(
        parts in prop::collection::vec(prop::sample::select(&[
            "<", ">", "<meta", " name=", "robots", " content=", "'", "\"", "<!--", "-->",
            "<script>", "</script>", "<head>", "</head>", "<body>", "<template>", "&amp;", "/>",
            "noindex", " ", "<![CDATA[", "]]>", "\u{feff}", "<title>", "</title>", "=",
        ][..]), 0..60)
    ) {
        let html = parts.concat();
        let mut s = HeadScanner::new();
        s.scan(html.as_bytes());
        for t in &s.tags {
            prop_assert!(t.name.end <= s.arena.len());
        }
    }

    #[test]
    fn normalizing_twice_changes_nothing(v in legacy_value()) {
        let once = parse_header_value(v.as_bytes());
        prop_assert_eq!(once.syntax, Syntax::Legacy);
        let text = canonical(&once);
        let twice = parse_header_value(text.as_bytes());
        prop_assert_eq!(triples(&once), triples(&twice), "{} -> {}", v, text);
        prop_assert_eq!(canonical(&twice), text);
    }
}

/// The samples scanned once: the meta tags of the real archives, and the hand-written cases.
#[test]
fn scan_of_samples_finds_every_head_meta_tag_and_no_fake_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, err) = common::scan(&[
        repo().join("samples").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // One row per meta tag of the real archives in samples/ (each tag checked against the
    // archive by hand; see samples/SOURCES.tsv).
    let tags = duck(
        &out,
        "select regexp_extract(warc_file, '[^/]+$') f, count(*) tags, count(distinct warc_offset) pages \
         from (select distinct warc_file, warc_offset, signal_index from 'page_signals/*/*.parquet' \
               where source = 'meta' and warc_file not like '%signal-cases%' and warc_file not like '%generated%') \
         group by all order by f",
    );
    assert_eq!(
        tags,
        "f,tags,pages\n\
         allenai_dolma__sample-0001.warc.gz,4,4\n\
         commoncrawl_ia-web-commons__meta-itemprop.warc,1,1\n\
         iipc_openwayback__testdata1.arc,2,2\n\
         netarchivesuite_jwat__invalid-arcfile-record-then-garbage.arc,1,1\n\
         sing-group_WARCProcessor__in-warc-test.warc,2,2\n\
         webrecorder_warcio__space-in-url.arc,1,1\n"
    );
    // The hand-written cases: nothing from comments, scripts, styles, templates, noscript.
    let not_tags = duck(
        &out,
        "select directive from 'page_signals/*/*.parquet' where url like '%//not-tags.%'",
    );
    assert_eq!(not_tags, "directive\nnoarchive\n");
    let rows = duck(
        &out,
        "select regexp_extract(url, '//([a-z-]+)\\.', 1) c, source, name, signal_index, agent, \
         directive, directive_value, syntax, in_head \
         from 'page_signals/*/*.parquet' where warc_file like '%signal-cases%' \
         order by warc_offset, signal_index, agent, directive",
    );
    check_golden("signal_cases.csv", &rows);
    let hosts = duck(
        &out,
        "select regexp_extract(host, '^[a-z-]+') c, status_class, html, responses, with_meta, \
         with_header, with_both, with_robots_tag, with_tdm \
         from 'host_counts/*/*.parquet' where warc_file like '%signal-cases%' order by all",
    );
    check_golden("signal_cases_hosts.csv", &hosts);
    let errors = duck(
        &out,
        "select kind, url from 'errors/*/*.parquet' where warc_file like '%signal-cases%'",
    );
    assert_eq!(
        errors,
        "kind,url\nhead_scan_limit,http://huge-head.signal-case.invalid/a.html\n"
    );
}

/// `host_counts` spilled to scratch runs (here after 3 hosts; by default after 2^17) and merged
/// back is row for row, in order, what the counts held in memory give; no scratch file is left.
#[test]
fn host_counts_spilled_to_runs_equal_the_counts_kept_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, spill: Option<&str>| {
        let out = dir.path().join(name);
        let mut cmd = common::bin();
        cmd.args([
            "scan",
            "--quiet",
            "--tables",
            "host_counts,page_signals",
            "--out",
        ])
        .arg(&out)
        .arg(repo().join("samples"));
        if let Some(s) = spill {
            cmd.env("REPCENSUS_HOST_SPILL", s);
        }
        common::assert_ok(&cmd.output().unwrap());
        out
    };
    let memory = run("memory", None);
    let spilled = run("spilled", Some("3"));
    // Several inputs have more hosts than that, so they were spilled (and some twice or more).
    let big = duck(
        &memory,
        "select count(*) from (select warc_file from 'host_counts/*/*.parquet' \
         group by all having count(distinct host) > 6)",
    );
    let big: usize = big.lines().nth(1).unwrap().parse().unwrap();
    assert!(big >= 3, "{big} inputs with more than 6 hosts");
    let order = "select * exclude (crawl) from 'host_counts/*/*.parquet'";
    assert_eq!(duck(&memory, order), duck(&spilled, order));
    let mut m = common::table_rows(&memory, "host_counts", &[]);
    let mut s = common::table_rows(&spilled, "host_counts", &[]);
    m.sort();
    s.sort();
    // Robots.txt captures are not pages: the samples' pages make 93 rows.
    assert!(m.len() > 80, "{} rows", m.len());
    assert_eq!(m, s);
    assert!(!spilled.join(".staging").exists());
}

/// `Content-Usage` (aipref vocab-08), `Content-Signal` headers and `content-signal` meta tags give
/// one row per member, with the vocabulary they were read with.
#[test]
fn ai_preference_headers_and_meta_tags_give_a_row_per_member() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("p.warc"), dir.path().join("out"));
    let html =
        |meta: &str| format!("<html><head>{meta}<title>t</title></head><body>x</body></html>");
    html_warc(
        &input,
        &[
            (
                "http://a.example/",
                "Content-Usage: train-ai=n, search=y\r\n",
                html(""),
            ),
            (
                "http://b.example/",
                "Content-Usage: Train-AI=n\r\n",
                html(""),
            ),
            (
                "http://c.example/",
                "Content-Signal: search=yes, AI-Train=no, use=reference\r\n",
                html(""),
            ),
            (
                "http://d.example/",
                "",
                html("<meta name=\"content-signal\" content=\"ai-train=no, ai-input=yes\">"),
            ),
            // -08's ai-use, a proposed label and a retired one, each kept by its name.
            (
                "http://e.example/",
                "Content-Usage: ai-use=n, infer-train=n, bots=n\r\n",
                html(""),
            ),
        ],
    );
    let (code, err) = common::scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let rows = common::duck(
        &out,
        "select host, source, name, directive, directive_value, directive_raw, syntax, vocabulary \
         from 'page_signals/*/*.parquet' order by host, signal_index, directive_raw",
    );
    let want = "\
host,source,name,directive,directive_value,directive_raw,syntax,vocabulary
a.example,content_usage,Content-Usage,search,y,search=y,sfv,aipref-vocab-08
a.example,content_usage,Content-Usage,train-ai,n,train-ai=n,sfv,aipref-vocab-08
b.example,content_usage,Content-Usage,NULL,NULL,NULL,invalid,aipref-vocab-08
c.example,content_signal,Content-Signal,ai-train,no,AI-Train=no,content_signal,NULL
c.example,content_signal,Content-Signal,search,yes,search=yes,content_signal,NULL
c.example,content_signal,Content-Signal,use,reference,use=reference,content_signal,NULL
d.example,meta,content-signal,ai-input,yes,ai-input=yes,content_signal,NULL
d.example,meta,content-signal,ai-train,no,ai-train=no,content_signal,NULL
e.example,content_usage,Content-Usage,ai-use,n,ai-use=n,sfv,aipref-vocab-08
e.example,content_usage,Content-Usage,unknown,NULL,bots=n,sfv,aipref-vocab-08
e.example,content_usage,Content-Usage,unknown,NULL,infer-train=n,sfv,aipref-vocab-08
";
    assert_eq!(rows, want);
    let sql = format!(
        ".read {}",
        repo().join("queries/signals_ai_preferences.sql").display()
    );
    let counted = duck(&out, &sql);
    for line in [
        "unknown,content_usage,aipref-vocab-08,train-ai,n,0.2,1,1",
        "unknown,content_usage,aipref-vocab-08,ai-use,n,0.2,1,1",
        "unknown,content_usage,aipref-vocab-08,NULL,NULL,0.2,1,1",
        "unknown,content_signal,NULL,use,reference,0.2,1,1",
        "unknown,content_signal_meta,NULL,ai-input,yes,0.2,1,1",
    ] {
        assert!(counted.lines().any(|l| l == line), "{line} in\n{counted}");
    }
    // The query reads summary_page_ai_preferences: the same rows as counted from page_signals.
    let recount = duck(
        &out,
        "WITH prefs AS (
            SELECT crawl, warc_file, warc_offset, host, vocabulary, directive AS key,
                directive_value AS value,
                CASE WHEN source = 'meta' THEN 'content_signal_meta' ELSE source END AS form
            FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
            WHERE http_status BETWEEN 200 AND 299
                AND (source IN ('content_usage', 'content_signal')
                    OR (source = 'meta' AND lower(name) = 'content-signal'))
        ), pages AS (
            SELECT crawl, sum(responses) AS responses
            FROM read_parquet('host_counts/*/*.parquet', hive_partitioning = true)
            WHERE status_class = '2xx' GROUP BY crawl
        )
        SELECT p.crawl, form, vocabulary, key, value,
            round(count(DISTINCT (warc_file, warc_offset)) / any_value(pages.responses), 6)
                AS share_pages,
            count(DISTINCT (warc_file, warc_offset)) AS pages, count(DISTINCT host) AS hosts
        FROM prefs p JOIN pages USING (crawl)
        GROUP BY p.crawl, form, vocabulary, key, value
        ORDER BY crawl, form, pages DESC, key, value",
    );
    assert_eq!(counted, recount);
    assert!(counted.lines().count() >= 10, "{counted}");
}

/// A `Content-Usage` field written on several lines is one Structured Field: its lines are
/// combined before parsing (RFC 9651 §4.2), so their members add up, and one line that does not
/// parse makes the whole field invalid.
#[test]
fn content_usage_lines_of_one_response_are_parsed_as_one_field() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("p.warc"), dir.path().join("out"));
    let html = "<html><head><title>t</title></head><body>x</body></html>".to_string();
    html_warc(
        &input,
        &[
            (
                "http://a.example/",
                "Content-Usage: train-ai=n\r\nX-Robots-Tag: noindex\r\ncontent-usage: search=y\r\n",
                html.clone(),
            ),
            (
                "http://b.example/",
                "Content-Usage: train-ai=n\r\nContent-Usage: Train-AI=y\r\n",
                html.clone(),
            ),
        ],
    );
    let (code, err) = common::scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let rows = common::duck(
        &out,
        "select host, signal_index, source, directive, directive_value, syntax, raw_value \
         from 'page_signals/*/*.parquet' where source = 'content_usage' \
         order by host, signal_index, directive_raw",
    );
    let want = "\
host,signal_index,source,directive,directive_value,syntax,raw_value
a.example,0,content_usage,search,y,sfv,NULL
a.example,0,content_usage,train-ai,n,sfv,\"train-ai=n, search=y\"
b.example,0,content_usage,NULL,NULL,invalid,\"train-ai=n, Train-AI=y\"
";
    assert_eq!(rows, want);
}

/// `signals_effective_rules.sql`: draft-illyes-repext-03 adds `*`'s rules to every crawler's own
/// and reads meta tags only inside `<head>`; -02 let a crawler's own rules replace `*`'s.
#[test]
fn effective_rules_union_star_under_03_and_replace_it_under_02() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("p.warc"), dir.path().join("out"));
    let page = |head: &str, body: &str| {
        format!("<html><head>{head}<title>t</title></head><body>{body}<p>x</p></body></html>")
    };
    html_warc(
        &input,
        &[
            // -03's own example, and a value written in -02's legacy form.
            (
                "http://a.example/",
                "Robots-Tag: *;nosnippet, ExampleBot;noindex\r\n",
                page("", ""),
            ),
            (
                "http://b.example/",
                "X-Robots-Tag: noindex, examplebot: nosnippet\r\n",
                page("", ""),
            ),
            // A crawler's meta tag after the head: -02 counts it, -03 does not.
            (
                "http://c.example/",
                "",
                page("", "<meta name=\"examplebot\" content=\"noarchive\">"),
            ),
        ],
    );
    let (code, err) = common::scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let sql = format!(
        ".read {}",
        repo().join("queries/signals_effective_rules.sql").display()
    );
    let got = duck(&out, &sql);
    let want = "\
crawl,bot,directive,share_03,pages_named,pages_02,pages_03,pages_added,pages_dropped
unknown,examplebot,noindex,0.6667,3,1,2,1,0
unknown,examplebot,nosnippet,0.6667,3,1,2,1,0
unknown,examplebot,noarchive,0.0,3,1,0,0,1
";
    assert_eq!(got, want);
    let by_page = format!(
        ".read {}",
        repo()
            .join("queries/signals_effective_rules_by_page.sql")
            .display()
    );
    let rows: Vec<String> = (duck(&out, &by_page).lines().skip(1))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            // url, bot, then the rest (rules hold commas).
            format!("{} {} {}", f[1], f[4], f[5..].join(","))
        })
        .collect();
    assert_eq!(
        rows,
        [
            "http://a.example/ * nosnippet,nosnippet,false",
            "http://a.example/ examplebot noindex,\"noindex,nosnippet\",true",
            "http://b.example/ * noindex,noindex,false",
            "http://b.example/ examplebot nosnippet,\"noindex,nosnippet\",true",
            "http://c.example/ examplebot noarchive,,true",
        ]
    );
}

/// A page that carries both X-Robots-Tag and Robots-Tag is listed, per agent, where the two give
/// it different directives; where they agree, or only one header is sent, nothing is listed.
#[test]
fn pages_whose_two_robots_headers_give_a_crawler_different_rules_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("p.warc"), dir.path().join("out"));
    let body = || "<html><head><title>t</title></head><body>x</body></html>".to_string();
    html_warc(
        &input,
        &[
            (
                "http://agree.example/",
                "X-Robots-Tag: noindex, nofollow\r\nRobots-Tag: nofollow, noindex\r\n",
                body(),
            ),
            (
                "http://differ.example/",
                "X-Robots-Tag: noindex\r\nRobots-Tag: nosnippet\r\n\
                 X-Robots-Tag: googlebot: noarchive\r\n",
                body(),
            ),
            ("http://one.example/", "X-Robots-Tag: noindex\r\n", body()),
        ],
    );
    let (code, err) = common::scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let sql = format!(
        ".read {}",
        repo()
            .join("queries/signals_robots_headers_disagree.sql")
            .display()
    );
    let want = "crawl,url,agent,x_robots_tag_says,robots_tag_says\n\
                unknown,http://differ.example/,*,noindex,nosnippet\n\
                unknown,http://differ.example/,googlebot,noarchive,\n";
    assert_eq!(duck(&out, &sql), want);
    // The summary counts the two pages with both headers, the one that differs, and, per
    // agent, agrees with the query's rows.
    let summary = "SELECT coalesce(agent, '(page)') AS agent, status_class, headers_agree, \
                   responses, hosts FROM read_parquet('summary_page_header_pairs/*/*.parquet') \
                   ORDER BY ALL";
    let want = "agent,status_class,headers_agree,responses,hosts\n\
                (page),2xx,false,1,1\n\
                (page),2xx,true,1,1\n\
                *,2xx,false,1,1\n\
                *,2xx,true,1,1\n\
                googlebot,2xx,false,1,1\n";
    assert_eq!(duck(&out, summary), want);
    let sql = format!(
        ".read {}",
        repo()
            .join("queries/signals_robots_headers_both.sql")
            .display()
    );
    let want = "crawl,pages_both,pages_disagree,share_disagree,hosts_disagree\n\
                unknown,2,1,0.5,1\n";
    assert_eq!(duck(&out, &sql), want);
}

/// A WARC of 200 `text/html` responses, each (URL, extra header lines, body).
fn html_warc(path: &Path, pages: &[(&str, &str, String)]) {
    let responses: Vec<common::Response<'_>> = (pages.iter())
        .map(|(url, extra, body)| common::Response {
            url,
            status: "200 OK",
            headers: format!("Content-Type: text/html\r\n{extra}"),
            body: body.as_bytes(),
        })
        .collect();
    common::http_warc(path, "2026-01-01T00:00:00Z", &responses);
}

#[test]
fn a_page_of_thousands_of_signal_directives_is_cut_with_an_errors_row_and_its_input_kept() {
    use common::{http_warc, table_rows, Response};
    let dir = tempfile::tempdir().unwrap();
    // 300 X-Robots-Tag headers of 8 KiB, each of a few hundred distinct unknown directives
    // (made a 2 GiB page_signals column and a panic that lost the input), and a page of 124
    // robots meta tags of 8 KiB.
    let mut headers = String::from("Content-Type: text/html\r\n");
    for h in 0..300 {
        let mut value = String::new();
        let mut k = 0;
        while value.len() < 8 * 1024 - 20 {
            value.push_str(&format!("d{h}x{k}, "));
            k += 1;
        }
        headers.push_str(&format!("X-Robots-Tag: {value}\r\n"));
    }
    let mut metas = String::from("<html><head>");
    for t in 0..124 {
        let words: Vec<String> = (0..900).map(|k| format!("m{t}y{k}")).collect();
        metas.push_str(&format!(
            "<meta name=\"robots\" content=\"{}\">",
            words.join(",")
        ));
    }
    metas.push_str("</head><body>x</body></html>");
    let ordinary = "<html><head><meta name=\"robots\" content=\"noindex\"></head></html>";
    let urls: Vec<String> = (0..100).map(|k| format!("http://a.example/{k}")).collect();
    let mut responses = vec![
        Response {
            url: "http://a.example/robots.txt",
            status: "200 OK",
            headers: "Content-Type: text/plain\r\n".into(),
            body: b"User-agent: *\nDisallow: /private\n",
        },
        Response {
            url: "http://a.example/headers",
            status: "200 OK",
            headers,
            body: b"<html></html>",
        },
        Response {
            url: "http://a.example/metas",
            status: "200 OK",
            headers: "Content-Type: text/html\r\n".into(),
            body: metas.as_bytes(),
        },
    ];
    for u in &urls {
        responses.push(Response {
            url: u,
            status: "200 OK",
            headers: "Content-Type: text/html\r\n".into(),
            body: ordinary.as_bytes(),
        });
    }
    let warc = dir.path().join("hostile.warc");
    http_warc(&warc, "2026-01-01T00:00:00Z", &responses);
    let out = dir.path().join("out");
    let summary = dir.path().join("summary.json");
    let o = common::bin()
        .args(["scan", "--quiet"])
        .arg(&warc)
        .arg("--out")
        .arg(&out)
        .arg("--summary")
        .arg(&summary)
        .output()
        .unwrap();
    common::assert_ok(&o);
    assert_eq!(table_rows(&out, "robots_files", &[]).len(), 1);
    assert_eq!(table_rows(&out, "pages", &[]).len(), 102);
    let signals = table_rows(&out, "page_signals", &[]);
    let of = |page: &str| {
        (signals.iter())
            .filter(|r| r.contains(&format!("url=http://a.example/{page}|")))
            .count()
    };
    assert_eq!(of("headers"), 1024);
    assert!(of("metas") <= 1024 && of("metas") > 0);
    assert_eq!(signals.len() - of("headers") - of("metas"), 100);
    let cut: Vec<String> = (table_rows(&out, "errors", &[]).into_iter())
        .filter(|r| r.contains("kind=page_signals_cut|"))
        .collect();
    assert_eq!(cut.len(), 2, "{cut:#?}");
    // The whole value is kept once per header, on its first row.
    let with_raw = (signals.iter())
        .filter(|r| r.contains("url=http://a.example/headers|") && !r.ends_with("raw_value=NULL"))
        .count();
    assert!(with_raw < 10, "{with_raw} rows repeat the raw value");
    let s = common::read_summary(&summary);
    let peak = s["peak_rss_bytes"].as_u64().unwrap();
    assert!(peak < 500 << 20, "peak memory {peak} bytes");
}

//! `repcensus report`: every number on the page is the one the bundled query it names gives on
//! the same folder, and a folder lacking tables is said to lack them.

use crate::common;

use common::{assert_ok, bin, duck, repo, report, scan};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A number of the page: its crawl, query, key, column and value as the query gives it.
#[derive(Debug)]
struct Cell {
    crawl: String,
    query: String,
    key: String,
    column: String,
    value: String,
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Every number cell of the page, with its crawl (its own `data-crawl`, else its section's) and
/// its query (its own `data-query`, else its table's).
fn cells(html: &str) -> Vec<Cell> {
    let mut out = Vec::new();
    for section in html.split("<section ").skip(1) {
        let section_crawl = attr(&format!(" {section}"), "data-crawl").map(unescape);
        for table in section.split("<table ").skip(1) {
            let Some(query) = attr(&format!(" {table}"), "data-query").map(unescape) else {
                continue;
            };
            for td in table.split("<td ").skip(1) {
                let tag = format!(" {}", &td[..td.find('>').unwrap()]);
                let Some(key) = attr(&tag, "data-key") else {
                    continue;
                };
                let crawl = attr(&tag, "data-crawl")
                    .map(unescape)
                    .or_else(|| section_crawl.clone())
                    .expect("a number cell names its crawl or is in a crawl's section");
                out.push(Cell {
                    crawl,
                    query: attr(&tag, "data-query").map_or_else(|| query.clone(), unescape),
                    key: unescape(key),
                    column: unescape(attr(&tag, "data-column").unwrap()),
                    value: unescape(attr(&tag, "data-value").unwrap()),
                });
            }
        }
    }
    out
}

/// Check every number cell against its query run on `out`; how many were checked.
fn check_numbers(out: &Path, cells: &[Cell]) -> usize {
    let queries: BTreeSet<&str> = cells.iter().map(|c| c.query.as_str()).collect();
    let mut checked = 0;
    for query in queries {
        let rows = answers(out, query);
        for c in cells.iter().filter(|c| c.query == query) {
            let row = rows
                .get(&(c.crawl.clone(), c.key.clone()))
                .unwrap_or_else(|| panic!("{query} has no row for {c:?}"));
            let want = &row[&c.column];
            assert!(same_number(&c.value, want), "{c:?}: the query gives {want}");
            checked += 1;
        }
    }
    checked
}

/// The columns whose values, joined by `|`, are a cell's key, per query (none: one row per
/// crawl).
fn key_columns(query: &str) -> &'static [&'static str] {
    match query {
        "agents_full_block_share" | "agents_singled_out" => &["agent"],
        "agents_blocking_by_category" => &["agent_category", "operator"],
        "robots_fetch_outcomes" => &["fetch_outcome"],
        "study_own_group_root" | "study_somesite_full_block" | "study_almanac_named" => {
            &["list", "tier", "agent"]
        }
        "errors_by_input" => &["kind"],
        "llms_txt_adoption" => &["file"],
        "tdm_pages_reserved" => &["technique"],
        "robots_extension_adoption" => &["extension"],
        "robots_content_signal_values" => &["signal", "value"],
        "signals_directive_frequency" => &["source", "agent", "directive"],
        "signals_sfv_adoption" => &["source", "syntax"],
        "signals_meta_header_conflicts" => &["url", "agent", "header_directive", "meta_directive"],
        "read_summary"
        | "signals_robots_headers_both"
        | "agents_ai_named_share"
        | "agents_wildcard_blocking"
        | "signals_html_share"
        | "robots_accidental_blocks" => &[],
        other => panic!("the test does not know the key of {other}"),
    }
}

/// A query's answer on `out`, as (crawl, key) -> column -> value. `errors_by_input` is summed
/// over inputs (the page gives errors by kind per crawl); the conflicts' rows come with their
/// count per crawl (key "", column `conflicts`).
fn answers(out: &Path, query: &str) -> BTreeMap<(String, String), BTreeMap<String, String>> {
    let sql = std::fs::read_to_string(repo().join(format!("queries/{query}.sql"))).unwrap();
    let mut rows = match query {
        "errors_by_input" => {
            let sql = common::around(
                &sql,
                "SELECT crawl, kind, sum(errors) AS errors FROM ({}) GROUP BY ALL",
            );
            return rows_of(&duck(out, &sql), query);
        }
        "signals_meta_header_conflicts" => {
            let sql = common::around(
                &sql,
                "SELECT crawl, count(*) AS conflicts FROM ({}) GROUP BY ALL",
            );
            rows_of(&duck(out, &sql), "read_summary")
        }
        _ => BTreeMap::new(),
    };
    rows.extend(rows_of(&duck(out, &sql), query));
    rows
}

/// A query's CSV answer as (crawl, key) -> column -> value, keyed as `query`'s rows are.
fn rows_of(csv: &str, query: &str) -> BTreeMap<(String, String), BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let head = reader.headers().unwrap().clone();
    let mut rows = BTreeMap::new();
    for record in reader.records() {
        let row: BTreeMap<String, String> = (head.iter())
            .zip(record.unwrap().iter())
            .map(|(h, v)| (h.to_string(), v.to_string()))
            .collect();
        // A NULL key column (DuckDB's CSV writes `NULL`) is empty in the page's keys.
        let key = key_columns(query)
            .iter()
            .map(|k| row[*k].as_str())
            .map(|v| if v == "NULL" { "" } else { v })
            .collect::<Vec<_>>()
            .join("|");
        rows.insert((row["crawl"].clone(), key), row);
    }
    rows
}

fn same_number(page: &str, query: &str) -> bool {
    match (page.parse::<f64>(), query.parse::<f64>()) {
        (Ok(a), Ok(b)) => a == b,
        _ => page == query,
    }
}

/// Samples scanned into `out` of a temporary folder, each into its crawl: (crawl, file stem).
fn scan_crawls(crawls: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (crawl, file) in crawls {
        scan_into(&repo().join(format!("samples/{file}.warc.gz")), &out, crawl);
    }
    (dir, out)
}

/// Scan `input` into `out` as crawl `crawl`; the scan must succeed.
fn scan_into(input: &Path, out: &Path, crawl: &str) {
    let (code, err) = scan(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--crawl",
        crawl,
    ]);
    assert_eq!(code, 0, "{err}");
}

/// The samples scanned into `out` of a temporary folder.
fn scan_samples() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, err) = scan(&[
        repo().join("samples").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    (dir, out)
}

/// The samples' report: by default the sections of the four latest of their eight crawls and
/// the change across all; with every crawl named, every section. Every number checked against
/// its query.
#[test]
fn every_number_on_the_page_is_its_querys() {
    let (dir, out) = scan_samples();
    let html = dir.path().join("report.html");
    let run = report(&out, &html, &[]);
    assert_ok(&run);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains(": 8 crawl(s) (sections for "), "{said}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches(r#"<section id="crawl-"#).count(), 4);
    // No value of the samples is 300 characters long, and the page's own text is never cut
    // (a chart's slot may cut a crawl's name: the table under it has it whole).
    let outside_charts: String = (page.split("<svg").enumerate())
        .map(|(i, part)| match i {
            0 => part,
            _ => &part[part.find("</svg>").unwrap()..],
        })
        .collect();
    assert!(!outside_charts.contains('…'), "some text was cut");
    let in_change = cells(&page[page.find(r#"<section id="change">"#).unwrap()..]);
    let crawls: BTreeSet<&str> = in_change.iter().map(|c| c.crawl.as_str()).collect();
    assert_eq!(
        crawls.len(),
        5,
        "the crawls with robots.txt captures: {crawls:?}"
    );
    // Sections by date, as the change section: archive.org (2008), daily-0900 (2014), the
    // generated crawl (2025), the samples' own (2026).
    let order: Vec<&str> = (page.split(r#"<section id="crawl-"#).skip(1))
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(
        order,
        [
            "archive.org-shallow",
            "daily-0900",
            "CC-MAIN-GENERATED",
            "repcensus-samples"
        ]
    );
    assert!(check_numbers(&out, &cells(&page)) > 150);
    assert!(page.len() < 400_000, "{} bytes", page.len());
    // The samples' pages carry no Robots-Tag: the summary has no row, and the page says so
    // (a table with no part for the crawl is a count of none, not an unknown one).
    assert!(page.contains(r#"<p id="repcensus-samples-header-pairs">No page"#));

    let names = duck(
        &out,
        "SELECT DISTINCT crawl FROM read_parquet('inputs/*/*.parquet', hive_partitioning = true) ORDER BY 1",
    );
    let mut all = Vec::new();
    for name in names.lines().skip(1) {
        all.extend(["--crawl", name]);
    }
    let run = report(&out, &html, &all);
    assert_ok(&run);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.len() < 400_000, "{} bytes", page.len());
    // Self-contained: no script, no linked or embedded resource; links only within the page,
    // or to a table's rows the page carries.
    for banned in ["<script", "<link", " src=", "url(", "@import"] {
        assert!(!page.contains(banned), "{banned}");
    }
    assert!((page.split(" href=\"").skip(1))
        .all(|h| h.starts_with('#') || h.starts_with("data:text/csv;charset=utf-8,")));
    let cells = cells(&page);
    let queries: BTreeSet<&str> = cells.iter().map(|c| c.query.as_str()).collect();
    assert_eq!(
        queries.iter().copied().collect::<Vec<_>>(),
        [
            "agents_ai_named_share",
            "agents_blocking_by_category",
            "agents_full_block_share",
            "agents_singled_out",
            "agents_wildcard_blocking",
            "errors_by_input",
            "read_summary",
            "robots_accidental_blocks",
            "robots_content_signal_values",
            "robots_extension_adoption",
            "robots_fetch_outcomes",
            "signals_directive_frequency",
            "signals_html_share",
            "signals_meta_header_conflicts",
            "signals_sfv_adoption",
            "tdm_pages_reserved"
        ]
    );
    let checked = check_numbers(&out, &cells);
    // Eight crawls; the GPTBot row is among the top AI agents of the generated crawl.
    let crawls: BTreeSet<&str> = cells.iter().map(|c| c.crawl.as_str()).collect();
    assert_eq!(crawls.len(), 8, "{crawls:?}");
    assert!(cells
        .iter()
        .any(|c| c.crawl == "CC-MAIN-GENERATED" && c.key == "GPTBot"));
    assert!(checked > 300, "{checked} numbers checked");
    // Every chart is an SVG with bars.
    let charts = page.matches("<div class=\"chart\"><svg").count();
    assert!(charts >= 6, "{charts} charts");
    assert_eq!(page.matches("<svg").count(), page.matches("</svg>").count());
}

/// The number cells of one figure of crawl `pages`'s section.
fn cells_of(figure: &str) -> Vec<Cell> {
    cells(&format!(r#"<section data-crawl="pages">{figure}"#))
}

/// A generated pages archive, where one page in fifty carries both robots headers, one host
/// in a hundred has its llms.txt captured and one page in two hundred a `tdm-reservation`
/// header: the page counts the pages whose two headers disagree, the hosts with a valid
/// llms.txt and the pages reserving their TDM rights, as the queries do.
#[test]
fn two_robots_headers_llms_txt_files_and_tdm_reservations_are_counted_as_the_queries_count_them() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("pages.warc.gz"), dir.path().join("out"));
    let made = common::bin()
        .args(["generate", "--kind", "pages", "--size", "20M", "--out"])
        .arg(&input)
        .output()
        .unwrap();
    assert_ok(&made);
    scan_into(&input, &out, "pages");
    let page = page_of(dir.path(), &out);
    let figure = &page[page
        .find(r#"<figure id="pages-header-pairs">"#)
        .expect("the figure")..];
    let figure = &figure[..figure.find("</figure>").unwrap()];
    let cells = cells_of(figure);
    assert_eq!(cells.len(), 4, "{figure}");
    assert!(cells
        .iter()
        .all(|c| c.query == "signals_robots_headers_both"));
    assert_eq!(check_numbers(&out, &cells), 4);
    let both: u64 = cells[0].value.parse().unwrap();
    let disagree: u64 = cells[1].value.parse().unwrap();
    assert!(
        both > 5 && disagree > 0 && disagree < both,
        "{both} {disagree}"
    );
    // The pages that disagree are those the listing query names.
    let listed = duck(
        &out,
        &format!(
            "SELECT count(DISTINCT url) AS n FROM ({})",
            std::fs::read_to_string(repo().join("queries/signals_robots_headers_disagree.sql"))
                .unwrap()
                .trim()
                .trim_end_matches(';')
        ),
    );
    assert_eq!(listed, format!("n\n{disagree}\n"));
    let figure = &page[page
        .find(r#"<figure id="pages-llms">"#)
        .expect("the llms figure")..];
    let figure = &figure[..figure.find("</figure>").unwrap()];
    let llms = cells_of(figure);
    assert!(llms.iter().all(|c| c.query == "llms_txt_adoption"));
    // Seven cells a file (20 MB hold no llms-full.txt: one capture in twenty is one).
    assert_eq!(llms.len(), 7, "{figure}");
    assert_eq!(check_numbers(&out, &llms), 7);
    let valid: u64 = (llms.iter())
        .find(|c| c.key == "llms.txt" && c.column == "hosts_valid")
        .map(|c| c.value.parse().unwrap())
        .unwrap();
    assert!(valid > 0, "{figure}");
    let figure = &page[page
        .find(r#"<figure id="pages-tdm">"#)
        .expect("the TDM figure")..];
    let figure = &figure[..figure.find("</figure>").unwrap()];
    let tdm = cells_of(figure);
    assert!(tdm.iter().all(|c| c.query == "tdm_pages_reserved"));
    // Five cells (the technique's name and four numbers) for each technique and for any.
    assert_eq!(tdm.len(), 20, "{figure}");
    assert_eq!(check_numbers(&out, &tdm), 20);
    let reserved: u64 = (tdm.iter())
        .find(|c| c.key == "any" && c.column == "pages_reserved")
        .map(|c| c.value.parse().unwrap())
        .unwrap();
    assert!(reserved > 0, "{figure}");
}

/// Two crawls (two scans with different `--crawl` names): the page has a change section whose
/// shares, crawl by crawl, are the queries', in the order of each crawl's earliest capture.
#[test]
fn two_crawls_give_a_change_section() {
    let (dir, out) = scan_crawls(&[("later", "redirect-cases"), ("earlier", "verdict-cases")]);
    let html = dir.path().join("report.html");
    assert_ok(&report(&out, &html, &[]));
    let page = std::fs::read_to_string(&html).unwrap();
    let change = &page[page
        .find(r#"<section id="change">"#)
        .expect("a change section")..];
    // verdict-cases' earliest capture is 2026-01-01, redirect-cases' too (its target captured
    // twice): the tie goes by name.
    let head = &change[change.find("<thead>").unwrap()..change.find("</thead>").unwrap()];
    assert!(
        head.find("earlier").unwrap() < head.find("later</th>").unwrap(),
        "{head}"
    );
    assert!(change.contains("<div class=\"chart\"><svg"));
    let in_change = cells(change);
    assert!(in_change
        .iter()
        .any(|c| c.key == "GPTBot" && c.crawl == "earlier"));
    assert!(in_change
        .iter()
        .any(|c| c.key == "GPTBot" && c.crawl == "later"));
    // The other headline shares: Content-Signal is written in verdict-cases only.
    assert!(in_change
        .iter()
        .any(|c| c.query == "robots_extension_adoption"
            && c.key == "content_signal"
            && c.crawl == "earlier"));
    assert!(!in_change
        .iter()
        .any(|c| c.query == "robots_extension_adoption" && c.crawl == "later"));
    assert!(change.contains(r#"<td class="num">n/a</td>"#));
    // The `*` reading, the agents blocked by name and the AI-naming share in two crawls,
    // Content-Signal in one.
    assert!(in_change
        .iter()
        .any(|c| c.query == "agents_wildcard_blocking" && c.crawl == "later"));
    let checked = check_numbers(&out, &in_change);
    assert!(checked >= 7, "{checked}");
    // Two crawls of different collections: dots, no line between them.
    assert!(
        !change.contains(r#"stroke-width="2""#),
        "a line joins two kinds of crawl"
    );
    assert!(change.contains("nothing here is a trend"));
    assert!(check_numbers(&out, &cells(&page)) > 40);
}

/// A folder a sharded scan wrote (no robots_hosts) and one with no tables at all: the page says
/// what is missing instead of failing; an unknown crawl is an error.
#[test]
fn missing_tables_are_said_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cases = repo().join("samples/redirect-cases.warc.gz");
    let (code, err) = scan(&[
        cases.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--shard",
        "0/1",
    ]);
    assert_eq!(code, 0, "{err}");
    let html = dir.path().join("r.html");
    let run = report(&out, &html, &[]);
    assert_ok(&run);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("missing: No robots_hosts or no summaries"),
        "{said}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("run `repcensus hosts "), "{page}");
    assert!(page.contains("How robots.txt fetches ended"));

    // Pages only (no robots.txt capture): the robots.txt figures are said to be missing once,
    // and the page signal figures are drawn.
    let pages = dir.path().join("pages");
    let cases = repo().join("samples/signal-cases.warc.gz");
    let (code, err) = scan(&[cases.to_str().unwrap(), "--out", pages.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let run = report(&pages, &html, &[]);
    assert_ok(&run);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("missing: No robots_files table"), "{said}");
    assert_eq!(said.matches("missing:").count(), 1, "{said}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("Directives pages give"), "{page}");
    assert!(
        page.contains("Pages whose robots header and meta tag disagree"),
        "{page}"
    );

    // -q: nothing said on success, what is missing stays on the page.
    let run = report(&pages, &html, &["-q"]);
    assert_ok(&run);
    assert!(
        run.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let run = report(&empty, &html, &[]);
    assert_ok(&run);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("holds no inputs table"), "{page}");

    let run = report(&out, &html, &["--crawl", "nope"]);
    assert_eq!(run.status.code(), Some(2));
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("no crawl nope") && said.contains("repcensus-samples"),
        "{said}"
    );
}

/// Pixels of an RGB(A) PNG: (width, height, RGB triples).
fn pixels(png_file: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::fs::File::open(png_file).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        other => panic!("screenshot in {other:?}"),
    };
    let px = buf[..info.buffer_size()]
        .chunks(step)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, px)
}

/// The report in a real browser (Debian's chromium, headless): it loads with no console message,
/// every chart is an SVG with drawn bars in the rendered page, and a screenshot shows them (not a
/// blank page). The screenshot (the samples' eight crawls: the overview and the first section)
/// is docs/report.png, written at every run so it cannot drift from the page (issue 58).
#[test]
fn the_report_renders_in_headless_chromium() {
    let (dir, _out) = scan_samples();
    let html = dir.path().join("report.html");
    // From the folder above the tables, as the README says, so the page names them `out`.
    assert_ok(
        &bin()
            .current_dir(dir.path())
            .args(["report", "out", "--out", "report.html"])
            .output()
            .unwrap(),
    );
    let url = format!("file://{}", html.display());
    let browser = |args: &[&str]| {
        let run = std::process::Command::new(common::chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .arg(format!(
                "--user-data-dir={}",
                dir.path().join("profile").display()
            ))
            .args(["--enable-logging=stderr", "--v=0"])
            .args(args)
            .arg(&url)
            .output()
            .expect("run chromium");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let log = String::from_utf8_lossy(&run.stderr).into_owned();
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(console.is_empty(), "console messages: {console:?}");
        String::from_utf8_lossy(&run.stdout).into_owned()
    };
    // The DOM as the browser built it: every chart an SVG with marks (bars or dots) besides
    // its white background.
    let dom = browser(&["--dump-dom"]);
    let charts: Vec<&str> = dom.split("<div class=\"chart\">").skip(1).collect();
    assert!(charts.len() >= 4, "{} charts", charts.len());
    for c in &charts {
        let svg = &c[..c.find("</svg>").expect("an svg in each chart")];
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        let marks = (svg.split('<').skip(1))
            .filter(|t| t.starts_with("rect") || t.starts_with("circle"))
            .filter(|t| !t[..t.find('>').unwrap_or(t.len())].contains("#FFFFFF"))
            .count();
        assert!(marks >= 1, "an empty chart: {}", &svg[..300.min(svg.len())]);
    }
    // A screenshot of the top of the page: not blank, and the first bars' colour is on it.
    let shot = dir.path().join("report.png");
    browser(&[
        "--window-size=1000,3000",
        &format!("--screenshot={}", shot.display()),
    ]);
    let (w, h, px) = pixels(&shot);
    assert_eq!((w, h), (1000, 3000));
    let inked = px.iter().filter(|p| p.iter().any(|&c| c < 200)).count();
    assert!(
        inked * 50 > px.len(),
        "{inked} of {} pixels inked",
        px.len()
    );
    let bar_red = px.iter().filter(|p| **p == [0xb2, 0x18, 0x2b]).count();
    assert!(bar_red > 2000, "{bar_red} pixels of the bars' red");
    // The picture docs/guide.md shows is this one, written at every run: a change of the page
    // shows in `git status` beside the change that made it, and is committed with it.
    std::fs::copy(&shot, repo().join("docs/report.png")).unwrap();
    // Printed (the print style sheet): a PDF of several pages.
    let pdf = dir.path().join("report.pdf");
    browser(&[
        "--no-pdf-header-footer",
        &format!("--print-to-pdf={}", pdf.display()),
    ]);
    let pdf = std::fs::read(&pdf).unwrap();
    assert!(pdf.starts_with(b"%PDF"), "not a PDF");
    let text = String::from_utf8_lossy(&pdf);
    let pages = text.matches("/Type /Page").count() - text.matches("/Type /Pages").count();
    assert!(pages >= 2, "{pages} pages printed");
}

/// A part that is not Parquet in one crawl: the page is written with that crawl's section saying
/// its tables could not be read and the other crawl's numbers intact; exit 1 names the crawl.
#[test]
fn an_unreadable_part_fails_its_crawl_only() {
    let (dir, out) = scan_crawls(&[("a", "redirect-cases"), ("b", "verdict-cases")]);
    std::fs::write(
        out.join("summary_agents/crawl=a/part-zzz.parquet"),
        b"not parquet",
    )
    .unwrap();
    let html = dir.path().join("report.html");
    let run = report(&out, &html, &[]);
    assert_eq!(run.status.code(), Some(1));
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("crawl a not reported") && said.contains("part-zzz.parquet"),
        "{said}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("Its tables could not be read"), "{page}");
    let cells = cells(&page);
    let others: Vec<&Cell> = cells.iter().filter(|c| c.crawl != "b").collect();
    assert!(others.is_empty(), "{others:?}");
    std::fs::remove_file(out.join("summary_agents/crawl=a/part-zzz.parquet")).unwrap();
    assert!(check_numbers(&out, &cells) > 40);
}

/// A crafted crawl whose pages have 300 KB URLs with bidirectional overrides and control
/// characters, each page's header contradicting its meta tag (so each URL is in the list of
/// conflicts): the page stays small (each text is cut at 300 characters; it was 18 MB), no such
/// character reaches it, and the report writes nothing in the tables folder.
#[test]
fn long_and_hidden_strings_from_an_archive_are_cut_and_shown_harmless() {
    let dir = tempfile::tempdir().unwrap();
    let mut warc = Vec::new();
    for i in 0..10 {
        let url = format!(
            "http://evil.example/{i}/\u{202E}gpj.exe\u{1b}]0;title\u{7}{}",
            "a".repeat(300_000)
        );
        let body = "<html><head><meta name=\"robots\" content=\"noindex\"></head></html>";
        let http = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Robots-Tag: index\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        warc.extend(
            format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\n\
                 WARC-Date: 2025-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:{i}>\r\n\
                 Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n\
                 {http}\r\n\r\n",
                http.len()
            )
            .as_bytes(),
        );
    }
    let input = dir.path().join("evil.warc");
    std::fs::write(&input, warc).unwrap();
    let out = dir.path().join("out");
    let (code, err) = scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let listing = |d: &Path| -> Vec<_> { common::walk(d) };
    let before = listing(&out);
    let html = dir.path().join("r.html");
    let run = report(&out, &html, &[]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        listing(&out),
        before,
        "the report wrote in the tables folder"
    );
    assert!(!out.join(".staging").exists());
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.len() < 1_000_000, "{} bytes", page.len());
    assert!(page.contains("gpj.exe"), "the conflicting pages are listed");
    assert!(!page.contains(&"a".repeat(301)), "a value was not cut");
    for hidden in ['\u{202E}', '\u{1b}', '\u{7}'] {
        assert!(!page.contains(hidden), "{hidden:?} reached the page");
    }
    // A page that cannot be moved into place (the path is a folder) leaves no staged file.
    let folder = dir.path().join("a-folder.html");
    std::fs::create_dir(&folder).unwrap();
    assert!(!report(&out, &folder, &[]).status.success());
    assert!(!dir.path().join("a-folder.html.tmp").exists());
}

/// A crawl whose `summary_robots_hosts` was written before the accidental-block counts (schema
/// 11) keeps its section: only that figure is left out, and the page says why.
#[test]
fn a_summary_of_an_earlier_schema_leaves_out_only_the_figures_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cases = repo().join("samples/verdict-cases.warc.gz");
    let (code, err) = scan(&[cases.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let part = common::walk(&out.join("summary_robots_hosts"))
        .into_iter()
        .find(|p| !p.to_string_lossy().contains("_schema"))
        .expect("a summary_robots_hosts part");
    let old = dir.path().join("old.parquet");
    duck(
        &out,
        &format!(
            "COPY (SELECT * EXCLUDE (hosts_wildcard_split, hosts_wildcard_with_ai) FROM '{}') \
             TO '{}' (FORMAT parquet)",
            part.display(),
            old.display()
        ),
    );
    std::fs::rename(&old, &part).unwrap();
    let html = dir.path().join("r.html");
    let run = report(&out, &html, &[]);
    assert_ok(&run);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("summary_robots_hosts predates them"),
        "{page}"
    );
    // The rest of the section is drawn: the agents and the extensions.
    assert!(page.contains("<h3>AI crawlers</h3>"), "{page}");
    assert!(page.contains("<h3>robots.txt extensions</h3>"), "{page}");

    // summary_agent_groups without the `*` readings (schema 12): the agents blocked by name
    // are drawn, the row of the `*` reading is left out, saying why.
    let groups = common::walk(&out.join("summary_agent_groups"))
        .into_iter()
        .find(|p| !p.to_string_lossy().contains("_schema"))
        .expect("a summary_agent_groups part");
    duck(
        &out,
        &format!(
            "COPY (SELECT * EXCLUDE (star_verdict) FROM '{}') TO '{}' (FORMAT parquet)",
            groups.display(),
            old.display()
        ),
    );
    std::fs::rename(&old, &groups).unwrap();
    assert_ok(&report(&out, &html, &[]));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("predates the `*` readings")
            || page.contains("predates the <code>*</code> readings"),
        "{page}"
    );
    assert!(!page.contains(r#"data-query="agents_wildcard_blocking""#));
    assert!(page.contains(r#"data-key="GPTBot" data-column="by_own_group""#));

    // robots_files of an earlier schema, derived again: the counts are NULL, not 0, and the
    // page says so as well.
    let files = common::walk(&out.join("robots_files"))
        .into_iter()
        .find(|p| !p.to_string_lossy().contains("_schema"))
        .expect("a robots_files part");
    duck(
        &out,
        &format!(
            "COPY (SELECT * EXCLUDE (group_split, wildcard_split, wildcard_with_ai) FROM '{}') \
             TO '{}' (FORMAT parquet)",
            files.display(),
            old.display()
        ),
    );
    std::fs::rename(&old, &files).unwrap();
    let hosts = bin().arg("hosts").arg(&out).output().unwrap();
    assert_ok(&hosts);
    let known = common::duck_value(
        &out,
        "SELECT count(hosts_wildcard_split) FROM 'summary_robots_hosts/*/*.parquet'",
    );
    assert_eq!(known, "0", "unknown counts are NULL");
    let run = report(&out, &html, &[]);
    assert_ok(&run);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("summary_robots_hosts predates them"),
        "{page}"
    );
}

/// A crawl of one small file: its name, capture date and robots.txt files (host, body).
type RobotsCrawl<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// The crawls of one small crawl file each.
fn scan_robots_crawls(crawls: &[RobotsCrawl<'_>]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (k, (crawl, date, files)) in crawls.iter().enumerate() {
        let input = dir.path().join(format!("{k}.warc"));
        common::robots_warc(&input, date, files);
        scan_into(&input, &out, crawl);
    }
    (dir, out)
}

/// The report of `out`, read back.
fn page_of(dir: &Path, out: &Path) -> String {
    let html = dir.join("report.html");
    assert_ok(&report(out, &html, &[]));
    std::fs::read_to_string(&html).unwrap()
}

/// The rows' first cells of the table of figure `id`.
fn first_cells(page: &str, id: &str) -> Vec<String> {
    let at = page
        .find(&format!(r#"<figure id="{id}">"#))
        .unwrap_or_else(|| panic!("{id}"));
    let figure = &page[at..at + page[at..].find("</figure>").unwrap()];
    let body = &figure[figure.rfind("<tbody>").unwrap()..];
    // A ranked table's first column is the rank: its label is the next.
    let ranked = figure.contains("<th>rank</th>");
    (body.split("<tr><td>").skip(1))
        .map(|r| match ranked {
            true => r.split("<td>").nth(1).unwrap(),
            false => r,
        })
        .map(|r| unescape(&r[..r.find("</td>").unwrap()]))
        .collect()
}

/// Agents blocked only through `*` are one row, "every crawler, through *", not a ranking of
/// equal bars sorted by name; the agents sites block by name follow, most first; partial
/// blocks are a figure apart. A crawl where no AI agent is fully blocked draws no bars.
#[test]
fn agents_blocked_only_through_star_are_one_row_and_partial_blocks_apart() {
    let everything = "User-agent: *\nDisallow: /\n";
    let (dir, out) = scan_robots_crawls(&[
        (
            "CC-MAIN-2025-05",
            "2025-01-20T00:00:00Z",
            &[
                ("a.example", everything),
                ("b.example", everything),
                ("c.example", "User-agent: GPTBot\nDisallow: /\n"),
                (
                    "d.example",
                    "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n",
                ),
                ("e.example", "User-agent: *\nDisallow: /admin\n"),
            ],
        ),
        (
            "quiet",
            "2025-02-01T00:00:00Z",
            &[("f.example", "User-agent: *\nDisallow: /admin\n")],
        ),
    ]);
    let page = page_of(dir.path(), &out);
    assert_eq!(
        first_cells(&page, "CC-MAIN-2025-05-ai-blocking"),
        ["every crawler, through *", "GPTBot", "CCBot"]
    );
    assert!(page.contains("of the"), "says how many agents are left out");
    assert_eq!(
        first_cells(&page, "CC-MAIN-2025-05-ai-partial"),
        ["every crawler, through *"]
    );
    let quiet = &page[page.find(r#"<figure id="quiet-ai-blocking">"#).unwrap()..];
    let quiet = &quiet[..quiet.find("</figure>").unwrap()];
    assert!(
        !quiet.contains("<svg"),
        "bars for a crawl without full blocks"
    );
    assert!(quiet.contains("No host fully blocks an AI agent"));
    assert!(check_numbers(&out, &cells(&page)) > 20);
}

/// Crawls are placed by date and joined by a line only within one collection (names differing
/// only in their digits); the overview compares the two latest of one collection.
#[test]
fn only_crawls_of_one_collection_are_joined_and_compared() {
    let blocks = "User-agent: GPTBot\nDisallow: /\n";
    let open = "User-agent: *\nDisallow:\n";
    let (dir, out) = scan_robots_crawls(&[
        (
            "CC-MAIN-2025-05",
            "2025-01-20T00:00:00Z",
            &[("a.example", blocks), ("b.example", open)],
        ),
        (
            "CC-MAIN-2025-13",
            "2025-03-20T00:00:00Z",
            &[("a.example", blocks), ("b.example", blocks)],
        ),
        ("archive-x", "2025-02-20T00:00:00Z", &[("a.example", open)]),
    ]);
    let page = page_of(dir.path(), &out);
    let change = &page[page.find(r#"<section id="change">"#).unwrap()..];
    let chart = &change[..change.find("</svg>").unwrap()];
    // The `*` line and GPTBot's join the two CC-MAIN crawls; archive-x stands alone.
    assert_eq!(chart.matches(r#"stroke-width="2""#).count(), 2, "{chart}");
    let head = &change[change.find("<thead>").unwrap()..change.find("</thead>").unwrap()];
    let (x, y, z) = (
        head.find("CC-MAIN-2025-05").unwrap(),
        head.find("archive-x").unwrap(),
        head.find("CC-MAIN-2025-13").unwrap(),
    );
    assert!(x < y && y < z, "by date: {head}");
    let overview = &page[..page.find(r#"<section id="crawl-"#).unwrap()];
    assert!(overview.contains("From CC-MAIN-2025-05"), "{overview}");
    let compared = cells(overview);
    assert!(compared.iter().any(|c| c.crawl == "CC-MAIN-2025-05"
        && c.key == "GPTBot"
        && c.column == "share_2xx"
        && c.value == "0.5"));
    assert!(compared
        .iter()
        .any(|c| c.crawl == "CC-MAIN-2025-13" && c.key == "GPTBot" && c.value == "1"));
    assert!(check_numbers(&out, &compared) > 10);
}

/// The change chart marks 2026-09-15 (Cloudflare's edge blocking without robots.txt lines) and
/// says what it means when the compared crawls straddle it, and only then.
#[test]
fn the_change_chart_marks_cloudflares_edge_blocking_when_crawls_straddle_it() {
    let crawls = |second: &'static str| -> Vec<RobotsCrawl<'static>> {
        vec![
            (
                "CC-MAIN-2026-33",
                "2026-08-10T00:00:00Z",
                &[("a.example", "User-agent: GPTBot\nDisallow: /\n")],
            ),
            (
                "CC-MAIN-2026-38",
                second,
                &[("a.example", "User-agent: *\nDisallow:\n")],
            ),
        ]
    };
    let said = "The grey line marks 2026-09-15";
    let (dir, out) = scan_robots_crawls(&crawls("2026-10-05T00:00:00Z"));
    let page = page_of(dir.path(), &out);
    let change = &page[page.find(r#"<section id="change">"#).unwrap()..];
    let change = &change[..change.find("</section>").unwrap()];
    assert!(change.contains(said), "{change}");
    let chart = &change[..change.find("</svg>").unwrap()];
    let mark = chart.find(r##"fill="#888888">"##).expect("a grey label");
    assert!(chart[mark..]
        .trim_start_matches(r##"fill="#888888">"##)
        .trim_start()
        .starts_with("2026-09-15"));
    let (dir, out) = scan_robots_crawls(&crawls("2026-09-10T00:00:00Z"));
    let page = page_of(dir.path(), &out);
    assert!(!page.contains(said) && !page.contains("2026-09-15"));
}

/// The overview names every crawl with what was read into it, those without a section too,
/// and every kind of problem with its count; the conflicts' count is in its own column.
#[test]
fn every_crawl_and_every_error_kind_is_named_with_its_count() {
    let (dir, out) = scan_samples();
    let page = page_of(dir.path(), &out);
    let overview = &page[page.find(r#"<section id="overview">"#).unwrap()..];
    let overview = &overview[..overview.find("</section>").unwrap()];
    let said = cells(overview);
    let crawls: BTreeSet<&str> = (said.iter())
        .filter(|c| c.query == "read_summary" && c.column == "errors")
        .map(|c| c.crawl.as_str())
        .collect();
    assert_eq!(crawls.len(), 8, "{crawls:?}");
    let kinds = duck(
        &out,
        "SELECT count(DISTINCT (crawl, kind)) AS n, sum(1) AS rows \
         FROM read_parquet('errors/*/*.parquet', hive_partitioning = true)",
    );
    let distinct: usize = kinds
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let named = said.iter().filter(|c| c.query == "errors_by_input").count();
    assert_eq!(named, distinct);
    // The counts come from summary_errors; without it (a folder of shards before `hosts`) the
    // page counts the same from errors itself.
    let problems = |page: &str| -> Vec<String> {
        let overview = &page[page.find(r#"<section id="overview">"#).unwrap()..];
        (cells(&overview[..overview.find("</section>").unwrap()]).into_iter())
            .filter(|c| c.query == "errors_by_input")
            .map(|c| format!("{} {} {}", c.crawl, c.key, c.value))
            .collect()
    };
    let moved = dir.path().join("summary_errors-moved");
    std::fs::rename(out.join("summary_errors"), &moved).unwrap();
    let from_detail = page_of(dir.path(), &out);
    std::fs::rename(&moved, out.join("summary_errors")).unwrap();
    assert_eq!(problems(&from_detail), problems(&page));
    assert_eq!(problems(&page).len(), distinct);
    assert!(overview.contains("not shown: <code>--crawl unknown</code>"));
    // The change section names the crawls it leaves out.
    let change = &page[page.find(r#"<section id="change">"#).unwrap()..];
    let left_out = &change[..change.find("</p>").unwrap()];
    for crawl in ["CC-MAIN-2024-22", "ClueWeb12", "Temporary_20Collection"] {
        assert!(left_out.contains(crawl), "{left_out}");
    }
    assert!(check_numbers(&out, &said) > 40);
    // Each kind links to its line of the glossary, which says what it means.
    let kinds = duck(
        &out,
        "SELECT DISTINCT kind FROM read_parquet('errors/*/*.parquet', hive_partitioning = true)",
    );
    for kind in kinds.lines().skip(1) {
        let link = format!(r##"<a href="#error-kind-{kind}">{kind}</a>"##);
        assert!(overview.contains(&link), "{link}");
        let line = format!(r#"<dt id="error-kind-{kind}"><code>{kind}</code></dt><dd>"#);
        let at = overview.find(&line).unwrap_or_else(|| panic!("{line}"));
        let meaning = &overview[at + line.len()..];
        assert!(meaning.find("</dd>").unwrap() > 20, "{kind}: {meaning}");
    }
    // Every crawl of the change charts is labelled under its dots, with its first day.
    let change = &change[..change.find("</section>").unwrap()];
    let chart = &change[..change.find("</svg>").unwrap()];
    let days = duck(
        &out,
        "SELECT strftime(min(capture_time), '%Y-%m-%d') \
         FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) \
         GROUP BY crawl ORDER BY 1",
    );
    let days: Vec<&str> = days.lines().skip(1).collect();
    assert_eq!(days.len(), 5, "{days:?}");
    for day in days {
        assert!(chart.contains(&format!(">\n{day}\n</text>")), "{day}");
    }
    // The extensions' denominator says why it is not the AI figures' one.
    let at = page
        .find(r#"<figure id="repcensus-samples-extensions">"#)
        .unwrap();
    let caption = &page[at..];
    let caption = &caption[..caption.find("</figcaption>").unwrap()];
    assert!(
        caption.contains("Share of the 548 hosts")
            && caption.contains("Fewer than the 565 hosts (2xx) of the AI figures")
            && caption.contains("the 17 hosts whose latest capture is a redirect"),
        "{caption}"
    );
    // The conflicts' count heads its own one-column table.
    let at = page.find(r#"-conflicts">"#).unwrap();
    let figure = &page[at..at + page[at..].find("</figure>").unwrap()];
    let totals = &figure[figure.find(r#"<table class="totals""#).unwrap()..];
    let totals = &totals[..totals.find("</table>").unwrap()];
    assert_eq!(totals.matches("<th>").count(), 1, "{totals}");
    assert!(totals.contains(r#"data-column="conflicts""#));
}

/// Every table of the page is followed by a link to its rows as CSV (a `data:` URI saved under
/// a file name), holding as many rows as the table, each number as its query gives it (the
/// cell's `data-value`), and naming the bundled query of a table that has one.
#[test]
fn every_table_has_its_rows_as_csv_with_the_querys_values() {
    let (dir, out) = scan_samples();
    rank_every_domain(dir.path(), &out);
    let page = page_of(dir.path(), &out);
    let tables: Vec<&str> = page.split("<table").skip(1).collect();
    assert!(tables.len() > 40, "{}", tables.len());
    let mut numbers = 0;
    let mut names = BTreeSet::new();
    for table in tables {
        let end = table.find("</table>").unwrap() + "</table>".len();
        let (table, after) = table.split_at(end);
        let link = after
            .strip_prefix(r#"<p class="csv"><a download=""#)
            .unwrap_or_else(|| panic!("no CSV after {table}"));
        let name = &link[..link.find('"').unwrap()];
        assert!(
            name.ends_with(".csv") && names.insert(name.to_string()),
            "{name}"
        );
        let query = attr(table, "data-query").unwrap();
        let link = &link[..link.find("</p>").unwrap()];
        assert_eq!(
            link.contains(&format!("<code>repcensus query {query}</code>")),
            !query.is_empty(),
            "{link}"
        );
        let data = attr(link, "href")
            .unwrap()
            .strip_prefix("data:text/csv;charset=utf-8,")
            .unwrap();
        let text = percent_encoding::percent_decode_str(data)
            .decode_utf8()
            .unwrap();
        let mut csv = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(text.as_bytes());
        let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
        let body = &table[table.find("<tbody>").unwrap()..];
        let html_rows: Vec<&str> = body.split("<tr>").skip(1).collect();
        assert_eq!(rows.len(), html_rows.len(), "{name}");
        for (row, html) in rows.iter().zip(html_rows) {
            let tds: Vec<&str> = html.split("<td").skip(1).collect();
            // A row under a cell that spans rows (the studies' definition) lacks that cell;
            // its CSV row has it.
            let spanned = row.len().saturating_sub(tds.len());
            for (j, td) in tds.iter().enumerate() {
                let open = &td[..td.find('>').unwrap()];
                if let Some(value) = attr(open, "data-value") {
                    let csv = row.get(j + spanned);
                    assert_eq!(csv, Some(unescape(value).as_str()), "{name}: {html}");
                    numbers += 1;
                }
            }
        }
    }
    assert!(numbers > 300, "{numbers}");
    assert!(
        names.contains("repcensus-samples-ai-blocking.csv"),
        "{names:?}"
    );
    assert!(names.contains("repcensus-samples-studies.csv"), "{names:?}");
}

/// A Content-Signal signal written without `=` is said to have no value written, not shown
/// as an unexplained "none"; a census of robots.txt files alone is not said to lack tables.
#[test]
fn a_content_signal_written_without_a_value_is_said_so_and_robots_alone_lack_nothing() {
    let (dir, out) = scan_robots_crawls(&[(
        "CC-MAIN-2026-05",
        "2026-01-20T00:00:00Z",
        &[
            (
                "a.example",
                "User-agent: *\nContent-Signal: ai-input, ai-train=no\nAllow: /\n",
            ),
            ("b.example", "User-agent: *\nContent-Signal: ai-train=no\n"),
        ],
    )]);
    let page = page_of(dir.path(), &out);
    // A census of robots.txt files alone lacks no table: it read no page.
    assert!(!page.contains(r#"<section class="missing">"#), "{page}");
    let at = page.find(r#"-content-signal">"#).unwrap();
    let figure = &page[at..at + page[at..].find("</figure>").unwrap()];
    assert!(!figure.contains("<i>none</i>"), "{figure}");
    let row = figure.find("<td>ai-input</td><td><i>no value written</i></td>");
    assert!(row.is_some(), "{figure}");
    assert!(figure.contains("has no value written: the query&#39;s value is NULL"));
    let said: Vec<Cell> = (cells(&page).into_iter())
        .filter(|c| c.query == "robots_content_signal_values")
        .collect();
    assert_eq!(check_numbers(&out, &said), 4);
}

/// A list `top` of every registered domain of `out`, ranked 400 apart (three tiers hold
/// some), added to `out` by `repcensus ranks`.
fn rank_every_domain(dir: &Path, out: &Path) {
    let domains = duck(
        out,
        "SELECT DISTINCT registered_domain AS d FROM read_parquet('robots_hosts/*/*.parquet')
         WHERE registered_domain IS NOT NULL ORDER BY d",
    );
    let list: String = (domains.lines().skip(1).enumerate())
        .map(|(k, d)| format!("{},{d}\n", 400 * (k + 1)))
        .collect();
    let file = dir.join("list.csv");
    std::fs::write(&file, list).unwrap();
    let ranked = bin()
        .args(["ranks", "--quiet", "--name", "top", "--out"])
        .arg(out)
        .arg(&file)
        .status()
        .unwrap();
    assert_eq!(ranked.code(), Some(0));
}

/// With a ranked list in the folder, the latest crawl's headline has the earlier studies'
/// shares beside it: each definition named with its query, over every host and per tier, each
/// number its query's row (agent NULL); without a list, none.
#[test]
fn the_studies_shares_stand_beside_the_headline_when_a_ranked_list_is_there() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cases = repo().join("samples/real-robots.warc.gz");
    let (code, err) = scan(&[cases.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let html = dir.path().join("report.html");
    assert_ok(&report(&out, &html, &[]));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(!page.contains("counted as earlier studies counted"));
    rank_every_domain(dir.path(), &out);
    assert_ok(&report(&out, &html, &[]));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("counted as earlier studies counted"));
    let studies: Vec<Cell> = (cells(&page).into_iter())
        .filter(|c| c.query.starts_with("study_"))
        .collect();
    for query in [
        "study_own_group_root",
        "study_somesite_full_block",
        "study_almanac_named",
    ] {
        assert!(page.contains(&format!("<code>{query}</code>: ")), "{query}");
        let keys: BTreeSet<&str> = (studies.iter())
            .filter(|c| c.query == query)
            .map(|c| c.key.as_str())
            .collect();
        assert_eq!(
            keys,
            BTreeSet::from([
                "||",
                "top|top1k|",
                "top|top10k|",
                "top|top100k|",
                "top|top1m|"
            ]),
            "{query}"
        );
    }
    assert_eq!(check_numbers(&out, &studies), studies.len());
    assert_eq!(studies.len(), 3 * 5 * 3);
}

/// A ranked table's rows: (rank, agent, the column the ranking is by).
type Ranked = Vec<(usize, String, u64)>;

/// The agents of each figure whose id ends in `figure`, with the figure's text.
fn ranked_rows(page: &str, figure: &str, columns: &[&str]) -> Vec<(String, Ranked)> {
    let mut found = Vec::new();
    for part in page.split("<figure id=\"").skip(1) {
        let id = &part[..part.find('"').unwrap()];
        if !id.ends_with(figure) {
            continue;
        }
        let figure = &part[..part.find("</figure>").unwrap()];
        let mut rows = Vec::new();
        for row in figure.split("<tr>").skip(1) {
            let tds: Vec<&str> = row.split("<td").skip(1).collect();
            let rank = tds
                .first()
                .and_then(|t| t.strip_prefix('>')?.split('<').next());
            let Some(Ok(rank)) = rank.map(str::parse::<usize>) else {
                continue; // the head, or the `*` row
            };
            // The ranking's count: the sum of its columns (singled out: both kinds).
            let value: u64 = (columns.iter())
                .map(|column| {
                    let at = row.find(&format!("data-column=\"{column}\"")).unwrap();
                    attr(&row[at - 1..], "data-value")
                        .unwrap()
                        .parse::<u64>()
                        .unwrap()
                })
                .sum();
            let agent = tds[1].trim_start_matches('>').split('<').next().unwrap();
            rows.push((rank, unescape(agent), value));
        }
        found.push((figure.to_string(), rows));
    }
    found
}

/// Issue 58, points 1 and 2: every table of AI agents is sorted by what its bar (or its
/// ranking column) shows, tied agents share a rank and come by name, and a list cut inside a
/// tie says how many more agents tie with its last (as many as the query has).
#[test]
fn ranked_agents_are_sorted_by_what_is_shown_and_ties_share_a_rank() {
    let (dir, out) = scan_samples();
    let html = dir.path().join("report.html");
    let names = duck(
        &out,
        "SELECT DISTINCT crawl FROM read_parquet('inputs/*/*.parquet', hive_partitioning = true)",
    );
    let mut all = Vec::new();
    for name in names.lines().skip(1) {
        all.extend(["--crawl", name]);
    }
    assert_ok(&report(&out, &html, &all));
    let page = std::fs::read_to_string(&html).unwrap();
    let (mut tables, mut cut) = (0, 0);
    for (figure, columns, column) in [
        ("-ai-blocking", &["full_block"][..], "full_block"),
        (
            "-ai-partial",
            &["partial_by_own_group"][..],
            "partial_by_own_group",
        ),
        (
            "-ai-singled-out",
            &["to_full_block", "to_partial_block"][..],
            "singled_out",
        ),
    ] {
        for (text, rows) in ranked_rows(&page, figure, columns) {
            for (k, (rank, agent, value)) in rows.iter().enumerate() {
                let more = rows.iter().filter(|r| r.2 > *value).count();
                assert_eq!(*rank, more + 1, "{figure}: {agent} at {value}");
                if k > 0 {
                    let (_, before, v) = &rows[k - 1];
                    assert!(
                        v > value || (v == value && before < agent),
                        "{figure}: {agent}"
                    );
                }
            }
            tables += usize::from(!rows.is_empty());
            if let Some(at) = text.find("stops inside a tie: ") {
                let n: usize = text[at + 20..].split(' ').next().unwrap().parse().unwrap();
                let crawl = unescape(
                    text[..text.find(figure).unwrap()]
                        .split('"')
                        .next()
                        .unwrap(),
                );
                let (_, _, last) = rows.last().unwrap();
                let shown = rows.iter().filter(|r| r.2 == *last).count();
                let query = if figure == "-ai-singled-out" {
                    "agents_singled_out"
                } else {
                    "agents_full_block_share"
                };
                let sql =
                    std::fs::read_to_string(repo().join(format!("queries/{query}.sql"))).unwrap();
                // The agents the figure ranks: AI agents some host blocks (partly) by name.
                let by_name = match figure {
                    "-ai-blocking" => "by_own_group > 0",
                    "-ai-partial" => "partial_by_own_group > 0",
                    _ => "true",
                };
                let tied = common::duck_value(
                    &out,
                    &common::around(
                        &sql,
                        &format!(
                            "SELECT count(*) FROM ({{}}) WHERE crawl = '{crawl}' \
                             AND agent_category LIKE 'ai_%' AND {by_name} AND {column} = {last}"
                        ),
                    ),
                );
                assert_eq!(tied, (n + shown).to_string(), "{crawl}{figure}");
                cut += 1;
            }
        }
    }
    assert!(tables >= 6, "{tables} tables of ranked agents");
    // Point 4: the operator chart plots hosts (those blocking at least one of the operator's
    // agents), sorted by that share; the pairs' shares are beside it, named as pairs.
    let mut operators = 0;
    for part in page.split("<figure id=\"").skip(1) {
        if !part[..part.find('"').unwrap()].ends_with("-ai-operators") {
            continue;
        }
        let figure = &part[..part.find("</figure>").unwrap()];
        assert!(
            figure.contains("<th>share of hosts</th>") && figure.contains("<th>pairs fully</th>")
        );
        let shares: Vec<f64> = (figure.split(r#"data-column="share_blocking_any" data-value=""#))
            .skip(1)
            .map(|v| v[..v.find('"').unwrap()].parse().unwrap())
            .collect();
        assert!(!shares.is_empty());
        assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{shares:?}");
        operators += 1;
    }
    assert!(operators >= 2, "{operators} operator figures");
    let by_operator: Vec<Cell> = (cells(&page).into_iter())
        .filter(|c| c.query == "agents_blocking_by_category")
        .collect();
    assert_eq!(check_numbers(&out, &by_operator), by_operator.len());
    // Point 3: singled out to a full block and to a partial block, each with its own share,
    // each its query's number; no share of both kinds beside one of them.
    for (text, _) in ranked_rows(&page, "-ai-singled-out", &["to_full_block"]) {
        assert!(text.contains(r#"data-column="share_full_block""#));
        assert!(text.contains(r#"data-column="share_partial_block""#));
        assert!(!text.contains(r#"data-column="share""#));
    }
    let singled: Vec<Cell> = (cells(&page).into_iter())
        .filter(|c| c.query == "agents_singled_out")
        .collect();
    assert_eq!(check_numbers(&out, &singled), singled.len());
    // The samples' partial blocks by name: many agents at 1 host, more than ten fit.
    assert!(cut >= 1, "no list of the samples stops inside a tie");
}

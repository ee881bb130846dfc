//! Every query in queries/ runs in the real DuckDB CLI against the tables of the bundled samples,
//! and its answer is checked against tests/expected/queries/<name>.csv (reviewed by hand; set
//! REPCENSUS_BLESS=1 to rewrite them after an intended change, then review the diff).

use crate::common;

use common::sample_tables;

use common::{duck, duck_value, repo, robots_warc, table_rows};
use std::path::{Path, PathBuf};

fn queries() -> Vec<PathBuf> {
    let mut q: Vec<PathBuf> = std::fs::read_dir(repo().join("queries"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    q.sort();
    q
}

#[test]
fn every_query_answers_as_expected() {
    let out = sample_tables();
    let qs = queries();
    assert!(qs.len() >= 2);
    let bless = std::env::var_os("REPCENSUS_BLESS").is_some();
    let mut failures = Vec::new();
    for q in &qs {
        let name = q.file_stem().unwrap().to_string_lossy().into_owned();
        let got = duck(out, &format!(".read {}", q.display()));
        let expected_path = repo()
            .join("tests/expected/queries")
            .join(format!("{name}.csv"));
        if bless {
            std::fs::create_dir_all(expected_path.parent().unwrap()).unwrap();
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
            panic!(
                "no expected answer {} (run with REPCENSUS_BLESS=1 and review)",
                expected_path.display()
            )
        });
        if got != expected {
            failures.push(format!("{name}:\n--- expected\n{expected}--- got\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_query_states_its_question_and_columns() {
    for q in queries() {
        let text = std::fs::read_to_string(&q).unwrap();
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with("--"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            header.contains("Question:"),
            "{} has no Question: header",
            q.display()
        );
        assert!(
            header.contains("Columns:"),
            "{} has no Columns: header",
            q.display()
        );
    }
}

#[test]
fn duckdb_and_parquet_reader_agree_on_counts() {
    let out = sample_tables();
    let n = duck_value(
        out,
        "SELECT count(*) FROM read_parquet('robots_files/*/*.parquet', hive_partitioning = true)",
    );
    assert_eq!(n, table_rows(out, "robots_files", &[]).len().to_string());
    // Hive partition and the stored crawl column agree.
    let mismatched = duck_value(
        out,
        "SELECT count(*) FROM read_parquet('robots_files/*/*.parquet', hive_partitioning = false, filename = true) \
         WHERE filename NOT LIKE '%crawl=' || crawl || '/%'",
    );
    assert_eq!(mismatched, "0");
    // The schema version is in the metadata of every part.
    let versions = duck_value(
        out,
        "SELECT string_agg(DISTINCT decode(value), ',') FROM parquet_kv_metadata('*/*/*.parquet') \
         WHERE decode(key) = 'repcensus.schema_version'",
    );
    assert_eq!(versions, repcensus::SCHEMA_VERSION);
}

/// The README's GPTBot query gives, crawl by crawl, the share and denominator of the bundled
/// agents_full_block_share.sql.
#[test]
fn readme_duckdb_session_answers_the_gptbot_question() {
    let out = sample_tables();
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    // The ```sql block of the README: four lines, run from inside the output folder.
    let sql = readme
        .split("```sql\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("README has a ```sql block");
    assert_eq!(sql.lines().count(), 4, "{sql}");
    let got = duck(out, sql);
    let bundled =
        std::fs::read_to_string(repo().join("queries/agents_full_block_share.sql")).unwrap();
    let want: String = duck(
        out,
        &common::around(
            &bundled,
            "SELECT crawl, share_2xx, hosts_2xx FROM ({}) WHERE agent = 'GPTBot' ORDER BY crawl",
        ),
    );
    assert_eq!(got.lines().count(), 1 + 5, "{got}");
    assert_eq!(got, want);
}

/// Every ```sql block of docs/*.md runs on the samples' tables from inside the output folder
/// (the README's convention), and docs/agents.md's GPTBot query gives agents_full_block_share's
/// shares, crawl by crawl.
#[test]
fn the_docs_sql_runs_and_agrees_with_the_bundled_queries() {
    let out = sample_tables();
    let mut blocks = 0;
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for block in text.split("```sql\n").skip(1) {
            let sql = block.split("```").next().unwrap();
            duck(out, &inline_reads(sql));
            blocks += 1;
        }
    }
    assert!(blocks >= 1, "no ```sql block in docs/");
    let agents = std::fs::read_to_string(repo().join("docs/agents.md")).unwrap();
    let sql = agents
        .split("```sql\n")
        .map(|b| b.split("```").next().unwrap())
        .find(|b| b.contains("'GPTBot'"))
        .expect("docs/agents.md's GPTBot query");
    let bundled =
        std::fs::read_to_string(repo().join("queries/agents_full_block_share.sql")).unwrap();
    let want = duck(
        out,
        &common::around(
            &bundled,
            "SELECT crawl, share_2xx FROM ({}) WHERE agent = 'GPTBot' ORDER BY crawl",
        ),
    );
    assert_eq!(duck(out, &inline_reads(sql)), want);
}

/// `sql` with each `.read ../queries/FILE` line (as a DuckDB session in the output folder
/// runs it) replaced by the file's statements: the CLI's `-c` takes no `.read` before other
/// statements.
fn inline_reads(sql: &str) -> String {
    sql.lines()
        .map(|line| match line.trim().strip_prefix(".read ../") {
            Some(path) => {
                std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{line}: {e}"))
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Two crawls of the same three hosts: agents_blocking_change counts hosts that start and stop
/// fully blocking an agent, and agents_singled_out the hosts whose own group for an agent is
/// stricter than their `*` group.
#[test]
fn two_crawls_give_blocking_changes_and_singled_out_agents() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, out) = (
        dir.path().join("a.warc"),
        dir.path().join("b.warc"),
        dir.path().join("out"),
    );
    let gptbot_blocked = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow:\n";
    robots_warc(
        &a,
        "2025-01-01T00:00:00Z",
        &[
            ("h1.example", "User-agent: *\nDisallow:\n"),
            ("h2.example", "User-agent: *\nDisallow: /\n"),
            ("h3.example", gptbot_blocked),
        ],
    );
    robots_warc(
        &b,
        "2025-06-01T00:00:00Z",
        &[
            ("h1.example", gptbot_blocked),
            ("h2.example", "User-agent: *\nDisallow: /private\n"),
            ("h3.example", gptbot_blocked),
        ],
    );
    for (input, crawl) in [(&a, "CRAWL-1"), (&b, "CRAWL-2")] {
        scan_as(input, crawl, &out);
    }
    let run = |q: &str, agent: &str| {
        let all = duck(
            &out,
            &format!(".read {}", repo().join("queries").join(q).display()),
        );
        let mut lines = all.lines();
        let header = lines.next().unwrap().to_string();
        let row = lines
            .find(|l| l.split(',').any(|c| c == agent))
            .unwrap_or_default();
        format!("{header}\n{row}")
    };
    let header = "from_crawl,to_crawl,agent,agent_category,hosts_both,blocking_before,\
                  blocking_after,newly_blocking,unblocking,change,hosts_resolved,\
                  hosts_unresolved,hosts_5xx,left_out";
    assert_eq!(
        run("agents_blocking_change.sql", "GPTBot"),
        format!("{header}\nCRAWL-1,CRAWL-2,GPTBot,ai_training,3,2,2,1,1,0.0,0,0,0,NULL")
    );
    assert_eq!(
        run("agents_blocking_change.sql", "CCBot"),
        format!("{header}\nCRAWL-1,CRAWL-2,CCBot,ai_training,3,1,0,0,1,-0.3333,0,0,0,NULL")
    );
    let singled = duck(
        &out,
        &format!(
            ".read {}",
            repo().join("queries/agents_singled_out.sql").display()
        ),
    );
    assert!(
        singled.contains("CRAWL-1,GPTBot,ai_training,0.3333,0.3333,0.0,3,1,1,0")
            && singled.contains("CRAWL-2,GPTBot,ai_training,0.6667,0.6667,0.0,3,2,2,0")
            && singled.contains("CRAWL-2,CCBot,ai_training,0.0,0.0,0.0,3,0,0,0"),
        "{singled}"
    );
}

/// Each crawl is compared with the one before it by date, whatever order the crawls were
/// scanned in: a crawl dated between two others, scanned last, takes its place, and the later
/// crawl's changes are derived again from it (`summary_agent_changes.from_crawl`).
#[test]
fn a_crawl_dated_between_two_others_takes_its_place_in_the_changes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let blocked = "User-agent: GPTBot\nDisallow: /\n";
    let open = "User-agent: *\nDisallow:\n";
    let crawls = [
        ("CRAWL-1", "2025-01-01T00:00:00Z", open),
        ("CRAWL-3", "2025-12-01T00:00:00Z", open),
        ("CRAWL-2", "2025-06-01T00:00:00Z", blocked),
    ];
    let pairs = || {
        let q = repo().join("queries/agents_blocking_change.sql");
        duck(&out, &format!(".read {}", q.display()))
            .lines()
            .filter(|l| l.contains(",GPTBot,"))
            .map(|l| l.split(',').take(9).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
    };
    for (k, (crawl, date, body)) in crawls.into_iter().enumerate() {
        let input = dir.path().join(format!("{crawl}.warc"));
        robots_warc(&input, date, &[("h1.example", body), ("h2.example", open)]);
        scan_as(&input, crawl, &out);
        if k == 1 {
            assert_eq!(
                pairs(),
                ["CRAWL-1,CRAWL-3,GPTBot,ai_training,2,0,0,0,0"],
                "two crawls"
            );
        }
    }
    assert_eq!(
        pairs(),
        [
            "CRAWL-1,CRAWL-2,GPTBot,ai_training,2,0,1,1,0",
            "CRAWL-2,CRAWL-3,GPTBot,ai_training,2,1,0,0,1"
        ]
    );
}

/// `agents_wildcard_blocking.sql` counts each host once by its `*` reading: the verdict of
/// every agent its file does not name. A host blocking GPTBot while `*` is open counts as
/// blocking an AI agent with the rest open; one that names GPTBot only to let it in, under a
/// `*` that blocks everything, does not; a file without a `*` group leaves the rest allowed; a
/// 404 is outside the denominator.
#[test]
fn the_star_reading_counts_each_host_once_by_what_its_unnamed_agents_get() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("a.warc"), dir.path().join("out"));
    common::robots_warc_with_status(
        &input,
        "2025-01-01T00:00:00Z",
        &[
            ("full.example", "200 OK", "User-agent: *\nDisallow: /\n"),
            (
                "partial.example",
                "200 OK",
                "User-agent: *\nDisallow: /admin\n",
            ),
            ("open.example", "200 OK", "User-agent: *\nDisallow:\n"),
            ("gpt.example", "200 OK", "User-agent: GPTBot\nDisallow: /\n"),
            (
                "gpt-in.example",
                "200 OK",
                "User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n",
            ),
            ("gone.example", "404 Not Found", "not here"),
        ],
    );
    scan_as(&input, "C", &out);
    let got = duck(
        &out,
        &format!(
            ".read {}",
            repo()
                .join("queries/agents_wildcard_blocking.sql")
                .display()
        ),
    );
    assert_eq!(
        got.trim_end(),
        "crawl,share_full_block,share_partial_block,share_ai_blocked_star_open,hosts_2xx,\
         hosts_with_star,star_full_block,star_partial_block,ai_blocked_star_open\n\
         C,0.4,0.2,0.2,5,5,2,1,1"
    );
}

/// Every `agents_*` query gives the hosts it leaves out (redirects that lead nowhere, 5xx
/// robots.txt) and splits its 2xx denominator by what the body was; `agents_full_block_share`
/// gives RFC 9309's reading beside Google's. A crafted crawl of seven hosts: two fully block
/// GPTBot, two answer 5xx (full blocks to RFC 9309), one serves an HTML page with 200, one an
/// empty file.
#[test]
fn every_query_gives_what_its_denominator_leaves_out_and_rfc9309_beside_google() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("r.warc"), dir.path().join("out"));
    let html = "<!DOCTYPE html><html><head><title>Not found</title></head><body>no</body></html>";
    common::robots_warc_with_status(
        &input,
        "2025-01-01T00:00:00Z",
        &[
            ("h1.example", "200 OK", "User-agent: GPTBot\nDisallow: /\n"),
            ("h2.example", "200 OK", "User-agent: *\nDisallow:\n"),
            ("h3.example", "503 Service Unavailable", "busy"),
            ("h4.example", "200 OK", html),
            ("h5.example", "200 OK", ""),
            ("h6.example", "200 OK", "User-agent: *\nDisallow: /\n"),
            ("h7.example", "500 Internal Server Error", "oops"),
        ],
    );
    scan_as(&input, "C", &out);
    // The named columns of the row of `query` whose column `key` is `value`.
    let row = |query: &str, key: &str, value: &str, columns: &[&str]| -> Vec<String> {
        let sql = format!(".read {}", repo().join("queries").join(query).display());
        let all = duck(&out, &sql);
        let mut lines = all.lines().map(csv_fields);
        let header = lines.next().unwrap();
        let at = |c: &str| {
            let found = header.iter().position(|h| h == c);
            found.unwrap_or_else(|| panic!("{query}: no column {c}"))
        };
        let line = lines
            .find(|l| l[at(key)] == value)
            .unwrap_or_else(|| panic!("{query}: no {key} {value} in {all}"));
        columns.iter().map(|c| line[at(c)].clone()).collect()
    };
    assert_eq!(
        row(
            "agents_full_block_share.sql",
            "agent",
            "GPTBot",
            &[
                "hosts_2xx",
                "hosts_any",
                "full_block",
                "share_any",
                "hosts_5xx",
                "full_block_rfc9309",
                "share_any_rfc9309",
                "hosts_2xx_html",
                "hosts_2xx_empty",
                "hosts_2xx_binary",
                "hosts_unresolved"
            ]
        ),
        ["5", "7", "2", "0.2857", "2", "4", "0.5714", "1", "1", "0", "0"]
    );
    let left_out = ["hosts_unresolved", "hosts_5xx"];
    for query in [
        "agents_ai_named_share.sql",
        "agents_ai_training_blocking.sql",
        "agents_full_block_share_by_domain.sql",
        "agents_named_full_block.sql",
        "agents_selective_policies.sql",
        "agents_singled_out.sql",
    ] {
        assert_eq!(row(query, "crawl", "C", &left_out), ["0", "2"], "{query}");
    }
    let split = [
        "hosts_2xx",
        "hosts_2xx_html",
        "hosts_2xx_empty",
        "hosts_2xx_binary",
    ];
    for query in [
        "agents_ai_named_share.sql",
        "agents_ai_training_blocking.sql",
        "agents_blocking_by_category.sql",
        "agents_selective_policies.sql",
    ] {
        assert_eq!(
            row(query, "crawl", "C", &split),
            ["5", "1", "1", "0"],
            "{query}"
        );
    }
}

/// `pages_on_blocking_hosts.sql` weighs hosts by their pages: distinct 2xx HTML URLs (a URL
/// captured twice counts once) and their bytes, over the pages whose host has a robots.txt
/// capture in the crawl; pages of a host without one are counted apart.
#[test]
fn pages_and_bytes_on_blocking_hosts_count_each_url_once_and_uncovered_hosts_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("p.warc"), dir.path().join("out"));
    let page = format!(
        "<html><head><title>x</title></head><body>{}</body></html>",
        "x".repeat(1000)
    );
    let big = format!(
        "<html><head><title>y</title></head><body>{}</body></html>",
        "y".repeat(3000)
    );
    pages_crawl(&input, &page, &big, false);
    scan_as(&input, "C", &out);
    // Every response but the robots.txt captures is a row of `pages`.
    assert_eq!(
        common::duck_value(&out, "SELECT count(*) FROM 'pages/*/*.parquet'"),
        "8"
    );
    let sql = format!(
        ".read {}",
        repo().join("queries/pages_on_blocking_hosts.sql").display()
    );
    let all = duck(&out, &sql);
    let mut lines = all.lines().map(csv_fields);
    let header = lines.next().unwrap();
    let gptbot = lines.find(|l| l[1] == "GPTBot").expect("GPTBot row");
    let got: Vec<(&str, &str)> = header
        .iter()
        .map(String::as_str)
        .zip(gptbot.iter().map(String::as_str))
        .collect();
    let (small, large) = (page.len() as u64, big.len() as u64);
    let covered = (3 * small + large).to_string();
    let blocking = (2 * small).to_string();
    let want = [
        ("crawl", "C"),
        ("agent", "GPTBot"),
        ("agent_category", "ai_training"),
        ("share_urls", "0.5"),
        ("share_bytes", got[4].1),
        ("urls_covered", "4"),
        ("bytes_covered", covered.as_str()),
        ("urls_blocking", "2"),
        ("bytes_blocking", blocking.as_str()),
    ];
    assert_eq!(&got[..want.len()], &want[..], "{all}");
    let rest: Vec<&str> = gptbot[9..].iter().map(String::as_str).collect();
    assert_eq!(rest, ["2", "1", "1", &small.to_string(), "1"], "{all}");
}

/// Scan `input` into `out` as crawl `crawl`; it must exit 0.
fn scan_as(input: &std::path::Path, crawl: &str, out: &std::path::Path) {
    let status = common::bin()
        .args(["scan", "--quiet", "--crawl", crawl, "--out"])
        .arg(out)
        .arg(input)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0), "scan of {}", input.display());
}

/// The fields of a line of DuckDB's CSV output (a field with a comma is in double quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// A robots.txt-only crawl scanned without a problem has no `errors`, `page_signals`,
/// `acap_fields` or `host_counts` part; every bundled query still answers (with no rows where
/// its table is empty) instead of failing on a pattern that matches no file, and a table's
/// schema file names no crawl.
#[test]
fn every_query_answers_on_a_folder_whose_tables_have_no_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("r.warc"), dir.path().join("out"));
    robots_warc(
        &input,
        "2025-01-01T00:00:00Z",
        &[("h1.example", "User-agent: GPTBot\nDisallow: /\n")],
    );
    let status = common::bin()
        .args(["scan", "--quiet", "--out"])
        .arg(&out)
        .arg(&input)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    for table in ["errors", "page_signals", "acap_fields"] {
        let parts = common::table_rows(&out, table, &[]);
        assert!(parts.is_empty(), "{table} has rows: {parts:?}");
    }
    for q in queries() {
        let answer = duck(&out, &format!(".read {}", q.display()));
        assert!(!answer.is_empty(), "{} gave no header", q.display());
    }
    let errors = duck(
        &out,
        &format!(
            ".read {}",
            repo().join("queries/errors_by_input.sql").display()
        ),
    );
    assert_eq!(errors.lines().count(), 1, "{errors}");
    assert_eq!(
        duck_value(
            &out,
            "SELECT count(DISTINCT crawl) FROM read_parquet('robots_files/*/*.parquet', \
             hive_partitioning = true)"
        ),
        "1"
    );
}

/// `pages_disallowed.sql`: a page counts once per URL (its latest capture), disallowed by the
/// rules that match its own URL, pages of hosts with an unreachable robots.txt and of hosts
/// without one apart.
#[test]
fn pages_disallowed_counts_each_url_once_by_the_rules_matching_its_own_url() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("p.warc"), dir.path().join("out"));
    let page = format!("<html><body>{}</body></html>", "x".repeat(1000));
    pages_crawl(&input, &page, &page, true);
    scan_as(&input, "C", &out);
    let sql = format!(
        ".read {}",
        repo().join("queries/pages_disallowed.sql").display()
    );
    let all = duck(&out, &sql);
    let mut lines = all.lines().map(csv_fields);
    let header = lines.next().unwrap();
    let rows: Vec<Vec<String>> = lines.collect();
    let row = |agent: &str| -> Vec<(String, String)> {
        let r = rows.iter().find(|l| l[1] == agent).expect("agent row");
        header.iter().cloned().zip(r.iter().cloned()).collect()
    };
    let bytes = page.len();
    let get = |r: &[(String, String)], c: &str| r.iter().find(|f| f.0 == c).unwrap().1.clone();
    let gptbot = row("GPTBot");
    let want = [
        ("urls_resolved", "5".to_string()),
        ("bytes_resolved", (5 * bytes).to_string()),
        ("urls_disallowed", "3".into()),
        ("bytes_disallowed", (3 * bytes).to_string()),
        ("share_urls", "0.6".into()),
        ("urls_unreachable", "1".into()),
        ("urls_disallowed_rfc9309", "4".into()),
        ("urls_disallowed_documented", "3".into()),
        ("urls_unresolved", "0".into()),
        ("urls_uncovered", "1".into()),
        ("bytes_uncovered", bytes.to_string()),
    ];
    for (c, v) in &want {
        assert_eq!(&get(&gptbot, c), v, "GPTBot {c}:\n{all}");
    }
    // CCBot is not named by a.example: only b.example's `*` rule disallows /p/x.
    assert_eq!(get(&row("CCBot"), "urls_disallowed"), "1", "{all}");
    // Per host: every response, each URL once, the bytes of each 2xx HTML URL once.
    let sql = format!(
        ".read {}",
        repo().join("queries/pages_by_host.sql").display()
    );
    let by_host = duck(&out, &sql);
    let want = format!(
        "C,a.example,a.example,0.333333,3,2,2,{},ok\n\
         C,b.example,b.example,0.333333,4,4,2,{},ok\n\
         C,c.example,c.example,0.166667,1,1,1,{bytes},NULL\n\
         C,d.example,d.example,0.166667,1,1,1,{bytes},server_error\n",
        2 * bytes,
        2 * bytes
    );
    assert_eq!(
        by_host.lines().skip(1).collect::<Vec<_>>().join("\n") + "\n",
        want
    );
}

/// `robots_accidental_blocks.sql`: `*` joined to an AI group by a line that ends no group, and
/// `*` written into a group with AI agents, each host once, Googlebot's full block counted.
#[test]
fn accidental_blocks_count_wildcards_joined_to_ai_groups_and_the_googlebot_they_block() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("r.warc"), dir.path().join("out"));
    robots_warc(
        &input,
        "2025-01-01T00:00:00Z",
        &[
            (
                "sitemap.example",
                "User-agent: *\nSitemap: /s.xml\n\nUser-agent: GPTBot\nDisallow: /\n",
            ),
            (
                "delay.example",
                "User-agent: *\nCrawl-delay: 5\nUser-agent: CCBot\nDisallow: /x\n",
            ),
            (
                "shared.example",
                "User-agent: GPTBot\nUser-agent: *\nDisallow: /private\n",
            ),
            (
                "fine.example",
                "User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /\n",
            ),
        ],
    );
    scan_as(&input, "C", &out);
    let sql = format!(
        ".read {}",
        repo()
            .join("queries/robots_accidental_blocks.sql")
            .display()
    );
    let got = duck(&out, &sql);
    assert_eq!(
        got.lines().nth(1).unwrap(),
        // share, hosts_2xx, with_ai, wildcard_split, blocking Googlebot, split by blank, comment,
        // sitemap, crawl_delay, other
        "C,0.75,4,3,2,1,0,0,1,1,0",
        "{got}"
    );
}

/// Cloudflare's managed robots.txt writes `use=reference` since 2026: counted as a signal like
/// `search` and `ai-train`, any case of the key.
#[test]
fn content_signal_use_key_is_counted_beside_search_and_ai_train() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("r.warc"), dir.path().join("out"));
    robots_warc(
        &input,
        "2026-01-01T00:00:00Z",
        &[
            (
                "a.example",
                "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n",
            ),
            (
                "b.example",
                "User-agent: *\ncontent-signal: USE=Full\nDisallow: /x\n",
            ),
        ],
    );
    scan_as(&input, "C", &out);
    let sql = format!(
        ".read {}",
        repo()
            .join("queries/robots_content_signal_values.sql")
            .display()
    );
    let got = duck(&out, &sql);
    for line in [
        "C,use,reference,0.5,1",
        "C,use,full,0.5,1",
        "C,ai-train,no,0.5,1",
    ] {
        assert!(got.lines().any(|l| l == line), "{line} in\n{got}");
    }
}

/// The page crawl of the page queries' tests: a.example's robots.txt disallows everything for
/// GPTBot, b.example's `/p` for everyone; a.example/1 captured twice; a 404 and a JSON response;
/// c.example without a robots.txt; with `down_host`, d.example's robots.txt answers 503. Every
/// page's body is `page` but b.example's home page's, `b_home`.
fn pages_crawl(input: &Path, page: &str, b_home: &str, down_host: bool) {
    let (text, html) = ("text/plain", "text/html");
    let mut responses = vec![
        (
            "http://a.example/robots.txt",
            "200 OK",
            text,
            "User-agent: GPTBot\nDisallow: /\n",
        ),
        (
            "http://b.example/robots.txt",
            "200 OK",
            text,
            "User-agent: *\nDisallow: /p\n",
        ),
        ("http://a.example/", "200 OK", html, page),
        ("http://a.example/1", "200 OK", html, page),
        ("http://a.example/1", "200 OK", html, page),
        ("http://b.example/", "200 OK", html, b_home),
        ("http://b.example/p/x", "200 OK", html, page),
        ("http://b.example/gone", "404 Not Found", html, page),
        (
            "http://b.example/data.json",
            "200 OK",
            "application/json",
            "{}",
        ),
        ("http://c.example/", "200 OK", html, page),
    ];
    if down_host {
        responses.insert(
            2,
            (
                "http://d.example/robots.txt",
                "503 Service Unavailable",
                text,
                "",
            ),
        );
        responses.push(("http://d.example/", "200 OK", html, page));
    }
    common::responses_warc(input, "2025-01-01T00:00:00Z", &responses);
}

/// Issue 58, point 5: the changes follow the report's collection rule. A crawl of another kind
/// dated between two crawls of one collection is compared with neither, nor are the inputs
/// that named no crawl; each crawl left out has a row saying why.
#[test]
fn changes_compare_only_crawls_of_one_collection_and_name_the_ones_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let blocked = "User-agent: GPTBot\nDisallow: /\n";
    let open = "User-agent: *\nDisallow:\n";
    for (crawl, date, body) in [
        ("CC-MAIN-2025-05", "2025-01-20T00:00:00Z", open),
        ("archive-x", "2025-02-20T00:00:00Z", blocked),
        ("CC-MAIN-2025-13", "2025-03-20T00:00:00Z", blocked),
        ("unknown", "2025-04-20T00:00:00Z", open),
    ] {
        let input = dir.path().join(format!("{crawl}.warc"));
        robots_warc(&input, date, &[("h1.example", body), ("h2.example", open)]);
        scan_as(&input, crawl, &out);
    }
    let q = repo().join("queries/agents_blocking_change.sql");
    let rows = duck(
        &out,
        &format!(
            "SELECT from_crawl, to_crawl, blocking_before, blocking_after, left_out FROM ({}) \
             WHERE agent = 'GPTBot' OR agent IS NULL ORDER BY left_out IS NOT NULL, to_crawl",
            std::fs::read_to_string(&q)
                .unwrap()
                .trim()
                .trim_end_matches(';')
        ),
    );
    assert_eq!(
        rows,
        "from_crawl,to_crawl,blocking_before,blocking_after,left_out\n\
         CC-MAIN-2025-05,CC-MAIN-2025-13,0,1,NULL\n\
         NULL,CC-MAIN-2025-05,NULL,NULL,\"the first crawl of its collection, or none of its hosts was 2xx in both\"\n\
         NULL,archive-x,NULL,NULL,no other crawl of its collection (names differing only in their digits)\n\
         NULL,unknown,NULL,NULL,its inputs named no crawl: compared with none\n"
    );
}

/// The bundled queries name the 2xx set and the denominator block through the macros of
/// queries/views/vocabulary.sql, defined there once. A query that uses one starts with that
/// file's statements, copied as they are, so that it still runs alone in a bare DuckDB (as
/// `every_query_answers_as_expected` runs it); REPCENSUS_BLESS=1 rewrites the copies after a
/// change to the vocabulary.
#[test]
fn every_query_using_the_vocabulary_carries_it_as_vocabulary_sql_defines_it() {
    let vocabulary = std::fs::read_to_string(repo().join("queries/views/vocabulary.sql")).unwrap();
    let statements = &vocabulary[vocabulary
        .find(common::MACRO)
        .expect("vocabulary.sql has macros")..];
    let macros: Vec<&str> = (statements.split(common::MACRO).skip(1))
        .map(|s| s.split('(').next().unwrap())
        .collect();
    assert_eq!(macros, ["is_2xx", "hosts_where", "robots_denominators"]);
    let bless = std::env::var_os("REPCENSUS_BLESS").is_some();
    let (mut users, mut stale) = (0, Vec::new());
    for q in queries() {
        let sql = std::fs::read_to_string(&q).unwrap();
        let (before, copy, after) = common::vocabulary_copy(&sql);
        let uses = macros
            .iter()
            .any(|m| before.contains(&format!("{m}(")) || after.contains(&format!("{m}(")));
        let name = q.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            copy.is_empty() || uses,
            "{name} copies the vocabulary but uses none of it"
        );
        if !uses {
            continue;
        }
        users += 1;
        assert!(!copy.is_empty(), "{name} uses the vocabulary without defining it: copy the statements of queries/views/vocabulary.sql before its own");
        if copy != statements {
            if bless {
                std::fs::write(&q, format!("{before}{statements}{after}")).unwrap();
            } else {
                stale.push(name);
            }
        }
    }
    assert!(
        users >= 15,
        "the queries using the vocabulary are found ({users})"
    );
    assert!(
        stale.is_empty(),
        "these queries' copies of queries/views/vocabulary.sql differ from it (REPCENSUS_BLESS=1 rewrites them): {stale:?}"
    );
}

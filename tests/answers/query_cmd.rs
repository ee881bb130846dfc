//! `repcensus query` and `repcensus views` from outside the output folder: every bundled query
//! gives the answer it gives inside the folder in a bare DuckDB (tests/expected/queries), in the
//! DuckDB command and in the Python module; `--crawl`, `--list`, `--sql`, own SQL files, and a
//! clear word when the folder cannot answer.

use crate::common;

use common::sample_tables;

use common::{assert_ok, duck, duckdb, repo};
use std::path::Path;
use std::process::Output;

/// `repcensus query ARGS` run from `cwd` with the DuckDB command as its engine.
fn query_in(cwd: &Path, args: &[&str]) -> Output {
    common::bin()
        .current_dir(cwd)
        .env("REPCENSUS_DUCKDB", duckdb())
        .arg("query")
        .args(args)
        .output()
        .unwrap()
}

fn names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("queries"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_bundled_query_answers_from_another_folder_as_inside_it() {
    let out = sample_tables();
    let elsewhere = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for name in names() {
        // Parquet keeps the types; the DuckDB command then prints the values as the expected
        // answers print them (a HUGEINT sum would come back as a DOUBLE: "2.0").
        let answer = elsewhere.path().join(format!("{name}.parquet"));
        let done = query_in(
            elsewhere.path(),
            &[
                &name,
                out.to_str().unwrap(),
                "-o",
                &format!("{name}.parquet"),
            ],
        );
        if !done.status.success() {
            failures.push(format!("{name}: {}", String::from_utf8_lossy(&done.stderr)));
            continue;
        }
        let got = duck(elsewhere.path(), &format!("FROM '{}'", answer.display()));
        let expected =
            std::fs::read_to_string(repo().join(format!("tests/expected/queries/{name}.csv")))
                .unwrap();
        if got != expected {
            failures.push(format!(
                "{name}:\n--- inside the folder\n{expected}--- repcensus query\n{got}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_python_module_engine_answers_as_the_duckdb_command() {
    let out = sample_tables();
    let module = common::python_tool("duckdb_py", &["duckdb==2.0.1"], "duckdb/__init__.py");
    for name in [
        "agents_full_block_share",
        "robots_key_forms",
        "signals_header_non_html",
    ] {
        let by_cli = query_in(out, &[name, ".", "--format", "csv"]);
        assert_ok(&by_cli);
        let by_python = common::bin()
            .current_dir(out)
            .env_remove("REPCENSUS_DUCKDB")
            .env("REPCENSUS_PYTHON", "python3")
            .env("PYTHONPATH", &module)
            .args(["query", name, ".", "--format", "csv"])
            .output()
            .unwrap();
        assert_ok(&by_python);
        assert_eq!(
            String::from_utf8_lossy(&by_cli.stdout),
            String::from_utf8_lossy(&by_python.stdout),
            "{name}"
        );
        assert!(by_cli.stdout.len() > 100, "{name}");
    }
}

#[test]
fn a_crawl_named_reads_only_that_crawls_rows() {
    let out = sample_tables().to_str().unwrap();
    let here = repo();
    let all = query_in(&here, &["robots_fetch_outcomes", out, "--format", "csv"]);
    let one = query_in(
        &here,
        &[
            "robots_fetch_outcomes",
            out,
            "--format",
            "csv",
            "--crawl",
            "archive.org-shallow",
        ],
    );
    assert_ok(&all);
    assert_ok(&one);
    let all = String::from_utf8(all.stdout).unwrap();
    let one = String::from_utf8(one.stdout).unwrap();
    let mut lines = all.lines();
    let header = lines.next().unwrap();
    let expected: Vec<&str> = std::iter::once(header)
        .chain(lines.filter(|l| l.starts_with("archive.org-shallow,")))
        .collect();
    assert!(expected.len() > 2, "{all}");
    assert_eq!(one.lines().collect::<Vec<_>>(), expected);
    // A crawl the folder has not is said, not answered with nothing.
    let none = query_in(
        &here,
        &["robots_fetch_outcomes", out, "--crawl", "CC-MAIN-1999-01"],
    );
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no crawl \"CC-MAIN-1999-01\""));
}

#[test]
fn the_list_gives_every_bundled_query_with_its_question_and_sql_its_text() {
    let list = query_in(&repo(), &["--list"]);
    assert_ok(&list);
    let list = String::from_utf8(list.stdout).unwrap();
    let listed: Vec<&str> = list
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(listed, names());
    assert!(list.lines().all(|l| l.trim_end().ends_with('?')), "{list}");
    let sql = query_in(&repo(), &["agents_full_block_share", "--sql"]);
    assert_ok(&sql);
    assert_eq!(
        String::from_utf8(sql.stdout).unwrap(),
        std::fs::read_to_string(repo().join("queries/agents_full_block_share.sql")).unwrap()
    );
}

/// A query too large for DuckDB's memory spills under the system's temporary folder, removed
/// after, never into the folder the analyst asks from (DuckDB's default, `.tmp` there, is left
/// behind whole when the query is killed). Watched while it runs: DuckDB removes its spill
/// files when it ends normally.
#[test]
fn a_query_that_spills_does_so_under_the_temporary_folder_not_where_it_is_asked_from() {
    let out = sample_tables();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("big.sql"),
        "SET memory_limit = '40MB';\nSET threads = 1;\nSET preserve_insertion_order = false;\n\
         SELECT sum(hash(h, rn)) > 0 AS ok FROM (SELECT h, row_number() OVER (ORDER BY h) AS rn \
         FROM (SELECT md5(i::VARCHAR) AS h FROM range(3000000) t(i)));\n",
    )
    .unwrap();
    let spills = || -> Vec<String> {
        (std::fs::read_dir(std::env::temp_dir()).unwrap())
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("repcensus-query-spill-"))
            .collect()
    };
    let before = spills();
    let mut child = common::bin()
        .current_dir(dir.path())
        .env("REPCENSUS_DUCKDB", duckdb())
        .args(["query", "big.sql", out.to_str().unwrap(), "--format", "csv"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (mut spilled_here, mut spilled_there) = (false, false);
    let status = loop {
        spilled_here |= dir.path().join(".tmp").exists();
        spilled_there |= spills().iter().any(|s| !before.contains(s));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    assert!(status.success());
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut answer).unwrap();
    assert_eq!(answer, "ok\ntrue\n");
    assert!(
        spilled_there && !spilled_here,
        "{spilled_there} {spilled_here}"
    );
    let left: Vec<String> = (std::fs::read_dir(dir.path()).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["big.sql"]);
    assert!(spills().iter().all(|s| before.contains(s)));
}

#[test]
fn own_sql_files_see_every_table_and_agent_verdicts_by_name() {
    let out = sample_tables();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.sql");
    std::fs::write(
        &file,
        "-- my question\nSELECT (SELECT count(*) FROM robots_files) AS files,\n\
         (SELECT count(*) FROM agent_verdicts WHERE agent = getvariable('agent')) AS verdicts;\n",
    )
    .unwrap();
    let got = query_in(
        dir.path(),
        &[
            "mine.sql",
            out.to_str().unwrap(),
            "--format",
            "csv",
            "--param",
            "agent=GPTBot",
        ],
    );
    assert_ok(&got);
    let files = common::duck_value(out, "SELECT count(*) FROM 'robots_files/*/*.parquet'");
    let verdicts = common::duck_value(
        out,
        &common::with_verdicts_view("SELECT count(*) FROM agent_verdicts WHERE agent = 'GPTBot'"),
    );
    assert_eq!(
        String::from_utf8(got.stdout).unwrap(),
        format!("files,verdicts\n{files},{verdicts}\n")
    );

    // `repcensus views` gives the same views to a DuckDB started anywhere.
    let views = common::bin().arg("views").arg(out).output().unwrap();
    assert_ok(&views);
    let sql = format!(
        "{}SELECT count(*) FROM robots_files;",
        String::from_utf8(views.stdout).unwrap()
    );
    assert_eq!(common::duck_value(dir.path(), &sql), files);
}

/// A SQL file of one's own, and a DuckDB given `repcensus views`, can say `is_2xx(...)` and
/// the denominator block as the bundled queries do (queries/views/vocabulary.sql).
#[test]
fn own_sql_files_and_views_have_the_vocabulary_of_the_bundled_queries() {
    let out = sample_tables();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.sql");
    let own = "SELECT crawl, unnest(robots_denominators(hosts, fetch_outcome, resolution)), \
               hosts_where(hosts, NOT is_2xx(fetch_outcome)) AS other \
               FROM summary_robots_hosts GROUP BY crawl ORDER BY crawl";
    std::fs::write(&file, format!("{own};\n")).unwrap();
    let got = query_in(
        dir.path(),
        &["mine.sql", out.to_str().unwrap(), "--format", "csv"],
    );
    assert_ok(&got);
    let got = String::from_utf8(got.stdout).unwrap();
    // The same figures written out by hand, in a bare DuckDB.
    let by_hand = common::duck(
        out,
        "SELECT crawl, \
            coalesce(sum(hosts) FILTER (fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', \
                'not_robots_binary')), 0)::BIGINT AS hosts_2xx, \
            coalesce(sum(hosts) FILTER (fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', \
                'not_robots_binary') AND resolution = 'resolved'), 0)::BIGINT AS hosts_resolved, \
            coalesce(sum(hosts) FILTER (fetch_outcome = 'ok_empty'), 0)::BIGINT AS hosts_2xx_empty, \
            coalesce(sum(hosts) FILTER (fetch_outcome = 'not_robots_html'), 0)::BIGINT \
                AS hosts_2xx_html, \
            coalesce(sum(hosts) FILTER (fetch_outcome = 'not_robots_binary'), 0)::BIGINT \
                AS hosts_2xx_binary, \
            coalesce(sum(hosts) FILTER (resolution NOT IN ('direct', 'resolved')), 0)::BIGINT \
                AS hosts_unresolved, \
            coalesce(sum(hosts) FILTER (fetch_outcome = 'server_error'), 0)::BIGINT AS hosts_5xx, \
            coalesce(sum(hosts) FILTER (fetch_outcome NOT IN ('ok', 'ok_empty', \
                'not_robots_html', 'not_robots_binary')), 0)::BIGINT AS other \
         FROM 'summary_robots_hosts/*/*.parquet' GROUP BY crawl ORDER BY crawl",
    );
    assert_eq!(got, by_hand);
    assert!(got.lines().count() >= 3, "{got}");
    // `repcensus views` (what Python's repcensus.connect runs) gives them too.
    let views = common::bin().arg("views").arg(out).output().unwrap();
    assert_ok(&views);
    let views = String::from_utf8(views.stdout).unwrap();
    let bare = std::process::Command::new(duckdb())
        .current_dir(dir.path())
        .args(["-csv", "-c", &format!("{views}{own};")])
        .output()
        .unwrap();
    assert_ok(&bare);
    assert_eq!(String::from_utf8(bare.stdout).unwrap(), by_hand);
}

/// A bundled view's file (`agent_verdicts`, `vocabulary`) answers nothing: asked as a question it
/// is refused in one line that says where it serves, and `--sql` prints it.
#[test]
fn a_bundled_view_asked_as_a_question_says_where_it_serves() {
    let out = sample_tables();
    for name in ["vocabulary", "agent_verdicts"] {
        let got = query_in(out, &[name, ".", "--format", "csv"]);
        assert_eq!(got.status.code(), Some(2), "{name}");
        let err = String::from_utf8(got.stderr).unwrap();
        assert!(err.contains(&format!("{name} is a bundled view")), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let printed = query_in(out, &["--sql", name]);
        assert_ok(&printed);
        let text = std::fs::read_to_string(repo().join(format!("queries/views/{name}.sql")));
        assert_eq!(String::from_utf8(printed.stdout).unwrap(), text.unwrap());
    }
}

#[test]
fn a_folder_that_cannot_answer_says_why_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let here = dir.path().to_str().unwrap();
    let not_out = query_in(dir.path(), &["read_summary", here]);
    assert_eq!(not_out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&not_out.stderr);
    assert!(said.contains("is not a scan's output folder"), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");

    // A shard's folder has no summaries until `repcensus hosts`.
    let shard = dir.path().join("shard");
    let status = common::bin()
        .current_dir(repo())
        .args([
            "scan",
            "--quiet",
            "samples/verdict-cases.warc.gz",
            "--shard",
            "0/1",
            "--out",
        ])
        .arg(&shard)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let no_summary = query_in(dir.path(), &["agents_full_block_share", "shard"]);
    assert_eq!(no_summary.status.code(), Some(2));
    let said = String::from_utf8_lossy(&no_summary.stderr);
    assert!(
        said.contains("no table summary_agents") && said.contains("repcensus hosts shard"),
        "{said}"
    );

    // SQL DuckDB refuses: exit 1, DuckDB's own message.
    let bad = dir.path().join("bad.sql");
    std::fs::write(&bad, "SELECT no_such_column FROM robots_files;").unwrap();
    let failed = query_in(dir.path(), &["bad.sql", "shard"]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("no_such_column"));
}

/// The README's table of questions has a line per bundled query, with the question its header
/// asks, and no other.
#[test]
fn the_readme_table_lists_every_bundled_question() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let list = query_in(&repo(), &["--list"]);
    assert_ok(&list);
    let mut listed = Vec::new();
    for line in String::from_utf8(list.stdout).unwrap().lines() {
        let (name, question) = line.split_once(' ').unwrap();
        let question = question.trim();
        let mut chars = question.chars();
        let first = chars.next().unwrap().to_uppercase().collect::<String>();
        let row = format!("| {first}{} | `{name}` |", chars.as_str());
        assert!(readme.contains(&row), "README lacks the row {row}");
        listed.push(name.to_string());
    }
    let rows = (readme.lines())
        .filter(|l| l.starts_with("| ") && l.ends_with("` |") && !l.starts_with("| question |"))
        .count();
    assert_eq!(rows, listed.len(), "the README's table has other rows");
}

/// A summary with nothing to count has no part for a crawl (no ACAP line anywhere): the
/// question is answered, with no row, not refused as if the folder were a shard's.
#[test]
fn a_summary_with_nothing_to_count_is_answered_not_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let status = common::bin()
        .current_dir(repo())
        .args(["scan", "--quiet", "samples/verdict-cases.warc.gz", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(!std::fs::read_dir(out.join("summary_acap_fields"))
        .unwrap()
        .any(|e| e.unwrap().file_name() != "crawl=_schema"));
    let got = query_in(dir.path(), &["robots_acap_usage", "out", "--format", "csv"]);
    assert_ok(&got);
    assert_eq!(String::from_utf8(got.stdout).unwrap().lines().count(), 1);
}

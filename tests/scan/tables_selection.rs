//! `scan --tables`: the selected tables are exactly a full run's, the others are neither written
//! nor touched, and `--resume` redoes an input whose earlier run did not write a table it wants.

use crate::common;

use common::{read_summary, repo, scan, table_rows, TABLES, TIMING};
use std::path::Path;

fn run(out: &Path, extra: &[&str]) -> serde_json::Value {
    let summary = out.with_extension("json");
    let samples = repo().join("samples");
    let mut args = vec![
        samples.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, stderr) = scan(&args);
    assert_eq!(code, 0, "{stderr}");
    read_summary(&summary)
}

/// The tables with parts under `out`.
fn table_dirs(out: &Path) -> Vec<String> {
    let mut d: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir() && !common::walk(&e.path()).is_empty())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    d.sort();
    d
}

/// One column of every `inputs` row, as text, sorted by path.
fn inputs_column(out: &Path, column: &str) -> Vec<String> {
    table_rows(out, "inputs", TIMING)
        .iter()
        .map(|r| {
            r.split('|')
                .find_map(|f| f.strip_prefix(&format!("{column}=")))
                .unwrap_or_else(|| panic!("no {column} in {r}"))
                .to_string()
        })
        .collect()
}

#[test]
fn selected_tables_match_a_full_run_and_the_rest_are_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    run(&full, &[]);

    let robots = dir.path().join("robots");
    let s = run(&robots, &["--tables", "robots_files"]);
    // robots_hosts, summary_robots_hosts and summary_robots_outcomes are derived from
    // robots_files at the end of the run, summary_errors from the errors every scan writes;
    // the summaries of lines and verdicts need tables not written.
    assert_eq!(
        table_dirs(&robots),
        [
            "errors",
            "inputs",
            "robots_files",
            "robots_hosts",
            "summary_errors",
            "summary_robots_hosts",
            "summary_robots_outcomes"
        ]
    );
    for table in [
        "robots_files",
        "summary_robots_hosts",
        "summary_robots_outcomes",
    ] {
        assert_eq!(
            table_rows(&robots, table, &[]),
            table_rows(&full, table, &[])
        );
    }
    // robots_hosts too, but for the agent sets: the agents a capture blocks or names come
    // from the verdicts, which this run did not write.
    const SETS: [&str; 5] = [
        "block_set",
        "full_block_by_name_set",
        "own_group_root_set",
        "named_set",
        "rfc9309_root_set",
    ];
    assert_eq!(
        table_rows(&robots, "robots_hosts", &SETS),
        table_rows(&full, "robots_hosts", &SETS)
    );
    assert!(table_rows(&robots, "robots_hosts", &[])
        .iter()
        .all(|r| SETS.iter().all(|c| r.contains(&format!("|{c}=NULL")))));
    assert!(!table_rows(&robots, "robots_files", &[]).is_empty());
    // Errors come from the work done: every one is also a full run's (a head scan that ran past
    // its limit is not seen when no head is scanned).
    let all_errors = table_rows(&full, "errors", &[]);
    let errors = table_rows(&robots, "errors", &[]);
    assert!(!errors.is_empty());
    for e in &errors {
        assert!(all_errors.contains(e), "{e}");
    }
    assert!(errors.len() < all_errors.len());
    assert_eq!(
        s["rows"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["errors", "inputs", "robots_files"]
    );
    // Counts of tables not written are NULL; the rest are the full run's.
    assert!(inputs_column(&robots, "rows_agent_verdicts")
        .iter()
        .all(|v| v == "NULL"));
    assert!(inputs_column(&robots, "rows_page_signals")
        .iter()
        .all(|v| v == "NULL"));
    assert_eq!(
        inputs_column(&robots, "rows_robots_files"),
        inputs_column(&full, "rows_robots_files")
    );
    assert_eq!(
        inputs_column(&robots, "records"),
        inputs_column(&full, "records")
    );

    let pages = dir.path().join("pages");
    run(&pages, &["--tables", "page_signals,host_counts"]);
    // The page summaries are derived from page_signals at the end of the run (and
    // summary_errors from errors).
    assert_eq!(
        table_dirs(&pages),
        [
            "errors",
            "host_counts",
            "inputs",
            "page_signals",
            "summary_errors",
            "summary_page_conflicts",
            "summary_page_directives",
            "summary_page_header_types",
            "summary_page_headers"
        ]
    );
    for t in [
        "page_signals",
        "host_counts",
        "summary_page_directives",
        "summary_page_headers",
    ] {
        assert_eq!(table_rows(&pages, t, &[]), table_rows(&full, t, &[]), "{t}");
    }

    // `pages` alone: the same rows, and no page signals.
    let only_pages = dir.path().join("only_pages");
    run(&only_pages, &["--tables", "pages"]);
    assert_eq!(table_dirs(&only_pages), ["errors", "inputs", "pages"]);
    assert_eq!(
        table_rows(&only_pages, "pages", &[]),
        table_rows(&full, "pages", &[])
    );

    // `agent_verdicts`, written only on request, is the same whatever else is written.
    let verdicts = dir.path().join("verdicts");
    run(&verdicts, &["--tables", "agent_verdicts,robots_rules"]);
    let every = dir.path().join("every");
    run(&every, &["--tables", "all"]);
    assert!(table_rows(&full, "agent_verdicts", &[]).is_empty());
    for t in ["agent_verdicts", "robots_rules"] {
        assert_eq!(
            table_rows(&verdicts, t, &[]),
            table_rows(&every, t, &[]),
            "{t}"
        );
    }
    assert!(table_rows(&verdicts, "robots_files", &[]).is_empty());

    // The line tables alone (no body columns, digest or verdicts are made for them).
    let lines = dir.path().join("lines");
    let line_tables = [
        "robots_agents",
        "robots_rules",
        "app_directives",
        "acap_fields",
    ];
    run(&lines, &["--tables", &line_tables.join(",")]);
    for t in line_tables {
        let rows = table_rows(&lines, t, &[]);
        assert!(!rows.is_empty(), "{t}");
        assert_eq!(rows, table_rows(&full, t, &[]), "{t}");
    }
}

#[test]
fn tables_not_selected_keep_their_parts_and_resume_wants_the_selected_ones() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    let first = run(&full, &[]);
    let n_inputs = first["inputs"].as_u64().unwrap();

    // A narrower run into the same folder rewrites its tables (`errors` and `inputs` always) and
    // leaves the others alone.
    let out = dir.path().join("out");
    run(&out, &[]);
    run(&out, &["--tables", "robots_files"]);
    let only = dir.path().join("only");
    run(&only, &["--tables", "robots_files"]);
    for t in TABLES {
        let want = if *t == "errors" { &only } else { &full };
        assert_eq!(table_rows(&out, t, &[]), table_rows(want, t, &[]), "{t}");
    }

    // Resuming a narrow run's folder with every table redoes every input (the earlier run wrote
    // no `agent_verdicts`, ...) and ends with a full run's tables.
    let narrow = dir.path().join("narrow");
    run(&narrow, &["--tables", "robots_files"]);
    let s = run(&narrow, &["--resume"]);
    assert_eq!(s["inputs_resumed"], 0);
    for t in TABLES {
        assert_eq!(
            table_rows(&narrow, t, &[]),
            table_rows(&full, t, &[]),
            "{t}"
        );
    }
    assert_eq!(
        table_rows(&narrow, "inputs", TIMING),
        table_rows(&full, "inputs", TIMING)
    );

    // A narrow run resumed over a full one's folder finds every input done.
    let s = run(&narrow, &["--resume", "--tables", "robots_files"]);
    assert_eq!(s["inputs_resumed"].as_u64(), Some(n_inputs));
}

#[test]
fn unknown_table_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let out = dir.path().join("out");
    let (code, stderr) = scan(&[
        samples.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--tables",
        "robots_files,verdicts",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown table `verdicts`"), "{stderr}");
    assert!(!out.join("robots_files").exists());
}

//! `queries/views/agent_verdicts.sql` makes, from the tables a scan writes by default, exactly
//! the rows of the `agent_verdicts` table a scan writes on request: compared row for row
//! (EXCEPT ALL both ways, through the DuckDB CLI) on the samples (their real archives among
//! them), on a generated archive of each kind, and after shards and `repcensus hosts`.

use crate::common;

use common::{assert_ok, bin, duck, duck_value, has_parts, repo, scan, with_verdicts_view};
use std::path::Path;

/// The view's rows missing from the table at `table` (an absolute path to a table folder), the
/// table's rows missing from the view, and the view's rows, with the view made in `out`.
fn compare(out: &Path, table: &Path) -> (String, String, String) {
    let table = format!(
        "read_parquet('{}/*/*.parquet', hive_partitioning = true)",
        table.display()
    );
    let sql = with_verdicts_view(&format!(
        "SELECT (SELECT count(*) FROM (SELECT * FROM agent_verdicts EXCEPT ALL SELECT * FROM {table})),\n\
                (SELECT count(*) FROM (SELECT * FROM {table} EXCEPT ALL SELECT * FROM agent_verdicts)),\n\
                (SELECT count(*) FROM agent_verdicts);"
    ));
    let row = duck(out, &sql);
    let row = row.lines().nth(1).unwrap_or_default().to_string();
    let mut v = row.split(',').map(str::to_string);
    (v.next().unwrap(), v.next().unwrap(), v.next().unwrap())
}

fn run_scan(inputs: &[&str], out: &Path, extra: &[&str]) {
    let mut args: Vec<&str> = inputs.to_vec();
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let (code, err) = scan(&args);
    assert_eq!(code, 0, "{err}");
}

/// A default scan of `inputs` and one that also writes `agent_verdicts`: the first has no
/// `agent_verdicts` part, and its view equals the second's table row for row.
fn assert_view_equals_table(inputs: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let (default, all) = (dir.path().join("default"), dir.path().join("all"));
    run_scan(inputs, &default, &[]);
    run_scan(inputs, &all, &["--tables", "default,agent_verdicts"]);
    assert!(has_parts(&all, "agent_verdicts"));
    // Not even the table's file with no rows: a query of the table fails ("No files found")
    // rather than answering that no capture has a verdict.
    assert!(!default.join("agent_verdicts").exists());
    let asked = std::process::Command::new(common::duckdb())
        .current_dir(&default)
        .args(["-c", "SELECT count(*) FROM 'agent_verdicts/*/*.parquet'"])
        .output()
        .unwrap();
    assert!(!asked.status.success());
    assert!(String::from_utf8_lossy(&asked.stderr).contains("No files found"));
    let (view_only, table_only, rows) = compare(&default, &all.join("agent_verdicts"));
    assert_eq!((view_only.as_str(), table_only.as_str()), ("0", "0"));
    assert_ne!(rows, "0");
    // The view over the folder that has the table too gives the same rows.
    let (view_only, table_only, _) = compare(&all, &all.join("agent_verdicts"));
    assert_eq!((view_only.as_str(), table_only.as_str()), ("0", "0"));
}

#[test]
fn the_agent_verdicts_view_equals_the_table_on_the_samples() {
    let samples = repo().join("samples");
    assert_view_equals_table(&[samples.to_str().unwrap()]);
}

#[test]
fn the_agent_verdicts_view_equals_the_table_on_generated_archives_of_each_kind() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = common::generated_archives(dir.path(), "2M");
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    assert_view_equals_table(&inputs);
}

/// Shards write no summaries; `repcensus hosts` does, and then the view of the shards' tables
/// equals the table of one full scan.
#[test]
fn the_agent_verdicts_view_after_shards_and_hosts_equals_one_full_scan() {
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let samples = samples.to_str().unwrap();
    let (sharded, full) = (dir.path().join("sharded"), dir.path().join("full"));
    for shard in ["0/2", "1/2"] {
        run_scan(&[samples], &sharded, &["--shard", shard]);
    }
    let before = duck_value(
        &sharded,
        &with_verdicts_view("SELECT count(*) FROM agent_verdicts;"),
    );
    assert_eq!(before, "0", "no summaries yet, so no rows");
    assert_ok(&bin().arg("hosts").arg(&sharded).output().unwrap());
    run_scan(&[samples], &full, &["--tables", "all"]);
    let (view_only, table_only, rows) = compare(&sharded, &full.join("agent_verdicts"));
    assert_eq!((view_only.as_str(), table_only.as_str()), ("0", "0"));
    assert_ne!(rows, "0");
}

//! Batch-job switches of `scan`: `--shard I/N` (the union of the shards equals one full run),
//! `--summary FILE` (agrees with the tables) and `--fail-on-error`.

mod common;

use common::{repo, scan, table_rows};

const TABLES: &[&str] = &[
    "robots_files",
    "robots_agents",
    "robots_rules",
    "app_directives",
    "acap_fields",
    "agent_verdicts",
    "page_signals",
    "host_counts",
    "errors",
];
/// Columns of `inputs` that differ between runs.
const TIMING: &[&str] = &["started", "seconds", "chunks"];

#[test]
fn three_shards_union_equals_the_full_run() {
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let samples = samples.to_str().unwrap();
    let full = dir.path().join("full");
    let (code, err) = scan(&[samples, "--out", full.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // Each shard into its own folder, and all three into one shared folder (as array jobs do).
    let shared = dir.path().join("shared");
    let mut shard_inputs = Vec::new();
    for i in 0..3 {
        let own = dir.path().join(format!("shard{i}"));
        let spec = format!("{i}/3");
        for out in [&own, &shared] {
            let (code, err) = scan(&[samples, "--shard", &spec, "--out", out.to_str().unwrap()]);
            assert_eq!(code, 0, "{err}");
        }
        let inputs = table_rows(&own, "inputs", TIMING);
        assert!(inputs.len() >= 7, "shard {i}: {} inputs", inputs.len());
        shard_inputs.push(inputs);
    }
    // The shards are disjoint and together hold every input.
    let mut union: Vec<String> = shard_inputs.concat();
    union.sort();
    let mut whole = table_rows(&full, "inputs", TIMING);
    whole.sort();
    assert_eq!(union, whole);
    for table in TABLES {
        let want = table_rows(&full, table, &[]);
        let mut got: Vec<String> = (0..3)
            .flat_map(|i| table_rows(&dir.path().join(format!("shard{i}")), table, &[]))
            .collect();
        got.sort();
        let mut want_sorted = want.clone();
        want_sorted.sort();
        assert_eq!(got, want_sorted, "{table}");
        let mut in_shared = table_rows(&shared, table, &[]);
        in_shared.sort();
        assert_eq!(in_shared, want_sorted, "{table} (shared folder)");
    }
}

#[test]
fn bad_shard_specs_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for spec in ["3/3", "1", "a/2", "0/0"] {
        let (code, err) = scan(&[
            repo().join("samples").to_str().unwrap(),
            "--shard",
            spec,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{spec}: {err}");
        assert!(err.contains("--shard"), "{spec}: {err}");
    }
}

#[test]
fn summary_json_agrees_with_the_tables_and_fail_on_error_exits_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let summary = dir.path().join("summary.json");
    let samples = repo().join("samples");
    let (code, err) = scan(&[
        samples.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(s["inputs"], 23);
    assert_eq!(s["schema_version"], repcensus::tables::SCHEMA_VERSION);
    for table in TABLES.iter().chain(&["inputs"]) {
        assert_eq!(
            s["rows"][table].as_u64().unwrap() as usize,
            table_rows(&out, table, &[]).len(),
            "{table}"
        );
    }
    let by_kind: u64 = s["errors_by_kind"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(by_kind, s["errors"].as_u64().unwrap());
    assert_eq!(by_kind as usize, table_rows(&out, "errors", &[]).len());
    assert!(s["records"].as_u64().unwrap() > 6000);
    assert!(s["seconds"].as_f64().unwrap() > 0.0);
    // The samples have errors rows (broken on purpose), so --fail-on-error exits 1.
    let (code, err) = scan(&[
        samples.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--fail-on-error",
    ]);
    assert_eq!(code, 1, "{err}");
    let (code, _) = scan(&[
        samples.join("verdict-cases.warc.gz").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--fail-on-error",
    ]);
    assert_eq!(code, 0);
}

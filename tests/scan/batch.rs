//! Batch-job switches of `scan`: `--shard I/N` (the union of the shards equals one full run),
//! `--summary FILE` (agrees with the tables) and `--fail-on-error`.

use crate::common;

use common::{assert_ok, read_summary, repo, scan, table_rows, TABLES, TIMING};

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
    let s: serde_json::Value = read_summary(&summary);
    assert_eq!(s["inputs"], 26);
    assert_eq!(s["schema_version"], repcensus::SCHEMA_VERSION);
    // robots_hosts, derived at the end: one row per site of each crawl, one of each host's
    // counting for the host.
    let count = |what: &str| -> u64 {
        (s["robots_hosts"]["crawls"].as_array().unwrap().iter())
            .map(|c| c[what].as_u64().unwrap())
            .sum()
    };
    assert_eq!(
        count("sites") as usize,
        table_rows(&out, "robots_hosts", &[]).len()
    );
    let host_rows = common::duck_value(
        &out,
        "SELECT count(*) FROM read_parquet('robots_hosts/*/*.parquet') WHERE counts_for_host",
    );
    assert_eq!(host_rows, count("hosts").to_string());
    let crawls: std::collections::BTreeSet<String> = table_rows(&out, "inputs", &[])
        .iter()
        .map(|r| r.split('|').next().unwrap().to_string())
        .collect();
    let listed: Vec<String> = s["crawls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("crawl={}", c.as_str().unwrap()))
        .collect();
    assert_eq!(listed, crawls.into_iter().collect::<Vec<_>>());
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
    // The scan's own peak memory (Linux VmHWM): more than its binary, far less than 1 GB here.
    if cfg!(target_os = "linux") {
        let peak = s["peak_rss_bytes"].as_u64().unwrap();
        assert!((1 << 20..1 << 30).contains(&peak), "{peak}");
    }
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

/// Run the example array-job scripts of contrib/ as their schedulers would (environment only) and
/// check that their shards add up to the full run.
#[test]
fn slurm_and_kubernetes_examples_add_up_to_the_full_run() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("warc.paths");
    let mut list = String::from("# the samples, as a crawl manifest\n");
    for e in std::fs::read_dir(repo().join("samples")).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x != "tsv") {
            list.push_str(&format!("{}\n", p.display()));
        }
    }
    std::fs::write(&manifest, list).unwrap();
    let full = dir.path().join("full");
    let at = format!("@{}", manifest.display());
    let (code, err) = scan(&[&at, "--out", full.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let bin = env!("CARGO_BIN_EXE_repcensus");

    let slurm = dir.path().join("slurm");
    // `sbatch --array=1-3`: task ids 1..3, so SLURM_ARRAY_TASK_MIN is 1.
    for id in 1..=3 {
        let st = std::process::Command::new("bash")
            .arg(repo().join("contrib/slurm/repcensus-array.sbatch"))
            .args([&manifest, &slurm])
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .env("SLURM_CPUS_PER_TASK", "2")
            .env("REPCENSUS", bin)
            .output()
            .unwrap();
        assert_ok(&st);
    }
    let k8s = dir.path().join("k8s");
    for index in 0..3 {
        let st = std::process::Command::new("sh")
            .arg(repo().join("contrib/k8s/shard-task.sh"))
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env("SHARDS", "3")
            .env("MANIFEST", &manifest)
            .env("OUT", &k8s)
            .env("REPCENSUS", bin)
            .output()
            .unwrap();
        assert_ok(&st);
    }
    for out in [&slurm, &k8s] {
        for table in TABLES.iter().chain(&["inputs"]) {
            let skip = if *table == "inputs" { TIMING } else { &[] };
            let mut want = table_rows(&full, table, skip);
            want.sort();
            let mut got = table_rows(out, table, skip);
            got.sort();
            assert_eq!(got, want, "{table} in {}", out.display());
        }
        let summaries = std::fs::read_dir(out.join("_summaries")).unwrap().count();
        assert_eq!(summaries, 3);
    }
    // The Job manifest runs that script as an indexed Job with as many completions as shards.
    let yaml =
        std::fs::read_to_string(repo().join("contrib/k8s/repcensus-indexed-job.yaml")).unwrap();
    assert!(yaml.contains("completionMode: Indexed"));
    assert!(yaml.contains("shard-task.sh"));
    let completions = yaml
        .lines()
        .find_map(|l| l.trim().strip_prefix("completions:"))
        .and_then(|v| v.split('#').next())
        .map(|v| v.trim().to_string())
        .unwrap();
    assert!(
        yaml.contains(&format!("value: \"{completions}\"")),
        "SHARDS must equal completions"
    );
}

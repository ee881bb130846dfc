//! `scan --resume`: a scan killed at random points and resumed ends with exactly the tables of an
//! uninterrupted run; damaged or missing parts make their input redone, never duplicated.

use crate::common;

use common::{bin, read_summary, repo, scan, table_rows, walk, TABLES, TIMING};
use std::path::Path;
use std::time::Duration;

fn assert_same_tables(got: &Path, want: &Path) {
    for table in TABLES.iter().chain(&["robots_hosts"]) {
        assert_eq!(
            table_rows(got, table, &[]),
            table_rows(want, table, &[]),
            "{table}"
        );
    }
    assert_eq!(
        table_rows(got, "inputs", TIMING),
        table_rows(want, "inputs", TIMING),
        "inputs"
    );
}

/// Every file under the table folders is a whole Parquet file (the staging folder aside).
fn assert_no_partial_parts(out: &Path) {
    for f in walk(out) {
        let rel = f.strip_prefix(out).unwrap();
        if rel.starts_with(".staging") {
            continue;
        }
        assert_eq!(
            f.extension().and_then(|e| e.to_str()),
            Some("parquet"),
            "stray file {}",
            f.display()
        );
        let file = std::fs::File::open(&f).unwrap();
        parquet::file::reader::SerializedFileReader::new(file)
            .unwrap_or_else(|e| panic!("partial part {}: {e}", f.display()));
    }
}

/// A small deterministic generator (xorshift), seeded from the clock unless
/// `REPCENSUS_TEST_SEED` is set; the seed is in every failure message.
struct Rng(u64);

fn complete_inputs(out: &Path) -> usize {
    walk(&out.join("inputs")).len()
}

impl Rng {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

#[test]
fn killed_and_resumed_scans_end_with_the_uninterrupted_tables() {
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let samples = samples.to_str().unwrap();
    let full = dir.path().join("full");
    let (code, err) = scan(&[samples, "--out", full.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let out = dir.path().join("resumed");
    let seed = std::env::var("REPCENSUS_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    let mut rng = Rng(seed);
    let mut killed_mid_run = 0;
    for round in 0..8 {
        let mut child = bin()
            .args(["scan", "--quiet", "--resume", "--threads"])
            .arg(if round % 2 == 0 { "1" } else { "2" })
            .args([samples, "--out", out.to_str().unwrap()])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Kill at a random point: after 0-2 more inputs are complete, plus 0-30 ms.
        let before = complete_inputs(&out);
        let wait_for = rng.next(3) as usize;
        while complete_inputs(&out) < before + wait_for && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(rng.next(30)));
        let mid_run = child.try_wait().unwrap().is_none();
        killed_mid_run += usize::from(mid_run);
        // Killed outright, or interrupted (SIGINT, SIGTERM): then it says how far it got.
        let signal = [libc::SIGKILL, libc::SIGINT, libc::SIGKILL, libc::SIGTERM][round % 4];
        // SAFETY: a signal to our own child, by its id.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let ended = child.wait_with_output().unwrap();
        // A signal in the first milliseconds may land before the process takes signals (it
        // then dies of it, as any process would); later it says how far it got.
        let started = wait_for > 0 || complete_inputs(&out) > before;
        // A run may also end between the check above and the signal: then every input is in.
        let finished = ended.status.success();
        assert!(
            !finished || complete_inputs(&out) == 26,
            "exit 0 with inputs left"
        );
        if mid_run
            && !finished
            && signal != libc::SIGKILL
            && (started || ended.status.code().is_some())
        {
            let said = String::from_utf8_lossy(&ended.stderr);
            assert_eq!(ended.status.code(), Some(128 + signal), "{said}");
            assert!(
                said.contains(" of 26 inputs complete; rerun")
                    || said.contains("0 of 0 inputs complete (interrupted while the inputs"),
                "{said}"
            );
        }
        assert_no_partial_parts(&out);
    }
    assert!(
        killed_mid_run >= 3,
        "seed {seed}: only {killed_mid_run} of 8 kills landed mid-run"
    );
    // A report of the folder says when a run did not finish (its staging folder is left).
    let unfinished = std::fs::read_dir(out.join(".staging")).is_ok_and(|mut e| e.next().is_some());
    let page = dir.path().join("r.html");
    let run = common::report(&out, &page, &[]);
    let said = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        said.contains("did not finish"),
        unfinished,
        "seed {seed}: {said}"
    );
    let (code, err, s) = resume(samples, &out, dir.path());
    assert_eq!(code, 0, "seed {seed}: {err}");
    assert_no_partial_parts(&out);
    assert!(
        !out.join(".staging").exists(),
        "the staging folder is removed"
    );
    assert_same_tables(&out, &full);
    eprintln!(
        "seed {seed}: {killed_mid_run} of 8 kills mid-run; the last run found {} of 26 inputs complete",
        s["inputs_resumed"]
    );
    // The summary of the resumed run counts what the earlier runs completed.
    for table in TABLES.iter().chain(&["inputs"]) {
        assert_eq!(
            s["rows"][table].as_u64().unwrap() as usize,
            table_rows(&full, table, &[]).len(),
            "seed {seed}: summary rows of {table}"
        );
    }
    let by_kind: u64 = s["errors_by_kind"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(by_kind as usize, table_rows(&full, "errors", &[]).len());
}

/// `scan --resume` of `inputs` into `out`; returns the exit code, stderr and the run summary.
fn resume(inputs: &str, out: &Path, dir: &Path) -> (i32, String, serde_json::Value) {
    let summary = dir.join("summary.json");
    let (code, err) = scan(&[
        inputs,
        "--resume",
        "--out",
        out.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
    ]);
    let s = if code == 0 {
        read_summary(&summary)
    } else {
        serde_json::Value::Null
    };
    (code, err, s)
}

#[test]
fn resume_redoes_inputs_with_missing_or_damaged_parts_and_skips_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let samples = samples.to_str().unwrap();
    let full = dir.path().join("full");
    let (code, err) = scan(&[samples, "--out", full.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let out = dir.path().join("out");
    let (code, err) = scan(&[samples, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");

    // Damage three inputs: a missing rules part, an inputs part cut short, and a rules part of
    // another input replaced by an empty file.
    let rules: Vec<_> = walk(&out.join("robots_rules"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    assert!(rules.len() >= 3, "{} rules parts", rules.len());
    std::fs::remove_file(&rules[0]).unwrap();
    std::fs::write(&rules[1], b"").unwrap();
    let inputs: Vec<_> = walk(&out.join("inputs"))
        .into_iter()
        .filter(|p| {
            p.file_name().unwrap() != rules[0].file_name().unwrap()
                && p.file_name().unwrap() != rules[1].file_name().unwrap()
        })
        .collect();
    let cut = &inputs[0];
    let bytes = std::fs::read(cut).unwrap();
    std::fs::write(cut, &bytes[..bytes.len() / 2]).unwrap();

    let (code, err, s) = resume(samples, &out, dir.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(s["inputs"], 26);
    assert_eq!(s["inputs_resumed"], 23, "three inputs are redone");
    assert_same_tables(&out, &full);

    // A resumed run over a complete folder reads nothing and changes nothing.
    let (code, err, s) = resume(samples, &out, dir.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(s["inputs_resumed"], 26);
    assert_eq!(s["bytes"], 0);
    assert_same_tables(&out, &full);

    // A derived table the folder lacks (as one a newer repcensus adds, which leaves the schema
    // version as it is) is derived from the parts there, no input read again.
    std::fs::remove_dir_all(out.join("summary_errors")).unwrap();
    let (code, err, s) = resume(samples, &out, dir.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        (s["inputs_resumed"].as_u64(), s["bytes"].as_u64()),
        (Some(26), Some(0))
    );
    let summary = table_rows(&out, "summary_errors", &[]);
    assert!(!summary.is_empty());
    assert_eq!(summary, table_rows(&full, "summary_errors", &[]));
    assert_same_tables(&out, &full);
}

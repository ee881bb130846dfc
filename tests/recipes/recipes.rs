//! The cluster recipes run as far as this machine allows (no Slurm controller, no container
//! builder): `contrib/slurm/submit.sh` against a stand-in `sbatch` that keeps Slurm's afterok
//! rule (tests/fakes/sbatch), and the container's build stage (`contrib/container/build.sh`) as
//! plain shell, whose files then run the Kubernetes task script. Each ends with the tables of one
//! local scan.

use crate::common;

use common::{assert_ok, elf_sections, repo, table_rows, TABLES, TIMING};
use std::path::{Path, PathBuf};
use std::process::Command;

const ROBOTS: [&str; 4] = [
    "real-robots.warc.gz",
    "redirect-cases.warc.gz",
    "revisit-cases.warc.gz",
    "verdict-cases.warc.gz",
];

/// A manifest of absolute paths of the robots.txt samples copied into `dir`, plus `extra`.
fn manifest(dir: &Path, extra: &[&Path]) -> PathBuf {
    let mut lines: Vec<String> = ROBOTS
        .iter()
        .map(|n| {
            let to = dir.join(n);
            std::fs::copy(repo().join("samples").join(n), &to).unwrap();
            to.display().to_string()
        })
        .collect();
    lines.extend(extra.iter().map(|p| p.display().to_string()));
    let m = dir.join("manifest.txt");
    std::fs::write(&m, lines.join("\n") + "\n").unwrap();
    m
}

/// Every table's rows (the derived ones too), sorted.
fn all_rows(out: &Path) -> Vec<(String, Vec<String>)> {
    let derived = repcensus::Table::DERIVED.map(|t| t.name());
    TABLES
        .iter()
        .chain(&derived)
        .map(|t| {
            let skip = if *t == "inputs" { TIMING } else { &[][..] };
            let mut rows = table_rows(out, t, skip);
            rows.sort();
            (t.to_string(), rows)
        })
        .collect()
}

fn local_scan(manifest: &Path, out: &Path, crawl: &str) {
    let st = common::bin()
        .args(["scan", "--quiet", "--crawl", crawl])
        .arg(format!("@{}", manifest.display()))
        .arg("--out")
        .arg(out)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));
}

fn assert_same_tables(got: &Path, want: &Path) {
    let want = all_rows(want);
    assert!(want
        .iter()
        .any(|(t, r)| t == "robots_hosts" && !r.is_empty()));
    for ((table, g), (_, w)) in all_rows(got).iter().zip(&want) {
        assert_eq!(g, w, "{table}");
    }
}

/// The state the stand-in sbatch kept of job `id`.
fn job_state(state: &Path, id: &str) -> String {
    std::fs::read_to_string(state.join(format!("{id}.state"))).unwrap()
}

#[test]
fn slurm_runs_hosts_only_after_every_shard_succeeded_and_a_resubmission_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let late = dir.path().join("late.warc.gz");
    let list = manifest(dir.path(), &[&late]);
    let out = dir.path().join("census");
    let state = dir.path().join("slurm");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_repcensus")).parent().unwrap();
    let path = std::env::join_paths(
        [repo().join("tests/fakes"), bin_dir.to_path_buf()]
            .into_iter()
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let submit = |extra: &[&str]| {
        let o = Command::new("bash")
            .arg(repo().join("contrib/slurm/submit.sh"))
            .arg(&list)
            .arg(&out)
            .arg("3")
            .args(["--crawl", "CC-MAIN-2099-09"])
            .args(extra)
            .env("PATH", &path)
            .env("FAKE_SLURM_STATE", &state)
            .output()
            .unwrap();
        assert_ok(&o);
        let said = String::from_utf8_lossy(&o.stdout).into_owned();
        let ids: Vec<String> = said
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| w.len() >= 4)
            .map(str::to_string)
            .collect();
        assert_eq!(ids.len(), 2, "{said}");
        (ids[0].clone(), ids[1].clone())
    };

    // The manifest names an archive that is not there yet: its task fails, and the hosts job
    // never starts.
    let (array, hosts) = submit(&[]);
    assert_eq!(job_state(&state, &array), "FAILED");
    assert_eq!(job_state(&state, &hosts), "NEVER_STARTED");
    assert!(table_rows(&out, "robots_hosts", &[]).is_empty());
    // Options after the shard count reached every task's scan.
    assert!(out.join("robots_files/crawl=CC-MAIN-2099-09").is_dir());

    // A retry of one task alone keeps the shard count (SHARDS), as the script's head says.
    let o = Command::new("sbatch")
        .args(["--parsable", "--array=1", "--export=ALL,SHARDS=3"])
        .arg(repo().join("contrib/slurm/repcensus-array.sbatch"))
        .arg(&list)
        .arg(&out)
        .args(["--crawl", "CC-MAIN-2099-09"])
        .env("PATH", &path)
        .env("FAKE_SLURM_STATE", &state)
        .output()
        .unwrap();
    assert_ok(&o);
    assert!(out.join("_summaries/shard-1-of-3.json").is_file());

    // The archive arrives; the same submission again resumes and derives.
    std::fs::copy(repo().join("samples/signal-cases.warc.gz"), &late).unwrap();
    let (array, hosts) = submit(&[]);
    assert_eq!(job_state(&state, &array), "COMPLETED");
    assert_eq!(job_state(&state, &hosts), "COMPLETED");
    assert!(out.join("report.html").is_file());

    let local = dir.path().join("local");
    local_scan(&list, &local, "CC-MAIN-2099-09");
    assert_same_tables(&out, &local);
}

#[test]
fn the_container_build_stage_makes_a_stripped_image_whose_k8s_tasks_equal_one_scan() {
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("image");
    // The tests' own build (the same features), so that cargo finds it up to date.
    let o = Command::new("sh")
        .arg(repo().join("contrib/container/build.sh"))
        .arg(repo())
        .arg(&image)
        .env("CARGO_TARGET_DIR", repo().join("target"))
        .env("CARGO_BUILD_FLAGS", "--features fault-hooks")
        .output()
        .unwrap();
    assert_ok(&o);
    let bin = image.join("usr/local/bin");
    let binary = std::fs::read(bin.join("repcensus")).unwrap();
    let debug: Vec<String> = elf_sections(&binary)
        .into_iter()
        .filter(|s| s.starts_with(".debug_") && s != ".debug_gdb_scripts")
        .collect();
    assert!(debug.is_empty(), "the image's binary has {debug:?}");
    assert!(binary.len() < 60 << 20, "{} bytes", binary.len());

    // The Kubernetes Job's tasks, as its pods run them: the image's script and binary.
    let list = manifest(dir.path(), &[]);
    let out = dir.path().join("census");
    let path = std::env::join_paths(
        std::iter::once(bin.clone())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    for i in 0..2 {
        let o = Command::new(bin.join("shard-task.sh"))
            .env("PATH", &path)
            .env("JOB_COMPLETION_INDEX", i.to_string())
            .env("SHARDS", "2")
            .env("MANIFEST", &list)
            .env("OUT", &out)
            .env("SCAN_ARGS", "--crawl CC-MAIN-2099-10")
            .output()
            .unwrap();
        assert_ok(&o);
    }
    let o = Command::new(bin.join("repcensus"))
        .arg("hosts")
        .arg(&out)
        .output()
        .unwrap();
    assert_ok(&o);
    let local = dir.path().join("local");
    local_scan(&list, &local, "CC-MAIN-2099-10");
    assert_same_tables(&out, &local);

    // The Job runs the image the Containerfile's head says to build.
    let job =
        std::fs::read_to_string(repo().join("contrib/k8s/repcensus-indexed-job.yaml")).unwrap();
    let file = std::fs::read_to_string(repo().join("contrib/container/Containerfile")).unwrap();
    let tag = "repcensus:latest";
    assert!(job.contains(&format!("image: {tag}")) && file.contains(&format!("-t {tag}")));
}

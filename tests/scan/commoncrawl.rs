//! The Common Crawl robots.txt recipe (`contrib/commoncrawl/robotstxt-census.sh`), run as an
//! operator would against a loopback server laid out as Common Crawl's bucket is
//! (`crawl-data/CRAWL/robotstxt.paths.gz` naming `crawl-data/CRAWL/segments/…/robotstxt/…`),
//! which answers `503 SlowDown` now and then: sharded, with `hosts` and `report` after the last
//! shard, it gives the tables (every one, the derived ones too) of one local scan of the same
//! files; a shard that cannot read an archive stops it before `hosts`, and running it again
//! resumes.

use crate::common;

use common::{repo, table_rows, TABLES, TIMING};
use std::path::Path;
use std::process::Command;

const CRAWL: &str = "CC-MAIN-2099-05";

/// The robots.txt samples, as two segments' `robotstxt/` archives; their relative paths.
fn crawl_layout(root: &Path) -> Vec<String> {
    let samples = [
        "real-robots.warc.gz",
        "generated-cc-robots.warc.gz",
        "redirect-cases.warc.gz",
        "revisit-cases.warc.gz",
        "verdict-cases.warc.gz",
        "signal-cases.warc.gz",
    ];
    let mut paths = Vec::new();
    for (i, name) in samples.iter().enumerate() {
        let segment = 1_750_000_000_000u64 + (i as u64 % 2);
        let rel = format!(
            "crawl-data/{CRAWL}/segments/{segment}.{i}/robotstxt/\
             {CRAWL}-20990101000000-{i:05}.warc.gz"
        );
        let to = root.join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo().join("samples").join(name), &to).unwrap();
        paths.push(rel);
    }
    paths
}

/// `robotstxt.paths.gz` listing `paths`, where Common Crawl keeps it.
fn write_paths_list(root: &Path, paths: &[String]) {
    let to = root.join(format!("crawl-data/{CRAWL}/robotstxt.paths.gz"));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, (paths.join("\n") + "\n").as_bytes()).unwrap();
    std::fs::write(to, gz.finish().unwrap()).unwrap();
}

/// The recipe, with the test binary as `repcensus`.
fn recipe(prefix: &str, out: &Path) -> std::process::Output {
    Command::new("bash")
        .arg(repo().join("contrib/commoncrawl/robotstxt-census.sh"))
        .arg(CRAWL)
        .arg(out)
        .env("PREFIX", prefix)
        .env("SHARDS", "3")
        .env("PARALLEL", "2")
        .env("THREADS", "1")
        .env("RETRIES", "1")
        .env("REPCENSUS", env!("CARGO_BIN_EXE_repcensus"))
        .output()
        .unwrap()
}

/// Every table's rows, sorted, with the archives' location `from` written as `to`.
fn all_rows(out: &Path, from: &str, to: &str) -> Vec<(String, Vec<String>)> {
    let derived = repcensus::Table::DERIVED.map(|t| t.name());
    TABLES
        .iter()
        .chain(&derived)
        .map(|t| (t.to_string(), table_rows(out, t, &[])))
        .chain([(
            "inputs".to_string(),
            // `input_id` is a digest of the input's location, which differs by design.
            table_rows(out, "inputs", &[TIMING, &["input_id"]].concat()),
        )])
        .map(|(t, rows)| {
            let mut rows: Vec<String> = rows.iter().map(|r| r.replace(from, to)).collect();
            rows.sort();
            (t, rows)
        })
        .collect()
}

fn local_scan(root: &Path, out: &Path) {
    let list = root.join(format!("crawl-data/{CRAWL}/robotstxt.paths.gz"));
    let st = common::bin()
        .args(["scan", "--quiet", "--crawl", CRAWL, "--prefix"])
        .arg(format!("{}/", root.display()))
        .arg(format!("@{}", list.display()))
        .arg("--out")
        .arg(out)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_robotstxt_recipe_over_a_throttling_server_equals_one_local_scan() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("bucket");
    let mut paths = crawl_layout(&root);
    // An archive the list names but the server does not have yet: its shard fails.
    let late = format!("crawl-data/{CRAWL}/segments/1750000000002.9/robotstxt/late.warc.gz");
    paths.push(late.clone());
    write_paths_list(&root, &paths);
    // Every 5th GET is answered 503 SlowDown with Retry-After.
    let (_server, base) = common::servers::http_server(&repo(), &root, &["--throttle", "5"]);
    let base = format!("{}/", base.trim_end_matches('/'));
    let out = dir.path().join("census");

    let first = recipe(&base, &out);
    let said = stderr(&first);
    assert_eq!(first.status.code(), Some(1), "{said}");
    assert!(said.contains("still fail after 1 retries"), "{said}");
    assert!(
        said.contains("running shards"),
        "a failed shard is run again: {said}"
    );
    assert!(
        table_rows(&out, "robots_hosts", &[]).is_empty(),
        "no robots_hosts before every shard succeeded"
    );
    assert!(!out.join("report.html").exists());

    // The archive arrives; the recipe run again resumes and finishes.
    let to = root.join(&late);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(repo().join("samples/real-robots.warc.gz"), &to).unwrap();
    let second = recipe(&base, &out);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    for i in 0..3 {
        let s = common::read_summary(&out.join(format!("_summaries/shard-{i}-of-3.json")));
        assert!(s.is_object(), "shard {i}'s run summary");
    }
    // The server really throttled: each 503 it sent is a line of its `_throttled` file.
    let throttled = std::fs::read_to_string(root.join("_throttled")).unwrap_or_default();
    assert!(throttled.lines().count() >= 2, "503s sent: {throttled}");
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains(CRAWL), "the report names the crawl");

    let local = dir.path().join("local");
    local_scan(&root, &local);
    let got = all_rows(&out, &base, "");
    let want = all_rows(&local, &format!("{}/", root.display()), "");
    for ((table, g), (_, w)) in got.iter().zip(&want) {
        assert!(
            !w.is_empty() || !table.starts_with("robots"),
            "{table}: no rows"
        );
        assert_eq!(g, w, "{table}");
    }
}

/// A run that reads not one record is a failure said in one line, whether the prefix is wrong
/// (every archive a 404) or the server answers with something else than the archives (a page
/// where an archive should be), and whether whole archives or listed records were asked for.
#[test]
fn a_run_that_reads_nothing_exits_1_saying_so_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("bucket");
    let paths = crawl_layout(&root);
    write_paths_list(&root, &paths);
    // Under `mirror/`, every archive's name holds an HTML page.
    for p in &paths {
        let to = root.join("mirror").join(p);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, "<html><body>Not here</body></html>\n").unwrap();
    }
    let records = dir.path().join("records.csv");
    let lines: Vec<String> = paths.iter().map(|p| format!("{p},0,400")).collect();
    std::fs::write(
        &records,
        format!(
            "warc_filename,warc_record_offset,warc_record_length\n{}\n",
            lines.join("\n")
        ),
    )
    .unwrap();
    let (_server, base) = common::servers::http_server(&repo(), &root, &[]);
    let list = root.join(format!("crawl-data/{CRAWL}/robotstxt.paths.gz"));
    for (prefix, source) in [
        (format!("{base}wrong/"), format!("@{}", list.display())),
        (format!("{base}mirror/"), format!("@{}", list.display())),
        (format!("{base}wrong/"), "--records".to_string()),
        (format!("{base}mirror/"), "--records".to_string()),
    ] {
        let out = tempfile::tempdir().unwrap();
        let mut cmd = common::bin();
        cmd.args(["scan", "--quiet", "--prefix", &prefix, &source]);
        if source == "--records" {
            cmd.arg(&records);
        }
        let o = cmd.arg("--out").arg(out.path()).output().unwrap();
        let said = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{prefix} {source}: {said}");
        let last = said.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("repcensus: nothing was read: not one record of the "),
            "{prefix} {source}: {said}"
        );
    }
}

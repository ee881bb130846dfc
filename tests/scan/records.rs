//! `scan --records LIST`: a targeted census. The records a list names, fetched by byte range
//! from a loopback HTTP server that drops connections, refuses with 503/429/403, ignores Range
//! or never answers, give exactly the rows a full scan of their archives gives for them, and
//! every record the server does not give is an `errors` row naming its list line.

use crate::common;

use common::servers::Server;
use common::{bin, read_summary, repo, table_rows, TABLES};
use std::io::Read;
use std::path::{Path, PathBuf};

fn http_server(root: &Path, args: &[&str]) -> (Server, String) {
    common::servers::http_server(&repo(), root, args)
}

use common::gzip_members as members;

/// Every record of a plain `.warc`: from each `WARC/` header to the end of its block and the
/// two line ends after it.
fn plain_records(path: &Path) -> Vec<(u64, u64)> {
    let mut data = Vec::new();
    std::fs::File::open(path)
        .unwrap()
        .read_to_end(&mut data)
        .unwrap();
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let head_end = at + find(&data[at..], b"\r\n\r\n").unwrap() + 4;
        let head = String::from_utf8_lossy(&data[at..head_end]).to_ascii_lowercase();
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let end = head_end + len + 4;
        out.push((at as u64, (end - at) as u64));
        at = end;
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

const GZ: [&str; 6] = [
    "real-robots.warc.gz",
    "generated-cc-robots.warc.gz",
    "verdict-cases.warc.gz",
    "signal-cases.warc.gz",
    "redirect-cases.warc.gz",
    "revisit-cases.warc.gz",
];
const PLAIN: &str = "webrecorder_warcio__example.warc";

/// The archives to serve, and the same bytes under names that make the server ignore Range
/// (`norange`) or never answer (`hang`).
fn served(dir: &Path) -> PathBuf {
    let root = dir.join("served");
    std::fs::create_dir_all(&root).unwrap();
    for n in GZ.iter().chain([&PLAIN]) {
        std::fs::copy(repo().join("samples").join(n), root.join(n)).unwrap();
    }
    let odd = dir.join("odd");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::copy(root.join(GZ[3]), odd.join("signal-norange.warc.gz")).unwrap();
    std::fs::copy(root.join(GZ[2]), odd.join("verdict-hang.warc.gz")).unwrap();
    root
}

/// The rows of every per-record table of `out`, `from` in them written as `to`, sorted.
fn rows(out: &Path, from: &str, to: &str) -> Vec<(String, Vec<String>)> {
    TABLES
        .iter()
        .filter(|t| !matches!(**t, "errors" | "inputs" | "host_counts"))
        .map(|t| {
            // The crawl is the warcinfo record's in a full scan; a targeted one reads no warcinfo.
            let mut rows: Vec<String> = (table_rows(out, t, &[]).iter())
                .map(|r| r.split_once('|').map_or(r.as_str(), |(_, rest)| rest))
                .map(|r| r.replace(from, to))
                .collect();
            rows.sort();
            (t.to_string(), rows)
        })
        .collect()
}

#[test]
fn records_fetched_by_range_through_faults_give_the_full_scan_rows_and_each_loss_an_errors_row() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let odd = dir.path().join("odd");
    for f in std::fs::read_dir(&odd).unwrap() {
        let p = f.unwrap().path();
        std::fs::copy(&p, root.join(p.file_name().unwrap())).unwrap();
    }
    // What a full scan of the archives gives (the odd copies are other names of two of them;
    // the server ignores Range for the one named `norange`, whose records are cut out of its
    // whole-file answers: they give their rows too).
    let full = dir.path().join("full");
    let st = bin()
        .args(["scan", "--quiet"])
        .args(
            GZ.iter()
                .chain([&PLAIN, &"signal-norange.warc.gz"])
                .map(|n| root.join(n)),
        )
        .arg("--out")
        .arg(&full)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));

    // The list: every record of every archive, in no order, as CSV.
    let mut listed: Vec<(String, u64, u64)> = Vec::new();
    for n in GZ {
        listed.extend(
            members(&root.join(n))
                .into_iter()
                .map(|(o, l)| (n.to_string(), o, l)),
        );
    }
    listed.extend(
        plain_records(&root.join(PLAIN))
            .into_iter()
            .map(|(o, l)| (PLAIN.to_string(), o, l)),
    );
    let wanted = listed.len();
    let norange = members(&root.join("signal-norange.warc.gz"));
    let hang = members(&root.join("verdict-hang.warc.gz"));
    listed.extend(
        norange
            .iter()
            .map(|&(o, l)| ("signal-norange.warc.gz".into(), o, l)),
    );
    listed.extend(
        hang.iter()
            .map(|&(o, l)| ("verdict-hang.warc.gz".into(), o, l)),
    );
    let (o, l) = members(&root.join(GZ[4]))[3];
    listed.push((GZ[4].into(), o + 1, l)); // the offset is off
    listed.push(("missing.warc.gz".into(), 0, 100)); // no such archive
    listed.reverse();
    let mut csv = String::from("url,warc_filename,warc_record_offset,warc_record_length\n");
    for (n, o, l) in &listed {
        csv.push_str(&format!("http://x/,{n},{o},{l}\n"));
    }
    csv.push_str("http://x/,real-robots.warc.gz,,10\n"); // names no record
    let list = dir.path().join("list.csv");
    std::fs::write(&list, csv).unwrap();
    assert!(wanted > 2000, "{wanted} records");

    let (_server, url) = http_server(&root, &["--drop", "1", "--refuse", "3"]);
    let targeted = dir.path().join("targeted");
    let summary = dir.path().join("summary.json");
    let out = bin()
        .args(["scan", "--quiet", "--records"])
        .arg(&list)
        .args(["--prefix", &url, "--fetch-concurrency", "8"])
        .args(["--stall-timeout", "2", "--input-deadline", "12"])
        .arg("--out")
        .arg(&targeted)
        .arg("--summary")
        .arg(&summary)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Some records could not be fetched: the run says so.
    assert_eq!(out.status.code(), Some(1), "{stderr}");

    // The rows of the records fetched equal the full scan's, offsets and all; those of the
    // archive that never answers are none.
    let full_prefix = format!("{}/", root.display());
    let (got, want) = (rows(&targeted, &url, ""), rows(&full, &full_prefix, ""));
    for ((table, got), (_, want)) in got.iter().zip(&want) {
        assert_eq!(got.len(), want.len(), "{table}: rows");
        if let Some((g, w)) = got.iter().zip(want).find(|(g, w)| g != w) {
            panic!("{table}: {g}\nis not\n{w}");
        }
    }

    // Every loss is an errors row with its list line; the full scan's own errors rows (bad
    // encodings and the like, at record offsets) are there too.
    let errors = table_rows(&targeted, "errors", &[]);
    let count = |kind: &str| {
        errors
            .iter()
            .filter(|r| r.contains(&format!("kind={kind}|")))
            .count()
    };
    assert_eq!(count("record_mismatch"), 1, "{errors:#?}");
    assert!(!norange.is_empty());
    assert_eq!(count("record_not_fetched"), hang.len() + 1, "{errors:#?}");
    assert_eq!(count("bad_list_line"), 1);
    for r in errors
        .iter()
        .filter(|r| r.contains("kind=record_") || r.contains("kind=bad_list"))
    {
        assert!(
            !r.contains("list_line=NULL") && r.contains("records list line"),
            "{r}"
        );
    }
    let own = |out: &Path, from: &str| -> Vec<String> {
        let mut e: Vec<String> = table_rows(out, "errors", &["list_line"])
            .iter()
            .filter(|r| !r.contains("kind=record_") && !r.contains("kind=bad_list"))
            .map(|r| r.split_once('|').map_or(r.as_str(), |(_, rest)| rest))
            .map(|r| r.replace(from, ""))
            .collect();
        e.sort();
        e
    };
    assert_eq!(own(&targeted, &url), own(&full, &full_prefix));

    // Nearby records were fetched together, and the refusals and drops were retried.
    let s = read_summary(&summary);
    let requests = s["fetch"]["requests"].as_u64().unwrap();
    let retries = s["fetch"]["retries"].as_u64().unwrap();
    assert_eq!(
        s["fetch"]["records_listed"].as_u64().unwrap() as usize,
        listed.len() + 1
    );
    assert!(
        requests < (wanted / 10) as u64,
        "{requests} requests for {wanted} records"
    );
    assert!(retries >= 3, "{retries} retries");
}

/// Every table's rows under `out` (`inputs` without its timings), sorted.
fn all_rows(out: &Path) -> Vec<(String, Vec<String>)> {
    TABLES
        .iter()
        .map(|t| {
            let skip: &[&str] = if *t == "inputs" { common::TIMING } else { &[] };
            let mut rows = table_rows(out, t, skip);
            rows.sort();
            (t.to_string(), rows)
        })
        .collect()
}

#[test]
fn a_killed_targeted_scan_resumed_and_a_sharded_one_end_with_the_uninterrupted_tables() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let mut json = String::new();
    for n in GZ {
        for (o, l) in members(&root.join(n)) {
            json.push_str(&format!(
                "{{\"filename\": \"{n}\", \"offset\": \"{o}\", \"length\": \"{l}\"}}\n"
            ));
        }
    }
    let list = root.join("list.jsonl");
    std::fs::write(&list, json).unwrap();
    let scan = |out: &Path, more: &[&str]| -> serde_json::Value {
        let summary = out.with_extension("json");
        let o = bin()
            .args(["scan", "--quiet", "--records-per-input", "400", "--records"])
            .arg(&list)
            .args(more)
            .arg("--out")
            .arg(out)
            .arg("--summary")
            .arg(&summary)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        read_summary(&summary)
    };
    let whole = dir.path().join("whole");
    let s = scan(&whole, &[]);
    let inputs = s["inputs"].as_u64().unwrap();
    assert!(inputs >= 5, "{inputs} inputs");
    let want = all_rows(&whole);

    // Killed after some inputs: the parts of two inputs are gone (the `inputs` part, written
    // last, of one; every part of another).
    let killed = dir.path().join("killed");
    scan(&killed, &[]);
    let parts: Vec<PathBuf> = common::walk(&killed)
        .into_iter()
        .filter(|p| {
            p.extension().is_some_and(|x| x == "parquet")
                && !p.to_string_lossy().contains("_schema")
        })
        .collect();
    let of_input = |k: &str| -> Vec<PathBuf> {
        (parts.iter())
            .filter(|p| p.to_string_lossy().contains(k))
            .cloned()
            .collect()
    };
    for p in (of_input("-00002-").iter()).filter(|p| p.to_string_lossy().contains("/inputs/")) {
        std::fs::remove_file(p).unwrap();
    }
    for p in of_input("-00004-") {
        std::fs::remove_file(p).unwrap();
    }
    let s = scan(&killed, &["--resume"]);
    assert_eq!(s["inputs_resumed"].as_u64().unwrap(), inputs - 2);
    assert_eq!(all_rows(&killed), want);

    // A full scan of another archive into the same folder adds its rows and keeps the list's.
    let alone = dir.path().join("alone");
    let full_scan = |out: &Path| {
        let st = bin()
            .args(["scan", "--quiet"])
            .arg(root.join(PLAIN))
            .arg("--out")
            .arg(out)
            .status()
            .unwrap();
        assert_eq!(st.code(), Some(0));
    };
    full_scan(&alone);
    full_scan(&killed);
    for ((t, both), ((_, listed), (_, other))) in all_rows(&killed)
        .into_iter()
        .zip(want.iter().zip(all_rows(&alone)))
    {
        if matches!(t.as_str(), "inputs") {
            assert_eq!(both.len(), listed.len() + other.len(), "{t}");
            continue;
        }
        let mut union: Vec<String> = listed.iter().chain(&other).cloned().collect();
        union.sort();
        assert_eq!(both, union, "{t}");
    }

    // Two shards into one folder, then `hosts`: the same tables.
    let sharded = dir.path().join("sharded");
    scan(&sharded, &["--shard", "0/2"]);
    scan(&sharded, &["--shard", "1/2"]);
    let st = bin()
        .args(["hosts", "--quiet"])
        .arg(&sharded)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));
    assert_eq!(all_rows(&sharded), want);
}

#[test]
fn a_panic_while_reading_a_targeted_input_fails_it_with_an_errors_row_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let mut csv = String::from("warc_filename,warc_record_offset,warc_record_length\n");
    for n in [GZ[0], GZ[3]] {
        for (o, l) in members(&root.join(n)) {
            csv.push_str(&format!("{n},{o},{l}\n"));
        }
    }
    let list = root.join("list.csv");
    std::fs::write(&list, csv).unwrap();
    let out = dir.path().join("out");
    // The second archive of the input (in name order) panics when it is read.
    let o = bin()
        .args(["scan", "--quiet", "--records"])
        .arg(&list)
        .arg("--out")
        .arg(&out)
        .env("REPCENSUS_PANIC_ON_INPUT", GZ[3])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let errors = table_rows(&out, "errors", &[]);
    assert_eq!(
        errors
            .iter()
            .filter(|r| r.contains("kind=internal_error|"))
            .count(),
        1
    );
    let inputs = table_rows(&out, "inputs", common::TIMING);
    assert_eq!(inputs.len(), 1);
    assert!(inputs[0].contains("status=failed"), "{}", inputs[0]);
    // The first archive's rows are kept.
    let files = table_rows(&out, "robots_files", &[]);
    let kept = files
        .iter()
        .filter(|r| r.contains(&format!("/{}|", GZ[0])))
        .count();
    assert!(kept > 0, "{} rows", files.len());
}

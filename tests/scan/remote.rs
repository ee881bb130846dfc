//! Remote inputs: archives served by real servers on loopback (an HTTP file server with Range
//! support that drops connections mid-file, and moto's S3-compatible server) give exactly the
//! tables of the same files read locally.

use crate::common;

use common::{bin, read_summary, repo, table_rows, TABLES, TIMING};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::servers::Server;

/// The sample archives, copied into a folder to serve; one is also served under a name that
/// makes the HTTP server omit its ETag (so the resumption without ETag is exercised).
fn served_copy(dir: &Path) -> PathBuf {
    let root = dir.join("served");
    std::fs::create_dir_all(&root).unwrap();
    for e in std::fs::read_dir(repo().join("samples")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "tsv") {
            continue;
        }
        std::fs::copy(&p, root.join(p.file_name().unwrap())).unwrap();
    }
    std::fs::copy(
        repo().join("samples/real-robots.warc.gz"),
        root.join("real-robots-noetag.warc.gz"),
    )
    .unwrap();
    // A whole-file gzip larger than the largest test window (8 x 64 KiB): read as a stream.
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(
            std::fs::File::open(
                repo().join("samples/oduwsdl_ipwb__IAH-20080430204825-00000-blackbook.warc.gz"),
            )
            .unwrap(),
        ),
        &mut plain,
    )
    .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &plain).unwrap();
    let whole = gz.finish().unwrap();
    assert!(whole.len() > 8 * 65536, "{} bytes", whole.len());
    std::fs::write(root.join("blackbook-whole-file.warc.gz"), whole).unwrap();
    root
}

fn archives(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Rows of every table, with the input's location (`from`) rewritten as `to`.
fn rows(out: &Path, from: &str, to: &str) -> Vec<(String, Vec<String>)> {
    TABLES
        .iter()
        .chain(&["robots_hosts"])
        .map(|t| (t.to_string(), table_rows(out, t, &[])))
        // `input_id` differs by design: it is a digest of the input's location (path or URL).
        .chain([(
            "inputs".to_string(),
            table_rows(out, "inputs", &[TIMING, &["input_id"]].concat()),
        )])
        .map(|(t, rows)| {
            let mut rows: Vec<String> = rows.iter().map(|r| r.replace(from, to)).collect();
            rows.sort();
            (t, rows)
        })
        .collect()
}

fn assert_same(got: Vec<(String, Vec<String>)>, want: Vec<(String, Vec<String>)>) {
    assert_eq!(got.len(), want.len());
    for ((t, g), (_, w)) in got.into_iter().zip(want) {
        assert!(!w.is_empty() || t != "robots_hosts", "no robots_hosts rows");
        assert_eq!(g.len(), w.len(), "{t}: row count");
        for (a, b) in g.iter().zip(&w) {
            assert_eq!(a, b, "{t}");
        }
    }
}

fn scan_local(root: &Path, out: &Path) {
    let st = bin()
        .args(["scan", "--quiet"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));
}

/// The loopback HTTP server over `root`, and its base URL.
fn http_server(root: &Path, args: &[&str]) -> (Server, String) {
    common::servers::http_server(&repo(), root, args)
}

#[test]
fn archives_over_http_with_dropped_connections_equal_local_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = served_copy(dir.path());
    // Every file's first two GETs are cut off after 40% of their bytes.
    let (_server, base) = http_server(&root, &["--drop", "2"]);

    let local = dir.path().join("local");
    scan_local(&root, &local);
    // The remote run reads a manifest of relative paths, as a crawl's warc.paths.gz lists them.
    let manifest = dir.path().join("warc.paths");
    std::fs::write(&manifest, archives(&root).join("\n") + "\n").unwrap();
    let remote = dir.path().join("remote");
    let out = bin()
        .args(["scan", "--quiet", "--prefix", &base])
        .arg(format!("@{}", manifest.display()))
        .arg("--out")
        .arg(&remote)
        // Windows of 64 KiB, so that the sample archives are cut into many windows too.
        .env("REPCENSUS_REMOTE_WINDOW", "65536")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The server without ETag made repcensus resume the stream itself (with ETags, object_store
    // resumes inside its own stream).
    let resumed = stderr
        .lines()
        .filter(|l| l.contains("real-robots-noetag.warc.gz: ") && l.contains("; resuming"))
        .count();
    assert_eq!(
        resumed, 2,
        "two cut-off responses, two resumptions:\n{stderr}"
    );
    let local_prefix = format!("{}/", root.display());
    assert_same(rows(&remote, &base, ""), rows(&local, &local_prefix, ""));
}

/// Run a Python script with one argument and the test tools on its path; it must succeed.
fn python<'a>(
    script: &str,
    arg: &Path,
    tools: &Path,
    env: impl IntoIterator<Item = (&'a str, &'a str)>,
    what: &str,
) {
    let st = Command::new("python3")
        .args(["-c", script])
        .arg(arg)
        .env("PYTHONPATH", tools)
        .envs(env)
        .status()
        .unwrap();
    assert!(st.success(), "{what} failed");
}

#[test]
fn archives_in_s3_equal_local_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = served_copy(dir.path());
    let (_server, endpoint, tools) = common::moto_server();
    let env = [
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL", endpoint.as_str()),
        ("AWS_ALLOW_HTTP", "true"),
    ];
    // Upload with boto3 (moto's own dependency) under a crawl-like key prefix.
    let upload = format!(
        "import boto3, os, sys\n\
         s3 = boto3.client('s3', endpoint_url='{endpoint}')\n\
         s3.create_bucket(Bucket='census')\n\
         for n in sorted(os.listdir(sys.argv[1])):\n\
         \x20   s3.upload_file(os.path.join(sys.argv[1], n), 'census', 'crawl-data/CC-TEST/' + n)\n"
    );
    python(&upload, &root, &tools, env, "upload to moto");

    let local = dir.path().join("local");
    scan_local(&root, &local);
    let remote = dir.path().join("remote");
    let urls: Vec<String> = archives(&root)
        .iter()
        .map(|n| format!("s3://census/crawl-data/CC-TEST/{n}"))
        .collect();
    let out = bin()
        .args(["scan", "--quiet"])
        .args(&urls)
        .arg("--out")
        .arg(&remote)
        .envs(env)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let local_prefix = format!("{}/", root.display());
    assert_same(
        rows(&remote, "s3://census/crawl-data/CC-TEST/", ""),
        rows(&local, &local_prefix, ""),
    );
    // A targeted scan of every record of three per-record archives, fetched by range from S3:
    // their rows, the crawl named by the keys' `crawl-data/CC-TEST/`.
    let per_record = [
        "real-robots.warc.gz",
        "signal-cases.warc.gz",
        "verdict-cases.warc.gz",
    ];
    let mut csv = String::from("filename,offset,length\n");
    for n in per_record {
        for (o, l) in common::gzip_members(&root.join(n)) {
            csv.push_str(&format!("crawl-data/CC-TEST/{n},{o},{l}\n"));
        }
    }
    let list = dir.path().join("list.csv");
    std::fs::write(&list, csv).unwrap();
    let targeted = dir.path().join("targeted");
    let out = bin()
        .args(["scan", "--quiet", "--records"])
        .arg(&list)
        .args(["--prefix", "s3://census/", "--out"])
        .arg(&targeted)
        .envs(env)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(targeted.join("robots_files/crawl=CC-TEST").is_dir());
    for t in TABLES
        .iter()
        .filter(|t| !matches!(**t, "inputs" | "host_counts"))
    {
        let of = |out: &Path, from: &str| -> Vec<String> {
            // A record's errors rows name its list line in a targeted scan.
            let mut rows: Vec<String> = table_rows(out, t, &["list_line"])
                .iter()
                .map(|r| {
                    r.split_once('|')
                        .map_or(r.as_str(), |(_, rest)| rest)
                        .replace(from, "")
                })
                .filter(|r| {
                    per_record
                        .iter()
                        .any(|n| r.contains(&format!("warc_file={n}|")))
                })
                .collect();
            rows.sort();
            rows
        };
        let want = of(&local, &format!("{}/", root.display()));
        assert!(!want.is_empty() || *t != "robots_files");
        assert_eq!(
            of(&targeted, "s3://census/crawl-data/CC-TEST/"),
            want,
            "{t}"
        );
    }

    // Tables written to S3 (twice: the second run replaces every part, never duplicates rows)
    // equal the local run's, once downloaded.
    for _ in 0..2 {
        let out = bin()
            .args(["scan", "--quiet"])
            .arg(&root)
            .args(["--out", "s3://census/tables/"])
            .envs(env)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
    }
    let downloaded = dir.path().join("downloaded");
    let download = format!(
        "import boto3, os, sys\n\
         s3 = boto3.client('s3', endpoint_url='{endpoint}')\n\
         for o in s3.list_objects_v2(Bucket='census', Prefix='tables/')['Contents']:\n\
         \x20   p = os.path.join(sys.argv[1], o['Key'][len('tables/'):])\n\
         \x20   os.makedirs(os.path.dirname(p), exist_ok=True)\n\
         \x20   s3.download_file('census', o['Key'], p)\n"
    );
    python(&download, &downloaded, &tools, env, "download from moto");
    assert_same(rows(&downloaded, "", ""), rows(&local, "", ""));
    let staged: Vec<_> = common::walk(&downloaded)
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("staging"))
        .collect();
    assert!(staged.is_empty(), "{staged:?}");
    // --resume against the S3 output finds every input complete (parts found by listing, row
    // counts read from the footers) and reads nothing.
    let summary = dir.path().join("summary.json");
    let out = bin()
        .args(["scan", "--quiet", "--resume"])
        .arg(&root)
        .args(["--out", "s3://census/tables/", "--summary"])
        .arg(&summary)
        .envs(env)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: serde_json::Value = read_summary(&summary);
    assert_eq!(
        s["inputs_resumed"].as_u64().unwrap() as usize,
        archives(&root).len()
    );
    // A missing object is a failed input (exit 1), not a crash.
    let out = bin()
        .args([
            "scan",
            "--quiet",
            "s3://census/crawl-data/CC-TEST/missing.warc.gz",
        ])
        .arg("--out")
        .arg(dir.path().join("missing"))
        .envs(env)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_server_that_refuses_head_hangs_or_trickles_ends_within_its_limits() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("served");
    std::fs::create_dir(&root).unwrap();
    for name in ["x-nohead.warc.gz", "x-hang.warc.gz", "x-trickle.warc.gz"] {
        std::fs::copy(repo().join("samples/real-robots.warc.gz"), root.join(name)).unwrap();
    }
    let (_server, base) = http_server(&root, &[]);
    let out = dir.path().join("out");
    let started = Instant::now();
    let run = bin()
        .args([
            "scan",
            "-q",
            "--stall-timeout",
            "1",
            "--input-deadline",
            "5",
        ])
        .args(["nohead", "hang", "trickle"].map(|k| format!("{base}x-{k}.warc.gz")))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(
        run.status.code(),
        Some(1),
        "the hanging input could not be read"
    );
    assert!(took < Duration::from_secs(30), "took {took:?}");
    let statuses = common::duck_value(
        &out,
        "select string_agg(regexp_extract(path, 'x-[a-z]+') || ':' || status, ' ' order by path) \
         from read_parquet('inputs/*/*.parquet')",
    );
    assert_eq!(
        statuses,
        "x-hang:failed x-nohead:ok x-trickle:ok_with_errors"
    );
    // A HEAD answered 405 does not stop a GET: every record is read.
    let nohead = common::duck_value(
        &out,
        "select records from read_parquet('inputs/*/*.parquet') where path like '%nohead%'",
    );
    assert_eq!(nohead, "520");
    let errors = common::duck_value(
        &out,
        "select string_agg(regexp_extract(warc_file, 'x-[a-z]+') || ' ' || kind || ': ' || \
                           regexp_extract(detail, '(input deadline|stall)'), ' | ' order by warc_file, kind) \
         from read_parquet('errors/*/*.parquet') where kind = 'read_error'",
    );
    assert_eq!(
        errors,
        "x-hang read_error: input deadline | x-trickle read_error: input deadline"
    );
}

//! Stopping early inside gzip members: a scan that inflates large members only as far as the
//! tables need gives the same tables as `--inflate-all`, on the samples and on records made to
//! catch it out.

use crate::common;

use common::{repo, scan, table_rows};
use flate2::{write::GzEncoder, Compression};
use std::io::Write;
use std::path::{Path, PathBuf};

const TIMING: &[&str] = &[
    "started",
    "seconds",
    "gzip_early_stopped_members",
    "skipped_bytes",
];

fn run(inputs: &[&str], out: &Path, extra: &[&str]) {
    let out_s = out.to_string_lossy().into_owned();
    let mut args: Vec<&str> = inputs.to_vec();
    args.extend(["--out", &out_s, "--threads", "2"]);
    args.extend(extra);
    let (code, stderr) = scan(&args);
    assert!(code == 0 || code == 1, "{code}: {stderr}");
}

/// Scan `inputs` both ways; assert every table is the same; return the early run's
/// (early-stopped members, skipped bytes).
fn same_both_ways(inputs: &[&str], dir: &Path) -> (i64, i64) {
    let early = dir.join("early");
    let full = dir.join("full");
    run(inputs, &early, &[]);
    run(inputs, &full, &["--inflate-all"]);
    let mut rows = 0;
    for table in common::TABLES {
        let a = table_rows(&early, table, &[]);
        rows += a.len();
        assert_eq!(a, table_rows(&full, table, &[]), "{table}");
    }
    assert!(rows > 0);
    assert_eq!(
        table_rows(&early, "inputs", TIMING),
        table_rows(&full, "inputs", TIMING)
    );
    let sum = |out: &Path, col: &str| -> i64 {
        table_rows(out, "inputs", &[])
            .iter()
            .filter_map(|r| {
                r.split('|')
                    .find_map(|f| f.strip_prefix(&format!("{col}=")))
                    .and_then(|v| v.parse::<i64>().ok())
            })
            .sum()
    };
    assert_eq!(sum(&full, "gzip_early_stopped_members"), 0);
    assert_eq!(sum(&full, "skipped_bytes"), 0);
    (
        sum(&early, "gzip_early_stopped_members"),
        sum(&early, "skipped_bytes"),
    )
}

#[test]
fn samples_give_the_same_tables_with_and_without_early_stop() {
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let (members, skipped) = same_both_ways(&[samples.to_str().unwrap()], dir.path());
    assert!(members > 50, "{members}");
    assert!(skipped > 5_000_000, "{skipped}");
}

fn record(uri: &str, http: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2025-01-02T03:04:05Z\r\nWARC-Record-ID: <urn:uuid:{:08x}>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        uri.len(),
        http.len()
    )
    .into_bytes();
    r.extend_from_slice(http);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn response(headers: &str, body: &[u8]) -> Vec<u8> {
    let mut h = format!("HTTP/1.1 200 OK\r\n{headers}\r\n\r\n").into_bytes();
    h.extend_from_slice(body);
    h
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Bytes that compress poorly, so that pages are large members too.
fn noise(n: usize, seed: u64) -> String {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (b'a' + (x % 26) as u8) as char
        })
        .collect()
}

fn body_text(n: usize, seed: u64) -> String {
    format!("<p>{}</p>\n", noise(n, seed))
}

/// A body with a tag every 100 bytes or so.
fn tagged(n: usize, seed: u64) -> String {
    (0..n / 100)
        .map(|i| format!("<p>{}</p>", noise(93, seed + i as u64)))
        .collect()
}

/// Large records built to catch an early stop out, each its own gzip member unless noted.
fn tricky_archive(path: &Path) {
    let big = |s| body_text(60_000, s);
    let html = "Content-Type: text/html; charset=utf-8";
    let pages: Vec<(String, Vec<u8>)> = vec![
        // A plain page: robots meta in the head.
        ("https://a.example/1".into(), response(html, format!("<html><head><meta name=robots content=noindex></head><body>{}", big(1)).as_bytes())),
        // `</head>` inside a script: the head goes on.
        ("https://a.example/2".into(), response(html, format!("<head><script>var s='</head><body>{}';</script><meta name=googlebot content=nosnippet></head>{}", noise(20_000, 2), big(3)).as_bytes())),
        // A meta tag in the window after the head, and one past it.
        ("https://a.example/3".into(), response(html, format!("<head></head><body><meta name=robots content=noai>{}<meta name=robots content=late>", tagged(60_000, 4)).as_bytes())),
        // The same with a long text after the head: the scan must read to the next tag.
        ("https://a.example/3b".into(), response(html, format!("<head></head><body><meta name=robots content=noai-text>{}<meta name=robots content=late>", big(4)).as_bytes())),
        // `</head>` in a comment.
        ("https://a.example/3c".into(), response(html, format!("<head><!-- </head><body> --><meta name=robots content=commented></head>{}", tagged(60_000, 17)).as_bytes())),
        // A head of 300 KB (style), the meta after it.
        ("https://a.example/4".into(), response(html, format!("<head><style>{}</style><meta name=robots content=nofollow></head>{}", noise(300_000, 5), big(6)).as_bytes())),
        // A head longer than the 1 MiB scan limit.
        ("https://a.example/5".into(), response(html, format!("<head><meta name=robots content=first><title>{}</title><meta name=robots content=never></head>", noise(1_200_000, 7)).as_bytes())),
        // No head end at all.
        ("https://a.example/6".into(), response(html, format!("<meta name=robots content=x>{}", noise(80_000, 8)).as_bytes())),
        // Not HTML: only the headers count.
        ("https://a.example/7.pdf".into(), response("Content-Type: application/pdf\r\nX-Robots-Tag: noindex, noai", noise(90_000, 9).as_bytes())),
        // Chunked and content-encoded bodies are read whole.
        ("https://a.example/8".into(), response(&format!("{html}\r\nTransfer-Encoding: chunked"), format!("9c40\r\n<head><meta name=robots content=chunked></head>{}\r\n0\r\n\r\n", noise(39_950, 10)).as_bytes())),
        ("https://a.example/9".into(), {
            let page = format!("<head><meta name=robots content=gzipped></head>{}", big(11));
            response(&format!("{html}\r\nContent-Encoding: gzip"), &gzip(page.as_bytes()))
        }),
        // A large robots.txt is read whole.
        ("https://a.example/robots.txt".into(), response("Content-Type: text/plain", format!("User-agent: *\nDisallow: /private\n# {}\nUser-agent: GPTBot\nDisallow: /\n", noise(70_000, 12)).as_bytes())),
    ];
    let mut out = Vec::new();
    for (uri, http) in &pages {
        out.extend(gzip(&record(uri, http)));
    }
    // Two large records in one member.
    let mut two = record(
        "https://b.example/1",
        &response(
            html,
            format!("<head><meta name=robots content=one></head>{}", big(13)).as_bytes(),
        ),
    );
    two.extend(record(
        "https://b.example/2",
        &response(
            html,
            format!("<head><meta name=robots content=two></head>{}", big(14)).as_bytes(),
        ),
    ));
    out.extend(gzip(&two));
    // A member with bytes after its record (its size is not the record's).
    let mut extra = record(
        "https://b.example/3",
        &response(
            html,
            format!("<head><meta name=robots content=extra></head>{}", big(15)).as_bytes(),
        ),
    );
    extra.extend_from_slice(b"trailing junk\r\n");
    out.extend(gzip(&extra));
    // A Content-Length that is too short.
    let mut short = record(
        "https://b.example/4",
        &response(
            html,
            format!("<head><meta name=robots content=short></head>{}", big(16)).as_bytes(),
        ),
    );
    let at = memchr::memmem::find(&short, b"Content-Length: ").unwrap() + 16;
    short[at] = b'1';
    out.extend(gzip(&short));
    // Small members between, as in Common Crawl.
    out.extend(gzip(&record(
        "https://c.example/",
        &response(html, b"<head><meta name=robots content=small></head>"),
    )));
    std::fs::write(path, out).unwrap();
}

#[test]
fn records_made_to_catch_it_out_give_the_same_tables() {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("tricky.warc.gz");
    tricky_archive(&path);
    if let Ok(p) = std::env::var("TRICKY_OUT") {
        std::fs::copy(&path, p).unwrap();
    }
    // The same archive cut short inside a large member's tail.
    let data = std::fs::read(&path).unwrap();
    let cut = dir.path().join("cut.warc.gz");
    let first_len = {
        let mut inf = repcensus::internals::MemberInflater::new();
        let mut buf = vec![0u8; 8 << 20];
        match inf.inflate(&data, &mut buf) {
            repcensus::internals::MemberResult::Ok { consumed, .. } => consumed,
            other => panic!("{other:?}"),
        }
    };
    std::fs::write(&cut, &data[..first_len - 500]).unwrap();
    let inputs = [path.to_str().unwrap(), cut.to_str().unwrap()];
    let (members, skipped) = same_both_ways(&inputs, dir.path());
    // Pages 1, 2, 3 and 3c and the PDF stop early; the others need (nearly) all of their
    // member, or are not one record per member, or are cut short.
    assert_eq!(members, 5);
    assert!(skipped > 200_000, "{skipped}");
    let signals = table_rows(&dir.path().join("early"), "page_signals", &[]);
    for want in [
        "noindex",
        "nosnippet",
        "noai",
        "nofollow",
        "first",
        "chunked",
        "gzipped",
        "one",
        "two",
        "extra",
    ] {
        assert!(
            signals
                .iter()
                .any(|r| r.ends_with(&format!("raw_value={want}"))),
            "{want}: {signals:#?}"
        );
    }
}

#[test]
fn damage_in_a_skipped_tail_is_seen_only_with_inflate_all() {
    // The documented price of stopping early: the tail of a page is not inflated, so damage
    // there is not seen. --inflate-all sees it.
    let dir = tempfile::tempdir().unwrap();
    let rec = record(
        "https://d.example/",
        &response(
            "Content-Type: text/html",
            format!(
                "<head><meta name=robots content=noindex></head>{}",
                body_text(100_000, 21)
            )
            .as_bytes(),
        ),
    );
    let mut member = gzip(&rec);
    let n = member.len();
    member[n - 8] ^= 0xff; // the CRC
    member.extend(gzip(&record(
        "https://d.example/2",
        &response("Content-Type: text/html", b"<p>x"),
    )));
    let path = dir.path().join("crc.warc.gz");
    std::fs::write(&path, member).unwrap();
    let p = path.to_str().unwrap();
    let early = dir.path().join("early");
    let full = dir.path().join("full");
    run(&[p], &early, &[]);
    run(&[p], &full, &["--inflate-all"]);
    let kinds = |out: &Path| -> Vec<String> {
        table_rows(out, "errors", &[])
            .iter()
            .filter_map(|r| {
                r.split('|')
                    .find(|f| f.starts_with("kind="))
                    .map(String::from)
            })
            .collect()
    };
    assert_eq!(kinds(&early), Vec::<String>::new());
    assert_eq!(kinds(&full), vec!["kind=gzip_checksum".to_string()]);
    assert_eq!(
        table_rows(&early, "page_signals", &[]),
        table_rows(&full, "page_signals", &[])
    );
}

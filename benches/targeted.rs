//! Targeted census benchmark (`scan --records`): records per second and range requests per
//! record, with the records read from a local file and fetched over loopback HTTP (the tests'
//! Python range server), against a scan of the whole archive from the same server.
//!
//!   cargo bench --bench targeted                         # 1 GiB cc-pages archive, a quarter of its pages
//!   REPCENSUS_BENCH_SIZE=200M cargo bench --bench targeted
//!   REPCENSUS_BENCH_SHARE=10 cargo bench --bench targeted   # every 10th page instead of every 4th
//!   REPCENSUS_BENCH_DELAY_MS=50 cargo bench --bench targeted # each GET answered 50 ms late
//!
//! The archive is `repcensus generate --kind cc-pages` (seed 42), made once into
//! target/bench-data/ as the e2e bench makes it. The list names every N-th response record (by
//! a fixed stride, so the records are spread over the whole archive as an index query's would
//! be), with the offsets and lengths of their gzip members. Three interleaved rounds; the least
//! wall and CPU seconds (of the scan's process) of each measurement are printed.

#[path = "../tests/common/servers.rs"]
mod servers;

use repcensus::{generate, GenKind, GenOptions, Layout, GEN_REVISION};
use servers::Server;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn parse_size(s: &str) -> u64 {
    let (n, m) = match s.chars().last() {
        Some('G') => (&s[..s.len() - 1], 1u64 << 30),
        Some('M') => (&s[..s.len() - 1], 1 << 20),
        _ => (s, 1),
    };
    n.parse::<u64>().expect("REPCENSUS_BENCH_SIZE") * m
}

fn ensure(path: &Path, size: u64) {
    if path.exists() {
        return;
    }
    eprintln!("generating {} ...", path.display());
    let tmp = path.with_extension("tmp");
    let mut f = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp).unwrap());
    let opts = GenOptions {
        kind: GenKind::CcPages,
        layout: Layout::GzipPerRecord,
        target_bytes: size,
        seed: 42,
        bodies: Vec::new(),
    };
    generate(&opts, &mut f).unwrap();
    drop(f);
    std::fs::rename(&tmp, path).unwrap();
}

/// Every `share`-th response record of a per-record `.warc.gz`: (offset, length) of its member.
fn responses(path: &Path, share: usize) -> Vec<(u64, u64)> {
    let data = std::fs::read(path).unwrap();
    let mut rest: &[u8] = &data;
    let mut out = Vec::new();
    let mut seen = 0;
    let mut head = Vec::with_capacity(512);
    while !rest.is_empty() {
        let offset = (data.len() - rest.len()) as u64;
        let mut d = flate2::bufread::GzDecoder::new(&mut rest);
        head.clear();
        std::io::Read::read_to_end(&mut std::io::Read::take(&mut d, 512), &mut head).unwrap();
        std::io::copy(&mut d, &mut std::io::sink()).unwrap();
        drop(d);
        let len = data.len() as u64 - rest.len() as u64 - offset;
        let needle: &[u8] = b"WARC-Type: response";
        if head.windows(needle.len()).any(|w| w == needle) {
            if seen % share == 0 {
                out.push((offset, len));
            }
            seen += 1;
        }
    }
    out
}

fn http_server(root: &Path, served: &Path, delay_ms: u64) -> (Server, String) {
    let delay = format!("{}", delay_ms as f64 / 1000.0);
    servers::http_server(root, served, &["--delay", &delay])
}

fn cpu_children() -> f64 {
    // SAFETY: `getrusage` only writes the struct it is given, which is plain data.
    let (rc, u) = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        (libc::getrusage(libc::RUSAGE_CHILDREN, &mut u), u)
    };
    assert_eq!(rc, 0);
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// One scan: wall s, CPU s of the scan process, and its run summary.
fn run(bin: &Path, args: &[String]) -> (f64, f64, serde_json::Value) {
    let out = std::env::temp_dir().join(format!("repcensus-targeted-{}", std::process::id()));
    let summary = out.with_extension("json");
    let _ = std::fs::remove_dir_all(&out);
    let (t, cpu) = (Instant::now(), cpu_children());
    let st = Command::new(bin)
        .args(["scan", "--quiet", "--out"])
        .arg(&out)
        .arg("--summary")
        .arg(&summary)
        .args(args)
        .status()
        .unwrap();
    let (secs, cpu) = (t.elapsed().as_secs_f64(), cpu_children() - cpu);
    assert!(st.success(), "scan {args:?} failed");
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_file(&summary);
    (secs, cpu, s)
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let size = parse_size(&std::env::var("REPCENSUS_BENCH_SIZE").unwrap_or_else(|_| "1G".into()));
    let share: usize = std::env::var("REPCENSUS_BENCH_SHARE").map_or(4, |v| v.parse().unwrap());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data_dir = root.join("target/bench-data");
    std::fs::create_dir_all(&data_dir).unwrap();
    let name = format!("cc-pages-{size}-r{GEN_REVISION}.warc.gz");
    let archive = data_dir.join(&name);
    ensure(&archive, size);
    assert!(Command::new("cargo")
        .args(["build", "--profile", "bench", "--quiet"])
        .current_dir(&root)
        .status()
        .unwrap()
        .success());
    let bin = root.join("target/release/repcensus");
    let records = responses(&archive, share);
    let list = data_dir.join(format!("{name}.every-{share}.csv"));
    let mut csv = String::from("warc_filename,warc_record_offset,warc_record_length\n");
    for (o, l) in &records {
        csv.push_str(&format!("{name},{o},{l}\n"));
    }
    std::fs::write(&list, csv).unwrap();
    let delay: u64 = std::env::var("REPCENSUS_BENCH_DELAY_MS").map_or(0, |v| v.parse().unwrap());
    let (_server, url) = http_server(&root, &data_dir, delay);
    let listed = |prefix: &str, conc: &str| -> Vec<String> {
        [
            "--records",
            list.to_str().unwrap(),
            "--prefix",
            prefix,
            "--fetch-concurrency",
            conc,
        ]
        .map(String::from)
        .to_vec()
    };
    let runs: Vec<(&str, Vec<String>)> = vec![
        ("list, local file", listed(data_dir.to_str().unwrap(), "16")),
        ("list, HTTP, 16 requests in flight", listed(&url, "16")),
        ("list, HTTP, 4 in flight", listed(&url, "4")),
        ("list, HTTP, 1 in flight", listed(&url, "1")),
        ("whole archive, HTTP", vec![format!("{url}{name}")]),
    ];
    let mut best = vec![(f64::MAX, f64::MAX, serde_json::Value::Null); runs.len()];
    for _round in 0..3 {
        for (k, (_, args)) in runs.iter().enumerate() {
            let (secs, cpu, s) = run(&bin, args);
            if secs < best[k].0 {
                best[k].0 = secs;
                best[k].2 = s;
            }
            best[k].1 = best[k].1.min(cpu);
        }
    }
    println!(
        "{} of the archive's response records listed ({} MB compressed archive); GETs answered {delay} ms late",
        records.len(),
        std::fs::metadata(&archive).unwrap().len() / 1_000_000
    );
    println!("| run | records | wall s | records/s | scan CPU s | requests | requests/record | MB fetched |");
    println!("|---|---|---|---|---|---|---|---|");
    for ((label, _), (secs, cpu, s)) in runs.iter().zip(&best) {
        let recs = s["records"].as_u64().unwrap_or(0);
        let (requests, bytes) = match &s["fetch"] {
            serde_json::Value::Null => (None, s["bytes"].as_u64().unwrap_or(0)),
            f => (f["requests"].as_u64(), f["bytes"].as_u64().unwrap_or(0)),
        };
        let per = requests.map_or("-".to_string(), |r| {
            format!("{:.3}", r as f64 / records.len() as f64)
        });
        println!(
            "| {label} | {recs} | {secs:.2} | {:.0} | {cpu:.2} | {} | {per} | {:.1} |",
            recs as f64 / secs,
            requests.map_or("-".to_string(), |r| r.to_string()),
            bytes as f64 / 1e6
        );
    }
}

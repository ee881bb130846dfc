//! End-to-end benchmark: `repcensus scan` against the plain-decompression floor on the same file,
//! both using every core, in the same run. Prints throughput, the ratio and peak memory.
//!
//!   cargo bench --bench e2e                      # 1 GiB (uncompressed) pages and robots archives
//!   REPCENSUS_BENCH_SIZE=200M cargo bench --bench e2e
//!   REPCENSUS_BENCH_KINDS=pages cargo bench --bench e2e   # some kinds only (pages,cc-pages,robots,robots-real)
//!   REPCENSUS_BENCH_PER_TABLE=0 cargo bench --bench e2e   # without each robots.txt table alone
//!   REPCENSUS_BENCH_PEER=0 cargo bench --bench e2e        # without the FastWARC + pyarrow peer
//!
//! The archives are generated once (deterministically) into target/bench-data/, named by their kind,
//! size and the generator's revision (`GEN_REVISION`). The floor inflates
//! every gzip member of the file and nothing else, split at member starts over the same number of
//! threads as the scan; it is measured with libdeflate (the scan's inflater) and with flate2's
//! zlib-rs backend. Besides the default scan it runs `scan --tables robots_files` (the engine of
//! issue 2 with only the capture table, no verdicts, line tables or head scans) and, for the page
//! kinds, `scan --inflate-all`; and `scan --tables errors`, which writes only `errors` and
//! `inputs`: the reader alone (framing, inflating, WARC heads, records counted by type), the part
//! of the scan every table pays before any table's own work. On the robots.txt kinds it also
//! runs each table a capture feeds alone (`--tables T`), printed as a second table. Three rounds each run every
//! measurement once; the best of each is printed: the least wall time, and apart from it the least
//! CPU time (user + system, of this process's threads for the floor and of the child for a scan),
//! since this VM's phases move wall times by more than a change does.
//!
//! The peer is `benches/peer_fastwarc.py`: FastWARC, regexes and pyarrow on one core, one Parquet
//! row per capture (what a researcher might write instead). Its packages are installed from PyPI
//! into target/tools/peer on first use; when they cannot be had the bench says so and goes on
//! without it. It runs in the same rounds, and the last table gives the scan's speed-up over it.

#[path = "../tests/common/pip.rs"]
mod pip;

use repcensus::inputs::{plan_chunks, Container};
use repcensus::internals::{MemberInflater, MemberResult};
use repcensus::{generate, real_bodies, GenKind, GenOptions, Layout, GEN_REVISION};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The tables a robots.txt capture feeds besides `robots_files` (measured on every kind), each
/// run alone on the robots.txt kinds (`REPCENSUS_BENCH_PER_TABLE=0` skips them).
const ROBOTS_TABLES: [&str; 6] = [
    "robots_agents",
    "robots_rules",
    "app_directives",
    "acap_fields",
    "agent_verdicts",
    "host_counts",
];

fn parse_size(s: &str) -> u64 {
    let (n, m) = match s.chars().last() {
        Some('G') => (&s[..s.len() - 1], 1u64 << 30),
        Some('M') => (&s[..s.len() - 1], 1 << 20),
        _ => (s, 1),
    };
    n.parse::<u64>().expect("REPCENSUS_BENCH_SIZE") * m
}

fn ensure(path: &Path, kind: GenKind, size: u64) {
    if path.exists() {
        return;
    }
    eprintln!("generating {} ...", path.display());
    let tmp = path.with_extension("tmp");
    let mut f = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp).unwrap());
    generate(
        &GenOptions {
            kind,
            layout: Layout::GzipPerRecord,
            target_bytes: size,
            seed: 42,
            // robots-real draws its 2xx bodies from the samples' real robots.txt files.
            bodies: match kind {
                GenKind::RobotsReal => real_bodies(
                    &Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/real-robots.warc.gz"),
                )
                .unwrap(),
                _ => Vec::new(),
            },
        },
        &mut f,
    )
    .unwrap();
    drop(f);
    std::fs::rename(&tmp, path).unwrap();
}

/// A measurement: wall seconds, CPU seconds (user + system), and a count (the inflated bytes of a
/// floor, the peak RSS in KiB of a scan, the rows of the peer).
#[derive(Clone, Copy)]
struct Run {
    secs: f64,
    cpu: f64,
    n: u64,
}

/// The best of the rounds: the count of the fastest, and the least CPU time of any.
impl Run {
    const NONE: Run = Run {
        secs: f64::MAX,
        cpu: f64::MAX,
        n: 0,
    };

    fn keep(&mut self, r: Run) {
        if r.secs < self.secs {
            self.secs = r.secs;
            self.n = r.n;
        }
        self.cpu = self.cpu.min(r.cpu);
    }
}

/// CPU seconds (user + system) so far of this process's threads (`libc::RUSAGE_SELF`) or of its
/// children that were waited for (`libc::RUSAGE_CHILDREN`).
fn cpu_seconds(who: libc::c_int) -> f64 {
    // SAFETY: `getrusage` only writes the struct it is given, which is plain data.
    let (rc, u) = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        (libc::getrusage(who, &mut u), u)
    };
    // A failed call would leave zeros, and every CPU figure would be silently 0.
    assert_eq!(rc, 0, "getrusage: {}", std::io::Error::last_os_error());
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// Time `f` (which runs on this process's threads), wall and CPU.
fn timed(f: impl FnOnce() -> u64) -> Run {
    let (t, cpu) = (Instant::now(), cpu_seconds(libc::RUSAGE_SELF));
    let n = f();
    Run {
        secs: t.elapsed().as_secs_f64(),
        cpu: cpu_seconds(libc::RUSAGE_SELF) - cpu,
        n,
    }
}

/// Time `run_child`, which runs a child process to its end (and waits for it), wall and CPU.
fn timed_child<T>(run_child: impl FnOnce() -> T) -> (Run, T) {
    let (t, cpu) = (Instant::now(), cpu_seconds(libc::RUSAGE_CHILDREN));
    let out = run_child();
    let run = Run {
        secs: t.elapsed().as_secs_f64(),
        cpu: cpu_seconds(libc::RUSAGE_CHILDREN) - cpu,
        n: 0,
    };
    (run, out)
}

/// Inflate every member of `data` on `threads` threads; returns (seconds, inflated bytes).
/// The file cut at member starts into chunks of the scan's size, taken by the threads from a
/// shared counter (the scan's scheduling), so that neither side gains from balance.
fn floor_chunks(data: &[u8], threads: usize) -> Vec<(usize, usize)> {
    let target = repcensus::chunk_target(data.len(), threads, repcensus::DEFAULT_CHUNK);
    plan_chunks(data, Container::Gzip, target)
}

fn parallel<F: Fn((usize, usize)) -> u64 + Sync>(
    chunks: &[(usize, usize)],
    threads: usize,
    f: F,
) -> u64 {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut sum = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        match chunks.get(i) {
                            Some(&c) => sum += f(c),
                            None => break sum,
                        }
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

/// Inflate every member of `data` with libdeflate; the count is the inflated bytes.
fn floor_libdeflate(data: &[u8], threads: usize) -> Run {
    let chunks = floor_chunks(data, threads);
    timed(|| {
        parallel(&chunks, threads, |(start, end)| {
            let mut inf = MemberInflater::new();
            let mut out = vec![0u8; 32 << 20];
            let (mut pos, mut sum) = (start, 0u64);
            while pos < end {
                match inf.inflate(&data[pos..end], &mut out) {
                    MemberResult::Ok { consumed, written } => {
                        pos += consumed;
                        sum += written as u64;
                    }
                    other => panic!("floor: {other:?} at {pos}"),
                }
            }
            sum
        })
    })
}

/// The same with flate2 (zlib-rs backend).
fn floor_flate2(data: &[u8], threads: usize) -> Run {
    use std::io::Read;
    let chunks = floor_chunks(data, threads);
    timed(|| {
        parallel(&chunks, threads, |(start, end)| {
            let mut r = flate2::read::MultiGzDecoder::new(&data[start..end]);
            let mut buf = vec![0u8; 1 << 20];
            let mut sum = 0u64;
            loop {
                let n = r.read(&mut buf).unwrap();
                if n == 0 {
                    break sum;
                }
                sum += n as u64;
            }
        })
    })
}

/// Run the scan binary; the count is its peak RSS in KiB. The peak is the scan's own `VmHWM`,
/// from its `--summary`: the `ru_maxrss` that `wait4` gives a parent counts, on Linux, the
/// memory of the process that spawned the child (here this benchmark with the archive mapped),
/// which is what this table showed until that was noticed.
fn run_scan(bin: &Path, input: &Path, threads: usize, extra: &[&str]) -> Run {
    let out = std::env::temp_dir().join(format!("repcensus-bench-{}", std::process::id()));
    let summary = out.with_extension("json");
    let _ = std::fs::remove_dir_all(&out);
    let (run, status) = timed_child(|| {
        Command::new(bin)
            .args([
                "scan",
                "--quiet",
                "--threads",
                &threads.to_string(),
                "--out",
            ])
            .arg(&out)
            .arg("--summary")
            .arg(&summary)
            .args(extra)
            .arg(input)
            .status()
            .unwrap()
    });
    assert!(status.success(), "scan failed");
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let rss = s["peak_rss_bytes"]
        .as_u64()
        .expect("peak_rss_bytes (Linux)")
        / 1024;
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_file(&summary);
    Run { n: rss, ..run }
}

/// The peer's Python packages, pinned: installed into target/tools/peer on first use. `None`
/// (with the reason printed) when pip cannot install them.
const PEER_PACKAGES: [&str; 2] = ["fastwarc==2.0.1", "pyarrow==26.0.1"];

fn peer_tools(root: &Path) -> Option<PathBuf> {
    let tools = root.join("target/tools/peer");
    if !tools.join("fastwarc").exists() || !tools.join("pyarrow").exists() {
        eprintln!(
            "installing the peer's packages {PEER_PACKAGES:?} into {} ...",
            tools.display()
        );
        if !pip::install(&tools, &PEER_PACKAGES) {
            println!("peer: not run (pip could not install {PEER_PACKAGES:?})");
            return None;
        }
    }
    Some(tools)
}

/// Run the peer on `input` (one core); the count is the rows it wrote.
fn run_peer(root: &Path, tools: &Path, input: &Path) -> Run {
    let out = std::env::temp_dir().join(format!("repcensus-peer-{}.parquet", std::process::id()));
    let (run, o) = timed_child(|| {
        Command::new("python3")
            .arg(root.join("benches/peer_fastwarc.py"))
            .arg(input)
            .arg(&out)
            .env("PYTHONPATH", tools)
            .output()
            .unwrap()
    });
    assert!(
        o.status.success(),
        "peer failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_file(&out);
    let rows = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
    assert!(rows > 0, "the peer wrote no rows");
    Run { n: rows, ..run }
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return; // `cargo test --benches` lists or smoke-runs benches; this one is too large.
    }
    let size = parse_size(&std::env::var("REPCENSUS_BENCH_SIZE").unwrap_or_else(|_| "1G".into()));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data_dir = root.join("target/bench-data");
    std::fs::create_dir_all(&data_dir).unwrap();
    let bin = root.join("target/release/repcensus");
    assert!(
        Command::new("cargo")
            // The bench profile (thin LTO), as the criterion benchmarks; it builds into
            // target/release too.
            .args(["build", "--profile", "bench", "--quiet"])
            .current_dir(&root)
            .status()
            .unwrap()
            .success(),
        "build the binary with the bench profile"
    );
    println!("threads: {threads}; uncompressed size per archive: {size} bytes");
    println!("| archive | compressed MB | floor libdeflate s (MB/s) | floor flate2/zlib-rs s (MB/s) | scan s (MB/s) | scan / libdeflate floor | peak RSS MB | scan --tables robots_files s | its ratio | its peak RSS MB | scan --inflate-all s | its ratio | scan --tables errors (reading only) s | its ratio |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let per_table = std::env::var("REPCENSUS_BENCH_PER_TABLE").map_or(true, |v| v != "0");
    let mut per_table_rows = Vec::new();
    let peer = std::env::var("REPCENSUS_BENCH_PEER")
        .map_or(true, |v| v != "0")
        .then(|| peer_tools(&root))
        .flatten();
    let mut peer_rows = Vec::new();
    let mut cpu_rows = Vec::new();
    let kinds = std::env::var("REPCENSUS_BENCH_KINDS")
        .unwrap_or_else(|_| "pages,cc-pages,robots,robots-real".into());
    for (name, kind) in [
        ("pages", GenKind::Pages),
        ("cc-pages", GenKind::CcPages),
        ("robots", GenKind::Robots),
        ("robots-real", GenKind::RobotsReal),
    ] {
        if !kinds.split(',').any(|k| k == name) {
            continue;
        }
        // Named by the generator's revision too: an archive of an older generator is not reused.
        let path = data_dir.join(format!("{name}-{size}-r{GEN_REVISION}.warc.gz"));
        ensure(&path, kind, size);
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: a file this benchmark generated and nobody else writes.
        let map = unsafe { memmap2::Mmap::map(&file).unwrap() };
        let mb = map.len() as f64 / 1e6;
        // Warm the page cache, then three rounds that each run every measurement once, so that
        // a slow phase of the machine hits all of them alike; the best of each is reported.
        let _ = floor_libdeflate(&map, threads);
        let [mut fl, mut ff, mut sc, mut st, mut sa, mut sr, mut pr] = [Run::NONE; 7];
        let robots = matches!(kind, GenKind::Robots | GenKind::RobotsReal);
        // On robots.txt archives, each table the captures feed alone, in the same rounds.
        let alone: &[&str] = if robots && per_table {
            &ROBOTS_TABLES
        } else {
            &[]
        };
        let mut sp = vec![Run::NONE; alone.len()];
        for _ in 0..3 {
            fl.keep(floor_libdeflate(&map, threads));
            ff.keep(floor_flate2(&map, threads));
            sc.keep(run_scan(&bin, &path, threads, &[]));
            st.keep(run_scan(
                &bin,
                &path,
                threads,
                &["--tables", "robots_files"],
            ));
            // Stopping early inside members concerns pages only (robots.txt captures are read
            // whole).
            if !robots {
                sa.keep(run_scan(&bin, &path, threads, &["--inflate-all"]));
            }
            sr.keep(run_scan(&bin, &path, threads, &["--tables", "errors"]));
            for (best, table) in sp.iter_mut().zip(alone) {
                best.keep(run_scan(&bin, &path, threads, &["--tables", table]));
            }
            if let Some(tools) = &peer {
                pr.keep(run_peer(&root, tools, &path));
            }
        }
        if peer.is_some() {
            peer_rows.push(format!(
                "| {name} | {:.2} | {} | {:.2} | {:.1} | {:.2} | {:.2} |",
                pr.secs,
                pr.n,
                sc.secs,
                pr.secs / sc.secs,
                pr.cpu,
                sc.cpu,
            ));
        }
        assert_eq!(fl.n, ff.n, "both floors inflate the same bytes");
        let with_files = std::iter::once((&st, &"robots_files")).filter(|_| !alone.is_empty());
        for (best, table) in with_files.chain(sp.iter().zip(alone)) {
            per_table_rows.push(format!(
                "| {name} | `{table}` | {:.2} | {:.2} | {:.2} | {:.2} | {:.0} |",
                best.secs,
                fl.secs / best.secs,
                best.cpu,
                fl.cpu / best.cpu,
                best.n as f64 / 1024.0
            ));
        }
        let all = if robots {
            "| |".to_string()
        } else {
            format!("{:.2} | {:.2} |", sa.secs, fl.secs / sa.secs)
        };
        println!(
            "| {name} | {mb:.0} | {:.2} ({:.0}) | {:.2} ({:.0}) | {:.2} ({:.0}) | {:.2} | {:.0} | {:.2} | {:.2} | {:.0} | {all} {:.2} | {:.2} |",
            fl.secs,
            mb / fl.secs,
            ff.secs,
            mb / ff.secs,
            sc.secs,
            mb / sc.secs,
            fl.secs / sc.secs,
            sc.n as f64 / 1024.0,
            st.secs,
            fl.secs / st.secs,
            st.n as f64 / 1024.0,
            sr.secs,
            fl.secs / sr.secs,
        );
        cpu_rows.push(format!(
            "| {name} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            fl.cpu,
            sc.cpu,
            fl.cpu / sc.cpu,
            st.cpu,
            fl.cpu / st.cpu,
            sr.cpu,
            fl.cpu / sr.cpu,
        ));
    }
    println!();
    println!("CPU seconds (user + system; the floor's threads, the scan's process), least of the same rounds:");
    println!("| archive | floor libdeflate CPU s | scan CPU s | floor / scan | `--tables robots_files` CPU s | floor / it | reading only CPU s | floor / it |");
    println!("|---|---|---|---|---|---|---|---|");
    for r in cpu_rows {
        println!("{r}");
    }
    if !per_table_rows.is_empty() {
        println!();
        println!("each table alone (`scan --tables T`), best of the same rounds:");
        println!("| archive | table | scan s | scan / libdeflate floor | CPU s | floor CPU / its CPU | peak RSS MB |");
        println!("|---|---|---|---|---|---|---|");
        for r in per_table_rows {
            println!("{r}");
        }
    }
    if !peer_rows.is_empty() {
        println!();
        println!("the peer (benches/peer_fastwarc.py, one core) against the scan with every table, best of the same rounds:");
        println!(
            "| archive | peer s | peer rows | scan s | scan speed-up | peer CPU s | scan CPU s |"
        );
        println!("|---|---|---|---|---|---|---|");
        for r in peer_rows {
            println!("{r}");
        }
    }
}

//! The scan: inputs in, Parquet parts out, on every core.
//!
//! Work is a queue of tasks shared by the workers of a rayon pool. Planning an input (open, map,
//! sniff, find chunk boundaries) is a task; each chunk of a large input becomes a task pushed to
//! the front of the queue, so all workers help with a large file before moving on, and at most a
//! few inputs are open at once whatever their number. Each worker owns its inflaters and decode
//! buffers and reuses them for every chunk.
//!
//! When the last chunk of an input is done, the worker that finished it writes the input's parts
//! (rows in file order, so one thread and many threads give identical tables) and renames them
//! into place. Per-input problems are rows in `errors`, a line on stderr and a status in `inputs`;
//! only output errors stop the run.

mod doubled;
mod input_state;
mod inputs_row;
mod read;
pub mod records_list;
pub mod resume;
mod shared;
mod state;
mod summary;
mod targeted;

pub use inputs_row::{ArchiveFormat, InputStatus};
pub use shared::{ScanOptions, TestHooks};
pub use summary::ScanSummary;

use crate::archive::container::reader::ContainerStats;
use crate::archive::problem::ErrorKind;
use crate::archive::source::input::{self, Container};
use crate::archive::source::local::{self, Local};
use crate::archive::source::mapped::Mapped;
use crate::archive::source::remote;
use crate::parts::OutDir;
use crate::rows::ChunkOutput;
use crate::tables::Table;
use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use input_state::InputState;
use read::{limits, populate, read_chunk, read_remote, read_windowed, release};
use shared::{lock, Queue, Shared, Task, Worker};
use state::{deliver, fail_input, fail_open, skip_or_empty};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// Default chunk size: large inputs are cut into pieces of about this many (compressed) bytes.
/// A chunk's rows are held until it finishes; with an `agent_verdicts` row per agent and robots.txt
/// capture (184 agents when measured), a 32 MiB robots chunk held about 1 GB of rows, an 8 MiB one about
/// a quarter of that (same throughput, see BENCHMARKS.md).
pub const DEFAULT_CHUNK: usize = 8 << 20;

/// The chunk size for an input of `len` bytes: enough chunks to keep every worker busy to the
/// end (about four per thread), at least 4 MiB (smaller is all overhead), at most `max`.
pub fn chunk_target(len: usize, threads: usize, max: usize) -> usize {
    (len / (4 * threads.max(1))).max(4 << 20).min(max.max(1))
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    format!("internal error (a bug in repcensus, please report it): {what}")
}

fn internal_error(name: &str, detail: &str) -> ChunkOutput {
    ChunkOutput::failed(name, ErrorKind::InternalError, detail)
}

/// Planning (or reading a one-chunk input) panicked: fail the input, keep the run going.
fn plan_panicked(shared: &Shared<'_>, i: usize, detail: &str) -> Result<()> {
    // The chunks the panic left undelivered: those of an input read inline (its only chunk, or
    // every chunk of a targeted input, delivered one after another), not those queued as tasks.
    let undelivered = {
        let slot = lock(&shared.inputs[i]);
        let inline = |s: &InputState| s.chunks == 1 || shared.opts.targets.get(i).is_some();
        slot.as_ref()
            .map(|s| if inline(s) { s.done..s.chunks } else { 0..0 })
    };
    match undelivered {
        Some(left) => {
            for index in left.clone() {
                // The first of them says what happened; the rest are empty.
                let output = match index == left.start {
                    true => internal_error(&shared.names[i], detail),
                    false => crate::rows::ChunkOutput::default(),
                };
                deliver(shared, i, index, output, ContainerStats::default())?;
            }
            Ok(())
        }
        None => fail_input(
            shared,
            i,
            0,
            Container::Empty,
            ErrorKind::InternalError,
            detail,
        ),
    }
}

/// Run a scan. Errors are output errors (the caller exits 2); input problems are in the summary.
pub fn scan(opts: &ScanOptions) -> Result<ScanSummary> {
    let started = Instant::now();
    // Checked before anything is read.
    let page_agents =
        crate::derive::page_verdicts::choose_agents(&opts.registry, opts.page_agents.as_deref())?;
    let out = OutDir::create(&opts.out)?;
    Table::write_schemas(&out, opts.tables)?;

    let ids = match &opts.ids {
        Some(ids) if ids.len() == opts.inputs.len() => ids.clone(),
        _ => input::input_ids(&opts.inputs),
    };
    let names: Vec<String> = opts
        .inputs
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let total: u64 = if opts.targets.is_empty() {
        (opts.inputs.iter())
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    } else {
        opts.targets.iter().map(|t| t.bytes()).sum()
    };
    let archives: Vec<String> = if opts.targets.is_empty() {
        names.clone()
    } else {
        (opts.targets.iter())
            .flat_map(|t| t.archives.iter().map(|a| a.name.clone()))
            .collect()
    };
    let replaced: std::collections::BTreeSet<String> = ids.iter().cloned().collect();
    let targeted = !opts.targets.is_empty();
    // Said, not fatal: the check reads other inputs' parts, which may be damaged.
    let doubled = doubled::doubled_records(&out, &archives, targeted, &replaced)
        .unwrap_or_else(|e| Some(format!("could not check for rows held twice: {e:#}")));
    let fetcher = (!opts.targets.is_empty())
        .then(|| {
            crate::archive::source::ranges::Fetcher::new(
                opts.fetch_concurrency,
                limits(opts),
                opts.range_redirects,
            )
        })
        .transpose()?;
    let bar = if opts.progress {
        let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        b.set_style(
            // Decimal units (MB), as the summary; the message says inputs done and the input
            // being opened.
            ProgressStyle::with_template("{spinner} {elapsed_precise} [{bar:30}] {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} ETA {eta}\n  {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let shared = Shared {
        opts,
        out: &out,
        ids,
        names,
        queue: Mutex::new(Queue {
            tasks: (0..opts.inputs.len()).map(Task::Plan).collect(),
            in_flight: 0,
            stop: false,
        }),
        cv: Condvar::new(),
        inputs: opts.inputs.iter().map(|_| Mutex::new(None)).collect(),
        summary: Mutex::new(ScanSummary {
            inputs: opts.inputs.len(),
            warnings: doubled.into_iter().collect(),
            ..ScanSummary::default()
        }),
        output_error: Mutex::new(None),
        spare: Mutex::new(Vec::new()),
        bar,
        opened: std::sync::atomic::AtomicUsize::new(usize::MAX),
        fetcher,
    };
    let threads = opts.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    pool.scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| worker_loop(&shared));
        }
    });
    shared.bar.finish_and_clear();
    if let Some(e) = lock(&shared.output_error).take() {
        out.close();
        return Err(e);
    }
    let mut summary = lock(&shared.summary).clone();
    if let Some(f) = &shared.fetcher {
        let n = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
        summary.fetch = Some(summary::FetchTotals {
            requests: n(&f.counts.requests),
            retries: n(&f.counts.retries),
            bytes: n(&f.counts.bytes),
            records: opts.targets.iter().map(|t| t.listed()).sum(),
        });
    }
    let derives = opts.tables.writes(Table::RobotsFiles) || opts.tables.writes(Table::PageSignals);
    // The crawls of the inputs, and those that lost an input's parts to another crawl name.
    let mut crawls = summary.crawls.clone();
    crawls.extend(out.crawls_that_lost_parts());
    let hosts = (opts.derive_hosts && derives).then(|| {
        crate::derive::hosts::derive(
            &out,
            Some(&crawls),
            &opts.registry,
            &page_agents,
            &opts.derive_budget,
        )
    });
    out.close();
    summary.hosts = hosts.transpose()?;
    summary.seconds = started.elapsed().as_secs_f64();
    summary.peak_rss_bytes = peak_rss_bytes();
    Ok(summary)
}

/// This process's peak resident set size (`VmHWM` in /proc/self/status; Linux only). Unlike the
/// `ru_maxrss` a parent gets from `wait4`, it does not include the memory of the process that
/// spawned this one.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line["VmHWM:".len()..]
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

fn worker_loop(shared: &Shared<'_>) {
    let mut worker = Worker::new(shared.opts);
    loop {
        let task = {
            let mut q = lock(&shared.queue);
            loop {
                if q.stop {
                    return;
                }
                if let Some(t) = q.tasks.pop_front() {
                    q.in_flight += 1;
                    break t;
                }
                if q.in_flight == 0 {
                    return;
                }
                q = shared.cv.wait(q).unwrap_or_else(|p| p.into_inner());
            }
        };
        let result = match task {
            Task::Plan(i) => {
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    plan(shared, &mut worker, i)
                }));
                run.unwrap_or_else(|panic| {
                    // The worker's buffers may be half-updated: start afresh.
                    worker = Worker::new(shared.opts);
                    plan_panicked(shared, i, &panic_message(&panic))
                })
            }
            Task::Chunk {
                input,
                index,
                range,
                map,
                container,
            } => {
                let name = &shared.names[input];
                populate(map.map(), range);
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    read_chunk(shared, &map, container, range, name, &mut worker)
                }));
                let (output, stats) = run.unwrap_or_else(|panic| {
                    worker = Worker::new(shared.opts);
                    (
                        internal_error(name, &panic_message(&panic)),
                        ContainerStats::default(),
                    )
                });
                release(map.map(), range);
                drop(map);
                shared.bar.inc((range.1 - range.0) as u64);
                deliver(shared, input, index, output, stats)
            }
        };
        let mut q = lock(&shared.queue);
        q.in_flight -= 1;
        if let Err(e) = result {
            q.stop = true;
            let mut slot = lock(&shared.output_error);
            if slot.is_none() {
                *slot = Some(e);
            }
        }
        shared.cv.notify_all();
    }
}

/// Plan an input: read it inline when it is one chunk, else queue its chunks.
fn plan(shared: &Shared<'_>, worker: &mut Worker, i: usize) -> Result<()> {
    let path = &shared.opts.inputs[i];
    shared.progress_opening(i);
    if let Some(t) = shared.opts.targets.get(i) {
        if state::resumed(shared, i, t.bytes()) {
            return Ok(());
        }
        let done = targeted::read_targeted(shared, worker, i, t);
        shared.bar.inc(t.bytes());
        return done;
    }
    if let Some(url) = path.to_str().filter(|s| remote::is_remote(s)) {
        return read_remote(shared, worker, i, url);
    }
    let file = match local::open(path, shared.opts.stall_timeout) {
        Ok(Local::File(f)) => f,
        Ok(Local::Stream(f)) => {
            let reader = local::StallReader::new(f, limits(shared.opts));
            return read_windowed(shared, worker, i, reader, None);
        }
        Ok(Local::Refused(why)) => return fail_open(shared, i, &why),
        Err(e) => return fail_open(shared, i, &e.to_string()),
    };
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    if skip_or_empty(shared, i, bytes)? {
        return Ok(());
    }
    // A file truncated while it is read faults on the lost pages: `Mapped` turns that into zeros
    // and a `read_error` row instead of a fatal SIGBUS. A file that cannot be mapped (or no free
    // map slot) is read as a stream.
    let map = match Mapped::open(&file) {
        Ok(Some(m)) => m,
        // Read as a stream, window by window: offsets stay those of the file.
        _ => return read_windowed(shared, worker, i, file, Some(bytes)),
    };
    #[cfg(feature = "fault-hooks")]
    if let Some((name, len)) = &shared.opts.hooks.truncate_on_map {
        if path.to_string_lossy().ends_with(name.as_str()) {
            let truncated =
                (std::fs::OpenOptions::new().write(true).open(path)).and_then(|f| f.set_len(*len));
            anyhow::Context::context(truncated, "REPCENSUS_TRUNCATE_ON_MAP")?;
        }
    }
    // Read-ahead helps: the map is read front to back (per chunk). Advice is only a hint.
    let _ = map.map().advise(memmap2::Advice::Sequential);
    let container = input::sniff_archive(&map.bytes()[..map.bytes().len().min(input::SNIFF_SPAN)]);
    match container {
        Container::Plain | Container::Gzip => {
            let target = chunk_target(
                map.bytes().len(),
                shared.opts.threads,
                shared.opts.chunk_size,
            );
            let chunks = input::plan_chunks(map.bytes(), container, target);
            *lock(&shared.inputs[i]) = Some(Box::new(InputState::new(
                bytes,
                container,
                chunks.len(),
                shared.opts,
            )));
            if chunks.len() == 1 {
                populate(map.map(), chunks[0]);
                let (output, stats) =
                    read_chunk(shared, &map, container, chunks[0], &shared.names[i], worker);
                shared.bar.inc(bytes);
                return deliver(shared, i, 0, output, stats);
            }
            let map = Arc::new(map);
            let mut q = lock(&shared.queue);
            for (index, range) in chunks.into_iter().enumerate().rev() {
                q.tasks.push_front(Task::Chunk {
                    input: i,
                    index,
                    range,
                    map: Arc::clone(&map),
                    container,
                });
            }
            shared.cv.notify_all();
            Ok(())
        }
        _ => {
            drop(map);
            read_windowed(shared, worker, i, file, Some(bytes))
        }
    }
}

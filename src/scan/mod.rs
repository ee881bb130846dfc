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

pub mod resume;

use crate::agents::Registry;
use crate::archive::input::{self, Container};
use crate::archive::local::{self, Local};
use crate::archive::mapped::Mapped;
use crate::archive::problem::{ErrorKind, ReadError, Scope};
use crate::archive::reader::{self, ContainerStats, ReadBuffers, Sink};
use crate::archive::remote;
use crate::parts::{OutDir, PartOutcome, PartWriter};
use crate::rows::extract::{ChunkOutput, ExtractBuffers, Extractor, RecordCounts};
use crate::tables::{
    ErrorRow, ErrorsBuilder, HostCountsBuilder, InputRow, InputsBuilder, Table, TableBuilder,
    TableSelection, SCHEMA_VERSION,
};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// Default chunk size: large inputs are cut into pieces of about this many (compressed) bytes.
/// A chunk's rows are held until it finishes; with 184 `agent_verdicts` rows per robots.txt
/// capture, a 32 MiB robots chunk held about 1 GB of rows, an 8 MiB one about a quarter of that
/// (same throughput, see BENCHMARKS.md).
pub const DEFAULT_CHUNK: usize = 8 << 20;

/// The chunk size for an input of `len` bytes: enough chunks to keep every worker busy to the
/// end (about four per thread), at least 4 MiB (smaller is all overhead), at most `max`.
pub fn chunk_target(len: usize, threads: usize, max: usize) -> usize {
    (len / (4 * threads.max(1))).max(4 << 20).min(max.max(1))
}

/// What to scan and how.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    pub inputs: Vec<PathBuf>,
    pub out: PathBuf,
    pub threads: usize,
    pub crawl: Option<String>,
    pub chunk_size: usize,
    pub progress: bool,
    /// The tracked agents of `agent_verdicts`.
    pub registry: Registry,
    /// Part names of the inputs, when they were fixed over a larger list than `inputs` (a
    /// shard keeps the names the whole run would give). `None`: computed from `inputs`.
    pub ids: Option<Vec<String>>,
    /// Skip inputs whose parts an earlier run into the same folder completed (`--resume`).
    pub resume: bool,
    /// Inflate every gzip member whole (`--inflate-all`), instead of stopping early where the
    /// extractors need only the start of a member ([`crate::archive::reader::Sink::block_needed`]).
    pub inflate_all: bool,
    /// The tables to write (`--tables`); work only unselected tables need is not done.
    pub tables: TableSelection,
    /// Testing only: panic while reading the input whose path ends with this, to exercise the
    /// recovery from internal errors (set by `REPCENSUS_PANIC_ON_INPUT`).
    #[doc(hidden)]
    pub panic_on_input: Option<String>,
    /// Testing only: truncate the input whose path ends with `.0` to `.1` bytes right after
    /// mapping it, as another process might while it is read (`REPCENSUS_TRUNCATE_ON_MAP`,
    /// `NAME:BYTES`).
    #[doc(hidden)]
    pub truncate_on_map: Option<(String, u64)>,
    /// How long a pipe or remote input may go without a byte (and a FIFO without a writer)
    /// before it is given up with an `errors` row (`--stall-timeout`).
    pub stall_timeout: std::time::Duration,
    /// How long a pipe or remote input may be read in all (`--input-deadline`); `None`: no limit.
    pub input_deadline: Option<std::time::Duration>,
}

/// What a scan did.
#[derive(Debug, Default, Clone)]
pub struct ScanSummary {
    pub inputs: usize,
    /// Inputs skipped by `--resume`: an earlier run completed them (their rows are counted).
    pub inputs_resumed: usize,
    pub inputs_failed: usize,
    pub inputs_with_errors: usize,
    pub records: u64,
    pub robots_captures: u64,
    pub errors: u64,
    /// `errors` rows by kind.
    pub errors_by_kind: std::collections::BTreeMap<String, u64>,
    /// Rows written per table.
    pub rows: std::collections::BTreeMap<String, u64>,
    pub bytes: u64,
    pub seconds: f64,
    /// The process's peak resident memory so far (Linux `VmHWM`: mapped archive pages included;
    /// `None` where it cannot be read).
    pub peak_rss_bytes: Option<u64>,
    /// Inputs that could not be read, with the reason.
    pub failures: Vec<(PathBuf, String)>,
}

enum Task {
    Plan(usize),
    Chunk {
        input: usize,
        index: usize,
        range: (usize, usize),
        map: Arc<Mapped>,
        container: Container,
    },
}

struct Queue {
    tasks: VecDeque<Task>,
    in_flight: usize,
    stop: bool,
}

struct InputState {
    started: Instant,
    started_wall: i64,
    bytes: u64,
    container: Container,
    /// Number of chunks, and how many have been delivered.
    chunks: usize,
    done: usize,
    /// Per chunk, once delivered: the `isPartOf` of its first warcinfo record.
    hints: Vec<Option<Option<String>>>,
    /// The crawl name, once it is known (from `--crawl`, or from the first chunk in file order
    /// that has a warcinfo record, all chunks before it being delivered).
    crawl: Option<String>,
    /// Chunk outputs delivered before the crawl was known.
    pending: Vec<ChunkOutput>,
    /// The input's parts, written chunk by chunk as outputs arrive.
    writers: Writers,
    counts: RecordCounts,
    n_errors: u64,
    error_kinds: std::collections::BTreeMap<ErrorKind, u64>,
    failure: Option<String>,
    stats: ContainerStats,
}

impl InputState {
    fn new(bytes: u64, container: Container, chunks: usize, tables: TableSelection) -> Self {
        InputState {
            started: Instant::now(),
            started_wall: now_micros(),
            bytes,
            container,
            chunks,
            done: 0,
            hints: vec![None; chunks],
            crawl: None,
            pending: Vec::new(),
            writers: Writers {
                tables,
                parts: Default::default(),
                hosts: crate::rows::host_counts::HostTotals::new(host_spill_limit()),
            },
            counts: RecordCounts::default(),
            n_errors: 0,
            error_kinds: Default::default(),
            failure: None,
            stats: ContainerStats::default(),
        }
    }

    /// Take a chunk's output: count it, and write its rows now if the crawl is known (else keep
    /// them until it is). Returns whether this was the input's last chunk.
    fn accept(
        &mut self,
        shared: &Shared<'_>,
        i: usize,
        index: usize,
        output: ChunkOutput,
        stats: ContainerStats,
    ) -> Result<bool> {
        self.counts.add(&output.counts);
        self.n_errors += output.n_errors;
        for (k, n) in &output.error_kinds {
            *self.error_kinds.entry(*k).or_default() += n;
        }
        if self.failure.is_none() {
            self.failure = output.failure.clone();
        }
        if let Some(h) = self.hints.get_mut(index) {
            *h = Some(output.crawl_hint.clone());
        }
        self.stats.members += stats.members;
        self.stats.streamed_members += stats.streamed_members;
        self.stats.decompressed_bytes += stats.decompressed_bytes;
        self.stats.early_stopped_members += stats.early_stopped_members;
        self.stats.skipped_bytes += stats.skipped_bytes;
        self.done += 1;
        self.pending.push(output);
        let last = self.done >= self.chunks;
        if self.crawl.is_none() {
            self.crawl = match &shared.opts.crawl {
                Some(c) => Some(input::sanitize(c)),
                None => crawl_from_hints(&self.hints, last).map(|c| input::sanitize(&c)),
            };
        }
        if let Some(crawl) = self.crawl.clone() {
            for mut o in std::mem::take(&mut self.pending) {
                self.writers
                    .write_output(shared.out, &crawl, &shared.ids[i], &mut o)?;
            }
        }
        Ok(last)
    }
}

/// The crawl named by the first warcinfo record in file order, once every chunk before it has
/// been delivered; `unknown` when all are delivered and none has one.
fn crawl_from_hints(hints: &[Option<Option<String>>], all_delivered: bool) -> Option<String> {
    for h in hints {
        match h {
            None => return None,
            Some(Some(c)) => return Some(c.clone()),
            Some(None) => {}
        }
    }
    all_delivered.then(|| "unknown".to_string())
}

#[cfg(test)]
mod crawl_tests {
    use super::crawl_from_hints;

    #[test]
    fn crawl_waits_for_earlier_chunks() {
        let c = |s: &str| Some(Some(s.to_string()));
        // Chunk 1 has a warcinfo but chunk 0 is not in yet: unknown so far.
        assert_eq!(crawl_from_hints(&[None, c("B")], false), None);
        assert_eq!(
            crawl_from_hints(&[Some(None), c("B")], false),
            Some("B".into())
        );
        assert_eq!(crawl_from_hints(&[c("A"), None], false), Some("A".into()));
        assert_eq!(
            crawl_from_hints(&[Some(None), Some(None)], true),
            Some("unknown".into())
        );
        assert_eq!(crawl_from_hints(&[Some(None), None], false), None);
    }
}

/// Hosts an input keeps in memory before spilling `host_counts` to a run. Testing only: set by
/// `REPCENSUS_HOST_SPILL`, so small samples exercise the runs.
fn host_spill_limit() -> usize {
    static LIMIT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("REPCENSUS_HOST_SPILL")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(crate::rows::host_counts::HOST_SPILL_DEFAULT)
    })
}

/// The scratch file of an input's `n`th `host_counts` run.
fn host_run_path(out: &OutDir, id: &str, n: usize) -> std::path::PathBuf {
    out.scratch_path(&format!("hosts--{id}--{n}.run"))
}

/// The parts of one input, opened when their first row arrives.
#[derive(Default)]
struct Writers {
    /// The tables written; the others' builders are dropped and their parts left alone.
    tables: TableSelection,
    parts: [Option<PartWriter>; Table::OF_INPUT.len()],
    /// `host_counts` of the chunks written so far, merged (written when the input ends;
    /// spilled to scratch runs past a limit, so memory stays bounded).
    hosts: crate::rows::host_counts::HostTotals,
}

impl Writers {
    /// Append the rows of `b` to its table's part (opened with the first rows).
    fn put<B: TableBuilder>(
        &mut self,
        out: &OutDir,
        crawl: &str,
        id: &str,
        b: &mut B,
    ) -> Result<()> {
        if b.is_empty() || !self.tables.writes(B::TABLE) {
            return Ok(());
        }
        let part = &mut self.parts[B::TABLE.index()];
        if part.is_none() {
            *part = Some(out.part_writer(&B::desc(), crawl, id)?);
        }
        b.write_into(crawl, part.as_mut().expect("opened above"))
    }

    fn write_output(
        &mut self,
        out: &OutDir,
        crawl: &str,
        id: &str,
        o: &mut ChunkOutput,
    ) -> Result<()> {
        self.put(out, crawl, id, &mut o.robots_files)?;
        self.put(out, crawl, id, &mut o.robots_lines.agents)?;
        self.put(out, crawl, id, &mut o.robots_lines.rules)?;
        self.put(out, crawl, id, &mut o.robots_lines.app_directives)?;
        self.put(out, crawl, id, &mut o.robots_lines.acap)?;
        self.put(out, crawl, id, &mut o.agent_verdicts)?;
        self.put(out, crawl, id, &mut o.page_signals)?;
        let hosts = std::mem::take(&mut o.host_counts);
        if self.tables.writes(Table::HostCounts) && !hosts.is_empty() {
            self.hosts
                .merge(hosts, |n| {
                    out.scratch_path(&format!("hosts--{id}--{n}.run"))
                })
                .context("cannot write a host_counts run")?;
        }
        self.put(out, crawl, id, &mut o.errors)
    }

    /// Rows written to `table`; `None` when the table is not selected.
    fn rows(&self, table: Table) -> Option<u64> {
        self.tables.writes(table).then(|| {
            self.parts[table.index()]
                .as_ref()
                .map_or(0, PartWriter::rows)
        })
    }

    /// Close every part; selected tables without rows give `Empty` (stale parts are removed on
    /// commit), tables not selected nothing (their parts stay as they are).
    fn finish(self, out: &OutDir, crawl: &str, id: &str) -> Result<Vec<PartOutcome>> {
        let mut parts = Vec::new();
        for (table, w) in Table::OF_INPUT.into_iter().zip(self.parts) {
            if !self.tables.writes(table) {
                continue;
            }
            parts.push(match w {
                Some(w) => w.finish()?,
                None => PartOutcome::Empty(out.part_path(table.name(), crawl, id)),
            });
        }
        Ok(parts)
    }
}

struct Shared<'o> {
    opts: &'o ScanOptions,
    out: &'o OutDir,
    ids: Vec<String>,
    names: Vec<String>,
    queue: Mutex<Queue>,
    cv: Condvar,
    inputs: Vec<Mutex<Option<InputState>>>,
    summary: Mutex<ScanSummary>,
    output_error: Mutex<Option<anyhow::Error>>,
    bar: ProgressBar,
}

struct Worker {
    read: ReadBuffers,
    extract: ExtractBuffers,
}

impl Worker {
    fn new(opts: &ScanOptions) -> Self {
        let mut read = ReadBuffers::new();
        read.early_stop = !opts.inflate_all;
        Worker {
            read,
            extract: ExtractBuffers::default(),
        }
    }
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
    let inline_chunk_pending = {
        let slot = lock(&shared.inputs[i]);
        slot.as_ref().map(|s| s.chunks == 1 && s.done == 0)
    };
    match inline_chunk_pending {
        // The input's only chunk was being read when it panicked.
        Some(true) => deliver(
            shared,
            i,
            0,
            internal_error(&shared.names[i], detail),
            ContainerStats::default(),
        ),
        // Its chunks are queued; they report for themselves.
        Some(false) => Ok(()),
        None => fail_input(
            shared,
            i,
            InputState::new(0, Container::Empty, 0, shared.opts.tables),
            ErrorKind::InternalError,
            detail,
        ),
    }
}

/// Run a scan. Errors are output errors (the caller exits 2); input problems are in the summary.
pub fn scan(opts: &ScanOptions) -> Result<ScanSummary> {
    let started = Instant::now();
    let out = OutDir::create(&opts.out)?;

    let ids = match &opts.ids {
        Some(ids) if ids.len() == opts.inputs.len() => ids.clone(),
        _ => input::input_ids(&opts.inputs),
    };
    let names = opts
        .inputs
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let total: u64 = opts
        .inputs
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let bar = if opts.progress {
        let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} [{wide_bar}] {bytes}/{total_bytes} {bytes_per_sec} ETA {eta}")
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
            ..ScanSummary::default()
        }),
        output_error: Mutex::new(None),
        bar,
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
    out.close();
    if let Some(e) = lock(&shared.output_error).take() {
        return Err(e);
    }
    let mut summary = lock(&shared.summary).clone();
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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
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

fn read_chunk(
    shared: &Shared<'_>,
    mapped: &Mapped,
    container: Container,
    (start, end): (usize, usize),
    warc_file: &str,
    worker: &mut Worker,
) -> (ChunkOutput, ContainerStats) {
    if shared
        .opts
        .panic_on_input
        .as_deref()
        .is_some_and(|n| warc_file.ends_with(n))
    {
        panic!("fault injected for {warc_file}");
    }
    let data = mapped.bytes();
    let read = read_range(
        shared,
        data,
        container,
        (start, end),
        warc_file,
        worker,
        None,
    );
    let Some(fault) = mapped.fault() else {
        return read;
    };
    // Bytes at and after the fault read as zeros: read the chunk again as if the file ended where
    // it can still be trusted, so the rows are those of a file that short.
    let len = (fault.readable() as usize).min(data.len());
    let report = mapped.claim_report().then(|| {
        let detail = fault.detail(data.len());
        ReadError::new(Scope::Input, ErrorKind::ReadError, detail, Some(len as u64))
    });
    let range = (start.min(len), end.min(len));
    read_range(
        shared,
        &data[..len],
        container,
        range,
        warc_file,
        worker,
        report,
    )
}

/// Read the records that start in `start..end` of `data`; `also` is one more errors row.
fn read_range(
    shared: &Shared<'_>,
    data: &[u8],
    container: Container,
    (start, end): (usize, usize),
    warc_file: &str,
    worker: &mut Worker,
    also: Option<ReadError>,
) -> (ChunkOutput, ContainerStats) {
    let mut ex = Extractor::new(warc_file, &mut worker.extract, &shared.opts.registry)
        .with_tables(shared.opts.tables);
    let stats = if start < end {
        match container {
            Container::Gzip => {
                reader::read_gzip_members(data, start, end, &mut worker.read, &mut ex)
            }
            _ => reader::read_plain(data, start, end, &mut ex),
        }
    } else {
        ContainerStats::default()
    };
    if let Some(e) = also {
        ex.error(e);
    }
    (ex.into_output(), stats)
}

/// Map a chunk's pages into this process in one call before reading it (`MADV_POPULATE_READ`,
/// Linux 5.14+), instead of taking a page fault every few pages as the reading reaches them;
/// only a hint, without effect where unsupported.
fn populate(map: &memmap2::Mmap, (start, end): (usize, usize)) {
    #[cfg(target_os = "linux")]
    let _ = map.advise_range(memmap2::Advice::PopulateRead, start, end - start);
    #[cfg(not(target_os = "linux"))]
    let _ = (map, start, end);
}

/// Drop the pages of a finished chunk from this process's resident set, so that memory follows the
/// work in flight, not the size of the input (the pages stay in the page cache).
fn release(map: &memmap2::Mmap, (start, end): (usize, usize)) {
    #[cfg(unix)]
    {
        const PAGE: usize = 4096;
        let from = start.div_ceil(PAGE) * PAGE;
        let to = if end == map.len() {
            end
        } else {
            end / PAGE * PAGE
        };
        if to > from {
            // SAFETY: the map is read-only and file-backed: MADV_DONTNEED only drops our page
            // table entries; a later read faults the same file bytes back in. No reference into the
            // released range outlives this call (the chunk's rows own their data).
            let _ = unsafe {
                map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, to - from)
            };
        }
    }
}

/// Plan an input: read it inline when it is one chunk, else queue its chunks.
fn plan(shared: &Shared<'_>, worker: &mut Worker, i: usize) -> Result<()> {
    let path = &shared.opts.inputs[i];
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
    if let Some((name, len)) = &shared.opts.truncate_on_map {
        if path.to_string_lossy().ends_with(name.as_str()) {
            std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(*len))
                .context("REPCENSUS_TRUNCATE_ON_MAP")?;
        }
    }
    // Read-ahead helps: the map is read front to back (per chunk). Advice is only a hint.
    let _ = map.map().advise(memmap2::Advice::Sequential);
    let container = input::sniff(&map.bytes()[..map.bytes().len().min(16)]);
    match container {
        Container::Plain | Container::Gzip => {
            let target = chunk_target(
                map.bytes().len(),
                shared.opts.threads,
                shared.opts.chunk_size,
            );
            let chunks = input::plan_chunks(map.bytes(), container, target);
            *lock(&shared.inputs[i]) = Some(InputState::new(
                bytes,
                container,
                chunks.len(),
                shared.opts.tables,
            ));
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

/// How long a streamed input (remote, pipe) may stall, and take in all.
fn limits(opts: &ScanOptions) -> remote::Limits {
    remote::Limits {
        stall: opts.stall_timeout,
        deadline: opts.input_deadline,
    }
}

/// With `--resume`, skip an input an earlier run completed; finish an empty input. True when the
/// input needs no reading.
fn skip_or_empty(shared: &Shared<'_>, i: usize, bytes: u64) -> Result<bool> {
    if shared.opts.resume {
        let done = crate::scan::resume::completed(
            shared.out,
            &shared.ids[i],
            &shared.names[i],
            bytes,
            &shared.opts.registry.version,
            shared.opts.tables,
        );
        if let Some(done) = done {
            shared.bar.inc(bytes);
            record_resumed(shared, &done);
            return Ok(true);
        }
    }
    if bytes == 0 {
        *lock(&shared.inputs[i]) =
            Some(InputState::new(0, Container::Empty, 1, shared.opts.tables));
        deliver(
            shared,
            i,
            0,
            ChunkOutput::default(),
            ContainerStats::default(),
        )?;
        return Ok(true);
    }
    Ok(false)
}

/// The first window of a remote input; it grows (to eight times this, at most
/// [`REMOTE_WINDOW_MAX`]) while no member or record start can be found in it.
const REMOTE_WINDOW: usize = 32 << 20;
const REMOTE_WINDOW_MAX: usize = 256 << 20;

/// Read a remote input (`https://`, `s3://`) as it streams in. Per-record gzip and plain archives
/// are read window by window, each cut at a confirmed member or record start and read by the same
/// code as a mapped file's chunk, so rows (offsets included) equal a local copy's; other
/// containers go through the decompressing stream, as local ones do.
fn read_remote(shared: &Shared<'_>, worker: &mut Worker, i: usize, url: &str) -> Result<()> {
    let reader = match remote::RemoteReader::open(url, limits(shared.opts)) {
        Ok(r) => r,
        Err(e) => return fail_open(shared, i, &remote::error_text(&e)),
    };
    let bytes = reader.size();
    if skip_or_empty(shared, i, bytes)? {
        return Ok(());
    }
    read_windowed(shared, worker, i, reader, Some(bytes))
}

/// Read an input as a byte stream (a remote object, a pipe, a file that is not mapped, a whole-file
/// compressor's stream) window by window, so that per-record gzip and plain archives give the
/// rows (offsets included) a mapped local copy gives.
/// `size`: the input's size when known in advance (else it is counted as it is read).
fn read_windowed(
    shared: &Shared<'_>,
    worker: &mut Worker,
    i: usize,
    reader: impl std::io::Read + Send + 'static,
    size: Option<u64>,
) -> Result<()> {
    use std::io::Read;
    let bytes = size.unwrap_or(0);
    // Of a stream of unknown size, the bytes read are its size.
    let counted = size.is_none().then(|| Arc::new(AtomicU64::new(0)));
    let mut reader = Counting {
        inner: reader,
        count: counted.clone(),
    };
    let mut window: Vec<u8> = Vec::with_capacity(REMOTE_WINDOW);
    let mut eof = false;
    let name = &shared.names[i];
    let first = fill_window(&mut reader, &mut window, 16, &mut eof);
    let container = input::sniff(&window[..window.len().min(16)]);
    if first.is_ok() && window.is_empty() && size.is_none() {
        return skip_or_empty(shared, i, 0).map(drop);
    }
    if let Err(e) = first {
        return fail_input(
            shared,
            i,
            InputState::new(bytes, container, 0, shared.opts.tables),
            ErrorKind::ReadError,
            &e.to_string(),
        );
    }
    if !matches!(container, Container::Gzip | Container::Plain) {
        let head = std::io::Cursor::new(std::mem::take(&mut window));
        let stream = input::stream_reader(container, head.chain(reader));
        return read_stream_input(shared, worker, i, container, stream, bytes, counted);
    }
    *lock(&shared.inputs[i]) = Some(InputState::new(bytes, container, 1, shared.opts.tables));
    let mut ex = Extractor::new(name, &mut worker.extract, &shared.opts.registry)
        .with_tables(shared.opts.tables);
    let mut stats = ContainerStats::default();
    // Testing only: a small first window (REPCENSUS_REMOTE_WINDOW) makes small archives cut too.
    let first_window = std::env::var("REPCENSUS_REMOTE_WINDOW")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(REMOTE_WINDOW, |w| w.clamp(4096, REMOTE_WINDOW));
    let max_window = (first_window * 8).min(REMOTE_WINDOW_MAX);
    let mut base = 0u64;
    let mut want = first_window;
    loop {
        if let Err(e) = fill_window(&mut reader, &mut window, want, &mut eof) {
            ex.error(ReadError::new(
                Scope::Input,
                ErrorKind::ReadError,
                e.to_string(),
                Some(base + window.len() as u64),
            ));
            // Read what arrived; what is cut off is reported by the reader as truncated.
            eof = true;
        }
        if window.is_empty() {
            break;
        }
        let cut = if eof {
            window.len()
        } else {
            match input::late_cut(&window, container) {
                Some(at) => at,
                None if want < max_window => {
                    want = (want * 2).min(max_window);
                    continue;
                }
                // One gzip member (a whole-file gzip) or record larger than the largest window:
                // read the rest as a stream, as a local file's member too large to inflate whole
                // is read (offsets past `base` are then positions in the decompressed stream).
                None => {
                    let rest = reader::MarkSource(
                        std::io::Cursor::new(std::mem::take(&mut window)).chain(reader),
                    );
                    let read = match container {
                        Container::Gzip => {
                            stats.members += 1;
                            reader::read_stream_at(
                                flate2::read::MultiGzDecoder::new(std::io::BufReader::new(rest)),
                                base,
                                &mut ex,
                            )
                        }
                        _ => reader::read_stream_at(rest, base, &mut ex),
                    };
                    stats.decompressed_bytes += read.decompressed_bytes;
                    // Counted as a local read counts it: streamed when too large to inflate
                    // whole in the member buffer.
                    if container == Container::Gzip
                        && read.decompressed_bytes > reader::MEMBER_BUFFER_MAX as u64
                    {
                        stats.streamed_members += 1;
                    }
                    shared.bar.inc(bytes.saturating_sub(base));
                    break;
                }
            }
        };
        let s = match container {
            Container::Gzip => reader::read_gzip_members_at(
                &window[..cut],
                0,
                cut,
                base,
                &mut worker.read,
                &mut ex,
            ),
            _ => reader::read_plain_at(&window[..cut], 0, cut, base, &mut ex),
        };
        stats.members += s.members;
        stats.streamed_members += s.streamed_members;
        stats.decompressed_bytes += s.decompressed_bytes;
        stats.early_stopped_members += s.early_stopped_members;
        stats.skipped_bytes += s.skipped_bytes;
        shared.bar.inc(cut as u64);
        window.drain(..cut);
        base += cut as u64;
        want = first_window.max(window.len() + (1 << 20).min(first_window));
        if eof && window.is_empty() {
            break;
        }
    }
    set_counted_size(shared, i, counted);
    deliver(shared, i, 0, ex.into_output(), stats)
}

/// Fill `window` from `reader` up to `want` bytes, or to the end (`eof`).
fn fill_window(
    reader: &mut impl std::io::Read,
    window: &mut Vec<u8>,
    want: usize,
    eof: &mut bool,
) -> std::io::Result<()> {
    while window.len() < want && !*eof {
        let have = window.len();
        window.resize(want, 0);
        let n = loop {
            match reader.read(&mut window[have..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                r => break r,
            }
        };
        let n = n.inspect_err(|_| window.truncate(have))?;
        window.truncate(have + n);
        *eof = n == 0;
    }
    Ok(())
}

/// Read the records of an input's decompressing stream.
fn read_stream_input(
    shared: &Shared<'_>,
    worker: &mut Worker,
    i: usize,
    container: Container,
    reader: Result<Box<dyn std::io::Read + Send>>,
    bytes: u64,
    counted: Option<Arc<AtomicU64>>,
) -> Result<()> {
    let reader = match reader {
        Ok(r) => r,
        Err(e) => {
            return fail_input(
                shared,
                i,
                InputState::new(bytes, container, 0, shared.opts.tables),
                ErrorKind::UnsupportedContainer,
                &e.to_string(),
            );
        }
    };
    *lock(&shared.inputs[i]) = Some(InputState::new(bytes, container, 1, shared.opts.tables));
    let mut ex = Extractor::new(&shared.names[i], &mut worker.extract, &shared.opts.registry)
        .with_tables(shared.opts.tables);
    let stats = reader::read_stream(reader, &mut ex);
    shared.bar.inc(bytes);
    set_counted_size(shared, i, counted);
    deliver(shared, i, 0, ex.into_output(), stats)
}

/// A reader that counts the bytes it gives (the size of an input read from a pipe).
struct Counting<R> {
    inner: R,
    count: Option<Arc<AtomicU64>>,
}

impl<R: std::io::Read> std::io::Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(c) = &self.count {
            c.fetch_add(n as u64, Ordering::Relaxed);
        }
        Ok(n)
    }
}

/// An input of unknown size: its `inputs.bytes` is what was read.
fn set_counted_size(shared: &Shared<'_>, i: usize, counted: Option<Arc<AtomicU64>>) {
    if let Some(n) = counted {
        if let Some(state) = lock(&shared.inputs[i]).as_mut() {
            state.bytes = n.load(Ordering::Relaxed);
        }
    }
}

/// Record an input that could not be read at all.
/// An input that could not be opened.
fn fail_open(shared: &Shared<'_>, i: usize, detail: &str) -> Result<()> {
    let state = InputState::new(0, Container::Empty, 0, shared.opts.tables);
    fail_input(shared, i, state, ErrorKind::CannotOpen, detail)
}

fn fail_input(
    shared: &Shared<'_>,
    i: usize,
    state: InputState,
    kind: ErrorKind,
    detail: &str,
) -> Result<()> {
    let out = ChunkOutput::failed(&shared.names[i], kind, detail);
    let mut state = InputState::new(state.bytes, state.container, 1, shared.opts.tables);
    state.accept(shared, i, 0, out, ContainerStats::default())?;
    finalize(shared, i, state, Some(detail.to_string()))
}

/// Hand a chunk's output to its input; the last chunk finalizes the input.
fn deliver(
    shared: &Shared<'_>,
    i: usize,
    index: usize,
    output: ChunkOutput,
    stats: ContainerStats,
) -> Result<()> {
    let finished = {
        let mut slot = lock(&shared.inputs[i]);
        let Some(state) = slot.as_mut() else {
            return Ok(());
        };
        if state.accept(shared, i, index, output, stats)? {
            slot.take()
        } else {
            None
        }
    };
    match finished {
        Some(state) => finalize(shared, i, state, None),
        None => Ok(()),
    }
}

/// Write an input's parts and its `inputs` row.
fn finalize(
    shared: &Shared<'_>,
    i: usize,
    state: InputState,
    failure: Option<String>,
) -> Result<()> {
    let path = &shared.opts.inputs[i];
    let name = &shared.names[i];
    let id = &shared.ids[i];
    let mut state = state;
    let counts = state.counts;
    let mut n_errors = state.n_errors;
    // Every chunk is in, so the crawl is known (accept() has written all rows).
    let crawl = state
        .crawl
        .clone()
        .unwrap_or_else(|| input::sanitize(shared.opts.crawl.as_deref().unwrap_or("unknown")));

    let mut failure = failure.or_else(|| state.failure.clone());
    let mut extra_errors = ErrorsBuilder::default();
    if failure.is_none()
        && counts.total == 0
        && state.bytes > 0
        && (state.stats.decompressed_bytes > 0 || state.container != Container::Gzip)
    {
        let detail = "no WARC or ARC record found";
        extra_errors.append(&ErrorRow {
            scope: Some(Scope::Input.as_str()),
            kind: Some(ErrorKind::NotAnArchive.as_str()),
            detail: Some(detail),
            warc_file: Some(name),
            ..ErrorRow::default()
        });
        n_errors += 1;
        *state
            .error_kinds
            .entry(ErrorKind::NotAnArchive)
            .or_default() += 1;
        failure = Some(detail.to_string());
    }
    let status = match (&failure, state.bytes, n_errors) {
        (Some(_), _, _) => "failed",
        (None, 0, _) => "empty",
        (None, _, _) if counts.total == 0 => "empty",
        (None, _, 0) => "ok",
        (None, _, _) => "ok_with_errors",
    };
    let format = if counts.total == 0 {
        "none"
    } else if counts.arc > 0 && counts.arc == counts.total {
        "arc"
    } else if counts.conversion > 0 && counts.response == 0 {
        "wet"
    } else if counts.json_metadata > 0 && counts.response == 0 {
        "wat"
    } else {
        "warc"
    };
    let compression = match state.container {
        Container::Gzip if state.stats.members <= 1 && counts.total > 1 => {
            "gzip_whole_file".to_string()
        }
        Container::Gzip if state.stats.members < counts.total => {
            "gzip_multi_record_members".to_string()
        }
        Container::Gzip => "gzip_per_record".to_string(),
        c => c.as_str().to_string(),
    };

    state
        .writers
        .put(shared.out, &crawl, id, &mut extra_errors)?;
    if shared.opts.tables.writes(Table::HostCounts) {
        let mut hosts = HostCountsBuilder::default();
        let host_counts = std::mem::take(&mut state.writers.hosts);
        host_counts.emit(
            &mut hosts,
            name,
            |n| host_run_path(shared.out, id, n),
            |b| state.writers.put(shared.out, &crawl, id, b),
        )?;
        state.writers.put(shared.out, &crawl, id, &mut hosts)?;
    }
    let robots_rows = state.writers.rows(Table::RobotsFiles);
    let rows = |table| state.writers.rows(table).map(|n| n as i64);

    let mut inputs = InputsBuilder::default();
    inputs.append(&InputRow {
        path: Some(name),
        input_id: Some(id),
        bytes: Some(state.bytes as i64),
        format: Some(format),
        compression: Some(&compression),
        status: Some(status),
        records: Some(counts.total as i64),
        records_warcinfo: Some(counts.warcinfo as i64),
        records_response: Some(counts.response as i64),
        records_resource: Some(counts.resource as i64),
        records_request: Some(counts.request as i64),
        records_metadata: Some(counts.metadata as i64),
        records_revisit: Some(counts.revisit as i64),
        records_conversion: Some(counts.conversion as i64),
        records_continuation: Some(counts.continuation as i64),
        records_other: Some(counts.other as i64),
        records_unknown_version: Some(counts.unknown_version as i64),
        gzip_members: (state.container == Container::Gzip).then_some(state.stats.members as i64),
        gzip_streamed_members: (state.container == Container::Gzip)
            .then_some(state.stats.streamed_members as i64),
        gzip_early_stopped_members: (state.container == Container::Gzip)
            .then_some(state.stats.early_stopped_members as i64),
        decompressed_bytes: Some(state.stats.decompressed_bytes as i64),
        skipped_bytes: Some(state.stats.skipped_bytes as i64),
        chunks: Some(state.chunks as i32),
        rows_robots_files: rows(Table::RobotsFiles),
        rows_robots_agents: rows(Table::RobotsAgents),
        rows_robots_rules: rows(Table::RobotsRules),
        rows_app_directives: rows(Table::AppDirectives),
        rows_acap_fields: rows(Table::AcapFields),
        rows_agent_verdicts: rows(Table::AgentVerdicts),
        rows_page_signals: rows(Table::PageSignals),
        rows_host_counts: rows(Table::HostCounts),
        errors: Some(n_errors as i64),
        started: Some(state.started_wall),
        seconds: Some(state.started.elapsed().as_secs_f64()),
        tool_version: Some(env!("CARGO_PKG_VERSION")),
        schema_version: Some(SCHEMA_VERSION),
        registry_version: Some(&shared.opts.registry.version),
    });
    let inputs_batch = inputs.finish(&crawl);

    let table_rows: Vec<(Table, u64)> = Table::OF_INPUT
        .into_iter()
        .filter_map(|t| Some((t, state.writers.rows(t)?)))
        .collect();
    let mut parts = std::mem::take(&mut state.writers).finish(shared.out, &crawl, id)?;
    // The inputs part goes last: its presence says the input's other parts are complete.
    parts.push(shared.out.write(
        &InputsBuilder::desc(),
        &crawl,
        id,
        std::slice::from_ref(&inputs_batch),
    )?);
    // Parts of this input left by an earlier run under another crawl name would double rows.
    // The old `inputs` part goes first, so that until the new one is in place the input reads as
    // incomplete to `--resume`.
    shared.out.remove_parts(Table::Inputs.name(), id)?;
    shared.out.commit(parts)?;

    let mut s = lock(&shared.summary);
    for (table, n) in table_rows {
        *s.rows.entry(table.name().to_string()).or_default() += n;
    }
    *s.rows.entry(Table::Inputs.name().to_string()).or_default() += 1;
    for (k, n) in &state.error_kinds {
        *s.errors_by_kind.entry(k.as_str().to_string()).or_default() += n;
    }
    s.records += counts.total;
    s.robots_captures += robots_rows.unwrap_or(0);
    s.errors += n_errors;
    s.bytes += state.bytes;
    if let Some(why) = failure {
        s.inputs_failed += 1;
        shared
            .bar
            .suspend(|| eprintln!("repcensus: {}: {why}", path.display()));
        s.failures.push((path.clone(), why));
    } else if n_errors > 0 {
        s.inputs_with_errors += 1;
    }
    Ok(())
}

/// Count an input an earlier run completed in the summary, as if it had been read now.
fn record_resumed(shared: &Shared<'_>, done: &crate::scan::resume::Completed) {
    let mut s = lock(&shared.summary);
    s.inputs_resumed += 1;
    for (table, n) in &done.rows {
        *s.rows.entry(table.name().to_string()).or_default() += n;
        if *table == Table::RobotsFiles {
            s.robots_captures += n;
        }
    }
    *s.rows.entry(Table::Inputs.name().to_string()).or_default() += 1;
    for (k, n) in &done.errors_by_kind {
        *s.errors_by_kind.entry(k.clone()).or_default() += n;
    }
    s.records += done.records;
    s.errors += done.errors;
    if done.errors > 0 {
        s.inputs_with_errors += 1;
    }
}

fn now_micros() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

impl ScanSummary {
    /// The machine-readable run summary (`scan --summary FILE`), for monitoring.
    pub fn to_json(&self) -> serde_json::Value {
        let mb = self.bytes as f64 / 1e6;
        serde_json::json!({
            "tool_version": env!("CARGO_PKG_VERSION"),
            "schema_version": SCHEMA_VERSION,
            "inputs": self.inputs,
            "inputs_resumed": self.inputs_resumed,
            "inputs_failed": self.inputs_failed,
            "inputs_with_errors": self.inputs_with_errors,
            "records": self.records,
            "robots_captures": self.robots_captures,
            "rows": self.rows,
            "errors": self.errors,
            "errors_by_kind": self.errors_by_kind,
            "bytes": self.bytes,
            "seconds": self.seconds,
            "mb_per_second": if self.seconds > 0.0 { mb / self.seconds } else { 0.0 },
            "peak_rss_bytes": self.peak_rss_bytes,
            "failures": self.failures.iter().map(|(p, why)| serde_json::json!({
                "path": p.to_string_lossy(),
                "error": why,
            })).collect::<Vec<_>>(),
        })
    }

    /// The one-screen summary printed at the end of a scan.
    pub fn render(&self) -> String {
        let mb = self.bytes as f64 / 1e6;
        let rate = if self.seconds > 0.0 {
            mb / self.seconds
        } else {
            0.0
        };
        let mut s = format!(
            "inputs        {} ({} failed, {} with errors)\nrecords       {}\nrobots.txt    {} captures\nerrors        {}\nread          {:.1} MB in {:.2} s ({:.1} MB/s)\n",
            self.inputs, self.inputs_failed, self.inputs_with_errors, self.records, self.robots_captures, self.errors, mb, self.seconds, rate
        );
        if let Some(b) = self.peak_rss_bytes {
            s.push_str(&format!("memory        {:.0} MB at peak\n", b as f64 / 1e6));
        }
        if self.inputs_resumed > 0 {
            s.push_str(&format!(
                "resumed       {} inputs complete from an earlier run (counted above)\n",
                self.inputs_resumed
            ));
        }
        for (p, why) in self.failures.iter().take(10) {
            s.push_str(&format!("failed        {}: {why}\n", p.display()));
        }
        if self.failures.len() > 10 {
            s.push_str(&format!(
                "failed        ... and {} more (see the inputs table)\n",
                self.failures.len() - 10
            ));
        }
        s
    }
}

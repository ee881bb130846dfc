//! What the scan's workers share: the options, the task queue, each input's state, the summary,
//! and each worker's own buffers.

use super::input_state::InputState;
use super::summary::ScanSummary;
use crate::agents::Registry;
use crate::archive::container::reader::ReadBuffers;
use crate::archive::source::input::Container;
use crate::archive::source::mapped::Mapped;
use crate::parts::OutDir;
use crate::rows::{ChunkOutput, ExtractBuffers, Extractor};
use crate::tables::TableSelection;
use indicatif::ProgressBar;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};

/// What to scan and how.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    pub inputs: Vec<PathBuf>,
    /// A targeted scan's inputs (`scan --records`), one per entry of `inputs` (which then only
    /// label them); empty for a scan of whole archives.
    pub targets: Vec<super::records_list::Targeted>,
    /// Range requests in flight at most, over all workers (`--fetch-concurrency`).
    pub fetch_concurrency: usize,
    /// Where a range request may be redirected (`--range-redirects`).
    pub range_redirects: crate::archive::source::ranges::Redirects,
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
    /// extractors need only the start of a member ([`crate::archive::framing::sink::Sink::block_needed`]).
    pub inflate_all: bool,
    /// The tables to write (`--tables`); work only unselected tables need is not done.
    pub tables: TableSelection,
    /// Derive `robots_hosts` for the run's crawls at the end (when `robots_files` is written).
    /// Off for a shard: the crawl's other shards may still be running (`repcensus hosts` after
    /// the last one).
    pub derive_hosts: bool,
    /// The agents `page_verdicts` gives verdicts for (`--page-agents`: names or categories;
    /// `None`: the `ai_training` agents).
    pub page_agents: Option<Vec<String>>,
    /// What the derivation at the end may hold (`--memory`).
    pub derive_budget: crate::derive::partitions::Budget,
    /// Testing only: what the test suite makes the scan do that a user never asks for.
    #[doc(hidden)]
    pub hooks: TestHooks,
    /// How long a pipe or remote input may go without a byte (and a FIFO without a writer)
    /// before it is given up with an `errors` row (`--stall-timeout`).
    pub stall_timeout: std::time::Duration,
    /// How long a pipe or remote input may be read in all (`--input-deadline`); `None`: no limit.
    pub input_deadline: Option<std::time::Duration>,
    /// Counts the inputs whose parts are in place, as they complete (for a caller that says
    /// how far an interrupted scan got).
    pub inputs_done: Option<Arc<std::sync::atomic::AtomicUsize>>,
}

/// The scan's test hooks: settings only the test suite gives, so small samples exercise what
/// only large inputs and rare failures reach. Each is read from an environment variable by
/// [`TestHooks::from_env`], and only in builds with the test-only `fault-hooks` feature: a
/// release binary ignores them.
#[derive(Debug, Clone, Default)]
pub struct TestHooks {
    /// The hosts an input keeps in memory before spilling `host_counts` to a run
    /// (`REPCENSUS_HOST_SPILL`), so small samples exercise the runs.
    pub host_spill: Option<usize>,
    /// The first window of a windowed remote read (`REPCENSUS_REMOTE_WINDOW`,
    /// at least 4 KiB), so that small archives are cut too.
    pub remote_window: Option<usize>,
    /// Panic while reading the input whose path ends with this, to exercise the
    /// recovery from internal errors (set by `REPCENSUS_PANIC_ON_INPUT`). Only in builds with the
    /// `fault-hooks` feature, which the test suite turns on.
    #[cfg(feature = "fault-hooks")]
    pub panic_on_input: Option<String>,
    /// Truncate the input whose path ends with `.0` to `.1` bytes right after
    /// mapping it, as another process might while it is read (`REPCENSUS_TRUNCATE_ON_MAP`,
    /// `NAME:BYTES`). Only with the `fault-hooks` feature.
    #[cfg(feature = "fault-hooks")]
    pub truncate_on_map: Option<(String, u64)>,
}

impl TestHooks {
    /// The hooks the environment sets (none without the `fault-hooks` feature).
    pub fn from_env() -> Self {
        TestHooks {
            host_spill: env_number("REPCENSUS_HOST_SPILL"),
            remote_window: env_number("REPCENSUS_REMOTE_WINDOW"),
            #[cfg(feature = "fault-hooks")]
            panic_on_input: std::env::var("REPCENSUS_PANIC_ON_INPUT").ok(),
            #[cfg(feature = "fault-hooks")]
            truncate_on_map: std::env::var("REPCENSUS_TRUNCATE_ON_MAP")
                .ok()
                .and_then(|v| {
                    let (name, len) = v.rsplit_once(':')?;
                    Some((name.to_string(), len.parse().ok()?))
                }),
        }
    }

    /// The derivation's budget: `memory` (`--memory`), and the partitions
    /// (`REPCENSUS_PARTITIONS`) and spill part rows (`REPCENSUS_SPILL_ROWS`) the tests ask for.
    pub fn budget(memory: u64) -> crate::derive::partitions::Budget {
        crate::derive::partitions::Budget {
            memory,
            partitions: env_number("REPCENSUS_PARTITIONS").map(|n| n as u32),
            spill_rows: env_number("REPCENSUS_SPILL_ROWS"),
        }
    }
}

/// A number from the environment, in builds with the `fault-hooks` feature only.
fn env_number(name: &str) -> Option<usize> {
    let read = std::env::var(name).ok().and_then(|v| v.parse().ok());
    read.filter(|_| cfg!(feature = "fault-hooks"))
}

pub(super) enum Task {
    Plan(usize),
    Chunk {
        input: usize,
        index: usize,
        range: (usize, usize),
        map: Arc<Mapped>,
        container: Container,
    },
}

pub(super) struct Queue {
    pub(super) tasks: VecDeque<Task>,
    pub(super) in_flight: usize,
    pub(super) stop: bool,
}

pub(super) struct Shared<'o> {
    pub(super) opts: &'o ScanOptions,
    pub(super) out: &'o OutDir,
    pub(super) ids: Vec<String>,
    pub(super) names: Vec<String>,
    pub(super) queue: Mutex<Queue>,
    pub(super) cv: Condvar,
    /// Each input's state while it is read, boxed: an input not yet read or done costs a
    /// pointer, not the state's few KiB (100,000 inputs held 450 MB).
    pub(super) inputs: Vec<Mutex<Option<Box<InputState>>>>,
    pub(super) summary: Mutex<ScanSummary>,
    pub(super) output_error: Mutex<Option<anyhow::Error>>,
    pub(super) bar: ProgressBar,
    /// The input opened last, for the progress bar.
    pub(super) opened: std::sync::atomic::AtomicUsize,
    /// Emptied chunk outputs whose buffers the next chunks reuse (at most one per worker).
    pub(super) spare: Mutex<Vec<ChunkOutput>>,
    /// The range fetches of a targeted scan.
    pub(super) fetcher: Option<crate::archive::source::ranges::Fetcher>,
}

impl Shared<'_> {
    /// Say on the progress bar that input `i` is being opened.
    pub(super) fn progress_opening(&self, i: usize) {
        self.opened.store(i, std::sync::atomic::Ordering::Relaxed);
        self.progress_message();
    }

    /// The progress bar's line under the bar: inputs done of all, and the input opened last.
    pub(super) fn progress_message(&self) {
        if self.bar.is_hidden() {
            return;
        }
        let done = lock(&self.summary).inputs_done();
        let opened = self.opened.load(std::sync::atomic::Ordering::Relaxed);
        // The file name: a path or URL's last part fits the line.
        let name = self
            .names
            .get(opened)
            .map_or("", |n| n.rsplit('/').next().unwrap_or(n));
        self.bar.set_message(format!(
            "{done} of {} inputs done; reading {name}",
            self.names.len()
        ));
    }

    /// An extractor for input `name` of the selected tables, on a worker's buffers.
    pub(super) fn extractor<'w>(
        &'w self,
        bufs: &'w mut ExtractBuffers,
        name: &'w str,
    ) -> Extractor<'w> {
        let ex = Extractor::new(name, bufs, &self.opts.registry).with_tables(self.opts.tables);
        match lock(&self.spare).pop() {
            Some(out) => ex.with_output(out),
            None => ex,
        }
    }

    /// Keep emptied outputs for the next chunks, up to one per worker.
    pub(super) fn give_back(&self, outputs: Vec<ChunkOutput>) {
        let mut spare = lock(&self.spare);
        for o in outputs.into_iter().filter_map(ChunkOutput::recycled) {
            if spare.len() < self.opts.threads.max(1) {
                spare.push(o);
            }
        }
    }
}

pub(super) struct Worker {
    pub(super) read: ReadBuffers,
    pub(super) extract: ExtractBuffers,
}

impl Worker {
    pub(super) fn new(opts: &ScanOptions) -> Self {
        let mut read = ReadBuffers::new();
        read.early_stop = !opts.inflate_all;
        Worker {
            read,
            extract: ExtractBuffers::default(),
        }
    }
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

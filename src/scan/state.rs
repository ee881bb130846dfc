//! Per-input state: the chunk outputs of an input as they arrive (in any order), its parts
//! written as soon as its crawl is known, and, when the last chunk is in, its `inputs` row, the
//! commit of its parts and its count in the run summary.

use super::inputs_row::{self, InputFacts};
use super::summary::InputTotals;
use super::{lock, resume, Shared};
use crate::archive::input::{self, Container};
use crate::archive::problem::{ErrorKind, Scope};
use crate::archive::reader::ContainerStats;
use crate::parts::{OutDir, PartOutcome, PartWriter};
use crate::rows::extract::{ChunkOutput, RecordCounts};
use crate::tables::{
    ErrorRow, ErrorsBuilder, HostCountsBuilder, InputsBuilder, Table, TableBuilder, TableSelection,
};
use anyhow::{Context, Result};
use std::time::Instant;

pub(super) struct InputState {
    started: Instant,
    started_wall: i64,
    pub(super) bytes: u64,
    container: Container,
    /// Number of chunks, and how many have been delivered.
    pub(super) chunks: usize,
    pub(super) done: usize,
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
    pub(super) fn new(
        bytes: u64,
        container: Container,
        chunks: usize,
        tables: TableSelection,
    ) -> Self {
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
        self.stats.add(&stats);
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

/// Record an input that could not be read at all.
/// An input that could not be opened.
pub(super) fn fail_open(shared: &Shared<'_>, i: usize, detail: &str) -> Result<()> {
    let state = InputState::new(0, Container::Empty, 0, shared.opts.tables);
    fail_input(shared, i, state, ErrorKind::CannotOpen, detail)
}

pub(super) fn fail_input(
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
pub(super) fn deliver(
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

/// Write an input's parts and its `inputs` row, and count it in the summary.
fn finalize(
    shared: &Shared<'_>,
    i: usize,
    mut state: InputState,
    failure: Option<String>,
) -> Result<()> {
    let name = &shared.names[i];
    let id = &shared.ids[i];
    // Every chunk is in, so the crawl is known (accept() has written all rows).
    let crawl = state
        .crawl
        .clone()
        .unwrap_or_else(|| input::sanitize(shared.opts.crawl.as_deref().unwrap_or("unknown")));
    let mut failure = failure.or_else(|| state.failure.clone());
    let mut extra_errors = ErrorsBuilder::default();
    if failure.is_none()
        && inputs_row::is_not_an_archive(state.bytes, state.container, &state.counts, &state.stats)
    {
        let detail = "no WARC or ARC record found";
        extra_errors.append(&ErrorRow {
            scope: Some(Scope::Input.as_str()),
            kind: Some(ErrorKind::NotAnArchive.as_str()),
            detail: Some(detail),
            warc_file: Some(name),
            ..ErrorRow::default()
        });
        state.n_errors += 1;
        *state
            .error_kinds
            .entry(ErrorKind::NotAnArchive)
            .or_default() += 1;
        failure = Some(detail.to_string());
    }
    state
        .writers
        .put(shared.out, &crawl, id, &mut extra_errors)?;
    if shared.opts.tables.writes(Table::HostCounts) {
        write_host_counts(shared, i, &crawl, &mut state.writers)?;
    }
    let mut rows = [None; Table::OF_INPUT.len()];
    for t in Table::OF_INPUT {
        rows[t.index()] = state.writers.rows(t);
    }
    let facts = InputFacts {
        path: name,
        id,
        bytes: state.bytes,
        container: state.container,
        counts: state.counts,
        stats: state.stats,
        chunks: state.chunks,
        rows,
        errors: state.n_errors,
        failed: failure.is_some(),
        started: state.started_wall,
        seconds: state.started.elapsed().as_secs_f64(),
        registry_version: &shared.opts.registry.version,
    };
    let mut inputs = InputsBuilder::default();
    inputs.append(&inputs_row::inputs_row(&facts));
    let inputs_batch = inputs.finish(&crawl);
    let mut parts = std::mem::take(&mut state.writers).finish(shared.out, &crawl, id)?;
    // The inputs part goes last: its presence says the input's other parts are complete.
    parts.push(shared.out.write(
        &Table::Inputs.desc(),
        &crawl,
        id,
        std::slice::from_ref(&inputs_batch),
    )?);
    // Parts of this input left by an earlier run under another crawl name would double rows.
    // The old `inputs` part goes first, so that until the new one is in place the input reads as
    // incomplete to `--resume`.
    shared.out.remove_parts(Table::Inputs.name(), id)?;
    shared.out.commit(parts)?;

    let totals = InputTotals {
        records: state.counts.total,
        errors: state.n_errors,
        rows: Table::OF_INPUT
            .into_iter()
            .filter_map(|t| Some((t, rows[t.index()]?)))
            .collect(),
        errors_by_kind: state
            .error_kinds
            .iter()
            .map(|(k, n)| (k.as_str().to_string(), *n))
            .collect(),
    };
    let path = &shared.opts.inputs[i];
    if let Some(why) = &failure {
        shared
            .bar
            .suspend(|| eprintln!("repcensus: {}: {why}", path.display()));
    }
    let mut s = lock(&shared.summary);
    s.bytes += state.bytes;
    s.add_input(&totals, failure.map(|why| (path.clone(), why)));
    Ok(())
}

/// Write the input's `host_counts` rows, merged over its chunks (and spilled runs).
fn write_host_counts(
    shared: &Shared<'_>,
    i: usize,
    crawl: &str,
    writers: &mut Writers,
) -> Result<()> {
    let id = &shared.ids[i];
    let mut hosts = HostCountsBuilder::default();
    let host_counts = std::mem::take(&mut writers.hosts);
    host_counts.emit(
        &mut hosts,
        &shared.names[i],
        |n| host_run_path(shared.out, id, n),
        |b| writers.put(shared.out, crawl, id, b),
    )?;
    writers.put(shared.out, crawl, id, &mut hosts)
}

/// Count an input an earlier run completed in the summary, as if it had been read now.
pub(super) fn record_resumed(shared: &Shared<'_>, done: &InputTotals) {
    let mut s = lock(&shared.summary);
    s.inputs_resumed += 1;
    s.add_input(done, None);
}

fn now_micros() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

/// With `--resume`, skip an input an earlier run completed; finish an empty input. True when the
/// input needs no reading.
pub(super) fn skip_or_empty(shared: &Shared<'_>, i: usize, bytes: u64) -> Result<bool> {
    if shared.opts.resume {
        let done = resume::completed(
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

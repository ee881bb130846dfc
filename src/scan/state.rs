//! An input's course: chunk outputs delivered to its state, and when the last is in, its
//! `inputs` row, the commit of its parts and its count in the run summary; inputs that cannot be
//! read, are empty or are complete from an earlier run (`--resume`).

use super::input_state::{InputState, Writers};
use super::inputs_row::{self, InputFacts};
use super::resume;
use super::shared::{lock, Shared};
use super::summary::InputTotals;
use crate::archive::container::reader::ContainerStats;
use crate::archive::problem::ErrorKind;
use crate::archive::source::input::{self, Container};
use crate::parts::OutDir;
use crate::rows::ChunkOutput;
use crate::tables::{HostCountsBuilder, InputsBuilder, Table};
use anyhow::Result;

/// The scratch file of an input's `n`th `host_counts` run.
fn host_run_path(out: &OutDir, id: &str, n: usize) -> std::path::PathBuf {
    out.scratch_path(&format!("hosts--{id}--{n}.run"))
}

/// With `--resume`: is input `i` (of `bytes` bytes) complete from an earlier run? Then it is
/// counted as such.
pub(super) fn resumed(shared: &Shared<'_>, i: usize, bytes: u64) -> bool {
    if !shared.opts.resume {
        return false;
    }
    let done = resume::completed(
        shared.out,
        &shared.ids[i],
        &shared.names[i],
        bytes,
        &shared.opts.registry.version,
        shared.opts.tables,
    );
    let Some(done) = done else {
        return false;
    };
    shared.bar.inc(bytes);
    record_resumed(shared, &done);
    true
}

/// An input that could not be opened.
pub(super) fn fail_open(shared: &Shared<'_>, i: usize, detail: &str) -> Result<()> {
    fail_input(
        shared,
        i,
        0,
        Container::Empty,
        ErrorKind::CannotOpen,
        detail,
    )
}

/// Record an input that could not be read at all (of `bytes` bytes in `container`, as far as
/// known): one `errors` row, and its `inputs` row marked failed.
pub(super) fn fail_input(
    shared: &Shared<'_>,
    i: usize,
    bytes: u64,
    container: Container,
    kind: ErrorKind,
    detail: &str,
) -> Result<()> {
    let out = ChunkOutput::failed(&shared.names[i], kind, detail);
    let mut state = InputState::new(bytes, container, 1, shared.opts);
    state.accept(
        shared.out,
        shared.opts.crawl.as_deref(),
        &shared.ids[i],
        0,
        out,
        ContainerStats::default(),
    )?;
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
    let (finished, drained) = {
        let mut slot = lock(&shared.inputs[i]);
        let Some(state) = slot.as_mut() else {
            return Ok(());
        };
        let (last, drained) = state.accept(
            shared.out,
            shared.opts.crawl.as_deref(),
            &shared.ids[i],
            index,
            output,
            stats,
        )?;
        (if last { slot.take() } else { None }, drained)
    };
    shared.give_back(drained);
    match finished {
        Some(state) => finalize(shared, i, *state, None),
        None => Ok(()),
    }
}

/// How many failed inputs a scan names on stderr as they fail.
const FAILURES_SAID: usize = 20;

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
    let crawl_name = (state.crawl_name.clone()).unwrap_or_else(|| {
        shared
            .opts
            .crawl
            .as_deref()
            .unwrap_or("unknown")
            .to_string()
    });
    let crawl = input::crawl_folder(&crawl_name);
    let mut failure = failure.or_else(|| state.failure.clone());
    if failure.is_none()
        && state.listed.is_none()
        && inputs_row::is_not_an_archive(state.bytes, state.container, &state.counts, &state.stats)
    {
        let detail = "no WARC or ARC record found";
        let mut out = ChunkOutput::failed(name, ErrorKind::NotAnArchive, detail);
        state.count_errors(&out);
        failure = out.failure.take();
        state.writers.put(shared.out, &crawl, id, &mut out.errors)?;
    }
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
        crawl_name: &crawl_name,
        records_list: shared.opts.targets.get(i).map(|t| t.list.as_str()),
        records_listed: state.listed,
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
    count_done(shared);

    let totals = InputTotals {
        crawl: crawl.clone(),
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
    let said = failure
        .as_ref()
        .map(|why| format!("repcensus: {}: {why}", path.display()));
    let failed = {
        let mut s = lock(&shared.summary);
        s.bytes += state.bytes;
        s.add_input(&totals, failure.map(|why| (path.clone(), why)));
        s.failures.len()
    };
    // The first failures are said as they happen; a list of 100,000 missing paths is not
    // repeated on the screen (the inputs and errors tables have every one).
    if let Some(line) = said.as_ref().filter(|_| failed <= FAILURES_SAID) {
        shared.bar.suspend(|| eprintln!("{line}"));
    } else if said.is_some() && failed == FAILURES_SAID + 1 {
        shared.bar.suspend(|| {
            eprintln!(
                "repcensus: more inputs failed; they are in the inputs and errors tables \
                 (queries/errors_by_input.sql), and the summary counts them"
            )
        });
    }
    shared.progress_message();
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
    {
        let mut s = lock(&shared.summary);
        s.inputs_resumed += 1;
        s.add_input(done, None);
    }
    count_done(shared);
}

/// One more input is complete (its parts are in place, or an earlier run's are).
fn count_done(shared: &Shared<'_>) {
    if let Some(done) = &shared.opts.inputs_done {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// With `--resume`, skip an input an earlier run completed; finish an empty input. True when the
/// input needs no reading.
pub(super) fn skip_or_empty(shared: &Shared<'_>, i: usize, bytes: u64) -> Result<bool> {
    if resumed(shared, i, bytes) {
        return Ok(true);
    }
    if bytes == 0 {
        *lock(&shared.inputs[i]) = Some(Box::new(InputState::new(
            0,
            Container::Empty,
            1,
            shared.opts,
        )));
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

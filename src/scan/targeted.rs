//! Reading a targeted input (`scan --records`): the records a list names, fetched by byte range
//! and read one by one at their own offsets, so that each gives the rows a full scan of its
//! archive gives it (`warc_file` the archive as named, `warc_offset` the record's offset).
//!
//! Each archive of the input is a chunk of it (its rows in offset order); the lines that name
//! no record are one more. A record that cannot be fetched, or whose bytes are not one whole
//! record starting at its offset, is an `errors` row naming the list's line, and the rest goes
//! on.

use super::input_state::InputState;
use super::records_list::{ListedRecord, Targeted};
use super::shared::{lock, Shared, Worker};
use super::state::deliver;
use crate::archive::container::reader::{self, ContainerStats, ReadBuffers};
use crate::archive::framing::sink::Sink;
use crate::archive::problem::{ErrorKind, ReadError, Scope};
use crate::archive::source::input::Container;
use crate::archive::source::ranges::{self, FetchError, Span};
use crate::rows::Extractor;
use anyhow::{Context, Result};

/// Read targeted input `i`, `t`.
pub(super) fn read_targeted(
    shared: &Shared<'_>,
    worker: &mut Worker,
    i: usize,
    t: &Targeted,
) -> Result<()> {
    let fetcher = shared
        .fetcher
        .as_ref()
        .context("no fetcher for a targeted scan")?;
    let chunks = t.archives.len() + usize::from(!t.bad.is_empty());
    let mut state = InputState::new(t.bytes(), Container::Gzip, chunks.max(1), shared.opts);
    // Records of several archives share the input: the crawl is named by `--crawl` or by the
    // archives' paths, never by a warcinfo record that happens to be listed.
    let crawl = shared.opts.crawl.clone().or_else(|| t.crawl.clone());
    state.crawl_name = Some(crawl.unwrap_or_else(|| "unknown".to_string()));
    state.listed = Some(t.listed());
    *lock(&shared.inputs[i]) = Some(Box::new(state));
    let names: Vec<String> = t.archives.iter().map(|a| a.name.clone()).collect();
    let spans: Vec<Span> = (t.archives.iter().enumerate())
        .flat_map(|(k, a)| {
            let records: Vec<(u64, u64)> = a.records.iter().map(|r| (r.offset, r.length)).collect();
            ranges::coalesce(k, &records, ranges::COALESCE_GAP, ranges::COALESCE_MAX)
        })
        .collect();
    let deadline = shared.opts.input_deadline;
    let Worker { read, extract } = worker;
    let mut delivered = 0;
    if !t.bad.is_empty() {
        let mut ex = shared.extractor(extract, &t.list);
        for r in &t.bad {
            let detail = r.problem.as_deref().unwrap_or("names no record");
            listed_error(&mut ex, ErrorKind::BadListLine, r, detail);
        }
        let output = ex.into_output();
        let stats = ContainerStats::default();
        deliver_counted(shared, i, &mut delivered, chunks, output, stats)?;
    }
    // The answers come in the order of the spans, an archive's one after another.
    let mut answers = fetcher.fetch(&names, &spans, deadline).peekable();
    while let Some(&(first, _)) = answers.peek() {
        let archive = spans[first].archive;
        #[cfg(feature = "fault-hooks")]
        if (shared.opts.hooks.panic_on_input.as_deref())
            .is_some_and(|n| names[archive].ends_with(n))
        {
            panic!("fault injected for {}", names[archive]);
        }
        let records = &t.archives[archive].records;
        let overlapping = overlaps(records);
        let mut ex = shared.extractor(extract, &names[archive]);
        let mut stats = ContainerStats::default();
        while let Some((k, answer)) = answers.next_if(|(k, _)| spans[*k].archive == archive) {
            let span = &spans[k];
            let one_by_one = match &answer {
                Err(FetchError::NotTheRange(_)) if span.records.len() > 1 => {
                    alone(fetcher, &names, span, records, deadline)
                }
                _ => vec![(span.start, answer); span.records.len()],
            };
            for (j, (start, answer)) in span.records.clone().zip(one_by_one) {
                let r = &records[j];
                match answer {
                    Ok(bytes) => {
                        let check = overlapping[j];
                        read_record(&bytes, start, r, check, read, &mut ex, &mut stats)
                    }
                    Err(e) => fetch_failed(&mut ex, r, &e),
                }
            }
        }
        let output = ex.into_output();
        deliver_counted(shared, i, &mut delivered, chunks, output, stats)?;
    }
    Ok(())
}

/// The records of a coalesced span whose request failed for its bytes (one line's range runs
/// past the end of the archive, say), each fetched alone: each stands or falls by itself.
/// Each answer with the offset its bytes start at.
fn alone(
    fetcher: &ranges::Fetcher,
    names: &[String],
    span: &Span,
    records: &[ListedRecord],
    deadline: Option<std::time::Duration>,
) -> Vec<(u64, Result<bytes::Bytes, FetchError>)> {
    let singles: Vec<Span> = span
        .records
        .clone()
        .map(|j| Span {
            archive: span.archive,
            start: records[j].offset,
            end: records[j].offset + records[j].length,
            records: j..j + 1,
        })
        .collect();
    let answers = fetcher.fetch(names, &singles, deadline);
    answers.map(|(k, a)| (singles[k].start, a)).collect()
}

/// Which of an archive's records (sorted by offset) share bytes with another line's: their
/// bytes are checked to be one whole record before any row is taken from them, so that a
/// line that is off gives no rows of a record another line names.
fn overlaps(records: &[ListedRecord]) -> Vec<bool> {
    let mut out = vec![false; records.len()];
    let mut reach = 0u64; // the furthest end of the records before
    let mut reached_by = None;
    for (k, r) in records.iter().enumerate() {
        if k > 0 && r.offset < reach {
            out[k] = true;
            if let Some(b) = reached_by {
                out[b] = true;
            }
        }
        let end = r.offset + r.length;
        if end > reach {
            reach = end;
            reached_by = Some(k);
        }
    }
    out
}

/// Deliver one chunk of a targeted input; with its last, fail the input when some record could
/// not be fetched (so that `--resume` fetches its records again).
fn deliver_counted(
    shared: &Shared<'_>,
    i: usize,
    delivered: &mut usize,
    chunks: usize,
    output: crate::rows::ChunkOutput,
    stats: ContainerStats,
) -> Result<()> {
    *delivered += 1;
    if *delivered == chunks {
        if let Some(state) = lock(&shared.inputs[i]).as_mut() {
            let kinds = &state.error_kinds;
            let lost = kinds
                .get(&ErrorKind::RecordNotFetched)
                .copied()
                .unwrap_or(0)
                + output
                    .error_kinds
                    .get(&ErrorKind::RecordNotFetched)
                    .copied()
                    .unwrap_or(0);
            if lost > 0 && state.failure.is_none() {
                state.failure = Some(format!(
                    "{lost} of {} listed records could not be fetched (`--resume` fetches them again)",
                    state.listed.unwrap_or(0)
                ));
            }
        }
    }
    deliver(shared, i, *delivered - 1, output, stats)
}

/// An `errors` row for list line `r`, at its record's offset.
fn listed_error(ex: &mut Extractor<'_>, kind: ErrorKind, r: &ListedRecord, detail: &str) {
    ex.set_list_line(Some(r.line));
    let detail = format!("records list line {}: {detail}", r.line);
    let offset = r.problem.is_none().then_some(r.offset);
    ex.error(ReadError::new(Scope::Record, kind, detail, offset));
    ex.set_list_line(None);
}

fn fetch_failed(ex: &mut Extractor<'_>, r: &ListedRecord, e: &FetchError) {
    let (kind, what) = match e {
        FetchError::NotTheRange(_) => (ErrorKind::RecordMismatch, "not the bytes asked for"),
        FetchError::Failed(_) => (ErrorKind::RecordNotFetched, "could not be fetched"),
    };
    let detail = format!(
        "bytes {}-{} {what}: {}",
        r.offset,
        r.offset + r.length - 1,
        e.detail()
    );
    listed_error(ex, kind, r, &detail);
}

/// Read the record `r` from the fetched bytes of its span (which starts at `span_start`): one
/// gzip member or one plain record, exactly `r.length` bytes long. `check`: count its records
/// first and take no row unless it is one whole record (its bytes overlap another line's).
fn read_record(
    bytes: &[u8],
    span_start: u64,
    r: &ListedRecord,
    check: bool,
    read: &mut ReadBuffers,
    ex: &mut Extractor<'_>,
    stats: &mut ContainerStats,
) {
    let from = (r.offset - span_start) as usize;
    let data = &bytes[from..from + r.length as usize];
    let gzip = data.starts_with(&[0x1f, 0x8b]);
    if !gzip && !is_record_start(data) {
        // What the bytes say is not written: a list may name any local file.
        let detail = format!(
            "the bytes at offset {} start neither a gzip member nor a WARC or ARC record: \
             the offset is off, or the archive is another",
            r.offset
        );
        return listed_error(ex, ErrorKind::RecordMismatch, r, &detail);
    }
    let read_into = |sink: &mut dyn Sink, read: &mut ReadBuffers| {
        if gzip {
            reader::read_gzip_members_at(data, 0, data.len(), r.offset, read, sink)
        } else {
            reader::read_plain_at(data, 0, data.len(), r.offset, sink)
        }
    };
    let (records, members) = if check {
        let mut counter = Counter(0);
        let s = read_into(&mut counter, read);
        (counter.0, s.members)
    } else {
        let records_before = ex.records_read();
        ex.set_list_line(Some(r.line));
        let s = read_into(ex, read);
        ex.set_list_line(None);
        stats.add(&s);
        (ex.records_read() - records_before, s.members)
    };
    let whole = records == 1 && (!gzip || members == 1);
    if !whole {
        let what = if gzip {
            format!("{members} gzip members and {records} records")
        } else {
            format!("{records} records")
        };
        let kept = if check {
            ", and its bytes overlap another line's: no row is taken from them"
        } else {
            ""
        };
        let detail = format!(
            "the {} bytes at offset {} hold {what}, not one record: the length is off{kept}",
            r.length, r.offset
        );
        listed_error(ex, ErrorKind::RecordMismatch, r, &detail);
    } else if check {
        ex.set_list_line(Some(r.line));
        stats.add(&read_into(ex, read));
        ex.set_list_line(None);
    }
}

/// A sink that only counts records.
struct Counter(u64);

impl Sink for Counter {
    fn record(&mut self, _: &crate::archive::framing::sink::Record<'_>) {
        self.0 += 1;
    }
    fn error(&mut self, _: ReadError) {}
}

/// Do `data` start a plain WARC or ARC record?
fn is_record_start(data: &[u8]) -> bool {
    data.starts_with(b"WARC/")
        || data.starts_with(b"filedesc://")
        || data.starts_with(b"http://")
        || data.starts_with(b"https://")
        || data.starts_with(b"dns:")
}

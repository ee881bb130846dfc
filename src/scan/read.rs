//! Reading an input's records into chunk outputs. A mapped file is read chunk by chunk (each
//! chunk a task of its own); any other source (a remote object, a pipe, a file that cannot be
//! mapped) is read through one windowed loop that cuts the stream at confirmed member or record
//! starts and reads each window with the same container readers, so every source gives a mapped
//! local copy's rows, offsets included. Whole-file compressors go through their decompressing
//! stream.

use super::input_state::InputState;
use super::shared::{lock, ScanOptions, Shared, Worker};
use super::state::{deliver, fail_input, fail_open, skip_or_empty};
use crate::archive::container::reader::{self, ContainerStats};
use crate::archive::framing::sink::Sink;
use crate::archive::problem::{ErrorKind, ReadError, Scope};
use crate::archive::source::input::{self, Container};
use crate::archive::source::mapped::Mapped;
use crate::archive::source::remote;
use crate::rows::{ChunkOutput, Extractor};
use anyhow::Result;
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub(super) fn read_chunk(
    shared: &Shared<'_>,
    mapped: &Mapped,
    container: Container,
    (start, end): (usize, usize),
    warc_file: &str,
    worker: &mut Worker,
) -> (ChunkOutput, ContainerStats) {
    #[cfg(feature = "fault-hooks")]
    if shared
        .opts
        .hooks
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
    let mut ex = shared.extractor(&mut worker.extract, warc_file);
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
pub(super) fn populate(map: &memmap2::Mmap, (start, end): (usize, usize)) {
    #[cfg(target_os = "linux")]
    let _ = map.advise_range(memmap2::Advice::PopulateRead, start, end - start);
    #[cfg(not(target_os = "linux"))]
    let _ = (map, start, end);
}

/// Drop the pages of a finished chunk from this process's resident set, so that memory follows the
/// work in flight, not the size of the input (the pages stay in the page cache).
pub(super) fn release(map: &memmap2::Mmap, (start, end): (usize, usize)) {
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

/// The first window of a remote input; it grows (to eight times this, at most
/// [`REMOTE_WINDOW_MAX`]) while no member or record start can be found in it.
const REMOTE_WINDOW: usize = 32 << 20;

const REMOTE_WINDOW_MAX: usize = 256 << 20;

/// Read a remote input (`https://`, `s3://`) as it streams in. Per-record gzip and plain archives
/// are read window by window, each cut at a confirmed member or record start and read by the same
/// code as a mapped file's chunk, so rows (offsets included) equal a local copy's; other
/// containers go through the decompressing stream, as local ones do.
pub(super) fn read_remote(
    shared: &Shared<'_>,
    worker: &mut Worker,
    i: usize,
    url: &str,
) -> Result<()> {
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
pub(super) fn read_windowed(
    shared: &Shared<'_>,
    worker: &mut Worker,
    i: usize,
    reader: impl std::io::Read + Send + 'static,
    size: Option<u64>,
) -> Result<()> {
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
    let mut first = fill_window(&mut reader, &mut window, 16, &mut eof);
    let mut container = input::sniff(&window[..window.len().min(16)]);
    if first.is_ok() && container == Container::Plain {
        // No magic number: a damaged start may hide a gzip input (input::sniff_archive).
        first = fill_window(&mut reader, &mut window, input::SNIFF_SPAN, &mut eof);
        container = input::sniff_archive(&window);
    }
    if first.is_ok() && window.is_empty() && size.is_none() {
        return skip_or_empty(shared, i, 0).map(drop);
    }
    if let Err(e) = first {
        return fail_input(
            shared,
            i,
            bytes,
            container,
            ErrorKind::ReadError,
            &e.to_string(),
        );
    }
    if !matches!(container, Container::Gzip | Container::Plain) {
        let head = std::io::Cursor::new(std::mem::take(&mut window));
        let stream = input::stream_reader(container, head.chain(reader));
        return read_stream_input(shared, worker, i, container, stream, bytes, counted);
    }
    *lock(&shared.inputs[i]) = Some(Box::new(InputState::new(bytes, container, 1, shared.opts)));
    let mut ex = shared.extractor(&mut worker.extract, name);
    let mut stats = ContainerStats::default();
    let first_window =
        (shared.opts.hooks.remote_window).map_or(REMOTE_WINDOW, |w| w.clamp(4096, REMOTE_WINDOW));
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
                // A member or record larger than the largest window.
                None => {
                    let rest = std::io::Cursor::new(std::mem::take(&mut window)).chain(reader);
                    stats.add(&read_rest_as_stream(rest, container, base, &mut ex));
                    shared.bar.inc(bytes.saturating_sub(base));
                    break;
                }
            }
        };
        let window_stats = match container {
            Container::Gzip => {
                let w = &window[..cut];
                reader::read_gzip_members_at(w, 0, cut, base, &mut worker.read, &mut ex)
            }
            _ => reader::read_plain_at(&window[..cut], 0, cut, base, &mut ex),
        };
        stats.add(&window_stats);
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

/// Read the rest of a windowed input as one stream: its current gzip member (a whole-file gzip)
/// or record is larger than the largest window. Read as a local file's member too large to inflate
/// whole is read; offsets past `base` are then positions in the decompressed stream.
fn read_rest_as_stream(
    rest: impl std::io::Read,
    container: Container,
    base: u64,
    ex: &mut Extractor<'_>,
) -> ContainerStats {
    let rest = reader::MarkSource(rest);
    let mut stats = ContainerStats::default();
    let read = match container {
        Container::Gzip => {
            stats.members += 1;
            reader::read_stream_at(
                flate2::read::MultiGzDecoder::new(std::io::BufReader::new(rest)),
                base,
                ex,
            )
        }
        _ => reader::read_stream_at(rest, base, ex),
    };
    stats.decompressed_bytes += read.decompressed_bytes;
    // Counted as a local read counts it: streamed when too large to inflate whole in the member
    // buffer.
    if container == Container::Gzip && read.decompressed_bytes > reader::MEMBER_BUFFER_MAX as u64 {
        stats.streamed_members += 1;
    }
    stats
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
                bytes,
                container,
                ErrorKind::UnsupportedContainer,
                &e.to_string(),
            );
        }
    };
    *lock(&shared.inputs[i]) = Some(Box::new(InputState::new(bytes, container, 1, shared.opts)));
    let mut ex = shared.extractor(&mut worker.extract, &shared.names[i]);
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

/// How long a streamed input (remote, pipe) may stall, and take in all.
pub(super) fn limits(opts: &ScanOptions) -> remote::Limits {
    remote::Limits {
        stall: opts.stall_timeout,
        deadline: opts.input_deadline,
    }
}

//! Records out of bytes: the framer and the container readers that feed it.
//!
//! [`Framer`] is a push parser. Callers feed it decompressed bytes in pieces of any size (a whole
//! memory-mapped `.warc`, one inflated gzip member, 256 KiB from a stream) and it hands complete
//! records to a [`Sink`]. When a record lies whole inside the piece it is passed on borrowed from
//! that piece: no copy. Only a record that spans pieces is gathered in the framer's window, and of a
//! huge record only the first [`KEEP_BLOCK`] bytes are kept; the rest is skipped as it streams by.
//! Extractors see at most [`KEEP_BLOCK`] bytes of any block, whatever the container, so every
//! container gives the same rows.
//!
//! The container readers ([`read_plain`], [`read_gzip_members`], [`read_stream`]) drive the framer
//! over a byte range of an input and report what went wrong as [`ReadError`]s; nothing here panics
//! on input or stops at the first problem.

use crate::gz::{self, MemberInflater, MemberResult, StreamEnd, StreamInflater};
use crate::record::{self, Dialect, Head};
use std::io::Read;

/// The most of a record block that extractors are given (8 MiB).
pub const KEEP_BLOCK: usize = 8 << 20;
/// Largest member output libdeflate inflates whole; larger members are streamed.
pub const MEMBER_BUFFER_MAX: usize = 32 << 20;
const MEMBER_BUFFER_START: usize = 2 << 20;

/// One archive record as extractors see it.
#[derive(Debug)]
pub struct Record<'a> {
    pub head: Head<'a>,
    /// The record block (for a response: HTTP head and body), at most [`KEEP_BLOCK`] bytes; or
    /// a prefix of it that the sink said was enough ([`Sink::block_needed`]).
    pub block: &'a [u8],
    /// The declared block length.
    pub block_len: u64,
    /// `block` is shorter than `block_len` (a huge record, or the input ended inside it).
    pub block_truncated: bool,
    /// Byte offset of the record: of its gzip member in a `.warc.gz`, otherwise in the
    /// (decompressed) stream.
    pub offset: u64,
}

/// Where a problem was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Input,
    Record,
    Body,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Input => "input",
            Scope::Record => "record",
            Scope::Body => "body",
        }
    }
}

/// A problem found while reading; it becomes a row of the `errors` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub scope: Scope,
    pub kind: &'static str,
    pub detail: String,
    pub offset: Option<u64>,
}

impl ReadError {
    pub fn new(
        scope: Scope,
        kind: &'static str,
        detail: impl Into<String>,
        offset: Option<u64>,
    ) -> Self {
        ReadError {
            scope,
            kind,
            detail: detail.into(),
            offset,
        }
    }
}

/// How much of a record's block a sink needs, given its first bytes ([`Sink::block_needed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// The whole block.
    All,
    /// More of it than this prefix to decide: at least so many bytes of the block, when the
    /// sink can tell (0: no idea, the reader doubles what it has).
    More(usize),
    /// This prefix: the sink gives the same results from it as from the whole block.
    Enough,
}

/// Receives what the framer finds.
pub trait Sink {
    fn record(&mut self, rec: &Record<'_>);
    fn error(&mut self, err: ReadError);

    /// A reader that can stop inflating a gzip member early asks this before it inflates the
    /// rest of a record's block: `prefix` is the start of the block (shorter than the whole).
    /// [`Need::Enough`] promises that [`Sink::record`] gives the same results when its block is
    /// this prefix as when it is the whole block; the reader then passes the prefix and skips
    /// the rest of the member without inflating it (see [`read_gzip_members`]).
    fn block_needed(&mut self, head: &Head<'_>, prefix: &[u8]) -> Need {
        let _ = (head, prefix);
        Need::All
    }
}

enum Step {
    /// Bytes consumed without a record (inter-record white space).
    Skip(usize),
    /// Bytes that are not a record; `kind` is the reason.
    Garbage(usize),
    /// A record was emitted; so many bytes consumed, so many more of its block to skip.
    Emitted { consumed: usize, skip: u64 },
    /// More input is needed to decide.
    NeedMore,
}

/// The push parser that turns bytes into records. See the module documentation.
pub struct Framer {
    dialect: Option<Dialect>,
    window: Vec<u8>,
    /// Stream position of the next byte not yet consumed.
    pos: u64,
    /// Bytes of an oversized block still to be skipped.
    skip: u64,
    /// Compressed offset of the gzip member that started most recently and has not yet given
    /// its offset to a record.
    fresh_member: Option<u64>,
    garbage: Option<(u64, u64)>,
}

impl Framer {
    /// A framer whose first byte is at stream position `pos`.
    pub fn new(pos: u64) -> Self {
        Framer {
            dialect: None,
            window: Vec::new(),
            pos,
            skip: 0,
            fresh_member: None,
            garbage: None,
        }
    }

    /// The dialect seen so far, if any record was found.
    pub fn dialect(&self) -> Option<Dialect> {
        self.dialect
    }

    /// Feed the next piece of the stream. `member` is the compressed offset of the gzip member
    /// this piece starts, if it starts one. `eof` says no more bytes follow.
    pub fn feed(&mut self, mut data: &[u8], member: Option<u64>, eof: bool, sink: &mut dyn Sink) {
        if let Some(off) = member {
            self.fresh_member = Some(off);
        }
        if self.skip > 0 {
            let n = (self.skip.min(data.len() as u64)) as usize;
            self.skip -= n as u64;
            self.pos += n as u64;
            data = &data[n..];
        }
        if self.window.is_empty() {
            let used = self.run(data, eof, sink);
            self.window.extend_from_slice(&data[used..]);
        } else {
            self.window.extend_from_slice(data);
            let window = std::mem::take(&mut self.window);
            let used = self.run(&window, eof, sink);
            self.window = window;
            self.window.drain(..used);
        }
        if eof {
            self.flush_garbage(sink);
        }
    }

    /// Whether nothing is buffered or pending, so a gzip member that holds one whole record can
    /// be read without the framer ([`read_gzip_members`]' early stop).
    fn between_records(&self) -> bool {
        self.window.is_empty()
            && self.skip == 0
            && self.garbage.is_none()
            && self.dialect != Some(Dialect::Arc)
    }

    /// A WARC record of `len` bytes (trailing blank line included) was read outside the framer.
    fn passed_record(&mut self, len: u64) {
        self.dialect = Some(Dialect::Warc);
        self.pos += len;
        self.fresh_member = None;
    }

    /// No more input: whatever is buffered is a truncated record or garbage.
    pub fn finish(&mut self, sink: &mut dyn Sink) {
        self.feed(&[], None, true, sink);
    }

    /// The stream breaks here (a corrupt gzip member was skipped): emit what is buffered as
    /// truncated and start afresh at stream position `pos`.
    pub fn discontinuity(&mut self, pos: u64, sink: &mut dyn Sink) {
        self.finish(sink);
        self.window.clear();
        self.skip = 0;
        self.pos = pos;
    }

    /// Consume as many records from `buf` as possible; returns the bytes consumed.
    fn run(&mut self, buf: &[u8], eof: bool, sink: &mut dyn Sink) -> usize {
        let mut used = 0;
        while used < buf.len() {
            if self.skip > 0 {
                let n = (self.skip.min((buf.len() - used) as u64)) as usize;
                self.skip -= n as u64;
                self.pos += n as u64;
                used += n;
                continue;
            }
            match self.step(&buf[used..], eof, sink) {
                Step::Skip(n) => {
                    used += n;
                    self.pos += n as u64;
                }
                Step::Garbage(n) => {
                    match &mut self.garbage {
                        Some((_, len)) => *len += n as u64,
                        None => self.garbage = Some((self.pos, n as u64)),
                    }
                    used += n;
                    self.pos += n as u64;
                }
                Step::Emitted { consumed, skip } => {
                    used += consumed;
                    self.pos += consumed as u64;
                    self.skip = skip;
                }
                Step::NeedMore => break,
            }
        }
        used
    }

    fn flush_garbage(&mut self, sink: &mut dyn Sink) {
        if let Some((at, len)) = self.garbage.take() {
            sink.error(ReadError::new(
                Scope::Record,
                "garbage",
                format!("{len} bytes that are not part of any record"),
                Some(at),
            ));
        }
    }

    fn step(&mut self, buf: &[u8], eof: bool, sink: &mut dyn Sink) -> Step {
        let ws = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n' | b' ' | b'\t'))
            .count();
        if ws > 0 {
            return Step::Skip(ws);
        }
        let dialect = match self.dialect {
            Some(d) => d,
            None => {
                if record::is_warc_start(buf) {
                    Dialect::Warc
                } else if record::parse_arc_head(buf).is_some() {
                    Dialect::Arc
                } else if !eof && memchr::memchr(b'\n', buf).is_none() && buf.len() < 64 * 1024 {
                    return Step::NeedMore;
                } else {
                    return Step::Garbage(next_start(buf, 1, None).unwrap_or(buf.len()));
                }
            }
        };
        let head = match dialect {
            Dialect::Warc => {
                if !record::is_warc_start(buf) {
                    if !eof && buf.len() < 5 && b"WARC/"[..buf.len()].eq_ignore_ascii_case(buf) {
                        return Step::NeedMore;
                    }
                    return self.garbage_until_next(buf, eof, dialect);
                }
                let len = match record::header_end(&buf[..buf.len().min(record::MAX_HEADER)]) {
                    Some(len) => len,
                    None if eof && buf.len() < record::MAX_HEADER => {
                        // The input ends inside the header: keep what there is as the header.
                        let what = "the input ends inside a record header";
                        sink.error(ReadError::new(
                            Scope::Record,
                            "truncated_header",
                            what,
                            Some(self.pos),
                        ));
                        buf.len()
                    }
                    None if buf.len() >= record::MAX_HEADER => {
                        let what = "no end of header within 1 MiB";
                        sink.error(ReadError::new(
                            Scope::Record,
                            "bad_header",
                            what,
                            Some(self.pos),
                        ));
                        return self.garbage_after(buf, 5, eof, dialect);
                    }
                    None => return Step::NeedMore,
                };
                record::parse_warc_head(buf, len)
            }
            Dialect::Arc => match record::parse_arc_head(buf) {
                Some(h) => h,
                None => {
                    if !eof && memchr::memchr(b'\n', buf).is_none() && buf.len() < 64 * 1024 {
                        return Step::NeedMore;
                    }
                    return self.garbage_until_next(buf, eof, dialect);
                }
            },
        };
        self.dialect = Some(dialect);
        self.flush_garbage(sink);
        let offset = self.fresh_member.take().unwrap_or(self.pos);
        let Some(block_len) = head.content_length else {
            // No usable length: the block runs to the next record start (or the end of input).
            let end = match next_start(buf, head.len.saturating_sub(1), Some(dialect)) {
                Some(at) => at,
                None if eof => buf.len(),
                None if buf.len() - head.len >= KEEP_BLOCK => buf.len(),
                None => {
                    self.fresh_member =
                        self.fresh_member.or((offset != self.pos).then_some(offset));
                    return Step::NeedMore;
                }
            };
            let value = head
                .field("Content-Length")
                .map(|v| String::from_utf8_lossy(v).into_owned());
            let detail = match value {
                Some(v) => format!(
                    "Content-Length {v:?} is not a number; block taken up to the next record"
                ),
                None => "no Content-Length; block taken up to the next record".to_string(),
            };
            sink.error(ReadError::new(
                Scope::Record,
                "bad_content_length",
                detail,
                Some(offset),
            ));
            let block_end = end.max(head.len).min(head.len + KEEP_BLOCK);
            let rec = Record {
                block: &buf[head.len..block_end],
                block_len: (end.max(head.len) - head.len) as u64,
                block_truncated: end > block_end,
                offset,
                head,
            };
            sink.record(&rec);
            return Step::Emitted {
                consumed: end.max(block_end),
                skip: 0,
            };
        };
        let avail = buf.len() - head.len;
        if let Some(end) = overshoot(buf, head.len, block_len, eof, dialect) {
            sink.error(ReadError::new(
                Scope::Record,
                "bad_content_length",
                format!(
                    "Content-Length {block_len} runs into the next record; block cut at {} bytes",
                    end - head.len
                ),
                Some(offset),
            ));
            let rec = Record {
                block: &buf[head.len..end],
                block_len: (end - head.len) as u64,
                block_truncated: false,
                offset,
                head,
            };
            sink.record(&rec);
            return Step::Emitted {
                consumed: end,
                skip: 0,
            };
        }
        let (block_end, truncated, skip) = if avail as u64 >= block_len {
            let keep = (block_len as usize).min(KEEP_BLOCK);
            (
                head.len + keep,
                block_len as usize > KEEP_BLOCK,
                block_len - keep as u64,
            )
        } else if avail >= KEEP_BLOCK {
            (head.len + KEEP_BLOCK, true, block_len - KEEP_BLOCK as u64)
        } else if eof {
            sink.error(ReadError::new(
                Scope::Record,
                "truncated_record",
                format!("block declares {block_len} bytes, {avail} present"),
                Some(offset),
            ));
            (buf.len(), true, 0)
        } else {
            if self.fresh_member.is_none() {
                // Give the offset back: the record will be tried again with more bytes.
                self.fresh_member = (offset != self.pos).then_some(offset);
            }
            return Step::NeedMore;
        };
        let rec = Record {
            block: &buf[head.len..block_end],
            block_len,
            block_truncated: truncated,
            offset,
            head,
        };
        sink.record(&rec);
        // Skip what of the block was not kept but is present in this buffer.
        let present_rest = ((buf.len() - block_end) as u64).min(skip) as usize;
        Step::Emitted {
            consumed: block_end + present_rest,
            skip: skip - present_rest as u64,
        }
    }

    /// Not a record start: everything up to the next plausible record start is garbage.
    fn garbage_until_next(&self, buf: &[u8], eof: bool, dialect: Dialect) -> Step {
        self.garbage_after(buf, 1, eof, dialect)
    }

    fn garbage_after(&self, buf: &[u8], from: usize, eof: bool, dialect: Dialect) -> Step {
        match next_start(buf, from, Some(dialect)) {
            Some(at) => Step::Garbage(at),
            None if eof => Step::Garbage(buf.len()),
            // Keep a short tail: a record start may be split across pieces.
            None => {
                let keep = 64 * 1024;
                if buf.len() > keep {
                    Step::Garbage(buf.len() - keep)
                } else {
                    Step::NeedMore
                }
            }
        }
    }
}

/// A Content-Length that runs a little past the end of its record into the next one: when the
/// declared end is not followed by a record start, look for a record start at a line start in the
/// last KiB of the block, and return where the block really ends.
fn overshoot(
    buf: &[u8],
    head_len: usize,
    block_len: u64,
    eof: bool,
    dialect: Dialect,
) -> Option<usize> {
    let end = head_len.checked_add(usize::try_from(block_len).ok()?)?;
    if end > buf.len() || block_len > KEEP_BLOCK as u64 {
        return None;
    }
    let after = &buf[end..];
    let ws = after
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n' | b' ' | b'\t'))
        .count();
    let rest = &after[ws..];
    let starts = match dialect {
        Dialect::Warc => record::is_warc_start(rest),
        Dialect::Arc => record::parse_arc_head(rest).is_some(),
    };
    if rest.is_empty() || starts || (!eof && rest.len() < 64) {
        return None;
    }
    let from = end.saturating_sub(1024).max(head_len);
    let at = next_start(&buf[..end], from, Some(dialect))?;
    // The block ends before the blank line that precedes the next record.
    let mut cut = at;
    while cut > head_len && matches!(buf[cut - 1], b'\r' | b'\n') {
        cut -= 1;
    }
    (cut < end).then_some(cut)
}

/// The next position at or after `from` where a line starts that looks like a record start.
fn next_start(buf: &[u8], from: usize, dialect: Option<Dialect>) -> Option<usize> {
    let mut pos = from.min(buf.len());
    loop {
        let nl = pos + memchr::memchr(b'\n', &buf[pos..])?;
        let line = &buf[nl + 1..];
        let is_start = match dialect {
            Some(Dialect::Warc) => record::is_warc_start(line),
            Some(Dialect::Arc) => record::parse_arc_head(line).is_some(),
            None => record::is_warc_start(line) || record::parse_arc_head(line).is_some(),
        };
        if is_start {
            return Some(nl + 1);
        }
        pos = nl + 1;
    }
}

/// Does `data` begin like an archive record (used to confirm gzip member starts)?
pub fn looks_like_record_start(data: &[u8]) -> bool {
    record::is_warc_start(data) || starts_like_arc(data)
}

fn starts_like_arc(data: &[u8]) -> bool {
    // An ARC line may be longer than the confirmation window: accept a URL-like start.
    record::parse_arc_head(data).is_some()
        || ((data.starts_with(b"http:")
            || data.starts_with(b"https:")
            || data.starts_with(b"filedesc:")
            || data.starts_with(b"dns:"))
            && memchr::memchr(b'\n', data).is_none())
}

/// Reusable per-worker state for reading: inflaters and the member buffers.
pub struct ReadBuffers {
    member: MemberInflater,
    stream: StreamInflater,
    out: Vec<u8>,
    /// The inflated start of a member read up to what the sink needs.
    prefix: Vec<u8>,
    /// Stop inflating members early when the sink allows it (`false`: `--inflate-all`).
    pub early_stop: bool,
}

impl Default for ReadBuffers {
    fn default() -> Self {
        Self::new()
    }
}

impl ReadBuffers {
    pub fn new() -> Self {
        ReadBuffers {
            member: MemberInflater::new(),
            stream: StreamInflater::new(),
            out: Vec::new(),
            prefix: Vec::new(),
            early_stop: true,
        }
    }
}

/// Counters of a container read.
#[derive(Debug, Default, Clone, Copy)]
pub struct ContainerStats {
    pub members: u64,
    pub streamed_members: u64,
    /// Uncompressed bytes of the records read, whether inflated or skipped.
    pub decompressed_bytes: u64,
    /// Members read only as far as the sink needed.
    pub early_stopped_members: u64,
    /// Uncompressed bytes of those members that were skipped, not inflated.
    pub skipped_bytes: u64,
}

/// Read the records of a plain (uncompressed) archive in `data[start..end]`, borrowing them from
/// `data`. `end` must be a record start or the end of `data`.
pub fn read_plain(data: &[u8], start: usize, end: usize, sink: &mut dyn Sink) -> ContainerStats {
    read_plain_at(data, start, end, 0, sink)
}

/// [`read_plain`] over a window of an input that starts at byte `base` of the input.
pub fn read_plain_at(
    data: &[u8],
    start: usize,
    end: usize,
    base: u64,
    sink: &mut dyn Sink,
) -> ContainerStats {
    let mut framer = Framer::new(base + start as u64);
    framer.feed(&data[start..end], None, true, sink);
    ContainerStats {
        decompressed_bytes: (end - start) as u64,
        ..ContainerStats::default()
    }
}

/// Read the records of the gzip members that start in `data[start..end]`. `start` must be a member
/// start; `end` a member start or the end of `data`.
pub fn read_gzip_members(
    data: &[u8],
    start: usize,
    end: usize,
    bufs: &mut ReadBuffers,
    sink: &mut dyn Sink,
) -> ContainerStats {
    read_gzip_members_at(data, start, end, 0, bufs, sink)
}

/// [`read_gzip_members`] over a window of an input that starts at byte `base` of the input (a
/// remote input is read window by window, cut at member starts); offsets are the input's.
pub fn read_gzip_members_at(
    data: &[u8],
    start: usize,
    end: usize,
    base: u64,
    bufs: &mut ReadBuffers,
    sink: &mut dyn Sink,
) -> ContainerStats {
    let mut stats = ContainerStats::default();
    let mut framer = Framer::new(0);
    let mut stream_pos = 0u64;
    let mut pos = start;
    if bufs.out.len() < MEMBER_BUFFER_START {
        bufs.out.resize(MEMBER_BUFFER_START, 0);
    }
    while pos < end {
        if gz::member_header_len(&data[pos..]).is_none() {
            let next = gz::find_member(data, pos + 1, end, looks_like_record_start).unwrap_or(end);
            let trailing_zeros = next == data.len() && data[pos..].iter().all(|&b| b == 0);
            let kind = if trailing_zeros {
                "trailing_padding"
            } else {
                "garbage_between_members"
            };
            sink.error(ReadError::new(
                Scope::Record,
                kind,
                format!("{} bytes that are not a gzip member", next - pos),
                Some(base + pos as u64),
            ));
            framer.discontinuity(stream_pos, sink);
            pos = next;
            continue;
        }
        stats.members += 1;
        if bufs.early_stop && framer.between_records() {
            if let Some(next) = read_member_prefix(data, pos, end, base, bufs, &mut stats, sink) {
                framer.passed_record((next.1) as u64);
                stream_pos += next.1 as u64;
                pos = next.0;
                continue;
            }
        }
        let result = loop {
            match bufs.member.inflate(&data[pos..], &mut bufs.out) {
                MemberResult::TooLarge if bufs.out.len() < MEMBER_BUFFER_MAX => {
                    let grown = (bufs.out.len() * 4).min(MEMBER_BUFFER_MAX);
                    bufs.out.resize(grown, 0);
                }
                other => break other,
            }
        };
        match result {
            MemberResult::Ok { consumed, written } => {
                framer.feed(&bufs.out[..written], Some(base + pos as u64), false, sink);
                stream_pos += written as u64;
                stats.decompressed_bytes += written as u64;
                pos += consumed;
            }
            MemberResult::TooLarge | MemberResult::BadData => {
                // Stream the member: it is too large to inflate whole, or it is damaged and we
                // salvage what precedes the damage.
                stats.streamed_members += 1;
                let mut first = Some(base + pos as u64);
                let r = bufs.stream.inflate(&data[pos..], |piece| {
                    framer.feed(piece, first.take(), false, sink);
                    true
                });
                stream_pos += r.written;
                stats.decompressed_bytes += r.written;
                match r.end {
                    StreamEnd::Complete => {
                        if result == MemberResult::BadData {
                            sink.error(ReadError::new(
                                Scope::Record,
                                "gzip_checksum",
                                "gzip member inflates but its CRC or length trailer does not match",
                                Some(base + pos as u64),
                            ));
                        }
                        pos += r.consumed;
                    }
                    StreamEnd::Truncated => {
                        sink.error(ReadError::new(
                            Scope::Record,
                            "truncated_gzip",
                            format!(
                                "the input ends inside a gzip member ({} bytes inflated)",
                                r.written
                            ),
                            Some(base + pos as u64),
                        ));
                        framer.discontinuity(stream_pos, sink);
                        pos = data.len();
                    }
                    StreamEnd::Corrupt(why) => {
                        sink.error(ReadError::new(
                            Scope::Record,
                            "corrupt_gzip",
                            format!(
                                "gzip member is corrupt after {} inflated bytes: {why}",
                                r.written
                            ),
                            Some(base + pos as u64),
                        ));
                        framer.discontinuity(stream_pos, sink);
                        let from = pos + r.consumed.max(1);
                        pos = gz::find_member(data, from, end, looks_like_record_start)
                            .unwrap_or(end);
                    }
                    StreamEnd::Stopped => pos += r.consumed.max(1),
                }
            }
        }
    }
    framer.finish(sink);
    stats
}

/// Members that inflate to less than this are inflated whole: libdeflate inflates a whole small
/// member faster than zlib-rs inflates its start (about twice the time per byte, and more to set
/// up), so stopping early pays only for larger members.
const EARLY_STOP_MIN: u32 = 32 << 10;
/// How much of a member is inflated before the sink is first asked; each further step doubles
/// it, up to [`EARLY_STOP_MAX`].
const EARLY_STOP_FIRST: usize = 8 << 10;
const EARLY_STOP_MAX: usize = 2 << 20;

/// Read the member at `data[pos]` only as far as the sink needs, when it holds exactly one WARC
/// record (Common Crawl's layout) and the sink says a prefix of the block is enough. The rest of
/// the member is skipped without inflating it: the record's header gives the member's
/// uncompressed size, and the member ends where its trailer carries that size and the next
/// member begins ([`gz::find_member_end`]). What is skipped is not checked: its deflate data and
/// CRC, and the four bytes after the block (a blank line in every writer we know). Returns the
/// next member's start and the member's uncompressed size; `None` when the member must be
/// inflated as usual (small, not one WARC record, the sink needs all of it, any doubt).
fn read_member_prefix(
    data: &[u8],
    pos: usize,
    end: usize,
    base: u64,
    bufs: &mut ReadBuffers,
    stats: &mut ContainerStats,
    sink: &mut dyn Sink,
) -> Option<(usize, usize)> {
    // The size in the trailer before the next gzip header (or the end) is this member's when
    // that header is the next member's: a guess, only used to leave small members alone.
    let guess_end = gz::find_magic(data.get(pos + 3..end)?).map_or(end, |at| pos + 3 + at);
    let guess = data.get(guess_end.checked_sub(4)?..guess_end)?;
    let mut size_guess = u32::from_le_bytes(guess.try_into().ok()?) as usize;
    if size_guess < EARLY_STOP_MIN as usize {
        return None;
    }
    let header = bufs.stream.prefix_begin(&data[pos..end])?;
    let deflate = data.get(pos + header..end)?;
    bufs.prefix.clear();
    let mut target = EARLY_STOP_FIRST;
    loop {
        let gz::PrefixStep::More { consumed } =
            bufs.stream.prefix_to(deflate, &mut bufs.prefix, target)
        else {
            return None;
        };
        let out = &bufs.prefix[..];
        if !record::is_warc_start(out) {
            return None;
        }
        let mut head_len = 0;
        let need = match record::header_end(&out[..out.len().min(record::MAX_HEADER)]) {
            None => Need::More(0),
            Some(len) => {
                head_len = len;
                let head = record::parse_warc_head(out, head_len);
                let block_len = head.content_length?;
                let size = (head_len as u64).checked_add(block_len)?.checked_add(4)?;
                if size > u64::from(u32::MAX) || size <= out.len() as u64 {
                    return None;
                }
                size_guess = size as usize;
                let need = sink.block_needed(&head, &out[head_len..]);
                if need == Need::Enough {
                    // The rest of the member inflates to `size - out.len()` bytes; its deflate
                    // data is at most that plus 5 bytes per 64 KiB stored block, plus the trailer.
                    let rest = (size - out.len() as u64) as usize;
                    let from = pos + header + consumed.saturating_sub(16);
                    let limit = end.min(from + 64 + rest + rest / 8192);
                    // No gzip header stands before `guess_end`: the search starts there.
                    let next = gz::find_member_end(
                        data,
                        from.max(guess_end.saturating_sub(4)),
                        limit,
                        size as u32,
                        looks_like_record_start,
                    )?;
                    stats.decompressed_bytes += size;
                    stats.early_stopped_members += 1;
                    stats.skipped_bytes += size - out.len() as u64;
                    sink.record(&Record {
                        head,
                        block: &out[head_len..],
                        block_len,
                        block_truncated: false,
                        offset: base + pos as u64,
                    });
                    return Some((next, size as usize));
                }
                need
            }
        };
        let at_least = match need {
            Need::More(n) => head_len.saturating_add(n),
            _ => return None,
        };
        // Past half the member, inflating it whole with libdeflate costs less.
        target = (target * 2).max(at_least.next_multiple_of(4096));
        if target > EARLY_STOP_MAX || target > size_guess / 2 {
            return None;
        }
    }
}

/// Read the records of a stream (whole-file gzip through a reader, a file that could not be
/// mapped, or another decompressor), with offsets in the decompressed stream.
pub fn read_stream(reader: impl Read, sink: &mut dyn Sink) -> std::io::Result<ContainerStats> {
    read_stream_at(reader, 0, sink)
}

/// [`read_stream`] of a stream whose first byte is at offset `base`.
pub fn read_stream_at(
    mut reader: impl Read,
    base: u64,
    sink: &mut dyn Sink,
) -> std::io::Result<ContainerStats> {
    let mut framer = Framer::new(base);
    let mut buf = vec![0u8; 1 << 20];
    let mut stats = ContainerStats::default();
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                framer.finish(sink);
                return Err(e);
            }
        };
        stats.decompressed_bytes += n as u64;
        framer.feed(&buf[..n], None, false, sink);
    }
    framer.finish(sink);
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Collect {
        recs: Vec<(u64, String, Vec<u8>, bool)>,
        errs: Vec<ReadError>,
    }

    impl Sink for Collect {
        fn record(&mut self, rec: &Record<'_>) {
            self.recs.push((
                rec.offset,
                String::from_utf8_lossy(rec.head.target_uri).into_owned(),
                rec.block.to_vec(),
                rec.block_truncated,
            ));
        }
        fn error(&mut self, err: ReadError) {
            self.errs.push(err);
        }
    }

    fn rec(uri: &str, body: &str) -> Vec<u8> {
        format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
            body.len()
        )
        .into_bytes()
    }

    #[test]
    fn plain_records_and_garbage() {
        let mut data = rec("http://a/", "one");
        data.extend_from_slice(b"junk junk\n");
        let second = data.len();
        data.extend(rec("http://b/", "two"));
        let mut c = Collect::default();
        read_plain(&data, 0, data.len(), &mut c);
        assert_eq!(c.recs.len(), 2);
        assert_eq!(c.recs[1].0, second as u64);
        assert_eq!(c.recs[1].2, b"two");
        assert_eq!(c.errs.len(), 1);
        assert_eq!(c.errs[0].kind, "garbage");
    }

    #[test]
    fn any_piece_size_gives_same_records() {
        let mut data = Vec::new();
        for i in 0..20 {
            data.extend(rec(&format!("http://h{i}/"), &"x".repeat(i * 37)));
        }
        let mut whole = Collect::default();
        read_plain(&data, 0, data.len(), &mut whole);
        for piece in [1usize, 2, 7, 64, 1000] {
            let mut c = Collect::default();
            let mut f = Framer::new(0);
            for chunk in data.chunks(piece) {
                f.feed(chunk, None, false, &mut c);
            }
            f.finish(&mut c);
            assert_eq!(c.recs, whole.recs, "piece size {piece}");
            assert!(c.errs.is_empty());
        }
    }

    #[test]
    fn truncated_last_record_is_kept_and_reported() {
        let mut data = rec("http://a/", "complete");
        let second = rec("http://b/", "cut here");
        data.extend_from_slice(&second[..second.len() - 8]);
        let mut c = Collect::default();
        read_plain(&data, 0, data.len(), &mut c);
        assert_eq!(c.recs.len(), 2);
        assert!(c.recs[1].3);
        assert_eq!(c.errs[0].kind, "truncated_record");
    }
}

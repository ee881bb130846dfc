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

use crate::archive::gz::{self, MemberInflater, MemberResult, StreamEnd, StreamInflater};
use crate::archive::problem::{ErrorKind, ReadError, Scope};
use crate::archive::record::{self, Dialect, Head};
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
    /// Bytes that are not a record.
    Garbage(usize),
    /// A record was emitted; so many bytes consumed, so many more of its block to skip.
    Emitted { consumed: usize, skip: u64 },
    /// More input is needed to decide.
    NeedMore,
}

/// Why the bytes in hand end, for a record they cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// More bytes may follow.
    Open,
    /// The input (or the readable part of a damaged gzip member) ends.
    Input,
    /// A gzip member ends and the next one starts a record: a record in progress ends with its
    /// member, whatever its header declared.
    Member,
}

impl Ending {
    fn is_end(self) -> bool {
        self != Ending::Open
    }

    fn what(self) -> &'static str {
        match self {
            Ending::Member => "its gzip member",
            _ => "the input",
        }
    }
}

/// A gzip member the framer was fed: where it starts in the decompressed stream and in the file,
/// and how many records started in it (the first takes the member's offset).
#[derive(Debug, Clone, Copy)]
struct Member {
    stream_start: u64,
    offset: u64,
    records: u32,
}

/// How far the search for a record start inside a pending record's block got (positions relative
/// to the record's start, at stream position `at`), so that a window growing piece by piece is
/// searched once.
#[derive(Debug, Default, Clone, Copy)]
struct Probe {
    at: u64,
    searched: usize,
    found: Option<usize>,
}

/// A record whose declared end lies beyond the first [`KEEP_BLOCK`] bytes but which has a record
/// start inside those bytes is held until its declared end arrives, to tell a large record from a
/// wrong length, up to this many bytes; past that the block is cut at the record start inside it.
const VERIFY_WINDOW: usize = 64 << 20;

/// The push parser that turns bytes into records. See the module documentation.
pub struct Framer {
    dialect: Option<Dialect>,
    window: Vec<u8>,
    /// Stream position of the next byte not yet consumed.
    pos: u64,
    /// Bytes of an oversized block still to be skipped.
    skip: u64,
    /// The offset and declared block length of the record being skipped.
    skipping: (u64, u64),
    /// The gzip members whose bytes are in the window or being fed (oldest first).
    members: std::collections::VecDeque<Member>,
    garbage: Option<(u64, u64)>,
    probe: Probe,
}

impl Framer {
    /// A framer whose first byte is at stream position `pos`.
    pub fn new(pos: u64) -> Self {
        Framer {
            dialect: None,
            window: Vec::new(),
            pos,
            skip: 0,
            skipping: (0, 0),
            members: Default::default(),
            garbage: None,
            probe: Probe::default(),
        }
    }

    /// The dialect seen so far, if any record was found.
    pub fn dialect(&self) -> Option<Dialect> {
        self.dialect
    }

    /// Feed the next piece of the stream. `member` is the compressed offset of the gzip member
    /// this piece starts, if it starts one. `eof` says no more bytes follow.
    ///
    /// A member that starts with a record start ends whatever record the previous members left
    /// open (a per-record `.warc.gz` holds one record per member, so a Content-Length that runs
    /// past its member is wrong); a member that does not (a record split over members, as
    /// block-gzip writers do) continues it.
    pub fn feed(&mut self, mut data: &[u8], member: Option<u64>, eof: bool, sink: &mut dyn Sink) {
        if let Some(offset) = member {
            if self.pending() && self.starts_record(data) {
                self.end_at_member(sink);
            }
            self.members.push_back(Member {
                stream_start: self.pos + self.window.len() as u64,
                offset,
                records: 0,
            });
        }
        if self.skip > 0 {
            let n = (self.skip.min(data.len() as u64)) as usize;
            self.skip -= n as u64;
            self.pos += n as u64;
            data = &data[n..];
        }
        let ending = if eof { Ending::Input } else { Ending::Open };
        if self.window.is_empty() {
            let used = self.run(data, ending, sink);
            self.window.extend_from_slice(&data[used..]);
        } else {
            self.window.extend_from_slice(data);
            let window = std::mem::take(&mut self.window);
            let used = self.run(&window, ending, sink);
            self.window = window;
            self.window.drain(..used);
        }
        if eof {
            self.end_of_input(sink);
        }
        self.forget_members();
    }

    /// Whether a record or garbage is in progress.
    fn pending(&self) -> bool {
        !self.window.is_empty() || self.skip > 0
    }

    /// Does `data` (after white space) start a record?
    fn starts_record(&self, data: &[u8]) -> bool {
        let ws = data.iter().take_while(|b| is_space(**b)).count();
        let rest = &data[ws..];
        match self.dialect {
            Some(Dialect::Warc) => record::is_warc_start(rest),
            Some(Dialect::Arc) => starts_like_arc(rest),
            None => looks_like_record_start(rest),
        }
    }

    /// The gzip member that held the pending record ended and the next one starts a record: end
    /// the pending record (or the skip of a large one) there.
    fn end_at_member(&mut self, sink: &mut dyn Sink) {
        self.end_skip(Ending::Member, sink);
        if !self.window.is_empty() {
            let window = std::mem::take(&mut self.window);
            let used = self.run(&window, Ending::Member, sink);
            debug_assert_eq!(used, window.len());
            self.window = window;
            self.window.clear();
        }
        self.flush_garbage(sink);
    }

    /// The input ended: report a large record it cut short, and pending garbage.
    fn end_of_input(&mut self, sink: &mut dyn Sink) {
        self.end_skip(Ending::Input, sink);
        self.flush_garbage(sink);
    }

    /// A large record being skipped ends before its declared end: with the input, or with its
    /// gzip member (the next one starts a record).
    fn end_skip(&mut self, ending: Ending, sink: &mut dyn Sink) {
        if self.skip == 0 {
            return;
        }
        let (offset, declared) = self.skipping;
        let (kind, detail) = match ending {
            Ending::Member => (ErrorKind::BadContentLength, format!(
                "Content-Length {declared} runs {} bytes past the record's gzip member, and the next member starts a record: the record ends with its member",
                self.skip
            )),
            _ => (ErrorKind::TruncatedRecord, format!(
                "block declares {declared} bytes; the input ends {} bytes short of them",
                self.skip
            )),
        };
        sink.error(ReadError::new(Scope::Record, kind, detail, Some(offset)));
        // The skipped bytes never came: the stream position stays where the bytes ended.
        self.skip = 0;
    }

    /// Drop the members wholly behind the read position.
    fn forget_members(&mut self) {
        while self.members.len() > 1 && self.members[1].stream_start <= self.pos {
            self.members.pop_front();
        }
    }

    /// The member that holds stream position `p`.
    fn member_at(&self, p: u64) -> Option<usize> {
        self.members.iter().rposition(|m| m.stream_start <= p)
    }

    /// The offset of a record starting at stream position `p`: its member's when it is the first
    /// record to start in that member, else the position in the stream.
    fn record_offset(&self, p: u64) -> u64 {
        match self.member_at(p) {
            Some(i) if self.members[i].records == 0 => self.members[i].offset,
            _ => p,
        }
    }

    /// The offset of a problem at stream position `p`: its member's while the member holds at
    /// most one record (a per-record `.warc.gz`), else the position in the stream.
    fn error_offset(&self, p: u64) -> u64 {
        match self.member_at(p) {
            Some(i) if self.members[i].records <= 1 => self.members[i].offset,
            _ => p,
        }
    }

    /// Whether the record at the read position is the first to start in its gzip member (a
    /// per-record `.warc.gz`): the member's end, not a search of its block, then judges its
    /// length. Not so in a plain archive, a stream, or after the first record of a member that
    /// holds many (a whole-file gzip), which all read alike.
    fn member_framed(&self) -> bool {
        self.member_at(self.pos)
            .is_some_and(|i| self.members[i].records == 0)
    }

    /// Hand a record on (once: a record waiting for more bytes is not emitted until it has them).
    fn emit(&mut self, rec: &Record<'_>, sink: &mut dyn Sink) {
        if let Some(i) = self.member_at(self.pos) {
            self.members[i].records += 1;
        }
        if let Some(damage) = rec.head.damage {
            sink.error(ReadError::new(
                Scope::Record,
                ErrorKind::BadHeader,
                damage.detail(),
                Some(rec.offset),
            ));
        }
        sink.record(rec);
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
        self.members.clear();
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
        self.members.clear();
        self.pos = pos;
    }

    /// Consume as many records from `buf` as possible; returns the bytes consumed.
    fn run(&mut self, buf: &[u8], ending: Ending, sink: &mut dyn Sink) -> usize {
        let mut used = 0;
        while used < buf.len() {
            if self.skip > 0 {
                let n = (self.skip.min((buf.len() - used) as u64)) as usize;
                self.skip -= n as u64;
                self.pos += n as u64;
                used += n;
                continue;
            }
            match self.step(&buf[used..], ending, sink) {
                Step::Skip(n) => {
                    used += n;
                    self.pos += n as u64;
                }
                Step::Garbage(n) => {
                    match &mut self.garbage {
                        Some((_, len)) => *len += n as u64,
                        None => self.garbage = Some((self.error_offset(self.pos), n as u64)),
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
                ErrorKind::Garbage,
                format!("{len} bytes that are not part of any record"),
                Some(at),
            ));
        }
    }

    /// One record (or run of white space or garbage) at the start of `buf`.
    fn step(&mut self, buf: &[u8], ending: Ending, sink: &mut dyn Sink) -> Step {
        let eof = ending.is_end();
        let ws = buf.iter().take_while(|b| is_space(**b)).count();
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
                    return self.garbage_after(buf, 1, eof, None);
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
                        sink.error(ReadError::new(
                            Scope::Record,
                            ErrorKind::TruncatedHeader,
                            format!("{} ends inside a record header", ending.what()),
                            Some(self.error_offset(self.pos)),
                        ));
                        buf.len()
                    }
                    None if buf.len() >= record::MAX_HEADER => {
                        let what = "no end of header within 1 MiB";
                        sink.error(ReadError::new(
                            Scope::Record,
                            ErrorKind::BadHeader,
                            what,
                            Some(self.error_offset(self.pos)),
                        ));
                        return self.garbage_after(buf, 5, eof, Some(dialect));
                    }
                    None => return Step::NeedMore,
                };
                // A header holds no record start: one inside means this header's end was lost
                // and it ran into the next record's.
                if let Some(at) = next_plausible_start(&buf[..len], 5, len, Dialect::Warc) {
                    sink.error(ReadError::new(
                        Scope::Record,
                        ErrorKind::BadHeader,
                        "the header runs into the next record (its end is missing)",
                        Some(self.error_offset(self.pos)),
                    ));
                    return Step::Garbage(at);
                }
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
        match head.content_length {
            Some(block_len) => self.step_declared(buf, head, block_len, ending, sink),
            None => self.step_undeclared(buf, head, ending, sink),
        }
    }

    /// A record without a usable length: the block runs to the next record start (or the end).
    fn step_undeclared(
        &mut self,
        buf: &[u8],
        head: Head<'_>,
        ending: Ending,
        sink: &mut dyn Sink,
    ) -> Step {
        let offset = self.record_offset(self.pos);
        let end = match next_start(buf, head.len.saturating_sub(1), self.dialect) {
            Some(at) => at,
            None if ending.is_end() => buf.len(),
            None if buf.len() - head.len >= KEEP_BLOCK => buf.len(),
            None => return Step::NeedMore,
        };
        let value = head
            .field("Content-Length")
            .map(|v| String::from_utf8_lossy(v).into_owned());
        let detail = match value {
            Some(v) => {
                format!("Content-Length {v:?} is not a number; block taken up to the next record")
            }
            None => "no Content-Length; block taken up to the next record".to_string(),
        };
        sink.error(ReadError::new(
            Scope::Record,
            ErrorKind::BadContentLength,
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
        self.emit(&rec, sink);
        Step::Emitted {
            consumed: end.max(block_end),
            skip: 0,
        }
    }

    /// A record with a declared block length. The length is trusted when a record start (or the
    /// end) follows the declared end; when something else does, or the input or member ends
    /// before it, the block is cut where the first record start inside it stands, if any.
    fn step_declared(
        &mut self,
        buf: &[u8],
        head: Head<'_>,
        block_len: u64,
        ending: Ending,
        sink: &mut dyn Sink,
    ) -> Step {
        let offset = self.record_offset(self.pos);
        let dialect = self.dialect.unwrap_or(Dialect::Warc);
        let head_len = head.len;
        let avail = buf.len() - head_len;
        let declared_end = usize::try_from(block_len)
            .ok()
            .and_then(|n| n.checked_add(head_len))
            .filter(|&e| e <= buf.len());
        if let Some(end) = declared_end {
            match after_block(&buf[end..], ending, dialect, self.member_framed()) {
                After::Unknown => return Step::NeedMore,
                // A record start inside the block is known by its whole header: wait for enough
                // of what follows (this is a damaged record; the copy costs nothing that counts).
                After::Other if !ending.is_end() && buf.len() - end < 64 * 1024 => {
                    return Step::NeedMore
                }
                After::Other => {
                    if let Some(at) = self.start_inside(buf, head_len, end, dialect) {
                        let why = format!(
                            "Content-Length {block_len} runs into the next record; block cut at {} bytes",
                            block_cut(buf, head_len, at) - head_len
                        );
                        return self.emit_cut(buf, head, at, offset, why, sink);
                    }
                }
                // Without a gzip member to confirm the framing, a length that spans a whole
                // record (damage took as many bytes from this record as the next one holds)
                // shows as a complete WARC header inside the block.
                After::Start if !self.member_framed() && dialect == Dialect::Warc => {
                    if let Some(at) = swallowed_start(buf, head_len, end) {
                        let why = format!(
                            "Content-Length {block_len} spans the record that starts {} bytes into the block; block cut there",
                            at - head_len
                        );
                        return self.emit_cut(buf, head, at, offset, why, sink);
                    }
                }
                After::Start => {}
            }
            let keep = (block_len as usize).min(KEEP_BLOCK);
            let rec = Record {
                block: &buf[head_len..head_len + keep],
                block_len,
                block_truncated: block_len as usize > KEEP_BLOCK,
                offset,
                head,
            };
            self.emit(&rec, sink);
            return Step::Emitted {
                consumed: end,
                skip: 0,
            };
        }
        // The declared end is not in hand.
        if !ending.is_end() && avail < KEEP_BLOCK {
            return Step::NeedMore;
        }
        let inside = self.start_inside(buf, head_len, buf.len(), dialect);
        if !ending.is_end() && inside.is_some() && buf.len() < VERIFY_WINDOW {
            return Step::NeedMore;
        }
        if let Some(at) = inside {
            let why = if ending.is_end() {
                format!(
                    "Content-Length {block_len} runs past the end of {} ({avail} bytes follow the header); block cut where the next record starts",
                    ending.what()
                )
            } else {
                format!(
                    "Content-Length {block_len}: no record start follows within {} MiB, and one stands inside the block; block cut there",
                    VERIFY_WINDOW >> 20
                )
            };
            return self.emit_cut(buf, head, at, offset, why, sink);
        }
        if ending.is_end() {
            let (kind, detail) = match ending {
                Ending::Member => (
                    ErrorKind::BadContentLength,
                    format!("block declares {block_len} bytes, its gzip member ends after {avail} and the next member starts a record: the record ends with its member"),
                ),
                _ => (
                    ErrorKind::TruncatedRecord,
                    format!("block declares {block_len} bytes, {avail} present"),
                ),
            };
            sink.error(ReadError::new(Scope::Record, kind, detail, Some(offset)));
            let rec = if ending == Ending::Member {
                // The record ends with its member: its block is what precedes the separator.
                let cut = block_cut(buf, head_len, buf.len());
                Record {
                    block: &buf[head_len..cut.min(head_len + KEEP_BLOCK)],
                    block_len: (cut - head_len) as u64,
                    block_truncated: cut - head_len > KEEP_BLOCK,
                    offset,
                    head,
                }
            } else {
                Record {
                    block: &buf[head_len..],
                    block_len,
                    block_truncated: true,
                    offset,
                    head,
                }
            };
            self.emit(&rec, sink);
            return Step::Emitted {
                consumed: buf.len(),
                skip: 0,
            };
        }
        // A large block: keep its first KEEP_BLOCK bytes and skip the rest as it streams by.
        let rec = Record {
            block: &buf[head_len..head_len + KEEP_BLOCK],
            block_len,
            block_truncated: true,
            offset,
            head,
        };
        self.emit(&rec, sink);
        let skip = block_len - KEEP_BLOCK as u64;
        let present_rest = ((buf.len() - head_len - KEEP_BLOCK) as u64).min(skip) as usize;
        self.skipping = (offset, block_len);
        Step::Emitted {
            consumed: head_len + KEEP_BLOCK + present_rest,
            skip: skip - present_rest as u64,
        }
    }

    /// Emit a record whose block is cut before the record start at `at`, with an error.
    fn emit_cut(
        &mut self,
        buf: &[u8],
        head: Head<'_>,
        at: usize,
        offset: u64,
        why: String,
        sink: &mut dyn Sink,
    ) -> Step {
        let head_len = head.len;
        sink.error(ReadError::new(
            Scope::Record,
            ErrorKind::BadContentLength,
            why,
            Some(offset),
        ));
        let cut = block_cut(buf, head_len, at);
        let keep = (cut - head_len).min(KEEP_BLOCK);
        let rec = Record {
            block: &buf[head_len..head_len + keep],
            block_len: (cut - head_len) as u64,
            block_truncated: cut - head_len > KEEP_BLOCK,
            offset,
            head,
        };
        self.emit(&rec, sink);
        Step::Emitted {
            consumed: at,
            skip: 0,
        }
    }

    /// The first record start inside the block of the record at `buf[0]` (after its header of
    /// `head_len` bytes), before `limit`. Remembered per record, so a growing window is searched
    /// once.
    fn start_inside(
        &mut self,
        buf: &[u8],
        head_len: usize,
        limit: usize,
        dialect: Dialect,
    ) -> Option<usize> {
        if self.probe.at != self.pos || self.probe.searched < head_len.saturating_sub(1) {
            self.probe = Probe {
                at: self.pos,
                searched: head_len.saturating_sub(1),
                found: None,
            };
        }
        if self.probe.found.is_none() && self.probe.searched < limit {
            self.probe.found = next_plausible_start(buf, self.probe.searched, limit, dialect);
            // A start (a WARC header, an ARC line) near the end of what is in hand may be cut
            // there: look at the last 64 KiB again next time.
            let confirmed = limit.min(buf.len().saturating_sub(64 * 1024));
            self.probe.searched = confirmed.max(self.probe.searched);
        }
        self.probe.found.filter(|&at| at < limit)
    }

    /// Not a record start: everything up to the next plausible record start is garbage.
    fn garbage_until_next(&self, buf: &[u8], eof: bool, dialect: Dialect) -> Step {
        self.garbage_after(buf, 1, eof, Some(dialect))
    }

    /// Garbage up to the next record start at or after `from`; with none in hand and more to
    /// come, all but a tail in which a record start may be cut off (or found whole later).
    fn garbage_after(&self, buf: &[u8], from: usize, eof: bool, dialect: Option<Dialect>) -> Step {
        match next_start(buf, from, dialect) {
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

fn is_space(b: u8) -> bool {
    matches!(b, b'\r' | b'\n' | b' ' | b'\t')
}

/// What follows a record's declared end.
enum After {
    /// A record start, or nothing more (the end of the input or of the piece).
    Start,
    /// Something else: the declared length is wrong.
    Other,
    /// Too little to tell, and more may come.
    Unknown,
}

/// `in_member`: the bytes come from a gzip member, whose end (and whether the next member starts
/// a record) judges a record that ends with the piece.
fn after_block(after: &[u8], ending: Ending, dialect: Dialect, in_member: bool) -> After {
    let ws = after.iter().take_while(|b| is_space(**b)).count();
    let rest = &after[ws..];
    if rest.is_empty() {
        return if ending.is_end() || in_member {
            After::Start
        } else {
            After::Unknown
        };
    }
    match dialect {
        Dialect::Warc if record::is_warc_start(rest) => After::Start,
        Dialect::Warc
            if !ending.is_end()
                && rest.len() < 5
                && b"WARC/"[..rest.len()].eq_ignore_ascii_case(rest) =>
        {
            After::Unknown
        }
        Dialect::Arc if record::parse_arc_head(rest).is_some() => After::Start,
        Dialect::Arc
            if !ending.is_end()
                && memchr::memchr(b'\n', rest).is_none()
                && rest.len() < 64 * 1024 =>
        {
            After::Unknown
        }
        _ => After::Other,
    }
}

/// Where a block that ends at `at` (a record start, or the end of a gzip member) really ends:
/// before the record separator (`\r\n\r\n` after a WARC block, or the LF-only `\n\n`;
/// `\n` after an ARC block), so that the block equals the one a right length gives.
fn block_cut(buf: &[u8], head_len: usize, at: usize) -> usize {
    let block = &buf[head_len..at];
    let sep = [&b"\r\n\r\n"[..], b"\n\n", b"\r\n", b"\n"]
        .into_iter()
        .find(|s| block.ends_with(s))
        .map_or(0, <[u8]>::len);
    at - sep
}

/// The next position at or after `from` (never 0, the record in hand) where a record starts: a
/// line that looks like a record start or, for WARC, a `WARC/` version line that lost the line
/// break before it (damage ate the end of the record before) when a whole WARC header follows.
fn next_start(buf: &[u8], from: usize, dialect: Option<Dialect>) -> Option<usize> {
    match dialect {
        Some(Dialect::Warc) => next_warc_start(buf, from, buf.len(), false),
        Some(Dialect::Arc) => next_line_start(buf, from, dialect),
        // Before the first record: ARC lines or WARC version lines, whichever comes first.
        None => {
            let lines = next_line_start(buf, from, None);
            next_warc_start(buf, from, lines.unwrap_or(buf.len()), false).or(lines)
        }
    }
}

fn next_line_start(buf: &[u8], from: usize, dialect: Option<Dialect>) -> Option<usize> {
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

/// The next WARC record start at or after `from` (and at least 1), before `limit`, found by one
/// `memmem` pass for `ARC/` and `arc/` (the version lines `WARC/` and `warc/`; mixed case is not
/// looked for). A candidate at a line start needs only `WARC/`, unless `strict`; one inside a line
/// needs a whole header ([`is_whole_warc_head`]).
fn next_warc_start(buf: &[u8], from: usize, limit: usize, strict: bool) -> Option<usize> {
    static UPPER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"ARC/"));
    static LOWER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"arc/"));
    let limit = limit.min(buf.len());
    // A hit of `ARC/` at `h` is a candidate at `h - 1`.
    let find = |finder: &memchr::memmem::Finder<'_>, pos: usize| {
        // A candidate before `limit` is a hit at `limit` at most, whose four bytes end there.
        let hay = buf.get(pos..limit.saturating_add(4).min(buf.len()))?;
        finder.find(hay).map(|h| pos + h - 1)
    };
    let start = from.max(1) + 1;
    let (mut upper, mut lower) = (find(&UPPER, start), find(&LOWER, start));
    loop {
        let at = match (upper, lower) {
            (Some(u), Some(l)) => u.min(l),
            (Some(u), None) => u,
            (None, Some(l)) => l,
            (None, None) => return None,
        };
        if at >= limit {
            return None;
        }
        let rest = &buf[at..];
        let line_start = buf[at - 1] == b'\n';
        // Inside a line only `WARC/` (as every writer writes it) with a whole header counts.
        let ok = if line_start && !strict {
            matches!(rest[0], b'W' | b'w') && record::is_warc_start(rest)
        } else {
            (line_start || rest[0] == b'W') && is_whole_warc_head(rest)
        };
        if ok {
            return Some(at);
        }
        if upper == Some(at) {
            upper = find(&UPPER, at + 2);
        }
        if lower == Some(at) {
            lower = find(&LOWER, at + 2);
        }
    }
}

/// A whole WARC header at a line start inside a block that a record start follows (`from` to
/// `limit`): a length that spans a whole next record. This search runs on every block of a plain
/// archive or stream, so it looks only for `\nWARC/` (a needle of rare bytes: about three times
/// cheaper than the `ARC/` of [`next_warc_start`] on HTML), not for lowercase or mid-line starts,
/// which a length already in doubt is searched for.
fn swallowed_start(buf: &[u8], from: usize, limit: usize) -> Option<usize> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\nWARC/"));
    let mut pos = from.saturating_sub(1);
    while pos < limit {
        let at = pos + FINDER.find(&buf[pos..limit])? + 1;
        if is_whole_warc_head(&buf[at..]) {
            return Some(at);
        }
        pos = at;
    }
    None
}

/// `1.0` (any digits) and the end of the line, white space allowed before it.
fn is_version_line(after_slash: &[u8]) -> bool {
    let digits = |b: &[u8]| b.iter().take_while(|c| c.is_ascii_digit()).count();
    let major = digits(after_slash);
    if major == 0 || after_slash.get(major) != Some(&b'.') {
        return false;
    }
    let rest = &after_slash[major + 1..];
    let minor = digits(rest);
    let tail = &rest[minor..];
    let ws = tail
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    minor > 0 && matches!(tail.get(ws), Some(b'\r' | b'\n'))
}

/// Like [`next_start`], before `limit`, for a record start inside a block whose declared length
/// is doubted (or inside a header): a WARC start must be a whole header, so that text that
/// merely mentions WARC does not cut a block.
fn next_plausible_start(buf: &[u8], from: usize, limit: usize, dialect: Dialect) -> Option<usize> {
    match dialect {
        Dialect::Warc => next_warc_start(buf, from, limit, true),
        // An ARC line is read whole, so the search may look past `limit` for its end.
        Dialect::Arc => next_line_start(buf, from, Some(Dialect::Arc)).filter(|&at| at < limit),
    }
}

/// A version line of its own (`WARC/1.0`: digits, a dot, digits, then the line end, so that a
/// URL such as `http://netpreserve.org/warc/1.0/revisit/...` in a field is none), then a complete
/// header (within 64 KiB) with a `WARC-Type` or `WARC-Record-ID` field.
fn is_whole_warc_head(rest: &[u8]) -> bool {
    if !record::is_warc_start(rest) || !is_version_line(&rest[5..]) {
        return false;
    }
    let Some(len) = record::header_end(&rest[..rest.len().min(64 * 1024)]) else {
        return false;
    };
    let head = record::parse_warc_head(rest, len);
    !head.warc_type.is_empty() || !head.record_id.is_empty()
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

impl ContainerStats {
    /// Add the counters of another read (another chunk or window of the same input).
    pub fn add(&mut self, o: &ContainerStats) {
        self.members += o.members;
        self.streamed_members += o.streamed_members;
        self.decompressed_bytes += o.decompressed_bytes;
        self.early_stopped_members += o.early_stopped_members;
        self.skipped_bytes += o.skipped_bytes;
    }
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
    // The start of the member read last: a damaged member's inflater may have run past the
    // start of the next member, so the search for it begins just after this one's start.
    let mut last_start: Option<usize> = None;
    while pos < end {
        if gz::member_header_len(&data[pos..]).is_none() {
            let from = last_start.map_or(pos + 1, |s| (s + 1).min(pos + 1));
            let next = gz::find_member(data, from, end, looks_like_record_start).unwrap_or(end);
            if next < pos {
                // The member before ran into this one (its trailer was cut short or damaged,
                // which its own error row says): go back to where this one starts.
                framer.discontinuity(stream_pos, sink);
                last_start = None;
                pos = next;
                continue;
            }
            let trailing_zeros = next == data.len() && data[pos..].iter().all(|&b| b == 0);
            let kind = if trailing_zeros {
                ErrorKind::TrailingPadding
            } else {
                ErrorKind::GarbageBetweenMembers
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
        last_start = Some(pos);
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
                                ErrorKind::GzipChecksum,
                                "gzip member inflates but its CRC or length trailer does not match",
                                Some(base + pos as u64),
                            ));
                        }
                        pos += r.consumed;
                    }
                    StreamEnd::Truncated => {
                        // The inflater ran to the end of the data: either the input ends
                        // inside this member, or the member was cut short and the members
                        // after it were taken for its deflate data.
                        let next = gz::find_member(data, pos + 1, end, looks_like_record_start);
                        let detail = match next {
                            Some(_) => format!(
                                "gzip member is cut short: a later member starts inside what it would span ({} bytes inflated)",
                                r.written
                            ),
                            None => format!(
                                "the input ends inside a gzip member ({} bytes inflated)",
                                r.written
                            ),
                        };
                        sink.error(ReadError::new(
                            Scope::Record,
                            if next.is_some() {
                                ErrorKind::CorruptGzip
                            } else {
                                ErrorKind::TruncatedGzip
                            },
                            detail,
                            Some(base + pos as u64),
                        ));
                        framer.discontinuity(stream_pos, sink);
                        pos = next.unwrap_or(end);
                    }
                    StreamEnd::Corrupt(why) => {
                        sink.error(ReadError::new(
                            Scope::Record,
                            ErrorKind::CorruptGzip,
                            format!(
                                "gzip member is corrupt after {} inflated bytes: {why}",
                                r.written
                            ),
                            Some(base + pos as u64),
                        ));
                        framer.discontinuity(stream_pos, sink);
                        // From just after this member's start: the inflater may have read past
                        // the next member's start before it saw the damage.
                        pos = gz::find_member(data, pos + 1, end, looks_like_record_start)
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

/// An error of the source under a decompressor (a file, a pipe, a connection), told apart from
/// the decompressor's own errors (damaged data), which come in every `ErrorKind`.
#[derive(Debug)]
pub struct SourceError(pub std::io::Error);

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SourceError {}

impl SourceError {
    /// Wrap an error of the source (interruptions stay as they are, to be retried).
    pub fn wrap(e: std::io::Error) -> std::io::Error {
        if e.kind() == std::io::ErrorKind::Interrupted {
            return e;
        }
        std::io::Error::new(e.kind(), SourceError(e))
    }

    /// Whether `e` came from the source.
    pub fn is(e: &std::io::Error) -> bool {
        e.get_ref().is_some_and(|inner| inner.is::<SourceError>())
    }
}

/// A reader whose errors are marked as the source's ([`SourceError`]).
pub struct MarkSource<R>(pub R);

impl<R: Read> Read for MarkSource<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf).map_err(SourceError::wrap)
    }
}

/// Read the records of a stream (whole-file gzip through a reader, a file that could not be
/// mapped, or another decompressor), with offsets in the decompressed stream. A read that fails
/// (corrupt compressed data, a lost connection) ends the stream: the records before it are kept
/// and the failure is an errors row at the stream position where it happened.
pub fn read_stream(reader: impl Read, sink: &mut dyn Sink) -> ContainerStats {
    read_stream_at(reader, 0, sink)
}

/// [`read_stream`] of a stream whose first byte is at offset `base`.
pub fn read_stream_at(mut reader: impl Read, base: u64, sink: &mut dyn Sink) -> ContainerStats {
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
                let (kind, what) = if SourceError::is(&e) {
                    (ErrorKind::ReadError, "reading the input failed")
                } else {
                    (ErrorKind::CorruptStream, "the compressed stream is damaged")
                };
                sink.error(ReadError::new(
                    Scope::Record,
                    kind,
                    format!(
                        "{what} after {} decompressed bytes ({e}); what follows is not read",
                        stats.decompressed_bytes
                    ),
                    Some(base + stats.decompressed_bytes),
                ));
                return stats;
            }
        };
        stats.decompressed_bytes += n as u64;
        framer.feed(&buf[..n], None, false, sink);
    }
    framer.finish(sink);
    stats
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
        assert_eq!(c.errs[0].kind, ErrorKind::Garbage);
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
    fn a_warc_url_in_a_header_is_no_record_start() {
        let revisit = b"WARC/1.0\r\nWARC-Type: revisit\r\nWARC-Target-URI: http://a/\r\nWARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest\r\nWARC-Record-ID: <urn:x>\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
        let mut data = revisit.to_vec();
        data.extend(rec("http://b/", "two"));
        let mut c = Collect::default();
        read_plain(&data, 0, data.len(), &mut c);
        assert_eq!(c.recs.len(), 2);
        assert!(c.errs.is_empty(), "{:?}", c.errs);
        assert_eq!(
            next_warc_start(&data, 1, data.len(), true),
            Some(revisit.len())
        );
    }

    #[test]
    fn spliced_headers_are_reported_and_read() {
        // The end of one header and the start of the next were lost: one field stands twice.
        let spliced = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Type: application/warc-fields\r\nWARC-Filename: xWARC-Record-ID: <urn:y>\r\nContent-Type: application/http\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n";
        let mut c = Collect::default();
        read_plain(spliced, 0, spliced.len(), &mut c);
        assert_eq!(c.recs.len(), 1);
        assert_eq!(c.errs.len(), 1);
        assert_eq!(c.errs[0].kind, ErrorKind::BadHeader);
        assert_eq!(c.errs[0].detail, record::HeadDamage::RepeatedField.detail());
        for (broken, damage) in [
            (
                &b"WARC/1.0\r\nWRC/1.0\r\n"[..],
                record::HeadDamage::LineWithoutName,
            ),
            (b"WARC/\0\0\0ARC/1.0\r\n", record::HeadDamage::BrokenVersion),
            (b"WARC/ARC/1.0\r\n", record::HeadDamage::BrokenVersion),
        ] {
            let mut data = broken.to_vec();
            data.extend(&rec("http://a/", "one")[10..]);
            let mut c = Collect::default();
            read_plain(&data, 0, data.len(), &mut c);
            assert_eq!(c.recs.len(), 1, "{damage:?}");
            assert_eq!(c.errs.len(), 1, "{damage:?}");
            assert_eq!(c.errs[0].detail, damage.detail());
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
        assert_eq!(c.errs[0].kind, ErrorKind::TruncatedRecord);
    }
}

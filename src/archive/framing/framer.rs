//! Records out of bytes: the framer.
//!
//! [`Framer`] is a push parser. Callers feed it decompressed bytes in pieces of any size (a whole
//! memory-mapped `.warc`, one inflated gzip member, 256 KiB from a stream) and it hands complete
//! records to a [`Sink`]. When a record lies whole inside the piece it is passed on borrowed from
//! that piece: no copy. Only a record that spans pieces is gathered in the framer's window, and of a
//! huge record only the first [`KEEP_BLOCK`] bytes are kept; the rest is skipped as it streams by.
//! Extractors see at most [`KEEP_BLOCK`] bytes of any block, whatever the container, so every
//! container gives the same rows. Nothing here panics on input or stops at the first problem.
//!
//! At about 740 lines this is the longest module: the framer's state and the steps that frame one
//! record share private fields, and splitting them would expose those fields to another module.

use crate::archive::framing::sink::{Record, Sink, KEEP_BLOCK};
use crate::archive::framing::starts::{
    after_block, block_cut, is_space, looks_like_record_start, next_plausible_start, next_start,
    starts_like_arc, swallowed_start, After,
};
use crate::archive::heads::record::{self, Dialect, Head};
use crate::archive::problem::{ErrorKind, ReadError, Scope};

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
    pub(in crate::archive) fn between_records(&self) -> bool {
        self.window.is_empty()
            && self.skip == 0
            && self.garbage.is_none()
            && self.dialect != Some(Dialect::Arc)
    }

    /// A WARC record of `len` bytes (trailing blank line included) was read outside the framer.
    pub(in crate::archive) fn passed_record(&mut self, len: u64) {
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
        let declared_end = usize::try_from(block_len)
            .ok()
            .and_then(|n| n.checked_add(head.len))
            .filter(|&e| e <= buf.len());
        match declared_end {
            Some(end) => self.step_to_declared_end(buf, head, block_len, end, ending, sink),
            None => self.step_short_of_declared_end(buf, head, block_len, ending, sink),
        }
    }

    /// A record whose declared end `end` is in `buf`: emit it, unless what follows shows the
    /// length is wrong and a record start inside the block says where it really ends.
    fn step_to_declared_end(
        &mut self,
        buf: &[u8],
        head: Head<'_>,
        block_len: u64,
        end: usize,
        ending: Ending,
        sink: &mut dyn Sink,
    ) -> Step {
        let offset = self.record_offset(self.pos);
        let dialect = self.dialect.unwrap_or(Dialect::Warc);
        let head_len = head.len;
        match after_block(&buf[end..], ending.is_end(), dialect, self.member_framed()) {
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
        Step::Emitted {
            consumed: end,
            skip: 0,
        }
    }

    /// A record whose declared end is not in `buf`: wait for more, cut it at a record start
    /// inside it, end it with the input or its member, or (a large block) keep its first
    /// [`KEEP_BLOCK`] bytes and skip the rest as it streams by.
    fn step_short_of_declared_end(
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
            return self.emit_ended(buf, head, block_len, ending, offset, sink);
        }
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

    /// Emit a record that ends with the input (truncated) or with its gzip member (a wrong
    /// length) before its declared end, with an error.
    fn emit_ended(
        &mut self,
        buf: &[u8],
        head: Head<'_>,
        block_len: u64,
        ending: Ending,
        offset: u64,
        sink: &mut dyn Sink,
    ) -> Step {
        let head_len = head.len;
        let avail = buf.len() - head_len;
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
        Step::Emitted {
            consumed: buf.len(),
            skip: 0,
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

//! The container readers: they drive the [`Framer`] over a byte range of an input (plain, gzip
//! members, or a stream) and report what went wrong as [`ReadError`]s; nothing here panics on
//! input or stops at the first problem. A `.warc.gz` is read member by member, and a member is
//! inflated only as far as the sink needs ([`Sink::block_needed`]).

use crate::archive::container::gz::{
    self, MemberInflater, MemberResult, StreamEnd, StreamInflater,
};
use crate::archive::framing::framer::Framer;
use crate::archive::framing::sink::{Need, Record, Sink};
use crate::archive::framing::starts::looks_like_record_start;
use crate::archive::heads::record;
use crate::archive::problem::{ErrorKind, ReadError, Scope};
use std::io::Read;

/// Largest member output libdeflate inflates whole; larger members are streamed.
pub const MEMBER_BUFFER_MAX: usize = 32 << 20;
const MEMBER_BUFFER_START: usize = 2 << 20;

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
    let mut m = Members {
        data,
        end,
        base,
        pos: start,
        stream_pos: 0,
        last_start: None,
        framer: Framer::new(0),
        stats: ContainerStats::default(),
    };
    if bufs.out.len() < MEMBER_BUFFER_START {
        bufs.out.resize(MEMBER_BUFFER_START, 0);
    }
    while m.pos < end {
        if gz::member_header_len(&data[m.pos..]).is_none() {
            m.skip_to_member(sink);
            continue;
        }
        m.stats.members += 1;
        m.last_start = Some(m.pos);
        if bufs.early_stop && m.framer.between_records() {
            let pos = m.pos;
            if let Some(next) = read_member_prefix(data, pos, end, base, bufs, &mut m.stats, sink) {
                m.framer.passed_record((next.1) as u64);
                m.stream_pos += next.1 as u64;
                m.pos = next.0;
                continue;
            }
        }
        match inflate_whole(bufs, &data[m.pos..]) {
            MemberResult::Ok { consumed, written } => {
                let member = Some(m.at(m.pos));
                m.framer.feed(&bufs.out[..written], member, false, sink);
                m.stream_pos += written as u64;
                m.stats.decompressed_bytes += written as u64;
                m.pos += consumed;
            }
            result => m.stream_member(bufs, result == MemberResult::BadData, sink),
        }
    }
    m.framer.finish(sink);
    m.stats
}

/// Inflate the member at the start of `data` whole into `bufs.out`, growing it up to
/// [`MEMBER_BUFFER_MAX`].
fn inflate_whole(bufs: &mut ReadBuffers, data: &[u8]) -> MemberResult {
    loop {
        match bufs.member.inflate(data, &mut bufs.out) {
            MemberResult::TooLarge if bufs.out.len() < MEMBER_BUFFER_MAX => {
                let grown = (bufs.out.len() * 4).min(MEMBER_BUFFER_MAX);
                bufs.out.resize(grown, 0);
            }
            other => return other,
        }
    }
}

/// Where [`read_gzip_members_at`] is in its window.
struct Members<'d> {
    data: &'d [u8],
    end: usize,
    /// The window's offset in the input.
    base: u64,
    /// The next member (or what should be one) in `data`.
    pos: usize,
    /// Bytes fed to the framer so far.
    stream_pos: u64,
    /// The start of the member read last: a damaged member's inflater may have run past the
    /// start of the next member, so the search for it begins just after this one's start.
    last_start: Option<usize>,
    framer: Framer,
    stats: ContainerStats,
}

impl Members<'_> {
    /// The input offset of `pos`.
    fn at(&self, pos: usize) -> u64 {
        self.base + pos as u64
    }

    fn next_member(&self, from: usize) -> Option<usize> {
        gz::find_member(self.data, from, self.end, looks_like_record_start)
    }

    fn error(&self, sink: &mut dyn Sink, kind: ErrorKind, detail: impl Into<String>) {
        self.error_at(self.pos, sink, kind, detail);
    }

    fn error_at(
        &self,
        pos: usize,
        sink: &mut dyn Sink,
        kind: ErrorKind,
        detail: impl Into<String>,
    ) {
        let offset = Some(self.at(pos));
        sink.error(ReadError::new(Scope::Record, kind, detail, offset));
    }

    /// `pos` is not a gzip member: report the bytes up to the next one and go there.
    fn skip_to_member(&mut self, sink: &mut dyn Sink) {
        let pos = self.pos;
        let from = self.last_start.map_or(pos + 1, |s| (s + 1).min(pos + 1));
        let next = self.next_member(from).unwrap_or(self.end);
        if next < pos {
            // The member before ran into this one (its trailer was cut short or damaged,
            // which its own error row says): go back to where this one starts.
            self.framer.discontinuity(self.stream_pos, sink);
            self.last_start = None;
            self.pos = next;
            return;
        }
        let trailing_zeros = next == self.data.len() && self.data[pos..].iter().all(|&b| b == 0);
        let kind = if trailing_zeros {
            ErrorKind::TrailingPadding
        } else {
            ErrorKind::GarbageBetweenMembers
        };
        self.error(
            sink,
            kind,
            format!("{} bytes that are not a gzip member", next - pos),
        );
        self.framer.discontinuity(self.stream_pos, sink);
        self.pos = next;
    }

    /// Stream the member at `pos`: it is too large to inflate whole, or it is damaged
    /// (`damaged`) and what precedes the damage is salvaged.
    fn stream_member(&mut self, bufs: &mut ReadBuffers, damaged: bool, sink: &mut dyn Sink) {
        self.stats.streamed_members += 1;
        let pos = self.pos;
        let mut first = Some(self.at(pos));
        let framer = &mut self.framer;
        let r = bufs.stream.inflate(&self.data[pos..], |piece| {
            framer.feed(piece, first.take(), false, sink);
            true
        });
        self.stream_pos += r.written;
        self.stats.decompressed_bytes += r.written;
        match r.end {
            StreamEnd::Complete { trailer_matches } => {
                self.pos += r.consumed;
                if damaged || !trailer_matches {
                    self.error_at(
                        pos,
                        sink,
                        ErrorKind::GzipChecksum,
                        "gzip member inflates but its CRC or length trailer does not match",
                    );
                    // Damaged deflate data can run on over the starts of the members after
                    // it and still end: read again from the first member that starts inside
                    // what it took (an intact member there was lost before).
                    if let Some(next) =
                        gz::find_member(self.data, pos + 1, self.pos, looks_like_record_start)
                    {
                        self.framer.discontinuity(self.stream_pos, sink);
                        self.pos = next;
                    }
                }
            }
            StreamEnd::Truncated => {
                // The inflater ran to the end of the data: either the input ends inside this
                // member, or the member was cut short and the members after it were taken for
                // its deflate data.
                let next = self.next_member(pos + 1);
                let (kind, detail) = match next {
                    Some(_) => (ErrorKind::CorruptGzip, format!(
                        "gzip member is cut short: a later member starts inside what it would span ({} bytes inflated)",
                        r.written
                    )),
                    None => (ErrorKind::TruncatedGzip, format!(
                        "the input ends inside a gzip member ({} bytes inflated)",
                        r.written
                    )),
                };
                self.error(sink, kind, detail);
                self.framer.discontinuity(self.stream_pos, sink);
                self.pos = next.unwrap_or(self.end);
            }
            StreamEnd::Corrupt(why) => {
                let detail = format!(
                    "gzip member is corrupt after {} inflated bytes: {why}",
                    r.written
                );
                self.error(sink, ErrorKind::CorruptGzip, detail);
                self.framer.discontinuity(self.stream_pos, sink);
                // From just after this member's start: the inflater may have read past the
                // next member's start before it saw the damage.
                self.pos = self.next_member(pos + 1).unwrap_or(self.end);
            }
            StreamEnd::Stopped => self.pos += r.consumed.max(1),
        }
    }
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
            crate::archive::framing::starts::next_warc_start(&data, 1, data.len(), true),
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

//! Where records start and end in a byte buffer: pure functions the framer uses to find the
//! next record start, to judge what follows a block's declared end, and to cut a block before
//! the record separator.

use crate::archive::heads::record::{self, Dialect};

pub(in crate::archive) fn is_space(b: u8) -> bool {
    matches!(b, b'\r' | b'\n' | b' ' | b'\t')
}

/// What follows a record's declared end.
pub(in crate::archive) enum After {
    /// A record start, or nothing more (the end of the input or of the piece).
    Start,
    /// Something else: the declared length is wrong.
    Other,
    /// Too little to tell, and more may come.
    Unknown,
}

/// `end`: the bytes end with the input or with a gzip member that ends a record. `in_member`:
/// the bytes come from a gzip member, whose end (and whether the next member starts
/// a record) judges a record that ends with the piece.
pub(in crate::archive) fn after_block(
    after: &[u8],
    end: bool,
    dialect: Dialect,
    in_member: bool,
) -> After {
    let ws = after.iter().take_while(|b| is_space(**b)).count();
    let rest = &after[ws..];
    if rest.is_empty() {
        return if end || in_member {
            After::Start
        } else {
            After::Unknown
        };
    }
    match dialect {
        Dialect::Warc if record::is_warc_start(rest) => After::Start,
        Dialect::Warc
            if !end && rest.len() < 5 && b"WARC/"[..rest.len()].eq_ignore_ascii_case(rest) =>
        {
            After::Unknown
        }
        Dialect::Arc if record::parse_arc_head(rest).is_some() => After::Start,
        Dialect::Arc if !end && memchr::memchr(b'\n', rest).is_none() && rest.len() < 64 * 1024 => {
            After::Unknown
        }
        _ => After::Other,
    }
}

/// Where a block that ends at `at` (a record start, or the end of a gzip member) really ends:
/// before the record separator (`\r\n\r\n` after a WARC block, or the LF-only `\n\n`;
/// `\n` after an ARC block), so that the block equals the one a right length gives.
pub(in crate::archive) fn block_cut(buf: &[u8], head_len: usize, at: usize) -> usize {
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
pub(in crate::archive) fn next_start(
    buf: &[u8],
    from: usize,
    dialect: Option<Dialect>,
) -> Option<usize> {
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

pub(in crate::archive) fn next_line_start(
    buf: &[u8],
    from: usize,
    dialect: Option<Dialect>,
) -> Option<usize> {
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
pub(in crate::archive) fn next_warc_start(
    buf: &[u8],
    from: usize,
    limit: usize,
    strict: bool,
) -> Option<usize> {
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
pub(in crate::archive) fn swallowed_start(buf: &[u8], from: usize, limit: usize) -> Option<usize> {
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
pub(in crate::archive) fn is_version_line(after_slash: &[u8]) -> bool {
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
pub(in crate::archive) fn next_plausible_start(
    buf: &[u8],
    from: usize,
    limit: usize,
    dialect: Dialect,
) -> Option<usize> {
    match dialect {
        Dialect::Warc => next_warc_start(buf, from, limit, true),
        // An ARC line is read whole, so the search may look past `limit` for its end.
        Dialect::Arc => next_line_start(buf, from, Some(Dialect::Arc)).filter(|&at| at < limit),
    }
}

/// A version line of its own (`WARC/1.0`: digits, a dot, digits, then the line end, so that a
/// URL such as `http://netpreserve.org/warc/1.0/revisit/...` in a field is none), then a complete
/// header (within 64 KiB) with a `WARC-Type` or `WARC-Record-ID` field.
pub(in crate::archive) fn is_whole_warc_head(rest: &[u8]) -> bool {
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

pub(in crate::archive) fn starts_like_arc(data: &[u8]) -> bool {
    // An ARC line may be longer than the confirmation window: accept a URL-like start.
    record::parse_arc_head(data).is_some()
        || ((data.starts_with(b"http:")
            || data.starts_with(b"https:")
            || data.starts_with(b"filedesc:")
            || data.starts_with(b"dns:"))
            && memchr::memchr(b'\n', data).is_none())
}

//! Archive records: WARC and ARC headers parsed in place, without copying.
//!
//! [`Head`] is a borrowed view of one record header. WARC headers (`WARC/0.16` to `WARC/1.1`, and
//! the odd versions real files carry) and ARC v1/v2 header lines both parse into it, so that the
//! extractors downstream never ask which format a record came from.
//!
//! We do not use the `warc` crate's `parser::headers` on the hot path: it allocates a `Vec` of
//! fields and a lowercased `String` per field for every record, rejects folded (continuation)
//! lines, which real files contain (`iipc_jwarc__fold.warc`), and rejects a `Content-Length` with
//! trailing white space. The test suite checks that this parser agrees with it on every record
//! that the crate does accept.

use std::borrow::Cow;

/// Upper bound on a record header; longer means we are not looking at a header.
pub const MAX_HEADER: usize = 1 << 20;

/// Which archive format a record came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Warc,
    Arc,
}

/// Signs in a WARC header that damage ran over it: in a plain archive, two records' headers run
/// together when the end of one and the start of the next are lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadDamage {
    /// A field the standard allows once (`WARC-Type`, `-Date`, `-Record-ID`, `-Target-URI`,
    /// `-Truncated`, `Content-Type`, `Content-Length`) stands twice.
    RepeatedField,
    /// A line that is neither `Name: value` nor a continuation of one.
    LineWithoutName,
    /// The version line is not `WARC/` and a version number (`1.0`, `0.17`).
    BrokenVersion,
}

impl HeadDamage {
    /// The `errors.detail` of a `bad_header` row.
    pub fn detail(self) -> &'static str {
        match self {
            HeadDamage::RepeatedField => "a field the WARC standard allows once stands twice: two records' headers run together (the end of one and the start of the next were lost); read with the first values",
            HeadDamage::LineWithoutName => "a header line is neither a field nor a continuation: damage ran over the header; read as it stands",
            HeadDamage::BrokenVersion => "the WARC version line is not a version number: damage ran over the start of the header, or the writer is broken; read as it stands",
        }
    }
}

/// A record header, borrowed from the buffer it was found in.
#[derive(Debug, Clone, Default)]
pub struct Head<'a> {
    /// What follows `WARC/` on the first line (`1.0`, `0.17`, ...), or `ARC` for ARC records.
    pub version: &'a [u8],
    /// The whole header block, first line included, the terminating blank line excluded.
    pub raw: &'a [u8],
    /// Length of the header including its terminating blank line: the block starts here.
    pub len: usize,
    pub warc_type: &'a [u8],
    pub target_uri: &'a [u8],
    pub date: &'a [u8],
    pub record_id: &'a [u8],
    pub content_type: &'a [u8],
    pub truncated: &'a [u8],
    /// The `Content-Length` (WARC) or archive length (ARC), when present and numeric.
    pub content_length: Option<u64>,
    pub dialect: Option<Dialect>,
    /// What shows that damage ran over this header, if anything (it is read all the same).
    pub damage: Option<HeadDamage>,
}

impl<'a> Head<'a> {
    /// Iterate over the `(name, value)` fields of a WARC header, values trimmed, folded values as
    /// their raw span (use `unfold`).
    pub fn fields(&self) -> Fields<'a> {
        let start = memchr::memchr(b'\n', self.raw).map_or(self.raw.len(), |i| i + 1);
        Fields {
            rest: &self.raw[start..],
            skipped_line: false,
        }
    }

    /// The value of the first field called `name` (ASCII case-insensitive).
    pub fn field(&self, name: &str) -> Option<&'a [u8]> {
        self.fields()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, v)| v)
    }

    pub fn is_known_version(&self) -> bool {
        matches!(
            self.version,
            b"1.0" | b"1.1" | b"0.16" | b"0.17" | b"0.18" | b"ARC"
        )
    }
}

/// Iterator over the fields of a header block (`name: value` lines with continuation lines).
pub struct Fields<'a> {
    rest: &'a [u8],
    /// A line that is neither `Name: value` nor a continuation was passed over.
    pub skipped_line: bool,
}

impl<'a> Iterator for Fields<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.rest.is_empty() {
                return None;
            }
            // One logical line: the physical line plus any continuation lines.
            let mut end = line_end(self.rest, 0);
            while end < self.rest.len() && matches!(self.rest[end], b' ' | b'\t') {
                end = line_end(self.rest, end);
            }
            let line = &self.rest[..end];
            self.rest = &self.rest[end..];
            let colon = memchr::memchr(b':', line);
            let name = colon.map_or(&b""[..], |c| trim(&line[..c]));
            if name.is_empty() {
                self.skipped_line |= !trim(line).is_empty();
                continue;
            }
            let colon = colon.expect("a name ends at a colon");
            return Some((name, trim(&line[colon + 1..])));
        }
    }
}

/// Index just past the line that contains `from` (past its `\n`), or the end of `buf`.
fn line_end(buf: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &buf[from..]).map_or(buf.len(), |i| from + i + 1)
}

/// Trim ASCII white space (including CR and LF) from both ends.
pub fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if last.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// A folded field value with its line breaks and leading white space collapsed to one space.
pub fn unfold(value: &[u8]) -> Cow<'_, [u8]> {
    if !value.iter().any(|&b| b == b'\n' || b == b'\r') {
        return Cow::Borrowed(value);
    }
    let mut out = Vec::with_capacity(value.len());
    let mut in_break = false;
    for &b in value {
        match b {
            b'\r' | b'\n' => in_break = true,
            b' ' | b'\t' if in_break => {}
            _ => {
                if in_break {
                    out.push(b' ');
                    in_break = false;
                }
                out.push(b);
            }
        }
    }
    Cow::Owned(out)
}

/// Parse a decimal number with surrounding white space tolerated.
pub fn parse_u64(s: &[u8]) -> Option<u64> {
    let s = trim(s);
    if s.is_empty() || s.len() > 19 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')))
}

/// Where the header that starts at `buf[0]` ends: the length up to and including the blank line.
/// A blank line is a line of nothing but carriage returns (`\n\n`, `\n\r\n`, and the `\r\r\n`
/// line ends some writers produce). `None` when no blank line was found in `buf`.
pub fn header_end(buf: &[u8]) -> Option<usize> {
    let mut pos = 0;
    while let Some(i) = memchr::memchr(b'\n', &buf[pos..]) {
        let nl = pos + i;
        let mut j = nl + 1;
        while buf.get(j) == Some(&b'\r') {
            j += 1;
        }
        match buf.get(j) {
            Some(b'\n') => return Some(j + 1),
            None => return None,
            _ => pos = nl + 1,
        }
    }
    None
}

/// Is `v` a version number: digits, a dot, digits (`1.0`, `0.17`)?
pub fn is_version_number(v: &[u8]) -> bool {
    let digits = |b: &[u8]| b.iter().take_while(|c| c.is_ascii_digit()).count();
    let major = digits(v);
    major > 0
        && v.get(major) == Some(&b'.')
        && digits(&v[major + 1..]) > 0
        && digits(&v[major + 1..]) == v.len() - major - 1
}

/// Does `b` start with `WARC/` (any case: some writers write `warc/1.0`)?
pub fn is_warc_start(b: &[u8]) -> bool {
    b.len() >= 5 && b[..5].eq_ignore_ascii_case(b"WARC/")
}

/// Parse a WARC header that starts at `buf[0]` with `WARC/`, given its length from [`header_end`].
pub fn parse_warc_head(buf: &[u8], len: usize) -> Head<'_> {
    let block = &buf[..len];
    let first = line_end(block, 0);
    let version = trim(&block[5..first]);
    let raw = trim_end_newlines(block);
    let mut head = Head {
        version,
        raw,
        len,
        dialect: Some(Dialect::Warc),
        ..Head::default()
    };
    let mut seen_length = false;
    let mut repeated = false;
    let mut fields = head.fields();
    for (name, value) in fields.by_ref() {
        // Match on length first: most fields are none of ours.
        let slot = match name.len() {
            9 if name.eq_ignore_ascii_case(b"WARC-Type") => &mut head.warc_type,
            9 if name.eq_ignore_ascii_case(b"WARC-Date") => &mut head.date,
            12 if name.eq_ignore_ascii_case(b"Content-Type") => &mut head.content_type,
            14 if name.eq_ignore_ascii_case(b"WARC-Record-ID") => &mut head.record_id,
            14 if name.eq_ignore_ascii_case(b"WARC-Truncated") => &mut head.truncated,
            15 if name.eq_ignore_ascii_case(b"WARC-Target-URI") => &mut head.target_uri,
            14 if name.eq_ignore_ascii_case(b"Content-Length") => {
                repeated |= seen_length;
                seen_length = true;
                if head.content_length.is_none() {
                    head.content_length = parse_u64(value);
                }
                continue;
            }
            _ => continue,
        };
        if slot.is_empty() {
            *slot = value;
        } else {
            repeated = true;
        }
    }
    head.damage = if !is_version_number(version) {
        Some(HeadDamage::BrokenVersion)
    } else if repeated {
        Some(HeadDamage::RepeatedField)
    } else if fields.skipped_line {
        Some(HeadDamage::LineWithoutName)
    } else {
        None
    };
    head
}

fn trim_end_newlines(mut s: &[u8]) -> &[u8] {
    while let [rest @ .., b'\r' | b'\n'] = s {
        s = rest;
    }
    s
}

/// Parse an ARC header line (`URL IP DATE TYPE LENGTH`, or the ten fields of ARC v2) that starts
/// at `buf[0]`. `None` when the line is not an ARC header.
pub fn parse_arc_head(buf: &[u8]) -> Option<Head<'_>> {
    let nl = memchr::memchr(b'\n', &buf[..buf.len().min(64 * 1024)])?;
    let line = trim(&buf[..nl]);
    let fields: smallvec_fields::Fields = smallvec_fields::split(line)?;
    // Fields are read from the right so that URLs containing spaces survive.
    let n = fields.len();
    // `filedesc://name - - - 76`: the file header of some writers has no date or address.
    let url_like = |f: &[u8]| {
        f.starts_with(b"http:")
            || f.starts_with(b"https:")
            || f.starts_with(b"filedesc:")
            || f.starts_with(b"dns:")
            || f.starts_with(b"ftp:")
    };
    let (url_end, ip_idx) = if n >= 10 && is_arc_date(fields.get(n - 8)) {
        (n - 9, n - 9)
    } else if n >= 5 && (is_arc_date(fields.get(n - 3)) || (n == 5 && url_like(fields.get(0)))) {
        (n - 4, n - 4)
    } else {
        return None;
    };
    let length = parse_u64(fields.get(n - 1))?;
    let url_start = fields.span(0).0;
    let url_stop = fields.span(url_end - 1).1;
    let url = &line[url_start..url_stop];
    let date = fields.get(ip_idx + 1);
    let content_type = fields.get(ip_idx + 2);
    let warc_type: &'static [u8] = if url.starts_with(b"filedesc:") {
        b"warcinfo"
    } else if url.starts_with(b"http:") || url.starts_with(b"https:") {
        b"response"
    } else {
        b"resource"
    };
    Some(Head {
        version: b"ARC",
        raw: line,
        len: nl + 1,
        warc_type,
        target_uri: url,
        date,
        content_type,
        content_length: Some(length),
        dialect: Some(Dialect::Arc),
        ..Head::default()
    })
}

fn is_arc_date(s: &[u8]) -> bool {
    (12..=18).contains(&s.len()) && s.iter().all(u8::is_ascii_digit)
}

/// Splitting an ARC line into space-separated fields without allocating.
mod smallvec_fields {
    pub struct Fields<'a> {
        line: &'a [u8],
        spans: [(usize, usize); 64],
        n: usize,
    }

    impl<'a> Fields<'a> {
        pub fn len(&self) -> usize {
            self.n
        }
        pub fn span(&self, i: usize) -> (usize, usize) {
            self.spans[i]
        }
        pub fn get(&self, i: usize) -> &'a [u8] {
            let (a, b) = self.spans[i];
            &self.line[a..b]
        }
    }

    pub fn split(line: &[u8]) -> Option<Fields<'_>> {
        let mut f = Fields {
            line,
            spans: [(0, 0); 64],
            n: 0,
        };
        let mut i = 0;
        while i < line.len() {
            while i < line.len() && line[i] == b' ' {
                i += 1;
            }
            if i == line.len() {
                break;
            }
            let start = i;
            while i < line.len() && line[i] != b' ' {
                i += 1;
            }
            if f.n == f.spans.len() {
                return None;
            }
            f.spans[f.n] = (start, i);
            f.n += 1;
        }
        Some(f)
    }
}

/// Microseconds since the Unix epoch of a WARC date (`2025-08-04T10:33:29Z`, fractions allowed)
/// or an ARC date (`20080430204825`, 12 to 14 digits used).
pub fn parse_date_micros(s: &[u8]) -> Option<i64> {
    let s = trim(s);
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = s.get(r)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(part.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')))
    };
    let (y, mo, d, h, mi, sec, mut frac_at) = if s.len() >= 10 && s[4] == b'-' {
        let (h, mi, sec) = if s.len() >= 19 && s[10] == b'T' {
            (digits(11..13)?, digits(14..16)?, digits(17..19)?)
        } else {
            (0, 0, 0)
        };
        (digits(0..4)?, digits(5..7)?, digits(8..10)?, h, mi, sec, 19)
    } else if s.len() >= 12 && s[..12].iter().all(u8::is_ascii_digit) {
        let sec = if s.len() >= 14 { digits(12..14)? } else { 0 };
        (
            digits(0..4)?,
            digits(4..6)?,
            digits(6..8)?,
            digits(8..10)?,
            digits(10..12)?,
            sec,
            usize::MAX,
        )
    } else {
        return None;
    };
    let date = chrono::NaiveDate::from_ymd_opt(y as i32, mo, d)?;
    let time = chrono::NaiveTime::from_hms_opt(h, mi, sec.min(59))?;
    let mut micros = date.and_time(time).and_utc().timestamp_micros();
    if s.get(frac_at) == Some(&b'.') {
        frac_at += 1;
        let mut scale = 100_000i64;
        while let Some(&c) = s.get(frac_at) {
            if !c.is_ascii_digit() {
                break;
            }
            micros += i64::from(c - b'0') * scale;
            scale /= 10;
            frac_at += 1;
        }
    }
    Some(micros)
}

/// Strip the angle brackets that WARC/1.0 (and some writers of 1.1) put around URIs.
pub fn strip_angle(s: &[u8]) -> &[u8] {
    let s = trim(s);
    match s {
        [b'<', inner @ .., b'>'] => trim(inner),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REC: &[u8] = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2025-08-04T10:33:29Z\r\n\
WARC-Record-ID: <urn:uuid:1>\r\nContent-Length: 5 \r\nWARC-Target-URI: http://a.example/robots.txt\r\n\r\nhello\r\n\r\n";

    #[test]
    fn parses_warc_head() {
        let len = header_end(REC).unwrap();
        let h = parse_warc_head(REC, len);
        assert_eq!(h.version, b"1.0");
        assert_eq!(h.warc_type, b"response");
        assert_eq!(h.content_length, Some(5));
        assert_eq!(h.target_uri, b"http://a.example/robots.txt");
        assert_eq!(&REC[len..len + 5], b"hello");
    }

    #[test]
    fn folded_fields_and_lf_only() {
        let rec = b"WARC/1.0\nWARC-Type: metadata\nFold: a\n b\nContent-Length: 0\n\n";
        let len = header_end(rec).unwrap();
        assert_eq!(len, rec.len());
        let h = parse_warc_head(rec, len);
        assert_eq!(h.warc_type, b"metadata");
        let fold = h.field("fold").unwrap();
        assert_eq!(&*unfold(fold), b"a b");
        assert_eq!(h.content_length, Some(0));
    }

    #[test]
    fn warc_0_17_folded_type() {
        let rec = b"WARC/0.17\r\nWARC-Type: \r\n\twarcinfo\r\nContent-Length: 3\r\n\r\nabc";
        let h = parse_warc_head(rec, header_end(rec).unwrap());
        assert_eq!(&*unfold(h.warc_type), b"warcinfo");
    }

    #[test]
    fn parses_arc_lines() {
        let h = parse_arc_head(
            b"http://a.example/robots.txt 1.2.3.4 20080430204825 text/plain 42\nHTTP/1.0",
        )
        .unwrap();
        assert_eq!(h.target_uri, b"http://a.example/robots.txt");
        assert_eq!(h.content_length, Some(42));
        assert_eq!(h.warc_type, b"response");
        let sp = parse_arc_head(b"http://a.example/a b.html 1.2.3.4 20080430204825 text/html 7\n")
            .unwrap();
        assert_eq!(sp.target_uri, b"http://a.example/a b.html");
        let v2 = parse_arc_head(
            b"http://x.example/ 1.2.3.4 20080430204825 text/html 200 ABC - 0 f.arc 99\n",
        )
        .unwrap();
        assert_eq!(v2.content_length, Some(99));
        assert_eq!(v2.date, b"20080430204825");
        assert!(parse_arc_head(b"<html><body>\n").is_none());
        let fd = parse_arc_head(b"filedesc:// - - - 76\r\n").unwrap();
        assert_eq!(fd.warc_type, b"warcinfo");
    }

    #[test]
    fn blank_line_forms() {
        assert_eq!(header_end(b"A: b\n\nrest"), Some(6));
        assert_eq!(header_end(b"A: b\r\n\r\nrest"), Some(8));
        assert_eq!(header_end(b"A: b\r\r\n\r\r\nrest"), Some(10));
        assert_eq!(header_end(b"A: b\r\n"), None);
    }

    #[test]
    fn dates() {
        assert_eq!(parse_date_micros(b"1970-01-01T00:00:01Z"), Some(1_000_000));
        assert_eq!(
            parse_date_micros(b"1970-01-01T00:00:01.5Z"),
            Some(1_500_000)
        );
        assert_eq!(parse_date_micros(b"19700101000002"), Some(2_000_000));
        assert_eq!(parse_date_micros(b"garbage"), None);
        assert_eq!(parse_date_micros(b"2024-13-01T00:00:00Z"), None);
    }
}

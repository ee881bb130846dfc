//! HTTP responses inside archive records: the status line and headers parsed in place, and the
//! body decoded (chunked transfer coding, gzip, deflate, brotli) when an extractor asks for it.
//!
//! The parser is lenient on purpose: archives hold `HTTP/2 200` status lines, missing reason
//! phrases, LF-only line ends, folded and non-UTF-8 header values and hundreds of headers. The
//! `httparse` crate rejects several of these (versions other than 1.x, too many headers), and an
//! archive reader must never fail, so this is hand-written and small.
//!
//! Common Crawl stores bodies decoded and renames the headers that described the original
//! encoding to `X-Crawler-Content-Encoding`, `X-Crawler-Transfer-Encoding` and
//! `X-Crawler-Content-Length`. Those renamed headers are recorded but never acted upon.

use crate::archive::heads::record::trim;
use crate::archive::problem::ErrorKind;
use std::io::Read;

/// The most decoded body bytes we produce for one record (decompression bomb guard): 8 MiB.
pub const MAX_DECODED_BODY: usize = 8 << 20;

/// A parsed HTTP response head, borrowed from the record block.
#[derive(Debug, Clone, Default)]
pub struct HttpHead<'a> {
    /// `HTTP/1.1`, `HTTP/2`, ...
    pub version: &'a [u8],
    pub status: Option<u16>,
    pub reason: &'a [u8],
    /// The header lines after the status line, up to (not including) the blank line.
    pub headers: &'a [u8],
    /// Offset of the body in the block; equals the block length when no blank line was found.
    pub body_offset: usize,
    /// The block ended before the blank line that ends the head.
    pub incomplete: bool,
}

impl<'a> HttpHead<'a> {
    /// Iterate over `(name, value)` header fields, folded lines joined to their field.
    pub fn fields(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> {
        HeaderLines { rest: self.headers }
    }

    /// The first header called `name` (ASCII case-insensitive).
    pub fn header(&self, name: &str) -> Option<&'a [u8]> {
        self.fields()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, v)| v)
    }
}

struct HeaderLines<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for HeaderLines<'a> {
    type Item = (&'a [u8], &'a [u8]);
    fn next(&mut self) -> Option<Self::Item> {
        while !self.rest.is_empty() {
            let mut end = memchr::memchr(b'\n', self.rest).map_or(self.rest.len(), |i| i + 1);
            while end < self.rest.len() && matches!(self.rest[end], b' ' | b'\t') {
                end = memchr::memchr(b'\n', &self.rest[end..])
                    .map_or(self.rest.len(), |i| end + i + 1);
            }
            let line = &self.rest[..end];
            self.rest = &self.rest[end..];
            if let Some(colon) = memchr::memchr(b':', line) {
                let name = trim(&line[..colon]);
                if !name.is_empty() {
                    return Some((name, trim(&line[colon + 1..])));
                }
            }
        }
        None
    }
}

/// Parse the HTTP response head at the start of `block`. `None` when the block does not start
/// with an `HTTP/` status line, or one like `HTTPX/1.1 200 OK` (a version beginning `HTTP` and
/// holding a `/`, then a three-digit code): that one still starts a head, with no status, so its
/// headers are read and the response counts (as status `other`) like any other with an HTTP
/// head.
pub fn parse_response(block: &[u8]) -> Option<HttpHead<'_>> {
    let start = block
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    let block_from = &block[start..];
    if block_from.len() < 5 || !block_from[..4].eq_ignore_ascii_case(b"HTTP") {
        return None;
    }
    let line_end = memchr::memchr(b'\n', block_from).map_or(block_from.len(), |i| i + 1);
    let line = trim(&block_from[..line_end]);
    let mut parts = line.splitn(3, |&b| b == b' ');
    let version = parts.next().unwrap_or_default();
    let code = parts.next().unwrap_or_default();
    let reason = trim(parts.next().unwrap_or_default());
    let three_digits = code.len() == 3 && code.iter().all(u8::is_ascii_digit);
    let http_version = block_from[..5].eq_ignore_ascii_case(b"HTTP/");
    let mangled_version = three_digits && version.contains(&b'/');
    if !(http_version || mangled_version) {
        return None;
    }
    let status = (http_version && three_digits)
        .then(|| code.iter().fold(0u16, |n, &d| n * 10 + u16::from(d - b'0')));
    let rest = &block_from[line_end..];
    let (headers, body_rel, incomplete) = if rest.starts_with(b"\r\n") {
        (&rest[..0], 2, false)
    } else if rest.starts_with(b"\n") {
        (&rest[..0], 1, false)
    } else {
        match crate::archive::heads::record::header_end(rest) {
            Some(len) => {
                let mut h = &rest[..len];
                while let [r @ .., b'\r' | b'\n'] = h {
                    h = r;
                }
                (h, len, false)
            }
            None => (rest, rest.len(), true),
        }
    };
    Some(HttpHead {
        version,
        status,
        reason,
        headers,
        body_offset: start + line_end + body_rel,
        incomplete,
    })
}

/// What decoding did to a body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decoded {
    /// The transfer coding was chunked and was removed.
    pub dechunked: bool,
    /// The content coding that was removed (`gzip`, `deflate`, `br`), if any.
    pub decoded: Option<&'static str>,
    /// The decoded body exceeded [`MAX_DECODED_BODY`] and was cut there.
    pub capped: bool,
    /// A problem: (error kind, detail). The body is then the best we could do.
    pub problem: Option<(ErrorKind, String)>,
}

/// Reusable buffers for body decoding.
#[derive(Default)]
pub struct BodyDecoder {
    chunk_buf: Vec<u8>,
    out_buf: Vec<u8>,
}

impl BodyDecoder {
    /// Decode the body of `head` (found at `block[head.body_offset..]`), returning the decoded
    /// bytes (borrowed from `block` when no decoding was needed) and what was done.
    pub fn decode<'b>(&'b mut self, head: &HttpHead<'_>, block: &'b [u8]) -> (&'b [u8], Decoded) {
        self.decode_limited(head, block, MAX_DECODED_BODY)
    }

    /// As [`BodyDecoder::decode`], producing at most `limit` (at most [`MAX_DECODED_BODY`])
    /// decoded bytes: for extractors that read only the start of a body (an HTML head).
    pub fn decode_limited<'b>(
        &'b mut self,
        head: &HttpHead<'_>,
        block: &'b [u8],
        limit: usize,
    ) -> (&'b [u8], Decoded) {
        let limit = limit.min(MAX_DECODED_BODY);
        let mut info = Decoded::default();
        let raw = &block[head.body_offset.min(block.len())..];
        let (chunked, coding) = codings(head);
        let mut body: &[u8] = raw;
        if chunked && looks_chunked(raw) {
            self.chunk_buf.clear();
            if let Err(why) = dechunk(raw, &mut self.chunk_buf, limit) {
                info.problem = Some((ErrorKind::BadChunkedEncoding, why));
            }
            info.dechunked = true;
            body = &self.chunk_buf;
        }
        let coding = match coding.map(Coding::of) {
            None | Some(Ok(None)) => return (body, info),
            Some(Ok(Some(c))) => c,
            Some(Err(name)) => {
                info.problem = Some((ErrorKind::UnknownContentEncoding, name));
                return (body, info);
            }
        };
        // Many archives store the body already decoded but keep the header: only decode what
        // really is encoded.
        if body.is_empty() || (coding == Coding::Gzip && !body.starts_with(&[0x1f, 0x8b])) {
            return (body, info);
        }
        self.out_buf.clear();
        let kind = coding.as_str();
        match coding.decode(body, &mut self.out_buf, limit) {
            Ok(capped) => {
                info.decoded = Some(kind);
                info.capped = capped;
                (&self.out_buf, info)
            }
            Err(e) if !self.out_buf.is_empty() => {
                info.decoded = Some(kind);
                info.problem = Some((
                    ErrorKind::BadContentEncoding,
                    format!("{kind} body decodes only in part: {e}"),
                ));
                (&self.out_buf, info)
            }
            Err(e) => {
                info.problem = Some((
                    ErrorKind::BadContentEncoding,
                    format!("{kind} body does not decode: {e}"),
                ));
                // Chunked output lives in chunk_buf; both cases hand back the undecoded body.
                if info.dechunked {
                    (&self.chunk_buf, info)
                } else {
                    (raw, info)
                }
            }
        }
    }
}

/// Whether the body of `head` is chunked, and its content coding (trimmed), if it names one.
fn codings<'h>(head: &HttpHead<'h>) -> (bool, Option<&'h [u8]>) {
    let mut chunked = false;
    let mut coding = None;
    for (name, value) in head.fields() {
        if name.eq_ignore_ascii_case(b"transfer-encoding") && contains_token(value, b"chunked") {
            chunked = true;
        } else if name.eq_ignore_ascii_case(b"content-encoding") && !trim(value).is_empty() {
            coding = Some(trim(value));
        }
    }
    (chunked, coding)
}

/// The content codings bodies are decoded from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coding {
    Gzip,
    Deflate,
    Br,
}

impl Coding {
    /// The name `Decoded::decoded` holds.
    fn as_str(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Br => "br",
        }
    }

    /// The coding a Content-Encoding value names: `None` for `identity` (and `none`), the value
    /// itself as the error when it is not one we decode.
    fn of(v: &[u8]) -> Result<Option<Coding>, String> {
        let is = |s: &str| v.eq_ignore_ascii_case(s.as_bytes());
        match () {
            _ if is("gzip") || is("x-gzip") => Ok(Some(Coding::Gzip)),
            _ if is("deflate") => Ok(Some(Coding::Deflate)),
            _ if is("br") => Ok(Some(Coding::Br)),
            _ if is("identity") || is("none") => Ok(None),
            _ => Err(String::from_utf8_lossy(v).into_owned()),
        }
    }

    /// Decode `body` into `out`, at most `limit` bytes; whether the output was capped.
    fn decode(self, body: &[u8], out: &mut Vec<u8>, limit: usize) -> std::io::Result<bool> {
        match self {
            Coding::Gzip => read_capped(flate2::read::MultiGzDecoder::new(body), out, limit),
            Coding::Deflate => {
                // "deflate" is zlib-wrapped by the standard, raw in much of the real web.
                let r = read_capped(flate2::read::ZlibDecoder::new(body), out, limit);
                if r.is_err() || out.is_empty() {
                    out.clear();
                    read_capped(flate2::read::DeflateDecoder::new(body), out, limit)
                } else {
                    r
                }
            }
            Coding::Br => read_capped(
                brotli_decompressor::Decompressor::new(body, 64 * 1024),
                out,
                limit,
            ),
        }
    }
}

/// Whether a media type (as [`media_type_bytes`] gives it) is HTML.
pub fn is_html(media_type: &[u8]) -> bool {
    media_type.eq_ignore_ascii_case(b"text/html")
        || media_type.eq_ignore_ascii_case(b"application/xhtml+xml")
}

/// The media type of a response (its Content-Type without parameters), and whether it is HTML.
pub fn response_media_type<'h>(h: &HttpHead<'h>) -> (Option<&'h [u8]>, bool) {
    let media = h.header("content-type").map(media_type_bytes);
    (media, media.is_some_and(is_html))
}

/// The media type of a Content-Type value, borrowed: parameters dropped, trimmed.
pub fn media_type_bytes(v: &[u8]) -> &[u8] {
    trim(v.split(|&b| b == b';').next().unwrap_or_default())
}

/// Read up to `limit` bytes; Ok(true) when there was more.
fn read_capped(mut r: impl Read, out: &mut Vec<u8>, limit: usize) -> std::io::Result<bool> {
    let mut buf = [0u8; 32 * 1024];
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => return Ok(false),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let room = limit - out.len();
        if n > room {
            out.extend_from_slice(&buf[..room]);
            return Ok(true);
        }
        out.extend_from_slice(&buf[..n]);
    }
}

fn contains_token(value: &[u8], token: &[u8]) -> bool {
    value
        .split(|&b| b == b',')
        .any(|t| trim(t).eq_ignore_ascii_case(token))
}

/// A chunked body starts with a hex size line.
fn looks_chunked(body: &[u8]) -> bool {
    let line = &body[..memchr::memchr(b'\n', body)
        .unwrap_or(body.len())
        .min(body.len())];
    let size = trim(line.split(|&b| b == b';').next().unwrap_or_default());
    !size.is_empty() && size.len() <= 16 && size.iter().all(u8::is_ascii_hexdigit)
}

/// Remove chunked transfer coding. On malformed input, what was decoded so far stays in `out`.
fn dechunk(mut body: &[u8], out: &mut Vec<u8>, limit: usize) -> Result<(), String> {
    loop {
        let Some(nl) = memchr::memchr(b'\n', body) else {
            return Err("chunk size line without end".into());
        };
        let size_field = trim(body[..nl].split(|&b| b == b';').next().unwrap_or_default());
        let size = usize::from_str_radix(std::str::from_utf8(size_field).unwrap_or("x"), 16)
            .map_err(|_| format!("bad chunk size {:?}", String::from_utf8_lossy(size_field)))?;
        body = &body[nl + 1..];
        if size == 0 {
            return Ok(());
        }
        if out.len() + size > limit {
            let room = limit - out.len();
            out.extend_from_slice(&body[..room.min(body.len())]);
            return Ok(());
        }
        if body.len() < size {
            out.extend_from_slice(body);
            return Err(format!("chunk of {size} bytes cut at {}", body.len()));
        }
        out.extend_from_slice(&body[..size]);
        body = &body[size..];
        let crlf = body
            .iter()
            .take(2)
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        body = &body[crlf..];
        if body.is_empty() {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn lenient_status_lines() {
        let h = parse_response(b"HTTP/1.1 200 \r\nContent-Type: text/plain\r\n\r\nbody").unwrap();
        assert_eq!(h.status, Some(200));
        assert_eq!(h.header("content-type"), Some(&b"text/plain"[..]));
        let h = parse_response(b"HTTP/2 404\nx: y\n\nnope").unwrap();
        assert_eq!(h.status, Some(404));
        assert_eq!(&b"HTTP/2 404\nx: y\n\nnope"[h.body_offset..], b"nope");
        let h = parse_response(b"HTTP/1.0 abc\r\n\r\n").unwrap();
        assert_eq!(h.status, None);
        assert!(parse_response(b"<html>").is_none());
        // A mangled version (pywb's example-extra.warc) still starts a head, without a status.
        let h = parse_response(b"HTTPX/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>").unwrap();
        assert_eq!(h.status, None);
        assert_eq!(h.header("content-type"), Some(&b"text/html"[..]));
        assert!(parse_response(b"HTTPS is a protocol\n").is_none());
        assert!(parse_response(b"HTTP 200 OK\r\n\r\n").is_none());
        let h = parse_response(b"HTTP/1.1 200 OK\r\n\r\n").unwrap();
        assert_eq!(h.body_offset, 19);
    }

    #[test]
    fn decodes_chunked_then_gzip() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(b"User-agent: *\nDisallow: /\n").unwrap();
        let gz = e.finish().unwrap();
        let mut block =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n"
                .to_vec();
        let (a, b) = gz.split_at(10);
        for part in [a, b] {
            block.extend(format!("{:x}\r\n", part.len()).bytes());
            block.extend_from_slice(part);
            block.extend_from_slice(b"\r\n");
        }
        block.extend_from_slice(b"0\r\n\r\n");
        let head = parse_response(&block).unwrap();
        let mut dec = BodyDecoder::default();
        let (body, info) = dec.decode(&head, &block);
        assert_eq!(body, b"User-agent: *\nDisallow: /\n");
        assert!(info.dechunked);
        assert_eq!(info.decoded, Some("gzip"));
        assert!(info.problem.is_none());
    }

    #[test]
    fn crawler_renamed_headers_are_not_decoded() {
        let block = b"HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\n\r\nplain text";
        let head = parse_response(block).unwrap();
        let mut dec = BodyDecoder::default();
        let (body, info) = dec.decode(&head, block);
        assert_eq!(body, b"plain text");
        assert_eq!(info, Decoded::default());
    }

    #[test]
    fn bomb_is_capped() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(&vec![b'a'; MAX_DECODED_BODY + 1000]).unwrap();
        let gz = e.finish().unwrap();
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        block.extend(gz);
        let head = parse_response(&block).unwrap();
        let mut dec = BodyDecoder::default();
        let (body, info) = dec.decode(&head, &block);
        assert_eq!(body.len(), MAX_DECODED_BODY);
        assert!(info.capped);
    }
}

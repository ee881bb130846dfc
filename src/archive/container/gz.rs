//! Gzip members: finding them, confirming them and inflating them.
//!
//! A Common Crawl `.warc.gz` is a concatenation of gzip members, one per record. This module knows
//! nothing of WARC: it parses member headers, inflates one member at a time and finds member starts
//! in the middle of a file so that a large archive can be cut into chunks.
//!
//! Two inflaters live here:
//! * [`MemberInflater`] wraps libdeflate's whole-buffer `gzip_decompress_ex`, the fastest inflate
//!   we measured (see BENCHMARKS.md). The `libdeflater` crate does not expose the `_ex` variant,
//!   which is the only one that reports how many input bytes a member consumed, so we call
//!   `libdeflate-sys` directly: the decompressor's allocation, that call and its release are
//!   this module's three `unsafe` blocks, each with its SAFETY note (the crate has 15, all
//!   FFI or SIMD: `grep -rn "unsafe {" src`).
//! * [`StreamInflater`] is flate2 (zlib-rs backend) in raw-deflate mode, used where libdeflate
//!   cannot be: members whose output is larger than our buffer (whole-file gzip, decompression
//!   bombs, huge records), and corrupt members, whose readable prefix it salvages.

use flate2::{Decompress, FlushDecompress, Status};

/// The first bytes of every gzip member: magic and the deflate method.
pub const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// The offset of the first [`GZIP_MAGIC`] in `hay`. The searcher is built once: `memmem::find`
/// builds one per call, and this is called once per member (for every member of a robots.txt
/// archive, a few hundred bytes each, building it cost about as much as the search).
pub fn find_magic(hay: &[u8]) -> Option<usize> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(&GZIP_MAGIC));
    FINDER.find(hay)
}

const FHCRC: u8 = 0x02;
const FEXTRA: u8 = 0x04;
const FNAME: u8 = 0x08;
const FCOMMENT: u8 = 0x10;
const FRESERVED: u8 = 0xe0;

/// Length of the gzip member header at the start of `data` (up to the deflate stream), or `None`
/// when `data` does not start with a well-formed member header.
pub fn member_header_len(data: &[u8]) -> Option<usize> {
    if data.len() < 10 || data[..3] != GZIP_MAGIC || data[3] & FRESERVED != 0 {
        return None;
    }
    let flags = data[3];
    let mut pos = 10usize;
    if flags & FEXTRA != 0 {
        let xlen = u16::from_le_bytes([*data.get(pos)?, *data.get(pos + 1)?]) as usize;
        pos = pos.checked_add(2 + xlen)?;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let nul = memchr::memchr(0, data.get(pos..)?)?;
            pos += nul + 1;
        }
    }
    if flags & FHCRC != 0 {
        pos += 2;
    }
    (pos <= data.len()).then_some(pos)
}

/// Outcome of inflating one member with [`MemberInflater::inflate`].
#[derive(Debug, PartialEq, Eq)]
pub enum MemberResult {
    /// The member inflated completely: `consumed` compressed bytes (header and trailer included)
    /// gave `written` bytes at the start of the output buffer.
    Ok { consumed: usize, written: usize },
    /// The member's output does not fit in the buffer's limit.
    TooLarge,
    /// Not a valid gzip member (bad header, corrupt deflate data, CRC mismatch, truncated).
    BadData,
}

/// libdeflate's decompressor: inflates whole gzip members into a reused buffer.
pub struct MemberInflater {
    ptr: std::ptr::NonNull<libdeflate_sys::libdeflate_decompressor>,
}

// The decompressor is plain heap state owned by this value; libdeflate keeps no thread-local or
// global state, so moving it to another thread is sound.
unsafe impl Send for MemberInflater {}

impl Default for MemberInflater {
    fn default() -> Self {
        Self::new()
    }
}

impl MemberInflater {
    pub fn new() -> Self {
        // SAFETY: allocation has no preconditions; a null return is handled below.
        let raw = unsafe { libdeflate_sys::libdeflate_alloc_decompressor() };
        let ptr = std::ptr::NonNull::new(raw).expect("libdeflate: out of memory");
        MemberInflater { ptr }
    }

    /// Inflate the member at the start of `data` into `out` (whose length is the output limit).
    pub fn inflate(&mut self, data: &[u8], out: &mut [u8]) -> MemberResult {
        let mut consumed = 0usize;
        let mut written = 0usize;
        // SAFETY: the pointers and lengths come from live slices that outlive the call; libdeflate
        // reads at most `data.len()` bytes, writes at most `out.len()` bytes and stores two usizes
        // through the out-parameters, which point to our locals.
        let ret = unsafe {
            libdeflate_sys::libdeflate_gzip_decompress_ex(
                self.ptr.as_ptr(),
                data.as_ptr().cast(),
                data.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                &mut consumed,
                &mut written,
            )
        };
        match ret {
            libdeflate_sys::libdeflate_result_LIBDEFLATE_SUCCESS => {
                MemberResult::Ok { consumed, written }
            }
            libdeflate_sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE => {
                MemberResult::TooLarge
            }
            _ => MemberResult::BadData,
        }
    }
}

impl Drop for MemberInflater {
    fn drop(&mut self) {
        // SAFETY: the pointer came from libdeflate_alloc_decompressor and is freed once.
        unsafe { libdeflate_sys::libdeflate_free_decompressor(self.ptr.as_ptr()) }
    }
}

/// How a streamed member ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamEnd {
    /// The deflate stream ended; `consumed` counts header, deflate data and the 8-byte trailer.
    /// `trailer_matches`: its CRC-32 and length are those of the inflated bytes (checked as
    /// libdeflate checks a whole member).
    Complete { trailer_matches: bool },
    /// The input ended inside the member (a truncated file).
    Truncated,
    /// The deflate data is corrupt; the output before the fault was delivered.
    Corrupt(String),
    /// The sink asked to stop.
    Stopped,
}

/// Result of [`StreamInflater::inflate`].
#[derive(Debug)]
pub struct StreamResult {
    pub end: StreamEnd,
    /// Compressed bytes consumed from the member start (for `Complete`, the whole member).
    pub consumed: usize,
    /// Bytes delivered to the sink.
    pub written: u64,
}

/// flate2 (zlib-rs) raw inflate for members that libdeflate cannot take whole.
pub struct StreamInflater {
    inflate: Decompress,
    buf: Vec<u8>,
}

impl Default for StreamInflater {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamInflater {
    pub fn new() -> Self {
        StreamInflater {
            inflate: Decompress::new(false),
            buf: vec![0; 256 * 1024],
        }
    }

    /// Inflate the member at the start of `data`, handing the output to `sink` in pieces of up to
    /// 256 KiB; `sink` returns false to stop early. Memory stays bounded whatever the member's size.
    pub fn inflate(&mut self, data: &[u8], mut sink: impl FnMut(&[u8]) -> bool) -> StreamResult {
        let Some(header) = member_header_len(data) else {
            return StreamResult {
                end: StreamEnd::Corrupt("bad gzip header".into()),
                consumed: 0,
                written: 0,
            };
        };
        self.inflate.reset(false);
        let body = &data[header..];
        let mut written = 0u64;
        let mut crc = crc32fast::Hasher::new();
        loop {
            let in_before = self.inflate.total_in() as usize;
            let out_before = self.inflate.total_out();
            let status =
                self.inflate
                    .decompress(&body[in_before..], &mut self.buf, FlushDecompress::None);
            let produced = (self.inflate.total_out() - out_before) as usize;
            if produced > 0 {
                written += produced as u64;
                crc.update(&self.buf[..produced]);
                if !sink(&self.buf[..produced]) {
                    let consumed = header + self.inflate.total_in() as usize;
                    return StreamResult {
                        end: StreamEnd::Stopped,
                        consumed,
                        written,
                    };
                }
            }
            let consumed_body = self.inflate.total_in() as usize;
            match status {
                Ok(Status::StreamEnd) => {
                    let end = header + consumed_body;
                    if end + 8 <= data.len() {
                        let trailer = &data[end..end + 8];
                        let expected = [
                            crc.clone().finalize().to_le_bytes(),
                            (written as u32).to_le_bytes(),
                        ]
                        .concat();
                        return StreamResult {
                            end: StreamEnd::Complete {
                                trailer_matches: trailer == expected,
                            },
                            consumed: end + 8,
                            written,
                        };
                    }
                    return StreamResult {
                        end: StreamEnd::Truncated,
                        consumed: data.len(),
                        written,
                    };
                }
                Ok(_) => {
                    if consumed_body == in_before && produced == 0 {
                        // No progress: the input is exhausted inside the member.
                        return StreamResult {
                            end: StreamEnd::Truncated,
                            consumed: data.len(),
                            written,
                        };
                    }
                }
                Err(e) => {
                    let consumed = header + consumed_body;
                    return StreamResult {
                        end: StreamEnd::Corrupt(e.to_string()),
                        consumed,
                        written,
                    };
                }
            }
        }
    }
}

/// Progress of [`StreamInflater::prefix_to`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrefixStep {
    /// The output holds the target number of bytes and the member goes on; `consumed` compressed
    /// bytes of the deflate data were taken (the inflater may hold a few of them unused).
    More { consumed: usize },
    /// The member's deflate data ended within the target.
    Finished,
    /// The input ended inside the member.
    Truncated,
    /// Corrupt deflate data.
    Failed,
}

impl StreamInflater {
    /// Begin inflating the member at the start of `data` a piece at a time with
    /// [`Self::prefix_to`]; returns the length of its gzip header, `None` when there is none.
    pub fn prefix_begin(&mut self, data: &[u8]) -> Option<usize> {
        let header = member_header_len(data)?;
        self.inflate.reset(false);
        Some(header)
    }

    /// Inflate more of the member begun by [`Self::prefix_begin`] until `out` holds `target`
    /// bytes. `deflate` is the member's data after its header, the same slice at every call.
    pub fn prefix_to(&mut self, deflate: &[u8], out: &mut Vec<u8>, target: usize) -> PrefixStep {
        let filled = out.len();
        if filled >= target {
            return PrefixStep::More {
                consumed: self.inflate.total_in() as usize,
            };
        }
        out.resize(target, 0);
        let (filled, step) = fill(&mut self.inflate, deflate, out, filled);
        out.truncate(filled);
        step
    }
}

/// Inflate from `deflate` (the same slice at every call on `inflate`) into `out[filled..]`
/// until it is full; returns how far `out` is filled and how the step ended.
fn fill(
    inflate: &mut Decompress,
    deflate: &[u8],
    out: &mut [u8],
    mut filled: usize,
) -> (usize, PrefixStep) {
    loop {
        let in_before = inflate.total_in() as usize;
        let out_before = inflate.total_out();
        let status = inflate.decompress(
            &deflate[in_before.min(deflate.len())..],
            &mut out[filled..],
            FlushDecompress::None,
        );
        let produced = (inflate.total_out() - out_before) as usize;
        filled += produced;
        let step = match status {
            Ok(Status::StreamEnd) => PrefixStep::Finished,
            Ok(_) if filled == out.len() => PrefixStep::More {
                consumed: inflate.total_in() as usize,
            },
            Ok(_) if produced == 0 && inflate.total_in() as usize == in_before => {
                PrefixStep::Truncated
            }
            Ok(_) => continue,
            Err(_) => PrefixStep::Failed,
        };
        return (filled, step);
    }
}

/// True when a gzip member starts at `data[0]` and its first inflated bytes satisfy `accept`
/// (for example "starts with `WARC/`"). Inflates at most a few KiB, whatever the member's size.
pub fn confirm_member(data: &[u8], accept: impl Fn(&[u8]) -> bool) -> bool {
    let Some(header) = member_header_len(data) else {
        return false;
    };
    let mut out = [0u8; 512];
    let (filled, step) = fill(&mut Decompress::new(false), &data[header..], &mut out, 0);
    step != PrefixStep::Failed && filled > 0 && accept(&out[..filled])
}

/// Where a member ends, found without inflating the rest of it. The member holds `size`
/// uncompressed bytes (known from the record it holds), so its 8-byte trailer ends with `size`
/// (ISIZE, little-endian) and the next member's header follows: the first place at or after
/// `from` where those seven bytes stand, at most at `limit` (a member start or the end of
/// `data`). A gzip header before that place that inflates to bytes `accept` takes is a member
/// the search must not skip: then, and when nothing is found, `None` (inflate the member).
pub fn find_member_end(
    data: &[u8],
    from: usize,
    limit: usize,
    size: u32,
    accept: impl Fn(&[u8]) -> bool,
) -> Option<usize> {
    let trailer = size.to_le_bytes();
    let limit = limit.min(data.len());
    let hay_end = (limit + GZIP_MAGIC.len()).min(data.len());
    let ends_here = |at: usize| at >= from + 4 && data[at - 4..at] == trailer;
    let mut at = from;
    while at < hay_end {
        let Some(hit) = find_magic(&data[at..hay_end]) else {
            break;
        };
        let h = at + hit;
        if ends_here(h) && member_header_len(&data[h..]).is_some() {
            return Some(h);
        }
        if confirm_member(&data[h..], &accept) {
            return None;
        }
        at = h + 1;
    }
    (limit == data.len() && ends_here(limit)).then_some(limit)
}

/// The first position at or after `from` (and before `limit`) where a member starts whose first
/// inflated bytes satisfy `accept`. Used to find chunk boundaries and to resynchronise after a
/// corrupt member.
pub fn find_member(
    data: &[u8],
    from: usize,
    limit: usize,
    accept: impl Fn(&[u8]) -> bool,
) -> Option<usize> {
    let limit = limit.min(data.len());
    let mut pos = from;
    while pos < limit {
        let hit = find_magic(&data[pos..limit])?;
        let at = pos + hit;
        if confirm_member(&data[at..], &accept) {
            return Some(at);
        }
        pos = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression, GzBuilder};
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn header_len_with_optional_fields() {
        let plain = gz(b"abc");
        assert_eq!(member_header_len(&plain), Some(10));
        let mut e = GzBuilder::new()
            .filename("x.warc")
            .extra(vec![1, 2, 3])
            .comment("hi")
            .write(Vec::new(), Compression::fast());
        e.write_all(b"abc").unwrap();
        let named = e.finish().unwrap();
        assert_eq!(member_header_len(&named), Some(10 + 2 + 3 + 7 + 3));
        assert_eq!(member_header_len(b"\x1f\x8b\x08\xff000000"), None);
        assert_eq!(member_header_len(b"WARC/1.0"), None);
    }

    #[test]
    fn member_end_found_from_the_trailer_without_inflating() {
        let first = b"WARC/1.0 first ".repeat(500);
        let second = b"WARC/1.0 second".to_vec();
        let mut data = gz(&first);
        let end1 = data.len();
        data.extend(gz(&second));
        let warc = |d: &[u8]| d.starts_with(b"WARC/");
        let size = first.len() as u32;
        // From the member start or from part way in: the next member's start.
        assert_eq!(
            find_member_end(&data, 10, data.len(), size, warc),
            Some(end1)
        );
        assert_eq!(
            find_member_end(&data, end1 - 20, data.len(), size, warc),
            Some(end1)
        );
        // The last member ends at the end of the data.
        let s2 = second.len() as u32;
        assert_eq!(
            find_member_end(&data, end1 + 10, data.len(), s2, warc),
            Some(data.len())
        );
        // A wrong size finds nothing, and never skips the real member that follows.
        assert_eq!(find_member_end(&data, 10, data.len(), size + 1, warc), None);
        assert_eq!(find_member_end(&data, 10, data.len(), s2, warc), None);
        // Not past the limit.
        assert_eq!(find_member_end(&data, 10, end1 - 1, size, warc), None);
        // Three members, the middle one the same size as the first: the search from the first
        // with a size that does not fit it stops at the real member between.
        let mut three = gz(b"WARC/1.0 a");
        let a_end = three.len();
        three.extend(gz(b"WARC/1.0 bb"));
        three.extend(gz(b"WARC/1.0 a"));
        assert_eq!(
            find_member_end(&three, 10, three.len(), 10, warc),
            Some(a_end)
        );
        assert_eq!(find_member_end(&three, 10, three.len(), 11, warc), None);
    }

    #[test]
    fn prefix_inflates_the_start_of_a_member() {
        let text: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let data = gz(&text);
        let mut inf = StreamInflater::new();
        let header = inf.prefix_begin(&data).unwrap();
        let mut out = Vec::new();
        let mut target = 1000;
        while target < text.len() {
            match inf.prefix_to(&data[header..], &mut out, target) {
                PrefixStep::More { consumed } => {
                    assert!(consumed < data.len());
                    assert_eq!(out, text[..target]);
                }
                other => panic!("{other:?} at {target}"),
            }
            target *= 3;
        }
        assert_eq!(
            inf.prefix_to(&data[header..], &mut out, text.len() + 10),
            PrefixStep::Finished
        );
        assert_eq!(out, text);
        // A truncated member says so.
        let cut = &data[header..data.len() / 2];
        inf.prefix_begin(&data).unwrap();
        out.clear();
        assert_eq!(
            inf.prefix_to(cut, &mut out, text.len()),
            PrefixStep::Truncated
        );
    }

    #[test]
    fn member_inflater_reports_consumed_bytes() {
        let mut data = gz(b"WARC/1.0 first");
        let first_len = data.len();
        data.extend(gz(b"WARC/1.0 second"));
        let mut inf = MemberInflater::new();
        let mut out = vec![0u8; 1024];
        assert_eq!(
            inf.inflate(&data, &mut out),
            MemberResult::Ok {
                consumed: first_len,
                written: 14
            }
        );
        assert_eq!(&out[..14], b"WARC/1.0 first");
        let mut small = vec![0u8; 4];
        assert_eq!(inf.inflate(&data, &mut small), MemberResult::TooLarge);
        assert_eq!(
            inf.inflate(&data[..first_len - 3], &mut out),
            MemberResult::BadData
        );
    }

    #[test]
    fn stream_inflater_matches_and_salvages() {
        let payload: Vec<u8> = (0..2_000_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let data = gz(&payload);
        let mut s = StreamInflater::new();
        let mut got = Vec::new();
        let r = s.inflate(&data, |b| {
            got.extend_from_slice(b);
            true
        });
        assert_eq!(
            r.end,
            StreamEnd::Complete {
                trailer_matches: true
            }
        );
        assert_eq!(r.consumed, data.len());
        assert_eq!(got, payload);
        // Truncated: the prefix comes out and the end says so.
        got.clear();
        let r = s.inflate(&data[..data.len() / 2], |b| {
            got.extend_from_slice(b);
            true
        });
        assert_eq!(r.end, StreamEnd::Truncated);
        assert!(!got.is_empty() && payload.starts_with(&got));
    }

    #[test]
    fn finds_member_starts_and_ignores_false_magic() {
        let mut data = b"garbage \x1f\x8b\x08 not a member ".to_vec();
        let start = data.len();
        data.extend(gz(b"WARC/1.1\r\n"));
        assert_eq!(
            find_member(&data, 0, data.len(), |b| b.starts_with(b"WARC/")),
            Some(start)
        );
        assert_eq!(
            find_member(&data, 0, data.len(), |b| b.starts_with(b"XYZ")),
            None
        );
    }
}

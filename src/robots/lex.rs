//! The robots.txt lexer: one [`Line`] descriptor per physical line, no allocation per line.
//!
//! Line splitting, BOM skipping, the line length cut, NUL and comment handling and the key/value
//! split follow Google's open-source robotstxt parser (robots.cc, `RobotsTxtParser::Parse` and
//! `GetKeyAndValueFrom`), so line numbers and values are the ones Google's parser sees:
//!
//! * a line ends at CR, LF or CRLF; the text after the last line ending is a line too;
//! * a UTF-8 byte-order mark, or any leading part of one (`EF`, `EF BB`), is skipped at the start;
//! * only the first [`MAX_LINE_LEN`] bytes of a line are read;
//! * a NUL byte ends the line's text (the rest of the physical line is ignored);
//! * `#` starts a comment; ASCII whitespace around key and value is dropped;
//! * the key ends at the first `:`; with no `:`, a line of exactly two whitespace-separated words
//!   is read as key and value (Google's "missing colon" leniency); anything else has no key.

use super::key::{classify, Key, KeyForm};

/// Google's line buffer holds `2083 * 8` bytes including the terminating NUL.
pub const MAX_LINE_LEN: usize = 2083 * 8 - 1;

/// Line flags.
pub mod flag {
    /// The line was longer than `MAX_LINE_LEN` bytes; the rest was ignored.
    pub const TOO_LONG: u8 = 1;
    /// The line contains a NUL byte; the text after it was ignored.
    pub const NUL: u8 = 2;
    /// The line is not valid UTF-8.
    pub const NON_UTF8: u8 = 4;
    /// Key and value are separated by whitespace, not a colon.
    pub const MISSING_COLON: u8 = 8;
    /// The line has a `#` comment.
    pub const COMMENT: u8 = 16;
}

/// One physical line. Positions are byte offsets into the body given to the lexer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number, counted as Google's parser counts.
    pub number: u32,
    /// The line's text as read: `start..end` (after the BOM, before the cut at [`MAX_LINE_LEN`]).
    pub start: u32,
    pub end: u32,
    /// The key as written (trimmed); empty when the line has no key.
    pub key_start: u32,
    pub key_end: u32,
    /// The value (trimmed, comment removed).
    pub value_start: u32,
    pub value_end: u32,
    /// What the key means.
    pub key: Key,
    /// How the key was written.
    pub form: KeyForm,
    /// [`flag`] bits.
    pub flags: u8,
}

impl Line {
    pub fn text<'a>(&self, body: &'a [u8]) -> &'a [u8] {
        &body[self.start as usize..self.end as usize]
    }
    pub fn key_raw<'a>(&self, body: &'a [u8]) -> &'a [u8] {
        &body[self.key_start as usize..self.key_end as usize]
    }
    pub fn value<'a>(&self, body: &'a [u8]) -> &'a [u8] {
        &body[self.value_start as usize..self.value_end as usize]
    }
    pub fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
}

/// The length of the (possibly partial) UTF-8 BOM at the start of `body`.
pub fn bom_len(body: &[u8]) -> usize {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    body.iter().zip(BOM).take_while(|(a, b)| a == b).count()
}

/// How a body's lines end: CR LF pairs, and lone LFs and CRs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Endings {
    pub crlf: u32,
    pub lf: u32,
    pub cr: u32,
}

impl Endings {
    /// The `line_endings` column: `crlf`, `lf`, `cr`, `none` or `mixed`.
    pub fn label(&self) -> &'static str {
        match (self.crlf > 0, self.lf > 0, self.cr > 0) {
            (false, false, false) => "none",
            (true, false, false) => "crlf",
            (false, true, false) => "lf",
            (false, false, true) => "cr",
            _ => "mixed",
        }
    }
}

/// Iterator over the lines of a robots.txt body.
///
/// The lexer does not search each line for its end, NUL, `#` and `:` one `memchr` at a time
/// (four calls per line of about 40 bytes, each paying its set-up): [`Specials`] marks those
/// bytes 64 at a time and the lexer takes their positions in order, so a line costs a few bit
/// operations per special byte it holds.
pub struct Lines<'a> {
    body: &'a [u8],
    pos: usize,
    number: u32,
    done: bool,
    /// The whole body is valid UTF-8 (checked once, so lines need no check of their own).
    utf8: bool,
    specials: Specials<'a>,
    /// The line endings passed so far.
    endings: Endings,
}

impl<'a> Lines<'a> {
    /// The line endings of the lines taken so far (of the whole body once the iterator is done).
    pub fn endings(&self) -> Endings {
        self.endings
    }

    #[cfg(test)]
    pub fn new(body: &'a [u8]) -> Self {
        let utf8 = std::str::from_utf8(&body[bom_len(body)..]).is_ok();
        Self::checked(body, utf8)
    }

    /// The lines of `body`, whose part after the BOM the caller found to be valid UTF-8 or not.
    pub fn checked(body: &'a [u8], utf8: bool) -> Self {
        let pos = bom_len(body);
        Lines {
            body,
            pos,
            number: 0,
            done: false,
            utf8,
            specials: Specials::new(body, pos),
            endings: Endings::default(),
        }
    }
}

/// Where the special bytes of one line are: its end and the first NUL, `#` and `:` within its
/// first [`MAX_LINE_LEN`] bytes.
#[derive(Default)]
struct Marks {
    nul: Option<usize>,
    hash: Option<usize>,
    colon: Option<usize>,
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        if self.done {
            return None;
        }
        let body = self.body;
        let start = self.pos;
        let cut = start + MAX_LINE_LEN;
        let mut m = Marks::default();
        let line_end = loop {
            let Some(p) = self.specials.next() else {
                break None;
            };
            match body[p] {
                b'\n' | b'\r' => break Some(p),
                // Past the length cut only the line's end matters.
                _ if p >= cut => {}
                0 => _ = m.nul.get_or_insert(p),
                b'#' => _ = m.hash.get_or_insert(p),
                _ => _ = m.colon.get_or_insert(p),
            }
        };
        let (end, next) = match line_end {
            Some(e) => {
                let crlf = body[e] == b'\r' && body.get(e + 1) == Some(&b'\n');
                if crlf {
                    // The LF is the next special byte: pass over it.
                    self.specials.next();
                    self.endings.crlf += 1;
                } else if body[e] == b'\n' {
                    self.endings.lf += 1;
                } else {
                    self.endings.cr += 1;
                }
                (e, e + 1 + usize::from(crlf))
            }
            None => {
                self.done = true;
                // Google emits a last line after the final line ending; it is empty and has no
                // physical existence, so it gets no descriptor.
                if start == body.len() && self.number > 0 {
                    return None;
                }
                (body.len(), body.len())
            }
        };
        self.pos = next;
        self.number += 1;
        Some(lex(body, self.number, start, end, self.utf8, m))
    }
}

/// The positions of a body's line-end, NUL, `#` and `:` bytes, in order, found a 64-byte block
/// at a time.
struct Specials<'a> {
    body: &'a [u8],
    /// Start of the current block, and its special bytes not yet taken (bit i: `base + i`).
    base: usize,
    mask: u64,
}

impl<'a> Specials<'a> {
    /// The special bytes of `body` from `from` on.
    fn new(body: &'a [u8], from: usize) -> Self {
        let base = from - from % 64;
        let mask = block_mask(body, base) & (u64::MAX << (from - base));
        Specials { body, base, mask }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.mask == 0 && !self.refill() {
            return None;
        }
        let p = self.base + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(p)
    }

    /// Move to the next block with a special byte; false at the end of the body.
    #[inline(never)]
    fn refill(&mut self) -> bool {
        while self.mask == 0 {
            self.base += 64;
            if self.base >= self.body.len() {
                return false;
            }
            self.mask = block_mask(self.body, self.base);
        }
        true
    }
}

/// The special bytes of the 64 bytes of `body` from `base` (bit i: `base + i`; none past the end).
fn block_mask(body: &[u8], base: usize) -> u64 {
    match body.get(base..base + 64) {
        Some(block) => specials_of(block.try_into().unwrap()),
        None => {
            let tail = body.get(base..).unwrap_or_default();
            // Padded with a byte that is not special.
            let mut block = [b' '; 64];
            block[..tail.len()].copy_from_slice(tail);
            specials_of(&block)
        }
    }
}

#[cfg(any(test, not(target_arch = "x86_64")))]
fn is_special(c: u8) -> bool {
    matches!(c, b'\n' | b'\r' | 0 | b'#' | b':')
}

/// Bit i set when `block[i]` is special. SSE2 is part of every x86_64 CPU: five byte
/// comparisons per 16 bytes (a plain loop is not vectorised by the compiler and made the
/// whole parse 1.8 times slower). Elsewhere the plain loop.
#[cfg(target_arch = "x86_64")]
fn specials_of(block: &[u8; 64]) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut mask = 0u64;
    for (k, part) in block.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is in x86_64's baseline, so these instructions exist on every CPU the
        // binary runs on; the load reads the 16 bytes of `part`, unaligned.
        let bits = unsafe {
            let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
            let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
            let s = _mm_or_si128(
                _mm_or_si128(eq(b'\n'), eq(b'\r')),
                _mm_or_si128(_mm_or_si128(eq(0), eq(b'#')), eq(b':')),
            );
            _mm_movemask_epi8(s) as u16
        };
        mask |= u64::from(bits) << (16 * k);
    }
    mask
}

#[cfg(not(target_arch = "x86_64"))]
fn specials_of(block: &[u8; 64]) -> u64 {
    block
        .iter()
        .enumerate()
        .fold(0, |m, (i, &c)| m | u64::from(is_special(c)) << i)
}

fn is_space(c: u8) -> bool {
    // absl::ascii_isspace: space, \t, \n, \v, \f, \r; as bits of a word, one test per byte.
    const SPACES: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << 0x0b | 1 << 0x0c | 1 << b'\r';
    c <= b' ' && SPACES >> c & 1 != 0
}

fn trim(b: &[u8], mut s: usize, mut e: usize) -> (usize, usize) {
    while s < e && is_space(b[s]) {
        s += 1;
    }
    while e > s && is_space(b[e - 1]) {
        e -= 1;
    }
    (s, e)
}

/// The descriptor of the line `start..end`, whose first NUL, `#` and `:` are in `m`.
fn lex(body: &[u8], number: u32, start: usize, end: usize, body_utf8: bool, m: Marks) -> Line {
    let mut flags = 0u8;
    let mut end = end;
    let too_long = end - start > MAX_LINE_LEN;
    if too_long {
        flags |= flag::TOO_LONG;
        end = start + MAX_LINE_LEN;
    }
    // A valid body has valid lines, except where the length cut splits a character.
    if (!body_utf8 || too_long) && std::str::from_utf8(&body[start..end]).is_err() {
        flags |= flag::NON_UTF8;
    }
    let mut eff = end;
    if let Some(i) = m.nul {
        flags |= flag::NUL;
        eff = i;
    }
    if let Some(i) = m.hash.filter(|&i| i < eff) {
        flags |= flag::COMMENT;
        eff = i;
    }
    let (s, e) = trim(body, start, eff);
    let mut line = Line {
        number,
        start: start as u32,
        end: end as u32,
        key_start: s as u32,
        key_end: s as u32,
        value_start: e as u32,
        value_end: e as u32,
        key: if s == e { Key::Blank } else { Key::Invalid },
        form: KeyForm::Canonical,
        flags,
    };
    if s == e {
        return line;
    }
    let t = &body[s..e];
    let (key_end, value_start) = match m.colon.filter(|&i| i < eff) {
        Some(i) => (i, i + 1),
        None => {
            // Exactly two words separated by spaces or tabs.
            let Some(i) = t.iter().position(|&c| c == b' ' || c == b'\t') else {
                return line;
            };
            let v = i + t[i..]
                .iter()
                .position(|&c| c != b' ' && c != b'\t')
                .unwrap_or(t.len() - i);
            if t[v..].iter().any(|&c| c == b' ' || c == b'\t') {
                return line;
            }
            line.flags |= flag::MISSING_COLON;
            (s + i, s + i + 1)
        }
    };
    let (ks, ke) = trim(body, s, key_end);
    if ks == ke {
        line.flags &= !flag::MISSING_COLON;
        return line;
    }
    let (vs, ve) = trim(body, value_start, e);
    let (key, form) = classify(&body[ks..ke]);
    line.key_start = ks as u32;
    line.key_end = ke as u32;
    line.value_start = vs as u32;
    line.value_end = ve as u32;
    line.key = key;
    line.form = form;
    line
}

const ACAP_IGNORE: &[u8] = b"acap-ignore-conventional-records";

/// `##ACAP version=x`: a comment, so a blank line for the parser.
pub fn is_version_comment(l: &Line, body: &[u8]) -> bool {
    let t = l.text(body).trim_ascii();
    l.key == Key::Blank && t.len() >= 6 && t[..6].eq_ignore_ascii_case(b"##acap")
}

/// `ACAP-ignore-conventional-records`, written (as the strawman writes it) without a colon, so a
/// key-less line for the parser; or with one.
pub fn is_ignore_directive(l: &Line, body: &[u8]) -> bool {
    match l.key {
        Key::Invalid => {
            let t = l.text(body);
            let t = &t[..memchr::memchr2(0, b'#', t).unwrap_or(t.len())];
            t.trim_ascii().eq_ignore_ascii_case(ACAP_IGNORE)
        }
        Key::Acap => l.key_raw(body).eq_ignore_ascii_case(ACAP_IGNORE),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(b: &[u8]) -> Vec<(u32, Key, String, String)> {
        Lines::new(b)
            .map(|l| {
                (
                    l.number,
                    l.key,
                    String::from_utf8_lossy(l.key_raw(b)).into_owned(),
                    String::from_utf8_lossy(l.value(b)).into_owned(),
                )
            })
            .collect()
    }

    /// The lines as found without [`Specials`]: each line's end by `memchr2`, and its first
    /// NUL, `#` and `:` (within the length cut) by looking at each byte.
    fn lines_one_by_one(body: &[u8]) -> Vec<Line> {
        let utf8 = std::str::from_utf8(&body[bom_len(body)..]).is_ok();
        let (mut pos, mut number, mut out) = (bom_len(body), 0, Vec::new());
        loop {
            let (end, next) = match memchr::memchr2(b'\n', b'\r', &body[pos..]) {
                Some(i) => {
                    let e = pos + i;
                    let crlf = body[e] == b'\r' && body.get(e + 1) == Some(&b'\n');
                    (e, e + 1 + usize::from(crlf))
                }
                None if pos == body.len() && number > 0 => return out,
                None => (body.len(), usize::MAX),
            };
            let cut = end.min(pos + MAX_LINE_LEN);
            let first = |c: u8| (pos..cut).find(|&i| body[i] == c);
            let m = Marks {
                nul: first(0),
                hash: first(b'#'),
                colon: first(b':'),
            };
            number += 1;
            out.push(lex(body, number, pos, end, utf8, m));
            if next == usize::MAX {
                return out;
            }
            pos = next;
        }
    }

    #[test]
    fn specials_of_a_block_are_its_special_bytes() {
        let block: [u8; 64] = std::array::from_fn(|i| (i * 37 % 256) as u8);
        for b in 0..=255u8 {
            let mut blk = block;
            blk[b as usize % 64] = b;
            let want = blk
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, &c)| m | u64::from(is_special(c)) << i);
            assert_eq!(specials_of(&blk), want);
        }
    }

    #[test]
    fn block_lexer_finds_what_a_byte_by_byte_search_finds() {
        let mut long = b"Disallow: /".to_vec();
        long.resize(MAX_LINE_LEN - 3, b'a');
        // A `#`, a NUL and a `:` that straddle the length cut, then more lines.
        long.extend_from_slice(b"x#y\0z:w\r\nUser-agent: a#b\n\0\n:\r\r\n");
        for body in [
            &long[..],
            b"",
            b"\n",
            b"\r\n",
            b"\xEF\xBB\xBF",
            b"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /a:b#c\r\n",
            b"a\0b#c:d\n#:\n:#\n",
        ] {
            assert_eq!(Lines::new(body).collect::<Vec<_>>(), lines_one_by_one(body));
        }
    }

    proptest::proptest! {
        /// Bodies of up to 300 bytes (several 64-byte blocks) from an alphabet heavy in the
        /// bytes the lexer looks for.
        #[test]
        fn block_lexer_agrees_on_any_body(
            body in proptest::collection::vec(proptest::sample::select(
                b"aZ \t\n\r\0#:/*$%\xEF\xBB\xBF\xC3\xA9-".to_vec()), 0..300),
        ) {
            proptest::prop_assert_eq!(Lines::new(&body).collect::<Vec<_>>(), lines_one_by_one(&body));
        }
    }

    #[test]
    fn line_endings_and_numbers() {
        for body in [
            &b"a: 1\nb: 2\n\nc: 3\n"[..],
            b"a: 1\r\nb: 2\r\n\r\nc: 3\r\n",
            b"a: 1\rb: 2\r\rc: 3\r",
            b"a: 1\nb: 2\r\n\rc: 3",
        ] {
            let l = lines(body);
            assert_eq!(l.len(), 4, "{body:?}");
            assert_eq!(l[3].0, 4);
            assert_eq!(l[3].3, "3");
            assert_eq!(l[2].1, Key::Blank);
        }
        // CR CR LF: two line endings.
        assert_eq!(lines(b"a: 1\r\r\nb: 2").len(), 3);
        assert_eq!(lines(b"").len(), 1);
    }

    #[test]
    fn separators() {
        let l = lines(
            b"user-agent FooBot\ndisallow /a b\n  Allow :  /x  # c\nfoo\n: x\nDisallow /foo:bar",
        );
        assert_eq!(l[0].1, Key::UserAgent);
        assert_eq!(l[0].3, "FooBot");
        assert_eq!(l[1].1, Key::Invalid);
        assert_eq!(
            (l[2].1, l[2].2.as_str(), l[2].3.as_str()),
            (Key::Allow, "Allow", "/x")
        );
        assert_eq!(l[3].1, Key::Invalid);
        assert_eq!(l[4].1, Key::Invalid);
        // The first colon separates, even when whitespace came first (Google).
        assert_eq!(
            (l[5].1, l[5].2.as_str(), l[5].3.as_str()),
            (Key::Disallow, "Disallow /foo", "bar")
        );
    }

    #[test]
    fn bom_nul_and_long_lines() {
        assert_eq!(bom_len(b"\xEF\xBB\xBFa"), 3);
        assert_eq!(bom_len(b"\xEF\xBBa"), 2);
        assert_eq!(bom_len(b"\xEF\x11\xBF"), 1);
        let l = lines(b"\xEF\xBBUser-agent: a\nDisallow: /x\0/y\n");
        assert_eq!(l[0].1, Key::UserAgent);
        assert_eq!(l[1].3, "/x");
        let mut long = b"Disallow: /".to_vec();
        long.resize(20_000, b'a');
        let line = Lines::new(&long).next().unwrap();
        assert!(line.has(flag::TOO_LONG));
        assert_eq!(line.end as usize, MAX_LINE_LEN);
    }
}

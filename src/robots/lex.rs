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

/// Iterator over the lines of a robots.txt body.
pub struct Lines<'a> {
    body: &'a [u8],
    pos: usize,
    number: u32,
    done: bool,
    /// The whole body is valid UTF-8 (checked once, so lines need no check of their own).
    utf8: bool,
}

impl<'a> Lines<'a> {
    #[cfg(test)]
    pub fn new(body: &'a [u8]) -> Self {
        let utf8 = std::str::from_utf8(&body[bom_len(body)..]).is_ok();
        Self::checked(body, utf8)
    }

    /// The lines of `body`, whose part after the BOM the caller found to be valid UTF-8 or not.
    pub fn checked(body: &'a [u8], utf8: bool) -> Self {
        Lines {
            body,
            pos: bom_len(body),
            number: 0,
            done: false,
            utf8,
        }
    }
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        if self.done {
            return None;
        }
        let body = self.body;
        let start = self.pos;
        let (end, next) = match memchr::memchr2(b'\n', b'\r', &body[start..]) {
            Some(i) => {
                let e = start + i;
                let n = if body[e] == b'\r' && body.get(e + 1) == Some(&b'\n') {
                    e + 2
                } else {
                    e + 1
                };
                (e, n)
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
        Some(lex(body, self.number, start, end, self.utf8))
    }
}

fn is_space(c: u8) -> bool {
    // absl::ascii_isspace: space, \t, \n, \v, \f, \r.
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
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

fn lex(body: &[u8], number: u32, start: usize, end: usize, body_utf8: bool) -> Line {
    let mut flags = 0u8;
    let mut end = end;
    let too_long = end - start > MAX_LINE_LEN;
    if too_long {
        flags |= flag::TOO_LONG;
        end = start + MAX_LINE_LEN;
    }
    let text = &body[start..end];
    // A valid body has valid lines, except where the length cut splits a character.
    if (!body_utf8 || too_long) && std::str::from_utf8(text).is_err() {
        flags |= flag::NON_UTF8;
    }
    let mut eff = end;
    if let Some(i) = memchr::memchr(0, text) {
        flags |= flag::NUL;
        eff = start + i;
    }
    if let Some(i) = memchr::memchr(b'#', &body[start..eff]) {
        flags |= flag::COMMENT;
        eff = start + i;
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
    let (key_end, value_start) = match memchr::memchr(b':', t) {
        Some(i) => (s + i, s + i + 1),
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

//! Facts about a robots.txt body that are not its parse: the fetch outcome of a 2xx response
//! (`ok`, `ok_empty`, `not_robots_html`, `not_robots_binary`), size, BOM, UTF-8 validity, line
//! endings and digest. Shared by the scan and `repcensus parse`.

use crate::robots::lex::Endings;
use crate::robots::parse::PARSE_LIMIT;
use crate::robots::RobotsTxt;
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::RobotsFileRow;

/// Facts about a robots.txt body.
pub(crate) struct BodyFacts<'a> {
    body: &'a [u8],
    bytes: u64,
    cut: bool,
}

impl<'a> BodyFacts<'a> {
    pub(crate) fn of(body: &'a [u8], bytes: u64, cut: bool) -> Self {
        BodyFacts {
            body,
            bytes: bytes.max(body.len() as u64),
            cut,
        }
    }

    /// The body.
    pub(crate) fn body(&self) -> &'a [u8] {
        self.body
    }

    pub(crate) fn outcome_2xx(&self) -> FetchOutcome {
        let b = self.body;
        if b.is_empty() {
            return FetchOutcome::OkEmpty;
        }
        let start = b.strip_prefix(b"\xef\xbb\xbf").unwrap_or(b);
        let lead = start
            .iter()
            .position(|c| !c.is_ascii_whitespace())
            .unwrap_or(start.len());
        let text = &start[lead..start.len().min(lead + 2048)];
        if text.is_empty() {
            return FetchOutcome::OkEmpty;
        }
        if text.first() == Some(&b'<') {
            let lower = text.to_ascii_lowercase();
            if [
                &b"<html"[..],
                b"<!doctype",
                b"<head",
                b"<body",
                b"<?xml",
                b"<!--",
            ]
            .iter()
            .any(|t| memchr::memmem::find(&lower, t).is_some())
            {
                return FetchOutcome::NotRobotsHtml;
            }
        }
        let sample = &b[..b.len().min(1024)];
        let control = count_control(sample);
        if control * 10 > sample.len() {
            return FetchOutcome::NotRobotsBinary;
        }
        FetchOutcome::Ok
    }

    /// Fill the body columns of `row`; returns the digest string. `robots` is the parse of this
    /// body, when it was parsed: it checked the same bytes for UTF-8 (after a BOM), so a body it
    /// found valid is not checked again.
    pub(crate) fn apply(
        &self,
        row: &mut RobotsFileRow<'_>,
        robots: Option<&RobotsTxt<'_>>,
    ) -> String {
        let b = self.body;
        row.body_bytes = Some(self.bytes as i64);
        row.truncated = Some(self.bytes > PARSE_LIMIT as u64);
        row.has_bom = Some(b.starts_with(b"\xef\xbb\xbf"));
        let parsed = &b[..b.len().min(PARSE_LIMIT)];
        // The parse checked the bytes after the BOM. With no BOM or a whole one (itself a
        // character) that is the whole part; a partial BOM (`EF BB` then `80`...) may still
        // make a character with what follows, so that case is checked here.
        let known_valid = robots.is_some_and(|r| {
            debug_assert_eq!(r.body.as_ptr(), b.as_ptr(), "the parse of this body");
            r.utf8.is_some() && matches!(r.summary.bom_bytes, 0 | 3)
        });
        row.valid_utf8 = Some(
            known_valid
                || std::str::from_utf8(parsed).is_ok()
                || (self.cut && utf8_valid_but_cut(parsed)),
        );
        // The lexer counted the line endings of the same bytes.
        row.line_endings = Some(match robots {
            Some(r) => r.summary.endings.label(),
            None => line_endings(parsed),
        });
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut hex = String::with_capacity(71);
        hex.push_str("sha256:");
        // AWS-LC's SHA-256 (assembly: AVX2/SSSE3, or the SHA extensions where the CPU has
        // them), the crypto library object_store already builds for its requests: assembly ran
        // 1.9 times as fast as the sha2 crate's portable code on the bench machine.
        for &byte in aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, b).as_ref() {
            hex.push(HEX[usize::from(byte >> 4)] as char);
            hex.push(HEX[usize::from(byte & 15)] as char);
        }
        hex
    }
}

/// Control bytes other than tab, LF, CR and form feed. Branch-free over blocks of bytes, so that
/// it vectorises: the filter-and-count it replaces ran a byte at a time (`outcome_2xx` fell from
/// 1.4% to 0.5% of a robots.txt scan's instructions).
fn count_control(b: &[u8]) -> usize {
    b.chunks(255)
        .map(|block| {
            let n: u8 = block
                .iter()
                .map(|&c| u8::from(c < 0x20) & !u8::from(matches!(c, b'\t' | b'\n' | b'\r' | 0x0c)))
                .sum();
            usize::from(n)
        })
        .sum()
}

/// Valid UTF-8 except for a sequence cut by the end of the buffer.
fn utf8_valid_but_cut(b: &[u8]) -> bool {
    match std::str::from_utf8(b) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

/// The line endings of a body that was not parsed: CR LF, LF, CR, none or a mix (a parsed body's
/// are counted by the lexer: [`crate::robots::lex::Endings`]). Counted over the whole body in passes
/// the compiler vectorises (a `memchr2` per line end cost as much as the lexer's own splitting):
/// a CR LF pair is one ending, so the lone CRs and LFs are the counts less the pairs.
fn line_endings(b: &[u8]) -> &'static str {
    let count = |byte: u8| b.iter().map(|&c| usize::from(c == byte)).sum::<usize>();
    let (cr, lf) = (count(b'\r'), count(b'\n'));
    let crlf = if cr == 0 || lf == 0 {
        0
    } else {
        b.iter()
            .zip(&b[1..])
            .map(|(&x, &y)| usize::from(x == b'\r' && y == b'\n'))
            .sum()
    };
    // Whether each count is zero is all the label reads; saturating keeps that for any length.
    let n = |c: usize| u32::try_from(c).unwrap_or(u32::MAX);
    Endings {
        crlf: n(crlf),
        lf: n(lf - crlf),
        cr: n(cr - crlf),
    }
    .label()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes() {
        assert_eq!(
            BodyFacts::of(b"", 0, false).outcome_2xx().as_str(),
            "ok_empty"
        );
        assert_eq!(
            BodyFacts::of(b"  \n", 3, false).outcome_2xx().as_str(),
            "ok_empty"
        );
        assert_eq!(
            BodyFacts::of(b"User-agent: *\nDisallow:\n", 24, false)
                .outcome_2xx()
                .as_str(),
            "ok"
        );
        assert_eq!(
            BodyFacts::of(b"\n<!DOCTYPE html><html>", 22, false)
                .outcome_2xx()
                .as_str(),
            "not_robots_html"
        );
        assert_eq!(
            BodyFacts::of(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0", 17, false)
                .outcome_2xx()
                .as_str(),
            "not_robots_binary"
        );
    }

    #[test]
    fn control_count_is_the_plain_count() {
        let plain = |b: &[u8]| {
            b.iter()
                .filter(|&&c| c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\r' | 0x0c))
                .count()
        };
        let all: Vec<u8> = (0..=255u8).cycle().take(1024).collect();
        let zeros = vec![0u8; 1024];
        for b in [&all[..], &zeros[..]] {
            for len in [0, 1, 31, 254, 255, 256, 510, 511, 1024] {
                assert_eq!(count_control(&b[..len]), plain(&b[..len]), "{len}");
            }
        }
    }

    #[test]
    fn line_ending_kinds() {
        assert_eq!(line_endings(b"a\r\nb\r\n"), "crlf");
        assert_eq!(line_endings(b"a\nb"), "lf");
        assert_eq!(line_endings(b"a\rb"), "cr");
        assert_eq!(line_endings(b"a\r\nb\n"), "mixed");
        assert_eq!(line_endings(b"ab"), "none");
    }

    /// `valid_utf8` is the same whether the body's parse is given or not: with a whole, a
    /// partial or no BOM, valid or invalid text after it (`EF BB 80` is a partial BOM that is one
    /// valid character with the byte after it).
    #[test]
    fn valid_utf8_from_the_parse_is_what_checking_gives() {
        for body in [
            &b"User-agent: *"[..],
            b"\xef\xbb\xbfUser-agent: *",
            b"\xef\xbb\x80User-agent: *",
            b"\xefUser-agent: *",
            b"User-agent: \xff",
            b"\xef\xbb\xbfUser-agent: \xff",
            b"Disallow: /caf\xc3\xa9",
        ] {
            let facts = BodyFacts::of(body, body.len() as u64, false);
            let robots = RobotsTxt::parse(body);
            let (mut with, mut without) = (RobotsFileRow::default(), RobotsFileRow::default());
            facts.apply(&mut with, Some(&robots));
            facts.apply(&mut without, None);
            assert_eq!(with.valid_utf8, without.valid_utf8, "{body:?}");
            assert_eq!(
                with.valid_utf8,
                Some(std::str::from_utf8(body).is_ok()),
                "{body:?}"
            );
        }
    }

    /// The endings as found one at a time, a CR LF pair taken as one.
    fn endings_one_by_one(b: &[u8]) -> &'static str {
        let (mut crlf, mut lf, mut cr, mut i) = (0, 0, 0, 0);
        while i < b.len() {
            match (b[i], b.get(i + 1)) {
                (b'\r', Some(b'\n')) => (crlf, i) = (crlf + 1, i + 1),
                (b'\r', _) => cr += 1,
                (b'\n', _) => lf += 1,
                _ => {}
            }
            i += 1;
        }
        match (crlf > 0, lf > 0, cr > 0) {
            (false, false, false) => "none",
            (true, false, false) => "crlf",
            (false, true, false) => "lf",
            (false, false, true) => "cr",
            _ => "mixed",
        }
    }

    proptest::proptest! {
        #[test]
        fn line_endings_counted_in_passes_match_one_by_one(
            b in proptest::collection::vec(proptest::sample::select(b"a\r\n".to_vec()), 0..40),
        ) {
            proptest::prop_assert_eq!(line_endings(&b), endings_one_by_one(&b));
        }

        /// The lexer's counts (what a parsed body's row takes) give what counting the bytes
        /// gives, whatever else the lines hold: a BOM, comments, separators, NULs.
        #[test]
        fn line_endings_the_lexer_counts_match_one_by_one(
            bom in proptest::bool::ANY,
            b in proptest::collection::vec(proptest::sample::select(b"a\r\n#:\0 ".to_vec()), 0..300),
        ) {
            let body = [if bom { &b"\xef\xbb\xbf"[..] } else { b"" }, &b].concat();
            let facts = BodyFacts::of(&body, body.len() as u64, false);
            let mut row = RobotsFileRow::default();
            facts.apply(&mut row, Some(&RobotsTxt::parse(&body)));
            proptest::prop_assert_eq!(row.line_endings, Some(endings_one_by_one(&body)));
        }
    }
}

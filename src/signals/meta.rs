//! `<meta>` tags in the head of an HTML page, found with a real HTML tokenizer.
//!
//! html5gum is a WHATWG-conformant tokenizer: comments, `<![CDATA[`, unclosed quotes, entities
//! (`&amp;`), upper-case and unquoted attributes, duplicate attributes (the first wins) are all
//! handled as a browser would. It has no tree builder, so its "naive" state switching is turned
//! on: after `<script>`, `<style>`, `<title>`, `<textarea>`, `<noscript>`, ... the text up to the
//! matching end tag is raw text, never tags. `<template>` content is parsed as markup by browsers
//! but is not part of the document, so tags inside it are skipped here.
//!
//! Where the head ends: at `</head>`, at `<body>`, or at the first start tag that cannot be in a
//! head (anything but `html`, `head`, `meta`, `link`, `title`, `style`, `script`, `noscript`,
//! `base`, `template`, `basefont`, `bgsound`). Text does not end it (pages often have stray text
//! before their `<meta>` tags, and crawlers read those tags). Meta tags found up to
//! [`AFTER_HEAD_WINDOW`] bytes after that point are kept with `in_head = false`; scanning then
//! stops, so a 10 MB page costs its head and a few KB. A head longer than [`HEAD_SCAN_LIMIT`]
//! is scanned that far and [`HeadScanner::limit_hit`] says so.
//!
//! The tokenizer's events are borrowed slices (its `CallbackEmitter`); the names and contents
//! of meta tags are copied into one reused arena. html5gum allocates its own small buffers per
//! tokenizer (one per page); it offers no way to reuse them across inputs.

use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, ForwardingEmitter, Readable, Reader, Span, StringReader, Tokenizer};
use std::cell::Cell;
use std::convert::Infallible;
use std::ops::Range;

/// The most bytes of a page scanned for its head: 1 MiB.
pub const HEAD_SCAN_LIMIT: usize = 1 << 20;
/// How far past the end of the head meta tags are still collected (`in_head = false`).
pub const AFTER_HEAD_WINDOW: usize = 1024;

/// Which attribute named the meta tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaAttr {
    Name,
    HttpEquiv,
}

/// One `<meta>` tag with a `name` or `http-equiv` attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetaTag {
    pub attr: MetaAttr,
    /// The `name` (or `http-equiv`) value, as written, in [`HeadScanner::arena`].
    pub name: Range<usize>,
    /// The `content` value (entities decoded), if the attribute is present.
    pub content: Option<Range<usize>>,
    pub in_head: bool,
    /// Byte offset of the tag in the page.
    pub offset: usize,
}

/// The callback emitter without parse-error reporting: html5gum validates every character for
/// its error events unless the emitter declines them, and that was a third of the scan's time.
struct Quiet<E>(E);

impl<E: Emitter> ForwardingEmitter for Quiet<E> {
    type Token = E::Token;
    fn inner(&mut self) -> &mut impl Emitter<Token = Self::Token> {
        &mut self.0
    }
    fn should_emit_errors(&mut self) -> bool {
        false
    }
}

/// html5gum's slice reader, noting when the tokenizer comes to the end of its input: reads its
/// last byte, reads past it, or compares a string that would run past it. Until then the
/// tokenizer has seen only bytes that any longer input with the same start also has, and it
/// is deterministic, so such an input gives the same events.
struct EdgeReader<'a> {
    inner: StringReader<'a>,
    left: usize,
    reached_end: &'a Cell<bool>,
}

impl Reader for EdgeReader<'_> {
    type Error = Infallible;

    #[inline(always)]
    fn read_byte(&mut self) -> Result<Option<u8>, Infallible> {
        let b = self.inner.read_byte()?;
        self.left = self.left.saturating_sub(1);
        if self.left == 0 {
            self.reached_end.set(true);
        }
        Ok(b)
    }

    #[inline(always)]
    fn try_read_string(&mut self, s: &[u8], case_sensitive: bool) -> Result<bool, Infallible> {
        if s.len() >= self.left {
            self.reached_end.set(true);
        }
        let matched = self.inner.try_read_string(s, case_sensitive)?;
        if matched {
            self.left -= s.len();
        }
        Ok(matched)
    }

    #[inline(always)]
    fn read_until<'b>(
        &'b mut self,
        needle: &[u8],
        char_buf: &'b mut [u8; 4],
    ) -> Result<Option<&'b [u8]>, Infallible> {
        let chunk = self.inner.read_until(needle, char_buf)?;
        self.left -= chunk.map_or(0, <[u8]>::len);
        if self.left == 0 {
            self.reached_end.set(true);
        }
        Ok(chunk)
    }
}

/// Reusable head scanner.
#[derive(Debug, Default)]
pub struct HeadScanner {
    pub arena: Vec<u8>,
    pub tags: Vec<MetaTag>,
    /// The head ended (by `</head>`, `<body>` or a body element) within the scanned bytes.
    pub head_closed: bool,
    /// The page was longer than `HEAD_SCAN_LIMIT` and its head did not end before it.
    pub limit_hit: bool,
    /// The scan came to the end of what it scanned (the page, or its first
    /// `HEAD_SCAN_LIMIT` bytes). When it did not, every page that starts with the bytes
    /// scanned gives the same tags and `head_closed`: a reader may stop there.
    pub reached_end: bool,
}

#[derive(Default)]
struct State {
    in_meta: bool,
    tag_start: usize,
    /// Which attribute the next value belongs to: 0 none/other, 1 name, 2 http-equiv, 3 content.
    cur_attr: u8,
    name: Option<(MetaAttr, Range<usize>)>,
    content: Option<Range<usize>>,
    seen_name: bool,
    seen_equiv: bool,
    seen_content: bool,
    template_depth: u32,
    head_end: Option<usize>,
    /// The window after the head holds a `<meta` (else scanning stops where the head ends).
    window_has_meta: bool,
    /// A window looked at ran to the end of the input.
    window_cut: bool,
}

/// The transitions of [`HeadScanner::scan`], one per tokenizer event it acts on. `Some(())`
/// stops the scan.
impl State {
    fn open_start_tag(&mut self, name: &[u8], at: usize, input: &[u8]) -> Option<()> {
        if let Some(end) = self.head_end {
            if !self.window_has_meta || at > end + AFTER_HEAD_WINDOW {
                return Some(());
            }
        }
        if name == b"template" {
            self.template_depth += 1;
        }
        if self.head_end.is_none()
            && (name == b"body" || !is_head_tag(name))
            && self.end_head(at, input).is_some()
        {
            return Some(());
        }
        self.in_meta = name == b"meta" && self.template_depth == 0;
        if self.in_meta {
            self.tag_start = at;
            self.name = None;
            self.content = None;
            self.seen_name = false;
            self.seen_equiv = false;
            self.seen_content = false;
        }
        self.cur_attr = 0;
        None
    }

    /// The head ends at `at`: look at the window after it. `Some(())` when it holds no meta tag
    /// (the scan stops).
    fn end_head(&mut self, at: usize, input: &[u8]) -> Option<()> {
        self.head_end = Some(at);
        self.window_has_meta = window_has_meta(input, at);
        self.window_cut |= at + AFTER_HEAD_WINDOW >= input.len();
        (!self.window_has_meta).then_some(())
    }

    /// An attribute of a meta tag starts; its value will go to `arena_len` onwards.
    fn attribute_name(&mut self, name: &[u8], arena_len: usize) {
        // Duplicate attributes: the first wins (WHATWG).
        self.cur_attr = match name {
            b"name" if !self.seen_name => {
                self.seen_name = true;
                1
            }
            b"http-equiv" if !self.seen_equiv => {
                self.seen_equiv = true;
                2
            }
            b"content" if !self.seen_content => {
                self.seen_content = true;
                self.content = Some(arena_len..arena_len);
                3
            }
            _ => 0,
        };
        if self.cur_attr == 1 && !matches!(self.name, Some((MetaAttr::Name, _))) {
            self.name = Some((MetaAttr::Name, arena_len..arena_len));
        } else if self.cur_attr == 2 && self.name.is_none() {
            self.name = Some((MetaAttr::HttpEquiv, arena_len..arena_len));
        } else if self.cur_attr == 2 {
            self.cur_attr = 0;
        }
    }

    fn attribute_value(&mut self, value: &[u8], arena: &mut Vec<u8>) {
        let start = arena.len();
        let range = match self.cur_attr {
            1 | 2 => self.name.as_mut().map(|(_, r)| r),
            3 => self.content.as_mut(),
            _ => None,
        };
        if let Some(r) = range {
            arena.extend_from_slice(value);
            *r = start..arena.len();
        }
        self.cur_attr = 0;
    }

    /// A meta tag's start tag closes: keep it if it has a name.
    fn close_meta(&mut self, tags: &mut Vec<MetaTag>) {
        self.in_meta = false;
        if let Some((attr, name)) = self.name.take() {
            tags.push(MetaTag {
                attr,
                name,
                content: self.content.take(),
                in_head: self.head_end.is_none(),
                offset: self.tag_start,
            });
        }
    }

    fn end_tag(&mut self, name: &[u8], at: usize, input: &[u8]) -> Option<()> {
        self.in_meta = false;
        if name == b"template" {
            self.template_depth = self.template_depth.saturating_sub(1);
        } else if name == b"head" && self.head_end.is_none() {
            return self.end_head(at, input);
        }
        None
    }
}

/// Whether `<meta` (any case) starts within [`AFTER_HEAD_WINDOW`] bytes after `from`: tokenizing
/// the window is then worth it.
fn window_has_meta(input: &[u8], from: usize) -> bool {
    let w = &input[from.min(input.len())..input.len().min(from + AFTER_HEAD_WINDOW)];
    memchr::memchr_iter(b'<', w).any(|i| {
        w.get(i + 1..i + 5)
            .is_some_and(|t| t.eq_ignore_ascii_case(b"meta"))
    })
}

/// Tags that may stand in a head without ending it (lower-case names).
pub fn is_head_tag(name: &[u8]) -> bool {
    matches!(
        name,
        b"html"
            | b"head"
            | b"meta"
            | b"link"
            | b"title"
            | b"style"
            | b"script"
            | b"noscript"
            | b"base"
            | b"template"
            | b"basefont"
            | b"bgsound"
    )
}

impl HeadScanner {
    pub fn new() -> Self {
        Self::default()
    }

    /// The bytes of a range in the arena.
    pub fn text(&self, r: &Range<usize>) -> &[u8] {
        &self.arena[r.clone()]
    }

    /// Scan `html` (a decoded page body) for meta tags.
    pub fn scan(&mut self, html: &[u8]) {
        self.arena.clear();
        self.tags.clear();
        self.head_closed = false;
        self.limit_hit = false;
        let input = &html[..html.len().min(HEAD_SCAN_LIMIT)];
        let reached_end = Cell::new(input.is_empty());
        let mut st = State::default();
        let arena = &mut self.arena;
        let tags = &mut self.tags;
        // A `Some` stops the tokenizer: the scan is past the window after the head.
        let callback = |ev: CallbackEvent<'_>, span: Span<usize>| -> Option<()> {
            match ev {
                CallbackEvent::OpenStartTag { name } => st.open_start_tag(name, span.start, input),
                CallbackEvent::AttributeName { name } if st.in_meta => {
                    st.attribute_name(name, arena.len());
                    None
                }
                CallbackEvent::AttributeValue { value } if st.in_meta => {
                    st.attribute_value(value, arena);
                    None
                }
                CallbackEvent::CloseStartTag { .. } if st.in_meta => {
                    st.close_meta(tags);
                    None
                }
                CallbackEvent::EndTag { name } => st.end_tag(name, span.start, input),
                _ => None,
            }
        };
        let mut emitter = CallbackEmitter::new(callback);
        emitter.naively_switch_states(true);
        let reader = EdgeReader {
            inner: input.to_reader(),
            left: input.len(),
            reached_end: &reached_end,
        };
        let tok = Tokenizer::new_with_emitter(reader, Quiet(emitter));
        // The callback yields a token only to say "past the window: stop".
        for _stop in tok.take(1) {}
        self.reached_end = reached_end.get() || st.window_cut;
        self.head_closed = st.head_end.is_some();
        self.limit_hit = !self.head_closed && html.len() > HEAD_SCAN_LIMIT;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(name, content, in_head)` of each tag.
    fn scan(html: &[u8]) -> Vec<(String, Option<String>, bool)> {
        let mut s = HeadScanner::new();
        s.scan(html);
        s.tags
            .iter()
            .map(|t| {
                (
                    String::from_utf8_lossy(s.text(&t.name)).into_owned(),
                    t.content
                        .as_ref()
                        .map(|c| String::from_utf8_lossy(s.text(c)).into_owned()),
                    t.in_head,
                )
            })
            .collect()
    }

    fn tag(n: &str, c: &str, in_head: bool) -> (String, Option<String>, bool) {
        (n.into(), Some(c.into()), in_head)
    }

    #[test]
    fn plain_and_odd_attributes() {
        let html = b"\xef\xbb\xbf<!DOCTYPE html><HTML><HEAD>\
            <META NAME=ROBOTS CONTENT='noindex,&amp;nofollow'>\
            <meta content=\"nosnippet\" name=\"googlebot\" />\
            <meta name=\"robots\" name=\"ignored\" content=\"a\" content=\"b\">\
            <meta http-equiv=\"X-Robots-Tag\" content=\"noai\">\
            <meta name = \"bingbot\"   content = \"noarchive\">\
            </head><body><p>x</p></body></html>";
        assert_eq!(
            scan(html),
            vec![
                tag("ROBOTS", "noindex,&nofollow", true),
                tag("googlebot", "nosnippet", true),
                tag("robots", "a", true),
                tag("X-Robots-Tag", "noai", true),
                tag("bingbot", "noarchive", true),
            ]
        );
    }

    #[test]
    fn not_tags() {
        let html = b"<html><head>\
            <!-- <meta name=robots content=comment> -->\
            <script>var s = '<meta name=robots content=script>';</script>\
            <style>/* <meta name=robots content=style> */</style>\
            <title><meta name=robots content=title></title>\
            <template><meta name=robots content=template></template>\
            <![CDATA[ <meta name=robots content=cdata> ]]>\
            <noscript><meta name=robots content=noscript></noscript>\
            <meta name=robots content=real>\
            </head></html>";
        // CDATA in HTML is a bogus comment ending at the first `>`: what follows it is markup,
        // as a browser reads it.
        let got = scan(html);
        assert!(got.contains(&tag("robots", "real", true)), "{got:?}");
        for fake in [
            "comment", "script", "style", "title", "template", "noscript",
        ] {
            assert!(
                !got.iter().any(|t| t.1.as_deref() == Some(fake)),
                "{fake}: {got:?}"
            );
        }
    }

    #[test]
    fn body_and_window() {
        let mut html = b"<html><head><meta name=robots content=a></head><body>\
            <meta name=robots content=b>"
            .to_vec();
        html.extend(std::iter::repeat_n(b'x', AFTER_HEAD_WINDOW + 10));
        html.extend(b"<p><meta name=robots content=c>");
        assert_eq!(
            scan(&html),
            vec![tag("robots", "a", true), tag("robots", "b", false)]
        );
        // A body element ends the head even without </head>.
        assert_eq!(
            scan(b"<meta name=robots content=a><div></div><meta name=robots content=b>"),
            vec![tag("robots", "a", true), tag("robots", "b", false)]
        );
        // Empty and missing content.
        assert_eq!(
            scan(b"<meta name=robots content=\"\"><meta name=robots>"),
            vec![tag("robots", "", true), ("robots".into(), None, true)]
        );
    }

    /// A scan of a prefix that did not reach the prefix's end gives what the whole page gives:
    /// the promise an early-stopping reader relies on. Every cut of some tricky pages.
    #[test]
    fn scan_of_a_prefix_that_stops_early_equals_the_whole() {
        let filler = "<p>text</p>".repeat(300);
        let pages = [
            format!("<html><head><meta name=robots content=a></head><body>{filler}"),
            format!("<head><script>var s = '</head><body>';</script><meta name=robots content=late></head>{filler}"),
            format!("<head><meta name=robots content=a></head><meta name=googlebot content=b><p>{filler}<meta name=robots content=c>"),
            format!("<head><title>x &amp; y</title><!-- </head> --><meta name=robots content=\"noindex\"><div>{filler}"),
            format!("<head><meta name=robots content='unclosed>{filler}"),
            format!("<head><style>{}</style><meta name=robots content=after-style><body>{filler}", "a{b:c}".repeat(400)),
            format!("<HEAD><META NAME=ROBOTS CONTENT=NOAI><BODY>{filler}"),
            format!("{filler}<meta name=robots content=late>"),
        ];
        let mut stopped_early = 0;
        for page in &pages {
            let page = page.as_bytes();
            let mut whole = HeadScanner::new();
            whole.scan(page);
            for cut in 0..page.len() {
                let mut part = HeadScanner::new();
                part.scan(&page[..cut]);
                if part.reached_end {
                    continue;
                }
                stopped_early += 1;
                assert_eq!(
                    part.tags,
                    whole.tags,
                    "cut {cut} of {:?}",
                    String::from_utf8_lossy(&page[..80])
                );
                assert_eq!(part.arena, whole.arena, "cut {cut}");
                assert_eq!(part.head_closed, whole.head_closed, "cut {cut}");
                assert_eq!(part.limit_hit, whole.limit_hit, "cut {cut}");
            }
        }
        assert!(stopped_early > 10_000, "{stopped_early}");
    }

    #[test]
    fn unclosed_quote_and_huge_head() {
        // An unclosed quote swallows the rest: no tag, no panic.
        assert!(scan(b"<head><meta name=\"robots content=noindex>").is_empty());
        let mut html = b"<head><meta name=robots content=first>".to_vec();
        html.extend(b"<link rel=x>".repeat(5 << 20 >> 4));
        html.extend(b"<meta name=robots content=late></head>");
        let mut s = HeadScanner::new();
        s.scan(&html);
        assert!(s.limit_hit);
        assert_eq!(s.tags.len(), 1);
    }
}

//! Responses to `page_signals` rows.
//!
//! For every `response` record with an HTTP head: each `X-Robots-Tag`, `Robots-Tag`,
//! `tdm-reservation`, `tdm-policy`, `Content-Usage` and `Content-Signal` header (any case;
//! repeated headers each kept, Common Crawl's `X-Crawler-` renamed copies too), and for HTML
//! responses the robots, TDM and `content-signal` meta tags of the head. See [`crate::signals`] for the parsing and docs/schema.md for the columns.

use crate::agents::Registry;
use crate::archive::heads::http::{BodyDecoder, HttpHead};
use crate::archive::heads::record::trim;
use crate::archive::problem::ErrorKind;
use crate::signals::ai_prefs::{self, Preferences};
use crate::signals::meta::{HeadScanner, MetaAttr, HEAD_SCAN_LIMIT};
use crate::signals::{parse_header_value, parse_meta_content, ParsedValue, Source};
use crate::tables::{PageSignalRow, PageSignalsBuilder};
use std::collections::HashSet;

/// The names a robots meta tag may have besides `robots`: the registry's product tokens and
/// names, and the crawler names sites address that are not in it.
pub struct MetaNames {
    names: HashSet<String>,
}

/// Crawler names seen in meta tags that the registry does not track (lower case).
const EXTRA_META_NAMES: &[&str] = &[
    "googlebot-news",
    "googlebot-image",
    "googlebot-video",
    "adsbot-google",
    "mediapartners-google",
    "bingbot",
    "msnbot",
    "slurp",
    "teoma",
    "yandex",
    "yandexbot",
    "baiduspider",
    "naverbot",
    "yeti",
    "seznambot",
    "duckduckbot",
    "applebot",
    "facebot",
    "twitterbot",
    "spawningbot",
];

impl MetaNames {
    pub fn new(registry: &Registry) -> Self {
        let mut names: HashSet<String> = EXTRA_META_NAMES.iter().map(|s| s.to_string()).collect();
        for a in &registry.agents {
            names.insert(a.name.to_ascii_lowercase());
            names.insert(a.token.to_ascii_lowercase());
        }
        MetaNames { names }
    }

    /// Whether a meta `name` (lower case) may be a signal: worth parsing.
    fn candidate(&self, lower: &str) -> bool {
        matches!(
            lower,
            "robots"
                | "x-robots-tag"
                | "robots-tag"
                | "tdm-reservation"
                | "tdm-policy"
                | "content-signal"
        ) || self.names.contains(lower)
            || looks_like_crawler(lower)
    }

    /// Whether a meta `name` (lower case) addresses a crawler. Besides the known names, a name
    /// that looks like a crawler's (`...bot`, `...spider`, `...crawler`) counts when its content
    /// has a robots rule.
    fn is_crawler(&self, lower: &str, parsed: &ParsedValue) -> bool {
        if self.names.contains(lower) {
            return true;
        }
        looks_like_crawler(lower)
            && parsed
                .directives
                .iter()
                .any(|d| d.directive.is_some_and(|d| d != "unknown"))
    }
}

/// `...bot`, `...spider`, `...crawler`, or one of those followed by `-` (`googlebot-news`).
fn looks_like_crawler(lower: &str) -> bool {
    ["bot", "spider", "crawler"].iter().any(|w| {
        lower.ends_with(w)
            || lower
                .match_indices(w)
                .any(|(i, _)| lower[i + w.len()..].starts_with('-'))
    })
}

/// What one response carried.
#[derive(Debug, Default, Clone, Copy)]
pub struct Carried {
    pub meta: bool,
    pub header: bool,
    pub robots_tag: bool,
    pub tdm: bool,
    /// A `Content-Usage` or `Content-Signal` header, or a `content-signal` meta tag.
    pub ai_prefs: bool,
    /// How many headers or meta tags gave rows.
    pub signals: i32,
}

/// Worker-owned buffers for page signals.
#[derive(Default)]
pub struct SignalBuffers {
    scanner: HeadScanner,
    lower: String,
}

/// The most `page_signals` rows one response adds.
pub const RESPONSE_ROWS_MAX: usize = 1024;
/// The most bytes of text one response's `page_signals` rows hold (URL, names, values).
pub const RESPONSE_BYTES_MAX: usize = 1 << 20;

/// The `page_signals` rows of one response, within [`RESPONSE_ROWS_MAX`] and
/// [`RESPONSE_BYTES_MAX`]: a page with 300 headers of 8 KiB, each of a thousand unknown
/// directives, made 2 GiB of rows. Past either bound the response's rows stop, and the caller
/// writes a `page_signals_cut` errors row.
pub struct SignalRows<'o> {
    out: &'o mut PageSignalsBuilder,
    rows: usize,
    bytes: usize,
    /// Rows not written for the bounds.
    pub dropped: usize,
}

impl<'o> SignalRows<'o> {
    pub fn new(out: &'o mut PageSignalsBuilder) -> Self {
        SignalRows {
            out,
            rows: 0,
            bytes: 0,
            dropped: 0,
        }
    }

    /// Append `r`, unless the response's bounds are spent (false then).
    fn push(&mut self, r: &PageSignalRow<'_>) -> bool {
        let len = |v: Option<&str>| v.map_or(0, str::len);
        let bytes = len(r.url)
            + len(r.name)
            + len(r.agent)
            + len(r.directive_value)
            + len(r.directive_raw)
            + len(r.raw_value);
        if self.dropped > 0
            || self.rows >= RESPONSE_ROWS_MAX
            || self.bytes + bytes > RESPONSE_BYTES_MAX
        {
            self.dropped += 1;
            return false;
        }
        self.rows += 1;
        self.bytes += bytes;
        self.out.append(r);
        true
    }

    /// The detail of the `page_signals_cut` errors row, when rows were dropped.
    pub fn cut_detail(&self) -> Option<String> {
        (self.dropped > 0).then(|| {
            format!(
                "the response's robots headers and meta tags gave more than {RESPONSE_ROWS_MAX} \
                 page_signals rows or {} MiB of text: {} rows after the first {} were not written",
                RESPONSE_BYTES_MAX >> 20,
                self.dropped,
                self.rows
            )
        })
    }
}

/// The facts of one response that every row repeats.
pub struct PageCtx<'a> {
    pub warc_file: &'a str,
    pub warc_offset: i64,
    pub url: &'a str,
    pub host: Option<&'a str>,
    pub registered_domain: Option<&'a str>,
    pub capture_time: Option<i64>,
    pub http_status: Option<i32>,
    pub content_type: Option<&'a str>,
}

fn row<'a>(ctx: &PageCtx<'a>) -> PageSignalRow<'a> {
    PageSignalRow {
        warc_file: Some(ctx.warc_file),
        warc_offset: Some(ctx.warc_offset),
        url: Some(ctx.url),
        host: ctx.host,
        registered_domain: ctx.registered_domain,
        capture_time: ctx.capture_time,
        http_status: ctx.http_status,
        content_type: ctx.content_type,
        ..PageSignalRow::default()
    }
}

/// Where one header or meta tag stands.
struct Signal<'s> {
    source: Source,
    /// Header name or meta name as written.
    name: &'s str,
    index: i32,
    in_head: Option<bool>,
}

fn signal_row<'a>(ctx: &PageCtx<'a>, sig: &'a Signal<'a>) -> PageSignalRow<'a> {
    let mut r = row(ctx);
    r.source = Some(sig.source.as_str());
    r.name = Some(sig.name);
    r.signal_index = Some(sig.index);
    r.in_head = sig.in_head;
    r
}

/// Append the rows of one parsed value (one row per directive; one row with a NULL directive
/// when the value has none, so that the header or tag itself is never lost). The whole value
/// (`raw_value`) is on the header's or tag's first row only.
fn emit_value(
    out: &mut SignalRows<'_>,
    ctx: &PageCtx<'_>,
    sig: &Signal<'_>,
    raw: &str,
    parsed: &ParsedValue,
) {
    let mut r = signal_row(ctx, sig);
    r.syntax = Some(parsed.syntax.as_str());
    r.value_truncated = Some(parsed.truncated);
    r.raw_value = Some(raw);
    if parsed.directives.is_empty() {
        r.agent = Some("*");
        out.push(&r);
        return;
    }
    for d in &parsed.directives {
        r.agent = Some(&d.agent);
        r.directive = d.directive;
        r.directive_value = d.value.as_deref();
        r.directive_raw = Some(&d.raw);
        if !out.push(&r) {
            return;
        }
        r.raw_value = None;
    }
}

/// A TDM Reservation Protocol value (`tdm-reservation: 1`, `tdm-policy: <url>`).
fn emit_tdm(
    out: &mut SignalRows<'_>,
    ctx: &PageCtx<'_>,
    sig: &Signal<'_>,
    directive: &'static str,
    value: &str,
) {
    let mut r = signal_row(ctx, sig);
    r.agent = Some("*");
    r.directive = Some(directive);
    r.directive_value = Some(value.trim());
    r.directive_raw = Some(value);
    r.syntax = Some("tdmrep");
    r.value_truncated = Some(false);
    r.raw_value = Some(value);
    out.push(&r);
}

/// An AI usage preference value (`Content-Usage`, `Content-Signal`): one row per member, one
/// with a NULL directive when it has none.
fn emit_prefs(
    out: &mut SignalRows<'_>,
    ctx: &PageCtx<'_>,
    sig: &Signal<'_>,
    raw: &str,
    prefs: &Preferences,
    syntax: &'static str,
    vocabulary: Option<&'static str>,
) {
    let mut r = signal_row(ctx, sig);
    r.agent = Some("*");
    r.syntax = Some(syntax);
    r.vocabulary = vocabulary;
    r.value_truncated = Some(raw.len() >= crate::signals::value::PARSE_LIMIT);
    r.raw_value = Some(raw);
    if prefs.members.is_empty() {
        out.push(&r);
    }
    for m in &prefs.members {
        r.directive = Some(m.key);
        r.directive_value = m.value.as_deref();
        r.directive_raw = Some(&m.raw);
        if !out.push(&r) {
            return;
        }
        r.raw_value = None;
    }
}

/// The rows of a `Content-Usage` or `Content-Signal` value.
fn emit_ai_prefs(
    out: &mut SignalRows<'_>,
    ctx: &PageCtx<'_>,
    sig: &Signal<'_>,
    value: &[u8],
    usage: bool,
) {
    let value = &value[..value.len().min(crate::signals::value::PARSE_LIMIT)];
    let raw = raw_text(value);
    if usage {
        let prefs = ai_prefs::parse_content_usage(value);
        let syntax = if prefs.valid { "sfv" } else { "invalid" };
        emit_prefs(
            out,
            ctx,
            sig,
            &raw,
            &prefs,
            syntax,
            Some(ai_prefs::VOCABULARY),
        );
    } else {
        let prefs = ai_prefs::parse_content_signal(value);
        let syntax = if prefs.valid {
            "content_signal"
        } else {
            "invalid"
        };
        emit_prefs(out, ctx, sig, &raw, &prefs, syntax, None);
    }
}

/// Cut raw text for the `raw_value` column.
fn raw_text(v: &[u8]) -> String {
    let v = &v[..v.len().min(crate::signals::value::PARSE_LIMIT)];
    String::from_utf8_lossy(v).into_owned()
}

/// The TDMRep directive a header or meta name gives (any case).
fn tdm_name(name: &[u8]) -> Option<&'static str> {
    ["tdm-reservation", "tdm-policy"]
        .into_iter()
        .find(|t| name.eq_ignore_ascii_case(t.as_bytes()))
}

/// What a header name is as a signal: its `source` and the name without Common Crawl's
/// `X-Crawler-` prefix (a renamed copy is still the site's header); `None` for other headers.
pub fn signal_header(name: &[u8]) -> Option<(Source, &[u8])> {
    let bare = if name.len() > 10 && name[..10].eq_ignore_ascii_case(b"x-crawler-") {
        &name[10..]
    } else {
        name
    };
    let source = if bare.eq_ignore_ascii_case(b"x-robots-tag") {
        Source::XRobotsTag
    } else if bare.eq_ignore_ascii_case(b"robots-tag") {
        Source::RobotsTag
    } else if bare.eq_ignore_ascii_case(b"tdm-reservation")
        || bare.eq_ignore_ascii_case(b"tdm-policy")
    {
        Source::TdmHeader
    } else if bare.eq_ignore_ascii_case(b"content-usage") {
        Source::ContentUsage
    } else if bare.eq_ignore_ascii_case(b"content-signal") {
        Source::ContentSignal
    } else {
        return None;
    };
    Some((source, bare))
}

/// The headers of a response.
pub fn headers(out: &mut SignalRows<'_>, ctx: &PageCtx<'_>, head: &HttpHead<'_>) -> Carried {
    let mut c = Carried::default();
    let mut index = 0i32;
    for (name, value) in head.fields() {
        let Some((source, bare)) = signal_header(name) else {
            continue;
        };
        let name_s = String::from_utf8_lossy(name);
        let raw = raw_text(trim(value));
        if source == Source::ContentUsage {
            // A Structured Field's lines are one field (RFC 9651 §4.2): parsed once, combined,
            // at the first line; the later lines add no rows of their own.
            if let Some(field) = combined_field(head, bare, index) {
                let sig = Signal {
                    source,
                    name: &name_s,
                    index,
                    in_head: None,
                };
                emit_ai_prefs(out, ctx, &sig, &field, true);
                c.ai_prefs = true;
            }
        } else if source == Source::ContentSignal {
            let sig = Signal {
                source,
                name: &name_s,
                index,
                in_head: None,
            };
            emit_ai_prefs(out, ctx, &sig, trim(value), false);
            c.ai_prefs = true;
        } else if source == Source::TdmHeader {
            let d = tdm_name(bare).unwrap_or("tdm-reservation");
            let sig = Signal {
                source,
                name: &name_s,
                index,
                in_head: None,
            };
            emit_tdm(out, ctx, &sig, d, &raw);
            c.tdm = true;
        } else {
            let parsed = parse_header_value(trim(value));
            let sig = Signal {
                source,
                name: &name_s,
                index,
                in_head: None,
            };
            emit_value(out, ctx, &sig, &raw, &parsed);
            c.header = true;
            c.robots_tag |= source == Source::RobotsTag;
        }
        index += 1;
    }
    c.signals = index;
    c
}

/// The value of the field whose line is the `at`-th signal header of `head` and whose name,
/// without Common Crawl's `X-Crawler-` prefix, is `bare`: its lines' values joined by `, `, as
/// RFC 9651 §4.2 combines a Structured Field's lines before parsing. `None` at a line after the
/// field's first.
fn combined_field(head: &HttpHead<'_>, bare: &[u8], at: i32) -> Option<Vec<u8>> {
    let mut index = 0;
    let mut field: Option<Vec<u8>> = None;
    for (name, value) in head.fields() {
        let Some((_, b)) = signal_header(name) else {
            continue;
        };
        if b.eq_ignore_ascii_case(bare) {
            match &mut field {
                None if index < at => return None,
                None => field = Some(trim(value).to_vec()),
                Some(f) => {
                    f.extend_from_slice(b", ");
                    f.extend_from_slice(trim(value));
                }
            }
        }
        index += 1;
    }
    field
}

/// Scan an HTML body's head; true when some meta tag may be a signal (then call [`meta_tags`]).
pub fn scan_head(bufs: &mut SignalBuffers, names: &MetaNames, body: &[u8]) -> bool {
    bufs.scanner.scan(body);
    let s = &bufs.scanner;
    s.tags.iter().any(|t| {
        let n = trim(s.text(&t.name));
        n.len() <= 64 && {
            bufs.lower.clear();
            bufs.lower.push_str(&String::from_utf8_lossy(n));
            bufs.lower.make_ascii_lowercase();
            names.candidate(&bufs.lower)
        }
    })
}

/// Whether the last scanned head ran past the scan limit.
pub fn head_limit_hit(bufs: &SignalBuffers) -> bool {
    bufs.scanner.limit_hit
}

/// Where the head of an HTML page probably ends, by a glance at the bytes (no tokenizing): the
/// first `</head`, or start tag that cannot stand in a head, whatever its context. Only a
/// hint of how much of a page to read before scanning it; `None` when there is none.
pub fn head_end_hint(body: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'<', body).find(|&i| {
        let rest = &body[i + 1..];
        if rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b"/head") {
            return true;
        }
        let name_len = rest
            .iter()
            .take(16)
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if name_len == 0 || !rest[0].is_ascii_alphabetic() {
            return false;
        }
        let mut name = [0u8; 16];
        name[..name_len].copy_from_slice(&rest[..name_len]);
        name.make_ascii_lowercase();
        !crate::signals::meta::is_head_tag(&name[..name_len])
    })
}

/// Whether the last head scan came to the end of the bytes it was given (see
/// [`HeadScanner::reached_end`]).
pub fn head_scan_reached_end(bufs: &SignalBuffers) -> bool {
    bufs.scanner.reached_end
}

/// The meta tags of the head [`scan_head`] scanned, as rows.
pub fn meta_tags(
    out: &mut SignalRows<'_>,
    ctx: &PageCtx<'_>,
    bufs: &mut SignalBuffers,
    names: &MetaNames,
    first_index: i32,
) -> Carried {
    let mut c = Carried::default();
    let SignalBuffers { scanner: s, lower } = bufs;
    let mut index = first_index;
    for t in &s.tags {
        let name = trim(s.text(&t.name));
        let content = t.content.as_ref().map(|r| s.text(r)).unwrap_or_default();
        lower.clear();
        lower.push_str(&String::from_utf8_lossy(name));
        lower.make_ascii_lowercase();
        let lower = lower.as_str();
        if !names.candidate(lower) {
            continue;
        }
        let name_s = String::from_utf8_lossy(name);
        let sig = Signal {
            source: Source::Meta,
            name: &name_s,
            index,
            in_head: Some(t.in_head),
        };
        match t.attr {
            MetaAttr::HttpEquiv => {
                if lower == "x-robots-tag" || lower == "robots-tag" {
                    let parsed = parse_header_value(content);
                    emit_value(out, ctx, &sig, &raw_text(content), &parsed);
                    c.meta |= t.in_head;
                    index += 1;
                } else if let Some(d) = tdm_name(lower.as_bytes()) {
                    emit_tdm(out, ctx, &sig, d, &raw_text(content));
                    c.tdm = true;
                    index += 1;
                }
            }
            MetaAttr::Name => {
                if lower == "content-signal" {
                    emit_ai_prefs(out, ctx, &sig, content, false);
                    c.ai_prefs = true;
                    index += 1;
                    continue;
                }
                if let Some(d) = tdm_name(lower.as_bytes()) {
                    emit_tdm(out, ctx, &sig, d, &raw_text(content));
                    c.tdm = true;
                    index += 1;
                    continue;
                }
                let agent = if lower == "robots" { "*" } else { lower };
                let parsed = parse_meta_content(content, agent);
                if agent != "*" && !names.is_crawler(lower, &parsed) {
                    continue;
                }
                emit_value(out, ctx, &sig, &raw_text(content), &parsed);
                c.meta |= t.in_head;
                index += 1;
            }
        }
    }
    c.signals = index - first_index;
    c
}

/// Decode at most [`HEAD_SCAN_LIMIT`] bytes of an HTML body for head scanning.
pub fn html_prefix<'b>(
    decoder: &'b mut BodyDecoder,
    head: &HttpHead<'_>,
    block: &'b [u8],
) -> (&'b [u8], Option<(ErrorKind, String)>) {
    let (body, info) = decoder.decode_limited(head, block, HEAD_SCAN_LIMIT);
    (body, info.problem)
}

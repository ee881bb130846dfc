//! Responses to `page_signals` and `host_counts` rows.
//!
//! For every `response` record with an HTTP head: each `X-Robots-Tag`, `Robots-Tag`,
//! `tdm-reservation` and `tdm-policy` header (any case; repeated headers each kept, Common
//! Crawl's `X-Crawler-` renamed copies too), and for HTML responses the robots meta tags of the
//! head. See [`crate::signals`] for the parsing and docs/schema.md for the columns.

use crate::agents::Registry;
use crate::http::{BodyDecoder, HttpHead};
use crate::record::trim;
use crate::signals::meta::{HeadScanner, MetaAttr, HEAD_SCAN_LIMIT};
use crate::signals::{parse_header_value, parse_meta_content, ParsedValue};
use crate::tables::{AppendRow, HostCountRow, PageSignalRow, PageSignalsBuilder, TableBuilder};
use hashbrown::HashTable;
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
            "robots" | "x-robots-tag" | "robots-tag" | "tdm-reservation" | "tdm-policy"
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
    /// How many headers or meta tags gave rows.
    pub signals: i32,
}

/// Worker-owned buffers for page signals.
#[derive(Default)]
pub struct SignalBuffers {
    scanner: HeadScanner,
    lower: String,
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
    /// `x_robots_tag`, `robots_tag`, `tdm_header`, `meta`.
    source: &'static str,
    /// Header name or meta name as written.
    name: &'s str,
    index: i32,
    in_head: Option<bool>,
}

fn signal_row<'a>(ctx: &PageCtx<'a>, sig: &'a Signal<'a>) -> PageSignalRow<'a> {
    let mut r = row(ctx);
    r.source = Some(sig.source);
    r.name = Some(sig.name);
    r.signal_index = Some(sig.index);
    r.in_head = sig.in_head;
    r
}

/// Append the rows of one parsed value (one row per directive; one row with a NULL directive
/// when the value has none, so that the header or tag itself is never lost).
fn emit_value(
    out: &mut PageSignalsBuilder,
    ctx: &PageCtx<'_>,
    sig: &Signal<'_>,
    raw: &str,
    parsed: &ParsedValue,
) -> usize {
    let mut r = signal_row(ctx, sig);
    r.syntax = Some(parsed.syntax.as_str());
    r.value_truncated = Some(parsed.truncated);
    r.raw_value = Some(raw);
    if parsed.directives.is_empty() {
        r.agent = Some("*");
        out.append(&r);
        return 1;
    }
    for d in &parsed.directives {
        r.agent = Some(&d.agent);
        r.directive = d.directive;
        r.directive_value = d.value.as_deref();
        r.directive_raw = Some(&d.raw);
        out.append(&r);
    }
    parsed.directives.len()
}

/// A TDM Reservation Protocol value (`tdm-reservation: 1`, `tdm-policy: <url>`).
fn emit_tdm(
    out: &mut PageSignalsBuilder,
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
    out.append(&r);
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
pub fn signal_header(name: &[u8]) -> Option<(&'static str, &[u8])> {
    let bare = if name.len() > 10 && name[..10].eq_ignore_ascii_case(b"x-crawler-") {
        &name[10..]
    } else {
        name
    };
    let source = if bare.eq_ignore_ascii_case(b"x-robots-tag") {
        "x_robots_tag"
    } else if bare.eq_ignore_ascii_case(b"robots-tag") {
        "robots_tag"
    } else if bare.eq_ignore_ascii_case(b"tdm-reservation")
        || bare.eq_ignore_ascii_case(b"tdm-policy")
    {
        "tdm_header"
    } else {
        return None;
    };
    Some((source, bare))
}

/// The headers of a response.
pub fn headers(out: &mut PageSignalsBuilder, ctx: &PageCtx<'_>, head: &HttpHead<'_>) -> Carried {
    let mut c = Carried::default();
    let mut index = 0i32;
    for (name, value) in head.fields() {
        let Some((source, bare)) = signal_header(name) else {
            continue;
        };
        let name_s = String::from_utf8_lossy(name);
        let raw = raw_text(trim(value));
        if source == "tdm_header" {
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
            c.robots_tag |= source == "robots_tag";
        }
        index += 1;
    }
    c.signals = index;
    c
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
    out: &mut PageSignalsBuilder,
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
            source: "meta",
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
) -> (&'b [u8], Option<(&'static str, String)>) {
    let (body, info) = decoder.decode_limited(head, block, HEAD_SCAN_LIMIT);
    (body, info.problem)
}

/// Counts of one (host, status class, html) cell.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub responses: u64,
    pub with_meta: u64,
    pub with_header: u64,
    pub with_both: u64,
    pub with_robots_tag: u64,
    pub with_tdm: u64,
}

impl Cell {
    /// The six counts, in column order (the scratch runs store them so).
    fn counts(&self) -> [u64; 6] {
        [
            self.responses,
            self.with_meta,
            self.with_header,
            self.with_both,
            self.with_robots_tag,
            self.with_tdm,
        ]
    }

    fn from_counts(c: [u64; 6]) -> Cell {
        let [responses, with_meta, with_header, with_both, with_robots_tag, with_tdm] = c;
        Cell {
            responses,
            with_meta,
            with_header,
            with_both,
            with_robots_tag,
            with_tdm,
        }
    }
}

/// Add a host's cells to another's.
fn add_cells(mine: &mut [[Cell; 2]; 5], other: &[[Cell; 2]; 5]) {
    for (m, o) in mine.as_flattened_mut().iter_mut().zip(other.as_flattened()) {
        let (a, b) = (m.counts(), o.counts());
        *m = Cell::from_counts(std::array::from_fn(|i| a[i] + b[i]));
    }
}

const STATUS_CLASSES: [&str; 5] = ["2xx", "3xx", "4xx", "5xx", "other"];

fn status_class(status: Option<i32>) -> usize {
    match status {
        Some(200..=299) => 0,
        Some(300..=399) => 1,
        Some(400..=499) => 2,
        Some(500..=599) => 3,
        _ => 4,
    }
}

/// Per-host counts of one chunk or input.
#[derive(Debug, Default)]
pub struct HostCounts {
    /// Index of each host's entry by the hash of its name. The entries (and the names, stored
    /// once) live in a vector beside it: the table's entries stay small, so growing it (one
    /// entry per host: every capture of a robots.txt archive is a new host) moves little.
    index: HashTable<u32>,
    hosts: Vec<HostEntry>,
}

#[derive(Debug)]
struct HostEntry {
    host: Box<str>,
    /// Found when a chunk first sees the host (in the workers, not when the input ends).
    registered_domain: Option<Box<str>>,
    cells: [[Cell; 2]; 5],
}

fn host_hash(host: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(host)
}

/// The registered domain of a host key (none for an IP address or no host).
fn registered_domain(host: &str) -> Option<Box<str>> {
    if host.is_empty() || host.parse::<std::net::IpAddr>().is_ok() {
        return None;
    }
    psl::domain_str(host).map(|d| d.to_ascii_lowercase().into())
}

impl HostCounts {
    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }

    fn find(&self, host: &str, hash: u64) -> Option<u32> {
        let hosts = &self.hosts;
        let i = self.index.find(hash, |&i| &*hosts[i as usize].host == host);
        i.copied()
    }

    fn cells_of(&mut self, host: &str) -> &mut [[Cell; 2]; 5] {
        let h = host_hash(host);
        let i = match self.find(host, h) {
            Some(i) => i,
            None => self.insert(host.into(), registered_domain(host), h),
        };
        &mut self.hosts[i as usize].cells
    }

    fn insert(&mut self, host: Box<str>, registered_domain: Option<Box<str>>, hash: u64) -> u32 {
        let i = self.hosts.len() as u32;
        self.hosts.push(HostEntry {
            host,
            registered_domain,
            cells: Default::default(),
        });
        let hosts = &self.hosts;
        self.index
            .insert_unique(hash, i, |&j| host_hash(&hosts[j as usize].host));
        i
    }

    pub fn add(&mut self, host: &str, status: Option<i32>, html: bool, c: Carried) {
        let cells = self.cells_of(host);
        let cell = &mut cells[status_class(status)][usize::from(html)];
        cell.responses += 1;
        cell.with_meta += u64::from(c.meta);
        cell.with_header += u64::from(c.header);
        cell.with_both += u64::from(c.meta && c.header);
        cell.with_robots_tag += u64::from(c.robots_tag);
        cell.with_tdm += u64::from(c.tdm);
    }

    pub fn merge(&mut self, other: HostCounts) {
        for e in other.hosts {
            let h = host_hash(&e.host);
            let i = match self.find(&e.host, h) {
                Some(i) => i,
                None => self.insert(e.host, e.registered_domain, h),
            };
            add_cells(&mut self.hosts[i as usize].cells, &e.cells);
        }
    }

    pub fn len(&self) -> usize {
        self.hosts.len()
    }

    /// The entries' indexes, hosts sorted (by their bytes).
    fn sorted(&self) -> Vec<u32> {
        // Sort by the first 16 bytes (kept in the sort key) before comparing whole names:
        // comparing the scattered strings themselves was most of the sort's time.
        let prefix = |h: &str| {
            let mut k = [0u8; 16];
            let n = h.len().min(16);
            k[..n].copy_from_slice(&h.as_bytes()[..n]);
            u128::from_be_bytes(k)
        };
        let mut order: Vec<(u128, u32)> = self
            .hosts
            .iter()
            .enumerate()
            .map(|(i, e)| (prefix(&e.host), i as u32))
            .collect();
        order.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| {
                self.hosts[a.1 as usize]
                    .host
                    .cmp(&self.hosts[b.1 as usize].host)
            })
        });
        order.into_iter().map(|(_, i)| i).collect()
    }

    /// The hosts' rows, hosts sorted, handed to `out` in batches of up to 2^20 rows (`flush`
    /// takes each full batch; the caller writes the last).
    pub fn emit<B, E>(
        &self,
        out: &mut B,
        warc_file: &str,
        mut flush: impl FnMut(&mut B) -> Result<(), E>,
    ) -> Result<(), E>
    where
        B: TableBuilder + for<'x> AppendRow<HostCountRow<'x>>,
    {
        for i in self.sorted() {
            let e = &self.hosts[i as usize];
            append_host_rows(
                out,
                warc_file,
                &e.host,
                e.registered_domain.as_deref(),
                &e.cells,
                &mut flush,
            )?;
        }
        Ok(())
    }

    /// Write the entries, hosts sorted, as a run ([`HostTotals`]) and forget them.
    fn spill(&mut self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        for i in self.sorted() {
            let e = &self.hosts[i as usize];
            write_run_entry(w, &e.host, e.registered_domain.as_deref(), &e.cells)?;
        }
        *self = HostCounts::default();
        Ok(())
    }
}

/// Append the rows of one host (one per cell with responses), flushing full batches first.
fn append_host_rows<B, E>(
    out: &mut B,
    warc_file: &str,
    host: &str,
    rd: Option<&str>,
    cells: &[[Cell; 2]; 5],
    flush: &mut impl FnMut(&mut B) -> Result<(), E>,
) -> Result<(), E>
where
    B: TableBuilder + for<'x> AppendRow<HostCountRow<'x>>,
{
    if out.len() >= 1 << 20 {
        flush(out)?;
    }
    for (class, pair) in cells.iter().enumerate() {
        for (html, cell) in pair.iter().enumerate() {
            if cell.responses == 0 {
                continue;
            }
            let n = |v: u64| Some(v as i64);
            out.append_row(&HostCountRow {
                warc_file: Some(warc_file),
                host: (!host.is_empty()).then_some(host),
                registered_domain: rd,
                status_class: Some(STATUS_CLASSES[class]),
                html: Some(html == 1),
                responses: n(cell.responses),
                with_meta: n(cell.with_meta),
                with_header: n(cell.with_header),
                with_both: n(cell.with_both),
                with_robots_tag: n(cell.with_robots_tag),
                with_tdm: n(cell.with_tdm),
            });
        }
    }
    Ok(())
}

/// Hosts held in memory per input before they are spilled to a run on disk. An entry takes
/// about 600 bytes, so this keeps an input's counts near 80 MB however many hosts it has (every
/// capture of a robots.txt archive is a new host: 820k in a 1 GiB one).
pub const HOST_SPILL_DEFAULT: usize = 1 << 17;

/// The per-host counts of one input: merged from its chunks in memory, and once they hold more
/// than `spill_at` hosts, written out as sorted runs (scratch files) and merged back when the
/// input ends. The rows are the same, in the same order, with or without runs.
pub struct HostTotals {
    mem: HostCounts,
    runs: Vec<std::path::PathBuf>,
    spill_at: usize,
}

impl Default for HostTotals {
    fn default() -> Self {
        HostTotals::new(HOST_SPILL_DEFAULT)
    }
}

impl HostTotals {
    pub fn new(spill_at: usize) -> Self {
        HostTotals {
            mem: HostCounts::default(),
            runs: Vec::new(),
            spill_at: spill_at.max(1),
        }
    }

    /// Runs written so far.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Add a chunk's counts; past the limit, spill to a new run at `scratch(n)` (n: the run's
    /// number).
    pub fn merge(
        &mut self,
        chunk: HostCounts,
        scratch: impl FnOnce(usize) -> std::path::PathBuf,
    ) -> std::io::Result<()> {
        self.mem.merge(chunk);
        if self.mem.len() > self.spill_at {
            self.spill(scratch(self.runs.len()))?;
        }
        Ok(())
    }

    fn spill(&mut self, path: std::path::PathBuf) -> std::io::Result<()> {
        let file = std::fs::File::create(&path)?;
        // Recorded before writing, so a failed run is still removed.
        self.runs.push(path);
        let mut w = std::io::BufWriter::with_capacity(1 << 16, file);
        self.mem.spill(&mut w)?;
        std::io::Write::flush(&mut w)
    }

    /// The rows of every host, hosts sorted, as [`HostCounts::emit`] gives them; the runs are
    /// merged (equal hosts summed) and removed.
    pub fn emit<B, E>(
        mut self,
        out: &mut B,
        warc_file: &str,
        scratch: impl FnOnce(usize) -> std::path::PathBuf,
        mut flush: impl FnMut(&mut B) -> Result<(), E>,
    ) -> Result<(), E>
    where
        B: TableBuilder + for<'x> AppendRow<HostCountRow<'x>>,
        E: From<std::io::Error>,
    {
        if self.runs.is_empty() {
            return self.mem.emit(out, warc_file, flush);
        }
        if !self.mem.is_empty() {
            self.spill(scratch(self.runs.len()))?;
        }
        let mut readers = Vec::with_capacity(self.runs.len());
        for path in &self.runs {
            let mut r = RunReader {
                r: std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?),
                entry: RunEntry::default(),
            };
            if r.next()? {
                readers.push(r);
            }
        }
        // Min-heap of the runs by their current host (then run number: equal hosts are summed).
        // The host moves into the heap and back out into the entry: no copy per host.
        let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(String, usize)>> = readers
            .iter_mut()
            .enumerate()
            .map(|(i, r)| std::cmp::Reverse((std::mem::take(&mut r.entry.host), i)))
            .collect();
        let mut put = |e: &RunEntry| {
            append_host_rows(
                out,
                warc_file,
                &e.host,
                e.rd.as_deref(),
                &e.cells,
                &mut flush,
            )
        };
        let mut cur: Option<RunEntry> = None;
        while let Some(std::cmp::Reverse((host, i))) = heap.pop() {
            let r = &mut readers[i];
            match &mut cur {
                Some(c) if c.host == host => add_cells(&mut c.cells, &r.entry.cells),
                _ => {
                    if let Some(done) = cur.take() {
                        put(&done)?;
                    }
                    cur = Some(RunEntry {
                        host,
                        ..std::mem::take(&mut r.entry)
                    });
                }
            }
            if r.next()? {
                heap.push(std::cmp::Reverse((std::mem::take(&mut r.entry.host), i)));
            }
        }
        if let Some(done) = cur {
            put(&done)?;
        }
        Ok(())
    }
}

impl Drop for HostTotals {
    fn drop(&mut self) {
        for path in &self.runs {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// One host of a run: the host, its registered domain, then a bit per non-empty cell and those
/// cells' six counts (lengths and counts little-endian; a scratch format, read back only here).
fn write_run_entry(
    w: &mut impl std::io::Write,
    host: &str,
    rd: Option<&str>,
    cells: &[[Cell; 2]; 5],
) -> std::io::Result<()> {
    w.write_all(&(host.len() as u32).to_le_bytes())?;
    w.write_all(host.as_bytes())?;
    match rd {
        Some(rd) => {
            w.write_all(&(rd.len() as u32).to_le_bytes())?;
            w.write_all(rd.as_bytes())?;
        }
        None => w.write_all(&u32::MAX.to_le_bytes())?,
    }
    let cells = cells.as_flattened();
    let mask = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != Cell::default())
        .fold(0u16, |m, (i, _)| m | 1 << i);
    w.write_all(&mask.to_le_bytes())?;
    for c in cells.iter().filter(|c| **c != Cell::default()) {
        for v in c.counts() {
            w.write_all(&v.to_le_bytes())?;
        }
    }
    Ok(())
}

#[derive(Default)]
struct RunEntry {
    host: String,
    rd: Option<String>,
    cells: [[Cell; 2]; 5],
}

struct RunReader {
    r: std::io::BufReader<std::fs::File>,
    entry: RunEntry,
}

impl RunReader {
    /// Read the next entry into `entry`; false at the end of the run.
    fn next(&mut self) -> std::io::Result<bool> {
        use std::io::{Error, ErrorKind, Read};
        let mut len = [0u8; 4];
        match self.r.read_exact(&mut len) {
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(false),
            r => r?,
        }
        let string = |n: u32, r: &mut std::io::BufReader<std::fs::File>| {
            let mut b = vec![0u8; n as usize];
            r.read_exact(&mut b)?;
            String::from_utf8(b).map_err(|e| Error::new(ErrorKind::InvalidData, e))
        };
        self.entry.host = string(u32::from_le_bytes(len), &mut self.r)?;
        self.r.read_exact(&mut len)?;
        let n = u32::from_le_bytes(len);
        self.entry.rd = if n == u32::MAX {
            None
        } else {
            Some(string(n, &mut self.r)?)
        };
        let mut mask = [0u8; 2];
        self.r.read_exact(&mut mask)?;
        let mask = u16::from_le_bytes(mask);
        let mut v = [0u8; 8];
        let mut next = |r: &mut std::io::BufReader<std::fs::File>| -> std::io::Result<u64> {
            r.read_exact(&mut v)?;
            Ok(u64::from_le_bytes(v))
        };
        for (i, c) in self.entry.cells.as_flattened_mut().iter_mut().enumerate() {
            let mut counts = [0u64; 6];
            if mask & 1 << i != 0 {
                for v in &mut counts {
                    *v = next(&mut self.r)?;
                }
            }
            *c = Cell::from_counts(counts);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::HostCountsArrow;

    /// Chunks of counts with hosts repeated across chunks (and some in none but one).
    fn chunks() -> Vec<HostCounts> {
        let hosts = [
            "example.com",
            "www.example.com",
            "a.example.org",
            "",
            "192.0.2.1",
            "b.example.co.uk",
            "example.com.",
            "z",
            "www.example.com.au",
            "a-very-long-host-name-past-sixteen-bytes.example",
            "a-very-long-host-name-past-sixteen-bytes.example.net",
        ];
        (0..7)
            .map(|c| {
                let mut hc = HostCounts::default();
                for (i, h) in hosts.iter().enumerate() {
                    if (i + c) % 3 == 0 {
                        continue;
                    }
                    let status = [Some(200), Some(404), None, Some(301), Some(503)][(i * c) % 5];
                    let carried = Carried {
                        meta: (i + c) % 2 == 0,
                        header: i % 3 == 1,
                        robots_tag: c == 2,
                        tdm: i == 4,
                        signals: 0,
                    };
                    hc.add(h, status, (i + c) % 4 != 0, carried);
                }
                hc
            })
            .collect()
    }

    fn no_flush(_: &mut HostCountsArrow) -> Result<(), std::io::Error> {
        Ok(())
    }

    #[test]
    fn spilled_runs_give_the_rows_of_memory() {
        let mut all = HostCounts::default();
        for c in chunks() {
            all.merge(c);
        }
        let mut want = HostCountsArrow::default();
        all.emit(&mut want, "f.warc.gz", no_flush).unwrap();
        let want = want.finish("c");
        assert!(want.num_rows() > 20);

        let dir = std::env::temp_dir().join(format!("repcensus-hosts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for spill_at in [1, 2, 5, 100] {
            let mut totals = HostTotals::new(spill_at);
            let path = |n: usize| dir.join(format!("s{spill_at}-{n}.run"));
            for c in chunks() {
                totals.merge(c, path).unwrap();
            }
            let runs = totals.runs();
            assert_eq!(runs > 0, spill_at < 11, "spill_at {spill_at}: {runs} runs");
            let mut got = HostCountsArrow::default();
            totals.emit(&mut got, "f.warc.gz", path, no_flush).unwrap();
            assert_eq!(got.finish("c"), want, "spill_at {spill_at}");
        }
        // The runs are removed once emitted.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir(&dir).unwrap();
    }
}

//! Records to rows: the extractors.
//!
//! An [`Extractor`] is the [`Sink`] the framer feeds. For each record it counts the record type,
//! remembers the crawl name from `warcinfo`, decides from the headers alone whether any extractor
//! wants the body, and only then decodes it. Rows go into the chunk's table builders; problems go
//! into its `errors` builder. Nothing here panics on input.

use crate::agents::Registry;
use crate::archive::http::{self, BodyDecoder, HttpHead};
use crate::archive::problem::{ErrorKind, ReadError, Scope};
use crate::archive::reader::{Need, Record, Sink};
use crate::archive::record::{self, strip_angle, trim, unfold};
use crate::robots::RobotsTxt;
use crate::rows::body_facts::BodyFacts;
use crate::rows::fetch::FetchOutcome;
use crate::rows::host_counts::HostCounts;
use crate::rows::page_signals::{self, MetaNames, PageCtx, SignalBuffers};
use crate::rows::robots_txt::{self, Provenance, RobotsLineTables, Scratch};
use crate::rows::verdicts::Verdicts;
use crate::signals::meta::HEAD_SCAN_LIMIT;
use crate::tables::{
    AgentVerdictsBuilder, ErrorRow, ErrorsBuilder, PageSignalsBuilder, RobotsFileRow,
    RobotsFilesBuilder, Table, TableSelection,
};

/// Counts of records by WARC-Type.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RecordCounts {
    pub total: u64,
    pub warcinfo: u64,
    pub response: u64,
    pub resource: u64,
    pub request: u64,
    pub metadata: u64,
    pub revisit: u64,
    pub conversion: u64,
    pub continuation: u64,
    pub other: u64,
    /// `metadata` records holding JSON (the WAT flavour).
    pub json_metadata: u64,
    /// Records whose version is not one we know.
    pub unknown_version: u64,
    /// Records read from ARC files.
    pub arc: u64,
}

impl RecordCounts {
    pub fn add(&mut self, o: &RecordCounts) {
        self.total += o.total;
        self.warcinfo += o.warcinfo;
        self.response += o.response;
        self.resource += o.resource;
        self.request += o.request;
        self.metadata += o.metadata;
        self.revisit += o.revisit;
        self.conversion += o.conversion;
        self.continuation += o.continuation;
        self.other += o.other;
        self.json_metadata += o.json_metadata;
        self.unknown_version += o.unknown_version;
        self.arc += o.arc;
    }
}

/// What a chunk of an input produced.
#[derive(Default)]
pub struct ChunkOutput {
    pub robots_files: RobotsFilesBuilder,
    /// Rows of `robots_agents`, `robots_rules` and `app_directives`.
    pub robots_lines: RobotsLineTables,
    /// Rows of `agent_verdicts`.
    pub agent_verdicts: AgentVerdictsBuilder,
    /// Rows of `page_signals`.
    pub page_signals: PageSignalsBuilder,
    /// Per-host response counts (rows of `host_counts` once merged over the input).
    pub host_counts: HostCounts,
    pub errors: ErrorsBuilder,
    pub n_errors: u64,
    /// `errors` rows by kind.
    pub error_kinds: std::collections::BTreeMap<ErrorKind, u64>,
    pub counts: RecordCounts,
    /// `isPartOf` of the first warcinfo record of the chunk.
    pub crawl_hint: Option<String>,
    /// Reading the chunk failed outright (an internal error); the input is then marked failed.
    pub failure: Option<String>,
}

impl ChunkOutput {
    /// The output of a chunk whose reading failed: no rows, one `errors` row.
    pub fn failed(warc_file: &str, kind: ErrorKind, detail: &str) -> Self {
        let mut out = ChunkOutput::default();
        out.errors.append(&ErrorRow {
            scope: Some(Scope::Input.as_str()),
            kind: Some(kind.as_str()),
            detail: Some(detail),
            warc_file: Some(warc_file),
            ..ErrorRow::default()
        });
        out.n_errors = 1;
        out.error_kinds.insert(kind, 1);
        out.failure = Some(detail.to_string());
        out
    }
}

/// Worker-owned state reused across chunks.
#[derive(Default)]
pub struct ExtractBuffers {
    body: BodyDecoder,
    scratch: Scratch,
    verdicts: Verdicts,
    signals: SignalBuffers,
    /// Built from the registry on first use.
    meta_names: Option<MetaNames>,
    /// The head scan [`Sink::block_needed`] ran on a block prefix, for [`Sink::record`] of the
    /// same block to reuse.
    prescan: Option<Prescan>,
}

/// A head scan done while deciding how much of a block to read: the body it scanned (by
/// address and length of the block prefix) and whether some meta tag may be a signal.
struct Prescan {
    block: (usize, usize),
    candidates: bool,
}

impl Prescan {
    fn key(block: &[u8]) -> (usize, usize) {
        (block.as_ptr() as usize, block.len())
    }
}

/// How far past the likely end of a head a body prefix must reach before it is scanned: the
/// window in which later meta tags are still collected, and some slack.
const HEAD_HINT_MARGIN: usize = crate::signals::meta::AFTER_HEAD_WINDOW + 2048;

/// Whether a raw target URI may parse to a robots.txt URL ([`is_robots_url`]): the URL parser
/// drops tabs and line breaks but decodes nothing in the path, so `robots` must stand in it.
fn may_be_robots_url(uri: &[u8]) -> bool {
    // Built once: `memmem::find` builds a searcher per call, and this runs for every record.
    static ROBOTS: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"robots"));
    ROBOTS.find(uri).is_some() || memchr::memchr3(b'\t', b'\n', b'\r', uri).is_some()
}

/// The sink that turns records into rows for one chunk.
pub struct Extractor<'w> {
    pub out: ChunkOutput,
    bufs: &'w mut ExtractBuffers,
    warc_file: &'w str,
    registry: &'w Registry,
    tables: TableSelection,
}

impl<'w> Extractor<'w> {
    pub fn new(warc_file: &'w str, bufs: &'w mut ExtractBuffers, registry: &'w Registry) -> Self {
        Extractor {
            out: ChunkOutput::default(),
            bufs,
            warc_file,
            registry,
            tables: TableSelection::all(),
        }
    }

    /// Produce only what `tables` need (by default, every table).
    pub fn with_tables(mut self, tables: TableSelection) -> Self {
        self.tables = tables;
        self
    }

    pub fn into_output(self) -> ChunkOutput {
        self.out
    }

    fn push_error(
        &mut self,
        scope: Scope,
        kind: ErrorKind,
        detail: &str,
        offset: Option<u64>,
        id: Option<&str>,
        url: Option<&str>,
    ) {
        self.out.n_errors += 1;
        *self.out.error_kinds.entry(kind).or_default() += 1;
        self.out.errors.append(&ErrorRow {
            scope: Some(scope.as_str()),
            kind: Some(kind.as_str()),
            detail: Some(detail),
            warc_file: Some(self.warc_file),
            warc_offset: offset.map(|o| o as i64),
            warc_record_id: id,
            url,
        });
    }

    fn count(&mut self, rec: &Record<'_>) -> RecordType {
        let c = &mut self.out.counts;
        c.total += 1;
        if !rec.head.is_known_version() {
            c.unknown_version += 1;
        }
        if rec.head.dialect == Some(record::Dialect::Arc) {
            c.arc += 1;
        }
        let t = unfold(rec.head.warc_type);
        let ty = RecordType::from_bytes(&t);
        match ty {
            RecordType::Warcinfo => c.warcinfo += 1,
            RecordType::Response => c.response += 1,
            RecordType::Resource => c.resource += 1,
            RecordType::Request => c.request += 1,
            RecordType::Metadata => {
                c.metadata += 1;
                if trim(rec.head.content_type).starts_with(b"application/json") {
                    c.json_metadata += 1;
                }
            }
            RecordType::Revisit => c.revisit += 1,
            RecordType::Conversion => c.conversion += 1,
            RecordType::Continuation => c.continuation += 1,
            RecordType::Other => c.other += 1,
        }
        ty
    }

    fn warcinfo(&mut self, rec: &Record<'_>) {
        if self.out.crawl_hint.is_some() {
            return;
        }
        for line in rec.block.split(|&b| b == b'\n') {
            if let Some(colon) = memchr::memchr(b':', line) {
                if trim(&line[..colon]).eq_ignore_ascii_case(b"isPartOf") {
                    let v = trim(&line[colon + 1..]);
                    if !v.is_empty() {
                        self.out.crawl_hint = Some(String::from_utf8_lossy(v).into_owned());
                        return;
                    }
                }
            }
        }
    }

    fn robots_capture(&mut self, rec: &Record<'_>, ty: RecordType, uri: &str, parsed: &url::Url) {
        let record_id =
            String::from_utf8_lossy(strip_angle(unfold(rec.head.record_id).as_ref())).into_owned();
        let record_id = (!record_id.is_empty()).then_some(record_id);
        let host = parsed
            .host_str()
            .map(|h| h.trim_end_matches('.').to_ascii_lowercase());
        let registered_domain = match parsed.host() {
            Some(url::Host::Domain(d)) => {
                psl::domain_str(d.trim_end_matches('.')).map(str::to_ascii_lowercase)
            }
            _ => None,
        };
        let head = http::parse_response(rec.block);
        let mut row = RobotsFileRow {
            warc_file: Some(self.warc_file),
            warc_offset: Some(rec.offset as i64),
            warc_record_id: record_id.as_deref(),
            warc_type: Some(ty.as_str()),
            url: Some(uri),
            host: host.as_deref(),
            registered_domain: registered_domain.as_deref(),
            capture_time: record::parse_date_micros(&unfold(rec.head.date)),
            ..RobotsFileRow::default()
        };
        let warc_truncated = String::from_utf8_lossy(trim(rec.head.truncated)).into_owned();
        if !warc_truncated.is_empty() {
            row.warc_truncated = Some(&warc_truncated);
        }
        let (content_type, content_encoding, transfer_encoding, location);
        let mut body_problem: Option<(ErrorKind, String)> = None;
        let digest;
        let mut outcome: FetchOutcome;
        let mut parse_body: Option<&[u8]> = None;
        match (&head, ty) {
            (None, RecordType::Resource) => {
                content_type = media_type(rec.head.content_type);
                row.content_type = content_type.as_deref();
                let facts = BodyFacts::of(rec.block, rec.block_len, rec.block_truncated);
                outcome = facts.outcome_2xx();
                digest = facts.apply(&mut row);
                parse_body = Some(rec.block);
            }
            (None, _) => {
                outcome = FetchOutcome::NoHttpResponse;
                digest = String::new();
            }
            (Some(h), _) => {
                row.http_status = h.status.map(i32::from);
                content_type = h.header("content-type").and_then(media_type);
                row.content_type = content_type.as_deref();
                content_encoding = h
                    .header("content-encoding")
                    .or_else(|| h.header("x-crawler-content-encoding"))
                    .map(|v| String::from_utf8_lossy(trim(v)).to_ascii_lowercase());
                row.content_encoding = content_encoding.as_deref();
                transfer_encoding = h
                    .header("transfer-encoding")
                    .or_else(|| h.header("x-crawler-transfer-encoding"))
                    .map(|v| String::from_utf8_lossy(trim(v)).to_ascii_lowercase());
                row.transfer_encoding = transfer_encoding.as_deref();
                outcome = FetchOutcome::of_status(h.status);
                if (300..400).contains(&h.status.unwrap_or(0)) {
                    location = h
                        .header("location")
                        .map(|v| String::from_utf8_lossy(&unfold(v)).into_owned());
                    row.redirect_location = location.as_deref();
                }
                if ty == RecordType::Revisit {
                    outcome = FetchOutcome::Revisit;
                    digest = String::new();
                } else {
                    let (d, body) = decode_body(
                        &mut self.bufs.body,
                        rec,
                        h,
                        &mut row,
                        &mut outcome,
                        &mut body_problem,
                    );
                    digest = d;
                    parse_body = Some(body);
                }
            }
        }
        if !digest.is_empty() {
            row.body_digest = Some(&digest);
        }
        row.fetch_outcome = Some(outcome.as_str());
        let mut undetermined = false;
        // Parse what a crawler would parse: the body of a 2xx response (or of a resource record).
        if let Some(body) = parse_body.filter(|_| outcome.is_success()) {
            let parsed = RobotsTxt::parse(body);
            robots_txt::fill_summary(&mut row, &parsed);
            let prov = Provenance {
                warc_file: self.warc_file,
                warc_offset: rec.offset as i64,
                host: row.host,
            };
            if self.tables.robots_lines() {
                robots_txt::emit(
                    &mut self.out.robots_lines,
                    &prov,
                    &parsed,
                    &mut self.bufs.scratch,
                );
            }
            let acap = robots_txt::acap_of(&parsed);
            if let Some(a) = acap
                .as_ref()
                .filter(|_| self.tables.writes(Table::AcapFields))
            {
                robots_txt::emit_acap(&mut self.out.robots_lines.acap, &prov, &parsed, a);
            }
            robots_txt::fill_acap_summary(&mut row, acap.as_ref());
            if self.tables.writes(Table::AgentVerdicts)
                && self.bufs.verdicts.emit(
                    &mut self.out.agent_verdicts,
                    self.registry,
                    &row,
                    outcome,
                    Some(&parsed),
                )
            {
                undetermined = true;
            }
            if self.tables.writes(Table::RobotsFiles) {
                self.out.robots_files.append(&row);
            }
        } else {
            if self.tables.writes(Table::AgentVerdicts) {
                self.bufs.verdicts.emit(
                    &mut self.out.agent_verdicts,
                    self.registry,
                    &row,
                    outcome,
                    None,
                );
            }
            if self.tables.writes(Table::RobotsFiles) {
                self.out.robots_files.append(&row);
            }
        }
        if undetermined {
            self.push_error(
                Scope::Body,
                ErrorKind::VerdictUndetermined,
                "probing the rules spent its budget (verdicts::PROBE_BUDGET): some agent_verdicts \
                 rows of this capture are `undetermined`",
                Some(rec.offset),
                record_id.as_deref(),
                Some(uri),
            );
        }
        if let Some((kind, detail)) = body_problem {
            self.push_error(
                Scope::Body,
                kind,
                &detail,
                Some(rec.offset),
                record_id.as_deref(),
                Some(uri),
            );
        }
    }
}

impl Extractor<'_> {
    /// Page signals of a `response` record: robots headers, head meta tags, host counts.
    /// Page-level signals and host counts of a response. `robots_capture` says the record was
    /// already read as a robots.txt capture, which reported any body decoding problem.
    fn page(
        &mut self,
        rec: &Record<'_>,
        uri: &str,
        parsed: Option<&url::Url>,
        robots_capture: bool,
        prescan: Option<Prescan>,
    ) {
        let Some(h) = http::parse_response(rec.block) else {
            return;
        };
        let host = parsed.and_then(host_of);
        let host_key = host.as_deref().unwrap_or("");
        let status = h.status.map(i32::from);
        let (ct_raw, html) = http::response_media_type(&h);
        let has_header = h
            .fields()
            .any(|(n, _)| page_signals::signal_header(n).is_some());
        let names = self
            .bufs
            .meta_names
            .get_or_insert_with(|| MetaNames::new(self.registry));
        let mut body_problem = None;
        let mut meta_candidates = false;
        if html {
            let (body, problem) = page_signals::html_prefix(&mut self.bufs.body, &h, rec.block);
            body_problem = problem;
            meta_candidates = match prescan {
                Some(p) if p.block == Prescan::key(rec.block) => p.candidates,
                _ => page_signals::scan_head(&mut self.bufs.signals, names, body),
            };
        }
        let mut carried = page_signals::Carried::default();
        if has_header || meta_candidates {
            let content_type = ct_raw.map(|t| String::from_utf8_lossy(t).to_ascii_lowercase());
            let registered_domain = match parsed.and_then(|p| p.host()) {
                Some(url::Host::Domain(d)) => {
                    psl::domain_str(d.trim_end_matches('.')).map(str::to_ascii_lowercase)
                }
                _ => None,
            };
            let ctx = PageCtx {
                warc_file: self.warc_file,
                warc_offset: rec.offset as i64,
                url: uri,
                host: host.as_deref(),
                registered_domain: registered_domain.as_deref(),
                capture_time: record::parse_date_micros(&unfold(rec.head.date)),
                http_status: status,
                content_type: content_type.as_deref(),
            };
            let mut next_index = 0;
            if has_header {
                carried = page_signals::headers(&mut self.out.page_signals, &ctx, &h);
                next_index = carried.signals;
            }
            if meta_candidates {
                let m = page_signals::meta_tags(
                    &mut self.out.page_signals,
                    &ctx,
                    &mut self.bufs.signals,
                    self.bufs.meta_names.as_ref().expect("set above"),
                    next_index,
                );
                carried.meta = m.meta;
                carried.tdm |= m.tdm;
            }
        }
        if self.tables.writes(Table::HostCounts) {
            self.out.host_counts.add(host_key, status, html, carried);
        }
        if html && page_signals::head_limit_hit(&self.bufs.signals) {
            self.push_error(
                Scope::Body,
                ErrorKind::HeadScanLimit,
                "the HTML head did not end within the first 1 MiB: meta tags after it were not read",
                Some(rec.offset),
                None,
                Some(uri),
            );
        }
        if let Some((kind, detail)) = body_problem.filter(|_| !robots_capture) {
            self.push_error(
                Scope::Body,
                kind,
                &detail,
                Some(rec.offset),
                None,
                Some(uri),
            );
        }
    }
}

/// Decode the body of a robots.txt response and fill the body columns; returns the digest and
/// the decoded body.
fn decode_body<'b>(
    decoder: &'b mut BodyDecoder,
    rec: &'b Record<'_>,
    h: &HttpHead<'_>,
    row: &mut RobotsFileRow<'_>,
    outcome: &mut FetchOutcome,
    problem: &mut Option<(ErrorKind, String)>,
) -> (String, &'b [u8]) {
    let (body, info) = decoder.decode(h, rec.block);
    *problem = info.problem.clone();
    // The declared size of an undecoded body whose record was cut by the reader.
    let declared = if info.decoded.is_none() && !info.dechunked && rec.block_truncated {
        rec.block_len.saturating_sub(h.body_offset as u64)
    } else {
        body.len() as u64
    };
    let facts = BodyFacts::of(body, declared, rec.block_truncated || info.capped);
    if *outcome == FetchOutcome::Ok {
        *outcome = facts.outcome_2xx();
    }
    (facts.apply(row), body)
}

/// The media type of a Content-Type value: lowercase, parameters dropped.
fn media_type(v: &[u8]) -> Option<String> {
    let v = http::media_type_bytes(v);
    (!v.is_empty()).then(|| String::from_utf8_lossy(v).to_ascii_lowercase())
}

/// WARC record types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordType {
    Warcinfo,
    Response,
    Resource,
    Request,
    Metadata,
    Revisit,
    Conversion,
    Continuation,
    Other,
}

impl RecordType {
    pub fn from_bytes(t: &[u8]) -> Self {
        let t = trim(t);
        let eq = |s: &str| t.eq_ignore_ascii_case(s.as_bytes());
        if eq("response") {
            RecordType::Response
        } else if eq("warcinfo") {
            RecordType::Warcinfo
        } else if eq("request") {
            RecordType::Request
        } else if eq("metadata") {
            RecordType::Metadata
        } else if eq("resource") {
            RecordType::Resource
        } else if eq("revisit") {
            RecordType::Revisit
        } else if eq("conversion") {
            RecordType::Conversion
        } else if eq("continuation") {
            RecordType::Continuation
        } else {
            RecordType::Other
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RecordType::Warcinfo => "warcinfo",
            RecordType::Response => "response",
            RecordType::Resource => "resource",
            RecordType::Request => "request",
            RecordType::Metadata => "metadata",
            RecordType::Revisit => "revisit",
            RecordType::Conversion => "conversion",
            RecordType::Continuation => "continuation",
            RecordType::Other => "other",
        }
    }
}

/// If `uri` is a robots.txt URL, its parsed form.
pub fn robots_url(uri: &str) -> Option<url::Url> {
    let parsed = url::Url::parse(uri).ok()?;
    is_robots_url(&parsed).then_some(parsed)
}

/// An `http(s)://host/robots.txt` URL.
pub fn is_robots_url(u: &url::Url) -> bool {
    u.path() == "/robots.txt" && matches!(u.scheme(), "http" | "https")
}

/// The lower-case host of a URL, without a trailing dot.
fn host_of(u: &url::Url) -> Option<std::borrow::Cow<'_, str>> {
    let h = u.host_str()?;
    let h = h.trim_end_matches('.');
    Some(if h.bytes().any(|c| c.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(h.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(h)
    })
}

impl Sink for Extractor<'_> {
    fn record(&mut self, rec: &Record<'_>) {
        let prescan = self.bufs.prescan.take();
        let ty = self.count(rec);
        match ty {
            RecordType::Warcinfo => self.warcinfo(rec),
            RecordType::Response | RecordType::Resource | RecordType::Revisit => {
                let pages = ty == RecordType::Response && self.tables.pages();
                let uri_raw = unfold(rec.head.target_uri);
                // Without page tables only robots.txt captures matter: most URIs are ruled out
                // without parsing them.
                let maybe_robots = self.tables.robots() && may_be_robots_url(strip_angle(&uri_raw));
                if !pages && !maybe_robots {
                    return;
                }
                // Borrowed unless the URI is not UTF-8.
                let uri = String::from_utf8_lossy(strip_angle(&uri_raw));
                let parsed = url::Url::parse(&uri).ok();
                let robots = parsed.as_ref().filter(|p| is_robots_url(p));
                if let Some(p) = robots.filter(|_| self.tables.robots()) {
                    self.robots_capture(rec, ty, &uri, p);
                }
                if pages {
                    let read_as_robots = robots.is_some() && self.tables.robots();
                    self.page(rec, &uri, parsed.as_ref(), read_as_robots, prescan);
                }
            }
            _ => {}
        }
    }

    fn error(&mut self, err: ReadError) {
        self.push_error(err.scope, err.kind, &err.detail, err.offset, None, None);
    }

    /// What [`Sink::record`] reads of a block: of a `warcinfo` record and of robots.txt
    /// captures, all; of other `resource` and `revisit` records and of requests, metadata and
    /// the rest, nothing (they are only counted); of a response, its HTTP head, and of an HTML
    /// response whose body is neither chunked nor content-encoded, as far as the head scan went
    /// ([`crate::signals::meta::HeadScanner::reached_end`]; the scan is kept for `record`).
    fn block_needed(&mut self, head: &record::Head<'_>, prefix: &[u8]) -> Need {
        self.bufs.prescan = None;
        let ty = RecordType::from_bytes(&unfold(head.warc_type));
        match ty {
            RecordType::Warcinfo => return Need::All,
            RecordType::Response | RecordType::Resource | RecordType::Revisit => {}
            _ => return Need::Enough,
        }
        if self.tables.robots() && may_be_robots_url(strip_angle(&unfold(head.target_uri))) {
            return Need::All;
        }
        if ty != RecordType::Response || !self.tables.pages() {
            return Need::Enough;
        }
        let Some(h) = http::parse_response(prefix) else {
            // Not an HTTP response, unless the prefix is all line breaks so far.
            let breaks = prefix
                .iter()
                .take_while(|b| matches!(b, b'\r' | b'\n'))
                .count();
            return if breaks + 5 <= prefix.len() {
                Need::Enough
            } else {
                Need::More(0)
            };
        };
        if h.incomplete {
            return Need::More(0);
        }
        if h.fields().any(|(n, _)| {
            n.eq_ignore_ascii_case(b"transfer-encoding")
                || n.eq_ignore_ascii_case(b"content-encoding")
        }) {
            return Need::All;
        }
        if !http::response_media_type(&h).1 {
            return Need::Enough;
        }
        let body = &prefix[h.body_offset.min(prefix.len())..];
        // Scanning is slower than inflating: scan once the head's end is likely within reach.
        if body.len() <= HEAD_SCAN_LIMIT {
            match page_signals::head_end_hint(body) {
                None => return Need::More(0),
                Some(at) if at + HEAD_HINT_MARGIN > body.len() => {
                    return Need::More(h.body_offset + at + HEAD_HINT_MARGIN)
                }
                Some(_) => {}
            }
        }
        let names = self
            .bufs
            .meta_names
            .get_or_insert_with(|| MetaNames::new(self.registry));
        let candidates = page_signals::scan_head(&mut self.bufs.signals, names, body);
        if page_signals::head_scan_reached_end(&self.bufs.signals) && body.len() <= HEAD_SCAN_LIMIT
        {
            return Need::More(0);
        }
        self.bufs.prescan = Some(Prescan {
            block: Prescan::key(prefix),
            candidates,
        });
        Need::Enough
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A robots.txt served as HTML whose body cannot be decoded is read by both the robots.txt
    /// extractor and the page extractor; the problem is one `errors` row, not two.
    #[test]
    fn undecodable_robots_html_is_one_error() {
        let http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff garbage";
        let mut rec = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/robots.txt\r\n\
             WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n\
             Content-Length: {}\r\n\r\n",
            http.len()
        )
        .into_bytes();
        rec.extend_from_slice(http);
        rec.extend_from_slice(b"\r\n\r\n");
        let registry = Registry::builtin();
        let mut bufs = ExtractBuffers::default();
        let mut ex = Extractor::new("t.warc", &mut bufs, &registry);
        crate::archive::reader::read_plain(&rec, 0, rec.len(), &mut ex);
        let out = ex.into_output();
        assert_eq!(out.counts.response, 1);
        assert_eq!(
            out.error_kinds.get(&ErrorKind::BadContentEncoding),
            Some(&1),
            "{:?}",
            out.error_kinds
        );
        assert_eq!(out.n_errors, 1);
    }

    #[test]
    fn robots_urls() {
        assert!(robots_url("http://example.com/robots.txt").is_some());
        assert!(robots_url("https://EXAMPLE.com:8080/robots.txt").is_some());
        assert!(robots_url("http://example.com/a/robots.txt").is_none());
        assert!(robots_url("http://example.com/robots.txt.bak").is_none());
        assert!(robots_url("dns:example.com").is_none());
    }
}

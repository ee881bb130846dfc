//! The page source: every `response` record with an HTTP head, but robots.txt captures, gives
//! its robots headers and head meta tags to `page_signals` and its counts to `host_counts`.
//!
//! One source feeds both tables: `host_counts` counts the pages on which `page_signals` found a
//! signal, so both come from the same pass over a response. When only `host_counts` is
//! selected the signals are still read (and their rows not kept).

use crate::archive::framing::sink::{Need, Record};
use crate::archive::heads::http::{self, HttpHead};
use crate::archive::heads::record::{self, unfold};
use crate::archive::problem::ErrorKind;
use crate::rows::from_pages::page_signals::{self, Carried, PageCtx};
use crate::rows::source::{
    meta_names, registered_domain, Address, Context, RecordType, RowSource, Seen,
};
use crate::signals::meta::{AFTER_HEAD_WINDOW, HEAD_SCAN_LIMIT};
use crate::tables::host_of;
use crate::tables::{PageRow, Table, TableSelection};

/// The page source.
pub struct Pages {
    host_counts: bool,
    pages: bool,
    /// Some table needs the page's signals (`page_signals`, or `host_counts`, which counts
    /// them): without one, no head is scanned.
    signals: bool,
    /// The head scan [`RowSource::need`] ran on a block prefix, for [`RowSource::record`] of
    /// the same block to reuse.
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
const HEAD_HINT_MARGIN: usize = AFTER_HEAD_WINDOW + 2048;

impl Pages {
    pub fn new(selection: TableSelection) -> Self {
        Pages {
            host_counts: selection.writes(Table::HostCounts),
            pages: selection.writes(Table::Pages),
            signals: selection.writes(Table::PageSignals) || selection.writes(Table::HostCounts),
            prescan: None,
        }
    }
}

impl RowSource for Pages {
    fn tables(&self) -> &'static [Table] {
        &[Table::PageSignals, Table::HostCounts, Table::Pages]
    }

    /// Responses but robots.txt captures: those are `robots_files`' (a robots.txt served as
    /// HTML is not a page a crawler would index, and would count as one in every share).
    fn wants(&self, ty: RecordType, address: Address) -> bool {
        ty == RecordType::Response && address != Address::Robots
    }

    /// The HTTP head, and of an HTML response whose body is neither chunked nor
    /// content-encoded, as far as the head scan went
    /// ([`crate::signals::meta::HeadScanner::reached_end`]; the scan is kept for `record`).
    fn need(&mut self, cx: &mut Context<'_>, _: &record::Head<'_>, prefix: &[u8]) -> Need {
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
        if !self.signals {
            return Need::Enough;
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
        let (signals, names) = cx.bufs.head_scan(cx.registry);
        let candidates = page_signals::scan_head(signals, names, body);
        if page_signals::head_scan_reached_end(signals) && body.len() <= HEAD_SCAN_LIMIT {
            return Need::More(0);
        }
        self.prescan = Some(Prescan {
            block: Prescan::key(prefix),
            candidates,
        });
        Need::Enough
    }

    fn forget(&mut self) {
        self.prescan = None;
    }

    fn record(&mut self, cx: &mut Context<'_>, rec: &Record<'_>, seen: &Seen<'_>) {
        let prescan = self.prescan.take();
        if let Some(h) = http::parse_response(rec.block) {
            self.page(cx, rec, seen, &h, prescan);
        }
    }
}

impl Pages {
    /// Page signals and host counts of a response. A body decoding problem is reported unless
    /// an earlier source read the body ([`Context::body_reported`]).
    fn page(
        &self,
        cx: &mut Context<'_>,
        rec: &Record<'_>,
        seen: &Seen<'_>,
        h: &HttpHead<'_>,
        prescan: Option<Prescan>,
    ) {
        let host = seen.url.and_then(host_of);
        let status = h.status.map(i32::from);
        let (ct_raw, html) = http::response_media_type(h);
        let has_header = self.signals
            && h.fields()
                .any(|(n, _)| page_signals::signal_header(n).is_some());
        let mut body_problem = None;
        let mut meta_candidates = false;
        if html && self.signals {
            let bufs = &mut *cx.bufs;
            let (body, problem) = page_signals::html_prefix(&mut bufs.body, h, rec.block);
            body_problem = problem;
            meta_candidates = match prescan {
                Some(p) if p.block == Prescan::key(rec.block) => p.candidates,
                _ => {
                    let names = meta_names(&mut bufs.meta_names, cx.registry);
                    page_signals::scan_head(&mut bufs.signals, names, body)
                }
            };
        }
        let mut carried = Carried::default();
        // Made once for the rows of both tables (the public suffix look-up is not free).
        let wants_row = has_header || meta_candidates || self.pages;
        let registered_domain = seen.url.filter(|_| wants_row).and_then(registered_domain);
        let capture_time = wants_row
            .then(|| record::parse_date_micros(&unfold(rec.head.date)))
            .flatten();
        if has_header || meta_candidates {
            let content_type = ct_raw.map(|t| String::from_utf8_lossy(t).to_ascii_lowercase());
            let ctx = PageCtx {
                warc_file: cx.warc_file,
                warc_offset: rec.offset as i64,
                url: seen.uri,
                host: host.as_deref(),
                registered_domain: registered_domain.as_deref(),
                capture_time,
                http_status: status,
                content_type: content_type.as_deref(),
            };
            carried = signal_rows(cx, &ctx, h, has_header, meta_candidates);
        }
        if self.host_counts {
            let host_key = host.as_deref().unwrap_or("");
            cx.out.host_counts.add(host_key, status, html, carried);
        }
        if self.pages {
            let bytes = rec
                .head
                .content_length
                .map(|n| n.saturating_sub(h.body_offset as u64));
            cx.out.pages.append(&PageRow {
                warc_file: Some(cx.warc_file),
                warc_offset: Some(rec.offset as i64),
                url: Some(seen.uri),
                host: host.as_deref(),
                registered_domain: registered_domain.as_deref(),
                capture_time,
                http_status: status,
                html: Some(html),
                bytes: bytes.map(|n| n as i64),
            });
        }
        if let Some(detail) = crate::rows::from_robots::robots_capture::head_too_long(h, rec) {
            cx.push_error(
                ErrorKind::HttpHeadTooLong,
                &detail,
                rec.offset,
                None,
                Some(seen.uri),
            );
        }
        if html && self.signals && page_signals::head_limit_hit(&cx.bufs.signals) {
            cx.push_error(
                ErrorKind::HeadScanLimit,
                "the HTML head did not end within the first 1 MiB: meta tags after it were not read",
                rec.offset,
                None,
                Some(seen.uri),
            );
        }
        if let Some((kind, detail)) = body_problem.filter(|_| !cx.body_reported) {
            cx.push_error(kind, &detail, rec.offset, None, Some(seen.uri));
        }
    }
}

/// The `page_signals` rows of a response's headers and of the meta tags its head scan found.
fn signal_rows(
    cx: &mut Context<'_>,
    ctx: &PageCtx<'_>,
    h: &HttpHead<'_>,
    has_header: bool,
    meta_candidates: bool,
) -> Carried {
    let mut carried = Carried::default();
    let mut next_index = 0;
    let mut rows = page_signals::SignalRows::new(&mut cx.out.page_signals);
    if has_header {
        carried = page_signals::headers(&mut rows, ctx, h);
        next_index = carried.signals;
    }
    if meta_candidates {
        let (signals, names) = cx.bufs.head_scan(cx.registry);
        let m = page_signals::meta_tags(&mut rows, ctx, signals, names, next_index);
        carried.meta = m.meta;
        carried.tdm |= m.tdm;
        carried.ai_prefs |= m.ai_prefs;
    }
    if let Some(detail) = rows.cut_detail() {
        let offset = ctx.warc_offset as u64;
        cx.push_error(
            ErrorKind::PageSignalsCut,
            &detail,
            offset,
            None,
            Some(ctx.url),
        );
    }
    carried
}

//! Records to rows: the extractor.
//!
//! An [`Extractor`] is the [`Sink`] the framer feeds. For each record it counts the record type,
//! remembers the crawl name from `warcinfo`, asks the [row sources](crate::rows::source) the
//! table selection needs how much of the block they read (from the headers alone when they can),
//! and hands them the record. Rows go into the chunk's table builders; problems go into its
//! `errors` builder. Nothing here panics on input.

use crate::agents::Registry;
use crate::archive::framing::sink::{Need, Record, Sink};
use crate::archive::heads::record::{self, strip_angle, trim, unfold};
use crate::archive::problem::ReadError;
use crate::rows::from_files::WellKnownFiles;
use crate::rows::from_pages::pages::Pages;
use crate::rows::from_robots::robots_capture::RobotsCaptures;
use crate::rows::output::ChunkOutput;
use crate::rows::source::{
    may_be_well_known, Address, Context, ExtractBuffers, RecordType, RowSource, Seen,
};
use crate::tables::TableSelection;

/// The sink that turns records into rows for one chunk.
pub struct Extractor<'w> {
    cx: Context<'w>,
    /// The sources that feed some selected table.
    sources: Vec<Box<dyn RowSource>>,
    uris: UriCache,
}

/// The last target URI that may be a well-known file's URL, and its parse: the block's head
/// ([`Sink::block_needed`]) and the record ([`Sink::record`]) ask about the same URI, and the
/// sources' choice and the record's [`Seen::url`] need its parse; it is parsed once.
#[derive(Default)]
struct UriCache {
    raw: Vec<u8>,
    url: Option<url::Url>,
    filled: bool,
}

impl UriCache {
    /// The parse of `uri` (lossy UTF-8), from the cache when it was the last one asked.
    fn parse(&mut self, uri: &[u8]) -> Option<&url::Url> {
        if !(self.filled && self.raw == uri) {
            self.raw.clear();
            self.raw.extend_from_slice(uri);
            self.url = url::Url::parse(&String::from_utf8_lossy(uri)).ok();
            self.filled = true;
        }
        self.url.as_ref()
    }

    /// What `uri` names (parsed only when it may name a well-known file).
    fn address(&mut self, uri: &[u8]) -> Address {
        match may_be_well_known(uri) {
            true => self.parse(uri).map_or(Address::Other, Address::of),
            false => Address::Other,
        }
    }
}

/// How many row sources there are: at most 32, since the extractor marks the sources that want
/// a record with one bit each.
const N_SOURCES: usize = 3;
const _: () = assert!(N_SOURCES <= 32);

/// Every row source, producing the rows of the selected tables among those it feeds.
pub fn sources(selection: TableSelection) -> Vec<Box<dyn RowSource>> {
    let all: [Box<dyn RowSource>; N_SOURCES] = [
        Box::new(RobotsCaptures::new(selection)),
        Box::new(Pages::new(selection)),
        Box::new(WellKnownFiles::new(selection)),
    ];
    all.into_iter()
        .filter(|s| s.tables().iter().any(|&t| selection.writes(t)))
        .collect()
}

impl<'w> Extractor<'w> {
    pub fn new(warc_file: &'w str, bufs: &'w mut ExtractBuffers, registry: &'w Registry) -> Self {
        Extractor {
            cx: Context {
                out: ChunkOutput::default(),
                bufs,
                warc_file,
                registry,
                body_reported: false,
            },
            sources: sources(TableSelection::all()),
            uris: UriCache::default(),
        }
    }

    /// Produce only what `tables` need (by default, every table).
    pub fn with_tables(mut self, tables: TableSelection) -> Self {
        self.sources = sources(tables);
        self
    }

    /// Fill `out` (an empty output, from [`ChunkOutput::recycled`]) instead of a new one.
    pub(crate) fn with_output(mut self, out: ChunkOutput) -> Self {
        self.cx.out = out;
        self
    }

    pub fn into_output(self) -> ChunkOutput {
        self.cx.out
    }

    /// The records-list line of the records read next (`scan --records`), named by their
    /// `errors` rows; `None` after them.
    pub fn set_list_line(&mut self, line: Option<u64>) {
        self.cx.out.list_line = line;
    }

    /// Records read so far.
    pub fn records_read(&self) -> u64 {
        self.cx.out.counts.total
    }

    /// The sources that want a record, as a bit per source (asked once per record: for the
    /// well-known files' sources, a search of the URI).
    fn wanted(&mut self, ty: RecordType, uri: &[u8]) -> u32 {
        let address = self.uris.address(uri);
        self.sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.wants(ty, address))
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    fn count(&mut self, rec: &Record<'_>) -> RecordType {
        let c = &mut self.cx.out.counts;
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
        if self.cx.out.crawl_hint.is_some() {
            return;
        }
        for line in rec.block.split(|&b| b == b'\n') {
            if let Some(colon) = memchr::memchr(b':', line) {
                if trim(&line[..colon]).eq_ignore_ascii_case(b"isPartOf") {
                    let v = trim(&line[colon + 1..]);
                    if !v.is_empty() {
                        self.cx.out.crawl_hint = Some(String::from_utf8_lossy(v).into_owned());
                        return;
                    }
                }
            }
        }
    }
}

impl Sink for Extractor<'_> {
    fn record(&mut self, rec: &Record<'_>) {
        let ty = self.count(rec);
        if ty == RecordType::Warcinfo {
            return self.warcinfo(rec);
        }
        let uri_raw = unfold(rec.head.target_uri);
        let uri_raw = strip_angle(&uri_raw);
        // Most records are ruled out before their URI is parsed.
        let wanted = self.wanted(ty, uri_raw);
        if wanted == 0 {
            return;
        }
        // Borrowed unless the URI is not UTF-8.
        let uri = String::from_utf8_lossy(uri_raw);
        let parsed;
        let url = if may_be_well_known(uri_raw) {
            self.uris.parse(uri_raw)
        } else {
            parsed = url::Url::parse(&uri).ok();
            parsed.as_ref()
        };
        let seen = Seen { ty, uri: &uri, url };
        self.cx.body_reported = false;
        for (i, s) in self.sources.iter_mut().enumerate() {
            if wanted & (1 << i) != 0 {
                s.record(&mut self.cx, rec, &seen);
            }
        }
    }

    fn error(&mut self, err: ReadError) {
        self.cx.out.push_error(
            self.cx.warc_file,
            err.scope,
            err.kind,
            &err.detail,
            err.offset,
            None,
            None,
        );
    }

    /// What [`Sink::record`] reads of a block: of a `warcinfo` record, all; of a record some
    /// source wants, the most any of them needs (`RowSource::need`); of the rest, nothing
    /// (they are only counted).
    fn block_needed(&mut self, head: &record::Head<'_>, prefix: &[u8]) -> Need {
        self.sources.iter_mut().for_each(|s| s.forget());
        let ty = RecordType::from_bytes(&unfold(head.warc_type));
        if ty == RecordType::Warcinfo {
            return Need::All;
        }
        let uri_raw = unfold(head.target_uri);
        let uri_raw = strip_angle(&uri_raw);
        let wanted = self.wanted(ty, uri_raw);
        let mut need = Need::Enough;
        for (i, s) in self.sources.iter_mut().enumerate() {
            if wanted & (1 << i) == 0 {
                continue;
            }
            match s.need(&mut self.cx, head, prefix) {
                Need::All => return Need::All,
                Need::More(b) => {
                    need = Need::More(match need {
                        Need::More(a) => a.max(b),
                        _ => b,
                    })
                }
                Need::Enough => {}
            }
        }
        need
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::problem::ErrorKind;
    use crate::rows::source::is_robots_url;

    /// If `uri` is a robots.txt URL, its parsed form.
    pub fn robots_url(uri: &str) -> Option<url::Url> {
        let parsed = url::Url::parse(uri).ok()?;
        is_robots_url(&parsed).then_some(parsed)
    }
    use crate::tables::Table;

    /// A robots.txt served as HTML whose body cannot be decoded is one `errors` row (the page
    /// source does not read robots.txt captures).
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
        crate::archive::container::reader::read_plain(&rec, 0, rec.len(), &mut ex);
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

    /// A response record with `uri` and an HTML body with a robots meta tag, as WARC bytes.
    fn html_response(uri: &str) -> Vec<u8> {
        let http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n\
                    <html><head><meta name=\"robots\" content=\"noindex\"></head></html>";
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
             WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n\
             Content-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        )
        .into_bytes()
    }

    /// Which source reads a record is decided once from its parsed URL: a robots.txt URL (also
    /// when written with a dot segment) is the robots.txt source's and not a page, and a page
    /// whose URL merely contains `robots` is a page.
    #[test]
    fn robots_txt_urls_go_to_robots_files_and_other_urls_to_pages() {
        use crate::tables::TableBuilder;
        let registry = Registry::builtin();
        let rows = |uri: &str| {
            let rec = html_response(uri);
            let mut bufs = ExtractBuffers::default();
            let mut ex = Extractor::new("t.warc", &mut bufs, &registry);
            crate::archive::container::reader::read_plain(&rec, 0, rec.len(), &mut ex);
            let out = ex.into_output();
            (out.robots_files.len(), out.page_signals.len())
        };
        assert_eq!(rows("http://example.com/robots.txt"), (1, 0));
        assert_eq!(rows("https://example.com/a/../robots.txt"), (1, 0));
        assert_eq!(rows("http://example.com/robots-policy.html"), (0, 1));
        assert_eq!(rows("http://example.com/robots.txt.html"), (0, 1));
        assert_eq!(rows("http://example.com/page.html"), (0, 1));
    }

    /// Every table but `errors` (everyone's) and `inputs` (the scan's) has exactly one source,
    /// so a table's rows are produced in one place.
    #[test]
    fn every_row_table_has_one_source() {
        let all = sources(TableSelection::all());
        for t in Table::OF_INPUT.into_iter().filter(|&t| t != Table::Errors) {
            let n = all.iter().filter(|s| s.tables().contains(&t)).count();
            assert_eq!(n, 1, "{} is fed by {n} sources", t.name());
        }
        assert!(all.iter().all(|s| !s.tables().contains(&Table::Errors)));
    }

    /// The extractor holds only the sources of selected tables.
    #[test]
    fn selection_keeps_only_the_sources_it_needs() {
        let fed = |names: &[&str]| -> Vec<Vec<Table>> {
            let sel = TableSelection::parse(names).unwrap();
            sources(sel).iter().map(|s| s.tables().to_vec()).collect()
        };
        assert!(fed(&["inputs"]).is_empty());
        let robots = fed(&["acap_fields"]);
        assert_eq!(robots.len(), 1);
        assert!(robots[0].contains(&Table::RobotsFiles));
        let pages = fed(&["host_counts"]);
        assert_eq!(pages.len(), 1);
        assert!(pages[0].contains(&Table::PageSignals));
        assert_eq!(fed(&["page_signals", "agent_verdicts"]).len(), 2);
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

//! The row sources: what turns one kind of record into the rows of some tables.
//!
//! A [`RowSource`] says which tables it feeds, which records it reads and how much of their
//! block it needs, and turns such a record into rows (the way Google's matcher is one handler of
//! its robots.txt parser). The [`crate::rows::extract::Extractor`] counts records, reads
//! `warcinfo`, and hands each record to the sources the table selection needs; adding a table
//! that comes from a new kind of record is a new source.

use crate::agents::Registry;
use crate::archive::framing::sink::{Need, Record};
use crate::archive::heads::http::BodyDecoder;
use crate::archive::heads::record::{self, trim};
use crate::archive::problem::{ErrorKind, Scope};
use crate::rows::from_pages::page_signals::{MetaNames, SignalBuffers};
use crate::rows::from_robots::robots_txt::Scratch;
use crate::rows::from_robots::verdicts::Verdicts;
use crate::rows::output::ChunkOutput;
use crate::tables::Table;

/// Turns one kind of record into the rows of some tables.
pub trait RowSource {
    /// The tables whose rows it produces.
    fn tables(&self) -> &'static [Table];

    /// Whether it reads a record of type `ty` whose target URI is at `address` (a robots.txt,
    /// an llms.txt, ... or any other URL): the extractor decides that once per record
    /// ([`Address::of`]), and parses the URI in full only for a record some source reads.
    fn wants(&self, ty: RecordType, address: Address) -> bool;

    /// How much of the block of a record it [wants](RowSource::wants) it needs, from the head
    /// and the prefix of the block read so far (see [`crate::archive::framing::sink::Sink::block_needed`]).
    fn need(&mut self, cx: &mut Context<'_>, head: &record::Head<'_>, prefix: &[u8]) -> Need;

    /// Forget what [`RowSource::need`] kept for an earlier record: the extractor calls it
    /// before asking the sources about a block.
    fn forget(&mut self) {}

    /// Turn a record it wants into rows.
    fn record(&mut self, cx: &mut Context<'_>, rec: &Record<'_>, seen: &Seen<'_>);
}

/// What the extractor knows of a record before the sources read it.
pub struct Seen<'a> {
    pub ty: RecordType,
    /// The target URI (lossy UTF-8, angle brackets stripped).
    pub uri: &'a str,
    /// The URI parsed, when it parses.
    pub url: Option<&'a url::Url>,
}

/// What a source writes into and reuses: the chunk's output and the worker's buffers.
pub struct Context<'w> {
    pub out: ChunkOutput,
    pub bufs: &'w mut ExtractBuffers,
    pub warc_file: &'w str,
    pub registry: &'w Registry,
    /// Set by a source that decoded the body of the current record and reported its problems,
    /// so that a later source reading the same body does not report them twice.
    pub body_reported: bool,
}

impl Context<'_> {
    /// Append an `errors` row about a record of this chunk.
    pub fn push_error(
        &mut self,
        kind: ErrorKind,
        detail: &str,
        offset: u64,
        id: Option<&str>,
        url: Option<&str>,
    ) {
        self.out.push_error(
            self.warc_file,
            Scope::Body,
            kind,
            detail,
            Some(offset),
            id,
            url,
        );
    }
}

/// Worker-owned state reused across chunks.
#[derive(Default)]
pub struct ExtractBuffers {
    pub(super) body: BodyDecoder,
    pub(super) scratch: Scratch,
    pub(super) verdicts: Verdicts,
    pub(super) signals: SignalBuffers,
    /// Built from the registry on first use.
    pub(super) meta_names: Option<MetaNames>,
}

impl ExtractBuffers {
    /// The head scan's buffers and the meta tag names it looks for.
    pub(super) fn head_scan(&mut self, registry: &Registry) -> (&mut SignalBuffers, &MetaNames) {
        let names = meta_names(&mut self.meta_names, registry);
        (&mut self.signals, names)
    }
}

/// The meta tag names the page source looks for, built from the registry on first use.
pub(super) fn meta_names<'a>(
    slot: &'a mut Option<MetaNames>,
    registry: &Registry,
) -> &'a MetaNames {
    slot.get_or_insert_with(|| MetaNames::new(registry))
}

str_enum! {
    /// WARC record types (`robots_files.warc_type` holds them). `response` comes first: it is
    /// the commonest, and [`RecordType::from_bytes`] tries them in order.
    pub enum RecordType {
        Response = "response",
        Request = "request",
        Metadata = "metadata",
        Warcinfo = "warcinfo",
        Resource = "resource",
        Revisit = "revisit",
        Conversion = "conversion",
        Continuation = "continuation",
        /// Any other `WARC-Type`.
        Other = "other",
    }
}

impl RecordType {
    /// The type a `WARC-Type` value names (any case, surrounding space ignored).
    pub fn from_bytes(t: &[u8]) -> Self {
        let t = trim(t);
        RecordType::ALL
            .iter()
            .copied()
            .find(|r| t.eq_ignore_ascii_case(r.as_str().as_bytes()))
            .unwrap_or(RecordType::Other)
    }
}

/// An `http(s)://host/robots.txt` URL.
pub fn is_robots_url(u: &url::Url) -> bool {
    u.path() == "/robots.txt" && matches!(u.scheme(), "http" | "https")
}

str_enum! {
    /// The well-known files a URL may name, each read by its own source, and every other URL.
    pub enum Address {
        /// `/robots.txt` ([`is_robots_url`]).
        Robots = "robots.txt",
        /// `/llms.txt` (the llms.txt proposal).
        LlmsTxt = "llms.txt",
        /// `/llms-full.txt`, the proposal's companion with the linked pages inlined.
        LlmsFullTxt = "llms-full.txt",
        /// `/.well-known/tdmrep.json` (the TDM Reservation Protocol's site-wide file).
        TdmRep = "tdmrep.json",
        /// Any other URL.
        Other = "other",
    }
}

impl Address {
    /// What an `http(s)://` URL's path names (the query is not part of the path).
    pub fn of(u: &url::Url) -> Address {
        if !matches!(u.scheme(), "http" | "https") {
            return Address::Other;
        }
        match u.path() {
            "/robots.txt" => Address::Robots,
            "/llms.txt" => Address::LlmsTxt,
            "/llms-full.txt" => Address::LlmsFullTxt,
            "/.well-known/tdmrep.json" => Address::TdmRep,
            _ => Address::Other,
        }
    }
}

pub(super) use crate::tables::registered_domain;

/// Whether a raw target URI may parse to the URL of a well-known file ([`Address::of`] not
/// `Other`): the URL parser drops tabs and line breaks but decodes nothing in the path, so
/// `robots`, `llms` or `tdmrep` must stand in it.
pub(super) fn may_be_well_known(uri: &[u8]) -> bool {
    use memchr::memmem::Finder;
    // Built once: `memmem::find` builds a searcher per call, and this runs for every record.
    static ROBOTS: std::sync::LazyLock<Finder<'static>> =
        std::sync::LazyLock::new(|| Finder::new(b"robots"));
    static LLMS: std::sync::LazyLock<Finder<'static>> =
        std::sync::LazyLock::new(|| Finder::new(b"llms"));
    static TDMREP: std::sync::LazyLock<Finder<'static>> =
        std::sync::LazyLock::new(|| Finder::new(b"tdmrep"));
    ROBOTS.find(uri).is_some()
        || LLMS.find(uri).is_some()
        || TDMREP.find(uri).is_some()
        || memchr::memchr3(b'\t', b'\n', b'\r', uri).is_some()
}

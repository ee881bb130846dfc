//! A problem found while reading an input: where it stands ([`Scope`]), what it is
//! ([`ErrorKind`]) and its detail. Each becomes a row of the `errors` table; docs/schema.md says
//! when each kind is given.

str_enum! {
    /// Where a problem was found: the `errors.scope` column.
    pub enum Scope {
        /// The whole input.
        Input = "input",
        /// Framing and containers (a record, a gzip member, a stream).
        Record = "record",
        /// A record's HTTP body.
        Body = "body",
    }
}

str_enum! {
    /// What went wrong: the `errors.kind` column.
    pub enum ErrorKind {
        // Input scope.
        CannotOpen = "cannot_open",
        UnsupportedContainer = "unsupported_container",
        ReadError = "read_error",
        NotAnArchive = "not_an_archive",
        InternalError = "internal_error",
        // Record scope.
        Garbage = "garbage",
        BadHeader = "bad_header",
        TruncatedHeader = "truncated_header",
        BadContentLength = "bad_content_length",
        TruncatedRecord = "truncated_record",
        GarbageBetweenMembers = "garbage_between_members",
        TrailingPadding = "trailing_padding",
        TruncatedGzip = "truncated_gzip",
        CorruptGzip = "corrupt_gzip",
        GzipChecksum = "gzip_checksum",
        CorruptStream = "corrupt_stream",
        // Record scope, of a targeted scan (`scan --records`).
        BadListLine = "bad_list_line",
        RecordNotFetched = "record_not_fetched",
        RecordMismatch = "record_mismatch",
        // Body scope.
        BadChunkedEncoding = "bad_chunked_encoding",
        BadContentEncoding = "bad_content_encoding",
        UnknownContentEncoding = "unknown_content_encoding",
        VerdictUndetermined = "verdict_undetermined",
        HeadScanLimit = "head_scan_limit",
        HttpHeadTooLong = "http_head_too_long",
        PageSignalsCut = "page_signals_cut",
    }
}

/// A problem found while reading; it becomes a row of the `errors` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub scope: Scope,
    pub kind: ErrorKind,
    pub detail: String,
    pub offset: Option<u64>,
}

impl ReadError {
    pub fn new(
        scope: Scope,
        kind: ErrorKind,
        detail: impl Into<String>,
        offset: Option<u64>,
    ) -> Self {
        ReadError {
            scope,
            kind,
            detail: detail.into(),
            offset,
        }
    }
}

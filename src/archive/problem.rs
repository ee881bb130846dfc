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

impl ErrorKind {
    /// What a reader of the tables needs to know of this kind, in one line: what was met and
    /// what was kept (the report's glossary; docs/schema.md has the cases in full).
    pub const fn meaning(self) -> &'static str {
        use ErrorKind::*;
        match self {
            CannotOpen => {
                "the input could not be opened (missing, no permission, a device or \
                socket, a pipe no writer opened): nothing of it was read"
            }
            UnsupportedContainer => {
                "the input's compression could not be set up: nothing of \
                it was read"
            }
            ReadError => {
                "reading stopped part way (an I/O error, a file cut while read, a pipe \
                or remote input that stalled or ran past its deadline): what was read is kept"
            }
            NotAnArchive => "the input is no WARC or ARC file: nothing of it was read",
            InternalError => {
                "a bug: reading the input panicked; the input is marked failed and \
                the run went on"
            }
            Garbage => {
                "bytes between records that are not a record were skipped; the records \
                around them are kept"
            }
            BadHeader => {
                "a malformed record header (no end within 1 MiB, a field given twice, \
                a line that is no field): read as it stands"
            }
            TruncatedHeader => "the input ends inside a record's header",
            BadContentLength => {
                "a record's Content-Length is missing, not a number or wrong: \
                the record is cut where the next one starts, which is kept"
            }
            TruncatedRecord => "the input ends inside a record: what there is of it is kept",
            GarbageBetweenMembers => {
                "bytes between gzip members that are not a member were \
                skipped; the members around them are read"
            }
            TrailingPadding => "zero bytes after the last gzip member were skipped",
            TruncatedGzip => {
                "the input ends inside a gzip member: the records decoded before \
                the cut are kept"
            }
            CorruptGzip => {
                "a damaged gzip member: the records before the damage are kept and \
                reading resumes at the next intact member"
            }
            GzipChecksum => {
                "a gzip member whose checksum or length is wrong: its records are \
                kept"
            }
            CorruptStream => {
                "a damaged bzip2, zstd, lz4 or whole-file gzip stream: the records \
                decoded before the damage are kept, the rest is not read"
            }
            BadListLine => "a line of a `scan --records` list names no record: it is skipped",
            RecordNotFetched => {
                "a listed record's bytes could not be had (no such archive, \
                every retry failed, a deadline passed): `--resume` fetches it again"
            }
            RecordMismatch => {
                "the bytes a list line names are not one whole record: what could \
                be read of them is kept"
            }
            BadChunkedEncoding => {
                "an HTTP body's chunked encoding is malformed: the body is \
                read as far as it decodes"
            }
            BadContentEncoding => {
                "an HTTP body's gzip, deflate, brotli or zstd does not \
                decode, or only in part: what decodes is read"
            }
            UnknownContentEncoding => {
                "an HTTP body in a Content-Encoding repcensus does not \
                decode: read as it was sent"
            }
            VerdictUndetermined => {
                "a crafted robots.txt whose verdict probes ran out of \
                budget: those agent_verdicts rows are undetermined"
            }
            HeadScanLimit => "an HTML head longer than 1 MiB: meta tags after it are not read",
            HttpHeadTooLong => {
                "an HTTP head that does not end within the 8 MiB read: a \
                robots.txt is then head_too_long, a page keeps the headers read"
            }
            PageSignalsCut => {
                "a response with more than 1,024 robots headers and meta tags \
                (or 1 MiB of them): the rest are not written"
            }
        }
    }

    /// The kind a table's string names; none for a string no kind has (tables of a later
    /// schema).
    pub fn of_str(s: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.iter().copied().find(|k| k.as_str() == s)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_kind_reads_back_from_its_string_and_has_a_one_line_meaning() {
        for &kind in ErrorKind::ALL {
            assert_eq!(ErrorKind::of_str(kind.as_str()), Some(kind));
            let meaning = kind.meaning();
            assert!(
                meaning.len() > 20 && !meaning.contains('\n'),
                "{kind}: {meaning}"
            );
        }
        assert_eq!(ErrorKind::of_str("no_such_kind"), None);
    }
}

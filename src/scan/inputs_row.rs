//! The `inputs` row of an input, from what its reading found: a pure function of [`InputFacts`],
//! with the status, format and compression it derives.

use crate::archive::container::reader::ContainerStats;
use crate::archive::source::input::Container;
use crate::rows::RecordCounts;
use crate::tables::{InputRow, Table, SCHEMA_VERSION};

str_enum! {
    /// The `inputs.status` column.
    pub enum InputStatus {
        Ok = "ok",
        OkWithErrors = "ok_with_errors",
        /// No bytes, or no record in them.
        Empty = "empty",
        /// Could not be read, or no record in it.
        Failed = "failed",
    }
}

str_enum! {
    /// The `inputs.format` column: what the records are.
    pub enum ArchiveFormat {
        Warc = "warc",
        Arc = "arc",
        /// Metadata records of JSON and no responses.
        Wat = "wat",
        /// Conversion records and no responses.
        Wet = "wet",
        None = "none",
    }
}

/// Everything an input's `inputs` row says.
pub(super) struct InputFacts<'a> {
    pub path: &'a str,
    pub id: &'a str,
    pub bytes: u64,
    pub container: Container,
    pub counts: RecordCounts,
    pub stats: ContainerStats,
    pub chunks: usize,
    /// Rows written per table of [`Table::OF_INPUT`]; `None` for a table not selected.
    pub rows: [Option<u64>; Table::OF_INPUT.len()],
    pub errors: u64,
    pub failed: bool,
    /// Start, in microseconds since the epoch, and duration of the reading.
    pub started: i64,
    pub seconds: f64,
    pub registry_version: &'a str,
    pub crawl_name: &'a str,
    /// Of a targeted input: the records list, and the lines of it the input answers for.
    pub records_list: Option<&'a str>,
    pub records_listed: Option<u64>,
}

/// An input with bytes in which no record was found (a gzip input must have inflated to
/// something: one that did not is reported by the gzip reader).
pub(super) fn is_not_an_archive(
    bytes: u64,
    container: Container,
    counts: &RecordCounts,
    stats: &ContainerStats,
) -> bool {
    counts.total == 0 && bytes > 0 && (stats.decompressed_bytes > 0 || container != Container::Gzip)
}

pub(super) fn status(failed: bool, bytes: u64, records: u64, errors: u64) -> InputStatus {
    match (failed, bytes, errors) {
        (true, _, _) => InputStatus::Failed,
        (false, 0, _) => InputStatus::Empty,
        _ if records == 0 => InputStatus::Empty,
        (false, _, 0) => InputStatus::Ok,
        (false, _, _) => InputStatus::OkWithErrors,
    }
}

pub(super) fn format(c: &RecordCounts) -> ArchiveFormat {
    if c.total == 0 {
        ArchiveFormat::None
    } else if c.arc > 0 && c.arc == c.total {
        ArchiveFormat::Arc
    } else if c.conversion > 0 && c.response == 0 {
        ArchiveFormat::Wet
    } else if c.json_metadata > 0 && c.response == 0 {
        ArchiveFormat::Wat
    } else {
        ArchiveFormat::Warc
    }
}

/// The `inputs.compression` column: the container, and for gzip how records sit in members.
pub(super) fn compression(container: Container, members: u64, records: u64) -> &'static str {
    match container {
        Container::Gzip if members <= 1 && records > 1 => "gzip_whole_file",
        Container::Gzip if members < records => "gzip_multi_record_members",
        Container::Gzip => "gzip_per_record",
        c => c.as_str(),
    }
}

/// The `inputs` row of an input.
pub(super) fn inputs_row<'a>(f: &'a InputFacts<'a>) -> InputRow<'a> {
    let c = &f.counts;
    let n = |v: u64| Some(v as i64);
    let rows = |t: Table| f.rows[t.index()].map(|v| v as i64);
    let gzip = f.container == Container::Gzip;
    InputRow {
        path: Some(f.path),
        input_id: Some(f.id),
        bytes: n(f.bytes),
        format: Some(format(c).as_str()),
        compression: Some(compression(f.container, f.stats.members, c.total)),
        status: Some(status(f.failed, f.bytes, c.total, f.errors).as_str()),
        records: n(c.total),
        records_warcinfo: n(c.warcinfo),
        records_response: n(c.response),
        records_resource: n(c.resource),
        records_request: n(c.request),
        records_metadata: n(c.metadata),
        records_revisit: n(c.revisit),
        records_conversion: n(c.conversion),
        records_continuation: n(c.continuation),
        records_other: n(c.other),
        records_unknown_version: n(c.unknown_version),
        gzip_members: gzip.then_some(f.stats.members as i64),
        gzip_streamed_members: gzip.then_some(f.stats.streamed_members as i64),
        gzip_early_stopped_members: gzip.then_some(f.stats.early_stopped_members as i64),
        decompressed_bytes: n(f.stats.decompressed_bytes),
        skipped_bytes: n(f.stats.skipped_bytes),
        chunks: Some(f.chunks as i32),
        rows_robots_files: rows(Table::RobotsFiles),
        rows_robots_agents: rows(Table::RobotsAgents),
        rows_robots_rules: rows(Table::RobotsRules),
        rows_app_directives: rows(Table::AppDirectives),
        rows_acap_fields: rows(Table::AcapFields),
        rows_agent_verdicts: rows(Table::AgentVerdicts),
        rows_agent_verdict_runs: rows(Table::AgentVerdictRuns),
        rows_page_signals: rows(Table::PageSignals),
        rows_host_counts: rows(Table::HostCounts),
        rows_pages: rows(Table::Pages),
        rows_llms_txt: rows(Table::LlmsTxt),
        rows_tdmrep_rules: rows(Table::TdmrepRules),
        errors: n(f.errors),
        started: Some(f.started),
        seconds: Some(f.seconds),
        tool_version: Some(env!("CARGO_PKG_VERSION")),
        schema_version: Some(SCHEMA_VERSION),
        registry_version: Some(f.registry_version),
        crawl_name: Some(f.crawl_name),
        aipref_vocabulary: Some(crate::signals::ai_prefs::VOCABULARY),
        records_list: f.records_list,
        records_listed: f.records_listed.map(|n| n as i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_says_failed_empty_or_ok() {
        assert_eq!(status(true, 10, 5, 0), InputStatus::Failed);
        assert_eq!(status(false, 0, 0, 0), InputStatus::Empty);
        assert_eq!(status(false, 10, 0, 1), InputStatus::Empty);
        assert_eq!(status(false, 10, 5, 0), InputStatus::Ok);
        assert_eq!(status(false, 10, 5, 2), InputStatus::OkWithErrors);
    }

    #[test]
    fn format_follows_the_records() {
        let mut c = RecordCounts::default();
        assert_eq!(format(&c), ArchiveFormat::None);
        c.total = 3;
        c.arc = 3;
        assert_eq!(format(&c), ArchiveFormat::Arc);
        c.arc = 0;
        c.conversion = 2;
        assert_eq!(format(&c), ArchiveFormat::Wet);
        c.response = 1;
        assert_eq!(format(&c), ArchiveFormat::Warc);
    }

    #[test]
    fn compression_tells_how_gzip_members_hold_records() {
        assert_eq!(compression(Container::Gzip, 1, 5), "gzip_whole_file");
        assert_eq!(
            compression(Container::Gzip, 3, 5),
            "gzip_multi_record_members"
        );
        assert_eq!(compression(Container::Gzip, 5, 5), "gzip_per_record");
        assert_eq!(compression(Container::Gzip, 1, 1), "gzip_per_record");
        assert_eq!(
            compression(Container::Plain, 0, 5),
            Container::Plain.as_str()
        );
    }
}

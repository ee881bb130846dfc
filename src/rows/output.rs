//! What a chunk of an input produced: the rows of every table, the `errors` rows and the record
//! counts ([`ChunkOutput`]).

use crate::archive::problem::{ErrorKind, Scope};
use crate::rows::from_pages::host_counts::HostCounts;
use crate::rows::from_robots::robots_txt::RobotsLineTables;
use crate::tables::{
    AgentVerdictRunsBuilder, AgentVerdictsBuilder, ErrorRow, ErrorsBuilder, LlmsTxtBuilder,
    PageSignalsBuilder, PagesBuilder, RobotsFilesBuilder, TdmrepRulesBuilder,
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
    /// Rows of `agent_verdict_runs`.
    pub agent_verdict_runs: AgentVerdictRunsBuilder,
    /// Rows of `page_signals`.
    pub page_signals: PageSignalsBuilder,
    /// Per-host response counts (rows of `host_counts` once merged over the input).
    pub host_counts: HostCounts,
    /// Rows of `pages`.
    pub pages: PagesBuilder,
    /// Rows of `llms_txt`.
    pub llms_txt: LlmsTxtBuilder,
    /// Rows of `tdmrep_rules`.
    pub tdmrep_rules: TdmrepRulesBuilder,
    pub errors: ErrorsBuilder,
    pub n_errors: u64,
    /// `errors` rows by kind.
    pub error_kinds: std::collections::BTreeMap<ErrorKind, u64>,
    pub counts: RecordCounts,
    /// `isPartOf` of the first warcinfo record of the chunk.
    pub crawl_hint: Option<String>,
    /// Reading the chunk failed outright (an internal error); the input is then marked failed.
    pub failure: Option<String>,
    /// The records-list line of the record being read (`scan --records`): its `errors` rows
    /// name it.
    pub list_line: Option<u64>,
}

impl ChunkOutput {
    /// An empty output that keeps the buffers of this one's run-written tables, once the part
    /// writers have taken their rows: a chunk of robots.txt captures fills tens of MB of line
    /// text and runs, and growing them anew for every chunk cost a tenth of the scan in
    /// reallocation and page faults. `None` when some of its rows were not taken.
    pub fn recycled(self) -> Option<ChunkOutput> {
        use crate::tables::TableBuilder;
        let l = &self.robots_lines;
        let drained = l.agents.is_empty()
            && l.rules.is_empty()
            && self.agent_verdicts.is_empty()
            && self.agent_verdict_runs.is_empty();
        drained.then(|| ChunkOutput {
            robots_lines: RobotsLineTables {
                agents: self.robots_lines.agents,
                rules: self.robots_lines.rules,
                ..RobotsLineTables::default()
            },
            agent_verdicts: self.agent_verdicts,
            agent_verdict_runs: self.agent_verdict_runs,
            ..ChunkOutput::default()
        })
    }

    /// The output of a chunk whose reading failed: no rows, one `errors` row.
    pub fn failed(warc_file: &str, kind: ErrorKind, detail: &str) -> Self {
        let mut out = ChunkOutput::default();
        out.push_error(warc_file, Scope::Input, kind, detail, None, None, None);
        out.failure = Some(detail.to_string());
        out
    }
}

impl ChunkOutput {
    /// Append an `errors` row and count it.
    #[allow(clippy::too_many_arguments)]
    pub fn push_error(
        &mut self,
        warc_file: &str,
        scope: Scope,
        kind: ErrorKind,
        detail: &str,
        offset: Option<u64>,
        id: Option<&str>,
        url: Option<&str>,
    ) {
        self.n_errors += 1;
        *self.error_kinds.entry(kind).or_default() += 1;
        self.errors.append(&ErrorRow {
            scope: Some(scope.as_str()),
            kind: Some(kind.as_str()),
            detail: Some(detail),
            warc_file: Some(warc_file),
            warc_offset: offset.map(|o| o as i64),
            warc_record_id: id,
            url,
            list_line: self.list_line.map(|l| l as i64),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{RobotsRuleRow, TableBuilder};

    /// An output is reused only once the writers took all its rows: rows left in it (a part not
    /// written) would otherwise be written again with the next chunk's.
    #[test]
    fn only_a_drained_output_is_recycled() {
        let mut o = ChunkOutput::default();
        o.robots_lines.rules.append(&RobotsRuleRow::default());
        assert!(o.recycled().is_none());
        let mut o = ChunkOutput::default();
        o.counts.total = 3;
        o.push_error(
            "f",
            Scope::Input,
            ErrorKind::ReadError,
            "x",
            None,
            None,
            None,
        );
        let r = o.recycled().expect("no run-written rows left");
        assert_eq!((r.counts.total, r.n_errors, r.errors.len()), (0, 0, 0));
        assert!(r.robots_lines.rules.is_empty());
    }
}

//! The output tables: schemas, row types and Arrow column builders.
//!
//! Each table is a [`Table`] variant and is declared once with `table!`, which generates a borrowed row struct (`*Row`), a
//! builder with one Arrow builder per column (`*Builder`, reused across records) and the Arrow
//! schema. Rows borrow from the record being read; only appending to a builder copies.
//! The `crawl` column is not part of the rows: the writer adds it when it knows the input's crawl
//! (the warcinfo record may be read by another worker than the row's).
//!
//! The schema is documented in docs/schema.md; bump [`SCHEMA_VERSION`] with any change to a
//! table that exists (a column added, removed or read differently, a value of a closed set
//! added). A new derived table needs none: it is derived from the parts already written, and a
//! new version would make `scan --resume` read every input of a crawl again for nothing.

mod complete;
mod declare;
mod derived;
pub mod fetch_outcome;
mod kind;
pub mod ranked_lists;
mod table;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::sync::Arc;

use crate::agents::Agent;
use crate::parts::columns::StrCol;
use crate::parts::runs::{write_row_group, Scratch};
use crate::parts::PartWriter;
use anyhow::Result;
use declare::table;

pub use complete::{missing_message, missing_parts};
pub use declare::{AppendRow, TableBuilder, CRAWL_COLUMN};
pub use derived::*;

/// The `host` column's value for a URL: its host, lower-case, without a trailing dot. The scan
/// writes it, and `robots_hosts` finds the captures a redirect may point to by it.
pub fn host_of(u: &url::Url) -> Option<std::borrow::Cow<'_, str>> {
    let h = u.host_str()?;
    let h = h.trim_end_matches('.');
    Some(if h.bytes().any(|c| c.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(h.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(h)
    })
}
/// The `registered_domain` column's value for a URL: its registered domain (public suffix plus
/// one label, lower case) when its host is a domain name. The scan writes it, and the
/// derivation partitions a crawl's hosts by it (a redirect target's too).
pub fn registered_domain(u: &url::Url) -> Option<String> {
    match u.host()? {
        url::Host::Domain(d) => {
            psl::domain_str(d.trim_end_matches('.')).map(str::to_ascii_lowercase)
        }
        _ => None,
    }
}
pub use kind::{Bool, Kind, Label, Str, StrList, Text, Ts, F64, I32, I64};
pub use table::{Table, TableSelection};

/// Version of the table schemas, stored in every Parquet file's metadata as `repcensus.schema_version`.
pub const SCHEMA_VERSION: &str = "23";
table! {
    /// One row per capture of a `/robots.txt` URL, whatever its status.
    RobotsFilesBuilder, RobotsFileRow, RobotsFiles, arrow: RobotsFilesArrow,
    {
        warc_file: Str,
        warc_offset: I64,
        warc_record_id: Text,
        /// `response`, `resource` or `revisit`.
        warc_type: Label,
        url: Text,
        host: Str,
        /// `http` or `https`, and the port (the scheme's default when the URL names none):
        /// with `host`, the site a robots.txt governs (RFC 9309 section 2.3).
        scheme: Label,
        port: I32,
        registered_domain: Str,
        capture_time: Ts,
        http_status: I32,
        fetch_outcome: Label,
        redirect_location: Text,
        content_type: Str,
        content_encoding: Str,
        transfer_encoding: Str,
        body_bytes: I64,
        truncated: Bool,
        warc_truncated: Str,
        body_digest: Text,
        /// `WARC-Payload-Digest` as written (`sha1:<base32>` mostly): a revisit names the
        /// capture it revisits by it.
        payload_digest: Text,
        /// `WARC-Refers-To-Target-URI` and `WARC-Refers-To-Date` of a revisit (WARC 1.1).
        refers_to_url: Text,
        refers_to_date: Ts,
        has_bom: Bool,
        line_endings: Label,
        valid_utf8: Bool,
        /// The body was parsed (2xx responses and resource records with a body); the columns
        /// below are NULL otherwise.
        parsed: Bool,
        n_lines: I32,
        n_groups: I32,
        n_agents: I32,
        n_rules: I32,
        n_orphan_rules: I32,
        n_sitemaps: I32,
        n_unknown: I32,
        n_invalid: I32,
        n_typos: I32,
        n_missing_colon: I32,
        n_too_long: I32,
        partial_bom: Bool,
        has_purpose: Bool,
        has_app_directives: Bool,
        has_acap: Bool,
        /// `##ACAP version=` value.
        acap_version: Str,
        acap_ignore_conventional: Bool,
        has_content_usage: Bool,
        has_content_signal: Bool,
        /// What first came between two agent lines of one group (`robots::parse::Split`).
        group_split: Label,
        /// A `*` line joins, past such a line, the group of the agent lines after it.
        wildcard_split: Bool,
        /// A group names both `*` and an AI agent of the registry.
        wildcard_with_ai: Bool,
        /// The file holds Cloudflare's managed block (`robots::cloudflare`).
        cloudflare_managed: Bool,
        /// The site's own lines give an agent the managed block names another verdict for `/`.
        cloudflare_contradicted: Bool,
    }
}

table! {
    /// One row per ACAP field (`ACAP-*` line, `##ACAP version=` comment).
    AcapFieldsBuilder, AcapFieldRow, AcapFields,
    {
        warc_file: Str,
        warc_offset: I64,
        host: Str,
        line_no: I32,
        record_index: I32,
        sub_record_index: I32,
        crawlers: StrList,
        usage_purposes: StrList,
        field: Str,
        key_raw: Str,
        usage: Str,
        resource_type: Str,
        local_usage: Str,
        resource: Str,
        resource_kind: Str,
        qualifiers: StrList,
        problems: StrList,
        value_raw: Text,
    }
}

table! {
    /// One row per agent line (`User-agent` or `User-Agent-Purpose`) of a parsed robots.txt.
    RobotsAgentsBuilder, RobotsAgentRow, RobotsAgents, arrow: RobotsAgentsArrow,
    {
        warc_file: Str,
        warc_offset: I64,
        host: Str,
        group_index: I32,
        line_no: I32,
        /// `user_agent` or `purpose`.
        line_kind: Label,
        key_raw: Str,
        key_form: Label,
        separator: Label,
        agent_raw: Str,
        agent: Str,
        product_token: Str,
        is_wildcard: Bool,
    }
}

table! {
    /// One row per non-blank line of a parsed robots.txt that is not an agent line.
    RobotsRulesBuilder, RobotsRuleRow, RobotsRules, arrow: RobotsRulesArrow,
    {
        warc_file: Str,
        warc_offset: I64,
        host: Str,
        group_index: I32,
        line_no: I32,
        key: Label,
        key_raw: Str,
        key_form: Label,
        separator: Label,
        value_raw: Text,
        value: Text,
        path_pattern: Str,
        value_number: F64,
        has_wildcard: Bool,
        has_end_anchor: Bool,
        too_long: Bool,
        has_nul: Bool,
        valid_utf8: Bool,
    }
}

table! {
    /// One row per robots.txt capture and tracked agent (see `repcensus agents`).
    AgentVerdictsBuilder, AgentVerdictRow, AgentVerdicts, arrow: AgentVerdictsArrow,
    {
        warc_file: Str,
        warc_offset: I64,
        host: Str,
        /// The host's registered domain (public suffix list), as in `robots_files`.
        registered_domain: Str,
        capture_time: Ts,
        http_status: I32,
        fetch_outcome: Str,
        agent: Str,
        agent_category: Str,
        operator: Str,
        /// The agent's product token is on a user-agent line of the file (as Google matches it).
        named: Bool,
        /// The agent's name is written on a user-agent line, ignoring case (see
        /// [`crate::robots::parse::writes_name`]).
        named_exact: Bool,
        /// Which groups decide: `specific`, `purpose`, `wildcard`, `none`.
        verdict_source: Label,
        root_allowed: Bool,
        /// full_block, partial_block, allowed, no_robots, unreachable, redirect, unknown,
        /// undetermined.
        verdict: Label,
        /// As `verdict`, but an unreachable robots.txt (5xx) is a full_block (RFC 9309 2.3.1.4)
        /// and a 429 is no_robots (a 4xx under RFC 9309).
        verdict_rfc9309: Label,
        /// As `verdict`, with the groups chosen as the crawler's operator documents (the
        /// registry's fallback tokens and ignored `*` groups); `not_honored` for a crawler that
        /// does not honour robots.txt.
        verdict_documented: Label,
        /// Which groups decided `verdict_documented`: `verdict_source`'s values, `fallback`,
        /// `not_honored`.
        verdict_documented_source: Label,
        n_applicable_rules: I32,
        crawl_delay: F64,
        /// `directive=value` of the agent's App-Directives application for `/`.
        app_directives: StrList,
        /// The AI usage preferences the deciding groups' `Content-Usage` rules give `/`
        /// (draft-ietf-aipref-attach-05, vocabulary aipref-vocab-08): `train-ai=n,search=y`.
        content_usage: Str,
    }
}

/// The scan appends a capture's rows as runs: its rows share their provenance and most share one
/// verdict, so appending them costs a few runs per capture, not a value per row and column.
impl AgentVerdictsBuilder {
    /// Append the rows of a capture, one per agent of `agents` in their order, with the
    /// provenance columns of `r`; their verdict columns follow from [`Self::verdicts`], which
    /// must be given exactly `agents.len()` rows.
    pub fn capture(&mut self, r: &AgentVerdictRow<'_>, agents: &[Agent]) {
        let n = agents.len() as u32;
        self.provenance(r, n);
        if !self.agent.has_block() {
            let mut idx = Vec::with_capacity(agents.len());
            for (col, field) in [
                (
                    &mut self.agent,
                    (|a: &Agent| &a.name) as fn(&Agent) -> &String,
                ),
                (&mut self.agent_category, |a: &Agent| &a.category),
                (&mut self.operator, |a: &Agent| &a.operator),
            ] {
                idx.clear();
                idx.extend(agents.iter().map(|a| col.intern(&field(a).as_str().into())));
                col.set_block(&idx);
            }
        }
        for col in [
            &mut self.agent,
            &mut self.agent_category,
            &mut self.operator,
        ] {
            col.push_blocks(1);
        }
        self.rows += n as usize;
    }

    fn provenance(&mut self, r: &AgentVerdictRow<'_>, n: u32) {
        self.warc_file.push_str(r.warc_file, n);
        self.warc_offset.push(r.warc_offset.as_ref(), n);
        self.host.push_str(r.host, n);
        self.registered_domain.push_str(r.registered_domain, n);
        self.capture_time.push(r.capture_time.as_ref(), n);
        self.http_status.push(r.http_status.as_ref(), n);
        self.fetch_outcome.push_str(r.fetch_outcome, n);
    }

    /// The verdict columns (`named` to `app_directives`) of `r` for the next `n` rows.
    pub fn verdicts(&mut self, r: &AgentVerdictRow<'_>, n: u32) {
        self.named.push(r.named, n);
        self.named_exact.push(r.named_exact, n);
        self.verdict_source.push_label(r.verdict_source, n);
        self.root_allowed.push(r.root_allowed, n);
        self.verdict.push_label(r.verdict, n);
        self.verdict_rfc9309.push_label(r.verdict_rfc9309, n);
        self.verdict_documented.push_label(r.verdict_documented, n);
        self.verdict_documented_source
            .push_label(r.verdict_documented_source, n);
        self.n_applicable_rules
            .push(r.n_applicable_rules.as_ref(), n);
        self.crawl_delay.push(r.crawl_delay.as_ref(), n);
        self.app_directives.push(r.app_directives, n);
        self.content_usage.push_str(r.content_usage, n);
    }
}

table! {
    /// The verdict columns of `agent_verdicts`, one row per capture and run of agents in
    /// registry order that share all of them: a capture's rows (one per agent) are a few runs.
    /// Written by default (`agent_verdicts` only on request), read by the derivation of
    /// `summary_agents` and by `queries/views/agent_verdicts.sql`, which makes `agent_verdicts`'
    /// rows from them.
    AgentVerdictRunsBuilder, AgentVerdictRunRow, AgentVerdictRuns, arrow: AgentVerdictRunsArrow,
    {
        warc_file: Str,
        warc_offset: I64,
        /// The registry position (0-based) of the run's first agent.
        agent_index: I32,
        /// The run's first agent.
        agent: Str,
        /// Agents in the run, from `agent_index` on in registry order.
        agents: I32,
        named: Bool,
        named_exact: Bool,
        verdict_source: Label,
        root_allowed: Bool,
        verdict: Label,
        verdict_rfc9309: Label,
        verdict_documented: Label,
        verdict_documented_source: Label,
        n_applicable_rules: I32,
        crawl_delay: F64,
        app_directives: StrList,
        content_usage: Str,
    }
}

impl AgentVerdictRunsBuilder {
    /// Begin a capture's `runs` rows: its provenance columns once for all of them, as one run
    /// each. [`Self::run`] appends the other columns of each.
    pub fn capture(&mut self, warc_file: Option<&str>, warc_offset: Option<i64>, runs: u32) {
        self.warc_file.push_str(warc_file, runs);
        self.warc_offset.push(warc_offset.as_ref(), runs);
        self.rows += runs as usize;
    }

    /// The columns but the provenance of a capture's next row.
    pub fn run(&mut self, r: &AgentVerdictRunRow<'_>) {
        <I32 as Kind>::push(&mut self.agent_index, &r.agent_index, 1);
        <Str as Kind>::push(&mut self.agent, &r.agent, 1);
        <I32 as Kind>::push(&mut self.agents, &r.agents, 1);
        <Bool as Kind>::push(&mut self.named, &r.named, 1);
        <Bool as Kind>::push(&mut self.named_exact, &r.named_exact, 1);
        <Label as Kind>::push(&mut self.verdict_source, &r.verdict_source, 1);
        <Bool as Kind>::push(&mut self.root_allowed, &r.root_allowed, 1);
        <Label as Kind>::push(&mut self.verdict, &r.verdict, 1);
        <Label as Kind>::push(&mut self.verdict_rfc9309, &r.verdict_rfc9309, 1);
        <Label as Kind>::push(&mut self.verdict_documented, &r.verdict_documented, 1);
        let source = &r.verdict_documented_source;
        <Label as Kind>::push(&mut self.verdict_documented_source, source, 1);
        <I32 as Kind>::push(&mut self.n_applicable_rules, &r.n_applicable_rules, 1);
        <F64 as Kind>::push(&mut self.crawl_delay, &r.crawl_delay, 1);
        <StrList as Kind>::push(&mut self.app_directives, &r.app_directives, 1);
        <Str as Kind>::push(&mut self.content_usage, &r.content_usage, 1);
    }
}

table! {
    /// One row per application directive of an `App-Directives` line.
    AppDirectivesBuilder, AppDirectiveRow, AppDirectives,
    {
        warc_file: Str,
        warc_offset: I64,
        host: Str,
        group_index: I32,
        line_no: I32,
        agents: StrList,
        path_pattern: Str,
        app_id: Str,
        directive: Str,
        value: Str,
        value_type: Str,
        key_raw: Str,
        key_form: Str,
        syntax_valid: Bool,
        problem: Str,
        value_raw: Text,
    }
}

table! {
    /// One row per directive of a robots header (`X-Robots-Tag`, `Robots-Tag`), robots meta tag
    /// or TDM Reservation Protocol header / meta tag of a response.
    PageSignalsBuilder, PageSignalRow, PageSignals,
    {
        warc_file: Str,
        warc_offset: I64,
        url: Text,
        host: Str,
        registered_domain: Str,
        capture_time: Ts,
        http_status: I32,
        /// Media type of the response (lower case, no parameters).
        content_type: Str,
        /// `x_robots_tag`, `robots_tag`, `tdm_header`, `content_signal`, `content_usage`
        /// (headers), `meta` (meta tags).
        source: Str,
        /// The header name or the meta `name` / `http-equiv` value, as written.
        name: Str,
        /// The header's or meta tag's position among the record's signals (0-based).
        signal_index: I32,
        /// `*` or the product token, lower case.
        agent: Str,
        /// Normalized directive (`noindex`, `max-snippet`, ...), `unknown`, `tdm-reservation`,
        /// `tdm-policy`; NULL for an agent named with no rules or an empty value.
        directive: Str,
        /// The directive's value (`max-snippet` 50, `unavailable_after` date, TDM value).
        directive_value: Str,
        /// The directive as written.
        directive_raw: Text,
        /// `sfv`, `sfv_lenient`, `legacy`, `invalid`, `tdmrep`, `content_signal`.
        syntax: Str,
        /// The vocabulary the preferences were read with: `aipref-vocab-08` for
        /// `Content-Usage`; NULL for the other sources.
        vocabulary: Str,
        /// Meta tags: found before the head ended. NULL for headers.
        in_head: Bool,
        /// The value was longer than 8 KiB; only its start was parsed.
        value_truncated: Bool,
        /// The whole value (cut at 8 KiB).
        raw_value: Text,
    }
}

table! {
    /// One row per page: every `response` record with an HTTP head but robots.txt captures
    /// (those `host_counts` counts), so pages can be counted by distinct URL and weighed by
    /// their bytes.
    PagesBuilder, PageRow, Pages,
    {
        warc_file: Str,
        warc_offset: I64,
        url: Text,
        host: Str,
        registered_domain: Str,
        capture_time: Ts,
        http_status: I32,
        /// `text/html` or `application/xhtml+xml`.
        html: Bool,
        /// The HTTP payload as captured (the record's block after the HTTP head: before
        /// content decoding), from the WARC `Content-Length`.
        bytes: I64,
    }
}

table! {
    /// One row per capture of `/llms.txt` or `/llms-full.txt` (the llms.txt proposal): what
    /// was served there, and, when it is the proposal's Markdown, its parts.
    LlmsTxtBuilder, LlmsTxtRow, LlmsTxt,
    {
        warc_file: Str,
        warc_offset: I64,
        warc_record_id: Str,
        /// `response`, `resource` or `revisit` (a revisit has no body here).
        warc_type: Str,
        url: Text,
        host: Str,
        capture_time: Ts,
        /// `llms.txt` or `llms-full.txt`.
        file: Str,
        http_status: I32,
        content_type: Str,
        redirect_location: Text,
        /// The body's length, decoded.
        bytes: I64,
        /// The body was cut (by the reader or the decoder's limit).
        truncated: Bool,
        /// `markdown`, `html`, `empty`, `text` or `binary` (NULL: no body).
        form: Str,
        /// A 2xx (or a resource record) whose body is the proposal's Markdown: an H1 first.
        valid: Bool,
        /// The H1's text.
        title: Text,
        has_summary: Bool,
        sections: I32,
        links: I32,
        optional_section: Bool,
        lines: I32,
    }
}

table! {
    /// One row per rule of a capture of `/.well-known/tdmrep.json` (TDMRep's site-wide file),
    /// or one row with no rule for a capture without one (not a 2xx, not a TDM file, an empty
    /// array): what was served, and each rule with why it is not used, if it is not.
    TdmrepRulesBuilder, TdmrepRuleRow, TdmrepRules,
    {
        warc_file: Str,
        warc_offset: I64,
        warc_record_id: Str,
        warc_type: Str,
        url: Text,
        host: Str,
        capture_time: Ts,
        http_status: I32,
        content_type: Str,
        redirect_location: Text,
        bytes: I64,
        truncated: Bool,
        /// `empty`, `html`, `not_json`, `not_an_array`; NULL for a TDM file (or no body).
        file_problem: Str,
        /// The JSON parser's message for `not_json`.
        file_detail: Text,
        /// Rules in the file.
        rules: I32,
        /// The rule's place in the file (0-based): the first rule that matches decides.
        rule_index: I32,
        location: Text,
        /// 0 or 1; NULL when missing or another value (then unset, as the protocol says).
        tdm_reservation: I32,
        /// `tdm-reservation` as written in JSON (`1`, `"1"`, `true`).
        reservation_raw: Str,
        tdm_policy: Text,
        /// `not_an_object`, `no_location`, `no_reservation`, `bad_reservation`; NULL for a
        /// rule a TDM agent uses.
        rule_problem: Str,
        /// The rule is the one that decides the site's root, `/` (the first usable rule whose
        /// location matches it).
        decides_root: Bool,
    }
}

table! {
    /// Per input, host, status class and HTML-or-not: how many responses, and how many carried
    /// each kind of signal. The denominators of "share of pages".
    HostCountsBuilder, HostCountRow, HostCounts, arrow: HostCountsArrow,
    {
        warc_file: Str,
        host: Str,
        registered_domain: Str,
        /// `2xx`, `3xx`, `4xx`, `5xx`, `other`.
        status_class: Str,
        /// The response is `text/html` or `application/xhtml+xml`.
        html: Bool,
        responses: I64,
        /// Responses with a robots meta tag (robots or a product token) in the head.
        with_meta: I64,
        /// Responses with an `X-Robots-Tag` or `Robots-Tag` header.
        with_header: I64,
        /// Responses with both.
        with_both: I64,
        /// Responses with a `Robots-Tag` header (the draft's name).
        with_robots_tag: I64,
        /// Responses with a TDM Reservation Protocol header or meta tag.
        with_tdm: I64,
    }
}

table! {
    /// One row per problem found while reading.
    ErrorsBuilder, ErrorRow, Errors,
    {
        scope: Str,
        kind: Str,
        detail: Text,
        warc_file: Str,
        warc_offset: I64,
        warc_record_id: Str,
        url: Str,
        /// The line of the records list that named the record (`scan --records`).
        list_line: I64,
    }
}

table! {
    /// One row per input.
    InputsBuilder, InputRow, Inputs,
    {
        path: Str,
        input_id: Str,
        bytes: I64,
        format: Str,
        compression: Str,
        status: Str,
        records: I64,
        records_warcinfo: I64,
        records_response: I64,
        records_resource: I64,
        records_request: I64,
        records_metadata: I64,
        records_revisit: I64,
        records_conversion: I64,
        records_continuation: I64,
        records_other: I64,
        /// Records whose version is none of WARC 0.16-1.1 (or ARC).
        records_unknown_version: I64,
        gzip_members: I64,
        /// Members inflated by streaming: too large for the member buffer, or damaged.
        gzip_streamed_members: I64,
        /// Members inflated only as far as the tables needed (the rest skipped unread).
        gzip_early_stopped_members: I64,
        decompressed_bytes: I64,
        /// Of `decompressed_bytes`, those skipped without inflating them.
        skipped_bytes: I64,
        chunks: I32,
        rows_robots_files: I64,
        rows_robots_agents: I64,
        rows_robots_rules: I64,
        rows_app_directives: I64,
        rows_acap_fields: I64,
        rows_agent_verdicts: I64,
        rows_agent_verdict_runs: I64,
        rows_page_signals: I64,
        rows_host_counts: I64,
        rows_pages: I64,
        rows_llms_txt: I64,
        rows_tdmrep_rules: I64,
        errors: I64,
        started: Ts,
        seconds: F64,
        tool_version: Str,
        schema_version: Str,
        /// Version of the agent registry behind `agent_verdicts` (`+<file>` with `--agents`).
        registry_version: Str,
        /// The crawl's name as `--crawl` gave it or the first `warcinfo` wrote it; the `crawl`
        /// folder name is made safe from it and cut at 120 characters.
        crawl_name: Str,
        /// The vocabulary the input's AI usage preferences (`Content-Usage`) were read with.
        aipref_vocabulary: Str,
        /// Of a targeted input (`scan --records`): the records list it was cut from.
        records_list: Str,
        /// Of a targeted input: the lines of the list it answers for (a record listed twice
        /// counts once).
        records_listed: I64,
    }
}
/// The rows of a batch as JSON objects (column name -> value; NULL -> null). For the CLI's JSON
/// output, so it holds exactly what the tables hold.
pub fn batch_to_json(batch: &RecordBatch) -> Vec<serde_json::Map<String, serde_json::Value>> {
    use arrow_array::{
        cast::AsArray,
        types::{Float64Type, Int32Type, Int64Type, TimestampMicrosecondType},
        Array,
    };
    use serde_json::Value;
    let schema = batch.schema();
    let mut rows = vec![serde_json::Map::new(); batch.num_rows()];
    for (f, col) in schema.fields().iter().zip(batch.columns()) {
        for (i, row) in rows.iter_mut().enumerate() {
            let v = if col.is_null(i) {
                Value::Null
            } else {
                match col.data_type() {
                    DataType::Utf8 => Value::from(col.as_string::<i32>().value(i)),
                    DataType::Int32 => Value::from(col.as_primitive::<Int32Type>().value(i)),
                    DataType::Int64 => Value::from(col.as_primitive::<Int64Type>().value(i)),
                    DataType::Float64 => Value::from(col.as_primitive::<Float64Type>().value(i)),
                    DataType::Boolean => Value::from(col.as_boolean().value(i)),
                    DataType::Timestamp(..) => {
                        Value::from(col.as_primitive::<TimestampMicrosecondType>().value(i))
                    }
                    DataType::List(_) => {
                        let l = col.as_list::<i32>().value(i);
                        let s = l.as_string::<i32>();
                        Value::from((0..s.len()).map(|j| s.value(j)).collect::<Vec<_>>())
                    }
                    other => Value::from(format!("<{other}>")),
                }
            };
            row.insert(f.name().clone(), v);
        }
    }
    rows
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::OutDir;
    use arrow_array::cast::AsArray;
    use arrow_array::Array;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    fn agent(i: usize) -> Agent {
        Agent {
            category: ["ai_training", "search_engine", "seo"][i % 3].into(),
            operator: ["a", "b"][i % 2].into(),
            ..Agent::for_test(&format!("Bot{i}"))
        }
    }

    /// Rows appended to the run writer, in row groups of both kinds of appends, read back with
    /// the parquet crate's Arrow reader equal the same rows in the Arrow builder.
    #[test]
    fn run_writer_equals_arrow_builder() {
        // 24 agents make a block of whole bit-packed groups, 21 do not.
        for n in [21, 24] {
            run_writer_equals_arrow_builder_with(n);
        }
    }

    /// One scenario read top to bottom (rows in, both writers, both files read back and compared
    /// column by column); at about 100 lines it is long, and splitting it would hide the order.
    fn run_writer_equals_arrow_builder_with(n_agents: usize) {
        let agents: Vec<Agent> = (0..n_agents).map(agent).collect();
        let dir = tempfile::tempdir().unwrap();
        let out = OutDir::create(dir.path()).unwrap();
        let mut part = out
            .part_writer(&AgentVerdictsBuilder::desc(), "c", "x")
            .unwrap();
        let mut runs = AgentVerdictsBuilder::default();
        let mut reference = AgentVerdictsArrow::default();
        let mut seed = 7u64;
        let mut rnd = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let verdicts = ["allowed", "full_block", "partial_block", "no_robots"];
        let lists: [Option<&[&str]>; 4] = [None, Some(&[]), Some(&["a=1"]), Some(&["b=2", "a=1"])];
        let mut expected = Vec::new();
        for group in 0..4 {
            for capture in 0..40u64 {
                let files = ["f1.warc.gz", "f2.warc.gz"];
                let hosts = [Some("a.example"), None, Some("b.example")];
                let prov = AgentVerdictRow {
                    warc_file: Some(files[(capture % 2) as usize]),
                    warc_offset: Some((capture * 1000 + group) as i64),
                    host: hosts[rnd(3) as usize],
                    registered_domain: hosts[rnd(3) as usize],
                    capture_time: (rnd(4) > 0).then_some(1_700_000_000_000_000 + capture as i64),
                    http_status: [Some(200), Some(404), None][rnd(3) as usize],
                    fetch_outcome: Some(["ok", "not_found"][rnd(2) as usize]),
                    ..AgentVerdictRow::default()
                };
                let one_by_one = rnd(3) == 0;
                if !one_by_one {
                    runs.capture(&prov, &agents);
                }
                let mut i = 0;
                while i < agents.len() {
                    let n = (1 + rnd(12) as usize).min(agents.len() - i);
                    let v = AgentVerdictRow {
                        named: [None, Some(true), Some(false)][rnd(3) as usize],
                        named_exact: [None, Some(true), Some(false)][rnd(3) as usize],
                        verdict_source: [None, Some("wildcard"), Some("specific")][rnd(3) as usize],
                        root_allowed: [None, Some(true), Some(false)][rnd(3) as usize],
                        verdict: Some(verdicts[rnd(4) as usize]),
                        verdict_rfc9309: Some(verdicts[rnd(4) as usize]),
                        verdict_documented: Some(verdicts[rnd(4) as usize]),
                        n_applicable_rules: [None, Some(0), Some(3)][rnd(3) as usize],
                        crawl_delay: [None, Some(0.5), Some(10.0), Some(f64::NAN)][rnd(4) as usize],
                        app_directives: lists[rnd(4) as usize],
                        content_usage: [None, Some("train-ai=n"), Some("")][rnd(3) as usize],
                        ..prov.clone()
                    };
                    if !one_by_one {
                        runs.verdicts(&v, n as u32);
                    }
                    for a in &agents[i..i + n] {
                        let row = AgentVerdictRow {
                            agent: Some(&a.name),
                            agent_category: Some(&a.category),
                            operator: Some(&a.operator),
                            ..v.clone()
                        };
                        if one_by_one {
                            runs.append(&row);
                        }
                        reference.append(&row);
                    }
                    i += n;
                }
            }
            runs.write_into("c", &mut part).unwrap();
            expected.push(reference.finish("c"));
        }
        assert_eq!(part.rows(), 4 * 40 * n_agents as u64);
        out.commit(vec![part.finish().unwrap()]).unwrap();
        let file = std::fs::File::open(out.part_path("agent_verdicts", "c", "x")).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 4);
        let got: Vec<RecordBatch> = reader
            .with_batch_size(40 * n_agents)
            .build()
            .unwrap()
            .map(|b| b.unwrap())
            .collect();
        assert_eq!(got.len(), expected.len());
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g.schema().fields(), e.schema().fields());
            for (i, f) in e.schema().fields().iter().enumerate() {
                // NaN != NaN in array equality: compare the float column's bits.
                if f.name() == "crawl_delay" {
                    let bits = |a: &ArrayRef| {
                        let a = a.as_primitive::<arrow_array::types::Float64Type>();
                        (0..a.len())
                            .map(|j| a.is_valid(j).then(|| a.value(j).to_bits()))
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(bits(g.column(i)), bits(e.column(i)));
                } else {
                    assert_eq!(
                        g.column(i).to_data(),
                        e.column(i).to_data(),
                        "column {}",
                        f.name()
                    );
                }
            }
        }
    }

    #[test]
    fn a_builder_past_its_seal_bytes_gives_several_batches_with_every_row_in_order() {
        use arrow_array::cast::AsArray;
        let mut b = PageSignalsBuilder::default().with_seal_bytes(10_000);
        let value = "x".repeat(3000);
        let urls: Vec<String> = (0..20).map(|k| format!("http://h/{k}")).collect();
        for u in &urls {
            b.append(&PageSignalRow {
                url: Some(u),
                raw_value: Some(&value),
                ..PageSignalRow::default()
            });
        }
        assert_eq!(b.len(), 20);
        let batches = b.batches("c");
        assert!(batches.len() >= 5, "{} batches", batches.len());
        let got: Vec<String> = batches
            .iter()
            .flat_map(|batch| {
                let col = batch.column_by_name("url").unwrap().as_string::<i32>();
                (0..col.len())
                    .map(|i| col.value(i).to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(got, urls);
        assert!(batches.iter().all(|batch| {
            let raw = batch
                .column_by_name("raw_value")
                .unwrap()
                .as_string::<i32>();
            raw.values().len() <= 10_000 + 3000
        }));
        assert_eq!(b.len(), 0);
        assert_eq!(
            b.batches("c").len(),
            1,
            "an empty builder gives one empty batch"
        );
    }
}

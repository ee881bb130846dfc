//! The output tables: schemas, row types and Arrow column builders.
//!
//! Each table is declared once with [`table!`], which generates a borrowed row struct (`*Row`), a
//! builder with one Arrow builder per column (`*Builder`, reused across records) and the Arrow
//! schema. Rows borrow from the record being read; only appending to a builder copies.
//! The `crawl` column is not part of the rows: the writer adds it when it knows the input's crawl
//! (the warcinfo record may be read by another worker than the row's).
//!
//! The schema is documented in docs/schema.md; bump [`SCHEMA_VERSION`] with any change to it.

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, ListBuilder, StringBuilder,
    TimestampMicrosecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use std::sync::Arc;

use crate::agents::Agent;
use crate::parts::runs::{
    write_row_group, BoolCol, DictCol, RunColumn, Scratch, StrCol, StrListCol, TextCol,
};
use crate::parts::{PartWriter, TableDesc};
use anyhow::Result;

/// Version of the table schemas, stored in every Parquet file's metadata as `repcensus.schema_version`.
pub const SCHEMA_VERSION: &str = "6";

/// A column kind: its Arrow type, the borrowed value a row holds, the Arrow builder that takes it
/// and the column of a table written from runs ([`crate::parts::runs`]) that takes it.
pub trait Kind {
    type Value<'a>;
    type Builder: Default;
    type RunCol: RunColumn + Default + Send;
    /// Written without a Parquet dictionary (mostly distinct values).
    const PLAIN: bool = false;
    fn data_type() -> DataType;
    fn append(b: &mut Self::Builder, v: &Self::Value<'_>);
    fn finish(b: &mut Self::Builder) -> ArrayRef;
    /// Append `n` rows of `v` to a run column.
    fn push(c: &mut Self::RunCol, v: &Self::Value<'_>, n: u32);
}

/// UTF-8 string, dictionary-encoded in Parquet (values that repeat: names, enums, hosts).
pub struct Str;
/// UTF-8 string of mostly distinct values (URLs, line values), PLAIN-encoded in Parquet.
pub struct Text;
/// 64-bit integer.
pub struct I64;
/// 32-bit integer.
pub struct I32;
/// Boolean.
pub struct Bool;
/// 64-bit float.
pub struct F64;
/// Timestamp, microseconds, UTC.
pub struct Ts;
/// List of UTF-8 strings.
pub struct StrList;

macro_rules! str_kind {
    ($kind:ident, $run_col:ty, $plain:expr) => {
        impl Kind for $kind {
            type Value<'a> = Option<&'a str>;
            type Builder = StringBuilder;
            type RunCol = $run_col;
            const PLAIN: bool = $plain;
            fn data_type() -> DataType {
                DataType::Utf8
            }
            fn append(b: &mut StringBuilder, v: &Option<&str>) {
                b.append_option(*v)
            }
            fn finish(b: &mut StringBuilder) -> ArrayRef {
                Arc::new(b.finish())
            }
            fn push(c: &mut $run_col, v: &Option<&str>, n: u32) {
                c.push_str(*v, n)
            }
        }
    };
}
str_kind!(Str, StrCol, false);
str_kind!(Text, TextCol, true);

macro_rules! prim_kind {
    ($kind:ident, $t:ty, $builder:ty, $dt:expr) => {
        impl Kind for $kind {
            type Value<'a> = Option<$t>;
            type Builder = $builder;
            type RunCol = DictCol<$t>;
            fn data_type() -> DataType {
                $dt
            }
            fn append(b: &mut $builder, v: &Option<$t>) {
                b.append_option(*v)
            }
            fn finish(b: &mut $builder) -> ArrayRef {
                Arc::new(b.finish())
            }
            fn push(c: &mut DictCol<$t>, v: &Option<$t>, n: u32) {
                c.push(v.as_ref(), n)
            }
        }
    };
}
prim_kind!(I64, i64, Int64Builder, DataType::Int64);
prim_kind!(I32, i32, Int32Builder, DataType::Int32);
prim_kind!(F64, f64, Float64Builder, DataType::Float64);

impl Kind for Bool {
    type Value<'a> = Option<bool>;
    type Builder = BooleanBuilder;
    type RunCol = BoolCol;
    fn data_type() -> DataType {
        DataType::Boolean
    }
    fn append(b: &mut BooleanBuilder, v: &Option<bool>) {
        b.append_option(*v)
    }
    fn finish(b: &mut BooleanBuilder) -> ArrayRef {
        Arc::new(b.finish())
    }
    fn push(c: &mut BoolCol, v: &Option<bool>, n: u32) {
        c.push(*v, n)
    }
}

impl Kind for Ts {
    type Value<'a> = Option<i64>;
    type Builder = TimestampMicrosecondBuilder;
    type RunCol = DictCol<i64>;
    fn data_type() -> DataType {
        DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
    }
    fn append(b: &mut TimestampMicrosecondBuilder, v: &Option<i64>) {
        b.append_option(*v)
    }
    fn finish(b: &mut TimestampMicrosecondBuilder) -> ArrayRef {
        Arc::new(b.finish().with_timezone("UTC"))
    }
    fn push(c: &mut DictCol<i64>, v: &Option<i64>, n: u32) {
        c.push(v.as_ref(), n)
    }
}

impl Kind for StrList {
    type Value<'a> = Option<&'a [&'a str]>;
    type Builder = ListBuilder<StringBuilder>;
    type RunCol = StrListCol;
    fn push(c: &mut StrListCol, v: &Option<&[&str]>, n: u32) {
        c.push(*v, n)
    }
    fn data_type() -> DataType {
        DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
    }
    fn append(b: &mut ListBuilder<StringBuilder>, v: &Option<&[&str]>) {
        match v {
            Some(items) => {
                for s in *items {
                    b.values().append_value(s);
                }
                b.append(true);
            }
            None => b.append(false),
        }
    }
    fn finish(b: &mut ListBuilder<StringBuilder>) -> ArrayRef {
        Arc::new(b.finish())
    }
}

/// Columns added by the writer, first in every table.
pub const CRAWL_COLUMN: &str = "crawl";

/// What every table builder can do, for the writer.
pub trait TableBuilder: Send {
    const NAME: &'static str;
    /// Parts are written from runs by [`TableBuilder::write_into`] (see [`crate::parts::runs`]), not as
    /// Arrow batches.
    const RUNS: bool = false;
    fn schema() -> SchemaRef;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Columns that are high-cardinality (no Parquet dictionary).
    fn plain_columns() -> Vec<&'static str> {
        Vec::new()
    }
    /// What the part writer needs to know of the table.
    fn desc() -> TableDesc {
        TableDesc {
            name: Self::NAME,
            schema: Self::schema(),
            plain_columns: Self::plain_columns(),
            from_runs: Self::RUNS,
            schema_version: SCHEMA_VERSION,
        }
    }
    /// Write the rows into the table's part, the `crawl` column first, and start empty.
    fn write_into(&mut self, crawl: &str, part: &mut PartWriter) -> Result<()>;
}

/// A builder that takes rows of type `R`: a table's Arrow builder and its run builder alike.
pub trait AppendRow<R> {
    fn append_row(&mut self, row: &R);
}

macro_rules! table {
    // A table written from runs (see `crate::parts::runs`): `$builder` is the scan's, `$arrow` the same
    // rows through Arrow, kept as the reference the run writer is tested against.
    (
        $(#[$doc:meta])*
        $builder:ident, $row:ident, $name:literal, arrow: $arrow:ident,
        { $($(#[$cdoc:meta])* $col:ident : $kind:ident),* $(,)? }
    ) => {
        table! {
            $(#[$doc])*
            $arrow, $row, $name,
            { $($(#[$cdoc])* $col: $kind),* }
        }

        $(#[$doc])*
        #[derive(Default)]
        pub struct $builder {
            rows: usize,
            crawl: StrCol,
            $($col: <$kind as Kind>::RunCol,)*
            scratch: Scratch,
        }

        impl $builder {
            pub fn append(&mut self, row: &$row<'_>) {
                $(<$kind as Kind>::push(&mut self.$col, &row.$col, 1);)*
                self.rows += 1;
            }
        }

        impl<'a> AppendRow<$row<'a>> for $builder {
            fn append_row(&mut self, row: &$row<'a>) {
                self.append(row)
            }
        }

        impl TableBuilder for $builder {
            const NAME: &'static str = $name;
            const RUNS: bool = true;
            fn schema() -> SchemaRef {
                $arrow::schema()
            }
            fn len(&self) -> usize {
                self.rows
            }
            fn plain_columns() -> Vec<&'static str> {
                $arrow::plain_columns()
            }
            /// One row group per call.
            fn write_into(&mut self, crawl: &str, part: &mut PartWriter) -> Result<()> {
                let rows = std::mem::take(&mut self.rows);
                self.crawl.push_str(Some(crawl), rows as u32);
                write_row_group(
                    part,
                    &mut [&mut self.crawl, $(&mut self.$col),*],
                    rows as u64,
                    &mut self.scratch,
                )
            }
        }
    };
    (
        $(#[$doc:meta])*
        $builder:ident, $row:ident, $name:literal,
        { $($(#[$cdoc:meta])* $col:ident : $kind:ident),* $(,)? }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default)]
        pub struct $row<'a> {
            $($(#[$cdoc])* pub $col: <$kind as Kind>::Value<'a>,)*
        }

        #[derive(Default)]
        pub struct $builder {
            rows: usize,
            $($col: <$kind as Kind>::Builder,)*
        }

        impl $builder {
            pub fn append(&mut self, row: &$row<'_>) {
                $(<$kind as Kind>::append(&mut self.$col, &row.$col);)*
                self.rows += 1;
            }

            /// Drain the rows into a batch, the `crawl` column first.
            pub fn finish(&mut self, crawl: &str) -> RecordBatch {
                let n = std::mem::take(&mut self.rows);
                let mut cols: Vec<ArrayRef> = vec![Arc::new(StringArray::from(vec![crawl; n]))];
                $(cols.push(<$kind as Kind>::finish(&mut self.$col));)*
                RecordBatch::try_new(Self::schema(), cols).expect("table columns match their schema")
            }
        }

        impl<'a> AppendRow<$row<'a>> for $builder {
            fn append_row(&mut self, row: &$row<'a>) {
                self.append(row)
            }
        }

        impl TableBuilder for $builder {
            const NAME: &'static str = $name;
            fn schema() -> SchemaRef {
                let mut fields = vec![Field::new(CRAWL_COLUMN, DataType::Utf8, false)];
                $(fields.push(Field::new(stringify!($col), <$kind as Kind>::data_type(), true));)*
                Arc::new(Schema::new(fields))
            }
            fn len(&self) -> usize {
                self.rows
            }
            fn plain_columns() -> Vec<&'static str> {
                [$((stringify!($col), <$kind as Kind>::PLAIN)),*]
                    .into_iter()
                    .filter_map(|(c, plain)| plain.then_some(c))
                    .collect()
            }
            fn write_into(&mut self, crawl: &str, part: &mut PartWriter) -> Result<()> {
                part.write(&self.finish(crawl))
            }
        }
    };
}

table! {
    /// One row per capture of a `/robots.txt` URL, whatever its status.
    RobotsFilesBuilder, RobotsFileRow, "robots_files",
    {
        warc_file: Str,
        warc_offset: I64,
        warc_record_id: Text,
        /// `response`, `resource` or `revisit`.
        warc_type: Str,
        url: Text,
        host: Str,
        registered_domain: Str,
        capture_time: Ts,
        http_status: I32,
        fetch_outcome: Str,
        redirect_location: Text,
        content_type: Str,
        content_encoding: Str,
        transfer_encoding: Str,
        body_bytes: I64,
        truncated: Bool,
        warc_truncated: Str,
        body_digest: Text,
        has_bom: Bool,
        line_endings: Str,
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
    }
}

table! {
    /// One row per ACAP field (`ACAP-*` line, `##ACAP version=` comment).
    AcapFieldsBuilder, AcapFieldRow, "acap_fields",
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
    RobotsAgentsBuilder, RobotsAgentRow, "robots_agents", arrow: RobotsAgentsArrow,
    {
        warc_file: Str,
        warc_offset: I64,
        host: Str,
        group_index: I32,
        line_no: I32,
        /// `user_agent` or `purpose`.
        line_kind: Str,
        key_raw: Str,
        key_form: Str,
        separator: Str,
        agent_raw: Str,
        agent: Str,
        product_token: Str,
        is_wildcard: Bool,
    }
}

table! {
    /// One row per non-blank line of a parsed robots.txt that is not an agent line.
    RobotsRulesBuilder, RobotsRuleRow, "robots_rules", arrow: RobotsRulesArrow,
    {
        warc_file: Str,
        warc_offset: I64,
        host: Str,
        group_index: I32,
        line_no: I32,
        key: Str,
        key_raw: Str,
        key_form: Str,
        separator: Str,
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
    AgentVerdictsBuilder, AgentVerdictRow, "agent_verdicts", arrow: AgentVerdictsArrow,
    {
        warc_file: Str,
        warc_offset: I64,
        host: Str,
        capture_time: Ts,
        http_status: I32,
        fetch_outcome: Str,
        agent: Str,
        agent_category: Str,
        operator: Str,
        /// The agent's product token is on a user-agent line of the file (as Google matches it).
        named: Bool,
        /// The agent's name (up to a `/` or space) is written on a user-agent line, ignoring case.
        named_exact: Bool,
        /// Which groups decide: `specific`, `purpose`, `wildcard`, `none`.
        verdict_source: Str,
        root_allowed: Bool,
        /// full_block, partial_block, allowed, no_robots, unreachable, redirect, unknown,
        /// undetermined.
        verdict: Str,
        /// As `verdict`, but an unreachable robots.txt (5xx) is a full_block (RFC 9309 2.3.1.4)
        /// and a 429 is no_robots (a 4xx under RFC 9309).
        verdict_rfc9309: Str,
        n_applicable_rules: I32,
        crawl_delay: F64,
        /// `directive=value` of the agent's App-Directives application for `/`.
        app_directives: StrList,
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
        self.capture_time.push(r.capture_time.as_ref(), n);
        self.http_status.push(r.http_status.as_ref(), n);
        self.fetch_outcome.push_str(r.fetch_outcome, n);
    }

    /// The verdict columns (`named` to `app_directives`) of `r` for the next `n` rows.
    pub fn verdicts(&mut self, r: &AgentVerdictRow<'_>, n: u32) {
        self.named.push(r.named, n);
        self.named_exact.push(r.named_exact, n);
        self.verdict_source.push_str(r.verdict_source, n);
        self.root_allowed.push(r.root_allowed, n);
        self.verdict.push_str(r.verdict, n);
        self.verdict_rfc9309.push_str(r.verdict_rfc9309, n);
        self.n_applicable_rules
            .push(r.n_applicable_rules.as_ref(), n);
        self.crawl_delay.push(r.crawl_delay.as_ref(), n);
        self.app_directives.push(r.app_directives, n);
    }
}

table! {
    /// One row per application directive of an `App-Directives` line.
    AppDirectivesBuilder, AppDirectiveRow, "app_directives",
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
    PageSignalsBuilder, PageSignalRow, "page_signals",
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
        /// `x_robots_tag`, `robots_tag`, `tdm_header` (headers), `meta` (meta tags).
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
        /// `sfv`, `sfv_lenient`, `legacy`, `invalid`, `tdmrep`.
        syntax: Str,
        /// Meta tags: found before the head ended. NULL for headers.
        in_head: Bool,
        /// The value was longer than 8 KiB; only its start was parsed.
        value_truncated: Bool,
        /// The whole value (cut at 8 KiB).
        raw_value: Text,
    }
}

table! {
    /// Per input, host, status class and HTML-or-not: how many responses, and how many carried
    /// each kind of signal. The denominators of "share of pages".
    HostCountsBuilder, HostCountRow, "host_counts", arrow: HostCountsArrow,
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
    ErrorsBuilder, ErrorRow, "errors",
    {
        scope: Str,
        kind: Str,
        detail: Text,
        warc_file: Str,
        warc_offset: I64,
        warc_record_id: Str,
        url: Str,
    }
}

table! {
    /// One row per input.
    InputsBuilder, InputRow, "inputs",
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
        rows_page_signals: I64,
        rows_host_counts: I64,
        errors: I64,
        started: Ts,
        seconds: F64,
        tool_version: Str,
        schema_version: Str,
        /// Version of the agent registry behind `agent_verdicts` (`+<file>` with `--agents`).
        registry_version: Str,
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
            name: format!("Bot{i}"),
            token: format!("Bot{i}"),
            category: ["ai_training", "search_engine", "seo"][i % 3].into(),
            operator: ["a", "b"][i % 2].into(),
            robots_txt: "unknown".into(),
            robots_txt_source: None,
            app: None,
            purpose: None,
            source: "test".into(),
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
                        n_applicable_rules: [None, Some(0), Some(3)][rnd(3) as usize],
                        crawl_delay: [None, Some(0.5), Some(10.0), Some(f64::NAN)][rnd(4) as usize],
                        app_directives: lists[rnd(4) as usize],
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
}

/// Slots of the tables an input writes parts of besides `inputs`: indexes into [`TABLE_NAMES`]
/// and bits of a [`TableSelection`].
pub const T_ROBOTS: usize = 0;
pub const T_AGENTS: usize = 1;
pub const T_RULES: usize = 2;
pub const T_APP: usize = 3;
pub const T_ACAP: usize = 4;
pub const T_VERDICTS: usize = 5;
pub const T_ERRORS: usize = 6;
pub const T_SIGNALS: usize = 7;
pub const T_HOSTS: usize = 8;
/// The tables an input writes parts of besides `inputs`, by slot.
pub const TABLE_NAMES: [&str; 9] = [
    RobotsFilesBuilder::NAME,
    RobotsAgentsBuilder::NAME,
    RobotsRulesBuilder::NAME,
    AppDirectivesBuilder::NAME,
    AcapFieldsBuilder::NAME,
    AgentVerdictsBuilder::NAME,
    ErrorsBuilder::NAME,
    PageSignalsBuilder::NAME,
    HostCountsBuilder::NAME,
];

/// The tables a scan writes (`scan --tables`), one bit per slot of [`TABLE_NAMES`]. `errors` and
/// `inputs` are always written: they say what happened to each input. Work that only unselected
/// tables need is not done (no head scan without `page_signals` and `host_counts`, no verdicts
/// without `agent_verdicts`, no robots.txt parsing without any robots table), so errors that
/// only that work finds are not reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSelection(u16);

impl TableSelection {
    /// Tables that come from robots.txt captures (slots `T_ROBOTS..=T_VERDICTS`).
    const ROBOTS: u16 = (1 << (T_VERDICTS + 1)) - 1;
    const LINES: u16 = 1 << T_AGENTS | 1 << T_RULES | 1 << T_APP;
    const PAGES: u16 = 1 << T_SIGNALS | 1 << T_HOSTS;

    /// Every table (the default).
    pub fn all() -> Self {
        TableSelection((1 << TABLE_NAMES.len()) - 1)
    }

    /// The named tables, plus `errors` and `inputs`; empty names are ignored. An unknown name
    /// is an error that lists the known ones.
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Self, String> {
        let mut bits = 1 << T_ERRORS;
        for n in names.iter().map(|n| n.as_ref().trim()) {
            if n.is_empty() || n == InputsBuilder::NAME {
                continue;
            }
            match TABLE_NAMES.iter().position(|t| *t == n) {
                Some(slot) => bits |= 1 << slot,
                None => {
                    return Err(format!(
                        "unknown table `{n}` (tables: {}, {})",
                        TABLE_NAMES.join(", "),
                        InputsBuilder::NAME
                    ))
                }
            }
        }
        Ok(TableSelection(bits))
    }

    /// Whether the table in `slot` (`T_ROBOTS`, ...) is written.
    pub fn writes(self, slot: usize) -> bool {
        self.0 & (1 << slot) != 0
    }

    /// Whether every table of `self` is in `other`.
    pub fn within(self, other: TableSelection) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether some table that comes from robots.txt captures is written.
    pub fn robots(self) -> bool {
        self.0 & Self::ROBOTS != 0
    }

    /// Whether `robots_agents`, `robots_rules` or `app_directives` is written (their rows come
    /// from one pass over a file's lines).
    pub fn robots_lines(self) -> bool {
        self.0 & Self::LINES != 0
    }

    /// Whether `page_signals` or `host_counts` is written (both need every response's headers
    /// and HTML head).
    pub fn pages(self) -> bool {
        self.0 & Self::PAGES != 0
    }

    /// The selected tables' names, in slot order, then `inputs`.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        (0..TABLE_NAMES.len())
            .filter(move |&slot| self.writes(slot))
            .map(|slot| TABLE_NAMES[slot])
            .chain([InputsBuilder::NAME])
    }
}

impl Default for TableSelection {
    fn default() -> Self {
        Self::all()
    }
}

#[cfg(test)]
mod selection_tests {
    use super::TableSelection;

    #[test]
    fn parse_adds_errors_and_inputs() {
        let s = TableSelection::parse(&["robots_files", ""]).unwrap();
        assert_eq!(
            s.names().collect::<Vec<_>>(),
            ["robots_files", "errors", "inputs"]
        );
        assert_eq!(
            TableSelection::parse(&["inputs"])
                .unwrap()
                .names()
                .collect::<Vec<_>>(),
            ["errors", "inputs"]
        );
        assert!(s.robots() && !s.robots_lines() && !s.pages());
        let p = TableSelection::parse(&["host_counts"]).unwrap();
        assert!(p.pages() && !p.robots());
        assert!(s.within(TableSelection::all()));
        assert!(!TableSelection::all().within(s));
        assert_eq!(
            TableSelection::parse(&super::TABLE_NAMES).unwrap(),
            TableSelection::all()
        );
        let e = TableSelection::parse(&["robots_file"]).unwrap_err();
        assert!(e.contains("unknown table `robots_file`") && e.contains("host_counts, inputs"));
    }
}

//! `scan --resume`: which inputs an earlier run into the same output folder already finished.
//!
//! An input is complete when its `inputs` part is in place (it is committed last, after the old
//! one was removed, so its presence says the input's other parts are this run's) and that part
//! agrees with what would be written now: the same path and size, tool, schema and registry
//! versions, a status other than `failed` (a failure may have been transient: it is retried),
//! and, for every table the run writes (`--tables`), a part with exactly the row count the
//! `inputs` row gives, or no part when it gives 0; a NULL count (the earlier run did not write
//! that table) makes the input incomplete. Tables the run does not write are not looked at. Anything else is redone; committing the redone input replaces or removes
//! every part of it, so a resumed run never duplicates rows. Parts are found and read through
//! [`OutDir`], so an `s3://` output is checked the same way (only footers of large parts are read).

use super::summary::InputTotals;
use crate::parts::OutDir;
use crate::tables::{Table, TableSelection, SCHEMA_VERSION};
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// The complete output of input `id` (read from `name`, `bytes` long), if an earlier run left one.
pub fn completed(
    out: &OutDir,
    id: &str,
    name: &str,
    bytes: u64,
    registry_version: &str,
    tables: TableSelection,
) -> Option<InputTotals> {
    let parts = out.find_parts(Table::Inputs.name(), id);
    let [(crawl, inputs_part)] = parts.as_slice() else {
        return None;
    };
    let batch = read_one(out.read_part(inputs_part)?)?;
    if batch.num_rows() != 1 {
        return None;
    }
    let text = |col: &str| -> Option<String> {
        let c = batch.column_by_name(col)?;
        let s = c.as_string_opt::<i32>()?;
        (!s.is_null(0)).then(|| s.value(0).to_string())
    };
    let int = |col: &str| -> Option<u64> {
        let c = batch.column_by_name(col)?;
        let a = c.as_primitive_opt::<Int64Type>()?;
        (!a.is_null(0)).then(|| a.value(0).max(0) as u64)
    };
    let status = text("status")?;
    let same = text("path")? == name
        && int("bytes")? == bytes
        && text("tool_version")? == env!("CARGO_PKG_VERSION")
        && text("schema_version")? == SCHEMA_VERSION
        && text("registry_version")? == registry_version
        && status != "failed";
    if !same {
        return None;
    }
    let mut done = InputTotals {
        crawl: crawl.clone(),
        records: int("records")?,
        errors: int("errors")?,
        ..InputTotals::default()
    };
    let mut errors_part = None;
    for table in tables.of_input() {
        let want = int(table.count_column()?)?;
        let mut found = out.find_parts(table.name(), id);
        match found.as_slice() {
            [] if want == 0 => {}
            [(c, part)] if c == crawl && want > 0 && out.part_rows(part)? == want => {}
            _ => return None,
        }
        if table == Table::Errors {
            errors_part = found.pop().map(|(_, p)| p);
        }
        done.rows.push((table, want));
    }
    if let Some(part) = errors_part {
        let errors = read_all(out.read_part(&part)?)?;
        for b in &errors {
            let kinds = b.column_by_name("kind")?.as_string_opt::<i32>()?;
            for k in kinds.iter().flatten() {
                *done.errors_by_kind.entry(k.to_string()).or_default() += 1;
            }
        }
    }
    Some(done)
}

fn read_all(bytes: bytes::Bytes) -> Option<Vec<RecordBatch>> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes)
        .ok()?
        .build()
        .ok()?;
    reader.collect::<Result<Vec<_>, _>>().ok()
}

fn read_one(bytes: bytes::Bytes) -> Option<RecordBatch> {
    let mut batches = read_all(bytes)?;
    (batches.len() == 1).then(|| batches.remove(0))
}

//! Whether a folder holds every part its `inputs` rows count rows for: a part deleted (or lost
//! in a copy) while its input's `inputs` row stays makes every figure derived from the crawl
//! silently smaller. `repcensus hosts` and `report` check it first and name what is missing.

use super::Table;
use crate::parts::OutDir;
use anyhow::Result;
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::Array;
use std::collections::{BTreeMap, HashSet};

/// The parts each crawl lacks, by crawl: `TABLE/crawl=C/part-ID.parquet` and what the `inputs`
/// row says of it. A count of 0 or NULL (the table was not written for that input) needs no part.
pub fn missing_parts(out: &OutDir) -> Result<BTreeMap<String, Vec<String>>> {
    let tables: Vec<Table> = (Table::OF_INPUT.into_iter())
        .filter(|t| *t != Table::Inputs && t.count_column().is_some())
        .collect();
    let mut present: HashSet<(Table, String, String)> = HashSet::new();
    for &t in &tables {
        for (crawl, part) in out.table_parts(t.name())? {
            present.insert((t, crawl, file_name(&part.name())));
        }
    }
    let mut columns = vec!["input_id", "path"];
    columns.extend(tables.iter().filter_map(|t| t.count_column()));
    let mut missing: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (crawl, part) in out.table_parts(Table::Inputs.name())? {
        out.each_batch(&part, &columns, &[], |batch| {
            let text = |name: &str| {
                batch
                    .column_by_name(name)
                    .and_then(|c| c.as_string_opt::<i32>().cloned())
            };
            let (Some(ids), Some(paths)) = (text("input_id"), text("path")) else {
                return Ok(());
            };
            for &t in &tables {
                let Some(counts) = (t.count_column())
                    .and_then(|c| batch.column_by_name(c))
                    .and_then(|c| c.as_primitive_opt::<Int64Type>().cloned())
                else {
                    continue;
                };
                for row in 0..batch.num_rows() {
                    let n = if counts.is_null(row) {
                        0
                    } else {
                        counts.value(row)
                    };
                    if n <= 0 || ids.is_null(row) {
                        continue;
                    }
                    let file = format!("part-{}.parquet", ids.value(row));
                    if !present.contains(&(t, crawl.clone(), file.clone())) {
                        missing.entry(crawl.clone()).or_default().push(format!(
                            "{}/crawl={crawl}/{file} (the inputs row of {} counts {n} rows)",
                            t.name(),
                            paths.value(row)
                        ));
                    }
                }
            }
            Ok(())
        })?;
    }
    Ok(missing)
}

/// What to say of a crawl's missing parts: the first few, how many, and what mends it.
pub fn missing_message(parts: &[String]) -> String {
    let shown: Vec<&str> = parts.iter().take(3).map(String::as_str).collect();
    let more = parts.len().saturating_sub(shown.len());
    format!(
        "{} part(s) its inputs rows count rows for are missing: {}{}; scan those inputs again \
         into this folder with --resume (it redoes every input whose parts are not all there), \
         then run `repcensus hosts`",
        parts.len(),
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

fn file_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_string()
}

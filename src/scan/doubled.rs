//! Whether a scan is about to write rows a folder already has from another kind of scan: a
//! targeted scan (`--records`) of records whose archives were scanned whole into the folder,
//! or a whole scan of archives a targeted scan read records of. Each input replaces only its
//! own parts, so the records both read would have their rows twice; the scan says so before it
//! starts (it does not guess which rows to drop).

use crate::archive::source::input::{sanitize, INPUT_NAME_MAX};
use crate::parts::OutDir;
use crate::tables::Table;
use anyhow::Result;
use arrow_array::cast::AsArray;
use std::collections::BTreeSet;

/// The warning, if this scan's archives (`archives`: their names; `targeted`: read by record)
/// already have rows in `out` from inputs of the other kind (not among `ids`, which this scan
/// replaces).
pub(super) fn doubled_records(
    out: &OutDir,
    archives: &[String],
    targeted: bool,
    ids: &BTreeSet<String>,
) -> Result<Option<String>> {
    let ours: BTreeSet<String> = archives.iter().map(|a| stem(base(a))).collect();
    let others: Vec<(String, String)> = (out.table_parts(Table::Inputs.name())?.into_iter())
        .filter_map(|(_, part)| {
            let name = base(&part.name()).to_string();
            let id = name
                .strip_prefix("part-")?
                .strip_suffix(".parquet")?
                .to_string();
            let (stem, hash) = id.rsplit_once('-')?;
            (!ids.contains(&id) && hash.len() == 8).then(|| (id.clone(), stem.to_string()))
        })
        .collect();
    let mut both: BTreeSet<String> = BTreeSet::new();
    if targeted {
        // Whole archives scanned: their ids are their file names made safe.
        both.extend(
            others
                .iter()
                .map(|(_, s)| s.clone())
                .filter(|s| ours.contains(s)),
        );
    } else {
        // Targeted inputs (`LIST-00001-hash`): the archives their rows name.
        for (id, id_stem) in &others {
            let numbered = id_stem
                .rsplit_once('-')
                .is_some_and(|(_, n)| n.len() == 5 && n.bytes().all(|b| b.is_ascii_digit()));
            if !numbered {
                continue;
            }
            for table in [Table::RobotsFiles, Table::Pages] {
                for (_, part) in out.find_parts(table.name(), id) {
                    out.each_batch(&part, &["warc_file"], &[], |batch| {
                        let Some(files) = batch.column(0).as_string_opt::<i32>() else {
                            return Ok(());
                        };
                        for f in files.iter().flatten() {
                            let s = stem(base(f));
                            if ours.contains(&s) {
                                both.insert(s);
                            }
                        }
                        Ok(())
                    })?;
                }
            }
        }
    }
    if both.is_empty() {
        return Ok(None);
    }
    let shown: Vec<&str> = both.iter().take(3).map(String::as_str).collect();
    let (this, other) = match targeted {
        true => ("records of", "scanned whole"),
        false => ("", "read record by record (scan --records)"),
    };
    Ok(Some(
        format!(
            "{n} archive(s) this scan reads {this} were also {other} into {out} ({list}{more}): \
         the records both read will have their rows there twice. Scan into another folder, or \
         remove the other scan's inputs from this one",
            n = both.len(),
            out = out.location(),
            list = shown.join(", "),
            more = if both.len() > 3 { ", ..." } else { "" },
        )
        .replace("reads  were", "reads were"),
    ))
}

/// The last segment of a path or URL.
fn base(s: &str) -> &str {
    s.rsplit('/').next().unwrap_or(s)
}

/// A file name as an input id starts (see `archive::source::input::input_id`).
fn stem(name: &str) -> String {
    sanitize(name).chars().take(INPUT_NAME_MAX).collect()
}

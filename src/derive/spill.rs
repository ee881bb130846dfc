//! The spill of a crawl derived in partitions (`super::partitions`): each partition's rows
//! of the routed tables as Parquet parts in the output's local staging folder, read back by the
//! partition's derivation.

use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, RecordBatch};
use rustc_hash::FxHashMap;
use std::path::PathBuf;

/// The spill of a crawl's partitions: a folder per partition, laid out as an output folder
/// (`p<K>/<table>/crawl=<crawl>/part-own-<N>.parquet`, guests' rows in `part-guest-<N>.parquet`).
pub struct Spill {
    pub root: PathBuf,
    pub crawl: String,
    pub partitions: u32,
    /// Open writers by (partition, table, guest), each with the schema it was opened with.
    writers: FxHashMap<(u32, &'static str, bool), Vec<SpillWriter>>,
    /// Parts opened so far by (partition, table, guest): the next one's number.
    opened: FxHashMap<(u32, &'static str, bool), u32>,
    size: PartSize,
}

struct SpillWriter {
    schema: arrow_schema::SchemaRef,
    writer: parquet::arrow::ArrowWriter<std::fs::File>,
    /// The capture of the last row written, where the table has captures.
    last: Option<(String, i64)>,
    size: PartSize,
}

/// The size of a spill part: rows per row group, row groups per part.
#[derive(Debug, Clone, Copy)]
struct PartSize {
    row_group: usize,
    row_groups: usize,
}

impl PartSize {
    /// [`SPILL_ROW_GROUP`] rows in each of [`SPILL_ROW_GROUPS`] row groups, or about `rows`
    /// rows a part (the tests').
    fn new(rows: Option<usize>) -> Self {
        match rows {
            None => PartSize {
                row_group: SPILL_ROW_GROUP,
                row_groups: SPILL_ROW_GROUPS,
            },
            Some(rows) => {
                let row_group = rows.clamp(1, SPILL_ROW_GROUP);
                PartSize {
                    row_group,
                    row_groups: rows.div_ceil(row_group).max(1),
                }
            }
        }
    }
}

/// Rows per row group of a spill part: small, so that the many open writers hold little.
const SPILL_ROW_GROUP: usize = 8192;

/// Row groups per spill part. A writer holds 6 KB of metadata per row group until it closes
/// (138 MB over the 22,490 row groups of ten 1 GiB crawls, growing with the crawl), so a part
/// is closed and the next one opened after this many: at most 64 such parts are open at
/// once, 400 KB each.
const SPILL_ROW_GROUPS: usize = 64;

impl SpillWriter {
    fn create(
        dir: &std::path::Path,
        name: &str,
        schema: arrow_schema::SchemaRef,
        size: PartSize,
    ) -> Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join(name);
        let file = std::fs::File::create(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        // Read back once, whole: no statistics (they would only add to the metadata held).
        let props = parquet::file::properties::WriterProperties::builder()
            .set_compression(parquet::basic::Compression::LZ4_RAW)
            .set_max_row_group_row_count(Some(size.row_group))
            .set_statistics_enabled(parquet::file::properties::EnabledStatistics::None)
            .build();
        let writer = parquet::arrow::ArrowWriter::try_new(file, schema.clone(), Some(props))?;
        Ok(SpillWriter {
            schema,
            writer,
            last: None,
            size,
        })
    }

    fn full(&self) -> bool {
        self.writer.flushed_row_groups().len() >= self.size.row_groups
    }

    fn last_capture(&self) -> Option<(&str, i64)> {
        self.last.as_ref().map(|(f, o)| (f.as_str(), *o))
    }
}

/// The capture (file and offset) of row `i` of `batch`, for a table keyed by capture.
pub(super) fn capture_at(batch: &RecordBatch, i: usize) -> Option<(&str, i64)> {
    let file = batch.column_by_name("warc_file")?.as_string_opt::<i32>()?;
    let offset = batch
        .column_by_name("warc_offset")?
        .as_primitive_opt::<Int64Type>()?;
    (file.is_valid(i) && offset.is_valid(i)).then(|| (file.value(i), offset.value(i)))
}

impl Spill {
    /// The spill of `partitions` partitions of `crawl` in `root`, its parts closed after about
    /// `part_rows` rows (`None`: the default, [`SPILL_ROW_GROUPS`] row groups).
    pub fn new(root: PathBuf, crawl: &str, partitions: u32, part_rows: Option<usize>) -> Self {
        Spill {
            size: PartSize::new(part_rows),
            root,
            crawl: crawl.to_string(),
            partitions,
            writers: FxHashMap::default(),
            opened: FxHashMap::default(),
        }
    }

    /// Partition `p`'s folder, an output folder of its own.
    pub fn folder(&self, p: u32) -> PathBuf {
        self.root.join(format!("p{p}"))
    }

    /// Append `batch` to partition `p`'s part of `table` (its guests' part when `guest`).
    pub(super) fn write(
        &mut self,
        p: u32,
        table: &'static str,
        guest: bool,
        batch: &RecordBatch,
    ) -> Result<()> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let key = (p, table, guest);
        let list = self.writers.entry(key).or_default();
        let mut at = list.iter().position(|w| w.schema == batch.schema());
        // A full part is closed (its writer holds each row group's metadata until then), but
        // never inside a capture: the agent summaries read a capture's rows from one part.
        let first = capture_at(batch, 0);
        if let Some(i) =
            at.filter(|&i| list[i].full() && (first.is_none() || first != list[i].last_capture()))
        {
            list.swap_remove(i).writer.close()?;
            at = None;
        }
        let at = match at {
            Some(at) => at,
            None => {
                // A part of its own for each schema version, and after each full one.
                let opened = self.opened.entry(key).or_default();
                *opened += 1;
                let kind = if guest { "guest" } else { "own" };
                let name = format!("part-{kind}-{:06}.parquet", *opened);
                let dir = self
                    .root
                    .join(format!("p{p}"))
                    .join(table)
                    .join(format!("crawl={}", self.crawl));
                list.push(SpillWriter::create(&dir, &name, batch.schema(), self.size)?);
                list.len() - 1
            }
        };
        let w = &mut list[at];
        w.writer.write(batch)?;
        w.last = capture_at(batch, batch.num_rows() - 1).map(|(f, o)| (f.to_string(), o));
        Ok(())
    }

    /// Close every part.
    pub fn close(&mut self) -> Result<()> {
        for (_, list) in self.writers.drain() {
            for w in list {
                w.writer.close()?;
            }
        }
        Ok(())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A batch of `rows` (file, offset) rows of a table keyed by capture.
    fn captures(rows: &[(&str, i64)]) -> RecordBatch {
        let files = arrow_array::StringArray::from_iter_values(rows.iter().map(|r| r.0));
        let offsets = arrow_array::Int64Array::from_iter_values(rows.iter().map(|r| r.1));
        RecordBatch::try_from_iter([
            ("warc_file", Arc::new(files) as arrow_array::ArrayRef),
            ("warc_offset", Arc::new(offsets) as arrow_array::ArrayRef),
        ])
        .unwrap()
    }

    /// The (file, offset) rows of each spill part of `table` in partition 0, by part name.
    fn parts_of(spill: &Spill, table: &str) -> Vec<(String, Vec<(String, i64)>)> {
        let dir = spill.folder(0).join(table).join("crawl=c");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let read = |name: &String| {
            let file = std::fs::File::open(dir.join(name)).unwrap();
            let reader =
                parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
                    .unwrap()
                    .build()
                    .unwrap();
            let mut rows = Vec::new();
            for b in reader {
                let b = b.unwrap();
                rows.extend((0..b.num_rows()).map(|i| {
                    let (f, o) = capture_at(&b, i).unwrap();
                    (f.to_string(), o)
                }));
            }
            rows
        };
        names.iter().map(|n| (n.clone(), read(n))).collect()
    }

    #[test]
    fn a_full_spill_part_is_closed_between_captures_never_inside_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut spill = Spill::new(dir.path().join("spill"), "c", 1, Some(2));
        // Capture 1's rows come in two batches, as an input's batches can cut a capture.
        let batches = [
            captures(&[("a", 1), ("a", 1)]),
            captures(&[("a", 1), ("a", 2)]),
            captures(&[("a", 3)]),
            captures(&[("a", 3), ("a", 4)]),
            captures(&[("a", 5)]),
        ];
        for b in &batches {
            spill.write(0, "robots_rules", false, b).unwrap();
        }
        spill.close().unwrap();
        let parts = parts_of(&spill, "robots_rules");
        let names: Vec<&str> = parts.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "part-own-000001.parquet",
                "part-own-000002.parquet",
                "part-own-000003.parquet"
            ]
        );
        let rows: Vec<Vec<i64>> = parts
            .iter()
            .map(|p| p.1.iter().map(|r| r.1).collect())
            .collect();
        // Full after the first batch, but capture 1 goes on in the next: the part is closed
        // when a batch begins with another capture (3), and again before 5.
        assert_eq!(rows, [vec![1, 1, 1, 2], vec![3, 3, 4], vec![5]]);
    }
}

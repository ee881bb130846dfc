//! One Parquet part being written in staging: Arrow batches, or row groups a table encodes
//! itself from runs ([`super::runs`]). A part writer is told what it needs of a table by a
//! [`TableDesc`] value; it knows nothing of which tables exist.

use anyhow::{Context, Result};
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter, ArrowWriter};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use std::path::PathBuf;

/// What a part writer needs to know of a table.
#[derive(Debug, Clone)]
pub struct TableDesc {
    /// The table's name: its folder and the `repcensus.table` metadata key.
    pub name: &'static str,
    /// The Arrow schema, the `crawl` column first.
    pub schema: SchemaRef,
    /// Columns written without a Parquet dictionary (high cardinality).
    pub plain_columns: Vec<&'static str>,
    /// Row groups are encoded by the table from runs, not passed as Arrow batches.
    pub from_runs: bool,
    /// The `repcensus.schema_version` metadata value.
    pub schema_version: &'static str,
    /// Parts of a row or a few, written for every input (a failed one too): compressed with
    /// snappy, not zstd. The parquet crate makes a zstd compressor and decompressor for each
    /// column it writes, which cost more than such parts hold (a scan of 5,000 missing paths
    /// spent half its time making them).
    pub small_parts: bool,
}

/// A part written to staging, waiting to be renamed into place.
pub struct StagedPart {
    pub(super) staged: PathBuf,
    pub(super) final_path: PathBuf,
}

/// A part being written in staging.
pub struct PartWriter {
    writer: Writer,
    staged: PathBuf,
    final_path: PathBuf,
    rows: u64,
}

/// How a part is encoded: Arrow batches, or row groups a table writes itself from runs.
enum Writer {
    Arrow(ArrowWriter<std::fs::File>),
    Runs(SerializedFileWriter<std::fs::File>),
}

impl PartWriter {
    /// Create the staged file of a part that will be renamed to `final_path` when committed.
    pub(super) fn create(table: &TableDesc, staged: PathBuf, final_path: PathBuf) -> Result<Self> {
        let file = std::fs::File::create(&staged)
            .with_context(|| format!("cannot create {}", staged.display()))?;
        let props = writer_properties(table);
        let writer = if table.from_runs {
            let mut props = props;
            add_encoded_arrow_schema_to_metadata(&table.schema, &mut props);
            let descr = ArrowSchemaConverter::new().convert(&table.schema)?;
            Writer::Runs(SerializedFileWriter::new(
                file,
                descr.root_schema_ptr(),
                std::sync::Arc::new(props),
            )?)
        } else {
            Writer::Arrow(
                ArrowWriter::try_new(file, table.schema.clone(), Some(props))
                    .with_context(|| format!("cannot write {}", staged.display()))?,
            )
        };
        Ok(PartWriter {
            writer,
            staged,
            final_path,
            rows: 0,
        })
    }

    /// Append a batch (encoded and compressed now; row groups are flushed as they fill).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let Writer::Arrow(writer) = &mut self.writer else {
            anyhow::bail!(
                "{}: a table written from runs takes no batches",
                self.staged.display()
            );
        };
        self.rows += batch.num_rows() as u64;
        writer
            .write(batch)
            .with_context(|| format!("cannot write {}", self.staged.display()))?;
        // Keep little in memory: flush the open row group once it is large.
        if writer.in_progress_size() > 64 << 20 {
            writer
                .flush()
                .with_context(|| format!("cannot write {}", self.staged.display()))?;
        }
        Ok(())
    }

    /// End the open row group (Arrow parts; a table written from runs ends one per write).
    pub fn flush(&mut self) -> Result<()> {
        if let Writer::Arrow(w) = &mut self.writer {
            w.flush()
                .with_context(|| format!("cannot write {}", self.staged.display()))?;
        }
        Ok(())
    }

    /// The file writer of a table written from runs ([`crate::parts::runs`]).
    pub fn runs_writer(&mut self) -> Result<&mut SerializedFileWriter<std::fs::File>> {
        match &mut self.writer {
            Writer::Runs(w) => Ok(w),
            Writer::Arrow(_) => anyhow::bail!("{} takes Arrow batches", self.staged.display()),
        }
    }

    /// Count rows written through [`Self::runs_writer`].
    pub fn add_rows(&mut self, n: u64) {
        self.rows += n;
    }

    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Close the file; the part is then ready to be committed.
    pub fn finish(self) -> Result<PartOutcome> {
        match self.writer {
            Writer::Arrow(w) => w.close().map(|_| ()),
            Writer::Runs(w) => w.close().map(|_| ()),
        }
        .with_context(|| format!("cannot finish {}", self.staged.display()))?;
        Ok(PartOutcome::Staged(StagedPart {
            staged: self.staged,
            final_path: self.final_path,
        }))
    }
}

/// A part written, or a table with no rows for an input.
pub enum PartOutcome {
    Staged(StagedPart),
    Empty(PathBuf),
}

fn writer_properties(table: &TableDesc) -> WriterProperties {
    let compression = if table.small_parts {
        Compression::SNAPPY
    } else {
        Compression::ZSTD(ZstdLevel::try_new(1).unwrap_or_default())
    };
    let mut props = WriterProperties::builder()
        .set_compression(compression)
        .set_dictionary_enabled(true)
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(1 << 20))
        .set_created_by(format!("repcensus {}", env!("CARGO_PKG_VERSION")))
        .set_key_value_metadata(Some(vec![
            KeyValue::new(
                "repcensus.schema_version".into(),
                table.schema_version.to_string(),
            ),
            KeyValue::new("repcensus.table".into(), table.name.to_string()),
            KeyValue::new(
                "repcensus.tool_version".into(),
                env!("CARGO_PKG_VERSION").to_string(),
            ),
        ]));
    // Plain columns hold values in no order: their min and max would prune nothing (the run
    // writer's `TextCol` writes none either).
    for &col in &table.plain_columns {
        props = props
            .set_column_dictionary_enabled(ColumnPath::from(col), false)
            .set_column_statistics_enabled(ColumnPath::from(col), EnabledStatistics::None);
    }
    props.build()
}

//! What every table builder can do for the writer ([`TableBuilder`]), and the `table!` macro
//! that declares a table once: its borrowed row struct, its builder and its schema.

use super::{Table, SCHEMA_VERSION};
use crate::parts::{PartWriter, TableDesc};
use anyhow::Result;
use arrow_schema::SchemaRef;

/// Columns added by the writer, first in every table.
pub const CRAWL_COLUMN: &str = "crawl";

/// A table built through Arrow seals its rows so far as one batch when a string column holds
/// more than this many bytes, and starts anew: Arrow's string arrays index their bytes with
/// 32-bit offsets (2 GiB), and one chunk of a hostile archive can hold more. The margin leaves
/// room for the row that crosses it (a value is at most a few MiB).
pub const SEAL_BYTES: usize = 1 << 30;

/// What every table builder can do, for the writer.
pub trait TableBuilder: Send {
    /// The table the builder's rows belong to.
    const TABLE: Table;
    const NAME: &'static str = Self::TABLE.name();
    /// Parts are written from runs by [`TableBuilder::write_into`] (see `parts/runs.rs`), not as
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
            // Written for every input, with a row or a few.
            small_parts: matches!(Self::TABLE, Table::Inputs | Table::Errors),
        }
    }
    /// Write the rows into the table's part, the `crawl` column first, and start empty.
    fn write_into(&mut self, crawl: &str, part: &mut PartWriter) -> Result<()>;
}

/// A builder that takes rows of type `R`: a table's Arrow builder and its run builder alike.
pub trait AppendRow<R> {
    fn append_row(&mut self, row: &R);
}

/// Declare a table: its row struct, its builder and the [`TableBuilder`] that writes it.
macro_rules! table {
    // A table written from runs (see `crate::parts::runs`): `$builder` is the scan's, `$arrow` the same
    // rows through Arrow, kept as the reference the run writer is tested against.
    (
        $(#[$doc:meta])*
        $builder:ident, $row:ident, $table:ident, arrow: $arrow:ident,
        { $($(#[$cdoc:meta])* $col:ident : $kind:ident),* $(,)? }
    ) => {
        table! {
            $(#[$doc])*
            $arrow, $row, $table,
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
            const TABLE: Table = Table::$table;
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
        $builder:ident, $row:ident, $table:ident,
        { $($(#[$cdoc:meta])* $col:ident : $kind:ident),* $(,)? }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default)]
        pub struct $row<'a> {
            $($(#[$cdoc])* pub $col: <$kind as Kind>::Value<'a>,)*
        }

        pub struct $builder {
            rows: usize,
            $($col: <$kind as Kind>::Builder,)*
            /// Rows sealed before a string column grew past `seal_bytes`: their count and
            /// columns (without `crawl`).
            sealed: Vec<(usize, Vec<ArrayRef>)>,
            seal_bytes: usize,
        }

        impl Default for $builder {
            fn default() -> Self {
                $builder {
                    rows: 0,
                    $($col: Default::default(),)*
                    sealed: Vec::new(),
                    seal_bytes: $crate::tables::declare::SEAL_BYTES,
                }
            }
        }

        impl $builder {
            pub fn append(&mut self, row: &$row<'_>) {
                $(<$kind as Kind>::append(&mut self.$col, &row.$col);)*
                self.rows += 1;
                let bytes = 0 $(.max(<$kind as Kind>::bytes(&self.$col)))*;
                if bytes > self.seal_bytes {
                    self.seal();
                }
            }

            /// Seal the rows so far once a string column holds more than `bytes` (testing:
            /// the default is [`SEAL_BYTES`]).
            #[doc(hidden)]
            #[allow(dead_code)] // not every table's tests use it
            pub fn with_seal_bytes(mut self, bytes: usize) -> Self {
                self.seal_bytes = bytes;
                self
            }

            fn seal(&mut self) {
                let n = std::mem::take(&mut self.rows);
                let cols = vec![$(<$kind as Kind>::finish(&mut self.$col)),*];
                self.sealed.push((n, cols));
            }

            /// Drain the rows into a batch, the `crawl` column first. A builder that sealed
            /// rows (past [`SEAL_BYTES`] in a column) gives them by [`Self::batches`] instead.
            #[allow(dead_code)] // the writer takes batches; tests and derivations finish
            pub fn finish(&mut self, crawl: &str) -> RecordBatch {
                assert!(self.sealed.is_empty(), "sealed rows are taken by batches()");
                self.batches(crawl).pop().expect("one batch")
            }

            /// Drain the rows into batches (one, unless rows were sealed), each with the
            /// `crawl` column first.
            pub fn batches(&mut self, crawl: &str) -> Vec<RecordBatch> {
                if self.rows > 0 || self.sealed.is_empty() {
                    self.seal();
                }
                std::mem::take(&mut self.sealed)
                    .into_iter()
                    .map(|(n, rest)| {
                        let mut cols: Vec<ArrayRef> =
                            vec![Arc::new(StringArray::from(vec![crawl; n]))];
                        cols.extend(rest);
                        RecordBatch::try_new(Self::schema(), cols)
                            .expect("table columns match their schema")
                    })
                    .collect()
            }
        }

        impl<'a> AppendRow<$row<'a>> for $builder {
            fn append_row(&mut self, row: &$row<'a>) {
                self.append(row)
            }
        }

        impl TableBuilder for $builder {
            const TABLE: Table = Table::$table;
            fn schema() -> SchemaRef {
                let mut fields = vec![Field::new(CRAWL_COLUMN, DataType::Utf8, false)];
                $(fields.push(Field::new(stringify!($col), <$kind as Kind>::data_type(), true));)*
                Arc::new(Schema::new(fields))
            }
            fn len(&self) -> usize {
                self.rows + self.sealed.iter().map(|(n, _)| n).sum::<usize>()
            }
            fn plain_columns() -> Vec<&'static str> {
                [$((stringify!($col), <$kind as Kind>::PLAIN)),*]
                    .into_iter()
                    .filter_map(|(c, plain)| plain.then_some(c))
                    .collect()
            }
            fn write_into(&mut self, crawl: &str, part: &mut PartWriter) -> Result<()> {
                for batch in self.batches(crawl) {
                    part.write(&batch)?;
                }
                Ok(())
            }
        }
    };
}

pub(super) use table;

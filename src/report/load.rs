//! Reading the tables of an output folder for the report: which tables and crawls there are, and
//! the rows of one table of one crawl, a few columns at a time, through [`OutDir`].

use crate::parts::runs;
use crate::parts::{OutDir, PartRef};
use crate::tables::Table;
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{
    Array, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray,
    TimestampMicrosecondArray,
};
use std::collections::{BTreeMap, BTreeSet};

/// The committed parts of every table of an output folder, by table and crawl.
pub(super) struct Tables<'o> {
    out: &'o OutDir,
    parts: BTreeMap<Table, BTreeMap<String, Vec<PartRef>>>,
}

impl<'o> Tables<'o> {
    /// List the parts of `tables` in `out`.
    pub(super) fn list(out: &'o OutDir, tables: &[Table]) -> Result<Self> {
        let mut parts: BTreeMap<_, BTreeMap<String, Vec<PartRef>>> = BTreeMap::new();
        for &t in tables {
            for (crawl, part) in out.table_parts(t.name())? {
                parts
                    .entry(t)
                    .or_default()
                    .entry(crawl)
                    .or_default()
                    .push(part);
            }
        }
        Ok(Tables { out, parts })
    }

    /// Whether `table` has any part.
    pub(super) fn has(&self, table: Table) -> bool {
        self.parts.contains_key(&table)
    }

    /// Whether the folder holds `table` at all, parts or only its `_schema` file (written by
    /// every scan and `hosts` of a version that has the table): a derived table that is there
    /// without a part for a crawl has no rows for it, not an unknown count.
    pub(super) fn known(&self, table: Table) -> bool {
        self.has(table) || self.out.root().join(table.name()).is_dir()
    }

    /// The crawls with an `inputs` part (every scanned crawl has them).
    pub(super) fn crawls(&self) -> BTreeSet<String> {
        self.parts
            .values()
            .flat_map(|by_crawl| by_crawl.keys().cloned())
            .collect()
    }

    /// Call `f` with each batch of `table`'s rows in `crawl`, holding only `columns`; those also
    /// in `dictionaries` come as dictionary arrays ([`Batch::labels`]).
    pub(super) fn each(
        &self,
        table: Table,
        crawl: &str,
        columns: &[&str],
        dictionaries: &[&str],
        mut f: impl FnMut(&Batch<'_>) -> Result<()>,
    ) -> Result<()> {
        for part in self.parts(table, crawl) {
            self.each_in(part, columns, dictionaries, &mut f)?;
        }
        Ok(())
    }

    /// The parts of a table partitioned by another key than the crawl (`ranks`: `list`), with
    /// the value of their folder.
    pub(super) fn keyed(&self, table: &str, key: &str) -> Result<Vec<(String, PartRef)>> {
        self.out.keyed_parts(table, key)
    }

    /// The parts of `table` in `crawl` (one per input that wrote rows to it).
    pub(super) fn parts(&self, table: Table, crawl: &str) -> &[PartRef] {
        (self.parts.get(&table).and_then(|c| c.get(crawl))).map_or(&[], |p| p.as_slice())
    }

    /// [`Tables::each`] over one part.
    pub(super) fn each_in(
        &self,
        part: &PartRef,
        columns: &[&str],
        dictionaries: &[&str],
        mut f: impl FnMut(&Batch<'_>) -> Result<()>,
    ) -> Result<()> {
        self.out.each_batch(part, columns, dictionaries, |batch| {
            f(&Batch {
                batch: &batch,
                part,
            })
        })
    }
}

/// A batch of a part, with typed access to its columns by name.
pub(super) struct Batch<'b> {
    batch: &'b RecordBatch,
    part: &'b PartRef,
}

impl<'b> Batch<'b> {
    pub(super) fn len(&self) -> usize {
        self.batch.num_rows()
    }

    fn column(&self, name: &str) -> Result<&'b dyn Array> {
        self.batch
            .column_by_name(name)
            .map(|c| c.as_ref())
            .with_context(|| format!("{}: no column {name}", self.part.name()))
    }

    fn typed<T>(&self, name: &str, cast: impl Fn(&'b dyn Array) -> Option<T>) -> Result<T> {
        let c = self.column(name)?;
        cast(c).with_context(|| {
            format!(
                "{}: column {name} is {}, not the expected type",
                self.part.name(),
                c.data_type()
            )
        })
    }

    pub(super) fn strings(&self, name: &str) -> Result<&'b StringArray> {
        self.typed(name, |c| c.as_string_opt::<i32>())
    }

    pub(super) fn i64s(&self, name: &str) -> Result<&'b Int64Array> {
        self.typed(name, |c| c.as_primitive_opt::<Int64Type>())
    }

    pub(super) fn i32s(&self, name: &str) -> Result<&'b Int32Array> {
        self.typed(name, |c| c.as_primitive_opt::<Int32Type>())
    }

    pub(super) fn times(&self, name: &str) -> Result<&'b TimestampMicrosecondArray> {
        self.typed(name, |c| c.as_primitive_opt::<TimestampMicrosecondType>())
    }

    /// A string column read as a dictionary (`Tables::each`'s `dictionaries`).
    pub(super) fn labels(&self, name: &str) -> Result<Labels<'b>> {
        self.typed(name, |c| {
            let d = c.as_dictionary_opt::<Int32Type>()?;
            Some(Labels {
                keys: d.keys(),
                values: d.values().as_string_opt::<i32>()?,
            })
        })
    }

    pub(super) fn bools(&self, name: &str) -> Result<&'b BooleanArray> {
        self.typed(name, |c| c.as_boolean_opt())
    }

    /// A list column (`summary_block_sets.agents`).
    pub(super) fn lists(&self, name: &str) -> Result<&'b arrow_array::ListArray> {
        self.typed(name, |c| c.as_list_opt::<i32>())
    }
}

/// Value `i` of a string column, `None` when NULL.
pub(super) fn text(a: &StringArray, i: usize) -> Option<&str> {
    a.is_valid(i).then(|| a.value(i))
}

/// Value `i` of a boolean column; NULL reads as false.
pub(super) fn flag(a: &BooleanArray, i: usize) -> bool {
    a.is_valid(i) && a.value(i)
}

/// A dictionary-encoded string column: each row's key into the batch's values.
pub(super) struct Labels<'b> {
    keys: &'b arrow_array::Int32Array,
    pub values: &'b StringArray,
}

impl Labels<'_> {
    /// Row `i`'s index into `values`; `None` when NULL.
    pub(super) fn key(&self, i: usize) -> Option<usize> {
        self.keys.is_valid(i).then(|| self.keys.value(i) as usize)
    }

    /// A value per dictionary entry, computed once per batch.
    pub(super) fn map<T>(&self, f: impl FnMut(&str) -> T) -> Vec<T> {
        self.values.iter().map(|v| v.unwrap_or("")).map(f).collect()
    }
}

/// Strings as small numbers (file names, agents, directives), each stored once ([`runs::Names`]).
#[derive(Default)]
pub(super) struct Names(runs::Names);

impl Names {
    pub(super) fn id(&mut self, s: &str) -> u32 {
        self.0.id(s)
    }

    pub(super) fn name(&self, id: u32) -> &str {
        self.0.get(id)
    }

    /// Each dictionary value's id, for a batch.
    pub(super) fn of(&mut self, labels: &Labels<'_>) -> Vec<u32> {
        labels.map(|v| self.id(v))
    }
}

//! Parquet column chunks written from runs of values, for a table whose rows repeat most of their
//! values: `agent_verdicts` has one row per robots.txt capture and registry agent (about 150 million
//! per GiB of robots.txt archive), and a capture's rows share their
//! provenance and mostly one verdict.
//!
//! Why not `ArrowWriter`: it encodes value by value. Every string is hashed into the column's
//! dictionary and compared for page statistics, and every value is first copied into an Arrow
//! builder; for `agent_verdicts` that was 80% of a robots.txt scan's time (BENCHMARKS.md). Nor
//! does it help to hand it Arrow dictionary arrays: it re-interns every value of those too. Its
//! column encoders cannot be replaced from outside the crate, but its page writer and its
//! splicing of encoded column chunks into a file (`append_column`) are public, so this module
//! does the encoding and leaves the file format (page headers, footer, Arrow schema) to the
//! parquet crate.
//!
//! A column keeps its dictionary and a list of (dictionary index, run length) pairs; pushing a run
//! of n equal values costs one dictionary lookup, or nothing when it repeats the last run. Each
//! row group is written as one dictionary page (PLAIN) and one data page (v1; levels and indexes
//! in the RLE / bit-packing hybrid) per column, zstd-compressed, with column-chunk statistics
//! taken from the dictionary (every entry is used). Booleans are RLE-encoded without a
//! dictionary. There are no page indexes; readers prune on the chunk statistics.

use super::encoding::string_statistics;
use anyhow::{Context, Result};
use bytes::Bytes;
use hashbrown::HashTable;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, SerializedRowGroupWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use rustc_hash::FxBuildHasher;
use std::fs::File;
use std::hash::BuildHasher;

/// The run index that stands for NULL values.
pub(super) const NULL: u32 = u32::MAX;
/// The run index that stands for whole blocks (see [`StrCol::push_blocks`]).
pub(super) const BLOCK: u32 = u32::MAX - 1;

/// zstd level of the pages, as for the other tables.
pub(super) const ZSTD_LEVEL: i32 = 1;

/// Runs of (value, length), merging a push that repeats the last value.
#[derive(Default, Clone, Debug)]
pub(super) struct Runs(pub(super) Vec<(u32, u32)>);

impl Runs {
    pub(super) fn push(&mut self, v: u32, n: u32) {
        if n == 0 {
            return;
        }
        match self.0.last_mut() {
            Some((last, len)) if *last == v => *len += n,
            _ => self.0.push((v, n)),
        }
    }
    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
}

/// Level runs (0 for NULL, else 1) of value runs, merged.
pub(super) fn def_level_runs<'a>(
    runs: &'a [(u32, u32)],
    block_rows: u32,
) -> impl Iterator<Item = (u32, u32)> + 'a {
    let mut merged = runs.iter().map(move |&(v, n)| match v {
        NULL => (0, n),
        BLOCK => (1, n * block_rows),
        _ => (1, n),
    });
    let mut cur = merged.next();
    std::iter::from_fn(move || {
        let (v, mut n) = cur?;
        loop {
            cur = merged.next();
            match cur {
                Some((w, m)) if w == v => n += m,
                _ => return Some((v, n)),
            }
        }
    })
}

/// One column chunk's pages before compression.
pub(super) struct ChunkPages<'a> {
    /// PLAIN-encoded dictionary and its number of entries.
    pub(super) dict: Option<(&'a [u8], u32)>,
    /// The data page body (levels, then values) and its number of level entries.
    pub(super) data: &'a [u8],
    pub(super) num_values: u32,
    pub(super) value_encoding: Encoding,
}

pub(super) fn compress(page: &[u8]) -> Result<Bytes> {
    // Page headers hold sizes as i32: a chunk's rows that big (a decompression bomb's lines)
    // fail the input rather than write a corrupt file.
    anyhow::ensure!(
        page.len() <= i32::MAX as usize,
        "a column page of {} bytes is over Parquet's 2 GiB limit",
        page.len()
    );
    thread_local! {
        // A context per thread, kept: making one for each page allocated and cleared its
        // tables every time.
        static ZSTD: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    ZSTD.with_borrow_mut(|z| {
        let z = match z {
            Some(z) => z,
            None => z.insert(zstd::bulk::Compressor::new(ZSTD_LEVEL)?),
        };
        Ok(Bytes::from(z.compress(page)?))
    })
}

/// Serialize a column chunk's pages with the parquet crate's page writer and splice the chunk
/// into the row group.
pub(super) fn append_chunk(
    rg: &mut SerializedRowGroupWriter<'_, File>,
    descr: &ColumnDescPtr,
    pages: ChunkPages<'_>,
    rows: u64,
    statistics: Option<Statistics>,
) -> Result<()> {
    let mut sink = TrackedWrite::new(Vec::new());
    let mut specs: Vec<PageWriteSpec> = Vec::with_capacity(2);
    {
        let mut pw = SerializedPageWriter::new(&mut sink);
        if let Some((dict, n)) = pages.dict {
            let page = Page::DictionaryPage {
                buf: compress(dict)?,
                num_values: n,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            };
            specs.push(pw.write_page(CompressedPage::new(page, dict.len()))?);
        }
        let page = Page::DataPage {
            buf: compress(pages.data)?,
            num_values: pages.num_values,
            encoding: pages.value_encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        specs.push(pw.write_page(CompressedPage::new(page, pages.data.len()))?);
        pw.close()?;
    }
    let bytes = Bytes::from(sink.into_inner()?);
    let data_spec = specs.last().expect("a data page");
    let mut encodings = vec![Encoding::RLE];
    if pages.dict.is_some() {
        encodings.extend([Encoding::PLAIN, Encoding::RLE_DICTIONARY]);
    } else if pages.value_encoding != Encoding::RLE {
        encodings.push(pages.value_encoding);
    }
    let mut meta = ColumnChunkMetaData::builder(descr.clone())
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?))
        .set_encodings(encodings)
        .set_total_compressed_size(specs.iter().map(|s| s.compressed_size as i64).sum())
        .set_total_uncompressed_size(specs.iter().map(|s| s.uncompressed_size as i64).sum())
        .set_num_values(i64::from(pages.num_values))
        .set_data_page_offset(data_spec.offset as i64)
        .set_dictionary_page_offset(pages.dict.map(|_| specs[0].offset as i64));
    if let Some(s) = statistics {
        meta = meta.set_statistics(s);
    }
    let close = ColumnCloseResult {
        bytes_written: bytes.len() as u64,
        rows_written: rows,
        metadata: meta.build()?,
        bloom_filter: None,
        column_index: None,
        offset_index: None,
    };
    rg.append_column(&bytes, close)
        .with_context(|| format!("cannot write column {}", descr.path()))
}

/// Every column of a row group must hold its number of rows.
pub(super) fn check_rows(descr: &ColumnDescPtr, got: u64, rows: u64) -> Result<()> {
    anyhow::ensure!(
        got == rows,
        "column {} holds {got} rows of the row group's {rows}",
        descr.path()
    );
    Ok(())
}

/// Scratch buffers reused across columns and row groups.
#[derive(Default)]
pub struct Scratch {
    pub(super) page: Vec<u8>,
    pub(super) dict: Vec<u8>,
    pub(super) lits: Vec<u32>,
}

pub(super) fn null_count(runs: &Runs) -> u64 {
    runs.0
        .iter()
        .filter(|r| r.0 == NULL)
        .map(|r| u64::from(r.1))
        .sum()
}

/// A dictionary value type (strings, integers, floats).
pub trait DictValue: Clone {
    /// The dictionary key (floats by their bits, strings borrowed).
    type Key<'a>: std::hash::Hash + Eq + Copy
    where
        Self: 'a;
    fn key(&self) -> Self::Key<'_>;
    /// Whether two keys are equal (of values that may live apart).
    fn same(a: Self::Key<'_>, b: Self::Key<'_>) -> bool;
    fn plain(&self, out: &mut Vec<u8>);
    /// Chunk statistics from the dictionary's entries and the counts of NULL and NaN values.
    fn statistics(dict: &[Self], nulls: u64, nans: u64) -> Option<Statistics>;
    fn is_nan(&self) -> bool {
        false
    }
    /// A slot of the dictionary's direct table, for the small whole numbers (line numbers and
    /// indexes: most rows of the line tables) that are looked up without hashing.
    fn small(&self) -> Option<usize> {
        None
    }
}

/// Whole numbers below this have a slot of [`Dict`]'s direct table (16 KiB).
const SMALL: usize = 4096;

impl DictValue for Box<str> {
    type Key<'a> = &'a str;
    fn key(&self) -> &str {
        self
    }
    fn same(a: &str, b: &str) -> bool {
        a == b
    }
    fn plain(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.len() as u32).to_le_bytes());
        out.extend_from_slice(self.as_bytes());
    }
    fn statistics(dict: &[Self], nulls: u64, _nans: u64) -> Option<Statistics> {
        let min = dict.iter().min().map(|s| s.as_bytes());
        let max = dict.iter().max().map(|s| s.as_bytes());
        Some(string_statistics(min, max, nulls))
    }
}

macro_rules! num_value {
    ($t:ty, $key:ty, $bits:expr, $stat:ident, $nan:expr, $small:expr) => {
        impl DictValue for $t {
            type Key<'a> = $key;
            fn key(&self) -> $key {
                $bits(*self)
            }
            fn same(a: $key, b: $key) -> bool {
                a == b
            }
            fn plain(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn statistics(dict: &[Self], nulls: u64, nans: u64) -> Option<Statistics> {
                let ordered = dict.iter().copied().filter(|v| v == v);
                let min = ordered.clone().reduce(|a, b| if b < a { b } else { a });
                let max = ordered.reduce(|a, b| if b > a { b } else { a });
                let s = ValueStatistics::new(min, max, None, Some(nulls), false);
                // The parquet crate's writer counts NaNs of floating-point columns.
                Some(Statistics::$stat(if $nan {
                    s.with_nan_count(Some(nans))
                } else {
                    s
                }))
            }
            fn is_nan(&self) -> bool {
                #[allow(clippy::eq_op)]
                let nan = self != self;
                nan
            }
            fn small(&self) -> Option<usize> {
                $small(*self)
            }
        }
    };
}
num_value!(i32, i32, |v| v, Int32, false, |v: i32| usize::try_from(v)
    .ok()
    .filter(|&v| v < SMALL));
num_value!(i64, i64, |v| v, Int64, false, |v: i64| usize::try_from(v)
    .ok()
    .filter(|&v| v < SMALL));
// A float's key is its bits (so NaN is an entry like any other).
num_value!(f64, u64, f64::to_bits, Double, true, |_| None);

/// A dictionary: entries in index order, and a table of their indexes by the hash of their key
/// (each entry stored once; a string new to it costs one allocation). The layers that read
/// parts back intern strings with [`Names`].
pub struct Dict<V: DictValue> {
    pub(super) values: Vec<V>,
    pub(super) index: HashTable<u32>,
    /// The indexes of the small whole numbers ([`DictValue::small`]) entered, by value
    /// (`NO_SLOT` for none): they are also in `index`, which this spares a hash and a probe.
    direct: Vec<u32>,
}

const NO_SLOT: u32 = u32::MAX;

impl<V: DictValue> Default for Dict<V> {
    fn default() -> Self {
        Self {
            values: Vec::new(),
            index: HashTable::new(),
            direct: Vec::new(),
        }
    }
}

pub(super) fn hash_of<K: std::hash::Hash + ?Sized>(k: &K) -> u64 {
    FxBuildHasher.hash_one(k)
}

impl<V: DictValue> Dict<V> {
    /// The index of the entry whose key is `k`, adding `make()` when there is none.
    pub fn intern_by(&mut self, k: V::Key<'_>, make: impl FnOnce() -> V) -> u32 {
        let h = hash_of(&k);
        let values = &self.values;
        if let Some(&i) = self
            .index
            .find(h, |&i| V::same(values[i as usize].key(), k))
        {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(make());
        let values = &self.values;
        self.index
            .insert_unique(h, i, |&j| hash_of(&values[j as usize].key()));
        i
    }
    pub(super) fn intern(&mut self, v: &V) -> u32 {
        let Some(slot) = v.small() else {
            return self.intern_by(v.key(), || v.clone());
        };
        match self.direct.get(slot) {
            Some(&i) if i != NO_SLOT => i,
            _ => {
                let i = self.intern_by(v.key(), || v.clone());
                if self.direct.is_empty() {
                    self.direct.resize(SMALL, NO_SLOT);
                }
                self.direct[slot] = i;
                i
            }
        }
    }
    pub(super) fn clear(&mut self) {
        self.values.clear();
        self.index.clear();
        self.direct.fill(NO_SLOT);
    }
    pub(super) fn plain(&self, out: &mut Vec<u8>) {
        out.clear();
        for v in &self.values {
            v.plain(out);
        }
    }
}

/// Write one row group of `rows` rows from `cols`, in the order of the part's schema.
pub fn write_row_group(
    part: &mut super::PartWriter,
    cols: &mut [&mut dyn RunColumn],
    rows: u64,
    s: &mut Scratch,
) -> Result<()> {
    let w = part.runs_writer()?;
    let descrs = w.schema_descr().columns().to_vec();
    anyhow::ensure!(
        cols.len() == descrs.len(),
        "{} columns for a schema of {}",
        cols.len(),
        descrs.len()
    );
    let mut rg = w.next_row_group()?;
    for (col, descr) in cols.iter_mut().zip(&descrs) {
        col.write(&mut rg, descr, rows, s)?;
    }
    rg.close()?;
    part.add_rows(rows);
    Ok(())
}

/// A column of a table written from runs.
pub trait RunColumn {
    /// Write the column's chunk of a row group of `rows` rows, and start the next one empty.
    fn write(
        &mut self,
        rg: &mut SerializedRowGroupWriter<'_, File>,
        descr: &ColumnDescPtr,
        rows: u64,
        s: &mut Scratch,
    ) -> Result<()>;
}

/// Strings as small numbers, in the order they were first seen, for the layers that read parts
/// back (`derive/hosts.rs`: a crawl's tens of millions of hosts; `report/`). Each string is kept
/// once in one buffer, so it costs its bytes, an offset and a slot of the table, not an
/// allocation of its own. The last string asked for is checked first: a batch's file name and
/// most of its outcomes repeat row after row.
#[derive(Default)]
pub struct Names {
    text: String,
    /// Where each string ends in `text`, by id.
    ends: Vec<u64>,
    /// Ids, by the hash of their string.
    ids: HashTable<u32>,
    last: Option<u32>,
}

/// String `id` of `text` and `ends` (a function of the fields, so that the table can hash the
/// strings while it grows).
fn name_in<'t>(text: &'t str, ends: &[u64], id: u32) -> &'t str {
    let i = id as usize;
    let start = i.checked_sub(1).map_or(0, |p| ends[p]);
    &text[start as usize..ends[i] as usize]
}

impl Names {
    /// The id of `s`, which it is given when it is new.
    pub fn id(&mut self, s: &str) -> u32 {
        if let Some(last) = self.last.filter(|&l| self.get(l) == s) {
            return last;
        }
        let hash = hash_of(s);
        let (text, ends) = (&self.text, &self.ends);
        let id = match self.ids.find(hash, |&id| name_in(text, ends, id) == s) {
            Some(&id) => id,
            None => {
                // More than 2^32 strings would not fit in memory long before.
                let id = u32::try_from(self.ends.len()).expect("fewer than 2^32 names");
                self.text.push_str(s);
                self.ends.push(self.text.len() as u64);
                let (text, ends) = (&self.text, &self.ends);
                (self.ids).insert_unique(hash, id, |&j| hash_of(name_in(text, ends, j)));
                id
            }
        };
        self.last = Some(id);
        id
    }

    /// The id of `s`, when it has one.
    pub fn find(&self, s: &str) -> Option<u32> {
        if let Some(last) = self.last.filter(|&l| self.get(l) == s) {
            return Some(last);
        }
        let (text, ends) = (&self.text, &self.ends);
        (self.ids)
            .find(hash_of(s), |&id| name_in(text, ends, id) == s)
            .copied()
    }

    /// The string of `id`.
    pub fn get(&self, id: u32) -> &str {
        name_in(&self.text, &self.ends, id)
    }

    /// Room for `n` more strings of `bytes` bytes on average without growing.
    pub fn reserve(&mut self, n: usize, bytes: usize) {
        self.text.reserve(n.saturating_mul(bytes));
        self.ends.reserve(n);
        let (text, ends) = (&self.text, &self.ends);
        (self.ids).reserve(n, |&j| hash_of(name_in(text, ends, j)));
    }

    /// How many strings there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        /// Every value gets the index of its first entry since the last clear, whether it is
        /// found by its direct slot (small whole numbers) or by its hash (the others).
        #[test]
        fn each_value_keeps_the_index_of_its_first_entry(ops in proptest::collection::vec(
            prop_oneof![
                (-3i64..12).prop_map(Some),
                (4090i64..4100).prop_map(Some),
                any::<i64>().prop_map(Some),
                Just(None),
            ],
            0..300,
        )) {
            let mut dict = Dict::<i64>::default();
            let mut first: HashMap<i64, u32> = HashMap::new();
            for op in ops {
                match op {
                    Some(v) => {
                        let next = first.len() as u32;
                        let want = *first.entry(v).or_insert(next);
                        prop_assert_eq!(dict.intern(&v), want);
                        prop_assert_eq!(dict.values[want as usize], v);
                    }
                    None => {
                        dict.clear();
                        first.clear();
                    }
                }
            }
        }
    }

    proptest! {
        /// Every string gets the id of its first entry, and the id gives it back.
        #[test]
        fn each_name_keeps_the_id_of_its_first_entry(names in proptest::collection::vec(
            "[ab]{0,3}|[a-z.]{0,20}", 0..200,
        )) {
            let mut n = Names::default();
            let mut first: HashMap<String, u32> = HashMap::new();
            for s in &names {
                let next = first.len() as u32;
                let want = *first.entry(s.clone()).or_insert(next);
                prop_assert_eq!(n.id(s), want);
                prop_assert_eq!(n.get(want), s.as_str());
            }
            prop_assert_eq!(n.len(), first.len());
        }
    }
}

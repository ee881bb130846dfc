//! Parquet column chunks written from runs of values, for a table whose rows repeat most of their
//! values: `agent_verdicts` has one row per robots.txt capture and registry agent (184 rows per
//! capture, about 147 million per GiB of robots.txt archive), and a capture's rows share their
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

use anyhow::{Context, Result};
use bytes::Bytes;
use hashbrown::HashTable;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, SerializedRowGroupWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use rustc_hash::FxBuildHasher;
use std::fs::File;
use std::hash::BuildHasher;

/// The run index that stands for NULL values.
const NULL: u32 = u32::MAX;
/// The run index that stands for whole blocks (see [`StrCol::push_blocks`]).
const BLOCK: u32 = u32::MAX - 1;

/// zstd level of the pages, as for the other tables.
const ZSTD_LEVEL: i32 = 1;

/// Runs of (value, length), merging a push that repeats the last value.
#[derive(Default, Clone, Debug)]
struct Runs(Vec<(u32, u32)>);

impl Runs {
    fn push(&mut self, v: u32, n: u32) {
        if n == 0 {
            return;
        }
        match self.0.last_mut() {
            Some((last, len)) if *last == v => *len += n,
            _ => self.0.push((v, n)),
        }
    }
    fn clear(&mut self) {
        self.0.clear();
    }
}

/// Bits needed for values up to `max`, at least 1.
fn bit_width(max: u32) -> u8 {
    (32 - max.leading_zeros()).max(1) as u8
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// An encoder of Parquet's RLE / bit-packing hybrid at `bw` bits per value. Runs of 8 or more
/// become RLE runs; shorter ones are bit-packed in groups of 8 (a group is completed from the
/// next run's values, and the last one is padded, as the format allows).
struct Hybrid<'a> {
    out: &'a mut Vec<u8>,
    lits: &'a mut Vec<u32>,
    bw: u8,
}

impl<'a> Hybrid<'a> {
    fn new(bw: u8, out: &'a mut Vec<u8>, lits: &'a mut Vec<u32>) -> Self {
        lits.clear();
        Self { out, lits, bw }
    }

    fn run(&mut self, v: u32, mut n: u32) {
        if self.lits.len() % 8 != 0 {
            let k = (8 - self.lits.len() % 8).min(n as usize);
            self.lits.extend(std::iter::repeat_n(v, k));
            n -= k as u32;
        }
        if n >= 8 {
            flush_literals(self.lits, self.bw, self.out);
            put_varint(self.out, u64::from(n) << 1);
            let value_bytes = usize::from(self.bw).div_ceil(8);
            self.out.extend_from_slice(&v.to_le_bytes()[..value_bytes]);
        } else {
            self.lits.extend(std::iter::repeat_n(v, n as usize));
        }
    }

    /// `times` copies of a block whose values, bit-packed at this width, are `packed` (whole
    /// groups of 8), or else its `runs`.
    fn block(&mut self, runs: &[(u32, u32)], packed: Option<&[u8]>, times: u32) {
        match packed {
            Some(p) if self.lits.len() % 8 == 0 && !p.is_empty() => {
                flush_literals(self.lits, self.bw, self.out);
                let groups = (p.len() / usize::from(self.bw)) as u64 * u64::from(times);
                put_varint(self.out, (groups << 1) | 1);
                for _ in 0..times {
                    self.out.extend_from_slice(p);
                }
            }
            _ => {
                for _ in 0..times {
                    for &(v, n) in runs {
                        self.run(v, n);
                    }
                }
            }
        }
    }

    fn finish(self) {
        flush_literals(self.lits, self.bw, self.out);
    }
}

/// Encode runs in the hybrid encoding (see [`Hybrid`]).
fn hybrid(
    runs: impl IntoIterator<Item = (u32, u32)>,
    bw: u8,
    out: &mut Vec<u8>,
    lits: &mut Vec<u32>,
) {
    let mut h = Hybrid::new(bw, out, lits);
    for (v, n) in runs {
        h.run(v, n);
    }
    h.finish();
}

fn flush_literals(lits: &mut Vec<u32>, bw: u8, out: &mut Vec<u8>) {
    if lits.is_empty() {
        return;
    }
    lits.resize(lits.len().next_multiple_of(8), 0);
    put_varint(out, ((lits.len() as u64 / 8) << 1) | 1);
    bitpack(lits, bw, out);
    lits.clear();
}

/// Bit-pack values (a multiple of 8 of them), least significant bit first.
fn bitpack(vals: &[u32], bw: u8, out: &mut Vec<u8>) {
    let (mut acc, mut bits) = (0u64, 0u32);
    for &v in vals {
        acc |= u64::from(v) << bits;
        bits += u32::from(bw);
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
}

/// Level runs (0 for NULL, else 1) of value runs, merged.
fn def_level_runs<'a>(
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

/// A level section of a v1 data page: its length, then the hybrid encoding.
fn levels(
    runs: impl IntoIterator<Item = (u32, u32)>,
    max: u32,
    out: &mut Vec<u8>,
    lits: &mut Vec<u32>,
) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    hybrid(runs, bit_width(max), out, lits);
    let len = (out.len() - at - 4) as u32;
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// One column chunk's pages before compression.
struct ChunkPages<'a> {
    /// PLAIN-encoded dictionary and its number of entries.
    dict: Option<(&'a [u8], u32)>,
    /// The data page body (levels, then values) and its number of level entries.
    data: &'a [u8],
    num_values: u32,
    value_encoding: Encoding,
}

fn compress(page: &[u8]) -> Result<Bytes> {
    // Page headers hold sizes as i32: a chunk's rows that big (a decompression bomb's lines)
    // fail the input rather than write a corrupt file.
    anyhow::ensure!(
        page.len() <= i32::MAX as usize,
        "a column page of {} bytes is over Parquet's 2 GiB limit",
        page.len()
    );
    Ok(Bytes::from(zstd::bulk::compress(page, ZSTD_LEVEL)?))
}

/// Serialize a column chunk's pages with the parquet crate's page writer and splice the chunk
/// into the row group.
fn append_chunk(
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
fn check_rows(descr: &ColumnDescPtr, got: u64, rows: u64) -> Result<()> {
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
    page: Vec<u8>,
    dict: Vec<u8>,
    lits: Vec<u32>,
}

fn null_count(runs: &Runs) -> u64 {
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
}

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

/// Statistics values are cut at this many bytes, as the parquet crate's writer does by default
/// (`DEFAULT_STATISTICS_TRUNCATE_LENGTH`).
const STATISTICS_TRUNCATE: usize = 64;

/// Chunk statistics of a UTF-8 column, min and max cut as the parquet crate cuts them: the min
/// to a prefix, the max to a prefix whose last character is incremented (still an upper bound),
/// each marked inexact when cut.
fn string_statistics(min: Option<&[u8]>, max: Option<&[u8]>, nulls: u64) -> Statistics {
    let cut_min = min.map(|m| match truncate_utf8(m, STATISTICS_TRUNCATE) {
        Some(t) => (t, false),
        None => (m.to_vec(), true),
    });
    let cut_max = max.map(
        |m| match truncate_and_increment_utf8(m, STATISTICS_TRUNCATE) {
            Some(t) => (t, false),
            None => (m.to_vec(), true),
        },
    );
    let exact = (
        cut_min.as_ref().is_none_or(|m| m.1),
        cut_max.as_ref().is_none_or(|m| m.1),
    );
    Statistics::ByteArray(
        ValueStatistics::new(
            cut_min.map(|m| ByteArray::from(m.0)),
            cut_max.map(|m| ByteArray::from(m.0)),
            None,
            Some(nulls),
            false,
        )
        .with_min_is_exact(exact.0)
        .with_max_is_exact(exact.1),
    )
}

/// A prefix of at most `len` bytes ending on a character boundary, when `v` is longer.
fn truncate_utf8(v: &[u8], len: usize) -> Option<Vec<u8>> {
    if v.len() <= len {
        return None;
    }
    let s = std::str::from_utf8(v).ok()?;
    let split = (1..=len).rfind(|&i| s.is_char_boundary(i))?;
    Some(v[..split].to_vec())
}

/// A prefix of at most `len` bytes with its last incrementable character incremented (an upper
/// bound of `v`), when `v` is longer.
fn truncate_and_increment_utf8(v: &[u8], len: usize) -> Option<Vec<u8>> {
    if v.len() <= len {
        return None;
    }
    let s = std::str::from_utf8(v).ok()?;
    let split = (len.saturating_sub(3)..=len).rfind(|&i| s.is_char_boundary(i))?;
    let s = s.get(..split)?;
    for (i, c) in s.char_indices().rev() {
        if let Some(next) = char::from_u32(c as u32 + 1) {
            if next.len_utf8() == c.len_utf8() {
                let mut out = s.as_bytes()[..i + c.len_utf8()].to_vec();
                next.encode_utf8(&mut out[i..]);
                return Some(out);
            }
        }
    }
    None
}

macro_rules! num_value {
    ($t:ty, $key:ty, $bits:expr, $stat:ident, $nan:expr) => {
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
        }
    };
}
num_value!(i32, i32, |v| v, Int32, false);
num_value!(i64, i64, |v| v, Int64, false);
// A float's key is its bits (so NaN is an entry like any other).
num_value!(f64, u64, f64::to_bits, Double, true);

/// A dictionary: entries in index order, and a table of their indexes by the hash of their key
/// (each entry stored once; a string new to it costs one allocation).
struct Dict<V: DictValue> {
    values: Vec<V>,
    index: HashTable<u32>,
}

impl<V: DictValue> Default for Dict<V> {
    fn default() -> Self {
        Self {
            values: Vec::new(),
            index: HashTable::new(),
        }
    }
}

fn hash_of<K: std::hash::Hash + ?Sized>(k: &K) -> u64 {
    FxBuildHasher.hash_one(k)
}

impl<V: DictValue> Dict<V> {
    /// The index of the entry whose key is `k`, adding `make()` when there is none.
    fn intern_by(&mut self, k: V::Key<'_>, make: impl FnOnce() -> V) -> u32 {
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
    fn intern(&mut self, v: &V) -> u32 {
        self.intern_by(v.key(), || v.clone())
    }
    fn clear(&mut self) {
        self.values.clear();
        self.index.clear();
    }
    fn plain(&self, out: &mut Vec<u8>) {
        out.clear();
        for v in &self.values {
            v.plain(out);
        }
    }
}

/// A dictionary-encoded nullable column (strings, integers, floats).
pub struct DictCol<V: DictValue> {
    dict: Dict<V>,
    runs: Runs,
    /// The dictionary index of the last value pushed, so that repeating it costs no lookup.
    last: Option<u32>,
    /// A block of runs pushed as a unit ([`DictCol::set_block`]), its number of values and its
    /// indexes.
    block: Vec<(u32, u32)>,
    block_rows: u32,
    block_indexes: Vec<u32>,
}

impl<V: DictValue> Default for DictCol<V> {
    fn default() -> Self {
        Self {
            dict: Dict::default(),
            runs: Runs::default(),
            last: None,
            block: Vec::new(),
            block_rows: 0,
            block_indexes: Vec::new(),
        }
    }
}

impl<V: DictValue + PartialEq> DictCol<V> {
    /// Append `n` rows of `v` (NULL for `None`).
    pub fn push(&mut self, v: Option<&V>, n: u32) {
        self.push_by(v, n, |d, v| d.intern(v));
    }

    /// Append `n` rows of `v`: a repeat of the last value costs one comparison, any other value
    /// the dictionary index that `intern` gives it.
    fn push_by<Q: ?Sized + PartialEq>(
        &mut self,
        v: Option<&Q>,
        n: u32,
        intern: impl FnOnce(&mut Dict<V>, &Q) -> u32,
    ) where
        V: std::borrow::Borrow<Q>,
    {
        let i = match v {
            None => NULL,
            Some(v) => match self.last {
                Some(i) if self.dict.values[i as usize].borrow() == v => i,
                _ => {
                    let i = intern(&mut self.dict, v);
                    self.last = Some(i);
                    i
                }
            },
        };
        self.runs.push(i, n);
    }

    /// Intern `v` without adding a row: for building a block.
    pub fn intern(&mut self, v: &V) -> u32 {
        self.dict.intern(v)
    }

    /// Set the block of values (dictionary indexes from [`DictCol::intern`]) that
    /// [`DictCol::push_blocks`] appends.
    pub fn set_block(&mut self, indexes: &[u32]) {
        let mut r = Runs::default();
        for &i in indexes {
            r.push(i, 1);
        }
        self.block = r.0;
        self.block_rows = indexes.len() as u32;
        self.block_indexes = indexes.to_vec();
    }

    /// Append the block `n` times.
    pub fn push_blocks(&mut self, n: u32) {
        self.runs.push(BLOCK, n);
    }

    /// Whether a block is set (blocks last until the row group is written).
    pub fn has_block(&self) -> bool {
        !self.block.is_empty()
    }

    /// Rows held.
    fn rows(&self) -> u64 {
        self.runs
            .0
            .iter()
            .map(|&(v, n)| u64::from(n) * u64::from(if v == BLOCK { self.block_rows } else { 1 }))
            .sum()
    }

    /// Encode the indexes of the non-NULL values.
    fn encode_values(&self, bw: u8, s: &mut Scratch) {
        // A block of whole groups of 8 is bit-packed once and copied.
        let packed = (self.block_rows > 0 && self.block_rows % 8 == 0).then(|| {
            let mut p = Vec::new();
            bitpack(&self.block_indexes, bw, &mut p);
            p
        });
        let mut h = Hybrid::new(bw, &mut s.page, &mut s.lits);
        for &(v, n) in &self.runs.0 {
            match v {
                NULL => {}
                BLOCK => h.block(&self.block, packed.as_deref(), n),
                _ => h.run(v, n),
            }
        }
        h.finish();
    }
}

impl<V: DictValue + PartialEq> RunColumn for DictCol<V> {
    fn write(
        &mut self,
        rg: &mut SerializedRowGroupWriter<'_, File>,
        descr: &ColumnDescPtr,
        rows: u64,
        s: &mut Scratch,
    ) -> Result<()> {
        let nulls = null_count(&self.runs);
        s.page.clear();
        let required = descr.max_def_level() == 0;
        if !required {
            let defs = def_level_runs(&self.runs.0, self.block_rows);
            levels(defs, 1, &mut s.page, &mut s.lits);
        }
        let n_dict = self.dict.values.len() as u32;
        let bw = bit_width(n_dict.saturating_sub(1));
        s.page.push(bw);
        self.encode_values(bw, s);
        self.dict.plain(&mut s.dict);
        check_rows(descr, self.rows(), rows)?;
        let num_values = rows as u32;
        let pages = ChunkPages {
            dict: Some((&s.dict, n_dict)),
            data: &s.page,
            num_values,
            value_encoding: Encoding::RLE_DICTIONARY,
        };
        let nans = self
            .runs
            .0
            .iter()
            .filter(|&&(v, _)| v < BLOCK && self.dict.values[v as usize].is_nan())
            .map(|r| u64::from(r.1))
            .sum::<u64>()
            + self
                .runs
                .0
                .iter()
                .filter(|r| r.0 == BLOCK)
                .map(|r| {
                    let in_block = self.block_indexes.iter();
                    u64::from(r.1)
                        * in_block
                            .filter(|&&i| self.dict.values[i as usize].is_nan())
                            .count() as u64
                })
                .sum::<u64>();
        append_chunk(
            rg,
            descr,
            pages,
            rows,
            V::statistics(&self.dict.values, nulls, nans),
        )?;
        self.dict.clear();
        self.runs.clear();
        self.last = None;
        self.block.clear();
        self.block_rows = 0;
        Ok(())
    }
}

/// A string column.
pub type StrCol = DictCol<Box<str>>;

impl StrCol {
    /// Append `n` rows of `v`, allocating only for a value new to the dictionary.
    pub fn push_str(&mut self, v: Option<&str>, n: u32) {
        self.push_by(v, n, |d, s: &str| d.intern_by(s, || s.into()));
    }
}

/// A nullable boolean column (RLE-encoded values, no dictionary).
#[derive(Default)]
pub struct BoolCol {
    runs: Runs,
    seen: [bool; 2],
}

impl BoolCol {
    pub fn push(&mut self, v: Option<bool>, n: u32) {
        let i = match v {
            None => NULL,
            Some(b) => {
                self.seen[usize::from(b)] |= n > 0;
                u32::from(b)
            }
        };
        self.runs.push(i, n);
    }
}

impl RunColumn for BoolCol {
    fn write(
        &mut self,
        rg: &mut SerializedRowGroupWriter<'_, File>,
        descr: &ColumnDescPtr,
        rows: u64,
        s: &mut Scratch,
    ) -> Result<()> {
        let min = if self.seen[0] {
            Some(false)
        } else {
            self.seen[1].then_some(true)
        };
        let max = if self.seen[1] {
            Some(true)
        } else {
            self.seen[0].then_some(false)
        };
        let stats = Statistics::boolean(min, max, None, Some(null_count(&self.runs)), false);
        let values = self.runs.0.iter().copied().filter(|r| r.0 != NULL);
        let encode = |page: &mut Vec<u8>, lits: &mut Vec<u32>| levels(values, 1, page, lits);
        append_undictionaried(rg, descr, rows, s, &self.runs, Encoding::RLE, encode, stats)?;
        self.runs.clear();
        self.seen = [false; 2];
        Ok(())
    }
}

/// Write a column chunk without a dictionary: definition levels from `runs` (NULL runs are the
/// NULLs), then the values `encode` appends to the page, encoded as `encoding`.
#[allow(clippy::too_many_arguments)]
fn append_undictionaried(
    rg: &mut SerializedRowGroupWriter<'_, File>,
    descr: &ColumnDescPtr,
    rows: u64,
    s: &mut Scratch,
    runs: &Runs,
    encoding: Encoding,
    encode: impl FnOnce(&mut Vec<u8>, &mut Vec<u32>),
    stats: Statistics,
) -> Result<()> {
    let num_values = runs.0.iter().map(|r| u64::from(r.1)).sum::<u64>();
    check_rows(descr, num_values, rows)?;
    s.page.clear();
    if descr.max_def_level() > 0 {
        levels(def_level_runs(&runs.0, 0), 1, &mut s.page, &mut s.lits);
    }
    encode(&mut s.page, &mut s.lits);
    let pages = ChunkPages {
        dict: None,
        data: &s.page,
        num_values: num_values as u32,
        value_encoding: encoding,
    };
    append_chunk(rg, descr, pages, rows, Some(stats))
}

/// A nullable string column of mostly distinct values (robots.txt lines, URLs): PLAIN-encoded,
/// no dictionary, definition levels as runs.
#[derive(Default)]
pub struct TextCol {
    /// The PLAIN encoding of the non-NULL values (length, then bytes).
    data: Vec<u8>,
    /// Runs of NULL and of 1 (a value).
    defs: Runs,
    /// Where the least and the greatest value so far are in `data` (start, end).
    min: Option<(usize, usize)>,
    max: Option<(usize, usize)>,
}

impl TextCol {
    /// Append `n` rows of `v` (NULL for `None`).
    pub fn push_str(&mut self, v: Option<&str>, n: u32) {
        let Some(v) = v else {
            self.defs.push(NULL, n);
            return;
        };
        self.defs.push(1, n);
        for _ in 0..n {
            self.data.extend_from_slice(&(v.len() as u32).to_le_bytes());
            let at = (self.data.len(), self.data.len() + v.len());
            self.data.extend_from_slice(v.as_bytes());
            let b = v.as_bytes();
            if self.min.is_none_or(|(s, e)| b < &self.data[s..e]) {
                self.min = Some(at);
            }
            if self.max.is_none_or(|(s, e)| b > &self.data[s..e]) {
                self.max = Some(at);
            }
        }
    }
}

impl RunColumn for TextCol {
    fn write(
        &mut self,
        rg: &mut SerializedRowGroupWriter<'_, File>,
        descr: &ColumnDescPtr,
        rows: u64,
        s: &mut Scratch,
    ) -> Result<()> {
        let range = |r: Option<(usize, usize)>| r.map(|(a, b)| &self.data[a..b]);
        let stats = string_statistics(range(self.min), range(self.max), null_count(&self.defs));
        let encode = |page: &mut Vec<u8>, _: &mut Vec<u32>| page.extend_from_slice(&self.data);
        append_undictionaried(
            rg,
            descr,
            rows,
            s,
            &self.defs,
            Encoding::PLAIN,
            encode,
            stats,
        )?;
        self.data.clear();
        self.defs.clear();
        (self.min, self.max) = (None, None);
        Ok(())
    }
}

/// A nullable list of strings (non-null items): levels as runs, items dictionary-encoded.
#[derive(Default)]
pub struct StrListCol {
    items: StrCol,
    defs: Runs,
    reps: Runs,
}

impl StrListCol {
    /// Append `n` rows of `v` (a NULL list for `None`).
    pub fn push<S: AsRef<str>>(&mut self, v: Option<&[S]>, n: u32) {
        match v {
            None => {
                self.defs.push(0, n);
                self.reps.push(0, n);
            }
            Some([]) => {
                self.defs.push(1, n);
                self.reps.push(0, n);
            }
            Some(items) => {
                for _ in 0..n {
                    self.defs.push(3, items.len() as u32);
                    self.reps.push(0, 1);
                    self.reps.push(1, items.len() as u32 - 1);
                    for it in items {
                        self.items.push_str(Some(it.as_ref()), 1);
                    }
                }
            }
        }
    }
}

impl RunColumn for StrListCol {
    fn write(
        &mut self,
        rg: &mut SerializedRowGroupWriter<'_, File>,
        descr: &ColumnDescPtr,
        rows: u64,
        s: &mut Scratch,
    ) -> Result<()> {
        assert_eq!(
            (descr.max_def_level(), descr.max_rep_level()),
            (3, 1),
            "{} is a nullable list of strings",
            descr.path()
        );
        s.page.clear();
        levels(self.reps.0.iter().copied(), 1, &mut s.page, &mut s.lits);
        levels(self.defs.0.iter().copied(), 3, &mut s.page, &mut s.lits);
        let n_dict = self.items.dict.values.len() as u32;
        let bw = bit_width(n_dict.saturating_sub(1));
        s.page.push(bw);
        hybrid(
            self.items.runs.0.iter().copied(),
            bw,
            &mut s.page,
            &mut s.lits,
        );
        self.items.dict.plain(&mut s.dict);
        let num_values = self.defs.0.iter().map(|r| r.1).sum::<u32>();
        let list_rows = self
            .reps
            .0
            .iter()
            .filter(|r| r.0 == 0)
            .map(|r| u64::from(r.1));
        check_rows(descr, list_rows.sum(), rows)?;
        let pages = ChunkPages {
            dict: Some((&s.dict, n_dict)),
            data: &s.page,
            num_values,
            value_encoding: Encoding::RLE_DICTIONARY,
        };
        append_chunk(rg, descr, pages, rows, None)?;
        self.items.dict.clear();
        self.items.runs.clear();
        self.items.last = None;
        self.defs.clear();
        self.reps.clear();
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Decode the hybrid encoding (a straightforward reading of the format) to check the encoder.
    fn decode(mut b: &[u8], bw: u8, n: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let vb = usize::from(bw).div_ceil(8);
        while out.len() < n {
            let (mut h, mut shift) = (0u64, 0);
            loop {
                let byte = b[0];
                b = &b[1..];
                h |= u64::from(byte & 0x7f) << shift;
                shift += 7;
                if byte < 0x80 {
                    break;
                }
            }
            if h & 1 == 0 {
                let mut v = [0u8; 4];
                v[..vb].copy_from_slice(&b[..vb]);
                b = &b[vb..];
                out.extend(std::iter::repeat_n(
                    u32::from_le_bytes(v),
                    (h >> 1) as usize,
                ));
            } else {
                let count = (h >> 1) as usize * 8;
                let (mut acc, mut bits) = (0u64, 0u32);
                for _ in 0..count {
                    while bits < u32::from(bw) {
                        acc |= u64::from(b[0]) << bits;
                        b = &b[1..];
                        bits += 8;
                    }
                    out.push((acc & ((1u64 << bw) - 1)) as u32);
                    acc >>= bw;
                    bits -= u32::from(bw);
                }
            }
        }
        out.truncate(n);
        out
    }

    proptest::proptest! {
        #[test]
        fn hybrid_round_trips(runs in proptest::collection::vec((0u32..300, 1u32..40), 0..60)) {
            let bw = bit_width(299);
            let mut out = Vec::new();
            hybrid(runs.iter().copied(), bw, &mut out, &mut Vec::new());
            let want: Vec<u32> = runs.iter().flat_map(|&(v, n)| std::iter::repeat_n(v, n as usize)).collect();
            proptest::prop_assert_eq!(decode(&out, bw, want.len()), want);
        }
    }

    /// Blocks, packed or not, encode as their values would one by one.
    #[test]
    fn blocks_encode_as_their_values() {
        for block_len in [8usize, 16, 5] {
            let mut c = StrCol::default();
            let idx: Vec<u32> = (0..block_len)
                .map(|i| c.intern(&format!("v{}", i % 6).into()))
                .collect();
            c.set_block(&idx);
            c.push_str(Some("v1"), 3);
            c.push_blocks(2);
            c.push_str(None, 4);
            c.push_blocks(1);
            c.push_str(Some("v5"), 9);
            c.push_blocks(3);
            let mut want = vec![1; 3];
            want.extend(idx.iter().cycle().take(2 * block_len));
            want.extend(idx.iter().take(block_len));
            want.extend([5; 9]);
            want.extend(idx.iter().cycle().take(3 * block_len));
            let bw = bit_width(5);
            let mut s = Scratch::default();
            c.encode_values(bw, &mut s);
            assert_eq!(
                decode(&s.page, bw, want.len()),
                want,
                "block of {block_len}"
            );
            assert_eq!(c.rows(), 3 + 4 + 9 + 6 * block_len as u64);
            let defs: Vec<(u32, u32)> = def_level_runs(&c.runs.0, c.block_rows).collect();
            let b = block_len as u32;
            assert_eq!(defs, vec![(1, 3 + 2 * b), (0, 4), (1, b + 9 + 3 * b)]);
        }
    }
}

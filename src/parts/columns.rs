//! The column types of tables written from runs: dictionary-encoded strings and numbers
//! ([`DictCol`], [`StrCol`]), booleans ([`BoolCol`]), high-cardinality text without a dictionary
//! ([`TextCol`]) and lists of strings ([`StrListCol`]).

use super::encoding::{bit_width, bitpack, hybrid, levels, Hybrid};
use super::runs::{
    append_chunk, check_rows, def_level_runs, null_count, ChunkPages, Dict, DictValue, RunColumn,
    Runs, Scratch, BLOCK, NULL,
};
use anyhow::Result;
use parquet::basic::Encoding;
use parquet::file::statistics::Statistics;
use parquet::file::writer::SerializedRowGroupWriter;
use parquet::schema::types::ColumnDescPtr;
use std::fs::File;

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
        // The block, repeated until it fills whole groups of 8 (once for a multiple of 8
        // agents, up to eight times otherwise), is bit-packed once and copied.
        let copies = 8 / gcd(self.block_rows, 8).max(1);
        let packed = (self.block_rows > 0).then(|| {
            let mut p = Vec::new();
            let values: Vec<u32> = (self.block_indexes.iter())
                .cycle()
                .take(self.block_indexes.len() * copies as usize)
                .copied()
                .collect();
            bitpack(&values, bw, &mut p);
            p
        });
        let mut h = Hybrid::new(bw, &mut s.page, &mut s.lits);
        for &(v, n) in &self.runs.0 {
            match v {
                NULL => {}
                BLOCK => h.block(&self.block, packed.as_deref(), copies, n),
                _ => h.run(v, n),
            }
        }
        h.finish();
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
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

/// A string column of a closed set of values (an enum's names): a [`StrCol`] that knows the
/// values it has seen by their address, since a `&'static str` holds the same text for the
/// whole run. A line's key, key form and separator then cost a few comparisons of addresses,
/// not a hash and a string comparison.
#[derive(Default)]
pub struct LabelCol {
    col: StrCol,
    /// (address, length, dictionary index) of the values seen since the last row group.
    seen: Vec<(usize, usize, u32)>,
}

/// A closed set has a few values; past this many, values are looked up by their text.
const LABELS: usize = 32;

impl LabelCol {
    /// Append `n` rows of `v` (NULL for `None`).
    pub fn push_label(&mut self, v: Option<&'static str>, n: u32) {
        let Some(v) = v else {
            self.col.runs.push(NULL, n);
            return;
        };
        let at = (v.as_ptr() as usize, v.len());
        let i = match self.seen.iter().find(|e| (e.0, e.1) == at) {
            Some(e) => e.2,
            None => {
                let i = self.col.dict.intern_by(v, || v.into());
                if self.seen.len() < LABELS {
                    self.seen.push((at.0, at.1, i));
                }
                i
            }
        };
        self.col.runs.push(i, n);
    }
}

impl RunColumn for LabelCol {
    fn write(
        &mut self,
        rg: &mut SerializedRowGroupWriter<'_, File>,
        descr: &ColumnDescPtr,
        rows: u64,
        s: &mut Scratch,
    ) -> Result<()> {
        // The dictionary starts empty again, and so do the indexes known by address.
        self.seen.clear();
        self.col.write(rg, descr, rows, s)
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
        let runs = &self.runs;
        append_undictionaried(rg, descr, rows, s, runs, Encoding::RLE, encode, Some(stats))?;
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
    stats: Option<Statistics>,
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
    append_chunk(rg, descr, pages, rows, stats)
}

/// A nullable string column of mostly distinct values (robots.txt lines, URLs): PLAIN-encoded,
/// no dictionary, definition levels as runs, and no statistics: the min and max of values in
/// no order prune nothing, and comparing every value for them cost as much as copying it.
#[derive(Default)]
pub struct TextCol {
    /// The PLAIN encoding of the non-NULL values (length, then bytes).
    data: Vec<u8>,
    /// Runs of NULL and of 1 (a value).
    defs: Runs,
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
            self.data.extend_from_slice(v.as_bytes());
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
        let encode = |page: &mut Vec<u8>, _: &mut Vec<u32>| page.extend_from_slice(&self.data);
        append_undictionaried(
            rg,
            descr,
            rows,
            s,
            &self.defs,
            Encoding::PLAIN,
            encode,
            None,
        )?;
        self.data.clear();
        self.defs.clear();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::encoding::tests::decode;

    /// Blocks, packed or not, encode as their values would one by one.
    #[test]
    fn blocks_encode_as_their_values() {
        // Whole groups of 8, one pack of two copies, of eight copies (215 agents), and the
        // copies left over after the packs (19 = 2 x 8 + 3).
        for block_len in [8usize, 16, 5, 12, 215] {
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
            c.push_blocks(19);
            let mut want = vec![1; 3];
            want.extend(idx.iter().cycle().take(2 * block_len));
            want.extend(idx.iter().take(block_len));
            want.extend([5; 9]);
            want.extend(idx.iter().cycle().take(19 * block_len));
            let bw = bit_width(5);
            let mut s = Scratch::default();
            c.encode_values(bw, &mut s);
            assert_eq!(
                decode(&s.page, bw, want.len()),
                want,
                "block of {block_len}"
            );
            assert_eq!(c.rows(), 3 + 4 + 9 + 22 * block_len as u64);
            let defs: Vec<(u32, u32)> = def_level_runs(&c.runs.0, c.block_rows).collect();
            let b = block_len as u32;
            assert_eq!(defs, vec![(1, 3 + 2 * b), (0, 4), (1, b + 9 + 19 * b)]);
        }
    }
}

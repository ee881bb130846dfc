//! The Parquet encodings the run writer needs: the RLE / bit-packing hybrid of levels and
//! dictionary indexes, and chunk statistics of byte-array values cut as the parquet crate cuts
//! them.

use parquet::data_type::ByteArray;
use parquet::file::statistics::{Statistics, ValueStatistics};

/// Bits needed for values up to `max`, at least 1.
pub(super) fn bit_width(max: u32) -> u8 {
    (32 - max.leading_zeros()).max(1) as u8
}

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// An encoder of Parquet's RLE / bit-packing hybrid at `bw` bits per value. Runs of 8 or more
/// become RLE runs; shorter ones are bit-packed in groups of 8 (a group is completed from the
/// next run's values, and the last one is padded, as the format allows).
pub(super) struct Hybrid<'a> {
    pub(super) out: &'a mut Vec<u8>,
    pub(super) lits: &'a mut Vec<u32>,
    pub(super) bw: u8,
}

impl<'a> Hybrid<'a> {
    pub(super) fn new(bw: u8, out: &'a mut Vec<u8>, lits: &'a mut Vec<u32>) -> Self {
        lits.clear();
        Self { out, lits, bw }
    }

    pub(super) fn run(&mut self, v: u32, n: u32) {
        // Values that complete the group of literals in hand go with it.
        let open = (8 - self.lits.len() % 8) % 8;
        let fill = open.min(n as usize);
        let rest = n - fill as u32;
        if rest >= 8 {
            self.lits.extend(std::iter::repeat_n(v, fill));
            flush_literals(self.lits, self.bw, self.out);
            put_varint(self.out, u64::from(rest) << 1);
            let value_bytes = usize::from(self.bw).div_ceil(8);
            self.out.extend_from_slice(&v.to_le_bytes()[..value_bytes]);
        } else if n == 1 {
            self.lits.push(v);
        } else {
            self.lits.extend(std::iter::repeat_n(v, n as usize));
        }
    }

    /// `times` copies of a block whose `runs` fill whole groups of 8 when repeated `per_pack`
    /// times; `packed` is those `per_pack` copies bit-packed at this width. Whole packs are
    /// copied as bit-packed groups, the copies left over (and every copy when the literals in
    /// hand do not end on a group) go through [`Hybrid::run`].
    pub(super) fn block(
        &mut self,
        runs: &[(u32, u32)],
        packed: Option<&[u8]>,
        per_pack: u32,
        times: u32,
    ) {
        let mut left = times;
        if let Some(p) = packed {
            let packs = times / per_pack;
            if self.lits.len().is_multiple_of(8) && !p.is_empty() && packs > 0 {
                flush_literals(self.lits, self.bw, self.out);
                let groups = (p.len() / usize::from(self.bw)) as u64 * u64::from(packs);
                put_varint(self.out, (groups << 1) | 1);
                for _ in 0..packs {
                    self.out.extend_from_slice(p);
                }
                left -= packs * per_pack;
            }
        }
        for _ in 0..left {
            for &(v, n) in runs {
                self.run(v, n);
            }
        }
    }

    pub(super) fn finish(self) {
        flush_literals(self.lits, self.bw, self.out);
    }
}

/// Encode runs in the hybrid encoding (see [`Hybrid`]).
pub(super) fn hybrid(
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

pub(super) fn flush_literals(lits: &mut Vec<u32>, bw: u8, out: &mut Vec<u8>) {
    if lits.is_empty() {
        return;
    }
    lits.resize(lits.len().next_multiple_of(8), 0);
    put_varint(out, ((lits.len() as u64 / 8) << 1) | 1);
    bitpack(lits, bw, out);
    lits.clear();
}

/// Bit-pack values (a multiple of 8 of them, each below `1 << bw`, `bw` at most 32), least
/// significant bit first. Bits leave the accumulator 32 at a time; 8 values fill whole bytes,
/// so what is left at the end is whole bytes.
pub(super) fn bitpack(vals: &[u32], bw: u8, out: &mut Vec<u8>) {
    let bw = u32::from(bw);
    out.reserve(vals.len() * bw as usize / 8);
    let (mut acc, mut bits) = (0u64, 0u32);
    for &v in vals {
        // `bits` is below 32 here, so the value fits.
        acc |= u64::from(v) << bits;
        bits += bw;
        if bits >= 32 {
            out.extend_from_slice(&(acc as u32).to_le_bytes());
            acc >>= 32;
            bits -= 32;
        }
    }
    out.extend_from_slice(&acc.to_le_bytes()[..(bits / 8) as usize]);
}

/// A level section of a v1 data page: its length, then the hybrid encoding.
pub(super) fn levels(
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

/// Statistics values are cut at this many bytes, as the parquet crate's writer does by default
/// (`DEFAULT_STATISTICS_TRUNCATE_LENGTH`).
pub(super) const STATISTICS_TRUNCATE: usize = 64;

/// Chunk statistics of a UTF-8 column, min and max cut as the parquet crate cuts them: the min
/// to a prefix, the max to a prefix whose last character is incremented (still an upper bound),
/// each marked inexact when cut.
pub(super) fn string_statistics(min: Option<&[u8]>, max: Option<&[u8]>, nulls: u64) -> Statistics {
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
pub(super) fn truncate_utf8(v: &[u8], len: usize) -> Option<Vec<u8>> {
    if v.len() <= len {
        return None;
    }
    let s = std::str::from_utf8(v).ok()?;
    let split = (1..=len).rfind(|&i| s.is_char_boundary(i))?;
    Some(v[..split].to_vec())
}

/// A prefix of at most `len` bytes with its last incrementable character incremented (an upper
/// bound of `v`), when `v` is longer.
pub(super) fn truncate_and_increment_utf8(v: &[u8], len: usize) -> Option<Vec<u8>> {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Decode the hybrid encoding (a straightforward reading of the format) to check the encoder.
    pub(crate) fn decode(mut b: &[u8], bw: u8, n: usize) -> Vec<u32> {
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

        #[test]
        fn bitpacked_groups_decode_to_their_values_at_every_width(
            bw in 1u8..=32,
            raw in proptest::collection::vec(proptest::prelude::any::<u32>(), 1..40),
        ) {
            let mask = if bw == 32 { u32::MAX } else { (1u32 << bw) - 1 };
            let mut vals: Vec<u32> = raw.iter().map(|v| v & mask).collect();
            vals.resize(vals.len().next_multiple_of(8), 0);
            let mut out = Vec::new();
            out.push(((vals.len() / 8) << 1 | 1) as u8);
            bitpack(&vals, bw, &mut out);
            proptest::prop_assert_eq!(out.len(), 1 + vals.len() * usize::from(bw) / 8);
            proptest::prop_assert_eq!(decode(&out, bw, vals.len()), vals);
        }
    }
}

//! A reader `Sink` that keeps every record and error, for the tests that compare reads.

use repcensus::ReadError;
use repcensus::{Record, Sink};

/// One record as a read gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rec {
    pub offset: u64,
    pub uri: String,
    /// The raw header.
    pub head: Vec<u8>,
    pub block: Vec<u8>,
    pub block_len: u64,
    pub truncated: bool,
}

#[derive(Default, Debug, PartialEq, Eq)]
pub struct Collect {
    pub recs: Vec<Rec>,
    pub errs: Vec<ReadError>,
}

impl Sink for Collect {
    fn record(&mut self, rec: &Record<'_>) {
        self.recs.push(Rec {
            offset: rec.offset,
            uri: String::from_utf8_lossy(rec.head.target_uri).into_owned(),
            head: rec.head.raw.to_vec(),
            block: rec.block.to_vec(),
            block_len: rec.block_len,
            truncated: rec.block_truncated,
        });
    }
    fn error(&mut self, err: ReadError) {
        self.errs.push(err);
    }
}

impl Collect {
    /// The records' offsets, in order.
    pub fn offsets(&self) -> Vec<u64> {
        self.recs.iter().map(|r| r.offset).collect()
    }

    /// Whether a record with this block was read at this offset.
    pub fn has(&self, offset: u64, block: &[u8]) -> bool {
        self.recs
            .iter()
            .any(|r| r.offset == offset && r.block == block)
    }

    /// (kind, offset) of each error.
    pub fn kinds(&self) -> Vec<(&'static str, Option<u64>)> {
        self.errs
            .iter()
            .map(|e| (e.kind.as_str(), e.offset))
            .collect()
    }
}

/// Where each part starts when the parts are laid end to end.
pub fn starts<T: AsRef<[u8]>>(parts: &[T]) -> Vec<usize> {
    parts
        .iter()
        .scan(0usize, |pos, p| {
            let s = *pos;
            *pos += p.as_ref().len();
            Some(s)
        })
        .collect()
}

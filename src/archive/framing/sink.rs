//! What the framer hands on: [`Record`]s to a [`Sink`], which says how much of a block it
//! needs ([`Need`]) so that readers can stop inflating early.

use crate::archive::heads::record::Head;
use crate::archive::problem::ReadError;

/// The most of a record block that extractors are given (8 MiB).
pub const KEEP_BLOCK: usize = 8 << 20;

/// One archive record as extractors see it.
#[derive(Debug)]
pub struct Record<'a> {
    pub head: Head<'a>,
    /// The record block (for a response: HTTP head and body), at most [`KEEP_BLOCK`] bytes; or
    /// a prefix of it that the sink said was enough ([`Sink::block_needed`]).
    pub block: &'a [u8],
    /// The declared block length.
    pub block_len: u64,
    /// `block` is shorter than `block_len` (a huge record, or the input ended inside it).
    pub block_truncated: bool,
    /// Byte offset of the record: of its gzip member in a `.warc.gz`, otherwise in the
    /// (decompressed) stream.
    pub offset: u64,
}

/// How much of a record's block a sink needs, given its first bytes ([`Sink::block_needed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// The whole block.
    All,
    /// More of it than this prefix to decide: at least so many bytes of the block, when the
    /// sink can tell (0: no idea, the reader doubles what it has).
    More(usize),
    /// This prefix: the sink gives the same results from it as from the whole block.
    Enough,
}

/// Receives what the framer finds.
pub trait Sink {
    fn record(&mut self, rec: &Record<'_>);
    fn error(&mut self, err: ReadError);

    /// A reader that can stop inflating a gzip member early asks this before it inflates the
    /// rest of a record's block: `prefix` is the start of the block (shorter than the whole).
    /// [`Need::Enough`] promises that [`Sink::record`] gives the same results when its block is
    /// this prefix as when it is the whole block; the reader then passes the prefix and skips
    /// the rest of the member without inflating it (see [`read_gzip_members`](crate::read_gzip_members)).
    fn block_needed(&mut self, head: &Head<'_>, prefix: &[u8]) -> Need {
        let _ = (head, prefix);
        Need::All
    }
}

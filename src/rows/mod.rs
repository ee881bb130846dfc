//! Records to rows: the extractor that hands each record of a chunk to the row sources the table
//! selection needs (robots.txt captures with their lines and agent verdicts; page signals with
//! host counts), which turn it into rows of the selected tables.

pub mod extract;
pub mod from_files;
pub mod from_pages;
pub mod from_robots;
pub mod output;
pub mod source;

pub use extract::Extractor;
pub use output::{ChunkOutput, RecordCounts};
pub use source::ExtractBuffers;

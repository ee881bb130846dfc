//! Records to rows: the extractor that hands each record of a chunk to the row sources the table
//! selection needs (robots.txt captures with their lines and agent verdicts; page signals with
//! host counts), which turn it into rows of the selected tables.

mod body_facts;
pub mod extract;
pub mod fetch;
pub mod host_counts;
pub mod output;
pub mod page_signals;
pub mod pages;
pub mod robots_capture;
pub mod robots_txt;
pub mod source;
pub mod verdict_rows;
pub mod verdicts;

pub use extract::Extractor;
pub use output::{ChunkOutput, RecordCounts};
pub use source::ExtractBuffers;

//! Parquet parts: the out folder (staging, atomic commit, remote upload) and the column writers
//! that encode a table's runs. Knows nothing of which tables exist.

pub mod columns;
mod encoding;
mod out_dir;
mod part;
pub mod runs;

pub use out_dir::{OutDir, PartRef, SCHEMA_CRAWL};
pub use part::{PartOutcome, PartWriter, TableDesc};

//! repcensus: a census of how the web tells machines what they may do.
//!
//! Reads web archives (WARC, ARC; plain, per-record gzip, whole-file gzip and other containers),
//! extracts robots.txt captures and writes Parquet tables for analysts. The data flows one way:
//!
//! ```text
//! input (paths, lists) -> reader (containers, framing) -> record (headers) -> extract (rows)
//!                      -> tables (Arrow builders) -> output (Parquet parts, atomic)
//! ```
//!
//! [`scan::scan`] drives it all on a thread pool. The binary in `main.rs` is a thin CLI.

pub mod agents;
pub mod archive;
pub mod parts;
pub mod robots;
pub mod rows;
pub mod scan;
pub mod signals;
pub mod tables;

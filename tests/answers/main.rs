//! The answers: bundled queries, `repcensus query` and `views`, the studies, the report and
//! `explain`.
//!
//! One test binary of a few, by concern: each links the library once and shares
//! `tests/common` (and the samples it scans once per binary) among its modules.

#[path = "../common/mod.rs"]
mod common;

mod explain;
mod queries;
mod query_cmd;
mod report;
mod studies;
mod views;

//! The tables derived per crawl and the page signals: robots_hosts, page_verdicts, the summaries.
//!
//! One test binary of a few, by concern: each links the library once and shares
//! `tests/common` (and the samples it scans once per binary) among its modules.

#[path = "../common/mod.rs"]
mod common;

mod hosts;
mod page_signals;
mod page_verdicts;
mod summaries;

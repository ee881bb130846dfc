//! The robots.txt parser, matcher and verdicts, against Google's tests, the real files and the
//! registry.
//!
//! One test binary of a few, by concern: each links the library once and shares
//! `tests/common` (and the samples it scans once per binary) among its modules.

#[path = "../common/mod.rs"]
mod common;

mod agent_verdicts;
mod cli_robots;
mod robots_ext;
mod robots_google;
mod robots_props;
mod robots_sweep;
mod robots_tables;

//! The cluster recipes and the Spark driver, run as far as this machine allows.
//!
//! One test binary of a few, by concern: each links the library once and shares
//! `tests/common` (and the samples it scans once per binary) among its modules.

#[path = "../common/mod.rs"]
mod common;

mod recipes;
mod spark;

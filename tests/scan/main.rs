//! Archives in, rows out, nothing lost: damaged and hostile inputs, remote and targeted reads,
//! resumed and sharded runs.
//!
//! One test binary of a few, by concern: each links the library once and shares
//! `tests/common` (and the samples it scans once per binary) among its modules.

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod commoncrawl;
mod damage;
mod damage_props;
mod early_stop;
mod input_hazards;
mod reader_props;
mod records;
mod records_hostile;
mod remote;
mod resume;
mod run_tables;
mod scan;
mod tables_selection;

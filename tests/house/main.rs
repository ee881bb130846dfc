//! The house: layers and file sizes, the build's facts, the documentation build.
//!
//! One test binary of a few, by concern: each links the library once and shares
//! `tests/common` (and the samples it scans once per binary) among its modules.

mod builds;
mod docs_build;
mod layers;

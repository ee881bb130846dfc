//! The containers records are packed in: gzip members (`gz`) and the readers of each container
//! (`reader`: per-record and multi-record gzip, plain, and whole-file compressors' streams).

pub mod gz;
pub mod reader;

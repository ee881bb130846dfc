//! Bytes to records, in four concerns: where an input's bytes come from (`source`: local files,
//! pipes, remote objects, byte ranges), the containers they are packed in (`container`: gzip
//! members, whole-file compressors), the framing of WARC and ARC records in them (`framing`), and
//! the record and HTTP heads (`heads`); problems found on the way (`problem`). Knows nothing of
//! robots.txt or tables. The crate names each module by its folder (`archive::source::remote`).

pub mod container;
pub mod framing;
pub mod heads;
pub mod problem;
pub mod source;

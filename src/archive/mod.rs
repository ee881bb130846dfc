//! Bytes to records: where an input's bytes come from (local files, pipes, remote objects), the
//! containers they are packed in (gzip members, whole-file compressors), the framing of WARC and
//! ARC records in them, and the record and HTTP headers. Knows nothing of robots.txt or tables.

pub mod framer;
pub mod gz;
pub mod http;
pub mod input;
pub mod limits;
pub mod local;
pub mod mapped;
pub mod problem;
pub mod ranges;
pub mod reader;
pub mod record;
pub mod remote;
pub mod sink;
mod starts;

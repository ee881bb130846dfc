//! The framing of WARC and ARC records in a container's bytes (`framer`, with `starts`: where
//! records start and end) and what it hands on (`sink`: `Record`, `Sink`, `Need`).

pub mod framer;
pub mod sink;
pub(crate) mod starts;

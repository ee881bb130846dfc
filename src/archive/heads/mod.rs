//! The heads of a record: its WARC or ARC header (`record`) and its HTTP head and body decoding
//! (`http`).

pub mod http;
pub mod record;

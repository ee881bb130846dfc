//! The real robots.txt corpus of samples/real-robots.warc.gz, for tests and benchmarks
//! (benches/robots.rs includes this file by path).
#![allow(dead_code)]

use repcensus::read_stream;
use repcensus::ReadError;
use repcensus::{Record, Sink};

/// Every robots.txt of the corpus: (its source path, its bytes).
pub fn real_robots() -> Vec<(String, Vec<u8>)> {
    struct Files(Vec<(String, Vec<u8>)>);
    impl Sink for Files {
        fn record(&mut self, rec: &Record<'_>) {
            if rec.head.warc_type != b"resource" {
                return;
            }
            let raw = String::from_utf8_lossy(rec.head.raw);
            let path = raw
                .lines()
                .find_map(|l| l.strip_prefix("WARC-Source-Path: "))
                .unwrap_or("?")
                .to_string();
            self.0.push((path, rec.block.to_vec()));
        }
        fn error(&mut self, err: ReadError) {
            panic!("sample archive error: {err:?}");
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/real-robots.warc.gz");
    let f = std::fs::File::open(path).expect("samples/real-robots.warc.gz");
    let mut files = Files(Vec::new());
    read_stream(flate2::read::MultiGzDecoder::new(f), &mut files);
    files.0
}

/// Physical lines of the parsed part of a body, counted independently of the lexer: line endings
/// (CRLF once) plus a last unterminated line.
pub fn physical_lines(body: &[u8]) -> usize {
    let b = &body[..body.len().min(repcensus::PARSE_LIMIT)];
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\r' => {
                n += 1;
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            b'\n' => n += 1,
            _ => {}
        }
        i += 1;
    }
    if b.is_empty() || !matches!(b.last(), Some(b'\n' | b'\r')) {
        n += 1;
    }
    n
}

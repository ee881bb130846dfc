//! Archives packed into each container, as the tests build their inputs.

use flate2::{write::GzEncoder, Compression};
use repcensus::inputs::Container;
use std::io::Write;

/// One gzip member holding `data`.
pub fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// `plain` (an uncompressed archive) as one stream of `container`.
pub fn pack(container: Container, plain: &[u8]) -> Vec<u8> {
    match container {
        Container::Plain => plain.to_vec(),
        Container::Gzip => gz(plain),
        Container::Zstd => zstd::encode_all(plain, 3).unwrap(),
        Container::Bzip2 => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(plain).unwrap();
            e.finish().unwrap()
        }
        Container::Lz4 => {
            let mut e = lz4_flex::frame::FrameEncoder::new(Vec::new());
            e.write_all(plain).unwrap();
            e.finish().unwrap()
        }
        other => panic!("{other:?}"),
    }
}

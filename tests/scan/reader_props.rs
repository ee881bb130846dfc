//! Properties of the reader on any bytes, and agreement with the `warc` crate's header parser on
//! every record of the bundled plain WARC samples.

use crate::common;

use common::sink::Collect;
use proptest::prelude::*;
use repcensus::Framer;
use repcensus::{generate, GenKind, GenOptions, Layout};
use repcensus::{read_gzip_members, read_plain, ReadBuffers};

fn small_archive(layout: Layout, seed: u64) -> Vec<u8> {
    let mut v = Vec::new();
    generate(
        &GenOptions {
            kind: GenKind::Robots,
            layout,
            target_bytes: 6_000,
            seed,
            bodies: Vec::new(),
        },
        &mut v,
    )
    .unwrap();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// No input makes the readers panic.
    #[test]
    fn no_panic_on_any_bytes(data in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let mut c = Collect::default();
        read_plain(&data, 0, data.len(), &mut c);
        let mut bufs = ReadBuffers::new();
        let mut c = Collect::default();
        read_gzip_members(&data, 0, data.len(), &mut bufs, &mut c);
    }

    /// Damaged archives (bytes overwritten, cut short) never panic, and whatever the damage, the
    /// records before it are still read.
    #[test]
    fn damage_keeps_what_precedes_it(seed in 0u64..50, at in 0usize..6000, len in 1usize..64, cut in any::<bool>(), gz in any::<bool>()) {
        let layout = if gz { Layout::GzipPerRecord } else { Layout::Plain };
        let clean = small_archive(layout, seed);
        let mut data = clean.clone();
        let at = at % data.len();
        if cut {
            data.truncate(at);
        } else {
            for b in data.iter_mut().skip(at).take(len) {
                *b ^= 0x5a;
            }
        }
        let mut bufs = ReadBuffers::new();
        let read = |d: &[u8], bufs: &mut ReadBuffers| {
            let mut c = Collect::default();
            if gz { read_gzip_members(d, 0, d.len(), bufs, &mut c); } else { read_plain(d, 0, d.len(), &mut c); }
            c
        };
        let good = read(&clean, &mut bufs);
        let bad = read(&data, &mut bufs);
        prop_assert!(good.errs.is_empty());
        let intact = good.recs.iter().take_while(|r| (r.offset as usize) + r.head.len() + r.block.len() + 200 < at).count();
        prop_assert!(bad.recs.len() >= intact, "{} records lost before the damage at {at}", intact - bad.recs.len().min(intact));
        prop_assert_eq!(&bad.recs[..intact], &good.recs[..intact]);
    }

    /// Feeding the framer in pieces of any size gives the same records and errors as one piece.
    #[test]
    fn piece_size_does_not_matter(seed in 0u64..50, piece in 1usize..2000, junk in proptest::collection::vec(any::<u8>(), 0..200)) {
        let mut data = small_archive(Layout::Plain, seed);
        let mid = data.len() / 2;
        data.splice(mid..mid, junk);
        let mut whole = Collect::default();
        let mut f = Framer::new(0);
        f.feed(&data, None, true, &mut whole);
        let mut pieces = Collect::default();
        let mut f = Framer::new(0);
        for chunk in data.chunks(piece) {
            f.feed(chunk, None, false, &mut pieces);
        }
        f.finish(&mut pieces);
        prop_assert_eq!(whole, pieces);
    }
}

/// Our zero-copy header parser agrees with the `warc` crate's `parser::headers` on every record
/// header of the bundled plain WARC samples that the crate accepts.
#[test]
fn headers_agree_with_the_warc_crate() {
    let mut compared = 0;
    for entry in std::fs::read_dir(common::repo().join("samples"))
        .unwrap()
        .flatten()
    {
        let path = entry.path();
        let data = std::fs::read(&path).unwrap();
        if !data.starts_with(b"WARC/") {
            continue;
        }
        let mut c = Collect::default();
        read_plain(&data, 0, data.len(), &mut c);
        for rec in &c.recs {
            let (offset, raw, block_len) = (&rec.offset, &rec.head, &rec.block_len);
            let start = *offset as usize;
            let Ok((_, (version, fields, len))) = warc::parser::headers(&data[start..]) else {
                continue;
            };
            let len_ok = fields
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("content-length"));
            let head_text = String::from_utf8_lossy(raw);
            assert!(
                head_text.starts_with(&format!("WARC/{version}")),
                "{}: version",
                path.display()
            );
            // Where we cut a Content-Length that ran into the next record, we say so in errors.
            let corrected = c
                .errs
                .iter()
                .any(|e| e.kind.as_str() == "bad_content_length" && e.offset == Some(*offset));
            if len_ok && !corrected {
                assert_eq!(
                    len as u64,
                    *block_len,
                    "{} @{offset}: Content-Length",
                    path.display()
                );
            }
            for (name, value) in &fields {
                let ours = repcensus::Head {
                    raw,
                    ..Default::default()
                }
                .field(name);
                assert_eq!(
                    ours,
                    Some(*value),
                    "{} @{offset}: field {name}",
                    path.display()
                );
            }
            compared += 1;
        }
    }
    assert!(compared >= 10, "compared only {compared} headers");
}

//! Random damage to archives, in every container: what is intact is read, at its own offset, and
//! what is lost is covered by errors rows.
//!
//! The suite runs a short campaign. A long one runs with `REPCENSUS_MUTANTS=100000 cargo test
//! --release --test scan damage_props` (the README's reliability notes give its result).

use crate::common;

use common::sink::{starts, Collect};
use flate2::{bufread::GzDecoder, write::GzEncoder, Compression};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use repcensus::inputs::{self, Container};
use repcensus::Framer;
use repcensus::{read_gzip_members, read_stream, ReadBuffers};
use std::io::{Read, Write};
use std::sync::OnceLock;

/// Records of three samples of different kinds: real robots.txt captures (resource records,
/// short bodies), generated Common Crawl captures (requests, responses, metadata) and an ARC file.
fn corpus() -> &'static [Vec<Vec<u8>>] {
    static CORPUS: OnceLock<Vec<Vec<Vec<u8>>>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let samples = common::repo().join("samples");
        let gz_records = |name: &str, n: usize| -> Vec<Vec<u8>> {
            let data = std::fs::read(samples.join(name)).unwrap();
            let mut cursor = &data[..];
            let mut out = Vec::new();
            while !cursor.is_empty() && out.len() < n {
                let mut d = GzDecoder::new(cursor);
                let mut body = Vec::new();
                d.read_to_end(&mut body).unwrap();
                cursor = d.into_inner();
                out.push(body);
            }
            out
        };
        vec![
            gz_records("real-robots.warc.gz", 40),
            gz_records("generated-cc-robots.warc.gz", 40),
        ]
    })
}

/// The first 60 members of `samples/real-robots.warc.gz`, as on disk.
fn on_disk_members() -> &'static [Vec<u8>] {
    static MEMBERS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    MEMBERS.get_or_init(|| {
        let data = std::fs::read(common::repo().join("samples/real-robots.warc.gz")).unwrap();
        let mut cursor = &data[..];
        let mut out = Vec::new();
        while !cursor.is_empty() && out.len() < 60 {
            let before = cursor.len();
            let mut d = GzDecoder::new(cursor);
            std::io::copy(&mut d, &mut std::io::sink()).unwrap();
            cursor = d.into_inner();
            let start = data.len() - before;
            out.push(data[start..start + before - cursor.len()].to_vec());
        }
        out
    })
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// One damage to a byte string.
#[derive(Debug, Clone)]
enum Damage {
    Overwrite { at: usize, bytes: Vec<u8> },
    Insert { at: usize, bytes: Vec<u8> },
    Delete { at: usize, len: usize },
    FlipBit { at: usize, bit: u8 },
    Truncate { at: usize },
}

impl Damage {
    /// Apply to `data`; returns the touched range of the original (start, end) and the shift
    /// of the bytes after it.
    fn apply(&self, data: &mut Vec<u8>) -> (usize, usize, i64) {
        let n = data.len();
        match self {
            Damage::Overwrite { at, bytes } => {
                let at = at % n;
                let end = (at + bytes.len()).min(n);
                data[at..end].copy_from_slice(&bytes[..end - at]);
                (at, end, 0)
            }
            Damage::Insert { at, bytes } => {
                let at = at % n;
                data.splice(at..at, bytes.iter().copied());
                // Bytes inserted at a position touch the byte before and the byte after it.
                (at.saturating_sub(1), at + 1, bytes.len() as i64)
            }
            Damage::Delete { at, len } => {
                let at = at % n;
                let end = (at + len).min(n);
                data.drain(at..end);
                (at, end, -((end - at) as i64))
            }
            Damage::FlipBit { at, bit } => {
                let at = at % n;
                data[at] ^= 1 << (bit % 8);
                (at, at + 1, 0)
            }
            Damage::Truncate { at } => {
                let at = at % n;
                data.truncate(at);
                (at, n, 0)
            }
        }
    }
}

fn damage() -> impl Strategy<Value = Damage> {
    let bytes = prop_oneof![
        proptest::collection::vec(any::<u8>(), 1..300),
        (1usize..300).prop_map(|n| vec![0u8; n]),
        (1usize..40).prop_map(|n| b"\r\n".repeat(n)),
        Just(b"WARC/1.0\r\n".to_vec()),
    ];
    prop_oneof![
        (any::<usize>(), bytes.clone()).prop_map(|(at, bytes)| Damage::Overwrite { at, bytes }),
        (any::<usize>(), bytes).prop_map(|(at, bytes)| Damage::Insert { at, bytes }),
        (any::<usize>(), 1usize..400).prop_map(|(at, len)| Damage::Delete { at, len }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, bit)| Damage::FlipBit { at, bit }),
        any::<usize>().prop_map(|at| Damage::Truncate { at }),
    ]
}

/// The units (by index) that the damage cut out whole, when the damaged bytes are the clean ones
/// less whole units (a file cut between records, or a deletion that happens to span exactly
/// whole records or members): a shorter archive, in which nothing can show they were there.
/// Returns the units and the clean byte range they held, which is where the damage really is
/// (a deletion of bytes equal to the ones after it moves).
fn cut_out_whole(
    clean: &[u8],
    bad: &[u8],
    units: &[usize],
) -> Option<(std::ops::Range<usize>, (usize, usize))> {
    let removed = clean.len().saturating_sub(bad.len());
    if removed == 0 {
        return None;
    }
    let prefix = clean.iter().zip(bad).take_while(|(a, b)| a == b).count();
    let suffix = clean
        .iter()
        .rev()
        .zip(bad.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    // clean[..x] + clean[x + removed..] == bad for every x in this range.
    let xs = bad.len().saturating_sub(suffix)..=prefix.min(bad.len());
    let boundary = |x: usize| x == clean.len() || units.binary_search(&x).is_ok();
    let x = xs
        .into_iter()
        .find(|&x| boundary(x) && boundary(x + removed))?;
    let first = units.partition_point(|&u| u < x);
    let last = units.partition_point(|&u| u < x + removed);
    Some((first..last, (x, x + removed)))
}

/// Check one damaged read against the clean one. `units` are the byte ranges of the clean
/// layout that hold one record each (a member, or a plain record with its separator), `clean`
/// the records they give; a unit untouched by the damage must give its record at its offset
/// moved by the shift, and a unit lost must have an errors row between its neighbours.
fn check(
    what: &str,
    clean: &Collect,
    units: &[usize],
    (clean_bytes, bad_bytes): (&[u8], &[u8]),
    (from, to, shift): (usize, usize, i64),
    bad: &Collect,
) -> Result<(), TestCaseError> {
    let total = clean_bytes.len();
    let (gone, (from, to)) = match cut_out_whole(clean_bytes, bad_bytes, units) {
        Some((gone, span)) => (gone, span),
        None => (0..0, (from, to)),
    };
    let moved = |o: usize| {
        if o >= to {
            (o as i64 + shift) as u64
        } else {
            o as u64
        }
    };
    let truncated_at = (shift == 0 && to == total).then_some(from);
    // The start of the first record the damage touched.
    let damaged_from = units[units.partition_point(|&u| u <= from).saturating_sub(1)];
    let mut lost = Vec::new();
    for (i, &start) in units.iter().enumerate() {
        if gone.contains(&i) {
            continue;
        }
        let end = units.get(i + 1).copied().unwrap_or(total);
        let touched = start < to && from < end;
        let found = bad.has(moved(start), &clean.recs[i].block);
        if !touched && truncated_at.is_none_or(|t| end <= t) {
            prop_assert!(
                found,
                "{what}: untouched record {i} at {start} lost (damage {from}..{to})\nerrors: {:?}",
                bad.errs
            );
        } else if !bad
            .recs
            .iter()
            .any(|r| r.offset >= moved(start.min(damaged_from)) && r.offset < moved(end))
        {
            // A touched record may be read with its damage (a flipped bit in a body cannot be
            // seen in a plain archive), or from a record start the damage made in it, or from
            // the start of the first record the damage touched: a deletion across a record
            // boundary can leave one record's header start followed by the rest of a later
            // record's header, one valid header that nothing in the file tells from an intact
            // one (the records between are then read as one). It is lost when no record is read
            // from its bytes.
            lost.push(i);
        }
    }
    // Every record lost has an errors row at or after the end of the intact record before it
    // and before the start of the intact record after it.
    for i in lost {
        let lo = units[..i]
            .iter()
            .enumerate()
            .rev()
            .map(|(j, &s)| (j, moved(s)))
            .find(|(j, s)| bad.has(*s, &clean.recs[*j].block))
            .map_or(0, |(_, s)| s);
        let hi = units
            .iter()
            .enumerate()
            .skip(i + 1)
            .map(|(j, &s)| (j, moved(s)))
            .find(|(j, s)| bad.has(*s, &clean.recs[*j].block))
            .map_or(u64::MAX, |(_, s)| s);
        prop_assert!(
            bad.errs
                .iter()
                .any(|e| e.offset.is_some_and(|o| o >= lo && o < hi)),
            "{what}: record {i} lost with no errors row in {lo}..{hi}: {:?}",
            bad.errs
        );
    }
    Ok(())
}

fn read_plain(data: &[u8]) -> Collect {
    let mut c = Collect::default();
    repcensus::read_plain(data, 0, data.len(), &mut c);
    c
}

fn read_gz(data: &[u8], early_stop: bool) -> Collect {
    let mut c = Collect::default();
    let mut bufs = ReadBuffers::new();
    bufs.early_stop = early_stop;
    read_gzip_members(data, 0, data.len(), &mut bufs, &mut c);
    c
}

/// The framer fed in pieces of `piece` bytes.
fn read_pieces(data: &[u8], piece: usize) -> Collect {
    let mut c = Collect::default();
    let mut f = Framer::new(0);
    for chunk in data.chunks(piece.max(1)) {
        f.feed(chunk, None, false, &mut c);
    }
    f.finish(&mut c);
    c
}

fn read_container(container: Container, plain: &[u8]) -> Collect {
    let packed = common::pack::pack(container, plain);
    let stream = inputs::stream_reader(container, std::io::Cursor::new(packed)).unwrap();
    let mut c = Collect::default();
    read_stream(stream, &mut c);
    c
}

/// Damage to a plain archive: untouched records kept; the same records and errors whatever
/// the pieces the framer is fed and whatever stream container holds the archive.
fn plain_case(which: usize, d: &Damage, piece: usize) -> Result<(), TestCaseError> {
    let records = &corpus()[which];
    let plain = records.concat();
    let units = starts(records);
    let clean = read_plain(&plain);
    prop_assert!(clean.errs.is_empty() && clean.recs.len() == records.len());
    let mut data = plain.clone();
    let span = d.apply(&mut data);
    prop_assume!(!data.is_empty());
    let bad = read_plain(&data);
    check("plain", &clean, &units, (&plain, &data), span, &bad)?;
    let summary = |c: &Collect| {
        let recs: Vec<(u64, usize)> = c.recs.iter().map(|r| (r.offset, r.block.len())).collect();
        (recs, c.errs.clone())
    };
    let pieces = read_pieces(&data, piece);
    prop_assert_eq!(summary(&pieces), summary(&bad), "pieces of {}", piece);
    prop_assert_eq!(&pieces, &bad, "pieces of {}", piece);
    for container in [
        Container::Gzip,
        Container::Zstd,
        Container::Lz4,
        Container::Bzip2,
    ] {
        let c = read_container(container, &data);
        prop_assert_eq!(summary(&c), summary(&bad), "{:?}", container);
        prop_assert_eq!(&c, &bad, "{:?}", container);
    }
    Ok(())
}

/// Damage to a per-record `.warc.gz`: every member that still inflates whole with a valid
/// trailer gives its record at its offset, early stop or not.
fn gzip_case(which: usize, d: &Damage) -> Result<(), TestCaseError> {
    gzip_case_at(which, &|_| d.clone())
}

/// As [`gzip_case`], the damage made knowing where the members start.
fn gzip_case_at(which: usize, d: &dyn Fn(&[usize]) -> Damage) -> Result<(), TestCaseError> {
    // 0 and 1: the corpus' records in members of our own; 2: a sample's members as its writer
    // made them (other deflate blocks damage differently).
    let members: Vec<Vec<u8>> = match which {
        2 => on_disk_members().to_vec(),
        _ => corpus()[which].iter().map(|r| gz(r)).collect(),
    };
    let data = members.concat();
    let units = starts(&members);
    let clean = read_gz(&data, true);
    prop_assert!(clean.errs.is_empty() && clean.recs.len() == members.len());
    let mut bad_data = data.clone();
    let span = d(&units).apply(&mut bad_data);
    prop_assume!(!bad_data.is_empty());
    if span.0 <= 1 && span.1 < units[1] {
        // A damaged start leaves the input a gzip one (it was read as plain text, and lost).
        prop_assert_eq!(inputs::sniff_archive(&bad_data), Container::Gzip);
    }
    for early in [true, false] {
        let bad = read_gz(&bad_data, early);
        check(
            if early { "gzip" } else { "gzip --inflate-all" },
            &clean,
            &units,
            (&data, &bad_data),
            span,
            &bad,
        )?;
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("REPCENSUS_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// The suite's short campaign is the same at every run (a fixed seed); a long one
/// (`REPCENSUS_MUTANTS`) draws new mutants each time.
fn runner() -> TestRunner {
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    };
    if std::env::var_os("REPCENSUS_MUTANTS").is_some() {
        TestRunner::new(config)
    } else {
        let rng = proptest::test_runner::TestRng::deterministic_rng(config.rng_algorithm);
        TestRunner::new_with_rng(config, rng)
    }
}

#[test]
fn damaged_plain_archives_keep_every_untouched_record() {
    runner()
        .run(&(0usize..2, damage(), 1usize..5000), |(c, d, piece)| {
            plain_case(c, &d, piece)
        })
        .unwrap();
}

#[test]
fn damaged_gzip_archives_keep_every_intact_member() {
    runner()
        .run(&(0usize..2, damage()), |(c, d)| gzip_case(c, &d))
        .unwrap();
}

/// The first bytes damaged, or bytes put before them: the input is still read as gzip and every
/// intact member is kept.
#[test]
fn gzip_archives_with_a_damaged_start_keep_every_intact_member() {
    let start = prop_oneof![
        (0usize..2, any::<u8>()).prop_map(|(at, bit)| Damage::FlipBit { at, bit }),
        (0usize..2, proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Damage::Overwrite { at, bytes }),
        proptest::collection::vec(any::<u8>(), 1..600)
            .prop_map(|bytes| Damage::Insert { at: 0, bytes }),
        (1usize..600).prop_map(|n| Damage::Insert {
            at: 0,
            bytes: vec![0; n]
        }),
    ];
    runner()
        .run(&(0usize..3, start), |(c, d)| gzip_case(c, &d))
        .unwrap();
}

/// Damage across the end of one member and the start of the next (a deletion, an overwrite):
/// the damaged member's deflate data may run on over the members after it; the intact ones
/// among them are kept.
#[test]
fn gzip_archives_damaged_across_a_member_boundary_keep_every_intact_member() {
    let across = (
        any::<usize>(),
        1usize..300,
        1usize..400,
        any::<bool>(),
        any::<u64>(),
    );
    runner()
        .run(&(0usize..3, across), |(c, (k, back, len, delete, seed))| {
            gzip_case_at(c, &|units: &[usize]| {
                let at = units[1 + k % (units.len() - 1)].saturating_sub(back);
                if delete {
                    Damage::Delete { at, len }
                } else {
                    let bytes = (0..len as u64).map(|i| (seed.wrapping_mul(i + 1) >> 17) as u8);
                    Damage::Overwrite {
                        at,
                        bytes: bytes.collect(),
                    }
                }
            })
        })
        .unwrap();
}

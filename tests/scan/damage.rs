//! Damaged archives lose nothing that is intact: every record whose bytes survive is read, at its
//! own offset, and every problem is an errors row. Each test builds its damaged input from
//! `samples/real-robots.warc.gz` (520 records, one gzip member each) and compares with the clean
//! read.

use crate::common;

use common::pack::{gz, pack};
use common::sink::{starts, Collect};
use flate2::bufread::GzDecoder;
use repcensus::inputs::{self, Container};
use repcensus::{read_gzip_members, read_stream, ReadBuffers};
use std::io::Read;

/// Damage done to an archive's bytes, given the damaged member's start and end.
type Damage = dyn Fn(&mut Vec<u8>, usize, usize);

/// The samples' per-record robots.txt archive, as its members' inflated bytes.
fn records() -> Vec<Vec<u8>> {
    let data = std::fs::read(common::repo().join("samples/real-robots.warc.gz")).unwrap();
    let mut cursor = &data[..];
    let mut out = Vec::new();
    while !cursor.is_empty() {
        let mut d = GzDecoder::new(cursor);
        let mut body = Vec::new();
        d.read_to_end(&mut body).unwrap();
        cursor = d.into_inner();
        out.push(body);
    }
    assert_eq!(out.len(), 520);
    out
}

/// Members as bytes, and where each starts.
fn per_record(records: &[Vec<u8>]) -> (Vec<u8>, Vec<u64>) {
    let mut data = Vec::new();
    let mut starts = Vec::new();
    for r in records {
        starts.push(data.len() as u64);
        data.extend(gz(r));
    }
    (data, starts)
}

fn read_gz(data: &[u8]) -> Collect {
    let mut c = Collect::default();
    read_gzip_members(data, 0, data.len(), &mut ReadBuffers::new(), &mut c);
    c
}

fn read_plain(data: &[u8]) -> Collect {
    let mut c = Collect::default();
    repcensus::read_plain(data, 0, data.len(), &mut c);
    c
}

/// The plain archive through a stream container (offsets are stream positions, as in a plain
/// read).
fn read_streamed(container: Container, plain: &[u8]) -> Collect {
    let packed = pack(container, plain);
    let stream = inputs::stream_reader(container, std::io::Cursor::new(packed)).unwrap();
    let mut c = Collect::default();
    read_stream(stream, &mut c);
    c
}

/// Record `i` with its Content-Length replaced by `f(old)`.
fn with_length(records: &[Vec<u8>], i: usize, f: impl Fn(u64) -> String) -> Vec<Vec<u8>> {
    let mut out = records.to_vec();
    let text = &out[i];
    let at = text
        .windows(16)
        .position(|w| w.eq_ignore_ascii_case(b"Content-Length: "))
        .unwrap()
        + 16;
    let end = at + text[at..].iter().position(|b| *b == b'\r').unwrap();
    let old: u64 = std::str::from_utf8(&text[at..end])
        .unwrap()
        .parse()
        .unwrap();
    let mut new = text[..at].to_vec();
    new.extend(f(old).as_bytes());
    new.extend(&text[end..]);
    out[i] = new;
    out
}

const OVERLONG: [&str; 6] = [
    "9223372036854775807",
    "4294967296",
    "+100000",
    "+2000",
    "+8",
    "+5",
];

fn overlong(old: u64, how: &str) -> String {
    match how.strip_prefix('+') {
        Some(add) => (old + add.parse::<u64>().unwrap()).to_string(),
        None => how.to_string(),
    }
}

fn blocks(c: &Collect) -> Vec<(&str, &[u8])> {
    c.recs
        .iter()
        .map(|r| (r.uri.as_str(), r.block.as_slice()))
        .collect()
}

#[test]
fn an_overlong_content_length_ends_with_its_gzip_member() {
    let clean = records();
    let (data, starts) = per_record(&clean);
    let good = read_gz(&data);
    assert!(good.errs.is_empty());
    for how in OVERLONG {
        let damaged = with_length(&clean, 10, |old| overlong(old, how));
        let (data, starts_d) = per_record(&damaged);
        let bad = read_gz(&data);
        // Every record, each at its own member, with the same block as the clean read.
        assert_eq!(bad.recs.len(), 520, "{how}");
        let offsets = bad.offsets();
        assert_eq!(offsets, starts_d, "{how}");
        assert_eq!(blocks(&bad), blocks(&good), "{how}");
        assert_eq!(
            bad.kinds(),
            [("bad_content_length", Some(starts_d[10]))],
            "{how}"
        );
    }
    assert_eq!(starts.len(), 520);
}

#[test]
fn an_overlong_content_length_in_a_plain_archive_is_cut_at_the_next_record() {
    let clean = records();
    let plain: Vec<u8> = clean.concat();
    let good = read_plain(&plain);
    assert_eq!(good.recs.len(), 520);
    for how in OVERLONG {
        let damaged = with_length(&clean, 10, |old| overlong(old, how));
        let starts: Vec<u64> = starts(&damaged).into_iter().map(|s| s as u64).collect();
        let plain_d = damaged.concat();
        for container in [
            Container::Plain,
            Container::Gzip,
            Container::Zstd,
            Container::Bzip2,
            Container::Lz4,
        ] {
            let bad = if container == Container::Plain {
                read_plain(&plain_d)
            } else {
                read_streamed(container, &plain_d)
            };
            let offsets = bad.offsets();
            assert_eq!(offsets, starts, "{how} {container:?}");
            assert_eq!(blocks(&bad), blocks(&good), "{how} {container:?}");
            assert_eq!(
                bad.kinds(),
                [("bad_content_length", Some(starts[10]))],
                "{how} {container:?}"
            );
        }
    }
}

/// A member whose last bytes are lost (its CRC and size trailer, or part of it) or damaged: the
/// intact members after it are read at their own offsets.
#[test]
fn damage_at_the_end_of_a_member_keeps_the_next_member() {
    let clean = records();
    let members: Vec<Vec<u8>> = clean.iter().map(|r| gz(r)).collect();
    for cut in [4usize, 8] {
        let mut data = Vec::new();
        let mut starts = Vec::new();
        for (i, m) in members.iter().enumerate() {
            starts.push(data.len() as u64);
            let m = if i == 10 { &m[..m.len() - cut] } else { &m[..] };
            data.extend_from_slice(m);
        }
        let bad = read_gz(&data);
        let offsets = bad.offsets();
        assert_eq!(offsets, starts, "trailer cut by {cut}");
        assert!(
            bad.errs.iter().all(|e| e.offset == Some(starts[10])),
            "{:?}",
            bad.errs
        );
        assert!(!bad.errs.is_empty());
    }
}

/// Damage inside a member loses that member's record at most: the members after it are read at
/// their own offsets, and every record row has the offset of a member start.
#[test]
fn damage_inside_a_member_keeps_the_members_after_it() {
    let clean = records();
    let (data, starts) = per_record(&clean);
    let damages: Vec<(&str, Box<Damage>)> = vec![
        (
            "a run of NUL bytes",
            Box::new(|d: &mut Vec<u8>, s: usize, e: usize| {
                let at = s + (e - s) / 2;
                d[at..(at + 64).min(e)].fill(0);
            }),
        ),
        (
            "one flipped bit",
            Box::new(|d: &mut Vec<u8>, s: usize, e: usize| d[s + (e - s) / 3] ^= 0x10),
        ),
        (
            "NUL bytes inserted",
            Box::new(|d: &mut Vec<u8>, s: usize, e: usize| {
                let at = s + (e - s) / 2;
                d.splice(at..at, [0u8; 300]);
            }),
        ),
    ];
    for victim in [10usize, 200, 518] {
        for (what, damage) in &damages {
            let mut bad_data = data.clone();
            let (s, e) = (starts[victim] as usize, starts[victim + 1] as usize);
            damage(&mut bad_data, s, e);
            let shift = bad_data.len() as i64 - data.len() as i64;
            let bad = read_gz(&bad_data);
            let expected: Vec<u64> = starts
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != victim)
                .map(|(i, &o)| {
                    if i > victim {
                        (o as i64 + shift) as u64
                    } else {
                        o
                    }
                })
                .collect();
            let got: Vec<u64> = bad
                .recs
                .iter()
                .map(|r| r.offset)
                .filter(|&o| o != starts[victim])
                .collect();
            assert_eq!(got, expected, "{what} in member {victim}");
            assert!(!bad.errs.is_empty(), "{what} in member {victim}");
            // Every problem is placed inside the damaged member.
            for err in &bad.errs {
                let at = err.offset.expect("an offset") as usize;
                assert!((s..e).contains(&at), "{what}: {err:?} not in {s}..{e}");
            }
        }
    }
}

/// A member holding a header that never ends (2 MB without a blank line): an errors row at that
/// member's offset, and the member after it is read.
#[test]
fn an_endless_header_is_reported_at_its_member() {
    let clean = records();
    let mut damaged = clean.clone();
    let mut endless = b"WARC/1.0\r\nWARC-Type: response\r\n".to_vec();
    while endless.len() < 2_000_000 {
        endless.extend_from_slice(b"X-Filler: yes\r\n");
    }
    damaged.insert(11, endless);
    let (data, starts) = per_record(&damaged);
    let bad = read_gz(&data);
    let offsets = bad.offsets();
    let expected: Vec<u64> = starts
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 11)
        .map(|(_, o)| *o)
        .collect();
    assert_eq!(offsets, expected);
    assert!(!bad.errs.is_empty());
    for err in &bad.errs {
        assert_eq!(err.offset, Some(starts[11]), "{err:?}");
    }
}

/// 300 NUL bytes inserted into a plain record, or written over its header's end or its block:
/// every other record is read, at its own offset and with its own block, and the bytes that
/// belong to no record are covered by errors rows.
#[test]
fn nul_bytes_in_a_plain_record_lose_no_other_record() {
    let clean = records();
    let good = read_plain(&clean.concat());
    for victim in [10usize, 300, 519] {
        for how in ["insert in block", "overwrite header end", "overwrite block"] {
            let mut damaged = clean.clone();
            let record = &mut damaged[victim];
            let head = record.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
            match how {
                "insert in block" => {
                    let at = head + (record.len() - head) / 2;
                    record.splice(at..at, [0u8; 300]);
                }
                "overwrite header end" => {
                    let from = head.saturating_sub(150);
                    let to = (from + 300).min(record.len());
                    record[from..to].fill(0);
                }
                _ => {
                    let from = head + (record.len() - head) / 3;
                    let to = (from + 300).min(record.len() - 4);
                    record[from..to].fill(0);
                }
            }
            let starts: Vec<u64> = starts(&damaged).into_iter().map(|s| s as u64).collect();
            let bad = read_plain(&damaged.concat());
            let others = |c: &Collect| -> Vec<(u64, Vec<u8>)> {
                c.recs
                    .iter()
                    .filter(|r| r.offset != starts[victim])
                    .map(|r| (r.offset, r.block.clone()))
                    .collect()
            };
            let expected: Vec<(u64, Vec<u8>)> = good
                .recs
                .iter()
                .zip(&starts)
                .enumerate()
                .filter(|(i, _)| *i != victim)
                .map(|(_, (r, &s))| (s, r.block.clone()))
                .collect();
            assert_eq!(others(&bad), expected, "{how} in record {victim}");
            if how != "overwrite block" {
                assert!(!bad.errs.is_empty(), "{how} in record {victim}");
            }
            for err in &bad.errs {
                let at = err.offset.unwrap();
                assert!(
                    at >= starts[victim] && starts.get(victim + 1).is_none_or(|&n| at < n),
                    "{how} in record {victim}: {err:?}"
                );
            }
        }
    }
}

/// lz4 frames concatenated (`cat a.lz4 b.lz4`) are read to the end of the last frame.
#[test]
fn concatenated_lz4_frames_are_all_read() {
    let clean = records();
    let mut packed = pack(Container::Lz4, &clean[..260].concat());
    packed.extend(pack(Container::Lz4, &clean[260..].concat()));
    let stream = inputs::stream_reader(Container::Lz4, std::io::Cursor::new(packed)).unwrap();
    let mut c = Collect::default();
    read_stream(stream, &mut c);
    assert_eq!(c.recs.len(), 520);
    assert!(c.errs.is_empty(), "{:?}", c.errs);
}

/// A zstd file damaged in the middle keeps every record decoded before the damage, and says
/// where the stream broke.
#[test]
fn a_damaged_zstd_stream_keeps_what_precedes_the_damage() {
    let clean = records();
    let plain = clean.concat();
    let good = read_plain(&plain);
    let mut packed = pack(Container::Zstd, &plain);
    let at = packed.len() / 2;
    packed[at] ^= 0xff;
    let stream = inputs::stream_reader(Container::Zstd, std::io::Cursor::new(packed)).unwrap();
    let mut bad = Collect::default();
    read_stream(stream, &mut bad);
    // About half the records precede the damage; all but the one it cuts are intact.
    assert!(bad.recs.len() > 150, "{} records", bad.recs.len());
    let intact = bad.recs.len() - 1;
    assert_eq!(bad.recs[..intact], good.recs[..intact]);
    let broke = bad
        .errs
        .iter()
        .find(|e| e.kind.as_str() == "corrupt_stream")
        .unwrap_or_else(|| panic!("a corrupt_stream row: {:?}", bad.errs));
    assert!(broke.offset.unwrap() >= bad.recs[intact].offset);
}

/// A record that declares 20 MiB in an input that ends after 9 MiB is reported truncated,
/// whatever the container.
#[test]
fn a_record_longer_than_the_rest_of_the_input_is_truncated_in_every_container() {
    let body = vec![b'x'; 9 << 20];
    let mut plain = format!(
        "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/big\r\nContent-Length: {}\r\n\r\n",
        20 << 20
    )
    .into_bytes();
    plain.extend(&body);
    let mapped = read_plain(&plain);
    let per_member = read_gz(&gz(&plain));
    let mut reads = vec![("plain", mapped), ("gzip member", per_member)];
    for container in [
        Container::Gzip,
        Container::Zstd,
        Container::Bzip2,
        Container::Lz4,
    ] {
        reads.push(("stream", read_streamed(container, &plain)));
    }
    for (what, c) in reads {
        assert_eq!(c.recs.len(), 1, "{what}");
        let kinds: Vec<&str> = c.errs.iter().map(|e| e.kind.as_str()).collect();
        assert!(kinds.contains(&"truncated_record"), "{what}: {kinds:?}");
        assert!(
            c.errs.iter().all(|e| e.offset == Some(0)),
            "{what}: {:?}",
            c.errs
        );
    }
}

/// The samples' per-record archive as it is on disk (its own writer's members) and where its
/// members start.
fn sample_members() -> (Vec<u8>, Vec<usize>) {
    let data = std::fs::read(common::repo().join("samples/real-robots.warc.gz")).unwrap();
    let mut starts = Vec::new();
    let mut cursor = &data[..];
    while !cursor.is_empty() {
        starts.push(data.len() - cursor.len());
        let mut d = GzDecoder::new(cursor);
        std::io::copy(&mut d, &mut std::io::sink()).unwrap();
        cursor = d.into_inner();
    }
    (data, starts)
}

/// A deletion across the end of one member and the start of the next (found by a mutation
/// campaign): the damaged member's deflate data runs on over the members after it and still
/// ends, with a bad CRC. Reading went on after what it took, and the intact member inside was
/// lost; now it is read again from there, at its own offset.
#[test]
fn a_damaged_member_that_runs_over_the_next_ones_keeps_the_intact_member_inside_it() {
    let (mut data, starts) = sample_members();
    let clean = read_gz(&data);
    let (from, to) = (360_441, 360_570);
    let k = starts.iter().position(|&s| s == 361_078).unwrap();
    assert!(starts[k - 2] < from && from < starts[k - 1] && starts[k - 1] < to);
    data.drain(from..to);
    let bad = read_gz(&data);
    let shift = to - from;
    for (i, &s) in starts.iter().enumerate() {
        let at = if s >= to { s - shift } else { s } as u64;
        if i != k - 2 && i != k - 1 {
            assert!(
                bad.has(at, &clean.recs[i].block),
                "member {i} at {s} lost: {:?}",
                bad.kinds()
            );
        }
    }
    assert!(bad
        .kinds()
        .contains(&("gzip_checksum", Some(starts[k - 2] as u64))));
}

/// A `.warc.gz` whose first bytes are damaged or preceded by others (one byte, 512 NULs) was
/// read as plain text with no record and failed whole. It is a gzip input whose intact members
/// are all read, with one errors row at 0, as damage further in is.
#[test]
fn a_damaged_start_keeps_every_intact_member() {
    let (data, starts) = sample_members();
    let clean = read_gz(&data);
    type Start = (&'static str, fn(&[u8]) -> Vec<u8>, usize, usize);
    let damages: [Start; 4] = [
        ("byte 0", |d| [&[d[0] ^ 0xff][..], &d[1..]].concat(), 1, 0),
        (
            "byte 1",
            |d| [&[d[0], d[1] ^ 0xff][..], &d[2..]].concat(),
            1,
            0,
        ),
        ("one byte before", |d| [&[0x41u8][..], d].concat(), 0, 1),
        ("512 NULs before", |d| [&[0u8; 512][..], d].concat(), 0, 512),
    ];
    for (what, damage, lost, shift) in damages {
        let bad_data = damage(&data);
        assert_eq!(inputs::sniff_archive(&bad_data), Container::Gzip, "{what}");
        let bad = read_gz(&bad_data);
        for (i, &s) in starts.iter().enumerate().skip(lost) {
            assert!(
                bad.has((s + shift) as u64, &clean.recs[i].block),
                "{what}: member {i} lost"
            );
        }
        assert_eq!(bad.recs.len(), starts.len() - lost, "{what}");
        assert_eq!(
            bad.kinds(),
            [("garbage_between_members", Some(0))],
            "{what}"
        );
    }
    // Plain archives and text keep their own reading.
    let plain = records().concat();
    assert_eq!(inputs::sniff_archive(&plain), Container::Plain);
    assert_eq!(inputs::sniff_archive(b"not an archive\n"), Container::Plain);
}

/// The same damaged start, scanned: the input is `ok_with_errors` with every intact capture, read
/// from a mapped file and from standard input alike.
#[test]
fn a_scan_of_a_damaged_start_keeps_every_intact_capture() {
    let (data, _) = sample_members();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.warc.gz");
    std::fs::write(&bad, [&[0u8; 512][..], &data].concat()).unwrap();
    for stdin in [false, true] {
        let out = dir.path().join(format!("out-{stdin}"));
        let mut cmd = common::bin();
        cmd.args(["scan", "-q", "--out"]).arg(&out);
        if stdin {
            cmd.arg("-").stdin(std::fs::File::open(&bad).unwrap());
        } else {
            cmd.arg(&bad);
        }
        let run = cmd.output().unwrap();
        assert_eq!(
            run.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let row = common::duck_value(
            &out,
            "select status || ' ' || rows_robots_files || ' ' || errors from read_parquet('inputs/*/*.parquet')",
        );
        assert_eq!(row, "ok_with_errors 519 1", "stdin: {stdin}");
    }
}

/// Members too large to inflate whole (32 MiB and more) are streamed: their CRC and length
/// trailer is checked too (with `--inflate-all` a flipped CRC byte gave no error at 40 MiB; it did
/// at 16 MiB, inflated whole).
#[test]
fn a_wrong_crc_is_reported_for_a_member_of_any_size() {
    for mib in [16usize, 40] {
        let body = b"Disallow: /private\n".repeat((mib << 20) / 19);
        let record = format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/robots.txt\r\n\
             WARC-Date: 2025-01-01T00:00:00Z\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let member = gz(&[record.as_bytes(), &body, b"\r\n\r\n"].concat());
        for flip in [false, true] {
            let mut data = member.clone();
            if flip {
                let n = data.len();
                data[n - 8] ^= 0x01;
            }
            let mut c = Collect::default();
            let mut bufs = ReadBuffers::new();
            bufs.early_stop = false;
            read_gzip_members(&data, 0, data.len(), &mut bufs, &mut c);
            let expected: &[(&str, Option<u64>)] = if flip {
                &[("gzip_checksum", Some(0))]
            } else {
                &[]
            };
            assert_eq!(c.kinds(), expected, "{mib} MiB, CRC flipped: {flip}");
            assert_eq!(c.recs.len(), 1, "{mib} MiB");
        }
    }
}

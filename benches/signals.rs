//! Page-signal throughput (criterion):
//!
//! * `head_scan/real` and `head_scan/generated`: finding the meta tags of HTML pages with the
//!   html5gum-based head scanner, in MB/s of whole pages (the scanner stops at the end of the head,
//!   so long bodies cost nothing). Real pages: the HTML responses of samples/ archives. Generated:
//!   the pages of `repcensus generate --kind pages`.
//! * `header_values`: parsing the 69 real robots header values of tests/data.
//! * `pages_extract`: the whole extractor (framing, inflating, headers, head scan, rows) over a
//!   generated 32 MB per-record-gzip pages archive; compare with `records/pages_gzip_per_record_frame`.
//! * `early_stop/{real,cc_pages}` and `inflate_all/{real,cc_pages}`: the whole extractor over the
//!   real archive of samples/ with the most large pages and over generated Common-Crawl-sized
//!   pages, stopping early inside large members or not.
//!
//! Each iteration asserts what it found, so a broken change cannot look fast.
//!
//!   cargo bench --bench signals

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use repcensus::internals::HeadScanner;
use repcensus::internals::TableBuilder;
use repcensus::parse_header_value;
use repcensus::ReadError;
use repcensus::{generate, GenKind, GenOptions, Layout};
use repcensus::{read_gzip_members, read_plain, ReadBuffers};
use repcensus::{ExtractBuffers, Extractor};
use repcensus::{Record, Sink};
use std::hint::black_box;

/// Collects the bodies of HTML responses.
#[derive(Default)]
struct Pages(Vec<Vec<u8>>);

impl Sink for Pages {
    fn record(&mut self, rec: &Record<'_>) {
        let Some(h) = repcensus::internals::parse_response(rec.block) else {
            return;
        };
        let html = h.header("content-type").is_some_and(|t| {
            String::from_utf8_lossy(t)
                .to_ascii_lowercase()
                .contains("html")
        });
        if html && h.header("content-encoding").is_none() {
            self.0
                .push(rec.block[h.body_offset.min(rec.block.len())..].to_vec());
        }
    }
    fn error(&mut self, _: ReadError) {}
}

fn real_pages() -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut pages = Pages::default();
    let mut bufs = ReadBuffers::new();
    for f in [
        "allenai_dolma__sample-0001.warc.gz",
        "oduwsdl_ipwb__IAH-20080430204825-00000-blackbook.warc.gz",
        "ukwa_webarchive-discovery__BL-20140325121225068-00000-32090~opera~8443.warc.gz",
    ] {
        let data = std::fs::read(root.join(f)).unwrap();
        read_gzip_members(&data, 0, data.len(), &mut bufs, &mut pages);
    }
    for f in [
        "sing-group_WARCProcessor__in-warc-test.warc",
        "webrecorder_warcio__example.warc",
    ] {
        let data = std::fs::read(root.join(f)).unwrap();
        read_plain(&data, 0, data.len(), &mut pages);
    }
    pages.0
}

fn generated(layout: Layout, size: u64) -> Vec<u8> {
    let mut buf = Vec::new();
    generate(
        &GenOptions {
            kind: GenKind::Pages,
            layout,
            target_bytes: size,
            seed: 9,
            bodies: Vec::new(),
        },
        &mut buf,
    )
    .unwrap();
    buf
}

fn scan_all(pages: &[Vec<u8>], s: &mut HeadScanner) -> usize {
    pages
        .iter()
        .map(|p| {
            s.scan(black_box(p));
            s.tags.len()
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("signals");
    g.sample_size(20);
    let mut s = HeadScanner::new();
    let real = real_pages();
    assert!(real.len() > 20, "{} real pages", real.len());
    let plain = generated(Layout::Plain, 16 << 20);
    let mut gen = Pages::default();
    read_plain(&plain, 0, plain.len(), &mut gen);
    let gen = gen.0;
    for (name, pages) in [("head_scan/real", &real), ("head_scan/generated", &gen)] {
        let bytes: u64 = pages.iter().map(|p| p.len() as u64).sum();
        let tags = scan_all(pages, &mut s);
        g.throughput(Throughput::Bytes(bytes));
        g.bench_function(name, |b| {
            b.iter(|| assert_eq!(scan_all(pages, &mut s), tags))
        });
    }

    let values: Vec<String> = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/x_robots_tag_values.tsv"),
    )
    .unwrap()
    .lines()
    .skip(1)
    .map(|l| l.split('\t').next().unwrap_or_default().to_string())
    .collect();
    g.throughput(Throughput::Elements(values.len() as u64));
    g.bench_function("header_values", |b| {
        b.iter(|| {
            let n: usize = values
                .iter()
                .map(|v| parse_header_value(black_box(v.as_bytes())).directives.len())
                .sum();
            assert!(n > 100);
        })
    });

    let gz = generated(Layout::GzipPerRecord, 32 << 20);
    let mut bufs = ReadBuffers::new();
    let mut ebufs = ExtractBuffers::default();
    let registry = repcensus::Registry::builtin();
    let mut expected = None;
    g.throughput(Throughput::Bytes(gz.len() as u64));
    g.bench_function("pages_extract", |b| {
        b.iter(|| {
            let mut ex = Extractor::new("bench.warc.gz", &mut ebufs, &registry);
            read_gzip_members(&gz, 0, gz.len(), &mut bufs, &mut ex);
            let out = ex.into_output();
            let rows = out.page_signals.len();
            assert!(rows > 100);
            assert_eq!(*expected.get_or_insert(rows), rows);
        })
    });
    // Stopping early inside large members, against inflating every member whole: on the real
    // archive of samples/ with the most large pages (the 2008 blackbook crawl: HTML pages and
    // images, 2.5 MB compressed, 11 MB inflated), and on 64 MB of Common-Crawl-sized generated
    // pages. The same rows either way.
    let real = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/oduwsdl_ipwb__IAH-20080430204825-00000-blackbook.warc.gz"),
    )
    .unwrap();
    let mut cc = Vec::new();
    generate(
        &GenOptions {
            kind: GenKind::CcPages,
            layout: Layout::GzipPerRecord,
            target_bytes: 64 << 20,
            seed: 9,
            bodies: Vec::new(),
        },
        &mut cc,
    )
    .unwrap();
    for (input, which) in [(&real, "real"), (&cc, "cc_pages")] {
        g.throughput(Throughput::Bytes(input.len() as u64));
        let mut expected = None;
        for early in [true, false] {
            let name = format!(
                "{}/{which}",
                if early { "early_stop" } else { "inflate_all" }
            );
            g.bench_function(name, |b| {
                bufs.early_stop = early;
                b.iter(|| {
                    let mut ex = Extractor::new("bench.warc.gz", &mut ebufs, &registry);
                    let stats = read_gzip_members(input, 0, input.len(), &mut bufs, &mut ex);
                    assert_eq!(stats.early_stopped_members > 0, early);
                    let out = ex.into_output();
                    let rows = (
                        out.page_signals.len(),
                        out.host_counts.is_empty(),
                        out.counts.total,
                    );
                    assert_eq!(*expected.get_or_insert(rows), rows);
                })
            });
        }
    }
    bufs.early_stop = true;
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

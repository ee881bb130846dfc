//! Record iteration throughput (criterion): framing records out of a per-record `.warc.gz` (with
//! libdeflate inflating each member) and out of a plain `.warc`, and the full robots.txt extractor.
//! Each iteration asserts the number of records it saw, so a broken change cannot look fast.
//!
//!   cargo bench --bench records

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use repcensus::internals::TableBuilder;
use repcensus::ReadError;
use repcensus::{generate, GenKind, GenOptions, Layout};
use repcensus::{read_gzip_members, read_plain, ReadBuffers};
use repcensus::{ExtractBuffers, Extractor};
use repcensus::{Record, Sink};
use std::hint::black_box;

struct Count(u64);

impl Sink for Count {
    fn record(&mut self, rec: &Record<'_>) {
        black_box(rec.head.target_uri);
        self.0 += 1;
    }
    fn error(&mut self, err: ReadError) {
        panic!("unexpected error in generated data: {err:?}");
    }
}

fn archive(kind: GenKind, layout: Layout, size: u64) -> (Vec<u8>, u64) {
    let mut buf = Vec::new();
    let stats = generate(
        &GenOptions {
            kind,
            layout,
            target_bytes: size,
            seed: 9,
            bodies: Vec::new(),
        },
        &mut buf,
    )
    .unwrap();
    (buf, stats.records)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("records");
    g.sample_size(20);
    let (gz, n) = archive(GenKind::Pages, Layout::GzipPerRecord, 32 << 20);
    let (plain, n_plain) = archive(GenKind::Pages, Layout::Plain, 32 << 20);
    let mut bufs = ReadBuffers::new();

    g.throughput(Throughput::Bytes(gz.len() as u64));
    g.bench_function("pages_gzip_per_record_frame", |b| {
        b.iter(|| {
            let mut sink = Count(0);
            read_gzip_members(&gz, 0, gz.len(), &mut bufs, &mut sink);
            assert_eq!(sink.0, n);
        })
    });
    g.throughput(Throughput::Bytes(plain.len() as u64));
    g.bench_function("pages_plain_frame", |b| {
        b.iter(|| {
            let mut sink = Count(0);
            read_plain(&plain, 0, plain.len(), &mut sink);
            assert_eq!(sink.0, n_plain);
        })
    });

    let (robots, _) = archive(GenKind::Robots, Layout::GzipPerRecord, 16 << 20);
    let mut ebufs = ExtractBuffers::default();
    let registry = repcensus::Registry::builtin();
    let mut expected_rows = None;
    g.throughput(Throughput::Bytes(robots.len() as u64));
    g.bench_function("robots_gzip_per_record_extract", |b| {
        b.iter(|| {
            let mut ex = Extractor::new("bench.warc.gz", &mut ebufs, &registry);
            read_gzip_members(&robots, 0, robots.len(), &mut bufs, &mut ex);
            let out = ex.into_output();
            let rows = out.robots_files.len();
            assert!(rows > 1000);
            assert_eq!(*expected_rows.get_or_insert(rows), rows);
            assert_eq!(out.n_errors, 0);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

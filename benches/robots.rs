//! robots.txt parse and match throughput (criterion) on the 519 real files of
//! samples/real-robots.warc.gz, side by side with the `robotstxt` and `texting_robots` crates:
//!
//! * `parse`: repcensus's full parse (line descriptors, groups, normalised patterns, summary);
//! * `parse+match/<crate>`: parse each file and answer one question (may Googlebot fetch
//!   `/some/page.html`?), which is what the peers' APIs do in one call. Each iteration checks the
//!   number of disallowed answers so a broken change cannot look fast.
//!
//!   cargo bench --bench robots

#[path = "../tests/common/corpus.rs"]
mod corpus;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use repcensus::{Matcher, RobotsTxt};
use std::hint::black_box;

const AGENT: &str = "Googlebot";
const URL: &str = "http://example.com/some/page.html";
const PATH: &[u8] = b"/some/page.html";

fn bench(c: &mut Criterion) {
    let files: Vec<Vec<u8>> = corpus::real_robots().into_iter().map(|(_, b)| b).collect();
    let texts: Vec<String> = files
        .iter()
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .collect();
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let mut g = c.benchmark_group("robots");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("parse/repcensus", |b| {
        b.iter(|| {
            let mut lines = 0;
            for f in &files {
                lines += RobotsTxt::parse(black_box(f)).lines.len();
            }
            assert!(lines > 10_000);
            lines
        })
    });
    let mut m = Matcher::new();
    let expect = files
        .iter()
        .filter(|f| {
            !m.verdict(&RobotsTxt::parse(f), &[AGENT], None, PATH)
                .allowed
        })
        .count();
    g.bench_function("parse+match/repcensus", |b| {
        b.iter(|| {
            let mut m = Matcher::new();
            let mut disallowed = 0;
            for f in &files {
                let r = RobotsTxt::parse(black_box(f));
                disallowed += usize::from(!m.verdict(&r, &[AGENT], None, PATH).allowed);
            }
            assert_eq!(disallowed, expect);
        })
    });
    g.bench_function("parse+match/robotstxt", |b| {
        b.iter(|| {
            let mut disallowed = 0;
            for t in &texts {
                let mut m = robotstxt::DefaultMatcher::default();
                disallowed += usize::from(!m.one_agent_allowed_by_robots(black_box(t), AGENT, URL));
            }
            black_box(disallowed)
        })
    });
    g.bench_function("parse+match/texting_robots", |b| {
        b.iter(|| {
            let mut disallowed = 0;
            for f in &files {
                if let Ok(r) = texting_robots::Robot::new(AGENT, black_box(f)) {
                    disallowed += usize::from(!r.allowed(URL));
                }
            }
            black_box(disallowed)
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(5));
    targets = bench
}
criterion_main!(benches);

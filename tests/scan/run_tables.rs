//! Tables written from runs (the run writer of `parts/runs.rs`) against the same rows through `ArrowWriter`: the
//! `robots_agents` and `robots_rules` rows of the 519 real robots.txt files in the samples, and
//! `robots_files` rows of the same files, `host_counts` rows of many hosts, in several row groups, must read back identical and carry
//! the same column-chunk statistics (min and max cut at 64 bytes, null counts).

use crate::common;

use arrow_array::RecordBatch;
use common::corpus::real_robots;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};
use repcensus::internals::Carried;
use repcensus::internals::HostCounts;
use repcensus::internals::{
    append_file_row, LineTables, ParsedBody, Provenance, RobotsLineTables, Scratch,
};
use repcensus::internals::{
    HostCountsArrow, HostCountsBuilder, RobotsAgentsArrow, RobotsAgentsBuilder, RobotsFilesArrow,
    RobotsFilesBuilder, RobotsRulesArrow, RobotsRulesBuilder, TableBuilder,
};
use repcensus::internals::{OutDir, PartWriter};
use std::path::Path;

fn read(path: &Path) -> (Vec<RecordBatch>, SerializedFileReader<std::fs::File>) {
    let f = std::fs::File::open(path).unwrap();
    let batches = ParquetRecordBatchReaderBuilder::try_new(f.try_clone().unwrap())
        .unwrap()
        .with_batch_size(1 << 20)
        .build()
        .unwrap()
        .map(|b| b.unwrap())
        .collect();
    (batches, SerializedFileReader::new(f).unwrap())
}

/// An output folder for each writer, in temporary folders.
struct Outs {
    _dirs: [tempfile::TempDir; 2],
    runs: OutDir,
    arrow: OutDir,
}

impl Outs {
    fn new() -> Self {
        let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
        let runs = OutDir::create(dirs[0].path()).unwrap();
        let arrow = OutDir::create(dirs[1].path()).unwrap();
        Outs {
            _dirs: dirs,
            runs,
            arrow,
        }
    }

    /// A part of input `x` in crawl `c`, for the table `B` writes, in `out`.
    fn part<B: TableBuilder>(out: &OutDir) -> PartWriter {
        out.part_writer(&B::desc(), "c", "x").unwrap()
    }

    /// Commit the parts of each writer, then hold each of `tables`' two parts to [`same_part`].
    fn commit_and_compare(
        &self,
        runs: Vec<PartWriter>,
        arrow: Vec<PartWriter>,
        tables: &[&str],
        row_groups: usize,
    ) {
        let finish = |p: Vec<PartWriter>| p.into_iter().map(|w| w.finish().unwrap()).collect();
        self.runs.commit(finish(runs)).unwrap();
        self.arrow.commit(finish(arrow)).unwrap();
        for t in tables {
            same_part(&self.runs, &self.arrow, t, row_groups);
        }
    }
}

/// The two parts of `table` hold the same rows in the same row groups, with the same statistics.
fn same_part(runs: &OutDir, arrow: &OutDir, table: &str, row_groups: usize) {
    let (got, got_meta) = read(&runs.part_path(table, "c", "x"));
    let (want, want_meta) = read(&arrow.part_path(table, "c", "x"));
    // Batches of up to 2^20 rows span row groups: one batch each here.
    assert_eq!((got.len(), want.len()), (1, 1), "{table}");
    let (got, want) = (&got[0], &want[0]);
    assert!(want.num_rows() > 1000, "{table}: {} rows", want.num_rows());
    assert_eq!(got.num_rows(), want.num_rows(), "{table}");
    assert_eq!(got.schema(), want.schema(), "{table}");
    for (i, f) in want.schema().fields().iter().enumerate() {
        assert_eq!(got.column(i), want.column(i), "{table}.{}", f.name());
    }
    let (g, w) = (got_meta.metadata(), want_meta.metadata());
    assert_eq!(g.num_row_groups(), w.num_row_groups(), "{table}");
    assert_eq!(w.num_row_groups(), row_groups, "{table}");
    for rg in 0..w.num_row_groups() {
        let (gr, wr) = (g.row_group(rg), w.row_group(rg));
        assert_eq!(gr.num_rows(), wr.num_rows());
        for c in 0..wr.num_columns() {
            assert_eq!(
                gr.column(c).statistics(),
                wr.column(c).statistics(),
                "{table} row group {rg} column {}",
                wr.column(c).column_path()
            );
        }
    }
}

#[test]
fn robots_line_tables_equal_their_arrow_form() {
    let corpus = real_robots();
    let outs = Outs::new();
    let mut runs = RobotsLineTables::<RobotsAgentsBuilder, RobotsRulesBuilder>::default();
    let mut arrow = RobotsLineTables::<RobotsAgentsArrow, RobotsRulesArrow>::default();
    let mut parts = [
        Outs::part::<RobotsAgentsBuilder>(&outs.runs),
        Outs::part::<RobotsRulesBuilder>(&outs.runs),
        Outs::part::<RobotsAgentsArrow>(&outs.arrow),
        Outs::part::<RobotsRulesArrow>(&outs.arrow),
    ];
    let mut sc = Scratch::default();
    const LINES: LineTables = LineTables {
        acap: false,
        app_directives: false,
        ..LineTables::ALL
    };
    for (chunk_no, chunk) in corpus.chunks(150).enumerate() {
        for (i, (path, body)) in chunk.iter().enumerate() {
            let host = path.rsplit('/').next().and_then(|f| f.split('.').nth(1));
            let p = Provenance {
                warc_file: ["a.warc.gz", "b.warc.gz"][i % 2],
                warc_offset: (chunk_no * 1000 + i) as i64,
                // Some rows without a host (NULLs among the provenance).
                host: host.filter(|_| i % 7 != 3),
            };
            let r = ParsedBody::parse(body);
            r.emit(&mut runs, LINES, &p, &mut sc);
            r.emit(&mut arrow, LINES, &p, &mut sc);
        }
        runs.agents.write_into("c", &mut parts[0]).unwrap();
        runs.rules.write_into("c", &mut parts[1]).unwrap();
        arrow.agents.write_into("c", &mut parts[2]).unwrap();
        parts[2].flush().unwrap();
        arrow.rules.write_into("c", &mut parts[3]).unwrap();
        parts[3].flush().unwrap();
    }
    let [a, b, c, d] = parts;
    outs.commit_and_compare(
        vec![a, b],
        vec![c, d],
        &["robots_agents", "robots_rules"],
        4,
    );
}

/// The `robots_files` rows of the real robots.txt files (three times over, in four row groups)
/// through the run writer and through `ArrowWriter`.
#[test]
fn robots_files_equal_their_arrow_form() {
    let corpus = real_robots();
    let outs = Outs::new();
    let mut runs_part = Outs::part::<RobotsFilesBuilder>(&outs.runs);
    let mut arrow_part = Outs::part::<RobotsFilesArrow>(&outs.arrow);
    let (mut runs, mut arrow) = (RobotsFilesBuilder::default(), RobotsFilesArrow::default());
    let files: Vec<_> = (0..3).flat_map(|_| &corpus).collect();
    let per_group = files.len().div_ceil(4);
    for (chunk_no, chunk) in files.chunks(per_group).enumerate() {
        for (i, (path, body)) in chunk.iter().enumerate() {
            let parsed = ParsedBody::parse(body);
            let offset = (chunk_no * 10_000 + i) as i64;
            append_file_row(&mut runs, body, body.len() as u64, &parsed, path, offset);
            append_file_row(&mut arrow, body, body.len() as u64, &parsed, path, offset);
        }
        runs.write_into("c", &mut runs_part).unwrap();
        arrow.write_into("c", &mut arrow_part).unwrap();
        arrow_part.flush().unwrap();
    }
    outs.commit_and_compare(vec![runs_part], vec![arrow_part], &["robots_files"], 4);
}

/// Per-host counts of up to 30,000 hosts (names, IP addresses, no host, long and non-ASCII names,
/// all status classes), merged from three chunks and emitted as one row group (a row group holds
/// up to 2^20 rows).
#[test]
fn host_counts_equal_their_arrow_form() {
    let mut chunks: Vec<HostCounts> = (0..3).map(|_| HostCounts::default()).collect();
    let mut seed = 11u64;
    let mut rnd = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let long = "x".repeat(70);
    for k in 0..60_000u64 {
        let h = rnd(30_000);
        let host = match h % 10 {
            0 => format!("10.0.{}.{}", h / 256 % 256, h % 256),
            1 if h < 20 => String::new(),
            2 => format!("www.{long}{h}.example.co.uk"),
            3 => format!("bücher{h}.example.de"),
            _ => format!("www.site{h}.example.com"),
        };
        let status = [Some(200), Some(301), Some(404), Some(503), None][rnd(5) as usize];
        let c = Carried {
            meta: rnd(3) == 0,
            header: rnd(4) == 0,
            robots_tag: rnd(9) == 0,
            tdm: rnd(20) == 0,
            ai_prefs: false,
            signals: 0,
        };
        chunks[(k % 3) as usize].add(&host, status, rnd(2) == 0, c);
    }
    let mut merged = HostCounts::default();
    for c in chunks {
        merged.merge(c);
    }
    let outs = Outs::new();
    let mut runs_part = Outs::part::<HostCountsBuilder>(&outs.runs);
    let mut arrow_part = Outs::part::<HostCountsArrow>(&outs.arrow);
    let mut runs = HostCountsBuilder::default();
    let mut n = 0;
    merged
        .emit(&mut runs, "f.warc.gz", |b| {
            n += 1;
            b.write_into("c", &mut runs_part)
        })
        .unwrap();
    runs.write_into("c", &mut runs_part).unwrap();
    assert_eq!(n, 0, "fewer than 2^20 rows make one row group");
    let mut arrow = HostCountsArrow::default();
    merged
        .emit(&mut arrow, "f.warc.gz", |_| Ok::<(), anyhow::Error>(()))
        .unwrap();
    arrow.write_into("c", &mut arrow_part).unwrap();
    outs.commit_and_compare(vec![runs_part], vec![arrow_part], &["host_counts"], 1);
}

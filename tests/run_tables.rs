//! Tables written from runs (`repcensus::runs`) against the same rows through `ArrowWriter`: the
//! `robots_agents` and `robots_rules` rows of the 519 real robots.txt files in the samples, in
//! several row groups, must read back identical and carry the same column-chunk statistics
//! (min and max cut at 64 bytes, null counts).

mod common;

use arrow_array::RecordBatch;
use common::corpus::real_robots;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};
use repcensus::output::{OutDir, PartWriter};
use repcensus::robots::RobotsTxt;
use repcensus::robots_tables::{emit, Provenance, RobotsLineTables, Scratch};
use repcensus::tables::{
    RobotsAgentsArrow, RobotsAgentsBuilder, RobotsRulesArrow, RobotsRulesBuilder, TableBuilder,
};
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

/// The two parts of `table` hold the same rows in the same row groups, with the same statistics.
fn same_part(runs: &OutDir, arrow: &OutDir, table: &str) {
    let (got, got_meta) = read(&runs.part_path(table, "c", "x"));
    let (want, want_meta) = read(&arrow.part_path(table, "c", "x"));
    // Batches of up to 2^20 rows span row groups: one batch each here.
    assert_eq!((got.len(), want.len()), (1, 1), "{table}");
    let (got, want) = (&got[0], &want[0]);
    assert!(want.num_rows() > 1000, "{table}: {} rows", want.num_rows());
    assert_eq!(got.schema(), want.schema(), "{table}");
    for (i, f) in want.schema().fields().iter().enumerate() {
        assert_eq!(got.column(i), want.column(i), "{table}.{}", f.name());
    }
    let (g, w) = (got_meta.metadata(), want_meta.metadata());
    assert_eq!(g.num_row_groups(), w.num_row_groups(), "{table}");
    assert!(w.num_row_groups() > 1);
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
    let (runs_dir, arrow_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let runs_out = OutDir::create(runs_dir.path()).unwrap();
    let arrow_out = OutDir::create(arrow_dir.path()).unwrap();
    let mut runs = RobotsLineTables::<RobotsAgentsBuilder, RobotsRulesBuilder>::default();
    let mut arrow = RobotsLineTables::<RobotsAgentsArrow, RobotsRulesArrow>::default();
    let part = |o: &OutDir, w: fn(&OutDir) -> PartWriter| w(o);
    let mut parts = [
        part(&runs_out, |o| {
            o.part_writer::<RobotsAgentsBuilder>("c", "x").unwrap()
        }),
        part(&runs_out, |o| {
            o.part_writer::<RobotsRulesBuilder>("c", "x").unwrap()
        }),
        part(&arrow_out, |o| {
            o.part_writer::<RobotsAgentsArrow>("c", "x").unwrap()
        }),
        part(&arrow_out, |o| {
            o.part_writer::<RobotsRulesArrow>("c", "x").unwrap()
        }),
    ];
    let mut sc = Scratch::default();
    for (chunk_no, chunk) in corpus.chunks(150).enumerate() {
        for (i, (path, body)) in chunk.iter().enumerate() {
            let host = path.rsplit('/').next().and_then(|f| f.split('.').nth(1));
            let p = Provenance {
                warc_file: ["a.warc.gz", "b.warc.gz"][i % 2],
                warc_offset: (chunk_no * 1000 + i) as i64,
                // Some rows without a host (NULLs among the provenance).
                host: host.filter(|_| i % 7 != 3),
            };
            let r = RobotsTxt::parse(body);
            emit(&mut runs, &p, &r, &mut sc);
            emit(&mut arrow, &p, &r, &mut sc);
        }
        runs.agents.write_into("c", &mut parts[0]).unwrap();
        runs.rules.write_into("c", &mut parts[1]).unwrap();
        arrow.agents.write_into("c", &mut parts[2]).unwrap();
        parts[2].flush().unwrap();
        arrow.rules.write_into("c", &mut parts[3]).unwrap();
        parts[3].flush().unwrap();
    }
    let [a, b, c, d] = parts.map(|p| p.finish().unwrap());
    runs_out.commit(vec![a, b]).unwrap();
    arrow_out.commit(vec![c, d]).unwrap();
    same_part(&runs_out, &arrow_out, "robots_agents");
    same_part(&runs_out, &arrow_out, "robots_rules");
}

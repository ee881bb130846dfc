//! The robots.txt tables filled by `scan` from the real robots.txt corpus in the samples:
//! the ACAP records of the two real ACAP files, and a row per line for a known file.

mod common;

use common::{scan, table_rows};

fn scan_real() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let input = common::repo().join("samples/real-robots.warc.gz");
    let (code, stderr) = scan(&[
        input.to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    out
}

#[test]
fn acap_records_of_the_real_files() {
    let out = scan_real();
    let rows = table_rows(out.path(), "acap_fields", &["line_no"]);
    // www.rsc.org: two records, the first to two named crawlers.
    let rsc: Vec<&String> = rows
        .iter()
        .filter(|r| r.contains("crawlers=[gsa-crawler, guidebot]"))
        .collect();
    assert_eq!(rsc.len(), 3, "{rows:#?}");
    assert!(rsc.iter().any(|r| r.contains("field=disallow|")
        && r.contains("usage=crawl|")
        && r.contains("resource=/|")));
    // Every record: crawl prohibitions with paths, no problems, version 1.0 in both files.
    let disallows = rows
        .iter()
        .filter(|r| r.contains("field=disallow|"))
        .count();
    assert_eq!(disallows, 25);
    assert!(rows.iter().all(|r| r.contains("problems=[]")));
    assert_eq!(
        rows.iter()
            .filter(|r| r.contains("field=version|") && r.contains("resource=1.0|"))
            .count(),
        2
    );
    assert!(rows
        .iter()
        .any(|r| r.contains("crawlers=[*]") && r.contains("resource=/*.ece$|")));
    assert!(rows
        .iter()
        .any(|r| r.contains("crawlers=[*]") && r.contains("resource=/Labs/|")));
    let files = table_rows(out.path(), "robots_files", &[]);
    assert_eq!(
        files
            .iter()
            .filter(|r| r.contains("has_acap=true") && r.contains("acap_version=1.0"))
            .count(),
        2
    );
}

#[test]
fn every_parsed_capture_has_its_line_rows() {
    let out = scan_real();
    let files = table_rows(out.path(), "robots_files", &[]);
    assert_eq!(files.len(), 519);
    assert!(files.iter().all(|r| r.contains("parsed=true")));
    // Lines of the real corpus: agent rows + rule rows + blank lines = n_lines, per file, in SQL.
    let check = common::duck_value(
        out.path(),
        "WITH f AS (SELECT warc_offset, n_lines, n_agents FROM read_parquet('robots_files/*/*.parquet')),
              a AS (SELECT warc_offset, count(*) n FROM read_parquet('robots_agents/*/*.parquet') GROUP BY 1),
              r AS (SELECT warc_offset, count(*) n FROM read_parquet('robots_rules/*/*.parquet') GROUP BY 1)
         SELECT count(*) FROM f LEFT JOIN a USING (warc_offset) LEFT JOIN r USING (warc_offset)
         WHERE coalesce(a.n, 0) <> n_agents OR coalesce(a.n, 0) + coalesce(r.n, 0) > n_lines",
    );
    assert_eq!(check.trim(), "0", "{check}");
}

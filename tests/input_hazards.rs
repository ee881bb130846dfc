//! Inputs that change or are not plain files: an archive truncated while it is scanned, pipes
//! and devices, names that collide, an output folder inside the scanned one. Each keeps every
//! row it can and says what happened in `errors` and `inputs`; the run goes on.

mod common;

use common::{bin, duck_value, repo};
use std::path::Path;

fn sample_copy(dir: &Path, name: &str) -> String {
    let to = dir.join(name);
    std::fs::copy(repo().join("samples/real-robots.warc.gz"), &to).unwrap();
    to.to_str().unwrap().to_string()
}

/// `(kind, warc_offset)` of an input's errors rows, in offset order.
fn errors_of(out: &Path, file: &str) -> Vec<String> {
    let sql = format!(
        "select string_agg(kind || '@' || warc_offset, ' ' order by warc_offset, kind) \
         from read_parquet('errors/*/*.parquet') where warc_file like '%/{file}'"
    );
    duck_value(out, &sql)
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn an_input_truncated_while_it_is_scanned_is_read_as_the_shorter_file_and_the_run_goes_on() {
    for (threads, chunk) in [("1", "100000000"), ("2", "50000")] {
        let dir = tempfile::tempdir().unwrap();
        let victim = sample_copy(dir.path(), "victim.warc.gz");
        let next = sample_copy(dir.path(), "next.warc.gz");
        let out = dir.path().join("out");
        // Truncated right after it is mapped: every read past 300,000 bytes faults (SIGBUS).
        let run = bin()
            .env("REPCENSUS_TRUNCATE_ON_MAP", "victim.warc.gz:300000")
            .args(["scan", "-q", "--threads", threads, "--chunk-size", chunk])
            .args([&victim, &next, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(0), "{threads} threads: {stderr}");
        assert_eq!(std::fs::metadata(&victim).unwrap().len(), 300_000);
        // Exactly what a file that short gives (the member at 274,984 is cut), and one row
        // saying why.
        assert_eq!(
            errors_of(&out, "victim.warc.gz"),
            [
                "truncated_gzip@274984",
                "truncated_record@274984",
                "read_error@300000"
            ]
        );
        let detail = duck_value(
            &out,
            "select detail from read_parquet('errors/*/*.parquet') where kind = 'read_error'",
        );
        assert!(
            detail.contains("truncated from 588774 to 300000 bytes"),
            "{detail}"
        );
        // Every capture before the cut is kept, equal to the intact copy's.
        let lost = duck_value(
            &out,
            "with f as (select * exclude (warc_file) , warc_file like '%victim.warc.gz' as v \
                        from read_parquet('robots_files/*/*.parquet')) \
             select (select count(*) from f where v) || ' ' || \
                    (select count(*) from (select * exclude (v) from f where not v and warc_offset < 274984 \
                                           except select * exclude (v) from f where v))",
        );
        assert_eq!(lost, "245 0", "{threads} threads");
        let statuses = duck_value(
            &out,
            "select string_agg(status || ':' || records, ' ' order by path) \
             from read_parquet('inputs/*/*.parquet')",
        );
        assert_eq!(statuses, "ok:520 ok_with_errors:246", "{threads} threads");
    }
}

//! `robots_hosts`: each host's latest robots.txt capture and the capture its redirects lead to
//! (RFC 9309 section 2.3.1.2), written at the end of a scan and by `repcensus hosts`.

use crate::common;

use common::{assert_ok, bin, duck, repo, scan, table_rows, with_verdicts_view};
use std::path::Path;

fn scan_into(out: &Path, inputs: &[&str], extra: &[&str]) {
    let mut args: Vec<&str> = inputs.to_vec();
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let (code, err) = scan(&args);
    assert_eq!(code, 0, "{err}");
}

/// A scan of one archive of `samples/` into a new folder (kept while the first is alive).
fn scan_sample(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = repo().join("samples").join(name);
    scan_into(&out, &[input.to_str().unwrap()], &[]);
    (dir, out)
}

fn hosts(args: &[&str]) -> std::process::Output {
    bin()
        .arg("hosts")
        .args(args)
        .output()
        .expect("run repcensus")
}

/// The hand-written chains of samples/redirect-cases.warc.gz (scripts/make_redirect_cases.py):
/// each host's resolution, hops, whether a hop left the host, the host of the capture that
/// governs it and GPTBot's verdict there.
#[test]
fn each_host_is_governed_by_the_end_of_its_redirects() {
    let (_dir, out) = scan_sample("redirect-cases.warc.gz");
    let got = duck(
        &out,
        &with_verdicts_view(
            "SELECT replace(h.host, '.redirect-case.invalid', '') AS host, h.captures,
                h.resolution, h.hops, h.cross_host,
                replace(h.effective_host, '.redirect-case.invalid', '') AS governed_by,
                v.verdict
         FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY host) AS captures)
               FROM read_parquet('robots_hosts/*/*.parquet') QUALIFY counts_for_host) h
         JOIN agent_verdicts v
           ON v.warc_file = h.effective_warc_file AND v.warc_offset = h.effective_warc_offset
         WHERE v.agent = 'GPTBot'
         ORDER BY h.host",
        ),
    );
    let want = "\
host,captures,resolution,hops,cross_host,governed_by,verdict
bare,1,direct,0,false,bare,full_block
busy,2,resolved,1,false,busy,unreachable
five0,1,resolved,5,true,five5,full_block
five1,1,resolved,4,true,five5,full_block
five2,1,resolved,3,true,five5,full_block
five3,1,resolved,2,true,five5,full_block
five4,1,resolved,1,true,five5,full_block
five5,1,direct,0,false,five5,full_block
gone,2,resolved,1,false,gone,no_robots
home,1,missing_target,1,false,home,redirect
https,2,resolved,1,false,https,full_block
loop-a,1,loop,2,true,loop-a,redirect
loop-b,1,loop,2,true,loop-b,redirect
missing,1,missing_target,1,false,missing,redirect
no-location,1,bad_location,0,false,no-location,redirect
relative,2,resolved,1,false,relative,full_block
scheme-relative,1,direct,0,false,scheme-relative,full_block
six0,1,too_many_hops,6,true,six0,redirect
six1,1,resolved,5,true,six6,full_block
six2,1,resolved,4,true,six6,full_block
six3,1,resolved,3,true,six6,full_block
six4,1,resolved,2,true,six6,full_block
six5,1,resolved,1,true,six6,full_block
six6,1,direct,0,false,six6,full_block
twice,3,resolved,1,false,twice,full_block
www.bare,1,resolved,1,true,bare,full_block
www.scheme-relative,1,resolved,1,true,scheme-relative,full_block
";
    assert_eq!(got, want);
    // The bundled query reads the same: of 27 hosts, 19 governed by a 2xx file, all blocking
    // GPTBot (15 by name, the bare and scheme-relative pairs by `*`), 17 read through
    // redirects and 6 whose redirects lead nowhere; one (busy) governed by a 503, which RFC
    // 9309 reads as a full block (20 of 27).
    let sql = std::fs::read_to_string(repo().join("queries/agents_full_block_share.sql")).unwrap();
    let table = duck(&out, &sql);
    let gptbot = table
        .lines()
        .find(|l| l.contains(",GPTBot,"))
        .expect("GPTBot row");
    assert_eq!(
        gptbot,
        "repcensus-samples,GPTBot,ai_training,1.0,0.7037,19,19,27,15,4,0,0.0,19,17,6,0,0,0,1,20,\
         0.7407,0,0"
    );
}

/// The hand-written revisits of samples/revisit-cases.warc.gz (scripts/make_revisit_cases.py):
/// each host whose latest capture is a 2xx revisit is governed by the capture it revisits, found
/// by Refers-To (URL and date), by its digest on its own URL or on another; the two that match
/// nothing earlier stay `unknown`. A revisit of another status is read by its own: a 404
/// restricts nothing even where only another host's `Disallow: /` has its digest (`lost`), a
/// 301 is followed by its own Location (`moved`), and a 200 of an empty body is an empty file,
/// never another host's empty 301 (`empty`).
#[test]
fn each_revisit_is_read_as_the_capture_it_revisits() {
    let (_dir, out) = scan_sample("revisit-cases.warc.gz");
    let got = duck(
        &out,
        &with_verdicts_view("SELECT replace(h.host, '.revisit-case.invalid', '') AS host, h.captures, h.fetch_outcome,
                h.resolution, h.hops, h.revisit,
                replace(h.effective_url, '.revisit-case.invalid', '') AS governed_by,
                e.capture_time::DATE AS governing_date, h.revisited_fetch_outcome, v.verdict
         FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY host) AS captures)
               FROM read_parquet('robots_hosts/*/*.parquet') QUALIFY counts_for_host) h
         JOIN agent_verdicts v
           ON v.warc_file = h.effective_warc_file AND v.warc_offset = h.effective_warc_offset
         JOIN read_parquet('robots_files/*/*.parquet') e
           ON e.warc_file = h.effective_warc_file AND e.warc_offset = h.effective_warc_offset
         WHERE v.agent = 'GPTBot'
         ORDER BY h.host"),
    );
    let want = "\
host,captures,fetch_outcome,resolution,hops,revisit,governed_by,governing_date,revisited_fetch_outcome,verdict
blocker,1,ok,direct,0,NULL,http://blocker/robots.txt,2026-03-01,NULL,full_block
dated,3,revisit,direct,0,refers_to,http://dated/robots.txt,2026-03-01,ok,full_block
elsewhere,1,revisit,direct,0,same_digest,http://origin/robots.txt,2026-03-01,ok,full_block
empty-moved,1,redirect,missing_target,1,NULL,http://empty-moved/robots.txt,2026-03-01,NULL,redirect
empty,1,ok_empty,direct,0,NULL,http://empty/robots.txt,2026-03-02,NULL,no_robots
gone,2,not_found,direct,0,NULL,http://gone/robots.txt,2026-03-02,NULL,no_robots
later,1,ok,direct,0,NULL,http://later/robots.txt,2026-03-03,NULL,full_block
lost,1,not_found,direct,0,NULL,http://lost/robots.txt,2026-03-02,NULL,no_robots
moved,3,redirect,resolved,1,NULL,https://moved/robots.txt,2026-03-01,NULL,full_block
origin,1,ok,direct,0,NULL,http://origin/robots.txt,2026-03-01,NULL,full_block
refers-to,2,revisit,direct,0,refers_to,http://refers-to/robots.txt,2026-03-01,ok,full_block
same-url,2,revisit,direct,0,same_url,http://same-url/robots.txt,2026-03-01,ok,full_block
target,3,redirect,resolved,1,same_url,https://target/robots.txt,2026-03-01,NULL,full_block
too-early,1,revisit,direct,0,unresolved,http://too-early/robots.txt,2026-03-01,NULL,unknown
unmatched,1,revisit,direct,0,unresolved,http://unmatched/robots.txt,2026-03-02,NULL,unknown
";
    assert_eq!(got, want);
    // The summary counts the two unresolved revisits, and the bundled query has every other
    // host in its 2xx denominator: 10 hosts governed by a 2xx file (empty's too; the 404s of
    // gone and lost and empty-moved's redirect to nowhere are not), of 15.
    let unresolved = duck(
        &out,
        "SELECT sum(hosts) FROM read_parquet('summary_robots_hosts/*/*.parquet')
         WHERE revisit = 'unresolved'",
    );
    assert_eq!(unresolved, "sum(hosts)\n2\n");
    let sql = std::fs::read_to_string(repo().join("queries/agents_full_block_share.sql")).unwrap();
    let table = duck(&out, &sql);
    let gptbot = table
        .lines()
        .find(|l| l.contains(",GPTBot,"))
        .expect("GPTBot row");
    let cols: Vec<&str> = gptbot.split(',').collect();
    assert_eq!((cols[6], cols[7]), ("10", "15"), "{table}");
}

/// The British Library pair of real archives: the second crawl, 11 minutes later, has only
/// revisits of the first's three robots.txt captures (WARC 1.0, no Refers-To). The two 200
/// revisits are governed by the first crawl's capture with their digest; the 404 revisit by its
/// own status (a 404 needs no body). None is `unknown`.
#[test]
fn the_british_library_revisits_are_read_through_to_the_first_crawl() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let pair: Vec<String> = ["BL-20140325121225068", "BL-20140325122341434"]
        .iter()
        .map(|id| {
            let name = format!("ukwa_webarchive-discovery__{id}-00000-32090~opera~8443.warc.gz");
            repo()
                .join("samples")
                .join(name)
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let inputs: Vec<&str> = pair.iter().map(String::as_str).collect();
    scan_into(&out, &inputs, &[]);
    let got = duck(
        &out,
        &with_verdicts_view(
            "SELECT h.host, h.fetch_outcome, h.revisit, h.effective_fetch_outcome, v.verdict,
                h.effective_warc_file LIKE '%BL-20140325121225068%' AS first_crawl
         FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY host) AS captures)
               FROM read_parquet('robots_hosts/*/*.parquet') QUALIFY counts_for_host) h
         JOIN agent_verdicts v
           ON v.warc_file = h.effective_warc_file AND v.warc_offset = h.effective_warc_offset
         WHERE v.agent = 'GPTBot' AND h.host IN
             ('ajax.googleapis.com', 'data.gov.uk', 'html5shiv.googlecode.com')
         ORDER BY h.host",
        ),
    );
    assert_eq!(
        got,
        "host,fetch_outcome,revisit,effective_fetch_outcome,verdict,first_crawl
ajax.googleapis.com,revisit,same_url,ok,partial_block,true
data.gov.uk,revisit,same_url,ok,partial_block,true
html5shiv.googlecode.com,not_found,NULL,not_found,no_robots,false
"
    );
}

/// A sharded run writes no robots_hosts (a shard cannot see the crawl's other inputs);
/// `repcensus hosts` after the last shard writes exactly what one unsharded scan writes.
#[test]
fn hosts_after_the_shards_equal_one_full_scan() {
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let samples = samples.to_str().unwrap();
    let (full, sharded) = (dir.path().join("full"), dir.path().join("sharded"));
    scan_into(&full, &[samples], &[]);
    for spec in ["0/2", "1/2"] {
        scan_into(&sharded, &[samples], &["--shard", spec]);
    }
    assert!(!common::has_parts(&sharded, "robots_hosts"));
    let run = hosts(&[sharded.to_str().unwrap()]);
    assert_ok(&run);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("robots_hosts  repcensus-samples: ")
            && said.contains(" to a captured robots.txt"),
        "{said}"
    );
    let want = table_rows(&full, "robots_hosts", &[]);
    assert!(want.len() > 2000, "{} hosts", want.len());
    assert_eq!(table_rows(&sharded, "robots_hosts", &[]), want);
    // Again: the same rows, replaced whole.
    assert_ok(&hosts(&["--quiet", sharded.to_str().unwrap()]));
    assert_eq!(table_rows(&sharded, "robots_hosts", &[]), want);
}

/// A shard says, at its end, that nothing was derived and what to run after the last shard
/// (until then the agent_verdicts view has no rows); a whole scan derives and says no such thing.
#[test]
fn a_shard_says_to_run_hosts_after_the_last_shard() {
    let dir = tempfile::tempdir().unwrap();
    let input = repo().join("samples/verdict-cases.warc.gz");
    let run = |out: &Path, extra: &[&str]| {
        let o = bin()
            .arg("scan")
            .arg(&input)
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .expect("run repcensus");
        assert_ok(&o);
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let sharded = dir.path().join("sharded");
    let said = run(&sharded, &["--shard", "0/1"]);
    let next = format!("`repcensus hosts {}`", sharded.display());
    assert!(
        said.contains("derived       nothing (a shard)") && said.contains(&next),
        "{said}"
    );
    assert!(!common::has_parts(&sharded, "robots_hosts"));
    let said = run(&dir.path().join("whole"), &[]);
    assert!(
        !said.contains("a shard") && said.contains("robots_hosts  "),
        "{said}"
    );
}

/// Scanning an input again under another crawl name moves its rows; the old crawl's
/// robots_hosts goes with them, and `--crawl` derives one crawl only.
#[test]
fn a_crawl_without_robots_files_keeps_no_robots_hosts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cases = repo().join("samples/redirect-cases.warc.gz");
    let cases = cases.to_str().unwrap();
    scan_into(&out, &[cases], &[]);
    let old = out.join("robots_hosts/crawl=repcensus-samples/part-repcensus-samples.parquet");
    assert!(old.exists());
    scan_into(&out, &[cases], &["--crawl", "again"]);
    assert!(!old.exists());
    assert!(out
        .join("robots_hosts/crawl=again/part-again.parquet")
        .exists());
    // 27 hosts, four of them on two sites (their http:// robots.txt redirects to https://).
    assert_eq!(table_rows(&out, "robots_hosts", &[]).len(), 31);
    let run = hosts(&[out.to_str().unwrap(), "--crawl", "again"]);
    assert_ok(&run);
    let run = hosts(&[out.to_str().unwrap(), "--crawl", "nothing"]);
    assert_eq!(run.status.code(), Some(2));
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("no robots_files in") && said.contains("nothing"),
        "{said}"
    );
}

#[test]
fn hosts_derives_the_summaries_of_a_crawl_without_robots_txt_captures() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let pages = ["--tables", "page_signals,host_counts", "--shard", "0/1"];
    let samples = repo().join("samples");
    scan_into(&out, &[samples.to_str().unwrap()], &pages);
    let directives = || table_rows(&out, "summary_page_directives", &[]);
    assert!(directives().is_empty(), "a shard derives nothing");
    let run = hosts(&[out.to_str().unwrap()]);
    assert_ok(&run);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("summary_page  "), "{said}");
    assert!(!directives().is_empty());
}

/// A robots_files part that is not Parquet: that crawl is not derived (its robots_hosts stays
/// as it was) and `hosts` exits 1 naming it; the other crawls are derived. A folder that is
/// not a scan's is an error (exit 2).
#[test]
fn an_unreadable_part_fails_its_crawl_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cases = repo().join("samples/redirect-cases.warc.gz");
    let verdicts = repo().join("samples/verdict-cases.warc.gz");
    scan_into(&out, &[cases.to_str().unwrap()], &["--crawl", "a"]);
    scan_into(&out, &[verdicts.to_str().unwrap()], &["--crawl", "b"]);
    let before = table_rows(&out, "robots_hosts", &[]);
    std::fs::write(
        out.join("robots_files/crawl=a/part-zzz.parquet"),
        b"not parquet",
    )
    .unwrap();
    let run = hosts(&[out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1));
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("robots_hosts  a: not derived: cannot read")
            && said.contains("part-zzz.parquet")
            && said.contains("robots_hosts  b: "),
        "{said}"
    );
    assert_eq!(table_rows(&out, "robots_hosts", &[]), before);
    // A scan into that crawl reads its input but cannot derive the crawl: it says so and exits
    // 1 (it exited 0, leaving robots_hosts stale).
    let (code, err) = scan(&[
        cases.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--crawl",
        "a",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("robots_hosts of crawl a not derived"), "{err}");
    let run = hosts(&[dir.path().join("nowhere").to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("is not a folder"));
}

/// An input scanned again under another crawl name leaves its old crawl: that crawl's
/// `robots_hosts` (and summaries) are derived again from what is left, as a scan of the other
/// inputs alone gives them (before, they kept the moved input's hosts).
#[test]
fn a_crawl_that_loses_an_input_to_another_crawl_is_derived_again() {
    let dir = tempfile::tempdir().unwrap();
    let (out, alone) = (dir.path().join("out"), dir.path().join("alone"));
    let cases = repo().join("samples/redirect-cases.warc.gz");
    let verdicts = repo().join("samples/verdict-cases.warc.gz");
    let both = [cases.to_str().unwrap(), verdicts.to_str().unwrap()];
    scan_into(&out, &both, &["--crawl", "a"]);
    scan_into(&out, &[cases.to_str().unwrap()], &["--crawl", "b"]);
    scan_into(&alone, &[verdicts.to_str().unwrap()], &["--crawl", "a"]);
    for table in ["robots_hosts", "summary_agents", "summary_robots_keys"] {
        let of = |o: &Path| {
            duck(
                o,
                &format!(
                    "SELECT * FROM read_parquet('{table}/crawl=a/*.parquet', hive_partitioning = true) \
                     ORDER BY ALL"
                ),
            )
        };
        assert_eq!(of(&out), of(&alone), "{table}");
    }
}

/// Parts that DuckDB or Spark wrote with their own codecs (DuckDB's default is snappy) are read:
/// a crawl whose `robots_files` part was rewritten in each codec derives the `robots_hosts` of
/// the original (before, a snappy part left the crawl underived).
#[test]
fn parts_written_by_duckdb_in_any_codec_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cases = repo().join("samples/redirect-cases.warc.gz");
    scan_into(
        &out,
        &[cases.to_str().unwrap()],
        &["--crawl", "a", "--tables", "robots_files"],
    );
    let codecs = ["snappy", "gzip", "lz4", "brotli", "zstd", "uncompressed"];
    for codec in codecs {
        std::fs::create_dir_all(out.join(format!("robots_files/crawl={codec}"))).unwrap();
        duck(
            &out,
            &format!(
                "COPY (SELECT * EXCLUDE (crawl) FROM read_parquet('robots_files/crawl=a/*.parquet', \
                 hive_partitioning = true)) TO 'robots_files/crawl={codec}/part-duck.parquet' \
                 (FORMAT parquet, COMPRESSION {codec})"
            ),
        );
    }
    let run = hosts(&[out.to_str().unwrap(), "-q"]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let of = |crawl: &str| {
        duck(
            &out,
            &format!(
                "SELECT * EXCLUDE (crawl) FROM read_parquet('robots_hosts/crawl={crawl}/*.parquet', \
                 hive_partitioning = true) ORDER BY ALL"
            ),
        )
    };
    let original = of("a");
    assert!(original.lines().count() > 10);
    for codec in codecs {
        assert_eq!(of(codec), original, "{codec}");
    }
}

/// A real wget crawl (commoncrawl/ia-web-commons' IAH-urls-wget.warc.gz, 2013) fetched
/// www.archive.org/robots.txt, got a 301 to archive.org and fetched that too: the host is read
/// at the file its redirect leads to.
#[test]
fn a_real_redirect_to_the_bare_host_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let wget = repo().join("samples/commoncrawl_ia-web-commons__IAH-urls-wget.warc.gz");
    scan_into(&out, &[wget.to_str().unwrap()], &[]);
    let got = duck(
        &out,
        "SELECT host, fetch_outcome, resolution, hops, cross_host, effective_url,
                effective_fetch_outcome
         FROM read_parquet('robots_hosts/*/*.parquet') WHERE counts_for_host ORDER BY host",
    );
    assert_eq!(
        got,
        "host,fetch_outcome,resolution,hops,cross_host,effective_url,effective_fetch_outcome\n\
         archive.org,ok,direct,0,false,http://archive.org/robots.txt,ok\n\
         www.archive.org,redirect,resolved,1,true,http://archive.org/robots.txt,ok\n"
    );
}

#[test]
fn hosts_and_report_name_a_part_the_inputs_rows_count_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let samples = repo().join("samples");
    let inputs: Vec<String> = [
        "real-robots.warc.gz",
        "verdict-cases.warc.gz",
        "signal-cases.warc.gz",
    ]
    .iter()
    .map(|n| samples.join(n).to_string_lossy().into_owned())
    .collect();
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    scan_into(&out, &inputs, &[]);
    let o = hosts(&[out.to_str().unwrap()]);
    assert_ok(&o);
    let part_of = |table: &str, input: &str| {
        common::walk(&out.join(table))
            .into_iter()
            .find(|p| p.to_string_lossy().contains(input))
            .unwrap_or_else(|| panic!("a {table} part of {input}"))
    };
    for (table, input) in [
        ("robots_files", "verdict-cases"),
        ("agent_verdict_runs", "real-robots"),
        ("page_signals", "signal-cases"),
    ] {
        let part = part_of(table, input);
        let kept = dir.path().join("kept.parquet");
        std::fs::rename(&part, &kept).unwrap();
        let o = hosts(&[out.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{table}: {err}");
        let name = part.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            err.contains(&format!("{table}/crawl=")) && err.contains(&name),
            "{err}"
        );
        assert!(err.contains("--resume"), "{err}");
        let page = dir.path().join("report.html");
        let o = common::report(&out, &page, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{table}: {err}");
        assert!(err.contains(&name), "{err}");
        std::fs::rename(&kept, &part).unwrap();
    }
    assert_ok(&hosts(&[out.to_str().unwrap()]));
}

/// A crawl derived in partitions of its hosts (as `--memory` makes a large one be) has every row
/// of one derived whole, in every derived table: with few partitions, with so many that nearly
/// every redirect and revisit leads into another (whose captures it reads as guests), and
/// chosen by `--memory` itself, with spill parts of a few rows each, at the end of a scan and
/// by `repcensus hosts`.
#[test]
fn a_crawl_derived_in_partitions_has_the_rows_of_one_derived_whole() {
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let samples = samples.to_str().unwrap();
    let whole = dir.path().join("whole");
    scan_into(&whole, &[samples], &[]);
    let rows = |out: &Path, t: &str| {
        let mut r = table_rows(out, t, &[]);
        r.sort();
        r
    };
    // (name, partitions, rows per spill part, arguments)
    type Run<'a> = (&'a str, Option<&'a str>, Option<&'a str>, &'a [&'a str]);
    let runs: [Run; 4] = [
        ("three", Some("3"), None, &[]),
        ("many", Some("64"), None, &[]),
        ("memory", None, None, &["--memory", "2M"]),
        // Spill parts of a few rows: a capture's rows are never split between two.
        ("small parts", Some("3"), Some("5"), &[]),
    ];
    for (name, partitions, spill_rows, args) in runs {
        let out = dir.path().join(name);
        let mut scan = bin();
        scan.args(["scan", samples, "--out", out.to_str().unwrap()])
            .args(args);
        if let Some(n) = partitions {
            scan.env("REPCENSUS_PARTITIONS", n);
        }
        if let Some(n) = spill_rows {
            scan.env("REPCENSUS_SPILL_ROWS", n);
        }
        let o = scan.output().unwrap();
        assert_ok(&o);
        let said = String::from_utf8_lossy(&o.stderr);
        let n = partitions.unwrap_or("");
        assert!(
            said.contains(&format!("; derived in {n}"))
                && said.contains(" partitions of its hosts"),
            "{name}: {said}"
        );
        for t in repcensus::Table::DERIVED {
            assert_eq!(
                rows(&out, t.name()),
                rows(&whole, t.name()),
                "{name}: {t:?}"
            );
        }
        assert!(!rows(&whole, "robots_hosts").is_empty());
        // Derived again by `hosts`, alike; and nothing of the spill is left.
        let again = bin()
            .args(["hosts", out.to_str().unwrap(), "--memory", "2M"])
            .output()
            .unwrap();
        assert_ok(&again);
        assert_eq!(rows(&out, "summary_agents"), rows(&whole, "summary_agents"));
        assert_eq!(rows(&out, "robots_hosts"), rows(&whole, "robots_hosts"));
        let left: Vec<_> = common::walk(&out)
            .into_iter()
            .filter(|p| p.to_string_lossy().contains("derive-"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

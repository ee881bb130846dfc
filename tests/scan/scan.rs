//! The scan end to end: the bundled samples, exit codes, container and thread independence, and
//! atomic output under kill.

use crate::common;

use common::{bin, repo, scan, table_rows, walk};
use repcensus::{generate, GenKind, GenOptions, Layout};
use std::path::Path;

fn gen_file(
    dir: &Path,
    name: &str,
    kind: GenKind,
    layout: Layout,
    bytes: u64,
    seed: u64,
) -> String {
    let path = dir.join(name);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    generate(
        &GenOptions {
            kind,
            layout,
            target_bytes: bytes,
            seed,
            bodies: Vec::new(),
        },
        &mut f,
    )
    .unwrap();
    drop(f);
    path.to_string_lossy().into_owned()
}

fn count_where(out: &Path, table: &str, needle: &str) -> usize {
    table_rows(out, table, &[])
        .iter()
        .filter(|r| r.contains(needle))
        .count()
}

#[test]
fn samples_scan_exits_zero_and_yields_every_capture() {
    let out = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let (code, stderr) = scan(&[
        samples.to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let rows = table_rows(out.path(), "robots_files", &[]);
    assert_eq!(rows.len(), 2248);
    // Real captures per real file (the generated file holds 1581, the real robots.txt corpus 519,
    // the hand-written verdict cases 21, the redirect cases 33, the revisit cases 24).
    for (file, n) in [
        (
            "oduwsdl_ipwb__IAH-20080430204825-00000-blackbook.warc.gz",
            38,
        ),
        ("iipc_openwayback__testdata1.arc", 14),
        ("commoncrawl_ia-web-commons__IAH-urls-wget.warc.gz", 2),
        ("richardlehane_webarchive__invalid-warcrecord-3.warc", 6),
        ("iipc_webarchive-commons__cz-pagesinczech.arc.gz", 3),
        (
            "ukwa_webarchive-discovery__BL-20140325121225068-00000-32090~opera~8443.warc.gz",
            3,
        ),
        (
            "ukwa_webarchive-discovery__BL-20140325122341434-00000-32090~opera~8443.warc.gz",
            3,
        ),
        ("generated-cc-robots.warc.gz", 1581),
        ("real-robots.warc.gz", 519),
        ("verdict-cases.warc.gz", 22),
        ("redirect-cases.warc.gz", 33),
        ("revisit-cases.warc.gz", 24),
    ] {
        assert_eq!(
            rows.iter().filter(|r| r.contains(file)).count(),
            n,
            "{file}"
        );
    }
    // Every robots capture in the samples has a status line, except the resource records of
    // the real robots.txt corpus.
    assert!(rows
        .iter()
        .all(|r| !r.contains("http_status=NULL") || r.contains("real-robots.warc.gz")));
    // One inputs row per sample archive, and the broken ones have errors rows.
    let inputs = table_rows(out.path(), "inputs", &[]);
    assert_eq!(inputs.len(), 26);
    // The inputs rows count the page tables' rows.
    let counted = |col: &str| -> usize {
        inputs
            .iter()
            .map(|r| {
                let at = r.find(&format!("|{col}=")).expect(col) + col.len() + 2;
                r[at..].split('|').next().unwrap().parse::<usize>().unwrap()
            })
            .sum()
    };
    let signals = table_rows(out.path(), "page_signals", &[]).len();
    assert!(signals > 50);
    assert_eq!(counted("rows_page_signals"), signals);
    assert_eq!(
        counted("rows_host_counts"),
        table_rows(out.path(), "host_counts", &[]).len()
    );
    // One `pages` row per response host_counts counts.
    let pages = table_rows(out.path(), "pages", &[]).len();
    assert_eq!(counted("rows_pages"), pages);
    assert_eq!(
        common::duck_value(
            out.path(),
            "SELECT sum(responses) FROM 'host_counts/*/*.parquet'"
        ),
        pages.to_string()
    );
    // Every capture's verdict runs cover every registry agent once; the row per capture and
    // agent (`agent_verdicts`) is written only on request.
    let n_agents = repcensus::Registry::builtin().agents.len();
    assert_eq!(
        common::duck_value(
            out.path(),
            &format!(
                "SELECT count(*) FILTER (covered = {n_agents}) || ' ' || count(*) FROM \
                 (SELECT sum(agents) AS covered FROM 'agent_verdict_runs/*/*.parquet' \
                  GROUP BY warc_file, warc_offset)"
            )
        ),
        format!("{0} {0}", rows.len())
    );
    assert!(table_rows(out.path(), "agent_verdicts", &[]).is_empty());
    assert!(count_where(out.path(), "errors", "cz-pagesinczech") > 0);
    // The 2008 ARC's members have wrong CRCs and one record's length overruns its member; the
    // intact member of www.vkol.cz after it is still read, at its own offset.
    assert_eq!(
        rows.iter()
            .filter(|r| r.contains("url=http://www.vkol.cz/robots.txt|")
                && r.contains("warc_offset=6689|"))
            .count(),
        1
    );
    assert!(count_where(out.path(), "errors", "corrupted-mid-record") > 0);
    // Formats recognised, not dropped.
    for fmt in ["wat", "wet", "arc", "warc"] {
        assert!(
            inputs
                .iter()
                .any(|r| r.contains(&format!("|format={fmt}|"))),
            "{fmt}"
        );
    }
    for comp in ["lz4", "bzip2", "gzip_whole_file", "gzip_per_record", "none"] {
        assert!(
            inputs
                .iter()
                .any(|r| r.contains(&format!("|compression={comp}|"))),
            "{comp}"
        );
    }
    // The crawl comes from warcinfo isPartOf; the part is named by the file and its path.
    let id = repcensus::inputs::input_id(&samples.join("generated-cc-robots.warc.gz"));
    assert!(id.starts_with("generated-cc-robots.warc.gz-"), "{id}");
    assert!(out
        .path()
        .join(format!(
            "robots_files/crawl=CC-MAIN-GENERATED/part-{id}.parquet"
        ))
        .exists());
    // No staging left behind.
    assert!(!out.path().join(".staging").exists());
}

#[test]
fn a_mistyped_path_alone_writes_nothing_and_exits_two() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let missing = dir.path().join("samplez");
    let (code, stderr) = scan(&[missing.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("no such file or folder; nothing was written"),
        "{stderr}"
    );
    assert!(!out.exists(), "an output folder was made");
}

#[test]
fn unreadable_inputs_exit_one_and_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.warc");
    std::fs::write(&junk, b"this is not an archive\n").unwrap();
    let missing = dir.path().join("missing.warc.gz");
    let good = gen_file(
        dir.path(),
        "good.warc.gz",
        GenKind::Robots,
        Layout::GzipPerRecord,
        20_000,
        3,
    );
    let out = dir.path().join("out");
    let (code, stderr) = scan(&[
        junk.to_str().unwrap(),
        missing.to_str().unwrap(),
        &good,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "repcensus: {}: no WARC or ARC record found",
            junk.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("repcensus: {}:", missing.display())),
        "{stderr}"
    );
    let inputs = table_rows(&out, "inputs", &[]);
    assert_eq!(inputs.len(), 3);
    assert_eq!(
        inputs
            .iter()
            .filter(|r| r.contains("|status=failed|"))
            .count(),
        2
    );
    assert_eq!(count_where(&out, "errors", "not_an_archive"), 1);
    assert_eq!(count_where(&out, "errors", "cannot_open"), 1);
    // The good input was still read.
    assert!(count_where(&out, "robots_files", "good.warc.gz") > 0);
}

#[test]
fn usage_and_output_errors_exit_two() {
    let (code, _) = scan(&["samples"]);
    assert_eq!(code, 2, "missing --out is a usage error");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"x").unwrap();
    let samples = repo().join("samples");
    let (code, stderr) = scan(&[
        samples.to_str().unwrap(),
        "--out",
        file.join("sub").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "an output folder that cannot be made: {stderr}");
}

/// Nothing to scan, or nowhere to write, is said before anything is read or written: a glob
/// that matches nothing, a folder without archives, `--out` naming a file, a `--summary` that
/// cannot be written. Each exits 2 and leaves no output folder.
#[test]
fn no_inputs_and_unwritable_outputs_exit_two_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"x").unwrap();
    let sample = repo().join("samples/verdict-cases.warc.gz");
    let sample = sample.to_str().unwrap();
    let nomatch = dir.path().join("nothing-*.warc.gz");
    let cases: [(Vec<&str>, &str); 4] = [
        (
            vec![nomatch.to_str().unwrap()],
            "the pattern matches no file",
        ),
        (vec![empty.to_str().unwrap()], "no archive in this folder"),
        (
            vec![sample, "--summary", "/nonexistent/s.json"],
            "--summary /nonexistent/s.json: cannot be written",
        ),
        (
            vec![sample, "--out", file.to_str().unwrap()],
            "is a file, not a folder",
        ),
    ];
    for (args, said) in cases {
        let mut all = args.clone();
        if !all.contains(&"--out") {
            all.extend(["--out", out.to_str().unwrap()]);
        }
        let (code, stderr) = scan(&all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

/// `--threads 0` (and `-j 0`) means every core, as leaving it out does.
#[test]
fn zero_threads_means_every_core() {
    let dir = tempfile::tempdir().unwrap();
    let sample = repo().join("samples/verdict-cases.warc.gz");
    let mut tables = Vec::new();
    for (name, threads) in [("zero", "0"), ("one", "1")] {
        let out = dir.path().join(name);
        let (code, stderr) = scan(&[
            sample.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-j",
            threads,
        ]);
        assert_eq!(code, 0, "{stderr}");
        tables.push(table_rows(&out, "robots_files", &[]));
    }
    assert_eq!(tables[0].len(), 22);
    assert_eq!(tables[0], tables[1]);
}

/// The summary of a run with errors rows names the query that says which and where.
#[test]
fn a_summary_with_errors_names_the_errors_query() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = repo().join("samples/signal-cases.warc.gz");
    let run = bin()
        .arg("scan")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("errors        1 (which, where: queries/errors_by_input.sql)"),
        "{stderr}"
    );
}

/// On a terminal (util-linux's `script` gives one) the progress bar counts bytes in MB, as the
/// summary does, and says the inputs done of all and the input being read.
#[test]
fn the_progress_bar_says_inputs_done_and_counts_in_mb() {
    let dir = tempfile::tempdir().unwrap();
    let a = repo().join("samples/verdict-cases.warc.gz");
    let b = repo().join("samples/redirect-cases.warc.gz");
    let command = format!(
        "{} scan {} {} --out {} -j 1",
        env!("CARGO_BIN_EXE_repcensus"),
        a.display(),
        b.display(),
        dir.path().join("out").display()
    );
    let run = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("COLUMNS", "200")
        .output()
        .expect("script (util-linux)");
    let tty = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{tty}");
    assert!(tty.contains(" of 2 inputs done; reading "), "{tty}");
    assert!(tty.contains(" MB") && !tty.contains("MiB"), "{tty}");
    assert!(tty.contains("read          0.0 MB of archives"), "{tty}");
}

/// `scan --help` gives examples, every table's name, remote inputs and outputs and the exit
/// codes; the top help gives the exit codes too.
#[test]
fn help_gives_examples_tables_and_exit_codes() {
    let help = |args: &[&str]| {
        let o = bin().args(args).output().unwrap();
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let scan_help = help(&["scan", "--help"]);
    for t in repcensus::Table::ALL
        .iter()
        .chain(&repcensus::Table::DERIVED)
        .map(|t| t.name())
    {
        assert!(scan_help.contains(t), "{t} not in scan --help");
    }
    for needle in [
        "Examples:",
        "--shard 3/100",
        "s3://",
        "https://",
        "Exit codes: 0",
        "@warc.paths.gz",
    ] {
        assert!(scan_help.contains(needle), "{needle} not in scan --help");
    }
    assert!(help(&["--help"]).contains("Exit codes: 0"));
    let generate = help(&["generate", "--help"]);
    for needle in ["robots-real", "--seed", "20MiB", "powers of 1000"] {
        assert!(generate.contains(needle), "{needle} not in generate --help");
    }
}

/// `generate --size` takes 2M, 2MB and 2MiB (2^20, 10^6 and 2^20 bytes per M); a bad unit is
/// a usage error.
#[test]
fn generate_sizes_take_units() {
    let dir = tempfile::tempdir().unwrap();
    let mut sizes = Vec::new();
    for size in ["2M", "2MB", "2MiB"] {
        let out = dir.path().join(format!("g-{size}.warc"));
        let o = bin()
            .args([
                "generate", "--kind", "robots", "--layout", "plain", "--size", size, "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        sizes.push(std::fs::metadata(&out).unwrap().len());
    }
    assert_eq!(sizes[0], sizes[2]);
    assert!(sizes[1] < sizes[0] && sizes[1] >= 2_000_000, "{sizes:?}");
    let o = bin()
        .args(["generate", "--size", "20XB", "--out"])
        .arg(dir.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown unit"));
}

/// Completions for each shell clap knows and the man pages come from the command's own
/// definitions.
#[test]
fn completions_and_man_pages_are_generated() {
    for shell in ["bash", "zsh", "fish"] {
        let o = bin().args(["completions", shell]).output().unwrap();
        assert!(o.status.success());
        let script = String::from_utf8(o.stdout).unwrap();
        assert!(
            script.contains("repcensus") && script.contains("tables"),
            "{shell}"
        );
    }
    let o = bin().arg("man").output().unwrap();
    assert!(o.status.success());
    let page = String::from_utf8(o.stdout).unwrap();
    assert!(
        page.contains(".TH repcensus 1") && page.contains("scan"),
        "{page}"
    );
    let dir = tempfile::tempdir().unwrap();
    let o = bin()
        .args(["man", "--out-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success());
    let scan_page = std::fs::read_to_string(dir.path().join("repcensus-scan.1")).unwrap();
    assert!(scan_page.contains("\\-\\-tables"), "{scan_page}");
}

/// Provenance differs between containers by nature (file name, offsets); everything else must not.
const PROVENANCE: &[&str] = &["warc_file", "warc_offset"];

#[test]
fn every_container_gives_identical_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mut tables = Vec::new();
    for (name, layout) in [
        ("a.warc.gz", Layout::GzipPerRecord),
        ("b.warc.gz", Layout::GzipWholeFile),
        ("c.warc", Layout::Plain),
    ] {
        let input = gen_file(dir.path(), name, GenKind::Robots, layout, 3_000_000, 11);
        let out = dir.path().join(format!("out-{name}"));
        let (code, stderr) = scan(&[
            &input,
            "--out",
            out.to_str().unwrap(),
            "--chunk-size",
            "300000",
        ]);
        assert_eq!(code, 0, "{stderr}");
        let rows = table_rows(&out, "robots_files", PROVENANCE);
        assert!(rows.len() > 2000);
        assert_eq!(table_rows(&out, "errors", &[]), Vec::<String>::new());
        tables.push(rows);
    }
    assert_eq!(tables[0], tables[1], "per-record gzip vs whole-file gzip");
    assert_eq!(tables[0], tables[2], "per-record gzip vs plain");

    // The stream containers: the plain archive compressed with zstd, bzip2 and lz4.
    let plain = std::fs::read(dir.path().join("c.warc")).unwrap();
    let streams: [(&str, Vec<u8>); 3] = [
        ("d.warc.zst", zstd::encode_all(&plain[..], 3).unwrap()),
        ("e.warc.bz2", {
            use std::io::Write;
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(&plain).unwrap();
            e.finish().unwrap()
        }),
        ("f.warc.lz4", {
            use std::io::Write;
            let mut e = lz4_flex::frame::FrameEncoder::new(Vec::new());
            e.write_all(&plain).unwrap();
            e.finish().unwrap()
        }),
    ];
    for (name, bytes) in streams {
        let input = dir.path().join(name);
        std::fs::write(&input, bytes).unwrap();
        let out = dir.path().join(format!("out-{name}"));
        let (code, stderr) = scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert_eq!(
            table_rows(&out, "robots_files", PROVENANCE),
            tables[0],
            "{name} vs per-record gzip"
        );
        assert_eq!(
            table_rows(&out, "errors", &[]),
            Vec::<String>::new(),
            "{name}"
        );
    }
}

#[test]
fn inputs_expand_from_lists_globs_and_folders() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("sub")).unwrap();
    let a = gen_file(
        &data,
        "a.warc.gz",
        GenKind::Robots,
        Layout::GzipPerRecord,
        20_000,
        1,
    );
    let b = gen_file(
        &data.join("sub"),
        "b.warc",
        GenKind::Robots,
        Layout::Plain,
        20_000,
        2,
    );
    gen_file(
        &data,
        "c.warc.gz",
        GenKind::Robots,
        Layout::GzipPerRecord,
        20_000,
        3,
    );
    std::fs::write(data.join("SOURCES.tsv"), "not an archive\n").unwrap();
    let inputs_of = |args: &[&str]| -> Vec<String> {
        let out = dir.path().join("out");
        let _ = std::fs::remove_dir_all(&out);
        let mut all = args.to_vec();
        let out_s = out.to_string_lossy().into_owned();
        all.extend(["--out", &out_s]);
        let (code, stderr) = scan(&all);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        let mut names: Vec<String> = table_rows(&out, "inputs", &[])
            .iter()
            .map(|r| {
                r.split('|')
                    .find_map(|f| f.strip_prefix("path="))
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        names.sort();
        names
    };
    // A folder: searched recursively, non-archive names skipped.
    assert_eq!(
        inputs_of(&[data.to_str().unwrap()]),
        ["a.warc.gz", "b.warc", "c.warc.gz"]
    );
    // A glob.
    let pattern = format!("{}/*.warc.gz", data.display());
    assert_eq!(inputs_of(&[&pattern]), ["a.warc.gz", "c.warc.gz"]);
    // A list with comments and a path relative to the list's folder; the same list gzipped;
    // an input named twice counts once.
    let list = data.join("paths.txt");
    std::fs::write(
        &list,
        format!("# inputs\n\n{a}\nsub/b.warc\n  # indented comment\n{a}\n"),
    )
    .unwrap();
    let list_arg = format!("@{}", list.display());
    assert_eq!(inputs_of(&[&list_arg]), ["a.warc.gz", "b.warc"]);
    let gz_list = data.join("paths.txt.gz");
    {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz_list).unwrap(),
            flate2::Compression::fast(),
        );
        e.write_all(std::fs::read(&list).unwrap().as_slice())
            .unwrap();
        e.finish().unwrap();
    }
    let gz_arg = format!("@{}", gz_list.display());
    assert_eq!(inputs_of(&[&gz_arg, &b]), ["a.warc.gz", "b.warc"]);
    // A list that cannot be read is a usage error.
    let missing = format!("@{}", dir.path().join("nope.txt").display());
    assert_eq!(
        scan(&[&missing, "--out", dir.path().join("o").to_str().unwrap()]).0,
        2
    );
}

#[test]
fn an_internal_error_fails_its_input_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // One big input cut into chunks (the panic hits each chunk) and two one-chunk inputs.
    let big = gen_file(
        dir.path(),
        "big.warc.gz",
        GenKind::Robots,
        Layout::GzipPerRecord,
        3_000_000,
        4,
    );
    let small = gen_file(
        dir.path(),
        "small.warc.gz",
        GenKind::Robots,
        Layout::GzipPerRecord,
        50_000,
        5,
    );
    let good = gen_file(
        dir.path(),
        "good.warc.gz",
        GenKind::Robots,
        Layout::GzipPerRecord,
        50_000,
        6,
    );
    for victim in ["big.warc.gz", "small.warc.gz"] {
        let out = dir.path().join(format!("out-{victim}"));
        let output = common::bin()
            .env("REPCENSUS_PANIC_ON_INPUT", victim)
            .args([
                "scan",
                "--quiet",
                &big,
                &small,
                &good,
                "--threads",
                "2",
                "--chunk-size",
                "300000",
                "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{victim}: {stderr}");
        assert!(stderr.contains("internal error"), "{stderr}");
        let inputs = table_rows(&out, "inputs", &[]);
        assert_eq!(inputs.len(), 3);
        let failed: Vec<_> = inputs
            .iter()
            .filter(|r| r.contains("|status=failed|"))
            .collect();
        assert_eq!(failed.len(), 1, "{victim}");
        assert!(failed[0].contains(victim));
        assert!(count_where(&out, "errors", "internal_error") >= 1);
        // The other inputs are complete.
        for other in ["big.warc.gz", "small.warc.gz", "good.warc.gz"]
            .iter()
            .filter(|n| **n != victim)
        {
            assert!(
                count_where(&out, "robots_files", other) > 0,
                "{other} lost after {victim} failed"
            );
            assert_eq!(count_where(&out, "robots_files", victim), 0);
        }
        assert!(!out.join(".staging").exists());
    }
}

/// Columns of `inputs` that measure the run rather than the input.
const TIMING: &[&str] = &["started", "seconds", "chunks"];

#[test]
fn one_thread_and_many_threads_give_identical_tables() {
    let dir = tempfile::tempdir().unwrap();
    let gz = gen_file(
        dir.path(),
        "big.warc.gz",
        GenKind::Robots,
        Layout::GzipPerRecord,
        6_000_000,
        5,
    );
    let plain = gen_file(
        dir.path(),
        "big.warc",
        GenKind::Robots,
        Layout::Plain,
        4_000_000,
        6,
    );
    let real = repo().join("samples/oduwsdl_ipwb__IAH-20080430204825-00000-blackbook.warc.gz");
    let broken = repo().join("samples/iipc_webarchive-commons__cz-pagesinczech.arc.gz");
    let inputs = [
        gz.as_str(),
        plain.as_str(),
        real.to_str().unwrap(),
        broken.to_str().unwrap(),
    ];
    let run = |threads: &str, chunk: &str, name: &str| {
        let out = dir.path().join(name);
        let mut args: Vec<&str> = inputs.to_vec();
        let out_s = out.to_string_lossy().into_owned();
        args.extend(["--out", &out_s, "--threads", threads, "--chunk-size", chunk]);
        let (code, stderr) = scan(&args);
        assert_eq!(code, 0, "{stderr}");
        out
    };
    let one = run("1", "1000000000", "one");
    let many = run("4", "65536", "many");
    for table in ["robots_files", "errors"] {
        let a = table_rows(&one, table, &[]);
        assert!(!a.is_empty(), "{table}");
        assert_eq!(a, table_rows(&many, table, &[]), "{table}");
    }
    assert_eq!(
        table_rows(&one, "inputs", TIMING),
        table_rows(&many, "inputs", TIMING)
    );
    // The many-thread run really did cut the files into chunks.
    let chunked = table_rows(&many, "inputs", &[]);
    for name in ["big.warc.gz", "big.warc", "blackbook.warc.gz"] {
        let row = chunked
            .iter()
            .find(|r| r.contains(&format!("{name}|")))
            .expect(name);
        assert!(!row.contains("|chunks=1|"), "{name} was not chunked: {row}");
    }
}

#[test]
fn killing_a_scan_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    for i in 0..6 {
        inputs.push(gen_file(
            dir.path(),
            &format!("in{i}.warc.gz"),
            GenKind::Robots,
            Layout::GzipPerRecord,
            4_000_000,
            i,
        ));
    }
    for (round, delay_ms) in [20u64, 80, 200, 400].into_iter().enumerate() {
        let out = dir.path().join(format!("out{round}"));
        let mut child = common::bin()
            .arg("scan")
            .arg("--quiet")
            .args(&inputs)
            .args([
                "--out",
                out.to_str().unwrap(),
                "--threads",
                "2",
                "--chunk-size",
                "200000",
            ])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        for table in ["robots_files", "errors", "inputs"] {
            for f in walk(&out.join(table)) {
                assert_eq!(
                    f.extension().and_then(|e| e.to_str()),
                    Some("parquet"),
                    "stray file {}",
                    f.display()
                );
                let file = std::fs::File::open(&f).unwrap();
                let reader =
                    parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file);
                assert!(reader.is_ok(), "partial part {}", f.display());
            }
        }
    }
}

/// `generate --out -` writes the archive to standard output (it made a file named `-`), so it
/// can be piped into a scan.
#[test]
fn generate_to_standard_output_pipes_into_a_scan() {
    let dir = tempfile::tempdir().unwrap();
    let gen = bin()
        .current_dir(dir.path())
        .args([
            "generate", "--kind", "robots", "--size", "100K", "--out", "-",
        ])
        .output()
        .unwrap();
    assert!(gen.status.success());
    assert!(!dir.path().join("-").exists());
    assert!(
        gen.stdout.starts_with(&[0x1f, 0x8b]),
        "a gzip archive on stdout"
    );
    let file = dir.path().join("g.warc.gz");
    std::fs::write(&file, &gen.stdout).unwrap();
    let out = dir.path().join("out");
    let (code, err) = scan(&[file.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
}

/// A list of many paths that all fail names the first 20 on stderr and then says the rest are
/// in the tables, even quietly (100,000 missing paths printed 99,991 lines).
#[test]
fn many_failed_inputs_are_not_each_said_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    // One archive there: with none, nothing would be written (exit 2).
    let good = gen_file(
        dir.path(),
        "good.warc.gz",
        GenKind::Robots,
        Layout::GzipPerRecord,
        20_000,
        3,
    );
    let paths: String = (0..300)
        .map(|i| format!("/nonexistent/m{i}.warc.gz\n"))
        .chain([format!("{good}\n")])
        .collect();
    std::fs::write(&list, paths).unwrap();
    let out = dir.path().join("out");
    let (code, err) = scan(&[
        &format!("@{}", list.display()),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(
        err.lines().filter(|l| l.contains("No such file")).count(),
        20,
        "{err}"
    );
    assert!(err.contains("more inputs failed"), "{err}");
    let failed = common::duck_value(
        &out,
        "select count(*) from read_parquet('inputs/*/*.parquet') where status = 'failed'",
    );
    assert_eq!(failed, "300");
}

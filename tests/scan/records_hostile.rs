//! `scan --records LIST` under hostile input: servers that redirect elsewhere, send without end,
//! ignore Range or refuse every range; lists that name FIFOs, overlapping or broken lines,
//! symlinked parts and unparseable URLs. No crash, no data lost, no request where none was
//! asked, honest exit codes.

use crate::common;

use common::servers::Server;
use common::{bin, gzip_members as members, read_summary, repo, table_rows};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

const ARCHIVE: &str = "signal-cases.warc.gz";
const OTHER: &str = "verdict-cases.warc.gz";

fn http_server(root: &Path) -> (Server, String) {
    common::servers::http_server(&repo(), root, &[])
}

/// A folder with the two sample archives.
fn served(dir: &Path) -> PathBuf {
    let root = dir.join("served");
    std::fs::create_dir_all(&root).unwrap();
    for n in [ARCHIVE, OTHER] {
        std::fs::copy(repo().join("samples").join(n), root.join(n)).unwrap();
    }
    root
}

/// A CSV list of `(archive, offset, length)`.
fn csv_list(path: &Path, lines: &[(String, u64, u64)]) {
    let mut csv = String::from("warc_filename,warc_record_offset,warc_record_length\n");
    for (n, o, l) in lines {
        csv.push_str(&format!("{n},{o},{l}\n"));
    }
    std::fs::write(path, csv).unwrap();
}

/// Every record of `name` (in `root`) as list lines, under the name `as_name`.
fn every_record(root: &Path, name: &str, as_name: &str) -> Vec<(String, u64, u64)> {
    (members(&root.join(name)).into_iter())
        .map(|(o, l)| (as_name.to_string(), o, l))
        .collect()
}

/// `repcensus scan --records list` with `more`, killed (and the test failed) after 120 s.
fn scan_records(list: &Path, out: &Path, more: &[&str]) -> Output {
    let summary = out.with_extension("json");
    let mut child = bin()
        .args(["scan", "--quiet", "--records"])
        .arg(list)
        .args(more)
        .arg("--out")
        .arg(out)
        .arg("--summary")
        .arg(summary)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("the scan hung");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// How many `robots_files` and `pages` rows a full scan of `archive` gives.
fn full_count(dir: &Path, archive: &Path) -> usize {
    let out = dir.join(format!(
        "full-{}",
        archive.file_name().unwrap().to_string_lossy()
    ));
    let st = bin()
        .args(["scan", "--quiet"])
        .arg(archive)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));
    captures(&out).len()
}

fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn errors_of(out: &Path, kind: &str) -> Vec<String> {
    (table_rows(out, "errors", &[]).into_iter())
        .filter(|r| r.contains(&format!("kind={kind}|")))
        .collect()
}

/// The `warc_offset`s of `robots_files` and `pages` rows, sorted (a record read twice shows
/// twice).
fn captures(out: &Path) -> Vec<String> {
    let mut got: Vec<String> = ["robots_files", "pages"]
        .iter()
        .flat_map(|t| table_rows(out, t, &[]))
        .map(|r| {
            let field = |name: &str| {
                r.split('|')
                    .find_map(|f| f.strip_prefix(&format!("{name}=")))
                    .unwrap_or("")
                    .to_string()
            };
            format!("{} {}", field("warc_file"), field("warc_offset"))
        })
        .collect();
    got.sort();
    got
}

#[test]
fn a_redirect_to_another_host_is_refused_with_an_errors_row_unless_the_user_opts_in() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let (_server, url) = http_server(&root);
    let mut lines = every_record(&root, ARCHIVE, &format!("redirect-other-{ARCHIVE}"));
    let to_same = every_record(&root, OTHER, &format!("redirect-same-{OTHER}"));
    lines.extend(to_same.iter().cloned());
    let list = dir.path().join("list.csv");
    csv_list(&list, &lines);

    let out = dir.path().join("out");
    let o = scan_records(&list, &out, &["--prefix", &url]);
    assert_eq!(code(&o), Some(1), "{}", stderr(&o));
    let refused = errors_of(&out, "record_not_fetched");
    let n_other = lines.len() - to_same.len();
    assert_eq!(refused.len(), n_other, "{refused:#?}");
    for r in &refused {
        assert!(
            r.contains("redirected to http://localhost:") && r.contains("records list line"),
            "{r}"
        );
    }
    // The redirect within the host is followed: its records give rows.
    let got = captures(&out);
    assert!(got.iter().all(|c| c.contains("redirect-same-")), "{got:?}");
    assert!(!got.is_empty());

    // With --range-redirects any, every record is read.
    let anywhere = dir.path().join("anywhere");
    let o = scan_records(
        &list,
        &anywhere,
        &["--prefix", &url, "--range-redirects", "any"],
    );
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(errors_of(&anywhere, "record_not_fetched").is_empty());
    assert!(captures(&anywhere)
        .iter()
        .any(|c| c.contains("redirect-other-")));
}

#[test]
fn a_206_that_never_ends_is_a_mismatch_and_the_fetcher_keeps_only_what_it_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    std::fs::copy(root.join(ARCHIVE), root.join("endless.warc.gz")).unwrap();
    let (_server, url) = http_server(&root);
    let mut lines = every_record(&root, ARCHIVE, "endless.warc.gz");
    let n_endless = lines.len();
    lines.extend(every_record(&root, OTHER, OTHER));
    let list = dir.path().join("list.csv");
    csv_list(&list, &lines);
    let out = dir.path().join("out");
    let o = scan_records(&list, &out, &["--prefix", &url]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let mismatched = errors_of(&out, "record_mismatch");
    // The coalesced request fails, then each record alone: every one says so.
    assert_eq!(mismatched.len(), n_endless, "{mismatched:#?}");
    assert!(mismatched[0].contains("more than the"), "{}", mismatched[0]);
    // The other archive's records are all read.
    let other = captures(&out);
    assert_eq!(
        other.len(),
        full_count(dir.path(), &root.join(OTHER)),
        "{other:?}"
    );
    let s = read_summary(&out.with_extension("json"));
    let peak = s["peak_rss_bytes"].as_u64().unwrap();
    assert!(peak < 400 << 20, "peak memory {peak} bytes");
}

#[test]
fn a_fifo_named_in_a_list_fails_its_records_at_once_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let fifo = root.join("fifo.warc.gz");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let mut lines = vec![(fifo.to_string_lossy().into_owned(), 0, 100)];
    lines.extend(every_record(
        &root,
        ARCHIVE,
        &root.join(ARCHIVE).to_string_lossy(),
    ));
    let list = dir.path().join("list.csv");
    csv_list(&list, &lines);
    let out = dir.path().join("out");
    let o = scan_records(&list, &out, &["--stall-timeout", "600"]);
    assert_eq!(code(&o), Some(1), "{}", stderr(&o));
    let lost = errors_of(&out, "record_not_fetched");
    assert_eq!(lost.len(), 1, "{lost:#?}");
    assert!(lost[0].contains("not a regular file"), "{}", lost[0]);
    assert_eq!(
        captures(&out).len(),
        full_count(dir.path(), &root.join(ARCHIVE))
    );
}

#[test]
fn a_line_past_the_end_of_its_archive_fails_alone_locally_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let (_server, url) = http_server(&root);
    let size = std::fs::metadata(root.join(ARCHIVE)).unwrap().len();
    let records = members(&root.join(ARCHIVE));
    let (last_offset, _) = *records.last().unwrap();
    let full = full_count(dir.path(), &root.join(ARCHIVE));
    for (name, prefix) in [("local", None), ("http", Some(url.as_str()))] {
        let archive = match prefix {
            Some(_) => ARCHIVE.to_string(),
            None => root.join(ARCHIVE).to_string_lossy().into_owned(),
        };
        let mut lines = every_record(&root, ARCHIVE, &archive);
        // The last record named again, running 100 bytes past the end of the archive.
        lines.push((archive.clone(), last_offset, size - last_offset + 100));
        let list = dir.path().join(format!("{name}.csv"));
        csv_list(&list, &lines);
        let out = dir.path().join(name);
        let args: Vec<&str> = prefix.map(|p| vec!["--prefix", p]).unwrap_or_default();
        let o = scan_records(&list, &out, &args);
        assert_eq!(code(&o), Some(0), "{name}: {}", stderr(&o));
        let mismatched = errors_of(&out, "record_mismatch");
        assert_eq!(mismatched.len(), 1, "{name}: {mismatched:#?}");
        assert!(mismatched[0].contains("past the end"), "{}", mismatched[0]);
        // Every intact record gives its rows, once.
        assert_eq!(captures(&out).len(), full, "{name}");
    }
}

#[test]
fn a_server_that_ignores_range_or_refuses_every_range_fails_the_input_and_resume_reads_it_later() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let (_server, url) = http_server(&root);
    // A record past the first 64 MiB of its archive: not cut out of a whole-file answer.
    let big = root.join("big.warc.gz");
    let pad = 65u64 << 20;
    {
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(pad).unwrap();
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().append(true).open(&big).unwrap();
        f.write_all(&std::fs::read(root.join(ARCHIVE)).unwrap())
            .unwrap();
    }
    let mut lines: Vec<(String, u64, u64)> = (members(&root.join(ARCHIVE)).into_iter())
        .map(|(o, l)| ("big.warc.gz".to_string(), pad + o, l))
        .collect();
    lines.extend(every_record(&root, OTHER, OTHER));
    let list = dir.path().join("list.csv");
    csv_list(&list, &lines);
    let want = dir.path().join("want");
    std::fs::write(root.join("_faults"), "").unwrap();
    let o = scan_records(&list, &want, &["--prefix", &url]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let want = captures(&want);
    let (n_archive, n_other) = (
        full_count(dir.path(), &root.join(ARCHIVE)),
        full_count(dir.path(), &root.join(OTHER)),
    );
    assert_eq!(want.len(), n_archive + n_other);

    for fault in ["norange", "refuse416"] {
        std::fs::write(root.join("_faults"), fault).unwrap();
        let out = dir.path().join(fault);
        let o = scan_records(&list, &out, &["--prefix", &url]);
        assert_eq!(code(&o), Some(1), "{fault}: {}", stderr(&o));
        let inputs = table_rows(&out, "inputs", common::TIMING);
        assert!(
            inputs[0].contains("status=failed"),
            "{fault}: {}",
            inputs[0]
        );
        let got = captures(&out);
        if fault == "norange" {
            // The small archive's records are cut out of its whole-file answers.
            assert!(got.iter().all(|c| c.contains(OTHER)), "{got:?}");
            assert_eq!(got.len(), n_other);
        } else {
            assert!(got.is_empty(), "{got:?}");
        }
        assert!(errors_of(&out, "record_mismatch").is_empty());
        // The server mends: --resume reads every record.
        std::fs::write(root.join("_faults"), "").unwrap();
        let o = scan_records(&list, &out, &["--prefix", &url, "--resume"]);
        assert_eq!(code(&o), Some(0), "{fault}: {}", stderr(&o));
        assert_eq!(captures(&out), want, "{fault}");
    }
}

#[test]
fn overlapping_lines_give_each_record_once_and_no_file_contents_reach_errors() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let archive = root.join(ARCHIVE).to_string_lossy().into_owned();
    let records = members(&root.join(ARCHIVE));
    let mut lines = every_record(&root, ARCHIVE, &archive);
    // Records 3 and 4 named again as one line.
    let (o3, l3) = records[3];
    lines.push((archive.clone(), o3, l3 + records[4].1));
    // A local file that is no archive: its bytes never reach an errors row.
    let secret = root.join("secret.txt");
    std::fs::write(&secret, "password=hunter2 and more text").unwrap();
    lines.push((secret.to_string_lossy().into_owned(), 0, 20));
    let list = dir.path().join("list.csv");
    csv_list(&list, &lines);
    let out = dir.path().join("out");
    let o = scan_records(&list, &out, &[]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let got = captures(&out);
    let mut once = got.clone();
    once.dedup();
    assert_eq!(got, once, "a record read twice");
    assert_eq!(got.len(), full_count(dir.path(), &root.join(ARCHIVE)));
    let mismatched = errors_of(&out, "record_mismatch");
    assert_eq!(mismatched.len(), 2, "{mismatched:#?}");
    assert!(mismatched.iter().any(|r| r.contains("overlap")));
    let all = table_rows(&out, "errors", &[]).join("\n");
    assert!(
        !all.contains("hunter2") && !all.contains("password"),
        "{all}"
    );
}

#[test]
fn a_bad_list_line_is_an_errors_row_and_the_rest_of_the_list_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let archive = root.join(ARCHIVE).to_string_lossy().into_owned();
    let records = members(&root.join(ARCHIVE));
    // CSV: a Latin-1 byte in a column the list does not use, one in the archive's name, and
    // a URL that cannot be parsed (never retried).
    let mut csv = b"url,warc_filename,warc_record_offset,warc_record_length\n".to_vec();
    for (k, (o, l)) in records.iter().enumerate() {
        let url: &[u8] = if k == 2 {
            b"http://caf\xe9/"
        } else {
            b"http://x/"
        };
        csv.extend_from_slice(url);
        csv.extend_from_slice(format!(",{archive},{o},{l}\n").as_bytes());
    }
    csv.extend_from_slice(b"http://x/,caf\xe9.warc.gz,0,10\n");
    csv.extend_from_slice(b"http://x/,http://[::1/x.warc.gz,0,10\n");
    let list = dir.path().join("list.csv");
    std::fs::write(&list, csv).unwrap();
    let out = dir.path().join("csv");
    let o = scan_records(&list, &out, &[]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let full = full_count(dir.path(), &root.join(ARCHIVE));
    assert_eq!(captures(&out).len(), full);
    let bad = errors_of(&out, "bad_list_line");
    assert_eq!(bad.len(), 2, "{bad:#?}");
    let n = records.len();
    assert!(
        bad.iter()
            .any(|r| r.ends_with(&format!("list_line={}", n + 1))),
        "{bad:#?}"
    );
    assert!(
        bad.iter()
            .any(|r| r.ends_with(&format!("list_line={}", n + 2))),
        "{bad:#?}"
    );
    let s = read_summary(&out.with_extension("json"));
    assert_eq!(s["fetch"]["retries"].as_u64(), Some(0), "{s}");

    // JSON lines: one broken line, one that is not an object.
    let mut json = String::new();
    for (k, (o, l)) in records.iter().enumerate() {
        if k == 1 {
            json.push_str("{\"filename\": \"x.warc.gz\", \"offset\": 1\n");
            json.push_str("[1, 2]\n");
        }
        json.push_str(&format!(
            "{{\"filename\": \"{archive}\", \"offset\": {o}, \"length\": {l}}}\n"
        ));
    }
    let list = dir.path().join("list.jsonl");
    std::fs::write(&list, json).unwrap();
    let out = dir.path().join("json");
    let o = scan_records(&list, &out, &[]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert_eq!(captures(&out).len(), full);
    let bad = errors_of(&out, "bad_list_line");
    assert_eq!(bad.len(), 2, "{bad:#?}");
    assert!(bad.iter().any(|r| r.ends_with("list_line=2")));
    assert!(bad.iter().any(|r| r.ends_with("list_line=3")));
}

#[test]
fn a_folder_list_follows_symlinked_parts_and_names_a_broken_link() {
    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let archive = root.join(ARCHIVE).to_string_lossy().into_owned();
    let records = members(&root.join(ARCHIVE));
    let elsewhere = dir.path().join("elsewhere");
    let parts = dir.path().join("parts");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(&parts).unwrap();
    for (k, chunk) in records.chunks(records.len().div_ceil(3)).enumerate() {
        let batch = RecordBatch::try_from_iter([
            (
                "warc_filename",
                std::sync::Arc::new(StringArray::from(vec![archive.as_str(); chunk.len()]))
                    as ArrayRef,
            ),
            (
                "warc_record_offset",
                std::sync::Arc::new(Int64Array::from_iter_values(
                    chunk.iter().map(|r| r.0 as i64),
                )),
            ),
            (
                "warc_record_length",
                std::sync::Arc::new(Int64Array::from_iter_values(
                    chunk.iter().map(|r| r.1 as i64),
                )),
            ),
        ])
        .unwrap();
        // The second part lives elsewhere, linked into the folder.
        let at = if k == 1 { &elsewhere } else { &parts };
        let path = at.join(format!("data_{k}.parquet"));
        let f = std::fs::File::create(&path).unwrap();
        let mut w = parquet::arrow::ArrowWriter::try_new(f, batch.schema(), None).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        if k == 1 {
            std::os::unix::fs::symlink(&path, parts.join("data_1.parquet")).unwrap();
        }
    }
    std::os::unix::fs::symlink(
        dir.path().join("gone.parquet"),
        parts.join("data_9.parquet"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = scan_records(&parts, &out, &[]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert_eq!(
        captures(&out).len(),
        full_count(dir.path(), &root.join(ARCHIVE))
    );
    let bad = errors_of(&out, "bad_list_line");
    assert_eq!(bad.len(), 1, "{bad:#?}");
    assert!(bad[0].contains("data_9.parquet"), "{}", bad[0]);
}

#[test]
fn a_full_and_a_targeted_scan_of_the_same_records_into_one_folder_say_their_rows_are_there_twice() {
    let dir = tempfile::tempdir().unwrap();
    let root = served(dir.path());
    let archive = root.join(ARCHIVE).to_string_lossy().into_owned();
    let list = dir.path().join("list.csv");
    csv_list(&list, &every_record(&root, ARCHIVE, &archive));
    let whole = |out: &Path, what: &str| -> Output {
        bin()
            .args(["scan", "--quiet", what])
            .arg("--out")
            .arg(out)
            .output()
            .unwrap()
    };
    // Whole, then by record.
    let out = dir.path().join("a");
    common::assert_ok(&whole(&out, &archive));
    let o = scan_records(&list, &out, &[]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("twice") && stderr(&o).contains(ARCHIVE),
        "{}",
        stderr(&o)
    );
    let s = read_summary(&out.with_extension("json"));
    assert_eq!(s["warnings"].as_array().unwrap().len(), 1, "{s}");
    // By record, then whole.
    let out = dir.path().join("b");
    let o = scan_records(&list, &out, &[]);
    assert!(!stderr(&o).contains("twice"), "{}", stderr(&o));
    let o = whole(&out, &archive);
    common::assert_ok(&o);
    assert!(
        stderr(&o).contains("twice") && stderr(&o).contains(ARCHIVE),
        "{}",
        stderr(&o)
    );
    // The same scan again (it replaces its own parts) and another archive: no word.
    let o = whole(&out, &root.join(OTHER).to_string_lossy());
    assert!(!stderr(&o).contains("twice"), "{}", stderr(&o));
    let o = scan_records(&list, &out, &[]);
    assert!(stderr(&o).contains("twice"), "{}", stderr(&o));
    let c = dir.path().join("c");
    scan_records(&list, &c, &[]);
    let o = scan_records(&list, &c, &[]);
    assert!(!stderr(&o).contains("twice"), "{}", stderr(&o));
}

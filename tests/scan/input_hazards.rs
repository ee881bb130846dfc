//! Inputs that change or are not plain files: an archive truncated while it is scanned, pipes
//! and devices, names that collide, an output folder inside the scanned one. Each keeps every
//! row it can and says what happened in `errors` and `inputs`; the run goes on.

use crate::common;

use common::{bin, duck_value, repo};
use std::path::Path;

fn sample_copy(dir: &Path, name: &str) -> String {
    let to = dir.join(name);
    std::fs::copy(repo().join("samples/real-robots.warc.gz"), &to).unwrap();
    to.to_str().unwrap().to_string()
}

/// `(kind, warc_offset)` of the errors rows of the inputs whose `warc_file` is `like`, in offset
/// order.
fn errors_of(out: &Path, like: &str) -> Vec<String> {
    let sql = format!(
        "select string_agg(kind || '@' || warc_offset, ' ' order by warc_offset, kind) \
         from read_parquet('errors/*/*.parquet') where warc_file like '{like}'"
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
            errors_of(&out, "%/victim.warc.gz"),
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

/// Every table's rows of one scan, without the columns that name the input's location.
fn located_rows(out: &Path) -> Vec<String> {
    let skip = [
        "warc_file",
        "path",
        "input_id",
        "started",
        "seconds",
        "chunks",
    ];
    common::TABLES
        .iter()
        .chain(&["inputs"])
        .flat_map(|t| {
            common::table_rows(out, t, &skip)
                .into_iter()
                .map(move |r| format!("{t}: {r}"))
        })
        .collect()
}

fn scan_into(out: &Path, args: &[&str]) -> (i32, String) {
    let mut all = args.to_vec();
    let out = out.to_str().unwrap();
    all.extend(["--out", out]);
    common::scan(&all)
}

#[test]
fn standard_input_and_fifos_are_read_as_streams_and_give_the_local_files_rows() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let file = sample_copy(dir.path(), "local.warc.gz");
    let bytes = std::fs::read(&file).unwrap();
    let local = dir.path().join("local");
    assert_eq!(scan_into(&local, &[&file]).0, 0);
    let want = located_rows(&local);
    assert!(want.len() > 520);

    // `-`: standard input, a pipe.
    let piped = dir.path().join("piped");
    let mut child = bin()
        .args(["scan", "-q", "-", "--out"])
        .arg(&piped)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    assert!(child.wait().unwrap().success());
    writer.join().unwrap().unwrap();
    assert_eq!(located_rows(&piped), want);
    let path = duck_value(
        &piped,
        "select path || ' ' || bytes from read_parquet('inputs/*/*.parquet')",
    );
    assert_eq!(path, "- 588774");

    // A FIFO whose writer comes a little later.
    let fifo = dir.path().join("pipe.warc.gz");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let (fifo_w, file_r) = (fifo.clone(), file.clone());
    let writer = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        std::fs::write(&fifo_w, std::fs::read(file_r).unwrap())
    });
    let via_fifo = dir.path().join("fifo");
    let (code, err) = scan_into(
        &via_fifo,
        &[fifo.to_str().unwrap(), "--stall-timeout", "20"],
    );
    writer.join().unwrap().unwrap();
    assert_eq!(code, 0, "{err}");
    assert_eq!(located_rows(&via_fifo), want);
}

#[test]
fn a_fifo_without_writer_a_stalled_pipe_and_a_device_end_with_errors_rows_and_the_run_goes_on() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let good = sample_copy(dir.path(), "good.warc.gz");
    let fifo = dir.path().join("nobody.warc.gz");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let out = dir.path().join("out");
    let args = [
        fifo.to_str().unwrap(),
        "/dev/zero",
        &good,
        "--stall-timeout",
        "1",
    ];
    let (code, err) = scan_into(&out, &args);
    assert_eq!(code, 1, "{err}");
    let rows = duck_value(
        &out,
        "select string_agg(path || ':' || status || ':' || records, ' ' order by path) \
         from read_parquet('inputs/*/*.parquet')",
    );
    assert!(rows.starts_with("/dev/zero:failed:0 "), "{rows}");
    assert!(rows.contains("good.warc.gz:ok:520"), "{rows}");
    assert!(rows.ends_with("nobody.warc.gz:failed:0"), "{rows}");
    let details = duck_value(
        &out,
        "select string_agg(kind || ': ' || detail, ' | ' order by warc_file) \
         from read_parquet('errors/*/*.parquet')",
    );
    assert!(
        details.contains("cannot_open: a character device"),
        "{details}"
    );
    assert!(
        details.contains("cannot_open: no writer opened the FIFO within 1 s"),
        "{details}"
    );

    // A writer that sends part of an archive and then hangs without closing the pipe.
    let bytes = std::fs::read(&good).unwrap();
    let stalled = dir.path().join("stalled");
    let mut child = bin()
        .args(["scan", "-q", "-", "--stall-timeout", "1", "--out"])
        .arg(&stalled)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&bytes[..300_000]).unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        errors_of(&stalled, "-"),
        [
            "truncated_gzip@274984",
            "truncated_record@274984",
            "read_error@300000"
        ],
    );
    let records = duck_value(
        &stalled,
        "select records from read_parquet('inputs/*/*.parquet')",
    );
    assert_eq!(records, "246");
}

/// One file given by several paths (`x.warc.gz` and `./x.warc.gz`, a link to it, a folder and a
/// link to that folder) is one input: read once, its parts readable, its rows those of a scan
/// of the file alone. Before, both paths were read into one staged part and the run committed
/// corrupt Parquet and exited 2.
#[cfg(unix)]
#[test]
fn one_file_given_by_several_paths_is_read_once_and_its_parts_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    sample_copy(&dir.path().join("d"), "x.warc.gz");
    std::os::unix::fs::symlink("d", dir.path().join("link")).unwrap();
    std::os::unix::fs::symlink("d/x.warc.gz", dir.path().join("y.warc.gz")).unwrap();
    let alone = dir.path().join("alone");
    assert_eq!(
        scan_into(&alone, &[dir.path().join("d/x.warc.gz").to_str().unwrap()]).0,
        0
    );
    for (k, paths) in [
        &["d/x.warc.gz", "./d/x.warc.gz", "d//x.warc.gz"][..],
        &["d", "link"],
        &["y.warc.gz", "d/x.warc.gz", "link/x.warc.gz"],
    ]
    .into_iter()
    .enumerate()
    {
        let out = dir.path().join(format!("out{k}"));
        let run = bin()
            .current_dir(dir.path())
            .args(["scan", "-q", "-j2", "--chunk-size", "100000"])
            .args(paths)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(0), "{paths:?}: {stderr}");
        let inputs = duck_value(
            &out,
            "select count(*) from read_parquet('inputs/*/*.parquet')",
        );
        assert_eq!(inputs, "1", "{paths:?}");
        assert_eq!(located_rows(&out), located_rows(&alone), "{paths:?}");
    }
}

#[test]
fn archives_of_one_name_in_two_folders_keep_their_own_rows_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    for (folder, sample) in [("a", "real-robots.warc.gz"), ("b", "verdict-cases.warc.gz")] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        let to = dir.path().join(folder).join("same.warc.gz");
        std::fs::copy(repo().join("samples").join(sample), to).unwrap();
    }
    let out = dir.path().join("out");
    for folder in ["a", "b", "a"] {
        let input = dir.path().join(folder).join("same.warc.gz");
        assert_eq!(scan_into(&out, &[input.to_str().unwrap()]).0, 0);
    }
    let per_file = "select string_agg(n::varchar, ' ' order by f) from \
                    (select warc_file f, count(*) n from read_parquet('robots_files/*/*.parquet') group by 1)";
    let inputs = duck_value(
        &out,
        "select count(*) from read_parquet('inputs/*/*.parquet')",
    );
    assert_eq!(inputs, "2", "each path once: a rerun replaced its own rows");
    let alone = dir.path().join("alone");
    for folder in ["a", "b"] {
        let input = dir.path().join(folder).join("same.warc.gz");
        assert_eq!(scan_into(&alone, &[input.to_str().unwrap()]).0, 0);
    }
    assert_eq!(duck_value(&out, per_file), duck_value(&alone, per_file));
}

#[cfg(unix)]
#[test]
fn names_that_differ_only_in_non_utf8_bytes_get_their_own_parts_and_resume() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("in");
    std::fs::create_dir(&folder).unwrap();
    for b in [0xfeu8, 0xff] {
        let bytes = [b'x', b, b'.', b'w', b'a', b'r', b'c', b'.', b'g', b'z'];
        let name = std::ffi::OsStr::from_bytes(&bytes);
        std::fs::copy(
            repo().join("samples/real-robots.warc.gz"),
            folder.join(name),
        )
        .unwrap();
    }
    let out = dir.path().join("out");
    assert_eq!(scan_into(&out, &[folder.to_str().unwrap()]).0, 0);
    // Both inputs are whole (their lossy `warc_file` is the same text; their ids differ).
    let inputs = duck_value(
        &out,
        "select count(distinct input_id) || ' ' || sum(records) || ' ' || sum(rows_robots_files) \
         || ' ' || (select count(*) from read_parquet('robots_files/*/*.parquet')) \
         from read_parquet('inputs/*/*.parquet')",
    );
    assert_eq!(inputs, "2 1040 1038 1038");
    let parts = common::walk(&out.join("robots_files")).len();
    assert_eq!(parts, 2);
    let (code, err) = scan_into(
        &out,
        &[
            folder.to_str().unwrap(),
            "--resume",
            "--summary",
            dir.path().join("s.json").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let summary = common::read_summary(&dir.path().join("s.json"));
    assert_eq!(summary["inputs_resumed"], 2, "{summary}");
}

#[test]
fn an_output_folder_inside_the_scanned_folder_is_never_read_as_input() {
    let dir = tempfile::tempdir().unwrap();
    sample_copy(dir.path(), "one.warc.gz");
    let out = dir.path().join("out");
    let folder = dir.path().to_str().unwrap();
    for _ in 0..2 {
        assert_eq!(scan_into(&out, &[folder]).0, 0);
        let inputs = duck_value(
            &out,
            "select string_agg(path, ' ') from read_parquet('inputs/*/*.parquet')",
        );
        assert!(
            inputs.ends_with("/one.warc.gz") && !inputs.contains(' '),
            "{inputs}"
        );
    }
    let glob = format!("{folder}/*");
    assert_eq!(scan_into(&out, &[&glob]).0, 0);
    let n = duck_value(
        &out,
        "select count(*) from read_parquet('inputs/*/*.parquet')",
    );
    assert_eq!(n, "1");
}

/// A WARC of a `warcinfo` record naming its crawl `is_part_of`, then one robots.txt response.
fn warc_of_crawl(path: &Path, is_part_of: &str, host: &str) {
    let info = format!("isPartOf: {is_part_of}\r\n");
    let body = "User-agent: *\nDisallow: /x\n";
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let record = |kind: &str, ctype: &str, uri: &str, block: &str, i: u32| {
        format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\n{uri}WARC-Date: 2025-01-01T00:00:00Z\r\n\
             WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{i:012}>\r\n\
             Content-Type: {ctype}\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        )
    };
    let uri = format!("WARC-Target-URI: http://{host}/robots.txt\r\n");
    let text = record("warcinfo", "application/warc-fields", "", &info, 1)
        + &record(
            "response",
            "application/http; msgtype=response",
            &uri,
            &http,
            2,
        );
    std::fs::write(path, text).unwrap();
}

/// A `warcinfo` naming its crawl with 300 characters made a folder name too long: the run
/// ended (exit 2) without the input's rows or `robots_hosts`. The folder name is cut, two
/// long names that share their start stay apart, and `inputs.crawl_name` keeps each whole.
#[test]
fn a_crawl_name_too_long_for_a_folder_is_cut_and_kept_whole_in_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let long = "CC-MAIN-".to_string() + &"x".repeat(300);
    let names = [
        format!("{long}-a"),
        format!("{long}-b"),
        "CC-MAIN-short".into(),
    ];
    let mut inputs = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let path = dir.path().join(format!("in{k}.warc"));
        warc_of_crawl(&path, name, &format!("host{k}.example"));
        inputs.push(path.to_str().unwrap().to_string());
    }
    let out = dir.path().join("out");
    let args: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let (code, stderr) = scan_into(&out, &args);
    assert_eq!(code, 0, "{stderr}");
    let sql = format!(
        "select string_agg(length(crawl) || ':' || (crawl_name = case \
           when path like '%in0.warc' then '{}' when path like '%in1.warc' then '{}' \
           else 'CC-MAIN-short' end), ' ' order by path) from read_parquet('inputs/*/*.parquet')",
        names[0], names[1]
    );
    let rows = duck_value(&out, &sql);
    assert_eq!(rows, "120:true 120:true 13:true");
    let crawls = duck_value(
        &out,
        "select count(distinct crawl) || ' ' || count(*) from read_parquet('robots_hosts/*/*.parquet')",
    );
    assert_eq!(crawls, "3 3", "each crawl its own folder and robots_hosts");
}

/// What a folder's walk cannot read (a link to nothing, a link loop, a path longer than
/// PATH_MAX) was skipped without a word (exit 0, no row): each is now a failed input with an
/// errors row, and the archives beside them are read.
#[cfg(unix)]
#[test]
fn what_a_folder_walk_cannot_read_is_a_failed_input_not_a_silent_skip() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    std::fs::create_dir(&d).unwrap();
    sample_copy(&d, "a.warc.gz");
    std::os::unix::fs::symlink("nowhere", d.join("gone.warc.gz")).unwrap();
    std::os::unix::fs::symlink(".", d.join("loop")).unwrap();
    deep_folders(&d, 18, &"n".repeat(250));
    let out = dir.path().join("out");
    let (code, stderr) = scan_into(&out, &[d.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    let failed = duck_value(
        &out,
        "select string_agg(status || ':' || regexp_replace(path, '.*/d/(n+/)*n+$', 'd/n...') \
           .regexp_replace('.*/d/', 'd/'), ' ' order by path) \
         from read_parquet('inputs/*/*.parquet')",
    );
    assert_eq!(
        failed,
        "ok:d/a.warc.gz failed:d/gone.warc.gz failed:d/loop failed:d/n..."
    );
    let errors = duck_value(
        &out,
        "select count(*) from read_parquet('errors/*/*.parquet')",
    );
    assert_eq!(errors, "3");
}

/// `levels` nested folders named `name` in `at`, made relative to each other's descriptor
/// (`mkdirat`): the whole path is longer than one call may name.
#[cfg(unix)]
fn deep_folders(at: &Path, levels: usize, name: &str) {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &[u8]| std::ffi::CString::new(p).unwrap();
    let name = c(name.as_bytes());
    // SAFETY: plain POSIX calls on NUL-terminated names; each descriptor is closed once.
    unsafe {
        let mut fd = libc::open(c(at.as_os_str().as_bytes()).as_ptr(), libc::O_DIRECTORY);
        assert!(fd >= 0);
        for _ in 0..levels {
            assert_eq!(libc::mkdirat(fd, name.as_ptr(), 0o755), 0);
            let next = libc::openat(fd, name.as_ptr(), libc::O_DIRECTORY);
            assert!(next >= 0);
            libc::close(fd);
            fd = next;
        }
        libc::close(fd);
    }
}

/// A WARC response record of `uri` whose HTTP head is `head` and body `body`.
fn response_record(uri: &str, head: &[u8], body: &[u8]) -> Vec<u8> {
    let http = [head, body].concat();
    let warc = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
         WARC-Date: 2025-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:{}>\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        uri.len(),
        http.len()
    );
    [warc.as_bytes(), &http, b"\r\n\r\n"].concat()
}

/// An HTTP head longer than the 8 MiB of a record that is read: a robots.txt behind a 14 MB head
/// was `ok_empty` (no rules, no error) and a page with a million `X-Robots-Tag` headers kept a
/// quarter of them and lost its meta tag, both without a word. The robots.txt is now
/// `head_too_long` (verdicts `unknown`), and each gets an `http_head_too_long` errors row (and
/// the page a `page_signals_cut` one: its headers would give a third of a million rows).
#[test]
fn an_http_head_longer_than_what_is_read_is_said_not_read_as_empty() {
    let dir = tempfile::tempdir().unwrap();
    let robots_body = b"User-agent: *\nDisallow: /c\n";
    let mut head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n".to_vec();
    for i in 0..120_000 {
        head.extend(format!("X-Filler-{i}: {}\r\n", "a".repeat(100)).as_bytes());
    }
    head.extend(format!("Content-Length: {}\r\n\r\n", robots_body.len()).as_bytes());
    let page_body = b"<html><head><meta name=robots content=noindex></head></html>";
    let mut page_head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n".to_vec();
    page_head.extend(b"X-Robots-Tag: noarchive\r\n".repeat(1_000_000));
    page_head.extend(b"\r\n");
    let input = dir.path().join("heads.warc");
    std::fs::write(
        &input,
        [
            response_record("http://big.example/robots.txt", &head, robots_body),
            response_record("http://big.example/page", &page_head, page_body),
        ]
        .concat(),
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, stderr) = scan_into(&out, &[input.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let robots = duck_value(
        &out,
        "select fetch_outcome || ' ' || coalesce(n_rules::varchar, 'NULL') \
         from read_parquet('robots_files/*/*.parquet')",
    );
    assert_eq!(robots, "head_too_long NULL");
    let verdicts = duck_value(
        &out,
        &common::with_verdicts_view("select string_agg(distinct verdict, ' ') from agent_verdicts"),
    );
    assert_eq!(verdicts, "unknown");
    let errors = duck_value(
        &out,
        "select string_agg(kind || '@' || warc_offset, ' ' order by warc_offset, kind) \
         from read_parquet('errors/*/*.parquet')",
    );
    let page_at = std::fs::read(&input)
        .unwrap()
        .windows(8)
        .position(|w| w == b"WARC/1.0")
        .and_then(|_| {
            let data = std::fs::read(&input).unwrap();
            (1..data.len()).find(|&i| data[i..].starts_with(b"WARC/1.0\r\nWARC-Type"))
        })
        .unwrap();
    // The page's headers that were read (a third of a million `noarchive`) give at most
    // 1,024 page_signals rows; the rest is said.
    assert_eq!(
        errors,
        format!("http_head_too_long@0 http_head_too_long@{page_at} page_signals_cut@{page_at}")
    );
}

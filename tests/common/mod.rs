//! Helpers shared by the integration tests: running the binary, reading tables, and the real
//! DuckDB CLI (installed from PyPI into target/tools when missing; the tests fail, never skip,
//! when it cannot be had).
#![allow(dead_code)]

pub mod corpus;
pub mod pack;
pub mod pip;
pub mod servers;
pub mod sink;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub const DUCKDB_CLI_VERSION: &str = "1.5.6";

/// The tables an input of a default scan writes parts of, besides `inputs` (not those written
/// only on request, `repcensus::Table::ON_REQUEST`).
pub const TABLES: &[&str] = &{
    use repcensus::Table;
    let mut names = [""; Table::OF_INPUT.len() - Table::ON_REQUEST.len()];
    let (mut i, mut k) = (0, 0);
    while i < Table::OF_INPUT.len() {
        let t = Table::OF_INPUT[i];
        let mut on_request = false;
        let mut j = 0;
        while j < Table::ON_REQUEST.len() {
            on_request |= Table::ON_REQUEST[j] as u32 == t as u32;
            j += 1;
        }
        if !on_request {
            names[k] = t.name();
            k += 1;
        }
        i += 1;
    }
    names
};
/// Columns of `inputs` that differ between runs.
pub const TIMING: &[&str] = &["started", "seconds", "chunks"];

/// A `--summary` JSON file.
pub fn read_summary(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("summary written"))
        .expect("summary is JSON")
}

/// Assert a command exited 0, showing its stderr when not.
pub fn assert_ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_repcensus"))
}

/// The binary with the DuckDB command as the engine of `repcensus query` (which otherwise
/// takes what the machine has: a test must not depend on it).
pub fn bin_with_duckdb() -> Command {
    let mut c = bin();
    c.env("REPCENSUS_DUCKDB", duckdb());
    c
}

/// The samples scanned once per test binary, from the repository's root (relative input paths,
/// so `warc_file` values and the expected answers do not depend on where the repository is):
/// the output folder, kept until the binary ends.
pub fn sample_tables() -> &'static Path {
    static OUT: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &OUT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let status = bin()
            .current_dir(repo())
            .args(["scan", "--quiet", "samples", "--out"])
            .arg(&out)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(0));
        (dir, out)
    })
    .1
}

/// Run `repcensus report` of `tables` into the page `html`, with `extra` arguments.
pub fn report(tables: &Path, html: &Path, extra: &[&str]) -> std::process::Output {
    bin()
        .arg("report")
        .arg(tables)
        .arg("--out")
        .arg(html)
        .args(extra)
        .output()
        .expect("run repcensus")
}

/// Run `repcensus scan` with the given arguments; returns the exit code and stderr.
pub fn scan(args: &[&str]) -> (i32, String) {
    let out = bin()
        .arg("scan")
        .arg("--quiet")
        .args(args)
        .output()
        .expect("run repcensus");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The DuckDB CLI: $REPCENSUS_DUCKDB, else the pinned PyPI build in target/tools, installed on
/// first use. Panics (the test fails) when none can be had.
pub fn duckdb() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Ok(p) = std::env::var("REPCENSUS_DUCKDB") {
            return PathBuf::from(p);
        }
        let tools = repo().join("target").join("tools");
        let exe = tools.join("duckdb_cli").join("duckdb");
        if !exe.exists() {
            let spec = format!("duckdb-cli=={DUCKDB_CLI_VERSION}");
            assert!(
                pip::install(&tools, &[&spec]) && exe.exists(),
                "could not install the DuckDB CLI (pip install duckdb-cli=={DUCKDB_CLI_VERSION}); the query tests need it"
            );
        }
        exe
    })
}

/// A Python package from PyPI, installed with pip into `target/tools/<dir>` on first use (the
/// tests fail, never skip, when it cannot be had); returns the folder, for PYTHONPATH.
pub fn python_tool(dir: &str, specs: &[&str], probe: &str) -> PathBuf {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let tools = repo().join("target").join("tools").join(dir);
    if !tools.join(probe).exists() {
        assert!(
            pip::install(&tools, specs) && tools.join(probe).exists(),
            "could not install {specs:?} from PyPI; the tests need it"
        );
    }
    tools
}

/// Run SQL with DuckDB in `dir`, returning CSV output (header included), after the macros of
/// queries/views/vocabulary.sql (as `repcensus query` runs a SQL file of one's own).
pub fn duck(dir: &Path, sql: &str) -> String {
    let vocabulary = std::fs::read_to_string(repo().join("queries/views/vocabulary.sql")).unwrap();
    let out = Command::new(duckdb())
        .current_dir(dir)
        .args(["-csv", "-c", &vocabulary, "-c", sql])
        .output()
        .expect("run duckdb");
    assert!(
        out.status.success(),
        "duckdb failed on {sql}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `sql` after the statements of `queries/views/agent_verdicts.sql`, which make the view
/// `agent_verdicts` from the tables a default scan writes (the CLI's `-c` takes no `.read`
/// before other statements).
pub fn with_verdicts_view(sql: &str) -> String {
    let view = std::fs::read_to_string(repo().join("queries/views/agent_verdicts.sql")).unwrap();
    format!("{view}\n{sql}")
}

/// An archive of each kind `repcensus generate` makes (`size`, as `--size` takes it) in `dir`,
/// their paths.
pub fn generated_archives(dir: &Path, size: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for kind in ["robots", "robots-real", "pages", "cc-pages"] {
        let path = dir.join(format!("{kind}.warc.gz"));
        let done = bin()
            .current_dir(repo())
            .args(["generate", "--kind", kind, "--size", size, "--out"])
            .arg(&path)
            .output()
            .unwrap();
        assert_ok(&done);
        paths.push(path.to_str().unwrap().to_string());
    }
    paths
}

/// A single value from DuckDB.
pub fn duck_value(dir: &Path, sql: &str) -> String {
    let out = duck(dir, sql);
    out.lines().nth(1).unwrap_or_default().to_string()
}

/// Every row of every part of `table` under `out`, as sorted text lines, without the columns
/// named in `skip`. Read with the parquet crate, so the comparison does not depend on DuckDB.
pub fn table_rows(out: &Path, table: &str, skip: &[&str]) -> Vec<String> {
    use arrow_array::RecordBatch;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let mut rows = Vec::new();
    let dir = out.join(table);
    if !dir.exists() {
        return rows;
    }
    let mut files: Vec<PathBuf> = walk(&dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    for f in files {
        let file = std::fs::File::open(&f).expect("open part");
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .expect("parquet")
            .build()
            .expect("reader");
        for batch in reader {
            let batch: RecordBatch = batch.expect("batch");
            let schema = batch.schema();
            for r in 0..batch.num_rows() {
                let mut line = Vec::new();
                for (c, field) in schema.fields().iter().enumerate() {
                    if skip.contains(&field.name().as_str()) {
                        continue;
                    }
                    let v = arrow_cast_display(batch.column(c), r);
                    line.push(format!("{}={v}", field.name()));
                }
                rows.push(line.join("|"));
            }
        }
    }
    rows.sort();
    rows
}

fn arrow_cast_display(col: &arrow_array::ArrayRef, row: usize) -> String {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int32Type, Int64Type, TimestampMicrosecondType};
    use arrow_array::Array;
    use arrow_schema::DataType;
    if col.is_null(row) {
        return "NULL".into();
    }
    match col.data_type() {
        DataType::Utf8 => col.as_string::<i32>().value(row).to_string(),
        DataType::Int64 => col.as_primitive::<Int64Type>().value(row).to_string(),
        DataType::Int32 => col.as_primitive::<Int32Type>().value(row).to_string(),
        DataType::Float64 => col.as_primitive::<Float64Type>().value(row).to_string(),
        DataType::Boolean => col.as_boolean().value(row).to_string(),
        DataType::Timestamp(_, _) => col
            .as_primitive::<TimestampMicrosecondType>()
            .value(row)
            .to_string(),
        DataType::List(_) => {
            let l = col.as_list::<i32>().value(row);
            let s = l.as_string::<i32>();
            let items: Vec<&str> = (0..s.len()).map(|i| s.value(i)).collect();
            format!("[{}]", items.join(", "))
        }
        other => panic!("no display for {other}"),
    }
}

/// Every file under `dir` but the tables' files with no rows (`crawl=_schema/_schema.parquet`,
/// which every scan writes): the parts and what else a run left.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else if !(p.ends_with("crawl=_schema/_schema.parquet")
                || p.ends_with("list=_schema/_schema.parquet"))
            {
                out.push(p);
            }
        }
    }
    out
}

/// Does the table have a part (a file other than its file with no rows) under `out`?
pub fn has_parts(out: &Path, table: &str) -> bool {
    !walk(&out.join(table)).is_empty()
}

/// Headless Chromium: $REPCENSUS_CHROMIUM, else Debian's `chromium` package, installed with
/// apt-get on first use when missing (the test setup runs as root, as CI does). Panics (the test
/// fails) when none can be had.
pub fn chromium() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Ok(p) = std::env::var("REPCENSUS_CHROMIUM") {
            return PathBuf::from(p);
        }
        let exe = PathBuf::from("/usr/bin/chromium");
        if !exe.exists() {
            assert!(
                apt_install("chromium"),
                "could not install Debian's chromium (apt-get install chromium); the report test needs it"
            );
        }
        exe
    })
}

/// Install a Debian package with apt-get (the test setup runs as root, as CI does); whether it
/// went.
pub fn apt_install(package: &str) -> bool {
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    apt(&["update", "-qq"]) && apt(&["install", "-y", "-qq", package])
}

/// A WARC file of robots.txt responses, one per `(host, body)`, captured at `date`.
pub fn robots_warc(path: &Path, date: &str, files: &[(&str, &str)]) {
    let files: Vec<_> = files.iter().map(|&(h, b)| (h, "200 OK", b)).collect();
    robots_warc_with_status(path, date, &files);
}

/// As [`robots_warc`], each robots.txt with its status line (`"503 Service Unavailable"`).
pub fn robots_warc_with_status(path: &Path, date: &str, files: &[(&str, &str, &str)]) {
    let responses: Vec<(String, &str, &str, &str)> = (files.iter())
        .map(|&(host, status, body)| {
            (
                format!("http://{host}/robots.txt"),
                status,
                "text/plain",
                body,
            )
        })
        .collect();
    let responses: Vec<_> = (responses.iter())
        .map(|(u, s, t, b)| (u.as_str(), *s, *t, *b))
        .collect();
    responses_warc(path, date, &responses);
}

/// A WARC of `response` records, each (URL, status line, media type, body).
pub fn responses_warc(path: &Path, date: &str, responses: &[(&str, &str, &str, &str)]) {
    let responses: Vec<Response<'_>> = (responses.iter())
        .map(|&(url, status, media_type, body)| Response {
            url,
            status,
            headers: format!("Content-Type: {media_type}\r\n"),
            body: body.as_bytes(),
        })
        .collect();
    http_warc(path, date, &responses);
}

/// One `response` record of [`http_warc`]: its URL, status line, header lines (each ending in
/// CRLF; `Content-Length` is added) and body.
pub struct Response<'a> {
    pub url: &'a str,
    pub status: &'a str,
    pub headers: String,
    pub body: &'a [u8],
}

/// A WARC of `response` records captured at `date`; returns each record's offset.
pub fn http_warc(path: &Path, date: &str, responses: &[Response<'_>]) -> Vec<u64> {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for (i, r) in responses.iter().enumerate() {
        offsets.push(out.len() as u64);
        let mut http = format!(
            "HTTP/1.1 {}\r\n{}Content-Length: {}\r\n\r\n",
            r.status,
            r.headers,
            r.body.len()
        )
        .into_bytes();
        http.extend_from_slice(r.body);
        out.extend_from_slice(
            format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {}\r\n\
                 WARC-Date: {date}\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{i:012}>\r\n\
                 Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
                r.url,
                http.len()
            )
            .as_bytes(),
        );
        out.extend_from_slice(&http);
        out.extend_from_slice(b"\r\n\r\n");
    }
    std::fs::write(path, out).unwrap();
    offsets
}

/// Every record of a per-record `.warc.gz`: each gzip member's offset and length (a records
/// list as Common Crawl's index gives it).
pub fn gzip_members(path: &Path) -> Vec<(u64, u64)> {
    let data = std::fs::read(path).unwrap();
    let mut rest: &[u8] = &data;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let offset = (data.len() - rest.len()) as u64;
        let mut d = flate2::bufread::GzDecoder::new(&mut rest);
        std::io::copy(&mut d, &mut std::io::sink()).unwrap();
        drop(d);
        out.push((offset, data.len() as u64 - rest.len() as u64 - offset));
    }
    out
}

/// The section names of a 64-bit little-endian ELF file.
pub fn elf_sections(elf: &[u8]) -> Vec<String> {
    assert_eq!(
        &elf[..6],
        b"\x7fELF\x02\x01",
        "a 64-bit little-endian ELF file"
    );
    let u16_at = |i: usize| u16::from_le_bytes(elf[i..i + 2].try_into().unwrap()) as usize;
    let u32_at = |i: usize| u32::from_le_bytes(elf[i..i + 4].try_into().unwrap()) as usize;
    let u64_at = |i: usize| u64::from_le_bytes(elf[i..i + 8].try_into().unwrap()) as usize;
    let (table, size, count, names) = (u64_at(0x28), u16_at(0x3a), u16_at(0x3c), u16_at(0x3e));
    let header = |k: usize| table + k * size;
    let strings = u64_at(header(names) + 0x18);
    (0..count)
        .map(|k| {
            let name = &elf[strings + u32_at(header(k))..];
            String::from_utf8_lossy(&name[..name.iter().position(|&b| b == 0).unwrap()])
                .into_owned()
        })
        .collect()
}

/// moto's S3 server from PyPI (`moto[server]` installed into target/tools on first use): the
/// server, its endpoint URL and the tools folder (for PYTHONPATH: boto3
/// comes with it).
pub fn moto_server() -> (servers::Server, String, std::path::PathBuf) {
    let tools = python_tool("moto", &[MOTO], "moto");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = std::process::Command::new("python3")
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .env("PYTHONPATH", &tools)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("moto");
    let server = servers::Server(child);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(std::time::Instant::now() < deadline, "moto did not start");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    (server, format!("http://127.0.0.1:{port}"), tools)
}

/// The moto release the S3 tests run against.
pub const MOTO: &str = "moto[server]==5.2.5";

/// How each macro of queries/views/vocabulary.sql, and of a query's copy of it, begins.
pub const MACRO: &str = "CREATE OR REPLACE TEMP MACRO ";

/// A query's text before its copy of the vocabulary, the copy, and the query after it (all of
/// it, and no copy, when it has none): the copy runs from its first macro to the first line
/// after it that is not part of a macro.
pub fn vocabulary_copy(sql: &str) -> (&str, &str, &str) {
    let Some(start) = sql.find(MACRO) else {
        return (sql, "", "");
    };
    let end = (sql[start..].match_indices('\n'))
        .map(|(i, _)| start + i + 1)
        .find(|&i| {
            let line = &sql[i..];
            !(line.starts_with(' ') || line.starts_with(MACRO) || line.starts_with('}'))
        })
        .unwrap_or(sql.len());
    (&sql[..start], &sql[start..end], &sql[end..])
}

/// A bundled query's answer as a subquery of `outer` (which says `{}` where it goes): its last
/// statement, after its copy of the vocabulary (which [`duck`] defines first).
pub fn around(sql: &str, outer: &str) -> String {
    let query = match vocabulary_copy(sql) {
        (whole, "", _) => whole,
        (_, _, after) => after,
    };
    outer.replace("{}", query.trim().trim_end_matches(';'))
}

//! `scan --records LIST`: the records a study selected, read from the list an index query wrote
//! (Common Crawl's columnar index, `cc-index-table`, or its CDX API), and cut into the targeted
//! inputs the scan reads.
//!
//! A list names each record by its archive, offset and length: the columnar index's
//! `warc_filename`, `warc_record_offset`, `warc_record_length`, or the CDX API's `filename`,
//! `offset`, `length` (numbers or, as the CDX API writes them, strings of digits). It is a
//! Parquet file, a folder of Parquet parts (as DuckDB's `COPY ... TO 'dir' (FORMAT parquet,
//! PER_THREAD_OUTPUT)` writes them), a CSV file with a header line, or JSON lines; any other
//! column is ignored. A line that names no record (a missing or negative offset, a length of 0,
//! an archive URL that cannot be parsed, a CSV field or JSON line that cannot be read) is kept
//! as a [`ListedRecord`] with its problem, so the scan writes a `bad_list_line` errors row for it
//! and reads the rest; so is a part of a folder list that cannot be read (line 0, naming it).
//!
//! Which lines are read locally: an archive name that is not an `http(s)://` or `s3://` URL is
//! a path, after `--prefix` when it is relative (so a relative name with an `http(s)://` prefix
//! is fetched, and an absolute path is read from this machine whatever the prefix).

use crate::archive::source::input::with_prefix;
use anyhow::{bail, Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int16Type, Int32Type, Int64Type, UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use std::path::{Path, PathBuf};

/// One line of a records list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRecord {
    /// The line of the list that names it: 1 for the first record (a CSV file's header line is
    /// not counted; a Parquet list's rows are counted across its parts in name order).
    pub line: u64,
    /// The archive, with `--prefix` put before a relative name.
    pub archive: String,
    pub offset: u64,
    pub length: u64,
    /// Why the line names no record it can be fetched by (`None`: it does).
    pub problem: Option<String>,
}

/// The column names a list may use, the columnar index's first.
const FILE_COLUMNS: [&str; 2] = ["warc_filename", "filename"];
const OFFSET_COLUMNS: [&str; 2] = ["warc_record_offset", "offset"];
const LENGTH_COLUMNS: [&str; 2] = ["warc_record_length", "length"];

/// Records larger than this are not fetched (an `errors` row says why): the largest record a
/// Common Crawl archive holds is a few MiB; a larger length is a wrong column.
pub const MAX_RECORD_LENGTH: u64 = 1 << 30;

/// Read a records list (see the module's documentation); `prefix` is put before relative
/// archive names (`crawl-data/...`), as for `@FILE` input lists.
pub fn read(list: &Path, prefix: Option<&str>) -> Result<Vec<ListedRecord>> {
    let raw = if list.is_dir() {
        read_parquet_folder(list)?
    } else {
        let head = first_bytes(list)?;
        if head.starts_with(b"PAR1") {
            read_parquet(list, 0)?
        } else if head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
            read_json_lines(list)?
        } else {
            read_csv(list)?
        }
    };
    let base = list.parent().unwrap_or(Path::new("."));
    Ok(raw.into_iter().map(|r| r.finish(prefix, base)).collect())
}

/// A list's line as read, before its archive name is completed and its numbers checked.
struct RawRecord {
    line: u64,
    archive: Option<String>,
    offset: Option<i64>,
    length: Option<i64>,
    /// Why the line could not be read at all.
    unreadable: Option<String>,
}

impl RawRecord {
    fn unreadable(line: u64, why: String) -> Self {
        RawRecord {
            line,
            archive: None,
            offset: None,
            length: None,
            unreadable: Some(why),
        }
    }
}

impl RawRecord {
    fn finish(self, prefix: Option<&str>, base: &Path) -> ListedRecord {
        let archive = self.archive.as_deref().unwrap_or_default();
        let located = locate(archive, prefix, base);
        let problem = match (&self.archive, self.offset, self.length) {
            _ if self.unreadable.is_some() => self.unreadable,
            (None, _, _) => Some("no archive name".to_string()),
            _ if crate::archive::source::remote::is_remote(&located)
                && url::Url::parse(&located).is_err() =>
            {
                Some(format!("{located:?} is not a URL that can be fetched"))
            }
            (_, None, _) | (_, _, None) => Some("no offset or length".to_string()),
            (_, Some(o), _) if o < 0 => Some(format!("offset {o} is negative")),
            (_, _, Some(l)) if l <= 0 || l as u64 > MAX_RECORD_LENGTH => {
                Some(format!("length {l} is not that of a record"))
            }
            _ => None,
        };
        ListedRecord {
            line: self.line,
            archive: located,
            offset: self.offset.unwrap_or(0).max(0) as u64,
            length: self.length.unwrap_or(0).max(0) as u64,
            problem,
        }
    }
}

/// An archive name as the scan opens it: a URL as it is; a relative name after `prefix`, or
/// beside the list when no prefix is given and it is there.
fn locate(name: &str, prefix: Option<&str>, base: &Path) -> String {
    if name.is_empty() || crate::archive::source::remote::is_remote(name) {
        return name.to_string();
    }
    if let Some(prefix) = prefix.filter(|_| !name.starts_with('/')) {
        return with_prefix(prefix, name);
    }
    let p = PathBuf::from(name);
    if p.is_relative() && !p.exists() && base.join(&p).exists() {
        return base.join(p).to_string_lossy().into_owned();
    }
    name.to_string()
}

fn first_bytes(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut head = vec![0u8; 64];
    let mut f = std::fs::File::open(path)
        .with_context(|| format!("cannot open records list {}", path.display()))?;
    let n = f.read(&mut head)?;
    head.truncate(n);
    Ok(head)
}

/// The first of `names` that `has` a column of, or an error naming them all.
fn column_of<'n>(list: &Path, names: &[&'n str], has: impl Fn(&str) -> bool) -> Result<&'n str> {
    names.iter().copied().find(|n| has(n)).with_context(|| {
        format!(
            "records list {}: no column {}",
            list.display(),
            names.join(" or ")
        )
    })
}

fn read_csv(list: &Path) -> Result<Vec<RawRecord>> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(list)
        .with_context(|| format!("cannot open records list {}", list.display()))?;
    let headers = reader.headers()?.clone();
    let at = |names: &[&str]| -> Result<usize> {
        let name = column_of(list, names, |n| headers.iter().any(|h| h.trim() == n))?;
        Ok(headers.iter().position(|h| h.trim() == name).unwrap_or(0))
    };
    let (file, offset, length) = (
        at(&FILE_COLUMNS)?,
        at(&OFFSET_COLUMNS)?,
        at(&LENGTH_COLUMNS)?,
    );
    let mut out = Vec::new();
    // Byte records: a field this reads is checked for UTF-8 alone, so a Latin-1 byte in a
    // column it ignores costs nothing, and one in its own columns only that line.
    for (k, row) in reader.byte_records().enumerate() {
        let line = k as u64 + 1;
        let row = match row {
            Ok(r) => r,
            Err(e) if e.is_io_error() => {
                return Err(e).with_context(|| format!("records list {}", list.display()))
            }
            Err(e) => {
                out.push(RawRecord::unreadable(line, format!("not a CSV line: {e}")));
                continue;
            }
        };
        let text = |c: usize| -> Result<Option<&str>, String> {
            match row.get(c).map(std::str::from_utf8) {
                None => Ok(None),
                Some(Ok(t)) => Ok(Some(t.trim()).filter(|s| !s.is_empty())),
                Some(Err(_)) => Err(format!("field {} is not UTF-8 text", c + 1)),
            }
        };
        match (text(file), text(offset), text(length)) {
            (Ok(f), Ok(o), Ok(l)) => out.push(RawRecord {
                line,
                archive: f.map(str::to_string),
                offset: o.and_then(|s| s.parse().ok()),
                length: l.and_then(|s| s.parse().ok()),
                unreadable: None,
            }),
            (Err(why), _, _) | (_, Err(why), _) | (_, _, Err(why)) => {
                out.push(RawRecord::unreadable(line, why))
            }
        }
    }
    Ok(out)
}

fn read_json_lines(list: &Path) -> Result<Vec<RawRecord>> {
    use std::io::BufRead;
    let file = std::fs::File::open(list)
        .with_context(|| format!("cannot open records list {}", list.display()))?;
    let mut out = Vec::new();
    let mut names: Option<[&str; 3]> = None;
    for (k, line) in std::io::BufReader::new(file).split(b'\n').enumerate() {
        let line = line.with_context(|| format!("records list {}", list.display()))?;
        let n = k as u64 + 1;
        if line.trim_ascii().is_empty() {
            continue;
        }
        let obj = match serde_json::from_slice::<serde_json::Value>(&line) {
            Ok(serde_json::Value::Object(obj)) => obj,
            Ok(_) => {
                out.push(RawRecord::unreadable(n, "not a JSON object".to_string()));
                continue;
            }
            Err(e) => {
                out.push(RawRecord::unreadable(n, format!("not JSON: {e}")));
                continue;
            }
        };
        // The names of the first object hold for the list.
        let [file, offset, length] = match names {
            Some(n) => n,
            None => {
                let has = |n: &str| obj.contains_key(n);
                let n = [
                    column_of(list, &FILE_COLUMNS, has)?,
                    column_of(list, &OFFSET_COLUMNS, has)?,
                    column_of(list, &LENGTH_COLUMNS, has)?,
                ];
                *names.insert(n)
            }
        };
        let number = |n: &str| match obj.get(n) {
            Some(serde_json::Value::Number(v)) => v.as_i64(),
            Some(serde_json::Value::String(s)) => s.trim().parse().ok(),
            _ => None,
        };
        out.push(RawRecord {
            line: n,
            archive: obj.get(file).and_then(|v| v.as_str()).map(str::to_string),
            offset: number(offset),
            length: number(length),
            unreadable: None,
        });
    }
    Ok(out)
}

/// A folder of Parquet parts, read in name order, lines counted across them. Links are
/// followed; an entry that cannot be walked (a broken link, a loop) or a part that cannot be
/// read is a line of its own (numbered 0) saying so, and the other parts are read.
fn read_parquet_folder(dir: &Path) -> Result<Vec<RawRecord>> {
    let mut parts: Vec<PathBuf> = Vec::new();
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(true) {
        match entry {
            Ok(e) if e.file_type().is_file() => parts.push(e.into_path()),
            Ok(_) => {}
            Err(e) => {
                let at = e.path().map_or_else(|| dir.display(), |p| p.display());
                let why = format!("{at}: {} (the list's part is not read)", e);
                out.push(RawRecord::unreadable(0, why));
            }
        }
    }
    parts.retain(|p| p.extension().is_some_and(|x| x == "parquet"));
    parts.sort();
    if parts.is_empty() && out.is_empty() {
        bail!(
            "records list {}: no .parquet file in this folder",
            dir.display()
        );
    }
    let (mut lines, mut read_some, n_parts) = (0u64, false, parts.len());
    for p in parts {
        match read_parquet(&p, lines) {
            Ok(more) => {
                read_some = true;
                lines += more.len() as u64;
                out.extend(more);
            }
            // A list none of whose parts can be read is not a list (a wrong column, say).
            Err(e) if n_parts == 1 && !read_some => return Err(e),
            Err(e) => out.push(RawRecord::unreadable(
                0,
                format!("{e:#} (the list's part is not read)"),
            )),
        }
    }
    if !read_some && n_parts > 0 {
        bail!(
            "records list {}: none of its {n_parts} parts can be read ({})",
            dir.display(),
            out.iter()
                .find_map(|r| r.unreadable.as_deref())
                .unwrap_or("")
        );
    }
    Ok(out)
}

/// A Parquet list's records, numbered from `first + 1`.
fn read_parquet(list: &Path, first: u64) -> Result<Vec<RawRecord>> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ProjectionMask;
    let file = std::fs::File::open(list)
        .with_context(|| format!("cannot open records list {}", list.display()))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .with_context(|| format!("records list {}: not a Parquet file", list.display()))?;
    let schema = builder.schema().clone();
    let has = |n: &str| schema.field_with_name(n).is_ok();
    let names = [
        column_of(list, &FILE_COLUMNS, has)?,
        column_of(list, &OFFSET_COLUMNS, has)?,
        column_of(list, &LENGTH_COLUMNS, has)?,
    ];
    let roots: Vec<usize> = names
        .iter()
        .filter_map(|n| schema.index_of(n).ok())
        .collect();
    let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
    let reader = builder.with_projection(mask).build()?;
    let mut out = Vec::new();
    for batch in reader {
        let batch = batch.with_context(|| format!("records list {}", list.display()))?;
        let col = |n: &str| batch.column_by_name(n).cloned().context("projected column");
        let files = strings(&col(names[0])?, list, names[0])?;
        let offsets = integers(&col(names[1])?, list, names[1])?;
        let lengths = integers(&col(names[2])?, list, names[2])?;
        for ((archive, offset), length) in files.into_iter().zip(offsets).zip(lengths) {
            out.push(RawRecord {
                line: first + out.len() as u64 + 1,
                archive,
                offset,
                length,
                unreadable: None,
            });
        }
    }
    Ok(out)
}

fn strings(a: &ArrayRef, list: &Path, name: &str) -> Result<Vec<Option<String>>> {
    let values: Vec<Option<String>> = match a.data_type() {
        DataType::Utf8 => a
            .as_string::<i32>()
            .iter()
            .map(|v| v.map(str::to_string))
            .collect(),
        DataType::LargeUtf8 => a
            .as_string::<i64>()
            .iter()
            .map(|v| v.map(str::to_string))
            .collect(),
        DataType::Utf8View => a
            .as_string_view()
            .iter()
            .map(|v| v.map(str::to_string))
            .collect(),
        DataType::Dictionary(_, _) => {
            let cast = arrow_cast_to_strings(a);
            cast.with_context(|| format!("records list {}: column {name}", list.display()))?
        }
        t => bail!(
            "records list {}: column {name} is {t}, not text",
            list.display()
        ),
    };
    Ok(values)
}

/// A dictionary column of strings, value by value.
fn arrow_cast_to_strings(a: &ArrayRef) -> Option<Vec<Option<String>>> {
    let d = a.as_dictionary_opt::<Int32Type>()?;
    let values = d.values().as_string_opt::<i32>()?;
    Some(
        d.keys()
            .iter()
            .map(|k| k.map(|k| values.value(k as usize).to_string()))
            .collect(),
    )
}

/// A column of offsets or lengths: any integer type, or text of digits (as the CDX API gives
/// them).
fn integers(a: &ArrayRef, list: &Path, name: &str) -> Result<Vec<Option<i64>>> {
    Ok(match a.data_type() {
        DataType::Int64 => a.as_primitive::<Int64Type>().iter().collect(),
        DataType::Int32 => (a.as_primitive::<Int32Type>().iter())
            .map(|v| v.map(i64::from))
            .collect(),
        DataType::Int16 => (a.as_primitive::<Int16Type>().iter())
            .map(|v| v.map(i64::from))
            .collect(),
        DataType::UInt32 => (a.as_primitive::<UInt32Type>().iter())
            .map(|v| v.map(i64::from))
            .collect(),
        DataType::UInt64 => (a.as_primitive::<UInt64Type>().iter())
            .map(|v| v.and_then(|v| i64::try_from(v).ok()))
            .collect(),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Dictionary(_, _) => {
            strings(a, list, name)?
                .into_iter()
                .map(|v| v.and_then(|s| s.trim().parse().ok()))
                .collect()
        }
        t => bail!(
            "records list {}: column {name} is {t}, not an integer",
            list.display()
        ),
    })
}

/// Records a targeted input holds at most: a targeted input is a set of parts (one per table), so a list of a million records makes about
/// a hundred of them, not one per archive.
pub const BATCH_RECORDS: usize = 10_000;

/// One targeted input: records of the list of one crawl, by archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targeted {
    /// The part name (`input_id`).
    pub id: String,
    /// What `inputs.path` says: the list's file name, and the place of this input among the
    /// list's (`homepages.parquet#3`).
    pub label: String,
    /// The list's file name.
    pub list: String,
    /// The crawl named by the archives' paths (`crawl-data/NAME/`), if any.
    pub crawl: Option<String>,
    /// Its archives, each with its records sorted by offset, each record once.
    pub archives: Vec<ListedArchive>,
    /// Lines that name no record, with their problem.
    pub bad: Vec<ListedRecord>,
}

impl Targeted {
    /// The lines of the list this input answers for (a record named twice counts once).
    pub fn listed(&self) -> u64 {
        let records: usize = self.archives.iter().map(|a| a.records.len()).sum();
        (records + self.bad.len()) as u64
    }

    /// The bytes of its records (its `inputs.bytes`).
    pub fn bytes(&self) -> u64 {
        (self.archives.iter().flat_map(|a| &a.records))
            .map(|r| r.length)
            .sum()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedArchive {
    pub name: String,
    pub records: Vec<ListedRecord>,
}

/// The targeted inputs of `scan --records LIST`: the list read (`prefix` before relative
/// names), cut into inputs of at most `per` records, and of shard `(i, n)` only every `n`-th of
/// them from the `i`-th (in the list's order: by crawl, archive and offset), named as the whole
/// list names them.
pub fn plan(
    list: &Path,
    prefix: Option<&str>,
    per: usize,
    shard: Option<(usize, usize)>,
) -> Result<Vec<Targeted>> {
    let listed = read(list, prefix)?;
    if listed.is_empty() {
        bail!("{}: the list names no record", list.display());
    }
    let targets = batches(&list.to_string_lossy(), listed, per);
    Ok(match shard {
        Some((i, n)) => (targets.into_iter().enumerate())
            .filter(|(k, _)| k % n == i)
            .map(|(_, t)| t)
            .collect(),
        None => targets,
    })
}

/// The crawl a Common Crawl path names: `NAME` of `.../crawl-data/NAME/...`.
pub fn crawl_of_path(archive: &str) -> Option<String> {
    let mut parts = archive.split('/');
    parts.find(|p| *p == "crawl-data")?;
    parts.next().filter(|n| !n.is_empty()).map(str::to_string)
}

/// Cut a list's records into targeted inputs: sorted by crawl, archive and offset (so that
/// nearby records of an archive are fetched together, and the rows come in archive order), a
/// record named twice once, at most `per` records each, never two crawls in one. `list` is
/// the list's path.
pub fn batches(list: &str, records: Vec<ListedRecord>, per: usize) -> Vec<Targeted> {
    let key = |r: &ListedRecord| (crawl_of_path(&r.archive), r.archive.clone());
    let mut records = records;
    records.sort_by(|a, b| {
        (key(a), a.problem.is_some(), a.offset, a.length, a.line).cmp(&(
            key(b),
            b.problem.is_some(),
            b.offset,
            b.length,
            b.line,
        ))
    });
    records.dedup_by(|b, a| {
        a.problem.is_none()
            && b.problem.is_none()
            && (&a.archive, a.offset, a.length) == (&b.archive, b.offset, b.length)
    });
    // The list's file name, not its path: the processes of one run (Spark's executors, each
    // with its own copy of the list) name the same inputs alike.
    let file_name = std::path::Path::new(list)
        .file_name()
        .map_or_else(|| "list".into(), |n| n.to_string_lossy().into_owned());
    let stem: String = crate::archive::source::input::sanitize(&file_name)
        .chars()
        .take(60)
        .collect();
    let mut out: Vec<Targeted> = Vec::new();
    let mut hash = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256);
    let mut in_last = 0usize;
    for r in records {
        let crawl = crawl_of_path(&r.archive);
        // Counted as they go in (`Targeted::listed` walks the archives: once per record it made
        // cutting a list quadratic in its archives).
        let open = (out.last()).is_some_and(|t| t.crawl == crawl && in_last < per);
        in_last = if open { in_last + 1 } else { 1 };
        if !open {
            finish_id(out.last_mut(), &mut hash);
            out.push(Targeted {
                id: String::new(),
                label: format!("{file_name}#{}", out.len() + 1),
                list: file_name.clone(),
                crawl: crawl.clone(),
                archives: Vec::new(),
                bad: Vec::new(),
            });
        }
        let t = out.last_mut().expect("pushed");
        hash.update(format!("{}\n{}\n{}\n{}\n", r.archive, r.offset, r.length, r.line).as_bytes());
        if r.problem.is_some() {
            t.bad.push(r);
            continue;
        }
        match t.archives.last_mut() {
            Some(a) if a.name == r.archive => a.records.push(r),
            _ => t.archives.push(ListedArchive {
                name: r.archive.clone(),
                records: vec![r],
            }),
        }
    }
    finish_id(out.last_mut(), &mut hash);
    for (k, t) in out.iter_mut().enumerate() {
        t.id = format!("{stem}-{:05}-{}", k + 1, t.id);
    }
    out
}

/// Name a finished input by the digest of its records (and start the next digest): a rerun of
/// the same list gives the same names, so `--resume` knows its parts.
fn finish_id(t: Option<&mut Targeted>, hash: &mut aws_lc_rs::digest::Context) {
    let done = std::mem::replace(
        hash,
        aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256),
    );
    if let Some(t) = t {
        let d = done.finish();
        t.id = d.as_ref()[..4].iter().map(|b| format!("{b:02x}")).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(line: u64, archive: &str, offset: u64) -> ListedRecord {
        ListedRecord {
            line,
            archive: archive.to_string(),
            offset,
            length: 10,
            problem: None,
        }
    }

    #[test]
    fn a_common_crawl_path_names_its_crawl() {
        let p = "s3://commoncrawl/crawl-data/CC-MAIN-2024-22/segments/1/warc/x.warc.gz";
        assert_eq!(crawl_of_path(p).as_deref(), Some("CC-MAIN-2024-22"));
        assert_eq!(crawl_of_path("data/x.warc.gz"), None);
    }

    #[test]
    fn batches_keep_crawls_apart_and_records_once_in_archive_order() {
        let a = "crawl-data/CC-A/x.warc.gz";
        let b = "crawl-data/CC-B/y.warc.gz";
        let records = vec![
            rec(1, b, 50),
            rec(2, a, 30),
            rec(3, a, 10),
            rec(4, a, 30),
            rec(5, "z.warc.gz", 0),
            rec(6, "z.warc.gz", 20),
            rec(7, "z.warc.gz", 40),
        ];
        let got = batches("l.csv", records.clone(), 2);
        type Shape<'a> = (Option<&'a str>, Vec<(&'a str, Vec<u64>)>);
        let shape: Vec<Shape> = got
            .iter()
            .map(|t| {
                let archives = t
                    .archives
                    .iter()
                    .map(|a| (a.name.as_str(), a.records.iter().map(|r| r.line).collect()));
                (t.crawl.as_deref(), archives.collect())
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (None, vec![("z.warc.gz", vec![5, 6])]),
                (None, vec![("z.warc.gz", vec![7])]),
                (Some("CC-A"), vec![(a, vec![3, 2])]),
                (Some("CC-B"), vec![(b, vec![1])]),
            ]
        );
        let again = batches("l.csv", records, 2);
        assert_eq!(got, again, "the same list gives the same inputs and names");
        let ids: std::collections::BTreeSet<&str> = got.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids.len(), 4);
    }

    #[test]
    fn csv_json_lines_and_parquet_lists_name_the_same_records() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("l.csv");
        std::fs::write(
            &csv,
            "url,warc_filename,warc_record_offset,warc_record_length\n\
             http://a/,crawl-data/C/a.warc.gz,100,20\n\
             http://b/,crawl-data/C/b.warc.gz,,20\n",
        )
        .unwrap();
        let jsonl = dir.path().join("l.jsonl");
        std::fs::write(
            &jsonl,
            "{\"url\": \"http://a/\", \"filename\": \"crawl-data/C/a.warc.gz\", \"offset\": \"100\", \"length\": \"20\"}\n\
             {\"filename\": \"crawl-data/C/b.warc.gz\", \"length\": 20}\n",
        )
        .unwrap();
        let from_csv = read(&csv, Some("s3://commoncrawl/")).unwrap();
        let from_json = read(&jsonl, Some("s3://commoncrawl/")).unwrap();
        assert_eq!(from_csv, from_json);
        assert_eq!(
            from_csv[0].archive,
            "s3://commoncrawl/crawl-data/C/a.warc.gz"
        );
        assert_eq!(
            (from_csv[0].offset, from_csv[0].length, from_csv[0].line),
            (100, 20, 1)
        );
        assert!(from_csv[0].problem.is_none());
        assert_eq!(from_csv[1].problem.as_deref(), Some("no offset or length"));
        assert_eq!(from_csv[1].line, 2);
        // The columnar index's types: offsets int64, lengths int32; a folder of parts.
        use arrow_array::{Int32Array, Int64Array, RecordBatch, StringArray};
        let parts = dir.path().join("parts");
        std::fs::create_dir(&parts).unwrap();
        for (k, (file, offset)) in [
            ("crawl-data/C/a.warc.gz", Some(100)),
            ("crawl-data/C/b.warc.gz", None),
        ]
        .into_iter()
        .enumerate()
        {
            let batch = RecordBatch::try_from_iter([
                (
                    "warc_filename",
                    std::sync::Arc::new(StringArray::from(vec![file])) as ArrayRef,
                ),
                (
                    "warc_record_offset",
                    std::sync::Arc::new(Int64Array::from(vec![offset])),
                ),
                (
                    "warc_record_length",
                    std::sync::Arc::new(Int32Array::from(vec![20])),
                ),
            ])
            .unwrap();
            let f = std::fs::File::create(parts.join(format!("data_{k}.parquet"))).unwrap();
            let mut w = parquet::arrow::ArrowWriter::try_new(f, batch.schema(), None).unwrap();
            w.write(&batch).unwrap();
            w.close().unwrap();
        }
        assert_eq!(read(&parts, Some("s3://commoncrawl/")).unwrap(), from_csv);
    }
}

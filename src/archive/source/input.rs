//! Inputs: expanding what the user named into files, sniffing their containers, and cutting large
//! files into chunks that start at record boundaries.
//!
//! * Arguments are files, folders (searched recursively for archive-looking names), glob patterns
//!   and `@FILE` lists of paths, one per line with `#` comments, optionally gzip-compressed (a
//!   crawl's `warc.paths.gz`). A relative path in a list is taken relative to the current folder
//!   when it exists there, else relative to the list's folder.
//! * The container is sniffed from the first bytes, never from the name.
//! * A large per-record `.warc.gz` is cut at gzip member starts (found by scanning for the gzip
//!   magic and confirmed by inflating the member's first bytes), a large plain `.warc`/`.arc` at
//!   record starts (confirmed by following the length of the record found there to the next one).
//!   Where the boundaries fall never changes the rows: every chunking gives the same tables (a test).

use crate::archive::container::gz;
use crate::archive::framing::starts::looks_like_record_start;
use crate::archive::heads::record;
use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The container of an input, from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    Plain,
    Gzip,
    Bzip2,
    Zstd,
    Lz4,
    Xz,
    Empty,
}

impl Container {
    pub fn as_str(self) -> &'static str {
        match self {
            Container::Plain => "none",
            Container::Gzip => "gzip",
            Container::Bzip2 => "bzip2",
            Container::Zstd => "zstd",
            Container::Lz4 => "lz4",
            Container::Xz => "xz",
            Container::Empty => "empty",
        }
    }
}

/// How far into an input whose first bytes are no container's and no record's
/// [`sniff_archive`] looks for the first gzip member.
pub const SNIFF_SPAN: usize = 1 << 20;

/// The container of an input whose first bytes (up to `SNIFF_SPAN` of them, 1 MiB, or all) are
/// `data`. By its magic number; but when it starts with neither a known magic number nor a
/// record (a damaged first byte, bytes put before the first member), the first gzip member in
/// `data` whose inflated bytes start a record, when no plain record starts before it, makes it
/// gzip: the gzip reader then reports the damaged start and keeps every intact member, as it
/// does for damage further in. Before, such a file was read as plain text with no record and
/// lost whole.
pub fn sniff_archive(data: &[u8]) -> Container {
    let found = sniff(&data[..data.len().min(16)]);
    if found != Container::Plain || looks_like_record_start(data) {
        return found;
    }
    let span = data.len().min(SNIFF_SPAN);
    match gz::find_member(data, 0, span, looks_like_record_start) {
        Some(member) if find_plain_start(data, 0, member).is_none() => Container::Gzip,
        _ => found,
    }
}

/// Sniff the container from the first bytes.
pub fn sniff(head: &[u8]) -> Container {
    match head {
        [] => Container::Empty,
        [0x1f, 0x8b, ..] => Container::Gzip,
        [b'B', b'Z', b'h', ..] => Container::Bzip2,
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Container::Zstd,
        [0x04, 0x22, 0x4d, 0x18, ..] => Container::Lz4,
        [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Container::Xz,
        _ => Container::Plain,
    }
}

/// Does a file name look like an archive (used when searching folders)?
pub fn archive_like_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [".warc", ".arc", ".wat", ".wet"].iter().any(|ext| {
        n.ends_with(ext) || n.contains(&format!("{ext}.")) || n.contains(&format!("{ext}-"))
    })
}

/// Expand the user's input arguments into a sorted, de-duplicated list of paths. A path that
/// does not exist is returned as it is, so that the scan reports it as a failed input; a glob
/// pattern that matches no file and a folder that holds no archive are errors (nothing to
/// scan: a usage error, before anything is written).
///
/// Remote URLs (`https://`, `http://`, `s3://`) are kept as they are. `prefix` is put before the
/// relative entries of `@FILE` lists, to turn a crawl's manifest (`crawl-data/...` paths) into
/// URLs (`--prefix https://data.commoncrawl.org/` or `s3://commoncrawl/`) or paths of a mounted
/// copy.
///
/// `skip` is the scan's own output folder: folders and globs never yield a file inside it, so a
/// scan does not read the parts an earlier run wrote there (their names look like archives').
pub fn expand(args: &[String], prefix: Option<&str>, skip: Option<&Path>) -> Result<Vec<PathBuf>> {
    let skip = skip.and_then(|p| std::fs::canonicalize(p).ok());
    let mut out = Vec::new();
    for arg in args {
        if let Some(list) = arg.strip_prefix('@') {
            out.extend(read_list(Path::new(list), prefix)?);
        } else if crate::archive::source::remote::is_remote(arg) {
            out.push(PathBuf::from(arg));
        } else {
            expand_path(arg, skip.as_deref(), &mut out)?;
        }
    }
    Ok(one_path_per_input(out))
}

/// `paths` sorted, each input once: two paths of one file (`x.warc.gz` and `./x.warc.gz`, a
/// symbolic link and its target, a folder reached through a linked folder) are one input, the
/// first path in sorted order, since its parts are named by the file it is ([`input_id`]).
pub fn one_path_per_input(mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    paths.sort();
    paths.dedup();
    let mut seen = std::collections::HashSet::new();
    paths.retain(|p| seen.insert(identity(p)));
    paths
}

/// Is `p` the folder `skip` or inside it?
fn inside(p: &Path, skip: Option<&Path>) -> bool {
    skip.is_some_and(|skip| std::fs::canonicalize(p).is_ok_and(|c| c.starts_with(skip)))
}

fn expand_path(arg: &str, skip: Option<&Path>, out: &mut Vec<PathBuf>) -> Result<()> {
    let path = Path::new(arg);
    if path.is_dir() {
        if inside(path, skip) {
            return Ok(());
        }
        let mut found: Vec<PathBuf> = Vec::new();
        let entries = walkdir::WalkDir::new(path)
            .follow_links(true)
            .into_iter()
            .filter_entry(|e| !(e.file_type().is_dir() && inside(e.path(), skip)));
        for entry in entries {
            match entry {
                Ok(e) if e.file_type().is_file() => {
                    if archive_like_name(&e.file_name().to_string_lossy()) {
                        found.push(e.into_path());
                    }
                }
                Ok(_) => {}
                // A path the walk cannot read (an unreadable folder, a name too long, a link
                // loop) is kept as an input: the scan fails it with an errors row saying why,
                // rather than skipping it without a word.
                Err(e) => found.push(e.path().unwrap_or(path).to_path_buf()),
            }
        }
        anyhow::ensure!(
            !found.is_empty(),
            "{arg}: no archive in this folder (files named *.warc, *.arc, *.wat or *.wet, \
             compressed or not)"
        );
        found.sort();
        out.extend(found);
    } else if !path.exists() && arg.contains(['*', '?', '[']) {
        let paths = glob::glob(arg).with_context(|| format!("bad glob pattern {arg:?}"))?;
        let mut matched = 0;
        for p in paths.flatten() {
            if inside(&p, skip) {
                continue;
            }
            if p.is_dir() {
                expand_path(&p.to_string_lossy(), skip, out)?;
            } else {
                out.push(p);
            }
            matched += 1;
        }
        anyhow::ensure!(matched > 0, "{arg}: the pattern matches no file");
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// `prefix` joined with a manifest entry, with exactly one `/` between them.
pub fn with_prefix(prefix: &str, entry: &str) -> String {
    format!(
        "{}/{}",
        prefix.trim_end_matches('/'),
        entry.trim_start_matches('/')
    )
}

fn read_list(list: &Path, prefix: Option<&str>) -> Result<Vec<PathBuf>> {
    let file = std::fs::File::open(list)
        .with_context(|| format!("cannot open input list {}", list.display()))?;
    let mut reader = BufReader::new(file);
    let gz = reader.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let reader: Box<dyn BufRead> = if gz {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(reader)))
    } else {
        Box::new(reader)
    };
    let base = list.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for line in reader.lines() {
        let line = line.with_context(|| format!("cannot read input list {}", list.display()))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if crate::archive::source::remote::is_remote(line) {
            out.push(PathBuf::from(line));
            continue;
        }
        if let Some(prefix) = prefix.filter(|_| !line.starts_with('/')) {
            out.push(PathBuf::from(with_prefix(prefix, line)));
            continue;
        }
        let p = PathBuf::from(line);
        if p.is_relative() && !p.exists() && base.join(&p).exists() {
            out.push(base.join(p));
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

/// The part name of each input: [`input_id`].
pub fn input_ids(paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| input_id(p)).collect()
}

/// An input's part name: its file name made safe, then the first 8 hex digits of the SHA-256 of
/// its full path (the URL of a remote input; the bytes of the name, not a lossy rendering).
/// Unique per path across every run into one folder, so two archives of one name in different
/// folders never replace each other's parts, and stable for one path, so a rerun replaces its own.
/// A pipe or standard input has no lasting identity: its id is unique to the run.
pub fn input_id(p: &Path) -> String {
    let text = p.to_string_lossy();
    let name = if crate::archive::source::remote::is_remote(&text) {
        last_segment(&text).to_string()
    } else if p.as_os_str() == crate::archive::source::local::STDIN {
        "stdin".to_string()
    } else {
        file_name(p)
    };
    // The hash names the input: a long name is only cut (ASCII after `sanitize`).
    let name: String = sanitize(&name).chars().take(INPUT_NAME_MAX).collect();
    format!("{name}-{}", short_hash(&identity(p)))
}

/// The first 8 hex digits of the SHA-256 of `bytes`.
fn short_hash(bytes: &[u8]) -> String {
    let h = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, bytes);
    h.as_ref()[..4].iter().map(|b| format!("{b:02x}")).collect()
}

/// What names an input: the URL of a remote one, the full path of the file a local path leads
/// to (links resolved), and for a pipe or standard input its path and this run.
fn identity(p: &Path) -> Vec<u8> {
    let text = p.to_string_lossy();
    if crate::archive::source::remote::is_remote(&text) {
        text.as_bytes().to_vec()
    } else if p.as_os_str() == crate::archive::source::local::STDIN || is_stream(p) {
        [path_bytes(p), run_token()].concat()
    } else {
        let full = std::fs::canonicalize(p)
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf());
        path_bytes(&full)
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into())
}

fn last_segment(url: &str) -> &str {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("input")
}

fn is_stream(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

#[cfg(unix)]
fn path_bytes(p: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    p.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn path_bytes(p: &Path) -> Vec<u8> {
    p.as_os_str().as_encoded_bytes().to_vec()
}

/// Bytes unique to this process run (its start time and process id).
fn run_token() -> Vec<u8> {
    static TOKEN: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TOKEN
        .get_or_init(|| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            format!("\0{nanos}:{}", std::process::id()).into_bytes()
        })
        .clone()
}

/// Shard `i` of `n` (0 <= i < n) of an input list: the list is sorted and deduplicated, and the
/// inputs at positions `i`, `i + n`, `i + 2n`, ... are kept, with the part names (ids) the whole
/// list would give them, so that the union of the `n` shards' tables equals one full run's.
pub fn shard(paths: &[PathBuf], i: usize, n: usize) -> (Vec<PathBuf>, Vec<String>) {
    let all = one_path_per_input(paths.to_vec());
    let ids = input_ids(&all);
    all.into_iter()
        .zip(ids)
        .enumerate()
        .filter(|(k, _)| n > 0 && k % n == i)
        .map(|(_, pi)| pi)
        .unzip()
}

/// Parse `I/N` (0 <= I < N).
pub fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| anyhow::anyhow!("--shard takes I/N, like 0/4 (got {s:?})"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("--shard: bad index {i:?}"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("--shard: bad count {n:?}"))?;
    anyhow::ensure!(n > 0 && i < n, "--shard {s}: need 0 <= I < N");
    Ok((i, n))
}

/// The longest crawl folder name (after `crawl=`): a `warcinfo` may name its crawl with hundreds
/// of characters, and a folder name has at most 255 bytes.
pub const CRAWL_FOLDER_MAX: usize = 120;
/// The longest file name kept in an input's part name (the part and its staged file add up to
/// about 60 bytes to it).
pub const INPUT_NAME_MAX: usize = 150;

/// The crawl name inputs get when they name no crawl: a mix, compared with nothing.
pub const UNNAMED_CRAWL: &str = "unknown";

/// The collection a crawl belongs to, by its name: names that differ only in their digits
/// (`CC-MAIN-2024-22`, `CC-MAIN-2024-26`) are crawls of one collection, comparable with each
/// other (the report joins them, `summary_agent_changes` compares them); none for the inputs
/// that named no crawl. A name without digits is a collection of one.
pub fn crawl_collection(crawl: &str) -> Option<String> {
    if crawl == UNNAMED_CRAWL {
        return None;
    }
    let mut key = String::new();
    for c in crawl.chars() {
        if c.is_ascii_digit() {
            if !key.ends_with('#') {
                key.push('#');
            }
        } else {
            key.push(c);
        }
    }
    Some(key)
}

/// The folder name (after `crawl=`) of the crawl named `name`: the name itself when it is made
/// of `[A-Za-z0-9._-]` only and at most [`CRAWL_FOLDER_MAX`] bytes; otherwise [`sanitize`]d,
/// cut to fit, and followed by the first 8 hex digits of the SHA-256 of the whole name, so that
/// two names that differ only where characters were replaced (`crawl one`, `crawl_one`) or
/// after the cut stay apart. `inputs.crawl_name` keeps the whole name.
pub fn crawl_folder(name: &str) -> String {
    let safe = sanitize(name);
    if safe == name && safe.len() <= CRAWL_FOLDER_MAX {
        return safe;
    }
    // `sanitize` leaves ASCII only: any byte is a character boundary.
    let keep = safe.len().min(CRAWL_FOLDER_MAX - 9);
    format!("{}-{}", &safe[..keep], short_hash(name.as_bytes()))
}

/// Keep `[A-Za-z0-9._-]`, replace the rest with `_`. `_schema` becomes `__schema`: that
/// `crawl=` folder holds each table's file with no rows (`parts::SCHEMA_CRAWL`).
pub fn sanitize(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') || s == "_schema" {
        format!("_{s}")
    } else {
        s
    }
}

/// Byte ranges of `data` that can be read independently, in file order.
pub fn plan_chunks(data: &[u8], container: Container, target: usize) -> Vec<(usize, usize)> {
    let target = target.max(1 << 16);
    let mut bounds = vec![0usize];
    if data.len() > target + target / 2 {
        let mut want = target;
        while want + target / 2 < data.len() {
            let last = *bounds.last().unwrap_or(&0);
            let from = want.max(last + 1);
            let limit = (want + target).min(data.len());
            let found = match container {
                Container::Gzip => gz::find_member(data, from, limit, looks_like_record_start),
                Container::Plain => find_plain_start(data, from, limit),
                _ => None,
            };
            if let Some(at) = found {
                bounds.push(at);
            }
            want += target;
        }
    }
    bounds.push(data.len());
    bounds.windows(2).map(|w| (w[0], w[1])).collect()
}

/// A place near the end of `data` (past its start) where a window of an input can be cut: the
/// first confirmed gzip member start or plain record start in its last MiB, else in its second
/// half, else anywhere. `None` when there is none (one member or record fills the window).
pub fn late_cut(data: &[u8], container: Container) -> Option<usize> {
    let len = data.len();
    for from in [len.saturating_sub(1 << 20), len / 2, 1] {
        if from == 0 || from >= len {
            continue;
        }
        let found = match container {
            Container::Gzip => gz::find_member(data, from, len, looks_like_record_start),
            Container::Plain => find_plain_start(data, from, len),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A record start in a plain archive at or after `from`, confirmed by the length chain.
fn find_plain_start(data: &[u8], from: usize, limit: usize) -> Option<usize> {
    let mut pos = from;
    while pos < limit {
        let nl = pos + memchr::memchr(b'\n', &data[pos..limit])?;
        let at = nl + 1;
        if at < data.len() && confirm_plain(data, at) {
            return Some(at);
        }
        pos = at;
    }
    None
}

fn confirm_plain(data: &[u8], at: usize) -> bool {
    let buf = &data[at..];
    let (len, cl) = if record::is_warc_start(buf) {
        let Some(len) = record::header_end(&buf[..buf.len().min(record::MAX_HEADER)]) else {
            return false;
        };
        match record::parse_warc_head(buf, len).content_length {
            Some(cl) => (len, cl),
            None => return false,
        }
    } else {
        match record::parse_arc_head(buf) {
            Some(h) if !h.target_uri.starts_with(b"filedesc:") => {
                (h.len, h.content_length.unwrap_or(u64::MAX))
            }
            _ => return false,
        }
    };
    let Some(next) = (at as u64)
        .checked_add(len as u64)
        .and_then(|n| n.checked_add(cl))
    else {
        return false;
    };
    let Ok(mut next) = usize::try_from(next) else {
        return false;
    };
    if next > data.len() {
        return false;
    }
    while next < data.len() && matches!(data[next], b'\r' | b'\n') {
        next += 1;
    }
    next == data.len() || looks_like_record_start(&data[next..(next + 64 * 1024).min(data.len())])
}

/// Open a decompressing reader for containers read as streams.
pub fn stream_reader(
    container: Container,
    source: impl Read + Send + 'static,
) -> Result<Box<dyn Read + Send>> {
    let r = BufReader::with_capacity(
        1 << 20,
        crate::archive::container::reader::MarkSource(source),
    );
    Ok(match container {
        Container::Plain | Container::Empty => Box::new(r),
        Container::Gzip => Box::new(flate2::read::MultiGzDecoder::new(r)),
        Container::Zstd => Box::new(SmallReads(zstd::stream::read::Decoder::with_buffer(r)?)),
        Container::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(r)),
        Container::Lz4 => Box::new(Lz4Frames(lz4_flex::frame::FrameDecoder::new(SeesEnd {
            inner: r,
            ended: false,
        }))),
        Container::Xz => bail!("xz-compressed archives are not supported"),
    })
}

/// The zstd crate's reader hands zstd the caller's whole output buffer, and when a block is
/// corrupt the output of that call is lost with the error: reads of at most one zstd block
/// (128 KiB) keep everything decoded before the damaged block.
struct SmallReads<R>(R);

impl<R: Read> Read for SmallReads<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(128 << 10);
        self.0.read(&mut buf[..n])
    }
}

/// A reader that remembers whether its source has ended.
struct SeesEnd<R> {
    inner: R,
    ended: bool,
}

impl<R: Read> Read for SeesEnd<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.ended |= n == 0 && !buf.is_empty();
        Ok(n)
    }
}

/// lz4_flex's `FrameDecoder` reports the end of the stream at the end of each frame; files made
/// by concatenating frames (`cat a.lz4 b.lz4`, as the lz4 tool itself accepts) are read on to
/// the end of the source.
struct Lz4Frames<R: Read>(lz4_flex::frame::FrameDecoder<SeesEnd<R>>);

impl<R: Read> Read for Lz4Frames<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.0.read(buf)?;
            if n > 0 || buf.is_empty() || self.0.get_ref().ended {
                return Ok(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Crawl names keep `[A-Za-z0-9._-]`, and never name the folder of the tables' files with
    /// no rows (`crawl=_schema`) nor a hidden one.
    #[test]
    fn crawl_names_are_made_safe_and_never_the_schema_folder() {
        assert_eq!(sanitize("CC-MAIN-2025-33"), "CC-MAIN-2025-33");
        assert_eq!(sanitize("a b/c"), "a_b_c");
        assert_eq!(sanitize("_schema"), "__schema");
        assert_eq!(sanitize(" schema"), "__schema");
        assert_eq!(sanitize(".x"), "_.x");
        assert_eq!(sanitize(""), "_");
    }

    #[test]
    fn crawl_names_that_differ_only_in_replaced_characters_get_folders_of_their_own() {
        let names = [
            "crawl one",
            "crawl_one",
            "crawl/one",
            "crawl:one",
            "_schema",
            "",
        ];
        let folders: std::collections::BTreeSet<String> =
            names.iter().map(|n| crawl_folder(n)).collect();
        assert_eq!(folders.len(), names.len(), "{folders:?}");
        assert_eq!(crawl_folder("CC-MAIN-2025-33"), "CC-MAIN-2025-33");
        assert_eq!(crawl_folder("crawl_one"), "crawl_one");
        assert!(crawl_folder("crawl one").starts_with("crawl_one-"));
        assert!(folders
            .iter()
            .all(|f| f != "_schema" && !f.starts_with('.')));
        let long = "x".repeat(300);
        let (a, b) = (crawl_folder(&long), crawl_folder(&format!("{long}y")));
        assert!(a != b && a.len() <= CRAWL_FOLDER_MAX && b.len() <= CRAWL_FOLDER_MAX);
    }

    #[test]
    fn sniffs() {
        assert_eq!(sniff(b"\x1f\x8b\x08\x00"), Container::Gzip);
        assert_eq!(sniff(b"WARC/1.0"), Container::Plain);
        assert_eq!(sniff(b"BZh91AY"), Container::Bzip2);
        assert_eq!(sniff(b"\x04\x22\x4d\x18"), Container::Lz4);
        assert_eq!(sniff(b""), Container::Empty);
    }

    #[test]
    fn archive_names() {
        for n in [
            "a.warc",
            "a.warc.gz",
            "x.arc.gz",
            "b.warc.gz.open",
            "c.warc.wat.gz",
            "d.wet.gz",
            "e.warc.lz4",
        ] {
            assert!(archive_like_name(n), "{n}");
        }
        for n in ["SOURCES.tsv", "README.md", "warc.paths.gz"] {
            assert!(!archive_like_name(n), "{n}");
        }
    }

    #[test]
    fn ids_are_unique_per_path_stable_and_safe() {
        let ids = input_ids(&[
            PathBuf::from("a/x y.warc"),
            PathBuf::from("b/x y.warc"),
            PathBuf::from("c/z.warc"),
        ]);
        assert_ne!(ids[0], ids[1]);
        assert!(ids[0].starts_with("x_y.warc-"), "{}", ids[0]);
        assert!(ids[2].starts_with("z.warc-"), "{}", ids[2]);
        // The same path gives the same id, in this run or another; `./` changes nothing.
        assert_eq!(input_id(Path::new("a/x y.warc")), ids[0]);
        assert_eq!(input_id(Path::new("./a/x y.warc")), ids[0]);
        let url = input_id(Path::new("https://h.example/crawl/x.warc.gz?sig=1"));
        assert!(url.starts_with("x.warc.gz-"), "{url}");
    }

    #[cfg(unix)]
    #[test]
    fn names_that_differ_only_in_non_utf8_bytes_get_different_ids() {
        use std::os::unix::ffi::OsStrExt;
        let a = Path::new(std::ffi::OsStr::from_bytes(b"d/\xff.warc"));
        let b = Path::new(std::ffi::OsStr::from_bytes(b"d/\xfe.warc"));
        assert_eq!(a.to_string_lossy(), b.to_string_lossy());
        assert_ne!(input_id(a), input_id(b));
    }
}

//! `repcensus ranks`: a ranked list of sites read into the `ranks` table, so that every study's
//! definition (`queries/study_*.sql`) can be counted per tier of the list the study used.
//!
//! Three forms are read, told apart by their first line (docs/guide.md, "Ranked lists"):
//! - Tranco's `rank,domain` CSV (no header): registered domains, each ranked;
//! - CrUX's `origin,rank` CSV (a header; the rank is a bucket, 1000, 5000, 10000, ...):
//!   origins, read as their hosts, each with its bucket as rank;
//! - a plain list of names, one per line: ranked by their place in the list.
//!
//! A name is written as `robots_files.host` writes hosts (lowercase, punycode, no trailing dot).
//! A registered domain matches every host of that domain; another name (a CrUX origin's host,
//! `news.example.com` in a list of names) matches that host only. A name listed twice keeps its
//! best rank. Lines that name no host under a public suffix are counted and skipped, never
//! fatal.

use crate::archive::source::input::crawl_folder;
use crate::parts::OutDir;
use crate::tables::ranked_lists::{ranks_batch, ranks_desc, RankKind, RankRow, Tier, RANKS_KEY};
use crate::tables::registered_domain;
use anyhow::{bail, Context, Result};
use rustc_hash::FxHashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

str_enum! {
    /// The form of a ranked list.
    pub enum ListForm {
        /// `rank,domain`.
        Tranco = "tranco",
        /// `origin,rank` with a header.
        Crux = "crux",
        /// One name per line.
        Plain = "plain",
    }
}

/// What to read and where to write it.
#[derive(Debug, Clone)]
pub struct RanksOptions {
    pub file: PathBuf,
    pub out: PathBuf,
    /// The list's name (`ranks.list`); the file's name without its extensions by default.
    pub name: Option<String>,
}

/// What was read.
#[derive(Debug, Clone)]
pub struct RanksSummary {
    pub list: String,
    pub form: ListForm,
    /// Distinct names written.
    pub names: u64,
    /// Names per tier, in the order of `RANK_TIERS` (top1k to rest; not cumulative).
    pub by_tier: [u64; 5],
    /// Lines skipped, and the first few with why.
    pub skipped: u64,
    pub skipped_lines: Vec<(u64, String)>,
}

/// Read `opts.file` and write its `ranks` part (replacing the list's earlier part).
pub fn ranks(opts: &RanksOptions) -> Result<RanksSummary> {
    let text = read_text(&opts.file)?;
    let list = match &opts.name {
        Some(n) => n.clone(),
        None => default_name(&opts.file),
    };
    anyhow::ensure!(!list.trim().is_empty(), "the list needs a name (--name)");
    let read = parse(&text)?;
    let out = OutDir::create(&opts.out)?;
    let desc = ranks_desc();
    let mut part = out.keyed_part_writer(&desc, RANKS_KEY, &crawl_folder(&list))?;
    part.write(&ranks_batch(&list, &read.rows))?;
    out.commit(vec![part.finish()?])?;
    out.write_keyed_schema(&desc, RANKS_KEY)?;
    out.close();
    let mut by_tier = [0u64; 5];
    for r in &read.rows {
        by_tier[Tier::ALL
            .iter()
            .position(|&t| t == Tier::of(r.rank))
            .unwrap_or(4)] += 1;
    }
    Ok(RanksSummary {
        list,
        form: read.form,
        names: read.rows.len() as u64,
        by_tier,
        skipped: read.skipped,
        skipped_lines: read.skipped_lines,
    })
}

/// A list read from text.
#[derive(Debug)]
pub struct ReadList {
    pub form: ListForm,
    /// By rank, then name.
    pub rows: Vec<RankRow>,
    pub skipped: u64,
    pub skipped_lines: Vec<(u64, String)>,
}

/// How many skipped lines are shown with why.
const SHOWN: usize = 5;

/// Read a list's text (the form told by its first line).
pub fn parse(text: &str) -> Result<ReadList> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = (text.lines().enumerate())
        .map(|(k, l)| (k as u64 + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .peekable();
    let Some(&(_, first)) = lines.peek() else {
        bail!("the list names no site");
    };
    let form = form_of(first);
    let mut crux_columns = (0, 1);
    if form == ListForm::Crux && header_columns(first).is_some() {
        crux_columns = header_columns(first).unwrap_or((0, 1));
        lines.next();
    }
    let mut best: FxHashMap<String, (i64, RankKind, Option<String>)> = FxHashMap::default();
    let (mut skipped, mut skipped_lines, mut place) = (0u64, Vec::new(), 0i64);
    for (number, line) in lines {
        let entry = match form {
            ListForm::Tranco => tranco_line(line),
            ListForm::Crux => crux_line(line, crux_columns),
            ListForm::Plain => {
                place += 1;
                name_of(line).map(|n| (n, place))
            }
        };
        let (name, rank, kind, domain) = match entry.and_then(|(n, r)| named(&n, r, form)) {
            Ok(e) => e,
            Err(why) => {
                skipped += 1;
                if skipped_lines.len() < SHOWN {
                    skipped_lines.push((number, why));
                }
                continue;
            }
        };
        let kept = best.entry(name).or_insert((rank, kind, domain.clone()));
        if rank < kept.0 {
            *kept = (rank, kind, domain);
        }
    }
    let mut rows: Vec<RankRow> = (best.into_iter())
        .map(|(name, (rank, kind, registered_domain))| RankRow {
            name,
            kind,
            rank,
            registered_domain,
        })
        .collect();
    rows.sort_unstable_by(|a, b| a.rank.cmp(&b.rank).then_with(|| a.name.cmp(&b.name)));
    anyhow::ensure!(!rows.is_empty(), "no line of the list names a site");
    Ok(ReadList {
        form,
        rows,
        skipped,
        skipped_lines,
    })
}

/// The form the first line tells.
fn form_of(first: &str) -> ListForm {
    let fields: Vec<&str> = first.split(',').map(str::trim).collect();
    if header_columns(first).is_some() {
        return ListForm::Crux;
    }
    match fields.as_slice() {
        [rank, _] if rank.parse::<i64>().is_ok() => ListForm::Tranco,
        [origin, rank] if origin.contains("://") && rank.parse::<i64>().is_ok() => ListForm::Crux,
        _ => ListForm::Plain,
    }
}

/// The columns of `origin` and `rank` in a CrUX header line.
fn header_columns(line: &str) -> Option<(usize, usize)> {
    let fields: Vec<String> = (line.split(','))
        .map(|f| f.trim().trim_matches('"').to_ascii_lowercase())
        .collect();
    let origin = fields.iter().position(|f| f == "origin")?;
    let rank = fields.iter().position(|f| f == "rank")?;
    Some((origin, rank))
}

fn tranco_line(line: &str) -> Result<(String, i64), String> {
    let (rank, name) = line.split_once(',').ok_or("no comma")?;
    let rank = rank
        .trim()
        .parse::<i64>()
        .map_err(|_| "the rank is not a number")?;
    Ok((name.trim().to_string(), rank))
}

fn crux_line(line: &str, (origin, rank): (usize, usize)) -> Result<(String, i64), String> {
    let fields: Vec<&str> = line
        .split(',')
        .map(|f| f.trim().trim_matches('"'))
        .collect();
    let name = fields.get(origin).ok_or("no origin")?;
    let rank = (fields.get(rank).ok_or("no rank")?)
        .parse::<i64>()
        .map_err(|_| "the rank is not a number")?;
    Ok((name.to_string(), rank))
}

fn name_of(line: &str) -> Result<String, String> {
    // A plain list may carry more after the name (`example.com,1234` from another tool).
    Ok(line
        .split([',', '\t'])
        .next()
        .unwrap_or("")
        .trim()
        .to_string())
}

/// The name as `robots_files.host` writes it, its kind and registered domain.
fn named(
    name: &str,
    rank: i64,
    form: ListForm,
) -> Result<(String, i64, RankKind, Option<String>), String> {
    if rank < 1 {
        return Err(format!("rank {rank} is below 1"));
    }
    let url = match name.contains("://") {
        true => url::Url::parse(name),
        false => url::Url::parse(&format!("http://{name}/")),
    }
    .map_err(|e| format!("{name:?} is not a host name ({e})"))?;
    let host = crate::tables::host_of(&url)
        .filter(|h| !h.is_empty())
        .ok_or_else(|| format!("{name:?} names no host"))?
        .into_owned();
    // A site of a ranked list is under a public suffix; a single label or an address is not.
    let Some(domain) = registered_domain(&url) else {
        return Err(format!("{host:?} is under no public suffix"));
    };
    let domain = Some(domain);
    let kind = match form {
        ListForm::Crux => RankKind::Host,
        _ if domain.as_deref() == Some(host.as_str()) => RankKind::Domain,
        _ => RankKind::Host,
    };
    Ok((host, rank, kind, domain))
}

/// The text of a list file, gunzipped when it is gzip.
fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let bytes = match bytes.starts_with(&[0x1f, 0x8b]) {
        true => {
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(&bytes[..])
                .read_to_end(&mut out)
                .with_context(|| format!("cannot gunzip {}", path.display()))?;
            out
        }
        false => bytes,
    };
    anyhow::ensure!(
        !bytes.starts_with(b"PK\x03\x04"),
        "{} is a zip archive: unzip it first (Tranco's list comes zipped)",
        path.display()
    );
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `tranco_46XLX.csv.gz` -> `tranco_46XLX`.
fn default_name(path: &Path) -> String {
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
    let file = file.unwrap_or_default();
    file.split('.').next().unwrap_or(&file).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(read: &ReadList) -> Vec<(String, i64, RankKind)> {
        (read.rows.iter())
            .map(|r| (r.name.clone(), r.rank, r.kind))
            .collect()
    }

    #[test]
    fn tranco_rows_are_ranked_domains() {
        let read = parse("1,google.com\n2,www.bbc.co.uk\r\n3,Example.ORG.\n").unwrap();
        assert_eq!(read.form, ListForm::Tranco);
        assert_eq!(
            names(&read),
            [
                ("google.com".into(), 1, RankKind::Domain),
                ("www.bbc.co.uk".into(), 2, RankKind::Host),
                ("example.org".into(), 3, RankKind::Domain),
            ]
        );
        assert_eq!(read.rows[1].registered_domain.as_deref(), Some("bbc.co.uk"));
    }

    #[test]
    fn crux_origins_are_hosts_ranked_by_their_bucket_and_keep_their_best() {
        let read = parse(
            "origin,rank\nhttps://www.google.com,1000\nhttp://www.google.com,5000\n\
             https://bücher.example,10000\n",
        )
        .unwrap();
        assert_eq!(read.form, ListForm::Crux);
        assert_eq!(
            names(&read),
            [
                ("www.google.com".into(), 1000, RankKind::Host),
                ("xn--bcher-kva.example".into(), 10000, RankKind::Host),
            ]
        );
    }

    #[test]
    fn a_plain_list_ranks_by_place_and_skips_what_names_no_host() {
        let read = parse("# my news sites\nlemonde.fr\n\nnot a host!\nnytimes.com\n").unwrap();
        assert_eq!(read.form, ListForm::Plain);
        assert_eq!(
            names(&read),
            [
                ("lemonde.fr".into(), 1, RankKind::Domain),
                ("nytimes.com".into(), 3, RankKind::Domain),
            ]
        );
        assert_eq!(read.skipped, 1);
        assert_eq!(read.skipped_lines[0].0, 4);
    }

    #[test]
    fn bad_tranco_lines_are_counted_not_fatal() {
        let read = parse("1,a.com\nx,b.com\n3,\n4,c.com\n").unwrap();
        assert_eq!(read.rows.len(), 2);
        assert_eq!(read.skipped, 2);
    }

    #[test]
    fn an_empty_list_is_an_error() {
        assert!(parse("# nothing\n\n").is_err());
    }

    #[test]
    fn the_default_name_is_the_file_name_without_extensions() {
        assert_eq!(
            default_name(Path::new("/x/tranco_46XLX.csv.gz")),
            "tranco_46XLX"
        );
    }
}

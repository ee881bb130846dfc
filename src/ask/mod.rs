//! `repcensus query` and `repcensus views`: the bundled questions (`queries/*.sql`, built into
//! the binary) and a user's own SQL, asked of a scan's output folder from any working folder.
//!
//! The queries read their tables by relative path (`'summary_agents/*/*.parquet'`), so that each
//! file also runs as it is in a bare DuckDB started inside the folder. Here DuckDB's
//! `file_search_path` points those paths at the folder instead (or at a folder of links to the
//! chosen crawls' partitions, for `--crawl`), and the run happens in a DuckDB found on the
//! machine ([`engine`]).

pub mod engine;
mod sql;

use crate::archive::source::input::crawl_folder;
use crate::parts::SCHEMA_CRAWL;
use crate::tables::ranked_lists::RANKS;
use crate::tables::Table;
use engine::Last;
use std::path::{Path, PathBuf};

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/bundled.rs"));
}

/// A bundled query.
#[derive(Debug, Clone)]
pub struct Question {
    /// Its name (the file name without `.sql`).
    pub name: &'static str,
    /// The question its header asks, on one line.
    pub question: String,
    /// Its SQL, as in `queries/`.
    pub sql: &'static str,
}

/// Every bundled query, by name.
pub fn questions() -> Vec<Question> {
    (bundled::QUERIES.iter())
        .map(|&(name, sql)| Question {
            name,
            question: sql::question(sql).unwrap_or_default(),
            sql,
        })
        .collect()
}

/// The SQL of a bundled query or view (`agent_verdicts`), by name.
pub fn bundled_sql(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix(".sql").unwrap_or(name);
    (bundled::QUERIES.iter().chain(bundled::VIEWS))
        .find(|(n, _)| *n == name)
        .map(|(_, sql)| *sql)
}

str_enum! {
    /// How `repcensus query` writes the answer.
    pub enum Format {
        /// A box-drawn table, every row and column, for people.
        Table = "table",
        /// CSV with a header line.
        Csv = "csv",
        /// One JSON object per row and line.
        Json = "json",
        /// A Parquet file (needs --output).
        Parquet = "parquet",
    }
}

impl Format {
    /// The format a file name's extension names, if any.
    pub fn of_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "csv" => Some(Format::Csv),
            "json" | "jsonl" | "ndjson" => Some(Format::Json),
            "parquet" => Some(Format::Parquet),
            "txt" => Some(Format::Table),
            _ => None,
        }
    }
}

/// How to ask.
#[derive(Debug, Clone, Default)]
pub struct QueryOptions {
    /// Only these crawls' partitions are read (none: every crawl).
    pub crawls: Vec<String>,
    /// The answer's format (none: from `output`'s extension, else a table).
    pub format: Option<Format>,
    /// Write the answer here instead of standard output.
    pub output: Option<PathBuf>,
    /// DuckDB variables set before the query (`getvariable('name')` reads them).
    pub params: Vec<(String, String)>,
    /// Keep only the answer's rows where this SQL condition holds (`agent = 'GPTBot'`).
    pub filter: Option<String>,
}

/// Why a query gave no answer.
#[derive(Debug)]
pub enum QueryError {
    /// Nothing was asked: a wrong name, folder or option, or no DuckDB (exit 2).
    Usage(String),
    /// DuckDB failed on the query; it said why on standard error (exit 1).
    Failed,
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::Usage(why) => f.write_str(why),
            QueryError::Failed => f.write_str("DuckDB failed on the query (its message is above)"),
        }
    }
}

fn usage<T>(why: impl Into<String>) -> Result<T, QueryError> {
    Err(QueryError::Usage(why.into()))
}

/// What runs: statements that set DuckDB up, then the one whose answer is written.
#[derive(Debug)]
pub struct Script {
    pub setup: String,
    pub last: Last,
    /// The folder of links to the chosen crawls, removed when the script is dropped.
    _subset: Option<Subset>,
}

impl Script {
    /// The whole script as one SQL text (what `--sql` prints).
    pub fn text(&self) -> String {
        match &self.last {
            Last::Show(sql) | Last::Copy(sql) => format!("{}{sql};\n", self.setup),
        }
    }
}

/// Ask `query` (a bundled query's name, or a SQL file) of the scan output folder `out`, the
/// answer written as `opts` say.
pub fn query(query: &str, out: &str, opts: &QueryOptions) -> Result<(), QueryError> {
    let script = script(query, out, opts)?;
    let engine = engine::find().ok_or_else(|| QueryError::Usage(engine::NO_ENGINE.into()))?;
    let spill = TempFolder::named("spill");
    let setup = format!(
        "SET temp_directory = {};\n{}",
        sql::literal(&spill.path()),
        script.setup
    );
    match engine.run(&setup, &script.last) {
        Ok(true) => Ok(()),
        Ok(false) => Err(QueryError::Failed),
        Err(e) => usage(format!("could not run {}: {e}", engine.describe())),
    }
}

/// The script [`query`] runs.
pub fn script(query: &str, out: &str, opts: &QueryOptions) -> Result<Script, QueryError> {
    // A view's file makes a view and answers nothing: it is not run as a question.
    let name = query.strip_suffix(".sql").unwrap_or(query);
    if !query.contains('/') && bundled::VIEWS.iter().any(|(n, _)| *n == name) {
        return usage(format!(
            "{name} is a bundled view, not a question: `repcensus views OUT` defines it with every \
             table's view, a SQL file of your own can read it, and `repcensus query --sql {name}` \
             prints it"
        ));
    }
    let (sql, own_file) = match bundled_sql(query) {
        Some(sql) if !query.contains('/') => (sql.to_string(), false),
        _ if Path::new(query).is_file() => match std::fs::read_to_string(query) {
            Ok(sql) => (sql, true),
            Err(e) => return usage(format!("cannot read {query}: {e}")),
        },
        _ => {
            return usage(format!(
                "no bundled query {query:?} and no such SQL file (`repcensus query --list` lists the bundled ones)"
            ))
        }
    };
    let folder = Folder::open(out)?;
    folder.check_tables(&sql::tables_read(&sql))?;
    let subset = match opts.crawls.is_empty() {
        true => None,
        false => Some(Subset::make(&folder, &opts.crawls)?),
    };
    let search = subset.as_ref().map_or(folder.search_path(), |s| s.path());
    let mut setup = format!("SET file_search_path = {};\n", sql::literal(&search));
    for (name, value) in &opts.params {
        setup.push_str(&format!(
            "SET VARIABLE {} = {};\n",
            sql::ident(name),
            sql::literal(value)
        ));
    }
    setup.push_str(&folder.views(own_file, &sql));
    let mut statements = sql::statements(&sql);
    let Some(last) = statements.pop() else {
        return usage(format!("{query} holds no SQL statement"));
    };
    for s in statements {
        setup.push_str(s.trim());
        setup.push_str(";\n");
    }
    let last = match &opts.filter {
        // Comments removed: a trailing `--` comment would swallow the closing parenthesis.
        Some(cond) => format!("SELECT * FROM ({}) WHERE {cond}", sql::code(last).trim()),
        None => last.trim().to_string(),
    };
    let last = match answer_format(opts)? {
        Format::Table => Last::Show(last),
        format => Last::Copy(copy(&sql::code(&last), format, opts.output.as_deref())?),
    };
    Ok(Script {
        setup,
        last,
        _subset: subset,
    })
}

fn answer_format(opts: &QueryOptions) -> Result<Format, QueryError> {
    let format = match (opts.format, &opts.output) {
        (Some(f), _) => f,
        (None, Some(path)) => match Format::of_path(path) {
            Some(f) => f,
            None => {
                return usage(format!(
                    "say --format for {} (table, csv, json or parquet): its extension names none",
                    path.display()
                ))
            }
        },
        (None, None) => Format::Table,
    };
    if format == Format::Table && opts.output.is_some() {
        return usage(
            "--format table is for reading on a terminal: write csv, json or parquet to a file",
        );
    }
    if format == Format::Parquet && opts.output.is_none() {
        return usage("--format parquet writes a file: say where with --output FILE");
    }
    Ok(format)
}

/// The `COPY` that writes the answer of `select` (comments removed: a trailing `--` comment
/// would swallow the closing parenthesis) to `output` or standard output.
fn copy(select: &str, format: Format, output: Option<&Path>) -> Result<String, QueryError> {
    let target = match output {
        Some(path) => std::path::absolute(path)
            .map_err(|e| QueryError::Usage(format!("{}: {e}", path.display())))?
            .to_string_lossy()
            .into_owned(),
        None => "/dev/stdout".to_string(),
    };
    let options = match format {
        Format::Csv => "FORMAT csv, HEADER true",
        Format::Json => "FORMAT json",
        Format::Parquet | Format::Table => "FORMAT parquet",
    };
    Ok(format!(
        "COPY ({}) TO {} ({options})",
        select.trim(),
        sql::literal(&target)
    ))
}

/// The statements that make every table of `out` a DuckDB view by its own name, and
/// `agent_verdicts` from the tables a default scan writes (`repcensus views`).
pub fn views(out: &str) -> Result<String, QueryError> {
    let folder = Folder::open(out)?;
    let mut setup = format!(
        "SET file_search_path = {};\n",
        sql::literal(&folder.search_path())
    );
    setup.push_str(&folder.views(true, ""));
    Ok(setup)
}

/// A scan's output folder (or an `s3://` or other remote prefix, taken as it is).
struct Folder {
    out: String,
    /// The local folder; none for a remote prefix.
    local: Option<PathBuf>,
}

impl Folder {
    fn open(out: &str) -> Result<Folder, QueryError> {
        if out.contains("://") {
            return Ok(Folder {
                out: out.trim_end_matches('/').to_string(),
                local: None,
            });
        }
        let path = match std::path::absolute(out) {
            Ok(p) => p,
            Err(e) => return usage(format!("{out}: {e}")),
        };
        if !path.is_dir() {
            return usage(format!(
                "{out}: no such folder (the folder a scan wrote with --out)"
            ));
        }
        if !path.join(Table::Inputs.name()).is_dir() {
            return usage(format!(
                "{out} is not a scan's output folder: it has no inputs/ table (run `repcensus scan ARCHIVES --out {out}` first)"
            ));
        }
        Ok(Folder {
            out: out.to_string(),
            local: Some(path),
        })
    }

    fn search_path(&self) -> String {
        match &self.local {
            Some(p) => p.to_string_lossy().into_owned(),
            None => self.out.clone(),
        }
    }

    /// The tables the folder holds, in catalogue order (all of them for a remote prefix).
    fn tables(&self) -> Vec<Table> {
        let every = Table::ALL.into_iter().chain(Table::DERIVED);
        match &self.local {
            Some(p) => every.filter(|t| p.join(t.name()).is_dir()).collect(),
            None => every.collect(),
        }
    }

    /// A clear word, before DuckDB's "No files found" or an answer of nothing, for each table
    /// `sql` reads that the folder lacks, or that is derived and not yet there (the folder of
    /// shards before `repcensus hosts`: a derived table has only its empty `_schema` part while
    /// the table it is derived from has crawls).
    fn check_tables(&self, read: &[String]) -> Result<(), QueryError> {
        let Some(path) = &self.local else {
            return Ok(());
        };
        for name in read {
            let derived = Table::DERIVED.iter().find(|t| t.name() == name);
            let underived = derived.is_some() && !derivation_ran(path);
            if path.join(name).is_dir() && !underived {
                continue;
            }
            let hint = match derived {
                Some(_) => format!(
                    "it is derived at the end of a scan, after the last shard of a sharded one, and \
                     by `repcensus hosts` for a folder an earlier repcensus wrote: run `repcensus hosts {}`",
                    self.out
                ),
                None if Table::ALL.iter().any(|t| t.name() == name) => {
                    "the scan was told to write other tables (--tables)".to_string()
                }
                None if name == RANKS => format!(
                    "`repcensus ranks LIST --out {}` writes it (a scan since schema 18 writes it \
                     with no rows)",
                    self.out
                ),
                None => "no table of repcensus has that name".to_string(),
            };
            return usage(format!("{} has no table {name}: {hint}", self.out));
        }
        Ok(())
    }

    /// `CREATE VIEW`s: with `all`, the macros of the vocabulary (`is_2xx`, the denominators:
    /// a bundled query carries its own copy) and one view per table of the folder; and
    /// `agent_verdicts` from its view file when `all` or `sql` names it and the folder has no
    /// table of that name.
    fn views(&self, all: bool, sql: &str) -> String {
        let tables = self.tables();
        let mut out = String::new();
        if all {
            let vocabulary = bundled_sql("vocabulary").expect("the vocabulary is bundled");
            for s in sql::statements(vocabulary) {
                out.push_str(sql::code(s).trim());
                out.push_str(";\n");
            }
            for t in &tables {
                out.push_str(&format!(
                    "CREATE OR REPLACE VIEW {} AS FROM read_parquet({}, hive_partitioning = true);\n",
                    sql::ident(t.name()),
                    sql::literal(&format!("{}/*/*.parquet", t.name()))
                ));
            }
            // Partitioned by list, not by crawl: the `list` column is in the files.
            if self.local.as_ref().is_none_or(|p| p.join(RANKS).is_dir()) {
                out.push_str(&format!(
                    "CREATE OR REPLACE VIEW {RANKS} AS FROM read_parquet({}, hive_partitioning = false);\n",
                    sql::literal(&format!("{RANKS}/*/*.parquet"))
                ));
            }
        }
        let view = Table::AgentVerdicts;
        let needed = [
            Table::AgentVerdictRuns,
            Table::RobotsFiles,
            Table::SummaryAgents,
        ];
        if (all || names_relation(&sql::code(sql), view.name()))
            && !tables.contains(&view)
            && needed.iter().all(|t| tables.contains(t))
        {
            let text = bundled_sql(view.name()).expect("the agent_verdicts view is bundled");
            for s in sql::statements(text) {
                out.push_str(s.trim());
                out.push_str(";\n");
            }
        }
        out
    }
}

/// Whether the derivation ran for every crawl with robots.txt captures: `robots_hosts`, derived
/// for each of them (other derived tables may have no part for a crawl with nothing to count),
/// has a part for every crawl `robots_files` has. A folder of shards before `repcensus hosts`
/// has none.
fn derivation_ran(out: &Path) -> bool {
    let crawls = |table: Table| -> std::collections::BTreeSet<String> {
        let schema = format!("crawl={SCHEMA_CRAWL}");
        std::fs::read_dir(out.join(table.name()))
            .map(|entries| {
                (entries.flatten())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.starts_with("crawl=") && *n != schema)
                    .collect()
            })
            .unwrap_or_default()
    };
    crawls(Table::RobotsFiles).is_subset(&crawls(Table::RobotsHosts))
}

/// Whether `code` names `relation` as a word (not as the folder of a path: `name/`).
fn names_relation(code: &str, relation: &str) -> bool {
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    code.match_indices(relation).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + relation.len()..].chars().next();
        !is_word(before) && !is_word(after) && after != Some('/')
    })
}

/// A folder of this run under the system's temporary folder, removed (with what it holds)
/// when dropped. Where DuckDB spills a query too large for its memory: its default, `.tmp` in
/// the folder the analyst asks from, kept 18 GB there after a killed query.
#[derive(Debug)]
struct TempFolder {
    dir: PathBuf,
}

impl TempFolder {
    /// `repcensus-query-WHAT-PID-NANOS`; not created (DuckDB creates its spill folder when it
    /// spills, a subset creates its own).
    fn named(what: &str) -> TempFolder {
        let dir = std::env::temp_dir().join(format!(
            "repcensus-query-{what}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        TempFolder { dir }
    }

    fn path(&self) -> String {
        self.dir.to_string_lossy().into_owned()
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A temporary folder that holds, for each table, links to its `_schema` partition and the
/// chosen crawls' partitions of the output folder: the queries read only those crawls.
#[derive(Debug)]
struct Subset {
    dir: TempFolder,
}

impl Subset {
    fn make(folder: &Folder, crawls: &[String]) -> Result<Subset, QueryError> {
        let Some(out) = &folder.local else {
            return usage("--crawl needs a local output folder");
        };
        let subset = Subset {
            dir: TempFolder::named("crawls"),
        };
        let mut found = vec![false; crawls.len()];
        for table in folder.tables() {
            let from = out.join(table.name());
            let to = subset.dir.dir.join(table.name());
            std::fs::create_dir_all(&to).map_err(|e| io_usage(&to, e))?;
            let folders = std::iter::once(SCHEMA_CRAWL.to_string())
                .chain(crawls.iter().map(|c| crawl_folder(c)));
            for (k, name) in folders.enumerate() {
                let part = format!("crawl={name}");
                if from.join(&part).is_dir() {
                    link(&from.join(&part), &to.join(&part)).map_err(|e| io_usage(&to, e))?;
                    if k > 0 {
                        found[k - 1] = true;
                    }
                }
            }
        }
        // The ranked lists are matched to every crawl: the subset reads them whole.
        if out.join(RANKS).is_dir() {
            let to = subset.dir.dir.join(RANKS);
            link(&out.join(RANKS), &to).map_err(|e| io_usage(&to, e))?;
        }
        if let Some(k) = found.iter().position(|f| !f) {
            return usage(format!(
                "{} has no crawl {:?} (`repcensus query read_summary {}` lists its crawls)",
                folder.out, crawls[k], folder.out
            ));
        }
        Ok(subset)
    }

    fn path(&self) -> String {
        self.dir.path()
    }
}

fn io_usage(path: &Path, e: std::io::Error) -> QueryError {
    QueryError::Usage(format!("{}: {e}", path.display()))
}

#[cfg(unix)]
fn link(target: &Path, at: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, at)
}

#[cfg(not(unix))]
fn link(_target: &Path, _at: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other("--crawl needs symbolic links (Unix)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_query_states_its_question() {
        let all = questions();
        assert!(all.len() >= 30, "{}", all.len());
        for q in all {
            assert!(q.question.ends_with('?'), "{}: {:?}", q.name, q.question);
            assert!(!q.question.contains("  "), "{}: {:?}", q.name, q.question);
        }
    }

    #[test]
    fn a_relation_is_named_as_a_word_not_as_a_folder() {
        assert!(names_relation("FROM agent_verdicts v", "agent_verdicts"));
        assert!(!names_relation(
            "FROM 'agent_verdicts/*/*.parquet'",
            "agent_verdicts"
        ));
        assert!(!names_relation(
            "FROM my_agent_verdicts_x",
            "agent_verdicts"
        ));
    }

    #[test]
    fn the_format_follows_the_output_name_unless_named() {
        let opts = |format, output: Option<&str>| QueryOptions {
            format,
            output: output.map(PathBuf::from),
            ..Default::default()
        };
        assert_eq!(answer_format(&opts(None, None)).unwrap(), Format::Table);
        assert_eq!(
            answer_format(&opts(None, Some("a.PARQUET"))).unwrap(),
            Format::Parquet
        );
        assert_eq!(
            answer_format(&opts(Some(Format::Csv), Some("a.txt"))).unwrap(),
            Format::Csv
        );
        assert!(answer_format(&opts(None, Some("a.xyz"))).is_err());
        assert!(answer_format(&opts(Some(Format::Parquet), None)).is_err());
        assert!(answer_format(&opts(Some(Format::Table), Some("a.txt"))).is_err());
    }

    #[test]
    fn the_copy_drops_comments_that_would_swallow_its_parenthesis() {
        let last = "SELECT 1 AS a -- one\nFROM t";
        let c = copy(&sql::code(last), Format::Csv, None).unwrap();
        assert!(!c.contains("--"), "{c}");
        assert!(
            c.ends_with("TO '/dev/stdout' (FORMAT csv, HEADER true)"),
            "{c}"
        );
    }
}

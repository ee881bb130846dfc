//! The `repcensus` command line. Thin: argument parsing, then the library does the work.
//!
//! Exit codes: 0 when every input was read, 1 when some input failed, 2 for usage or output errors.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use repcensus::inputs;
use repcensus::Registry;
use repcensus::ScanOptions;
use repcensus::Table;
use repcensus::{GenKind, GenOptions, Layout};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The top command's `--help` epilogue.
const AFTER_HELP: &str = "\
Examples:
  repcensus scan samples --out out          read every archive under samples/ into out/
  repcensus report out --out report.html    draw the census of out/ as one HTML page
  repcensus query agents_full_block_share out   a bundled question, from any folder (--list)
  repcensus explain out example.com GPTBot  why that host's robots.txt lets GPTBot in or not
  repcensus check robots.txt GPTBot https://example.com/page
  repcensus scan --help                     inputs, outputs, tables and exit codes of a scan

Exit codes: 0 done; 1 done, but some input could not be read (scan), some URL is disallowed
(check, explain), some crawl could not be read (hosts, report) or DuckDB refused the query
(query); 2 usage or output error.";

/// `query --help`'s epilogue.
const QUERY_AFTER_HELP: &str = "\
Examples:
  repcensus query --list                                    the bundled questions
  repcensus query agents_full_block_share out               as a table
  repcensus query agents_full_block_share out --where \"agent = 'GPTBot'\"
  repcensus query agents_full_block_share out --format csv > share.csv
  repcensus query robots_fetch_outcomes out -o outcomes.parquet --crawl CC-MAIN-2025-08
  repcensus query my_question.sql out                       your own SQL: FROM robots_files ...
  repcensus query agents_full_block_share --sql             the query's SQL, to read or adapt

DuckDB: $REPCENSUS_DUCKDB (a duckdb command) or $REPCENSUS_PYTHON (a Python with the duckdb
module) if set; else the Python beside the repcensus binary (a pip install's), the duckdb command
on the PATH, python3 on the PATH.";

/// `scan --help`'s epilogue.
const SCAN_AFTER_HELP: &str = "\
Examples:
  repcensus scan crawl/ --out out                      a folder, searched recursively
  repcensus scan 'crawl/*.warc.gz' --out out           a glob (quoted: repcensus expands it)
  repcensus scan @warc.paths.gz --prefix https://data.commoncrawl.org/ --out s3://bucket/census
                                                       a crawl's manifest of paths, read over HTTPS,
                                                       written to S3
  repcensus scan @warc.paths.gz --prefix s3://commoncrawl/ --shard 3/100 --out out
                                                       shard 3 of 100 (then `repcensus hosts out`)
  repcensus scan crawl/ --tables robots_files --out out   one table (errors and inputs always)
  curl -s https://example.org/a.warc.gz | repcensus scan - --crawl mine --out out
  repcensus scan --records homepages.parquet --prefix https://data.commoncrawl.org/ --out out
                                                       only the records an index query listed

Inputs: WARC and ARC files (gzip, bzip2, zstd, lz4 or plain; xz is recognized and refused: a
failed input), WAT/WET, folders, globs, @FILE lists, http(s):// and s3:// URLs, pipes and `-`.
One file given by several paths is read once. A path that does not exist is a failed input
when some other input is there; when none is, or a glob matches nothing, or a folder holds no
archives, it is a usage error (nothing is written).

{TABLES}
docs/schema.md says what each column holds; queries/*.sql ask the questions.

Exit codes: 0 every input read (some may have errors rows: see queries/errors_by_input.sql);
1 some input could not be read at all (with --records: some listed record could not be fetched;
with --fail-on-error: or had errors rows), not one record was read though errors were met (one
last line says so: a wrong --prefix, a server answering something else), or a crawl's
robots_hosts or summaries could not be derived (a part that cannot be read); 2 usage or output
error (nothing read); 130 or 143 interrupted (SIGINT, SIGTERM: it says how many inputs are
complete; rerun with --resume).";

/// The scan's help, with the tables' names from the catalogue.
fn scan_after_help() -> String {
    let names = |tables: &mut dyn Iterator<Item = Table>| -> String {
        let names: Vec<&str> = tables.map(Table::name).collect();
        names.join(", ")
    };
    let on_request = |t: &Table| Table::ON_REQUEST.contains(t);
    let tables = format!(
        "Tables (OUT/<table>/crawl=<crawl>/part-<input>.parquet): {}, and on request (--tables) {} \
(a view makes its rows from agent_verdict_runs: queries/views/agent_verdicts.sql); {} (one part \
per crawl, derived at the end of a scan that is not a shard, or by `repcensus hosts`). Every \
table's crawl=_schema/_schema.parquet has its columns and no rows.",
        names(&mut Table::ALL.into_iter().filter(|t| !on_request(t))),
        names(&mut Table::ON_REQUEST.into_iter()),
        names(&mut Table::DERIVED.into_iter()),
    );
    SCAN_AFTER_HELP.replace("{TABLES}", &textwrap(&tables, 95))
}

/// `text` broken into lines of at most `width` characters, at spaces.
fn textwrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

#[derive(Parser)]
#[command(
    name = "repcensus",
    version,
    about = "A census of robots.txt, X-Robots-Tag and meta robots in web archives",
    after_help = AFTER_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read WARC/ARC archives and write Parquet tables.
    #[command(after_help = scan_after_help())]
    Scan(ScanArgs),
    /// List the tracked agents of `agent_verdicts`, with category, operator and sources.
    Agents {
        /// Add or override agents from this file first (as `scan --agents`).
        #[arg(long, value_name = "FILE")]
        agents: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = AgentsFormat::Table)]
        format: AgentsFormat,
    },
    /// Check URLs against a robots.txt with Google's semantics. Exit 0: all allowed; 1: some
    /// disallowed; 2: error.
    ///
    /// `repcensus check robots.txt FooBot https://example.com/x` prints, like Google's robots tool,
    /// "user-agent 'FooBot' with URI 'https://example.com/x': ALLOWED" (or DISALLOWED).
    Check {
        /// The robots.txt file ("-" for standard input).
        robots: PathBuf,
        /// Agent (product token) to check.
        agent: Option<String>,
        /// URL to check (%-encoded; only its path and query matter).
        url: Option<String>,
        /// More agents (each checked on its own).
        #[arg(long = "agent", value_name = "AGENT")]
        agents: Vec<String>,
        /// More URLs.
        #[arg(long = "url", value_name = "URL")]
        urls: Vec<String>,
        /// Purpose token (User-Agent-Purpose): its groups apply when none names the agent.
        #[arg(long)]
        purpose: Option<String>,
        /// One JSON object per agent x URL: verdict, deciding group and line.
        #[arg(long, conflicts_with = "explain")]
        json: bool,
        /// Say which line decided, and why.
        #[arg(long)]
        explain: bool,
        /// Choose groups as the crawler's operator documents (the registry's fallback tokens
        /// and ignored `*` groups; agent_verdicts.verdict_documented), not only as Google's
        /// library does. Agents the registry does not know are checked as without it; for an
        /// agent that does not honour robots.txt a note says so.
        #[arg(long)]
        documented: bool,
        /// Give up a FIFO or pipe that delivers no byte for this many seconds (a FIFO: that no
        /// writer opens).
        #[arg(long, value_name = "SECS", default_value_t = 120)]
        stall_timeout: u64,
    },
    /// Parse a robots.txt and print, as JSON, everything the tables would hold for it: its
    /// robots_files row, its robots_agents, robots_rules, app_directives and acap_fields rows,
    /// and each tracked agent's agent_verdicts columns (`verdict`: Google's reading;
    /// `verdict_documented`: the crawler's own). The file is read as a 2xx capture of no URL:
    /// `warc_file` is its name, `warc_offset` 0, `warc_type` "file", host and times null.
    Parse {
        /// The robots.txt file ("-" for standard input).
        robots: PathBuf,
        /// Add or override tracked agents from this file first (as `scan --agents`).
        #[arg(long, value_name = "FILE")]
        agents: Option<PathBuf>,
        /// Give up a FIFO or pipe that delivers no byte for this many seconds (a FIFO: that no
        /// writer opens).
        #[arg(long, value_name = "SECS", default_value_t = 120)]
        stall_timeout: u64,
    },
    /// Derive robots_hosts (each host's latest robots.txt capture and the capture its redirects
    /// lead to, whose verdicts the agents_* queries count) from the robots_files a scan wrote,
    /// and the summaries with it (summary_agents and summary_agent_groups from
    /// agent_verdict_runs, summary_robots_* from robots_agents and robots_rules).
    ///
    /// A scan does this for its crawls at its end, except a shard (`--shard`): run it once after
    /// the last shard, or after runs into the same folder that overlapped. Exit 0: done; 1: some
    /// crawl's robots_files could not be read (its robots_hosts is left as it was), or its
    /// summaries could not be derived (they are removed: another registry, say); 2: error.
    Hosts {
        /// The scan's output folder (or s3:// prefix).
        out: PathBuf,
        /// Only these crawls (default: every crawl with robots_files).
        #[arg(long, value_name = "NAME")]
        crawl: Vec<String>,
        /// The --agents FILE the scan was given, if any: summary_agents names the agents of
        /// the registry the verdicts were made with.
        #[arg(long, value_name = "FILE")]
        agents: Option<PathBuf>,
        /// The agents of page_verdicts, as `scan --page-agents` takes them.
        #[arg(long, value_name = "AGENT,...", value_delimiter = ',')]
        page_agents: Option<Vec<String>>,
        /// The memory the derivation of robots_hosts and the summaries may hold, as --size takes
        /// it (default 1G): a crawl too large to derive whole within it is derived in partitions of
        /// its hosts (by registered domain), each read from parts spilled to the output's staging
        /// folder, at the cost of writing its rows once more. The rows are the same.
        #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = repcensus::parse_size)]
        memory: u64,
        /// Print nothing.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Read a ranked list of sites (Tranco's `rank,domain` CSV, CrUX's `origin,rank` CSV, or
    /// one domain per line) into the `ranks` table of an output folder, so that the
    /// `study_*` queries count each study's definition per tier of the list (top1k, top10k,
    /// top100k, top1m, rest). A registered domain matches every host of that domain; a host
    /// (a CrUX origin's) matches that host only. Writing a list again replaces it.
    Ranks {
        /// The list (plain or gzip).
        file: PathBuf,
        /// The output folder (or s3:// prefix): a scan's, before or after the scan.
        #[arg(long)]
        out: PathBuf,
        /// The list's name (`ranks.list`; default: the file name without extensions).
        #[arg(long)]
        name: Option<String>,
        /// Print nothing.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Write the census as one HTML page (charts and tables, no network access needed to view
    /// it) from the tables of a scan's output folder. Every number is the one the bundled query
    /// named beside it gives on the same folder. Exit 0: written; 1: written, but some crawl's
    /// tables could not be read (the page says which); 2: error.
    Report {
        /// The scan's output folder (or s3:// prefix).
        tables: PathBuf,
        /// The HTML file to write.
        #[arg(long, value_name = "FILE", default_value = "report.html")]
        out: PathBuf,
        /// Only these crawls, each with its section (default: every crawl in the folder, with
        /// sections for the four latest by earliest robots.txt capture; the change between
        /// crawls covers all).
        #[arg(long, value_name = "NAME")]
        crawl: Vec<String>,
        /// Print nothing but errors (what is missing and which crawl failed stay on the page).
        #[arg(long, short)]
        quiet: bool,
    },
    /// Ask a scan's output folder a bundled question (`repcensus query --list`) or your own SQL,
    /// from any folder: `repcensus query agents_full_block_share out`. Runs in the DuckDB found
    /// on the machine (the Python module the `repcensus` package installs, or the `duckdb`
    /// command). Exit 0: answered; 1: DuckDB failed on the query (it says why); 2: nothing was
    /// asked (no such query, folder or table; no DuckDB).
    #[command(after_help = QUERY_AFTER_HELP)]
    Query {
        /// A bundled query's name, or a SQL file (plain SQL; every table of OUT is a view by
        /// its name, and `agent_verdicts` too).
        #[arg(value_name = "NAME|FILE.sql", required_unless_present = "list")]
        query: Option<String>,
        /// The scan's output folder (or s3:// prefix).
        #[arg(required_unless_present_any = ["list", "sql"])]
        out: Option<String>,
        /// List the bundled queries, each with its question.
        #[arg(long, conflicts_with_all = ["query", "out"])]
        list: bool,
        /// Print the SQL instead of running it: the query's own text, or with OUT the whole
        /// script that would run.
        #[arg(long)]
        sql: bool,
        /// How to write the answer (default: from --output's extension, else table).
        #[arg(long, value_enum)]
        format: Option<QueryFormatArg>,
        /// Write the answer to FILE instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Only this crawl's rows are read (repeatable).
        #[arg(long, value_name = "NAME")]
        crawl: Vec<String>,
        /// Keep only the rows of the answer where this SQL condition holds:
        /// `--where "agent = 'GPTBot'"`.
        #[arg(long = "where", value_name = "CONDITION")]
        filter: Option<String>,
        /// Set a DuckDB variable before the query, for your own SQL's `getvariable('NAME')`
        /// (repeatable).
        #[arg(long, value_name = "NAME=VALUE", value_parser = parse_param)]
        param: Vec<(String, String)>,
    },
    /// Why a host's robots.txt lets an agent fetch a path or not, from a scan's tables alone:
    /// the capture that governs the host (its latest, the redirects and revisits on the way),
    /// the file as the tables hold it, and each reading (Google's, RFC 9309's, the crawler's
    /// documented one) with the groups and line that decided, as `check --explain` gives them
    /// for a file. Exit 0: allowed; 1: disallowed or not decided; 2: error (no such host).
    Explain {
        /// The scan's output folder (or s3:// prefix).
        out: PathBuf,
        /// The host (as in robots_files.host: lower case, no port).
        host: String,
        /// An agent of the registry (`repcensus agents`) or any product token.
        agent: String,
        /// The URL or path to decide.
        #[arg(long, default_value = "/")]
        url: String,
        /// Only this crawl (repeatable; default: every crawl the host has a capture in).
        #[arg(long, value_name = "NAME")]
        crawl: Vec<String>,
        /// The --agents FILE the scan was given, if any.
        #[arg(long, value_name = "FILE")]
        agents: Option<PathBuf>,
        /// One JSON object per crawl: the fields of `check --json` (allowed, line, pattern,
        /// group, source, ...), each reading, and the governing capture.
        #[arg(long)]
        json: bool,
    },
    /// Print the SQL that makes every table of a scan's output folder a DuckDB view by its own
    /// name (and `agent_verdicts` from the tables a default scan writes), from any folder:
    /// `duckdb -cmd "$(repcensus views out)"` opens a DuckDB shell on the census.
    Views {
        /// The scan's output folder (or s3:// prefix).
        out: String,
    },
    /// Print a shell's completion script for repcensus (bash: `repcensus completions bash >
    /// ~/.local/share/bash-completion/completions/repcensus`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page, repcensus(1), as roff (`repcensus man | man -l -`), or write a
    /// page per command into a folder.
    Man {
        /// Write repcensus.1 and repcensus-<command>.1 into this folder instead.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
    /// Write a deterministic Common-Crawl-like archive (for benchmarks and tests): the same
    /// options give the same bytes.
    Generate {
        /// Output file (`-`: standard output).
        #[arg(long)]
        out: PathBuf,
        /// What the archive holds.
        #[arg(long, value_enum, default_value_t = KindArg::Pages)]
        kind: KindArg,
        /// How records are stored.
        #[arg(long, value_enum, default_value_t = LayoutArg::PerRecord)]
        layout: LayoutArg,
        /// Uncompressed size to reach: bytes, or with a unit: 20K, 20M, 20G or 20KiB, 20MiB,
        /// 20GiB (powers of 1024); 20KB, 20MB, 20GB (powers of 1000).
        #[arg(long, default_value = "100M", value_parser = repcensus::parse_size)]
        size: u64,
        /// Seed of the generator: another seed gives other hosts, paths and bodies, with the
        /// same mix.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// For `--kind robots-real`: the real robots.txt files its 2xx bodies are drawn from, a
        /// folder of files or an archive of robots.txt captures.
        #[arg(
            long,
            value_name = "PATH",
            default_value = "samples/real-robots.warc.gz"
        )]
        bodies: PathBuf,
    },
}

/// The arguments of `scan`.
#[derive(clap::Args)]
struct ScanArgs {
    /// Archives: files, folders (searched recursively), glob patterns, @FILE lists of paths
    /// (one per line, `#` comments; may be gzip-compressed, like a crawl's warc.paths.gz),
    /// remote URLs, pipes and FIFOs, or `-` for standard input.
    #[arg(required_unless_present = "records")]
    inputs: Vec<String>,
    /// Read only the records LIST names, fetched by byte range, instead of whole archives: a
    /// Parquet file (or a folder of Parquet parts), CSV file or JSON lines naming records by
    /// `warc_filename`, `warc_record_offset`, `warc_record_length` (as Common Crawl's columnar
    /// index has them) or `filename`, `offset`, `length` (as its CDX API); relative names take
    /// --prefix. Rows are those a scan of the whole archives gives for those records.
    #[arg(long, value_name = "LIST", conflicts_with = "inputs")]
    records: Option<PathBuf>,
    /// Range requests in flight at most (`--records`).
    #[arg(long, value_name = "N", default_value_t = 16)]
    fetch_concurrency: usize,
    /// Where a range request may be redirected (`--records`): `same-host`, only to the host
    /// the list (or --prefix) names, a redirect elsewhere being a `record_not_fetched` errors
    /// row saying where it pointed; `any`, anywhere.
    #[arg(long, value_name = "WHERE", value_enum, default_value_t = RangeRedirects::SameHost)]
    range_redirects: RangeRedirects,
    /// Records per targeted input (`--records`): each input is a set of parts, the unit of
    /// `--resume` and `--shard`.
    #[arg(long, value_name = "N", default_value_t = repcensus::records_list::BATCH_RECORDS)]
    records_per_input: usize,
    /// Output folder: OUT/<table>/crawl=<crawl>/part-<input>.parquet
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (default, and 0: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    threads: Option<usize>,
    /// Crawl name for the partition (default: the warcinfo record's isPartOf, else "unknown").
    #[arg(long)]
    crawl: Option<String>,
    /// Cut inputs into chunks of about this many bytes (parallelism within one file).
    #[arg(long, default_value_t = repcensus::DEFAULT_CHUNK, hide = true)]
    chunk_size: usize,
    /// No progress bar and no summary.
    #[arg(long, short)]
    quiet: bool,
    /// Add or override tracked agents (CSV with the columns of `repcensus agents --format csv`,
    /// or JSON: an array of such objects, or an object keyed by name like ai.robots.txt's
    /// robots.json).
    #[arg(long, value_name = "FILE")]
    agents: Option<PathBuf>,
    /// Process shard I of N (0 <= I < N) of the sorted input list: the inputs at positions
    /// I, I+N, I+2N, ... For array jobs (Slurm, Kubernetes indexed Jobs, GNU parallel): the
    /// union of the N shards' tables equals one full run's.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Write a machine-readable run summary (JSON: inputs, records, rows per table, errors by
    /// kind, seconds, throughput, peak memory) to FILE.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Exit 1 also when any input had errors rows (by default only when an input could not
    /// be read at all).
    #[arg(long)]
    fail_on_error: bool,
    /// Skip inputs an earlier run into the same --out completed (their parts are all in place
    /// and agree with their `inputs` row); redo the rest. A killed run, resumed, ends with
    /// exactly the tables of an uninterrupted one.
    #[arg(long)]
    resume: bool,
    /// Inflate every gzip member whole and check its CRC. By default a large member that
    /// holds one page is inflated only as far as the tables need (its HTTP head, and an HTML
    /// page's head); the rest is skipped unread.
    #[arg(long)]
    inflate_all: bool,
    /// Write only these tables (comma-separated; `errors` and `inputs` are always written).
    /// Default: every table but `agent_verdicts` (a row per capture and agent: the view in
    /// queries/views/agent_verdicts.sql makes the same rows from `agent_verdict_runs`);
    /// `default` names those, `all` every table (`--tables default,agent_verdicts`). Work that
    /// only other tables need is skipped: without `agent_verdicts` and `agent_verdict_runs`
    /// no verdicts are computed, without `page_signals` and `host_counts` no HTML head is
    /// scanned. Parts of tables not written are left as they are. `robots_hosts` is derived
    /// whenever `robots_files` is written, the summaries when `agent_verdict_runs` is there too.
    #[arg(long, value_name = "TABLE,...", value_delimiter = ',')]
    tables: Option<Vec<String>>,
    /// The agents page_verdicts gives each page's verdicts for (comma-separated agent names or
    /// categories, as `repcensus agents` lists them; default: the ai_training agents). Each
    /// 2xx HTML page whose host has a robots.txt capture in the crawl gets a row per agent.
    #[arg(long, value_name = "AGENT,...", value_delimiter = ',')]
    page_agents: Option<Vec<String>>,
    /// The memory the derivation of robots_hosts and the summaries may hold, as --size takes
    /// it (default 1G): a crawl too large to derive whole within it is derived in partitions of
    /// its hosts (by registered domain), each read from parts spilled to the output's staging
    /// folder, at the cost of writing its rows once more. The rows are the same.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = repcensus::parse_size)]
    memory: u64,
    /// Put PREFIX before the relative entries of @FILE lists: a crawl's warc.paths.gz with
    /// `--prefix https://data.commoncrawl.org/` or `--prefix s3://commoncrawl/` (or the
    /// folder of a mounted copy).
    #[arg(long, value_name = "PREFIX")]
    prefix: Option<String>,
    /// Give up a pipe, FIFO or remote input that delivers no byte for this many seconds (a
    /// FIFO: that no writer opens), with an errors row; the run goes on.
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    stall_timeout: u64,
    /// Give up a pipe or remote input still being read after this many seconds, with an
    /// errors row; what was read is kept (0: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 6 * 3600)]
    input_deadline: u64,
}

#[derive(Clone, Copy, ValueEnum)]
enum RangeRedirects {
    SameHost,
    Any,
}

#[derive(Clone, Copy, ValueEnum)]
enum QueryFormatArg {
    /// A box-drawn table, every row and column.
    Table,
    /// CSV with a header line.
    Csv,
    /// One JSON object per row and line.
    Json,
    /// Parquet (needs --output).
    Parquet,
}

#[derive(Clone, Copy, ValueEnum)]
enum AgentsFormat {
    Table,
    Csv,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum KindArg {
    /// HTML pages of about 19 KB.
    Pages,
    /// HTML pages sized like Common Crawl's (6-200 KB, heads up to 50 KB).
    CcPages,
    /// robots.txt captures in Common Crawl's mix of outcomes, with generated bodies (at most
    /// 1.6 KB).
    Robots,
    /// The same, with the 2xx bodies drawn from real robots.txt files (`--bodies`), their Sitemap
    /// URLs naming the capture's host.
    RobotsReal,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayoutArg {
    PerRecord,
    WholeFile,
    Plain,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader of our output went away (`repcensus agents | head`): stop quietly, as
        // ripgrep does, instead of reporting "Broken pipe".
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("repcensus: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Check {
            robots,
            agent,
            url,
            mut agents,
            mut urls,
            purpose,
            json,
            explain,
            documented,
            stall_timeout,
        } => {
            agents.splice(0..0, agent);
            urls.splice(0..0, url);
            let opts = repcensus::CheckOptions {
                robots,
                agents,
                urls,
                purpose,
                json,
                explain,
                documented,
                stall_timeout: std::time::Duration::from_secs(stall_timeout.max(1)),
            };
            let all_allowed = repcensus::check(
                &opts,
                &mut std::io::stdout().lock(),
                &mut std::io::stderr().lock(),
            )?;
            Ok(ExitCode::from(if all_allowed { 0 } else { 1 }))
        }
        Command::Agents { agents, format } => {
            let r = load_registry(agents.as_deref())?;
            let format = match format {
                AgentsFormat::Table => repcensus::ListFormat::Table,
                AgentsFormat::Csv => repcensus::ListFormat::Csv,
                AgentsFormat::Json => repcensus::ListFormat::Json,
            };
            r.write_list(format, &mut std::io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Parse {
            robots,
            agents,
            stall_timeout,
        } => {
            let registry = load_registry(agents.as_deref())?;
            let stall = std::time::Duration::from_secs(stall_timeout.max(1));
            let (body, bytes) =
                repcensus::read_robots_txt(&robots, stall, &mut std::io::stderr().lock())?;
            let name = robots.to_string_lossy();
            let v = repcensus::file_json_of(&body, bytes, &name, Some(&registry));
            let text = serde_json::to_string_pretty(&v)? + "\n";
            std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Scan(args) => run_scan(args),
        Command::Hosts {
            out,
            crawl,
            agents,
            page_agents,
            memory,
            quiet,
        } => run_hosts(
            &out,
            &crawl,
            agents.as_deref(),
            page_agents.as_deref(),
            &budget(memory),
            quiet,
        ),
        Command::Report {
            tables,
            out,
            crawl,
            quiet,
        } => run_report(tables, &out, crawl, quiet),
        Command::Ranks {
            file,
            out,
            name,
            quiet,
        } => Ok(run_ranks(
            repcensus::RanksOptions { file, out, name },
            quiet,
        )),
        Command::Query {
            query,
            out,
            list,
            sql,
            format,
            output,
            crawl,
            filter,
            param,
        } => {
            let opts = repcensus::QueryOptions {
                crawls: crawl,
                format: format.map(|f| match f {
                    QueryFormatArg::Table => repcensus::QueryFormat::Table,
                    QueryFormatArg::Csv => repcensus::QueryFormat::Csv,
                    QueryFormatArg::Json => repcensus::QueryFormat::Json,
                    QueryFormatArg::Parquet => repcensus::QueryFormat::Parquet,
                }),
                output,
                params: param,
                filter,
            };
            run_query(query.as_deref(), out.as_deref(), list, sql, &opts)
        }
        Command::Explain {
            out,
            host,
            agent,
            url,
            crawl,
            agents,
            json,
        } => {
            let registry = load_registry(agents.as_deref())?;
            let opts = repcensus::ExplainOptions {
                host,
                agents: vec![agent],
                url,
                crawls: crawl,
            };
            let found = repcensus::explain(&out, &registry, &opts)?;
            if found.is_empty() {
                anyhow::bail!(
                    "{} has no robots.txt capture of {} (robots_hosts){}",
                    out.display(),
                    opts.host,
                    if opts.crawls.is_empty() {
                        String::new()
                    } else {
                        format!(" in {}", opts.crawls.join(", "))
                    }
                );
            }
            let mut stdout = std::io::stdout().lock();
            for e in &found {
                match json {
                    true => writeln!(stdout, "{}", e.json())?,
                    false => write!(stdout, "{}", e.render())?,
                }
            }
            let allowed = found
                .iter()
                .all(|e| e.json()["allowed"] == serde_json::json!(true));
            Ok(ExitCode::from(if allowed { 0 } else { 1 }))
        }
        Command::Views { out } => match repcensus::views_sql(&out) {
            Ok(text) => {
                std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes())?;
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                eprintln!("repcensus: {e}");
                Ok(ExitCode::from(2))
            }
        },
        Command::Completions { shell } => print_completions(shell),
        Command::Man { out_dir } => print_man(out_dir.as_deref()),
        Command::Generate {
            out,
            kind,
            layout,
            size,
            seed,
            bodies,
        } => run_generate(&out, kind, layout, size, seed, &bodies),
    }
}

/// `repcensus query`.
fn run_query(
    query: Option<&str>,
    out: Option<&str>,
    list: bool,
    sql: bool,
    opts: &repcensus::QueryOptions,
) -> Result<ExitCode> {
    use repcensus::QueryError;
    use std::io::Write;
    if list {
        let all = repcensus::questions();
        let width = all.iter().map(|q| q.name.len()).max().unwrap_or(0);
        let mut stdout = std::io::stdout().lock();
        for q in all {
            writeln!(stdout, "{:width$}  {}", q.name, q.question)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let query = query.expect("clap requires NAME unless --list");
    let printed = |text: String| -> Result<(), QueryError> {
        (std::io::stdout().lock().write_all(text.as_bytes()))
            .map_err(|e| QueryError::Usage(e.to_string()))
    };
    let result = match out {
        None => match repcensus::bundled_sql(query) {
            Some(text) => printed(text.to_string()),
            None => Err(QueryError::Usage(format!(
                "no bundled query {query:?} (`repcensus query --list` lists them)"
            ))),
        },
        Some(out) if sql => {
            repcensus::query_script(query, out, opts).and_then(|s| printed(s.text()))
        }
        Some(out) => repcensus::query(query, out, opts),
    };
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("repcensus: {e}");
            let failed = matches!(e, QueryError::Failed);
            Ok(ExitCode::from(if failed { 1 } else { 2 }))
        }
    }
}

/// `repcensus ranks`: exit 0 when the list was written, 2 otherwise.
fn run_ranks(opts: repcensus::RanksOptions, quiet: bool) -> ExitCode {
    match repcensus::ranks(&opts) {
        Ok(s) => {
            if !quiet {
                let tiers: Vec<String> = (repcensus::RANK_TIERS.iter().zip(s.by_tier))
                    .map(|(t, n)| format!("{t} {n}"))
                    .collect();
                println!(
                    "ranks  {}: {} names ({} list; {}) -> {}",
                    s.list,
                    s.names,
                    s.form,
                    tiers.join(", "),
                    opts.out.display()
                );
                if s.skipped > 0 {
                    println!("skipped {} lines that name no site:", s.skipped);
                    for (line, why) in &s.skipped_lines {
                        println!("  line {line}: {why}");
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("repcensus ranks: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// `--param NAME=VALUE`.
fn parse_param(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("{s:?}: say NAME=VALUE")),
    }
}

/// `repcensus scan`.
fn run_scan(args: ScanArgs) -> Result<ExitCode> {
    let ScanArgs {
        inputs,
        records,
        fetch_concurrency,
        range_redirects,
        records_per_input,
        out,
        threads,
        crawl,
        chunk_size,
        quiet,
        agents,
        shard,
        summary: summary_file,
        fail_on_error,
        resume,
        prefix,
        inflate_all,
        tables,
        page_agents,
        memory,
        stall_timeout,
        input_deadline,
    } = args;
    // Signals are taken from here on, so that an interrupt while the inputs are listed says so
    // too instead of killing the process silently.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let total = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    say_when_interrupted(done.clone(), total.clone());
    let tables = match &tables {
        Some(names) => {
            repcensus::TableSelection::parse(names).map_err(|e| anyhow::anyhow!("--tables: {e}"))?
        }
        None => repcensus::TableSelection::default(),
    };
    let registry = load_registry(agents.as_deref())?;
    // Where the results go is checked before anything is read.
    check_out(&out)?;
    if let Some(f) = &summary_file {
        check_summary(f)?;
    }
    let shard = shard.as_deref().map(inputs::parse_shard).transpose()?;
    let (paths, ids, targets) = match &records {
        Some(list) => {
            let per = records_per_input.max(1);
            let targets = repcensus::records_list::plan(list, prefix.as_deref(), per, shard)?;
            let paths = targets.iter().map(|t| PathBuf::from(&t.label)).collect();
            let ids = targets.iter().map(|t| t.id.clone()).collect();
            (paths, Some(ids), targets)
        }
        None => {
            let paths = inputs::expand(&inputs, prefix.as_deref(), Some(&out))?;
            if paths.is_empty() {
                anyhow::bail!("no inputs found in {}", inputs.join(" "));
            }
            // A mistyped path makes no output folder: with some input there, a missing one is
            // a failed input (an `inputs` row, exit 1); with none there, nothing is written.
            if paths.iter().all(|p| is_missing_file(p)) {
                let first = paths[0].display();
                let more = match paths.len() {
                    1 => String::new(),
                    n => format!(" (nor any of the other {})", n - 1),
                };
                anyhow::bail!("{first}: no such file or folder{more}; nothing was written");
            }
            match shard {
                Some((i, n)) => {
                    let (p, d) = inputs::shard(&paths, i, n);
                    (p, Some(d), Vec::new())
                }
                None => (paths, None, Vec::new()),
            }
        }
    };
    let threads = (threads.filter(|&n| n > 0))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    total.store(paths.len(), std::sync::atomic::Ordering::Relaxed);
    let opts = ScanOptions {
        inputs: paths,
        targets,
        fetch_concurrency: fetch_concurrency.max(1),
        range_redirects: match range_redirects {
            RangeRedirects::SameHost => repcensus::Redirects::SameHost,
            RangeRedirects::Any => repcensus::Redirects::Any,
        },
        out,
        threads,
        crawl,
        chunk_size,
        progress: !quiet && std::io::stderr().is_terminal(),
        registry,
        ids,
        resume,
        inflate_all,
        tables,
        derive_hosts: shard.is_none(),
        page_agents,
        derive_budget: budget(memory),
        #[cfg(feature = "fault-hooks")]
        panic_on_input: std::env::var("REPCENSUS_PANIC_ON_INPUT").ok(),
        host_spill: env_number("REPCENSUS_HOST_SPILL"),
        remote_window: env_number("REPCENSUS_REMOTE_WINDOW"),
        stall_timeout: std::time::Duration::from_secs(stall_timeout.max(1)),
        inputs_done: Some(done.clone()),
        input_deadline: (input_deadline > 0)
            .then(|| std::time::Duration::from_secs(input_deadline)),
        #[cfg(feature = "fault-hooks")]
        truncate_on_map: std::env::var("REPCENSUS_TRUNCATE_ON_MAP")
            .ok()
            .and_then(|v| {
                let (name, len) = v.rsplit_once(':')?;
                Some((name.to_string(), len.parse().ok()?))
            }),
    };
    let summary = repcensus::scan(&opts)?;
    // Said even quietly: the tables hold rows twice.
    for w in &summary.warnings {
        eprintln!("repcensus: warning: {w}");
    }
    if !quiet {
        eprint!("{}", summary.render());
        if shard.is_some() {
            // Until `hosts` runs, the crawl has no robots_hosts and no summaries, and the
            // agent_verdicts view (which takes agent names from summary_agents) has no rows.
            eprintln!(
                "derived       nothing (a shard): after the last shard, `repcensus hosts {}` \
                 derives robots_hosts and the summaries, which the agent_verdicts view needs",
                opts.out.display()
            );
        }
    } else if let Some(h) = &summary.hosts {
        // What could not be derived is said even quietly, as failed inputs are.
        for (crawl, why) in &h.failed {
            eprintln!("repcensus: robots_hosts of crawl {crawl} not derived: {why}");
        }
        for (crawl, why) in &h.summaries_failed {
            eprintln!("repcensus: summaries of crawl {crawl} not derived: {why}");
        }
    }
    if let Some(line) = summary.nothing_read() {
        // Said even quietly, in one line, last.
        eprintln!(
            "repcensus: {}",
            line.replace("OUT", &opts.out.display().to_string())
        );
    }
    if let Some(f) = &summary_file {
        summary.write_json(f)?;
    }
    Ok(if summary.succeeded(fail_on_error) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// On SIGINT or SIGTERM, say how far the scan got and how to finish it, then exit (130 or
/// 143): every part in place is complete, and `--resume` reads only the inputs not done. The
/// signals are taken by a thread of their own (`sigwait`), so they must be blocked before the
/// scan starts its threads, which inherit the mask. `total` is 0 until the inputs are listed.
#[cfg(unix)]
fn say_when_interrupted(
    done: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    total: std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    // SAFETY: a zeroed sigset_t is initialised by sigemptyset before use; the calls take
    // pointers to it and to a local.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        std::thread::spawn(move || {
            let mut sig = 0;
            if libc::sigwait(&set, &mut sig) == 0 {
                let n = done.load(std::sync::atomic::Ordering::Relaxed);
                match total.load(std::sync::atomic::Ordering::Relaxed) {
                    0 => eprintln!(
                        "\nrepcensus: interrupted: 0 of 0 inputs complete (interrupted while \
                         the inputs were listed; nothing was read); rerun the same command"
                    ),
                    total => eprintln!(
                        "\nrepcensus: interrupted: {n} of {total} inputs complete; rerun the \
                         same command with --resume to read only the others"
                    ),
                }
                std::process::exit(128 + sig);
            }
        });
    }
}

#[cfg(not(unix))]
fn say_when_interrupted(
    _: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    _: std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
}

/// `--out` must be a folder (or not exist yet, or be remote).
/// A local path (not a URL nor `-`) where nothing is.
fn is_missing_file(path: &std::path::Path) -> bool {
    let text = path.to_string_lossy();
    !text.contains("://") && text != "-" && std::fs::symlink_metadata(path).is_err()
}

fn check_out(out: &std::path::Path) -> Result<()> {
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {}: is a file, not a folder", out.display());
    }
    Ok(())
}

/// `--summary FILE` must be writable: its folder exists and a file can be made there.
fn check_summary(f: &std::path::Path) -> Result<()> {
    if f.is_dir() {
        anyhow::bail!("--summary {}: is a folder, not a file", f.display());
    }
    let tmp = f.with_extension("json.tmp");
    std::fs::File::create(&tmp)
        .and_then(|_| std::fs::remove_file(&tmp))
        .map_err(|e| anyhow::anyhow!("--summary {}: cannot be written: {e}", f.display()))
}

/// `repcensus report`.
fn run_report(
    tables: PathBuf,
    out: &std::path::Path,
    crawls: Vec<String>,
    quiet: bool,
) -> Result<ExitCode> {
    let s = repcensus::report(&repcensus::ReportOptions {
        tables,
        html: out.to_path_buf(),
        crawls,
    })?;
    eprint!("{}", s.render(out, quiet));
    Ok(if s.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `repcensus completions SHELL`.
fn print_completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    // clap_complete panics when its writer fails (`| head`): it writes to memory.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "repcensus", &mut script);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &script)?;
    Ok(ExitCode::SUCCESS)
}

/// `repcensus man [--out-dir DIR]`.
fn print_man(out_dir: Option<&std::path::Path>) -> Result<ExitCode> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    match out_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            clap_mangen::generate_to(cmd, dir)
                .with_context(|| format!("cannot write into {}", dir.display()))?;
        }
        None => clap_mangen::Man::new(cmd).render(&mut std::io::stdout().lock())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The derivation's budget: `--memory`, and (in the tests' build) the partitions
/// `REPCENSUS_PARTITIONS` and the spill parts' rows `REPCENSUS_SPILL_ROWS` ask for.
fn budget(memory: u64) -> repcensus::Budget {
    repcensus::Budget {
        memory,
        partitions: env_number("REPCENSUS_PARTITIONS").map(|n| n as u32),
        spill_rows: env_number("REPCENSUS_SPILL_ROWS"),
    }
}

/// A number from the environment (the test hooks of [`ScanOptions`]); only in builds with the
/// test-only `fault-hooks` feature, so a release binary ignores them.
fn env_number(name: &str) -> Option<usize> {
    let read = std::env::var(name).ok().and_then(|v| v.parse().ok());
    read.filter(|_| cfg!(feature = "fault-hooks"))
}

/// `repcensus hosts`.
fn run_hosts(
    out: &std::path::Path,
    crawls: &[String],
    agents: Option<&std::path::Path>,
    page_agents: Option<&[String]>,
    budget: &repcensus::Budget,
    quiet: bool,
) -> Result<ExitCode> {
    let only: Option<std::collections::BTreeSet<String>> =
        (!crawls.is_empty()).then(|| crawls.iter().cloned().collect());
    let registry = load_registry(agents)?;
    let summary = repcensus::derive_hosts(out, only.as_ref(), &registry, page_agents, budget)?;
    if summary.crawls.is_empty() && summary.failed.is_empty() && summary.removed.is_empty() {
        anyhow::bail!(
            "no robots_files in {}{} (scan it first)",
            out.display(),
            match &only {
                Some(_) => format!(" for crawl {}", crawls.join(", ")),
                None => String::new(),
            }
        );
    }
    if !quiet {
        eprint!("{}", summary.render());
    }
    Ok(
        if summary.failed.is_empty() && summary.summaries_failed.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        },
    )
}

/// `repcensus generate`.
fn run_generate(
    out: &std::path::Path,
    kind: KindArg,
    layout: LayoutArg,
    size: u64,
    seed: u64,
    bodies: &std::path::Path,
) -> Result<ExitCode> {
    let bodies = match kind {
        KindArg::RobotsReal => repcensus::real_bodies(bodies)
            .with_context(|| format!("--bodies {}", bodies.display()))?,
        _ => Vec::new(),
    };
    let opts = GenOptions {
        kind: match kind {
            KindArg::Pages => GenKind::Pages,
            KindArg::CcPages => GenKind::CcPages,
            KindArg::Robots => GenKind::Robots,
            KindArg::RobotsReal => GenKind::RobotsReal,
        },
        layout: match layout {
            LayoutArg::PerRecord => Layout::GzipPerRecord,
            LayoutArg::WholeFile => Layout::GzipWholeFile,
            LayoutArg::Plain => Layout::Plain,
        },
        target_bytes: size,
        seed,
        bodies,
    };
    // `-` is standard output (`generate --out - | repcensus scan - ...`), as for scan's inputs.
    let sink: Box<dyn std::io::Write> = if out.as_os_str() == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(
            std::fs::File::create(out)
                .with_context(|| format!("cannot create {}", out.display()))?,
        )
    };
    let mut w = std::io::BufWriter::with_capacity(1 << 20, sink);
    let stats = repcensus::generate(&opts, &mut w)?;
    std::io::Write::flush(&mut w)?;
    eprintln!(
        "wrote {}: {} records, {} captures ({} robots.txt, {} llms.txt), {} bytes uncompressed",
        out.display(),
        stats.records,
        stats.captures,
        stats.robots_captures,
        stats.llms_captures,
        stats.uncompressed_bytes
    );
    Ok(ExitCode::SUCCESS)
}

fn load_registry(file: Option<&std::path::Path>) -> Result<Registry> {
    let mut r = Registry::builtin();
    if let Some(f) = file {
        r.apply_file(f)?;
    }
    Ok(r)
}

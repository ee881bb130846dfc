//! What can be typed: the commands and their arguments, as clap reads them (the doc comments
//! are the help), and the closed sets of values some take, each turned into the library's enum.

use super::help::{scan_after_help, AFTER_HELP, QUERY_AFTER_HELP};
use clap::{Parser, Subcommand, ValueEnum};
use repcensus::{GenKind, Layout};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "repcensus",
    version,
    about = "A census of robots.txt, X-Robots-Tag and meta robots in web archives",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
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
pub struct ScanArgs {
    /// Archives: files, folders (searched recursively), glob patterns, @FILE lists of paths
    /// (one per line, `#` comments; may be gzip-compressed, like a crawl's warc.paths.gz),
    /// remote URLs, pipes and FIFOs, or `-` for standard input.
    #[arg(required_unless_present = "records")]
    pub inputs: Vec<String>,
    /// Read only the records LIST names, fetched by byte range, instead of whole archives: a
    /// Parquet file (or a folder of Parquet parts), CSV file or JSON lines naming records by
    /// `warc_filename`, `warc_record_offset`, `warc_record_length` (as Common Crawl's columnar
    /// index has them) or `filename`, `offset`, `length` (as its CDX API); relative names take
    /// --prefix. Rows are those a scan of the whole archives gives for those records.
    #[arg(long, value_name = "LIST", conflicts_with = "inputs")]
    pub records: Option<PathBuf>,
    /// Range requests in flight at most (`--records`).
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub fetch_concurrency: usize,
    /// Where a range request may be redirected (`--records`): `same-host`, only to the host
    /// the list (or --prefix) names, a redirect elsewhere being a `record_not_fetched` errors
    /// row saying where it pointed; `any`, anywhere.
    #[arg(long, value_name = "WHERE", value_enum, default_value_t = RangeRedirects::SameHost)]
    pub range_redirects: RangeRedirects,
    /// Records per targeted input (`--records`): each input is a set of parts, the unit of
    /// `--resume` and `--shard`.
    #[arg(long, value_name = "N", default_value_t = repcensus::records_list::BATCH_RECORDS)]
    pub records_per_input: usize,
    /// Output folder: OUT/<table>/crawl=<crawl>/part-<input>.parquet
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads (default, and 0: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    /// Crawl name for the partition (default: the warcinfo record's isPartOf, else "unknown").
    #[arg(long)]
    pub crawl: Option<String>,
    /// Cut inputs into chunks of about this many bytes (parallelism within one file).
    #[arg(long, default_value_t = repcensus::DEFAULT_CHUNK, hide = true)]
    pub chunk_size: usize,
    /// No progress bar and no summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Add or override tracked agents (CSV with the columns of `repcensus agents --format csv`,
    /// or JSON: an array of such objects, or an object keyed by name like ai.robots.txt's
    /// robots.json).
    #[arg(long, value_name = "FILE")]
    pub agents: Option<PathBuf>,
    /// Process shard I of N (0 <= I < N) of the sorted input list: the inputs at positions
    /// I, I+N, I+2N, ... For array jobs (Slurm, Kubernetes indexed Jobs, GNU parallel): the
    /// union of the N shards' tables equals one full run's.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write a machine-readable run summary (JSON: inputs, records, rows per table, errors by
    /// kind, seconds, throughput, peak memory) to FILE.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Exit 1 also when any input had errors rows (by default only when an input could not
    /// be read at all).
    #[arg(long)]
    pub fail_on_error: bool,
    /// Skip inputs an earlier run into the same --out completed (their parts are all in place
    /// and agree with their `inputs` row); redo the rest. A killed run, resumed, ends with
    /// exactly the tables of an uninterrupted one.
    #[arg(long)]
    pub resume: bool,
    /// Inflate every gzip member whole and check its CRC. By default a large member that
    /// holds one page is inflated only as far as the tables need (its HTTP head, and an HTML
    /// page's head); the rest is skipped unread.
    #[arg(long)]
    pub inflate_all: bool,
    /// Write only these tables (comma-separated; `errors` and `inputs` are always written).
    /// Default: every table but `agent_verdicts` (a row per capture and agent: the view in
    /// queries/views/agent_verdicts.sql makes the same rows from `agent_verdict_runs`);
    /// `default` names those, `all` every table (`--tables default,agent_verdicts`). Work that
    /// only other tables need is skipped: without `agent_verdicts` and `agent_verdict_runs`
    /// no verdicts are computed, without `page_signals` and `host_counts` no HTML head is
    /// scanned. Parts of tables not written are left as they are. `robots_hosts` is derived
    /// whenever `robots_files` is written, the summaries when `agent_verdict_runs` is there too.
    #[arg(long, value_name = "TABLE,...", value_delimiter = ',')]
    pub tables: Option<Vec<String>>,
    /// The agents page_verdicts gives each page's verdicts for (comma-separated agent names or
    /// categories, as `repcensus agents` lists them; default: the ai_training agents). Each
    /// 2xx HTML page whose host has a robots.txt capture in the crawl gets a row per agent.
    #[arg(long, value_name = "AGENT,...", value_delimiter = ',')]
    pub page_agents: Option<Vec<String>>,
    /// The memory the derivation of robots_hosts and the summaries may hold, as --size takes
    /// it (default 1G): a crawl too large to derive whole within it is derived in partitions of
    /// its hosts (by registered domain), each read from parts spilled to the output's staging
    /// folder, at the cost of writing its rows once more. The rows are the same.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = repcensus::parse_size)]
    pub memory: u64,
    /// Put PREFIX before the relative entries of @FILE lists: a crawl's warc.paths.gz with
    /// `--prefix https://data.commoncrawl.org/` or `--prefix s3://commoncrawl/` (or the
    /// folder of a mounted copy).
    #[arg(long, value_name = "PREFIX")]
    pub prefix: Option<String>,
    /// Give up a pipe, FIFO or remote input that delivers no byte for this many seconds (a
    /// FIFO: that no writer opens), with an errors row; the run goes on.
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    pub stall_timeout: u64,
    /// Give up a pipe or remote input still being read after this many seconds, with an
    /// errors row; what was read is kept (0: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 6 * 3600)]
    pub input_deadline: u64,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum RangeRedirects {
    SameHost,
    Any,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum QueryFormatArg {
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
pub enum AgentsFormat {
    Table,
    Csv,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum KindArg {
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
pub enum LayoutArg {
    PerRecord,
    WholeFile,
    Plain,
}

impl From<QueryFormatArg> for repcensus::QueryFormat {
    fn from(f: QueryFormatArg) -> Self {
        match f {
            QueryFormatArg::Table => repcensus::QueryFormat::Table,
            QueryFormatArg::Csv => repcensus::QueryFormat::Csv,
            QueryFormatArg::Json => repcensus::QueryFormat::Json,
            QueryFormatArg::Parquet => repcensus::QueryFormat::Parquet,
        }
    }
}

impl From<AgentsFormat> for repcensus::ListFormat {
    fn from(f: AgentsFormat) -> Self {
        match f {
            AgentsFormat::Table => repcensus::ListFormat::Table,
            AgentsFormat::Csv => repcensus::ListFormat::Csv,
            AgentsFormat::Json => repcensus::ListFormat::Json,
        }
    }
}

impl From<KindArg> for GenKind {
    fn from(k: KindArg) -> Self {
        match k {
            KindArg::Pages => GenKind::Pages,
            KindArg::CcPages => GenKind::CcPages,
            KindArg::Robots => GenKind::Robots,
            KindArg::RobotsReal => GenKind::RobotsReal,
        }
    }
}

impl From<LayoutArg> for Layout {
    fn from(l: LayoutArg) -> Self {
        match l {
            LayoutArg::PerRecord => Layout::GzipPerRecord,
            LayoutArg::WholeFile => Layout::GzipWholeFile,
            LayoutArg::Plain => Layout::Plain,
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

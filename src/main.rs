//! The `repcensus` command line. Thin: argument parsing, then the library does the work.
//!
//! Exit codes: 0 when every input was read, 1 when some input failed, 2 for usage or output errors.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use repcensus::inputs;
use repcensus::Registry;
use repcensus::ScanOptions;
use repcensus::{GenKind, GenOptions, Layout};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "repcensus",
    version,
    about = "A census of robots.txt, X-Robots-Tag and meta robots in web archives"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read WARC/ARC archives and write Parquet tables.
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
        /// library does. Agents the registry does not know are checked as without it.
        #[arg(long)]
        documented: bool,
    },
    /// Parse a robots.txt and print, as JSON, everything the tables would hold for it.
    Parse {
        /// The robots.txt file ("-" for standard input).
        robots: PathBuf,
    },
    /// Derive robots_hosts (each host's latest robots.txt capture and the capture its redirects
    /// lead to, whose verdicts the agents_* queries count) from the robots_files a scan wrote.
    ///
    /// A scan does this for its crawls at its end, except a shard (`--shard`): run it once after
    /// the last shard, or after runs into the same folder that overlapped. Exit 0: done; 1: some
    /// crawl's robots_files could not be read (its robots_hosts is left as it was); 2: error.
    Hosts {
        /// The scan's output folder (or s3:// prefix).
        out: PathBuf,
        /// Only these crawls (default: every crawl with robots_files).
        #[arg(long, value_name = "NAME")]
        crawl: Vec<String>,
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
    },
    /// Write a deterministic Common-Crawl-like archive (for benchmarks and tests).
    Generate {
        /// Output file.
        #[arg(long)]
        out: PathBuf,
        /// What the archive holds.
        #[arg(long, value_enum, default_value_t = KindArg::Pages)]
        kind: KindArg,
        /// How records are stored.
        #[arg(long, value_enum, default_value_t = LayoutArg::PerRecord)]
        layout: LayoutArg,
        /// Uncompressed size to reach, in bytes (suffixes K, M, G allowed).
        #[arg(long, default_value = "100M")]
        size: String,
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
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Output folder: OUT/<table>/crawl=<crawl>/part-<input>.parquet
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
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
    /// Work that only other tables need is skipped: without `agent_verdicts` no verdicts are
    /// computed, without `page_signals` and `host_counts` no HTML head is scanned. Parts of
    /// tables not written are left as they are. `robots_hosts` is derived whenever
    /// `robots_files` is written.
    #[arg(long, value_name = "TABLE,...", value_delimiter = ',')]
    tables: Option<Vec<String>>,
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
    /// The same, with the 2xx bodies drawn from real robots.txt files (`--bodies`).
    RobotsReal,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayoutArg {
    PerRecord,
    WholeFile,
    Plain,
}

fn parse_size(s: &str) -> Result<u64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last() {
        Some('K' | 'k') => (&s[..s.len() - 1], 1u64 << 10),
        Some('M' | 'm') => (&s[..s.len() - 1], 1 << 20),
        Some('G' | 'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    Ok(num
        .parse::<u64>()
        .with_context(|| format!("bad size {s:?}"))?
        * mult)
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

/// A robots.txt to `check` or `parse`: its first 500 KiB, as much as RFC 9309 asks a crawler to
/// parse and as much as the scan reads (`/dev/zero` or an endless pipe ends there).
fn read_input(path: &std::path::Path) -> Result<Vec<u8>> {
    use anyhow::Context;
    use std::io::Read;
    let limit = repcensus::PARSE_LIMIT;
    let source: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?,
        )
    };
    let mut b = Vec::new();
    source
        .take(limit as u64 + 1)
        .read_to_end(&mut b)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if b.len() > limit {
        b.truncate(limit);
        eprintln!(
            "repcensus: note: {} is longer than 500 KiB; only its first 500 KiB are read (RFC 9309 2.5)",
            path.display()
        );
    }
    Ok(b)
}

/// The registry's agent named `agent`, or else the first whose product token it is (ignoring
/// case).
fn registry_entry<'r>(registry: &'r Registry, agent: &str) -> Option<&'r repcensus::Agent> {
    let by_name = registry.position(agent).map(|i| &registry.agents[i]);
    by_name.or_else(|| (registry.agents.iter()).find(|e| e.token.eq_ignore_ascii_case(agent)))
}

#[allow(clippy::too_many_arguments)]
fn check(
    robots: &std::path::Path,
    agent: Option<String>,
    url: Option<String>,
    mut agents: Vec<String>,
    mut urls: Vec<String>,
    purpose: Option<String>,
    json: bool,
    explain: bool,
    documented: bool,
) -> Result<ExitCode> {
    use repcensus::{path_params_query, Matcher, RobotsTxt};
    agents.splice(0..0, agent);
    urls.splice(0..0, url);
    if agents.is_empty() || urls.is_empty() {
        anyhow::bail!("give an agent and a URL (AGENT URL, or --agent A --url U)");
    }
    use std::io::Write;
    let body = read_input(robots)?;
    let parsed = RobotsTxt::parse(&body);
    let mut m = Matcher::new();
    let mut out = std::io::stdout().lock();
    let mut all_allowed = true;
    let registry = documented.then(Registry::builtin);
    for a in &agents {
        let rules = (registry.as_ref())
            .and_then(|r| registry_entry(r, a))
            .map(|e| e.group_rules())
            .unwrap_or_default();
        if explain && !repcensus::is_valid_product_token(a) {
            eprintln!(
                "note: '{a}' is not a product token ([A-Za-z_-]+); robots.txt lines name tokens like 'Googlebot', so it may match nothing"
            );
        }
        // The groups depend on the agent only; each URL is decided against them.
        let sel = m.select_documented(&parsed, a, purpose.as_deref(), rules);
        let fallback = sel
            .fallback
            .map_or("", |k| &rules.fallback_tokens[usize::from(k)]);
        for u in &urls {
            let path = path_params_query(u);
            let v = m.decide(&parsed, sel, path.as_bytes());
            let apps = repcensus::internals::app_directives_at(&parsed, a, path.as_bytes());
            all_allowed &= v.allowed;
            let word = if v.allowed { "ALLOWED" } else { "DISALLOWED" };
            let line = v.line_index.map(|i| &parsed.lines[i]);
            if json {
                let o = serde_json::json!({
                    "agent": a,
                    "purpose": purpose,
                    "url": u,
                    "path": path,
                    "allowed": v.allowed,
                    "verdict": word,
                    "source": v.source.as_str(),
                    "group": v.group,
                    "line": v.line,
                    "rule": line.map(|l| l.key.as_str()),
                    "pattern": v.line_index.map(|i| String::from_utf8_lossy(parsed.norm_value(i)).into_owned()),
                    "priority": v.priority,
                    "rules_considered": v.n_rules,
                    "documented": documented,
                    "app_directives": apps.iter().map(|(app, k, v, t)| serde_json::json!({
                        "app": app, "directive": k, "value": v, "value_type": t,
                    })).collect::<Vec<_>>(),
                });
                writeln!(out, "{o}")?;
                continue;
            }
            writeln!(out, "user-agent '{a}' with URI '{u}': {word}")?;
            if explain {
                let groups = match v.source {
                    repcensus::Source::Specific => format!("the group(s) naming '{a}'"),
                    repcensus::Source::Purpose => {
                        "the group(s) with a matching User-Agent-Purpose line".into()
                    }
                    repcensus::Source::Wildcard => {
                        "the '*' group(s): no group names this agent".into()
                    }
                    repcensus::Source::Fallback => format!(
                        "the group(s) naming '{fallback}', which the crawler follows when no group names '{a}' (its operator documents it)"
                    ),
                    repcensus::Source::None if rules.ignores_wildcard => {
                        "no group names this agent, and it ignores the '*' group(s) (its operator documents it): everything is allowed".into()
                    }
                    repcensus::Source::None => "no group applies: everything is allowed".into(),
                };
                writeln!(
                    out,
                    "  path {path}; decided by {groups} ({} allow/disallow lines considered)",
                    v.n_rules
                )?;
                match line {
                    Some(l) if v.priority > 0 => writeln!(
                        out,
                        "  line {}: {}  (the longest matching pattern, {} bytes; ties go to Allow)",
                        l.number,
                        String::from_utf8_lossy(l.text(parsed.body)).trim(),
                        v.priority
                    )?,
                    Some(l) => writeln!(
                        out,
                        "  line {}: {}  (an empty pattern decides nothing)",
                        l.number,
                        String::from_utf8_lossy(l.text(parsed.body)).trim()
                    )?,
                    None => writeln!(out, "  no rule matches this path")?,
                }
                if !apps.is_empty() {
                    let list: Vec<String> = apps
                        .iter()
                        .map(|(app, k, v, _)| format!("{app}: {k}={v}"))
                        .collect();
                    writeln!(
                        out,
                        "  App-Directives for this path (its longest matching App-Directives path in the agent's groups): {}",
                        list.join(", ")
                    )?;
                }
            }
        }
    }
    Ok(ExitCode::from(if all_allowed { 0 } else { 1 }))
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Check {
            robots,
            agent,
            url,
            agents,
            urls,
            purpose,
            json,
            explain,
            documented,
        } => check(
            &robots, agent, url, agents, urls, purpose, json, explain, documented,
        ),
        Command::Agents { agents, format } => {
            let r = load_registry(agents.as_deref())?;
            print_agents(&r, format)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Parse { robots } => {
            let body = read_input(&robots)?;
            let v = repcensus::file_json(&body, &robots.to_string_lossy());
            let text = serde_json::to_string_pretty(&v)? + "\n";
            std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Scan(args) => run_scan(args),
        Command::Hosts { out, crawl, quiet } => run_hosts(&out, &crawl, quiet),
        Command::Report { tables, out, crawl } => {
            let s = repcensus::report(&repcensus::ReportOptions {
                tables,
                html: out.clone(),
                crawls: crawl,
            })?;
            let sections = if s.sections.len() < s.crawls.len() {
                format!(
                    " (sections for {}; --crawl NAME shows others)",
                    s.sections.join(", ")
                )
            } else {
                String::new()
            };
            eprintln!(
                "wrote {}: {} crawl(s){sections}, {} KB",
                out.display(),
                s.crawls.len(),
                s.bytes.div_ceil(1000)
            );
            for m in &s.missing {
                eprintln!("missing: {m}");
            }
            for (crawl, why) in &s.failed {
                eprintln!("repcensus: crawl {crawl} not reported: {why}");
            }
            Ok(if s.failed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Generate {
            out,
            kind,
            layout,
            size,
            seed,
            bodies,
        } => run_generate(&out, kind, layout, &size, seed, &bodies),
    }
}

/// `repcensus scan`.
fn run_scan(args: ScanArgs) -> Result<ExitCode> {
    let ScanArgs {
        inputs,
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
        stall_timeout,
        input_deadline,
    } = args;
    let tables = match &tables {
        Some(names) => {
            repcensus::TableSelection::parse(names).map_err(|e| anyhow::anyhow!("--tables: {e}"))?
        }
        None => repcensus::TableSelection::all(),
    };
    let registry = load_registry(agents.as_deref())?;
    let mut paths = inputs::expand(&inputs, prefix.as_deref(), Some(&out))?;
    if paths.is_empty() {
        anyhow::bail!("no inputs found in {}", inputs.join(" "));
    }
    let mut ids = None;
    if let Some(spec) = &shard {
        let (i, n) = inputs::parse_shard(spec)?;
        let (p, d) = inputs::shard(&paths, i, n);
        paths = p;
        ids = Some(d);
    }
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = ScanOptions {
        inputs: paths,
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
        panic_on_input: std::env::var("REPCENSUS_PANIC_ON_INPUT").ok(),
        stall_timeout: std::time::Duration::from_secs(stall_timeout.max(1)),
        input_deadline: (input_deadline > 0)
            .then(|| std::time::Duration::from_secs(input_deadline)),
        truncate_on_map: std::env::var("REPCENSUS_TRUNCATE_ON_MAP")
            .ok()
            .and_then(|v| {
                let (name, len) = v.rsplit_once(':')?;
                Some((name.to_string(), len.parse().ok()?))
            }),
    };
    let summary = repcensus::scan(&opts)?;
    if !quiet {
        eprint!("{}", summary.render());
    }
    if let Some(f) = &summary_file {
        let text = serde_json::to_string_pretty(&summary.to_json())? + "\n";
        let tmp = f.with_extension("json.tmp");
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, f))
            .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
    }
    Ok(
        if summary.inputs_failed > 0 || (fail_on_error && summary.inputs_with_errors > 0) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}

/// `repcensus hosts`.
fn run_hosts(out: &std::path::Path, crawls: &[String], quiet: bool) -> Result<ExitCode> {
    let only: Option<std::collections::BTreeSet<String>> =
        (!crawls.is_empty()).then(|| crawls.iter().cloned().collect());
    let summary = repcensus::derive_hosts(out, only.as_ref())?;
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
    Ok(if summary.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `repcensus generate`.
fn run_generate(
    out: &std::path::Path,
    kind: KindArg,
    layout: LayoutArg,
    size: &str,
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
        target_bytes: parse_size(size)?,
        seed,
        bodies,
    };
    let file =
        std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let stats = repcensus::generate(&opts, &mut w)?;
    eprintln!(
        "wrote {}: {} records, {} captures ({} robots.txt), {} bytes uncompressed",
        out.display(),
        stats.records,
        stats.captures,
        stats.robots_captures,
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

fn print_agents(r: &Registry, format: AgentsFormat) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match format {
        AgentsFormat::Csv => {
            for l in Registry::header().lines() {
                writeln!(out, "# {l}")?;
            }
            write!(out, "{}", r.to_csv()?)?;
        }
        AgentsFormat::Json => {
            let v = serde_json::json!({
                "registry_version": r.version,
                "sources": Registry::header(),
                "agents": r.agents,
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        AgentsFormat::Table => {
            for l in Registry::header().lines() {
                writeln!(out, "# {l}")?;
            }
            writeln!(
                out,
                "# {} agents, registry {} (`--format csv` or `json` for every column)",
                r.agents.len(),
                r.version
            )?;
            let w = |f: fn(&repcensus::Agent) -> &str, h: &str| {
                r.agents
                    .iter()
                    .map(|a| f(a).len())
                    .max()
                    .unwrap_or(0)
                    .max(h.len())
            };
            let (wn, wt, wc, wo) = (
                w(|a| &a.name, "name"),
                w(|a| &a.token, "token"),
                w(|a| &a.category, "category"),
                w(|a| &a.operator, "operator"),
            );
            writeln!(
                out,
                "{:wn$}  {:wt$}  {:wc$}  {:wo$}  robots_txt",
                "name", "token", "category", "operator"
            )?;
            for a in &r.agents {
                writeln!(
                    out,
                    "{:wn$}  {:wt$}  {:wc$}  {:wo$}  {}",
                    a.name, a.token, a.category, a.operator, a.robots_txt
                )?;
            }
        }
    }
    Ok(())
}

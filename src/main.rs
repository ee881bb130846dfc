//! The `repcensus` command line. Thin: argument parsing, then the library does the work.
//!
//! Exit codes: 0 when every input was read, 1 when some input failed, 2 for usage or output errors.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use repcensus::gen::{self, GenKind, GenOptions, Layout};
use repcensus::input;
use repcensus::scan::{self, ScanOptions};
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
    Scan {
        /// Archives: files, folders (searched recursively), glob patterns, or @FILE lists of paths
        /// (one per line, `#` comments; may be gzip-compressed, like a crawl's warc.paths.gz).
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
        #[arg(long, default_value_t = scan::DEFAULT_CHUNK, hide = true)]
        chunk_size: usize,
        /// No progress bar and no summary.
        #[arg(long, short)]
        quiet: bool,
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
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum KindArg {
    Pages,
    Robots,
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
        Err(e) => {
            eprintln!("repcensus: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Scan {
            inputs,
            out,
            threads,
            crawl,
            chunk_size,
            quiet,
        } => {
            let paths = input::expand(&inputs)?;
            if paths.is_empty() {
                anyhow::bail!("no inputs found in {}", inputs.join(" "));
            }
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let opts = ScanOptions {
                inputs: paths,
                out,
                threads,
                crawl,
                chunk_size,
                progress: !quiet && std::io::stderr().is_terminal(),
                panic_on_input: std::env::var("REPCENSUS_PANIC_ON_INPUT").ok(),
            };
            let summary = scan::scan(&opts)?;
            if !quiet {
                eprint!("{}", summary.render());
            }
            Ok(if summary.inputs_failed > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Generate {
            out,
            kind,
            layout,
            size,
            seed,
        } => {
            let opts = GenOptions {
                kind: match kind {
                    KindArg::Pages => GenKind::Pages,
                    KindArg::Robots => GenKind::Robots,
                },
                layout: match layout {
                    LayoutArg::PerRecord => Layout::GzipPerRecord,
                    LayoutArg::WholeFile => Layout::GzipWholeFile,
                    LayoutArg::Plain => Layout::Plain,
                },
                target_bytes: parse_size(&size)?,
                seed,
            };
            let file = std::fs::File::create(&out)
                .with_context(|| format!("cannot create {}", out.display()))?;
            let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
            let stats = gen::generate(&opts, &mut w)?;
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
    }
}

//! `repcensus scan`: its arguments turned into the library's [`ScanOptions`], checked before
//! anything is read (the tables, the registry, where the results go, the inputs), then the
//! scan run and what it did said, with the exit code.

use super::args::{RangeRedirects, ScanArgs};
use super::commands::load_registry;
use anyhow::Result;
use repcensus::{inputs, ScanOptions, TestHooks};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// What `scan` was told, validated: every input listed (or every record of `--records`
/// planned), the output folder and `--summary` file checked, the tables and agents known.
/// `inputs_done` is left for the caller.
impl TryFrom<&ScanArgs> for ScanOptions {
    type Error = anyhow::Error;

    fn try_from(args: &ScanArgs) -> Result<ScanOptions> {
        let tables = match &args.tables {
            Some(names) => repcensus::TableSelection::parse(names)
                .map_err(|e| anyhow::anyhow!("--tables: {e}"))?,
            None => repcensus::TableSelection::default(),
        };
        let registry = load_registry(args.agents.as_deref())?;
        // Where the results go is checked before anything is read.
        check_out(&args.out)?;
        if let Some(f) = &args.summary {
            check_summary(f)?;
        }
        let shard = args.shard.as_deref().map(inputs::parse_shard).transpose()?;
        let (paths, ids, targets) = match &args.records {
            Some(list) => {
                let per = args.records_per_input.max(1);
                let prefix = args.prefix.as_deref();
                let targets = repcensus::records_list::plan(list, prefix, per, shard)?;
                let paths = targets.iter().map(|t| PathBuf::from(&t.label)).collect();
                let ids = targets.iter().map(|t| t.id.clone()).collect();
                (paths, Some(ids), targets)
            }
            None => {
                let (paths, ids) = whole_archives(args, shard)?;
                (paths, ids, Vec::new())
            }
        };
        let threads = (args.threads.filter(|&n| n > 0))
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(ScanOptions {
            inputs: paths,
            targets,
            fetch_concurrency: args.fetch_concurrency.max(1),
            range_redirects: match args.range_redirects {
                RangeRedirects::SameHost => repcensus::Redirects::SameHost,
                RangeRedirects::Any => repcensus::Redirects::Any,
            },
            out: args.out.clone(),
            threads,
            crawl: args.crawl.clone(),
            chunk_size: args.chunk_size,
            progress: !args.quiet && std::io::stderr().is_terminal(),
            registry,
            ids,
            resume: args.resume,
            inflate_all: args.inflate_all,
            tables,
            derive_hosts: shard.is_none(),
            page_agents: args.page_agents.clone(),
            derive_budget: TestHooks::budget(args.memory),
            hooks: TestHooks::from_env(),
            stall_timeout: std::time::Duration::from_secs(args.stall_timeout.max(1)),
            inputs_done: None,
            input_deadline: (args.input_deadline > 0)
                .then(|| std::time::Duration::from_secs(args.input_deadline)),
        })
    }
}

/// The archives the inputs name, and, for a shard, this shard's with the part names the
/// whole run gives them.
fn whole_archives(
    args: &ScanArgs,
    shard: Option<(usize, usize)>,
) -> Result<(Vec<PathBuf>, Option<Vec<String>>)> {
    let paths = inputs::expand(&args.inputs, args.prefix.as_deref(), Some(&args.out))?;
    if paths.is_empty() {
        anyhow::bail!("no inputs found in {}", args.inputs.join(" "));
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
    Ok(match shard {
        Some((i, n)) => {
            let (p, d) = inputs::shard(&paths, i, n);
            (p, Some(d))
        }
        None => (paths, None),
    })
}

/// `repcensus scan`.
pub fn run(args: ScanArgs) -> Result<ExitCode> {
    // Signals are taken from here on, so that an interrupt while the inputs are listed says so
    // too instead of killing the process silently.
    let done = Arc::new(AtomicUsize::new(0));
    let total = Arc::new(AtomicUsize::new(0));
    say_when_interrupted(done.clone(), total.clone());
    let mut opts = ScanOptions::try_from(&args)?;
    opts.inputs_done = Some(done);
    total.store(opts.inputs.len(), Ordering::Relaxed);
    let summary = repcensus::scan(&opts)?;
    say(&summary, &opts, args.quiet);
    if let Some(f) = &args.summary {
        summary.write_json(f)?;
    }
    Ok(if summary.succeeded(args.fail_on_error) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// What the scan did, on standard error: its summary, or quietly only what went wrong.
fn say(summary: &repcensus::ScanSummary, opts: &ScanOptions, quiet: bool) {
    // Said even quietly: the tables hold rows twice.
    for w in &summary.warnings {
        eprintln!("repcensus: warning: {w}");
    }
    if !quiet {
        eprint!("{}", summary.render());
        if !opts.derive_hosts {
            // A shard: until `hosts` runs, the crawl has no robots_hosts and no summaries, and
            // the agent_verdicts view (which takes agent names from summary_agents) has no rows.
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
}

/// On SIGINT or SIGTERM, say how far the scan got and how to finish it, then exit (130 or
/// 143): every part in place is complete, and `--resume` reads only the inputs not done. The
/// signals are taken by a thread of their own (`sigwait`), so they must be blocked before the
/// scan starts its threads, which inherit the mask. `total` is 0 until the inputs are listed.
#[cfg(unix)]
fn say_when_interrupted(done: Arc<AtomicUsize>, total: Arc<AtomicUsize>) {
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
                let n = done.load(Ordering::Relaxed);
                match total.load(Ordering::Relaxed) {
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
fn say_when_interrupted(_: Arc<AtomicUsize>, _: Arc<AtomicUsize>) {}

/// A local path (not a URL nor `-`) where nothing is.
fn is_missing_file(path: &std::path::Path) -> bool {
    let text = path.to_string_lossy();
    !text.contains("://") && text != "-" && std::fs::symlink_metadata(path).is_err()
}

/// `--out` must be a folder (or not exist yet, or be remote).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::{Cli, Command};
    use clap::Parser;

    fn scan_args(typed: &[&str]) -> ScanArgs {
        let argv = ["repcensus", "scan"].iter().chain(typed);
        match Cli::try_parse_from(argv).unwrap().command {
            Command::Scan(args) => args,
            _ => unreachable!("a scan"),
        }
    }

    fn samples() -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/samples").to_string()
    }

    #[test]
    fn what_was_typed_becomes_checked_scan_options() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let out = out.to_str().unwrap();
        let typed = [&samples(), "--out", out, "-j", "0", "--shard", "1/2"];
        let opts = ScanOptions::try_from(&scan_args(&typed)).unwrap();
        assert!(!opts.inputs.is_empty(), "the samples' archives are listed");
        assert!(opts.threads > 0, "0 threads is every core");
        assert!(!opts.derive_hosts, "a shard derives nothing");
        let ids = opts
            .ids
            .as_ref()
            .expect("a shard keeps the whole run's part names");
        assert_eq!(ids.len(), opts.inputs.len());
        assert_eq!(opts.stall_timeout, std::time::Duration::from_secs(120));
        assert_eq!(
            opts.input_deadline,
            Some(std::time::Duration::from_secs(6 * 3600))
        );
        // Nothing is written while the options are made.
        assert!(!dir.path().join("out").exists());
    }

    #[test]
    fn wrong_settings_are_refused_before_anything_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "x").unwrap();
        let file = file.to_str().unwrap();
        let out = dir.path().join("out");
        let out = out.to_str().unwrap();
        let refused = |typed: &[&str]| {
            let e = ScanOptions::try_from(&scan_args(typed)).err();
            e.map(|e| format!("{e:#}")).unwrap_or_default()
        };
        let s = samples();
        assert!(refused(&[&s, "--out", file]).contains("is a file, not a folder"));
        assert!(refused(&[&s, "--out", out, "--tables", "nope"]).contains("--tables"));
        assert!(refused(&[&s, "--out", out, "--summary", &s]).contains("is a folder"));
        let missing = dir.path().join("missing.warc.gz");
        let missing = missing.to_str().unwrap();
        assert!(refused(&[missing, "--out", out]).contains("no such file or folder"));
        assert!(refused(&[&s, "--out", out, "--shard", "2/2"]).contains("shard"));
        assert!(!dir.path().join("out").exists(), "nothing was written");
    }
}

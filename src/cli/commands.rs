//! The commands other than `scan`: each takes what was typed, asks the library, and says what
//! it did, with the exit code its help promises.

use super::args::{AgentsFormat, KindArg, LayoutArg};
use anyhow::{Context, Result};
use repcensus::{GenOptions, Registry};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `repcensus check`: exit 0 when every agent may fetch every URL, 1 when not.
pub fn check(opts: &repcensus::CheckOptions) -> Result<ExitCode> {
    let all_allowed = repcensus::check(
        opts,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )?;
    Ok(ExitCode::from(if all_allowed { 0 } else { 1 }))
}

/// `repcensus agents`.
pub fn agents(file: Option<&Path>, format: AgentsFormat) -> Result<ExitCode> {
    let r = load_registry(file)?;
    r.write_list(format.into(), &mut std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

/// `repcensus parse`: the file as the tables would hold it, as JSON.
pub fn parse(robots: &Path, agents: Option<&Path>, stall_timeout: u64) -> Result<ExitCode> {
    let registry = load_registry(agents)?;
    let stall = std::time::Duration::from_secs(stall_timeout.max(1));
    let (body, bytes) = repcensus::read_robots_txt(robots, stall, &mut std::io::stderr().lock())?;
    let name = robots.to_string_lossy();
    let v = repcensus::file_json_of(&body, bytes, &name, Some(&registry));
    let text = serde_json::to_string_pretty(&v)? + "\n";
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// `repcensus explain`: exit 0 when allowed in every crawl, 1 when not.
pub fn explain(
    out: &Path,
    agents: Option<&Path>,
    opts: &repcensus::ExplainOptions,
    json: bool,
) -> Result<ExitCode> {
    let registry = load_registry(agents)?;
    let found = repcensus::explain(out, &registry, opts)?;
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

/// `repcensus views`.
pub fn views(out: &str) -> Result<ExitCode> {
    match repcensus::views_sql(out) {
        Ok(text) => {
            std::io::stdout().lock().write_all(text.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("repcensus: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

/// `repcensus query`.
pub fn query(
    query: Option<&str>,
    out: Option<&str>,
    list: bool,
    sql: bool,
    opts: &repcensus::QueryOptions,
) -> Result<ExitCode> {
    use repcensus::QueryError;
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
pub fn ranks(opts: repcensus::RanksOptions, quiet: bool) -> ExitCode {
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

/// `repcensus report`.
pub fn report(tables: PathBuf, out: &Path, crawls: Vec<String>, quiet: bool) -> Result<ExitCode> {
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
pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    use clap::CommandFactory;
    let mut cmd = super::args::Cli::command();
    // clap_complete panics when its writer fails (`| head`): it writes to memory.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "repcensus", &mut script);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &script)?;
    Ok(ExitCode::SUCCESS)
}

/// `repcensus man [--out-dir DIR]`.
pub fn man(out_dir: Option<&Path>) -> Result<ExitCode> {
    use clap::CommandFactory;
    let cmd = super::args::Cli::command();
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

/// `repcensus hosts`.
pub fn hosts(
    out: &Path,
    crawls: &[String],
    agents: Option<&Path>,
    page_agents: Option<&[String]>,
    budget: &repcensus::Budget,
    quiet: bool,
) -> Result<ExitCode> {
    let only: Option<std::collections::BTreeSet<String>> =
        (!crawls.is_empty()).then(|| crawls.iter().cloned().collect());
    let registry = load_registry(agents)?;
    let summary = repcensus::derive_hosts(out, only.as_ref(), &registry, page_agents, budget)?;
    let nothing = summary.crawls.is_empty() && summary.failed.is_empty();
    if nothing && summary.removed.is_empty() && summary.derived.is_empty() {
        anyhow::bail!(
            "no robots_files in {}{}, nor any table a summary is derived from (scan it first)",
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
pub fn generate(
    out: &Path,
    kind: KindArg,
    layout: LayoutArg,
    size: u64,
    seed: u64,
    bodies: &Path,
) -> Result<ExitCode> {
    let bodies = match kind {
        KindArg::RobotsReal => repcensus::real_bodies(bodies)
            .with_context(|| format!("--bodies {}", bodies.display()))?,
        _ => Vec::new(),
    };
    let opts = GenOptions {
        kind: kind.into(),
        layout: layout.into(),
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

/// The built-in registry of tracked agents, with `--agents FILE`'s entries added or
/// overriding.
pub fn load_registry(file: Option<&Path>) -> Result<Registry> {
    let mut r = Registry::builtin();
    if let Some(f) = file {
        r.apply_file(f)?;
    }
    Ok(r)
}

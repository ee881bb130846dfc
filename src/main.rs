//! The `repcensus` command line. Thin: clap reads what was typed (`cli::args`), `cli` turns it
//! into the library's settings and says what was done, and this file dispatches.
//!
//! Exit codes: 0 when every input was read, 1 when some input failed, 2 for usage or output errors.

mod cli;

use anyhow::Result;
use clap::Parser;
use cli::args::{Cli, Command};
use cli::commands;
use std::process::ExitCode;

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

/// Each command to its runner.
fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Scan(args) => cli::scan_command::run(args),
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
            commands::check(&repcensus::CheckOptions {
                robots,
                agents,
                urls,
                purpose,
                json,
                explain,
                documented,
                stall_timeout: std::time::Duration::from_secs(stall_timeout.max(1)),
            })
        }
        Command::Agents { agents, format } => commands::agents(agents.as_deref(), format),
        Command::Parse {
            robots,
            agents,
            stall_timeout,
        } => commands::parse(&robots, agents.as_deref(), stall_timeout),
        Command::Hosts {
            out,
            crawl,
            agents,
            page_agents,
            memory,
            quiet,
        } => commands::hosts(
            &out,
            &crawl,
            agents.as_deref(),
            page_agents.as_deref(),
            &repcensus::TestHooks::budget(memory),
            quiet,
        ),
        Command::Report {
            tables,
            out,
            crawl,
            quiet,
        } => commands::report(tables, &out, crawl, quiet),
        Command::Ranks {
            file,
            out,
            name,
            quiet,
        } => Ok(commands::ranks(
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
                format: format.map(Into::into),
                output,
                params: param,
                filter,
            };
            commands::query(query.as_deref(), out.as_deref(), list, sql, &opts)
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
            let opts = repcensus::ExplainOptions {
                host,
                agents: vec![agent],
                url,
                crawls: crawl,
            };
            commands::explain(&out, agents.as_deref(), &opts, json)
        }
        Command::Views { out } => commands::views(&out),
        Command::Completions { shell } => commands::completions(shell),
        Command::Man { out_dir } => commands::man(out_dir.as_deref()),
        Command::Generate {
            out,
            kind,
            layout,
            size,
            seed,
            bodies,
        } => commands::generate(&out, kind, layout, size, seed, &bodies),
    }
}

//! Which DuckDB runs a query, and running it there.
//!
//! repcensus does not link DuckDB: building it from source takes longer than the rest of the
//! project (and `.ci/run` has 20 minutes), so the query runs in a DuckDB found on the machine:
//! the command-line one, or the Python module (which the `repcensus` Python package depends
//! on, so an installed wheel always has one, beside the binary in its environment).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A DuckDB to run queries in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Engine {
    /// The DuckDB command-line program.
    Cli(PathBuf),
    /// A Python interpreter that can `import duckdb`.
    Python(PathBuf),
}

/// What `find` says when there is no DuckDB anywhere.
pub const NO_ENGINE: &str = "repcensus query needs DuckDB and found none: install the Python \
module (`pip install duckdb`) or the command (`pip install duckdb-cli`), or name one with \
REPCENSUS_DUCKDB=/path/to/duckdb (the command) or REPCENSUS_PYTHON=/path/to/python (with the \
module)";

/// Where to look, in order: `$REPCENSUS_DUCKDB` (a duckdb command); `$REPCENSUS_PYTHON` (a
/// Python with the duckdb module); the Python of the environment the `repcensus` binary is
/// installed in (a wheel's, which depends on duckdb); `duckdb` on the PATH; `python3` on the
/// PATH, when it has the module.
pub fn find() -> Option<Engine> {
    if let Some(cli) = std::env::var_os("REPCENSUS_DUCKDB") {
        return Some(Engine::Cli(cli.into()));
    }
    if let Some(python) = std::env::var_os("REPCENSUS_PYTHON") {
        return Some(Engine::Python(python.into()));
    }
    let beside = std::env::current_exe().ok().and_then(|exe| {
        let dir = exe.parent()?.to_path_buf();
        ["python3", "python"]
            .iter()
            .map(|n| dir.join(n))
            .find(|p| p.is_file())
    });
    if let Some(python) = beside.filter(|p| has_duckdb_module(p)) {
        return Some(Engine::Python(python));
    }
    if let Some(cli) = on_path("duckdb") {
        return Some(Engine::Cli(cli));
    }
    on_path("python3")
        .filter(|p| has_duckdb_module(p))
        .map(Engine::Python)
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn has_duckdb_module(python: &Path) -> bool {
    Command::new(python)
        .args(["-c", "import duckdb"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// What a run does last: print the answer as a table, or run a `COPY` that writes it.
#[derive(Debug, Clone)]
pub enum Last {
    Show(String),
    Copy(String),
}

/// The Python side of a run: the setup statements, then the last one, from a JSON object on
/// standard input. A DuckDB error is one line on stderr and exit 1, as the command's.
const PYTHON_RUNNER: &str = r#"
import json, sys
import duckdb
job = json.load(sys.stdin)
con = duckdb.connect()
try:
    if job["setup"].strip():
        con.execute(job["setup"])
    if job["show"]:
        con.sql(job["last"]).show(max_width=1000000, max_rows=1000000, max_col_width=1000000)
    else:
        con.execute(job["last"])
except duckdb.Error as e:
    sys.stdout.flush()
    print(f"{type(e).__name__}: {e}", file=sys.stderr)
    sys.exit(1)
"#;

impl Engine {
    /// Run `setup` (statements, each ending in `;`), then `last`; the answer goes to this
    /// process's standard output, DuckDB's errors to its standard error. True when it ran.
    pub fn run(&self, setup: &str, last: &Last) -> std::io::Result<bool> {
        let (mut child, input) = match self {
            Engine::Cli(cli) => {
                let mut script = String::from(setup);
                match last {
                    Last::Show(sql) => script.push_str(&format!(
                        ".mode duckbox\n.maxrows 1000000\n.maxwidth 1000000\n{sql};\n"
                    )),
                    Last::Copy(sql) => script.push_str(&format!("{sql};\n")),
                }
                let child = Command::new(cli)
                    .args(["-no-init", "-batch", "-bail", ":memory:"])
                    .stdin(Stdio::piped())
                    .spawn()?;
                (child, script)
            }
            Engine::Python(python) => {
                let (show, sql) = match last {
                    Last::Show(sql) => (true, sql),
                    Last::Copy(sql) => (false, sql),
                };
                let job = serde_json::json!({ "setup": setup, "show": show, "last": sql });
                let child = Command::new(python)
                    .args(["-c", PYTHON_RUNNER])
                    .stdin(Stdio::piped())
                    .spawn()?;
                (child, job.to_string())
            }
        };
        let mut stdin = child.stdin.take().expect("piped stdin");
        // A DuckDB that exits early (a bad query) closes the pipe: its status says so.
        let _ = stdin.write_all(input.as_bytes());
        drop(stdin);
        Ok(child.wait()?.success())
    }

    /// What to tell a reader about this engine.
    pub fn describe(&self) -> String {
        match self {
            Engine::Cli(p) => format!("the DuckDB command {}", p.display()),
            Engine::Python(p) => format!("the duckdb module of {}", p.display()),
        }
    }
}

//! The Python package, as a user without Rust gets it: a wheel built by the project's packaging
//! (maturin, `pyproject.toml`), installed into a new virtual environment outside the repository
//! with no `cargo` on the PATH, then used from another folder: `repcensus scan`, `repcensus
//! query`, and the module's `connect`, whose GPTBot share equals the README's SQL.
//!
//! Building the wheel relinks `target/release/repcensus` stripped; cargo runs test binaries one
//! at a time, and this one relinks the tests' binary again before it ends.

mod common;

use common::{assert_ok, elf_sections, repo};
use std::path::{Path, PathBuf};
use std::process::Command;

/// maturin, from PyPI, into target/tools.
fn maturin() -> PathBuf {
    common::python_tool("maturin", &["maturin==1.16.0"], "bin/maturin").join("bin/maturin")
}

/// Build the wheel into `dir`; its path.
fn build_wheel(dir: &Path) -> PathBuf {
    let maturin = maturin();
    let tools = maturin.parent().unwrap().parent().unwrap().to_path_buf();
    let built = Command::new(&maturin)
        .current_dir(repo())
        .env("PYTHONPATH", &tools)
        // With the tests' features, the wheel's binary is the tests' own build, linked again
        // stripped (seconds); without, cargo builds the library once more (minutes of CI). The
        // release workflow builds without it: the hooks only read two environment variables.
        .args([
            "build",
            "--release",
            "--quiet",
            "--features",
            "fault-hooks",
            "--out",
        ])
        .arg(dir)
        .output()
        .expect("run maturin");
    // The tests' own binary again, whatever the build above left at its path.
    let restored = Command::new(env!("CARGO"))
        .current_dir(repo())
        .args([
            "build",
            "--release",
            "--quiet",
            "--bin",
            "repcensus",
            "--features",
            "fault-hooks",
        ])
        .output()
        .expect("run cargo");
    assert_ok(&built);
    assert_ok(&restored);
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    wheels.into_iter().next().unwrap()
}

/// A PATH of the virtual environment's bin folder and the system's, without any folder that
/// has a `cargo`.
fn path_without_cargo(venv: &Path) -> String {
    let mut dirs = vec![venv.join("bin")];
    dirs.extend(["/usr/local/bin", "/usr/bin", "/bin"].map(PathBuf::from));
    dirs.retain(|d| !d.join("cargo").exists());
    std::env::join_paths(dirs).unwrap().into_string().unwrap()
}

/// The README's SQL for the share of hosts fully blocking GPTBot (the quick start's).
fn readme_gptbot_sql() -> String {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let block = readme
        .split("```sql\n")
        .skip(1)
        .map(|b| &b[..b.find("```").unwrap()])
        .find(|b| b.contains("GPTBot"))
        .expect("the README has a SQL block about GPTBot");
    block.to_string()
}

#[test]
fn a_wheel_installs_the_command_and_module_where_there_is_no_rust() {
    let tmp = tempfile::tempdir().unwrap();
    let wheel = build_wheel(&tmp.path().join("wheels"));
    let venv = tmp.path().join("venv");
    assert_ok(
        &Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .output()
            .unwrap(),
    );
    let pip = Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--disable-pip-version-check"])
        .arg(&wheel)
        .output()
        .unwrap();
    assert_ok(&pip);

    // The installed binary carries no debug info.
    let installed = venv.join("bin/repcensus");
    let bytes = std::fs::read(&installed).unwrap();
    let debug = |elf: &[u8]| -> Vec<String> {
        // `.debug_gdb_scripts` names gdb's pretty-printers: no debug info.
        let sections = elf_sections(elf).into_iter();
        sections
            .filter(|s| s.starts_with(".debug_") && s != ".debug_gdb_scripts")
            .collect()
    };
    assert!(
        debug(&bytes).is_empty(),
        "the installed binary has {:?}",
        debug(&bytes)
    );
    // The tests' own build (line tables) has them: the check above can fail.
    let tests_own = std::fs::read(env!("CARGO_BIN_EXE_repcensus")).unwrap();
    assert!(debug(&tests_own).contains(&".debug_line".to_string()));
    eprintln!("installed binary: {} bytes", bytes.len());

    let path = path_without_cargo(&venv);
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let run = |program: &str, args: &[&str]| {
        let out = Command::new(program)
            .current_dir(&elsewhere)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", tmp.path())
            .args(args)
            .output()
            .unwrap();
        assert_ok(&out);
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(
        Command::new("sh")
            .env_clear()
            .env("PATH", &path)
            .args(["-c", "command -v cargo"])
            .status()
            .unwrap()
            .code()
            != Some(0),
        "cargo is on the PATH of the test"
    );

    let samples = repo().join("samples");
    run(
        "repcensus",
        &["scan", samples.to_str().unwrap(), "--out", "O", "--quiet"],
    );
    let csv = run(
        "repcensus",
        &["query", "agents_full_block_share", "O", "--format", "csv"],
    );
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut from_query: Vec<(String, String)> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[col("agent")] == "GPTBot")
        .map(|f| (f[col("crawl")].to_string(), f[col("share_2xx")].to_string()))
        .collect();
    from_query.sort();
    assert!(!from_query.is_empty(), "{csv}");

    let first = run(
        "python",
        &["-c", "import repcensus; print(repcensus.connect('O').sql('FROM summary_agents').fetchall()[:1])"],
    );
    assert!(first.starts_with("[("), "{first}");
    // A bundled answer as a relation, one crawl of it.
    let outcomes = run(
        "python",
        &[
            "-c",
            "import repcensus; r = repcensus.query('robots_fetch_outcomes', 'O', crawl='archive.org-shallow'); \
             print(sorted({row[0] for row in r.fetchall()}), r.columns[:2])",
        ],
    );
    assert_eq!(
        outcomes.trim(),
        "['archive.org-shallow'] ['crawl', 'fetch_outcome']"
    );

    // The README's SQL, in the module's DuckDB, from inside the folder as the README says.
    let script = "import duckdb, sys\n\
        for crawl, share, *_ in duckdb.sql(sys.stdin.read()).fetchall():\n\
        \x20   print(f'{crawl},{\"\" if share is None else share}')";
    let readme = Command::new("python")
        .current_dir(elsewhere.join("O"))
        .env_clear()
        .env("PATH", &path)
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(readme_gptbot_sql().as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert_ok(&readme);
    let mut from_readme: Vec<(String, String)> = String::from_utf8(readme.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (crawl, share) = l.split_once(',').unwrap();
            (crawl.to_string(), share.to_string())
        })
        .collect();
    from_readme.sort();
    assert_eq!(from_query, from_readme);
}

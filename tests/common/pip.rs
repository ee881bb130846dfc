//! Python packages from PyPI installed with pip into a folder of target/tools, for the tools the
//! tests and benches run (the DuckDB CLI, moto, pyspark, the e2e bench's peer).

use std::path::Path;
use std::process::Command;

/// `python3 -m pip install --target DIR SPECS...`, quietly; whether it succeeded. The callers
/// decide what a failure means: the tests fail, the bench goes on without its peer.
pub fn install(target: &Path, specs: &[&str]) -> bool {
    let status = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .arg("--target")
        .arg(target)
        .args(specs)
        .status();
    matches!(status, Ok(s) if s.success())
}

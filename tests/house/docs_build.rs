//! The library's documentation (`cargo doc`) builds without a warning: no broken or private
//! intra-doc links, no malformed doc comments. Built into its own target folder, so it neither
//! waits for nor disturbs the test build.

use std::path::Path;
use std::process::Command;

#[test]
fn the_library_documentation_builds_without_warnings() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO"))
        .args(["doc", "--no-deps", "--lib", "--offline", "--quiet"])
        .current_dir(repo)
        .env("CARGO_TARGET_DIR", repo.join("target/doc-check"))
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo doc failed or warned:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

//! Facts of the build, checked from cargo's view of the locked dependency graph.
//!
//! The declared minimum Rust version (`rust-version` in Cargo.toml) is at least that of every
//! crate the build uses (their own `rust-version`, from the locked dependency graph): a
//! toolchain older than a dependency's cannot build it, whatever this crate's code needs. Checked
//! from `cargo metadata` for this machine's platform; the toolchain that runs the tests builds the crate.

use std::process::Command;

fn version(v: &str) -> (u32, u32) {
    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

#[test]
fn the_declared_rust_version_covers_every_dependency() {
    // This machine's platform: the packages it builds (`cargo test` has them already).
    let rustc = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc -vV");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc -vV names the host");
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--filter-platform",
        ])
        .arg(&host)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let declared = version(env!("CARGO_PKG_RUST_VERSION"));
    assert!(declared >= (1, 70), "rust-version {declared:?}");
    // The packages the library and binary build with: the root's normal and build
    // dependencies, and everything they need (dev-dependencies only build the tests).
    let nodes: std::collections::HashMap<&str, &serde_json::Value> = m["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let root = m["resolve"]["root"].as_str().unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        for d in nodes[id]["deps"].as_array().unwrap() {
            let dev_only = d["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .all(|k| k["kind"] == "dev");
            if !(id == root && dev_only) {
                stack.push(d["pkg"].as_str().unwrap());
            }
        }
    }
    let needs: Vec<String> = m["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| seen.contains(p["id"].as_str().unwrap()))
        .filter_map(|p| {
            let v = p["rust_version"].as_str()?;
            (version(v) > declared)
                .then(|| format!("{} {} needs Rust {v}", p["name"], p["version"]))
        })
        .collect();
    assert!(
        needs.is_empty(),
        "rust-version = {} in Cargo.toml, but:\n{}",
        env!("CARGO_PKG_RUST_VERSION"),
        needs.join("\n")
    );
    assert!(seen.len() > 50, "{} packages", seen.len());
}

/// Each package of the build with its features, as `cargo tree` lists them (`edges`: the kinds
/// of dependencies followed).
fn features(edges: &str) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--locked",
            "--prefix",
            "none",
            "--no-dedupe",
            "-e",
            edges,
        ])
        .args(["-f", "{p}|{f}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut map: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let line = line.trim_end_matches(" (*)");
        if let Some((package, features)) = line.split_once('|') {
            map.entry(package.to_string())
                .or_default()
                .insert(features.to_string());
        }
    }
    map
}

/// The test build (with the dev-dependencies) and the run build (`cargo build --release`)
/// build every dependency with the same features, so that neither rebuilds them after the other
/// (only this package differs, by its test-only `fault-hooks` feature). A dev-dependency that
/// turns on a feature of a shared crate fails here: turn it on in `[dependencies]` too.
#[test]
fn the_test_build_and_the_run_build_share_their_dependencies() {
    let run = features("normal,build");
    let test = features("normal,build,dev");
    let differ: Vec<String> = run
        .iter()
        .filter(|(p, _)| !p.starts_with("repcensus "))
        .filter_map(|(p, f)| {
            let t = test.get(p)?;
            (t != f).then(|| format!("{p}: run {f:?}, test {t:?}"))
        })
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(run.len() > 50, "{} packages", run.len());
}

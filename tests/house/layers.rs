//! The layers of `src/` (docs/architecture.md): each folder is one layer and imports only point
//! down. Read from the `crate::` and `super::` paths of the code (comments and `#[cfg(test)]`
//! modules left out), so a new import that points up or closes a circle fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each folder and the folders it may import from. A folder not listed fails the test: a new
/// layer is placed here on purpose.
const LAYERS: &[(&str, &[&str])] = &[
    ("archive", &[]),
    ("robots", &[]),
    ("signals", &["robots"]),
    ("files", &["robots"]),
    ("agents", &["robots"]),
    ("check", &["archive", "robots", "signals", "agents"]),
    ("gen", &["archive"]),
    ("parts", &["archive"]),
    ("tables", &["parts", "agents"]),
    (
        "rows",
        &["archive", "robots", "signals", "files", "agents", "tables"],
    ),
    (
        "derive",
        &[
            "archive", "robots", "signals", "files", "agents", "parts", "tables", "rows",
        ],
    ),
    (
        "report",
        &["archive", "signals", "files", "parts", "tables"],
    ),
    ("ask", &["archive", "parts", "tables"]),
    ("ranks", &["archive", "parts", "tables"]),
    (
        "explain",
        &[
            "archive", "robots", "agents", "check", "parts", "tables", "rows", "derive",
        ],
    ),
    (
        "scan",
        &[
            "archive", "robots", "signals", "agents", "parts", "tables", "rows", "derive",
        ],
    ),
    // The binary's modules (main.rs's `mod cli`): they reach the library as `repcensus::`,
    // which no `crate::` path names.
    ("cli", &[]),
];

/// A module as `folder/file` (`folder/mod` for a folder's own module file).
type Module = String;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comments and without its `#[cfg(test)]` modules (tests may reach
/// anywhere).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|n| n.trim_start().starts_with("mod "))
        {
            // Skip to the module's closing brace, at the indentation of its `mod` line.
            let close = format!("{}}}", &line[..line.len() - t.len()]);
            lines.by_ref().find(|l| *l == close);
            continue;
        }
        if !t.starts_with("//") {
            code.push_str(line.split(" //").next().unwrap_or(""));
            code.push('\n');
        }
    }
    code
}

/// The modules a file's code names: `crate::a::b` as `a/b`, `crate::a::b::c` as `a/b/c` when
/// `a/b` is a folder, `crate::a::c` as `a/b/c` when that is the only `c` in `a`'s folders (a
/// module re-exported by its folder's `mod.rs`), else the deepest folder's `mod`; `super::b`
/// likewise from the file's own folder.
fn imports(code: &str, me: &Module, modules: &BTreeSet<Module>) -> BTreeSet<Module> {
    // The module `super` names: the file's folder; for a folder's `mod.rs`, the folder above
    // (none for a layer's own `mod.rs`: the crate root, above every layer).
    let (dir, file) = me.rsplit_once('/').unwrap();
    let parent = if file == "mod" {
        dir.rsplit_once('/').map(|(p, _)| p.to_string())
    } else {
        Some(dir.to_string())
    };
    let mut found = BTreeSet::new();
    for (prefix, is_super) in [("crate::", false), ("super::", true)] {
        for (i, _) in code.match_indices(prefix) {
            let rest = &code[i + prefix.len()..];
            let (base, after) = if is_super {
                let Some(p) = &parent else { continue };
                (p.clone(), rest)
            } else {
                let first = ident(rest);
                let after = rest[first.len()..].strip_prefix("::").unwrap_or("");
                (first, after)
            };
            // `a::b::c` or each path of `a::{b, c::d}`.
            let paths: Vec<Vec<String>> = match after.strip_prefix('{') {
                Some(list) => list[..list.find('}').unwrap_or(list.len())]
                    .split(',')
                    .map(|item| segments(item.trim()))
                    .collect(),
                None => vec![segments(after)],
            };
            for path in paths {
                if let Some(m) = resolve(&base, &path, modules) {
                    found.insert(m);
                }
            }
        }
    }
    found.retain(|m| m != me);
    found
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The names of a path (`b::c::d` up to the first character that is no part of one).
fn segments(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    loop {
        let name = ident(rest);
        if name.is_empty() {
            return out;
        }
        rest = &rest[name.len()..];
        out.push(name);
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return out,
        }
    }
}

/// The module a path from folder `base` names (see [`imports`]).
fn resolve(base: &str, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut folder = base.to_string();
    for (k, name) in path.iter().enumerate() {
        let sub = format!("{folder}/{name}");
        if modules.contains(&format!("{sub}/mod")) {
            folder = sub;
            continue;
        }
        if modules.contains(&sub) {
            return Some(sub);
        }
        if k == 0 {
            // A module its folder re-exports from a folder of its own.
            let nested: Vec<&Module> = (modules.iter())
                .filter(|m| {
                    m.starts_with(&format!("{folder}/")) && m.ends_with(&format!("/{name}"))
                })
                .collect();
            if let [only] = nested.as_slice() {
                return Some((*only).clone());
            }
        }
        break;
    }
    let own = format!("{folder}/mod");
    modules.contains(&own).then_some(own)
}

fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut texts = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap().with_extension("");
        let parts: Vec<_> = rel
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if parts.len() == 1 {
            // lib.rs and main.rs: the crate's front, above every layer.
            continue;
        }
        texts.insert(parts.join("/"), std::fs::read_to_string(&f).unwrap());
    }
    let modules: BTreeSet<Module> = texts.keys().cloned().collect();
    texts
        .iter()
        .map(|(m, t)| (m.clone(), imports(&code_of(t), m, &modules)))
        .collect()
}

/// A circle through `start`, if there is one (depth-first search).
fn circle_from(
    g: &BTreeMap<Module, BTreeSet<Module>>,
    start: &Module,
    at: &Module,
    path: &mut Vec<Module>,
    seen: &mut BTreeSet<Module>,
) -> Option<Vec<Module>> {
    for next in &g[at] {
        if next == start {
            let mut c = path.clone();
            c.push(start.clone());
            return Some(c);
        }
        if seen.insert(next.clone()) {
            path.push(next.clone());
            if let Some(c) = circle_from(g, start, next, path, seen) {
                return Some(c);
            }
            path.pop();
        }
    }
    None
}

#[test]
fn imports_point_down_the_layers() {
    let layers: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (m, deps) in graph() {
        let folder = m.split('/').next().unwrap();
        let Some(allowed) = layers.get(folder) else {
            wrong.push(format!("src/{folder}/ is not in LAYERS"));
            continue;
        };
        for d in deps {
            let to = d.split('/').next().unwrap();
            if to != folder && !allowed.contains(&to) {
                wrong.push(format!(
                    "{m} imports {d}: {folder}/ may import only {allowed:?}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_module_imports_itself_through_a_circle() {
    let g = graph();
    let circles: Vec<String> = g
        .keys()
        .filter_map(|m| {
            circle_from(&g, m, m, &mut vec![m.clone()], &mut BTreeSet::new())
                .map(|c| c.join(" -> "))
        })
        .collect();
    assert!(circles.is_empty(), "{}", circles.join("\n"));
}

/// The checks see what they claim to: a known import is found, and a circle and an upward import
/// written into a copy of the graph are reported.
#[test]
fn the_checks_find_imports_circles_and_upward_arrows() {
    let mut g = graph();
    assert!(
        g["rows/source"].contains("rows/from_robots/verdicts"),
        "{:?}",
        g["rows/source"]
    );
    assert!(
        g["scan/state"].contains("scan/resume"),
        "{:?}",
        g["scan/state"]
    );
    assert!(g["scan/state"].contains("scan/shared"));
    assert!(g.len() > 20, "{} modules", g.len());
    let start = "rows/from_robots/verdicts".to_string();
    assert!(circle_from(
        &g,
        &start,
        &start,
        &mut vec![start.clone()],
        &mut BTreeSet::new()
    )
    .is_none());
    g.get_mut("rows/from_robots/verdicts")
        .unwrap()
        .insert("rows/source".into());
    let c = circle_from(
        &g,
        &start,
        &start,
        &mut vec![start.clone()],
        &mut BTreeSet::new(),
    );
    // The first circle found through the added arrow (there may be longer ones back).
    let c = c.unwrap().join(" -> ");
    assert!(
        c.starts_with("rows/from_robots/verdicts -> rows/source -> ")
            && c.ends_with(" -> rows/from_robots/verdicts"),
        "{c}"
    );
    let code = code_of(
        "use crate::scan::resume;\nuse crate::robots::{lex::Line, Key};\n// crate::rows::extract\n",
    );
    let modules: BTreeSet<Module> = g.keys().cloned().collect();
    let found = imports(&code, &"archive/gz".into(), &modules);
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        ["robots/lex", "robots/mod", "scan/resume"]
    );
}

#[test]
fn nested_modules_and_re_exports_are_followed() {
    let g = graph();
    // `crate::archive::source::remote` is archive/source/remote.rs;
    // `crate::archive::framing::starts::...` is archive/framing/starts.rs.
    let reader = &g["archive/container/reader"];
    assert!(reader.contains("archive/framing/starts"), "{reader:?}");
    let ranges = &g["archive/source/ranges"];
    assert!(ranges.contains("archive/source/remote"), "{ranges:?}");
}

/// Literals that equal a table's name but do not name the table: a column, a JSON key of a
/// run summary that counts something else, or a robots.txt key. Each is (file, literal).
const NOT_TABLES: &[(&str, &str)] = &[
    // `inputs.errors` and `inputs.records`, `errors` as a count in the run summary and report.
    ("src/report/facts.rs", "errors"),
    ("src/report/overview.rs", "errors"),
    ("src/report/robots_figures.rs", "errors"),
    ("src/scan/resume.rs", "errors"),
    ("src/scan/summary.rs", "errors"),
    // Counts named like the tables they count in: the report's "what was read" rows and the
    // run summary's JSON.
    ("src/report/overview.rs", "inputs"),
    ("src/report/robots_figures.rs", "inputs"),
    ("src/report/robots_figures.rs", "robots_hosts"),
    ("src/report/overview.rs", "robots_hosts"),
    ("src/scan/summary.rs", "inputs"),
    ("src/scan/summary.rs", "robots_hosts"),
    ("src/report/page_figures.rs", "pages"),
    ("src/report/file_figures.rs", "pages"),
    // A clap argument's id, the `inputs` positional.
    ("src/cli/args.rs", "inputs"),
    // The robots.txt key `App-Directives` and the verdicts' column of it.
    ("src/robots/key.rs", "app_directives"),
    ("src/report/facts.rs", "app_directives"),
    ("src/check/mod.rs", "app_directives"),
    ("src/rows/from_robots/robots_txt.rs", "app_directives"),
];

/// The files of the catalogue: the tables a scan writes (`table.rs`) and the derived ones
/// (`derived.rs`, beside their columns).
const CATALOGUE: [&str; 2] = ["src/tables/table.rs", "src/tables/derived.rs"];

/// A table's name is written once, in the catalogue ([`CATALOGUE`]: `Variant = "name"`): code
/// elsewhere says `Table::X.name()`, so a renamed or new table cannot leave a stray behind.
#[test]
fn table_names_are_written_only_in_the_catalogue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let catalogue: String = (CATALOGUE.iter())
        .map(|f| std::fs::read_to_string(root.join(f)).unwrap())
        .collect();
    let names: Vec<&str> = catalogue
        .lines()
        .filter_map(|l| {
            let (variant, rest) = l.trim().split_once(" = \"")?;
            let is_variant = variant.starts_with(|c: char| c.is_ascii_uppercase())
                && variant.chars().all(|c| c.is_ascii_alphanumeric());
            is_variant.then(|| rest.split_once('"').map(|(n, _)| n))?
        })
        .collect();
    assert!(
        names.len() > 30,
        "the catalogue lists the tables: {names:?}"
    );
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut strays = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if CATALOGUE.contains(&rel.as_str()) {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        strays.extend(strays_in(&rel, &code, &names));
    }
    assert!(
        strays.is_empty(),
        "table names outside the catalogue:\n{}",
        strays.join("\n")
    );
    // The check sees a stray, and passes a name on the list of those that are not tables.
    let planted = "fn f() {\n    // \"pages\"\n    out.table_parts(\"robots_files\")\n}\n";
    assert_eq!(
        strays_in("src/x.rs", &code_of(planted), &names),
        ["src/x.rs: out.table_parts(\"robots_files\")"]
    );
    assert!(strays_in("src/cli/args.rs", "id = \"inputs\"", &names).is_empty());
}

/// The lines of `code` (of file `rel`) that write a table's name.
fn strays_in(rel: &str, code: &str, names: &[&str]) -> Vec<String> {
    let mut strays = Vec::new();
    for line in code.lines() {
        for name in names {
            let quoted = format!("\"{name}\"");
            if line.contains(&quoted) && !NOT_TABLES.contains(&(rel, *name)) {
                strays.push(format!("{rel}: {}", line.trim()));
            }
        }
    }
    strays
}

/// Proptest keeps the cases it once failed on in `proptest-regressions/<module>.txt`, by the
/// path of the test's source file, and replays them only from there: a seed file whose source
/// moved or lost its property tests guards nothing.
#[test]
fn every_proptest_seed_file_has_its_property_tests_beside_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds = root.join("proptest-regressions");
    let mut files = Vec::new();
    seed_files(&seeds, &mut files);
    assert!(!files.is_empty(), "the project keeps seed files");
    let mut orphans = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&seeds).unwrap().with_extension("rs");
        let source = root.join("src").join(&rel);
        let has_tests = std::fs::read_to_string(&source).is_ok_and(|s| s.contains("proptest!"));
        if !has_tests {
            orphans.push(format!("{} (src/{})", f.display(), rel.display()));
        }
    }
    assert!(
        orphans.is_empty(),
        "seed files without their property tests:\n{}",
        orphans.join("\n")
    );
}

fn seed_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            seed_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

/// The longest a source file's code may be, counted before its unit tests (`#[cfg(test)]`):
/// past it, a file holds more than one thing to read at once.
const MAX_CODE_LINES: usize = 800;

/// The lines of a file's code before its unit tests.
fn code_lines(text: &str) -> usize {
    text.lines()
        .take_while(|l| l.trim_start() != "#[cfg(test)]")
        .count()
}

#[test]
fn no_source_file_has_more_than_800_lines_of_code_before_its_unit_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let long: Vec<String> = (files.iter())
        .filter_map(|f| {
            let n = code_lines(&std::fs::read_to_string(f).unwrap());
            (n > MAX_CODE_LINES).then(|| format!("{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_CODE_LINES} lines:\n{}",
        long.join("\n")
    );
    // The count stops at the unit tests, and counts everything when there are none.
    assert_eq!(code_lines("a\nb\n#[cfg(test)]\nmod tests {}\n"), 2);
    assert_eq!(code_lines("a\nb\n"), 2);
}

#[test]
fn no_module_is_named_like_a_folder_of_another_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let folders: BTreeSet<String> = (std::fs::read_dir(&src).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let named: Vec<String> = (files.iter())
        .filter(|f| {
            let stem = f.file_stem().unwrap().to_string_lossy();
            let top = f.strip_prefix(&src).unwrap().components().next().unwrap();
            folders.contains(stem.as_ref()) && top.as_os_str() != stem.as_ref()
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        named.is_empty(),
        "modules named like a folder of src/ they are not in (say which part they are):\n{}",
        named.join("\n")
    );
}

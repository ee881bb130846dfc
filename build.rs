//! Puts the bundled queries (`queries/*.sql`) and views (`queries/views/*.sql`) into the binary:
//! writes `$OUT_DIR/bundled.rs`, a list of `(name, include_str!(path))` for each, sorted by
//! name, so `repcensus query` needs no checkout and a new query file needs no code.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut code = String::new();
    for (constant, dir) in [("QUERIES", "queries"), ("VIEWS", "queries/views")] {
        let dir = root.join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("queries folder")
            .map(|e| e.expect("queries folder entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "sql"))
            .collect();
        files.sort();
        code.push_str(&format!("pub const {constant}: &[(&str, &str)] = &[\n"));
        for f in files {
            println!("cargo:rerun-if-changed={}", f.display());
            let name = f.file_stem().unwrap().to_str().expect("UTF-8 query name");
            code.push_str(&format!(
                "    ({name:?}, include_str!({:?})),\n",
                f.display().to_string()
            ));
        }
        code.push_str("];\n");
    }
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("bundled.rs");
    std::fs::write(out, code).expect("write bundled.rs");
}

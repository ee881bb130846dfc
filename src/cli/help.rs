//! The help texts clap does not make from the arguments' doc comments: each command's
//! examples and exit codes, and the scan's list of tables, made from the catalogue.

use repcensus::Table;

/// The top command's `--help` epilogue.
pub(super) const AFTER_HELP: &str = "\
Examples:
  repcensus scan samples --out out          read every archive under samples/ into out/
  repcensus report out --out report.html    draw the census of out/ as one HTML page
  repcensus query agents_full_block_share out   a bundled question, from any folder (--list)
  repcensus explain out example.com GPTBot  why that host's robots.txt lets GPTBot in or not
  repcensus check robots.txt GPTBot https://example.com/page
  repcensus scan --help                     inputs, outputs, tables and exit codes of a scan

Exit codes: 0 done; 1 done, but some input could not be read (scan), some URL is disallowed
(check, explain), some crawl could not be read (hosts, report) or DuckDB refused the query
(query); 2 usage or output error.";

/// `query --help`'s epilogue.
pub(super) const QUERY_AFTER_HELP: &str = "\
Examples:
  repcensus query --list                                    the bundled questions
  repcensus query agents_full_block_share out               as a table
  repcensus query agents_full_block_share out --where \"agent = 'GPTBot'\"
  repcensus query agents_full_block_share out --format csv > share.csv
  repcensus query robots_fetch_outcomes out -o outcomes.parquet --crawl CC-MAIN-2025-08
  repcensus query my_question.sql out                       your own SQL: FROM robots_files ...
  repcensus query agents_full_block_share --sql             the query's SQL, to read or adapt

DuckDB: $REPCENSUS_DUCKDB (a duckdb command) or $REPCENSUS_PYTHON (a Python with the duckdb
module) if set; else the Python beside the repcensus binary (a pip install's), the duckdb command
on the PATH, python3 on the PATH.";

/// `scan --help`'s epilogue.
const SCAN_AFTER_HELP: &str = "\
Examples:
  repcensus scan crawl/ --out out                      a folder, searched recursively
  repcensus scan 'crawl/*.warc.gz' --out out           a glob (quoted: repcensus expands it)
  repcensus scan @warc.paths.gz --prefix https://data.commoncrawl.org/ --out s3://bucket/census
                                                       a crawl's manifest of paths, read over HTTPS,
                                                       written to S3
  repcensus scan @warc.paths.gz --prefix s3://commoncrawl/ --shard 3/100 --out out
                                                       shard 3 of 100 (then `repcensus hosts out`)
  repcensus scan crawl/ --tables robots_files --out out   one table (errors and inputs always)
  curl -s https://example.org/a.warc.gz | repcensus scan - --crawl mine --out out
  repcensus scan --records homepages.parquet --prefix https://data.commoncrawl.org/ --out out
                                                       only the records an index query listed

Inputs: WARC and ARC files (gzip, bzip2, zstd, lz4 or plain; xz is recognized and refused: a
failed input), WAT/WET, folders, globs, @FILE lists, http(s):// and s3:// URLs, pipes and `-`.
One file given by several paths is read once. A path that does not exist is a failed input
when some other input is there; when none is, or a glob matches nothing, or a folder holds no
archives, it is a usage error (nothing is written).

{TABLES}
docs/schema.md says what each column holds; queries/*.sql ask the questions.

Exit codes: 0 every input read (some may have errors rows: see queries/errors_by_input.sql);
1 some input could not be read at all (with --records: some listed record could not be fetched;
with --fail-on-error: or had errors rows), not one record was read though errors were met (one
last line says so: a wrong --prefix, a server answering something else), or a crawl's
robots_hosts or summaries could not be derived (a part that cannot be read); 2 usage or output
error (nothing read); 130 or 143 interrupted (SIGINT, SIGTERM: it says how many inputs are
complete; rerun with --resume).";

/// The scan's help, with the tables' names from the catalogue.
pub(super) fn scan_after_help() -> String {
    let names = |tables: &mut dyn Iterator<Item = Table>| -> String {
        let names: Vec<&str> = tables.map(Table::name).collect();
        names.join(", ")
    };
    let on_request = |t: &Table| Table::ON_REQUEST.contains(t);
    let tables = format!(
        "Tables (OUT/<table>/crawl=<crawl>/part-<input>.parquet): {}, and on request (--tables) {} \
(a view makes its rows from agent_verdict_runs: queries/views/agent_verdicts.sql); {} (one part \
per crawl, derived at the end of a scan that is not a shard, or by `repcensus hosts`). Every \
table's crawl=_schema/_schema.parquet has its columns and no rows.",
        names(&mut Table::ALL.into_iter().filter(|t| !on_request(t))),
        names(&mut Table::ON_REQUEST.into_iter()),
        names(&mut Table::DERIVED.into_iter()),
    );
    SCAN_AFTER_HELP.replace("{TABLES}", &textwrap(&tables, 95))
}

/// `text` broken into lines of at most `width` characters, at spaces.
fn textwrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

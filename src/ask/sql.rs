//! The little of SQL's syntax `repcensus query` needs: where a script's statements end, the last
//! one (the question's answer, which `COPY` writes out), the tables a query reads by folder, a
//! query's one-line question, and literals quoted for DuckDB.
//!
//! No SQL parser crate reads DuckDB's dialect whole (sqlparser's DuckDB dialect refuses some of
//! the bundled queries' syntax, `FROM 'x/*.parquet'` and `FILTER` among it); what is needed here
//! is only where strings, quoted names and comments start and end.

/// The statements of `script`, each without its `;`, comments kept, empty ones (only blanks
/// and comments) left out.
pub fn statements(script: &str) -> Vec<&str> {
    let bytes = script.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        i = match bytes[i] {
            b'\'' | b'"' => closing(bytes, i + 1, bytes[i]),
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                find(bytes, i, b"\n").map_or(bytes.len(), |e| e + 1)
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                find(bytes, i + 2, b"*/").map_or(bytes.len(), |e| e + 2)
            }
            b'$' => dollar_quoted(bytes, i),
            b';' => {
                out.push(&script[start..i]);
                start = i + 1;
                i + 1
            }
            _ => i + 1,
        };
    }
    out.push(&script[start..]);
    out.retain(|s| !code(s).trim().is_empty());
    out
}

/// The byte after the quote that closes one opened before `from` (a doubled quote is part of
/// the string).
fn closing(bytes: &[u8], mut from: usize, quote: u8) -> usize {
    while from < bytes.len() {
        if bytes[from] == quote {
            if bytes.get(from + 1) == Some(&quote) {
                from += 2;
                continue;
            }
            return from + 1;
        }
        from += 1;
    }
    bytes.len()
}

fn find(bytes: &[u8], from: usize, what: &[u8]) -> Option<usize> {
    memchr::memmem::find(&bytes[from..], what).map(|p| p + from)
}

/// Past a `$tag$ ... $tag$` string starting at `i`, or one byte on when `$` starts none (a
/// parameter such as `$1`).
fn dollar_quoted(bytes: &[u8], i: usize) -> usize {
    let tag_end =
        (i + 1..bytes.len()).find(|&k| !(bytes[k].is_ascii_alphanumeric() || bytes[k] == b'_'));
    match tag_end {
        Some(e) if bytes[e] == b'$' && !bytes[i + 1..e].first().is_some_and(u8::is_ascii_digit) => {
            let tag = &bytes[i..=e];
            find(bytes, e + 1, tag).map_or(bytes.len(), |close| close + tag.len())
        }
        _ => i + 1,
    }
}

/// `statement` without its comments (strings kept as written).
pub fn code(statement: &str) -> String {
    let bytes = statement.as_bytes();
    let mut out = String::with_capacity(statement.len());
    let mut i = 0;
    while i < bytes.len() {
        let next = match bytes[i] {
            b'\'' | b'"' => closing(bytes, i + 1, bytes[i]),
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                let end = find(bytes, i, b"\n").unwrap_or(bytes.len());
                out.push(' ');
                i = end;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                out.push(' ');
                i = find(bytes, i + 2, b"*/").map_or(bytes.len(), |e| e + 2);
                continue;
            }
            b'$' => dollar_quoted(bytes, i),
            _ => {
                // Up to the next byte that may open a string or comment, in one piece (UTF-8
                // characters are never split: those bytes are all ASCII).
                (i + 1..bytes.len())
                    .find(|&k| matches!(bytes[k], b'\'' | b'"' | b'-' | b'/' | b'$'))
                    .unwrap_or(bytes.len())
            }
        };
        out.push_str(&statement[i..next]);
        i = next;
    }
    out
}

/// The tables a script reads by the bundled queries' convention, `'<table>/*/*.parquet'`: the
/// first folder of each quoted path that ends in `.parquet`, in order of first use.
pub fn tables_read(script: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for statement in statements(script) {
        let code = code(statement);
        for piece in code.split('\'').skip(1).step_by(2) {
            if !piece.ends_with(".parquet") {
                continue;
            }
            if let Some((table, _)) = piece.split_once('/') {
                if !table.is_empty() && !out.iter().any(|t| t == table) {
                    out.push(table.to_string());
                }
            }
        }
    }
    out
}

/// The question a query's header states (`-- Question: ...`, continued on the comment lines
/// indented under it), up to its first `?`, on one line.
pub fn question(script: &str) -> Option<String> {
    let mut lines = script
        .lines()
        .skip_while(|l| !l.starts_with("-- Question:"));
    let first = lines.next()?.trim_start_matches("-- Question:").trim();
    let mut text = first.to_string();
    for line in lines {
        let Some(rest) = line.strip_prefix("--") else {
            break;
        };
        if text.contains('?') || !rest.starts_with("   ") {
            break;
        }
        text.push(' ');
        text.push_str(rest.trim());
    }
    let end = text.find('?').map_or(text.len(), |q| q + 1);
    Some(text[..end].to_string())
}

/// `text` as a DuckDB string literal.
pub fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `name` as a DuckDB quoted identifier.
pub fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semicolons_in_strings_comments_and_names_end_no_statement() {
        let script = "-- a; comment\nSELECT 'a;b', \"c;d\" /* e; */ FROM t;\n\
                      SELECT $x$ f; $x$, $$g;$$, 'it''s;';\n-- trailing; comment\n";
        let got = statements(script);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].ends_with("FROM t"));
        assert!(got[1].trim().starts_with("SELECT $x$ f; $x$"));
        assert!(got[1].ends_with("'it''s;'"));
    }

    #[test]
    fn a_script_without_a_final_semicolon_keeps_its_last_statement() {
        assert_eq!(statements("SELECT 1; SELECT 2"), ["SELECT 1", " SELECT 2"]);
        assert!(statements("-- only a comment;\n").is_empty());
    }

    #[test]
    fn an_unclosed_string_runs_to_the_end_instead_of_splitting() {
        assert_eq!(statements("SELECT 'a;b").len(), 1);
        assert_eq!(statements("SELECT $1; SELECT 2").len(), 2);
    }

    #[test]
    fn tables_read_are_the_first_folders_of_quoted_parquet_paths() {
        let sql = "SELECT * FROM 'summary_agents/*/*.parquet' a\n\
                   -- FROM 'commented/*/*.parquet'\n\
                   JOIN read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h\n\
                   ON a.x = 'summary_agents/*/*.parquet' WHERE 'x.csv' <> ''; SELECT 1";
        assert_eq!(tables_read(sql), ["summary_agents", "robots_hosts"]);
    }

    #[test]
    fn the_question_is_the_header_up_to_its_question_mark_on_one_line() {
        let sql = "-- Question: how did blocking of each agent change between one crawl and the next? Among hosts\n\
                   --           captured in both, how many started?\n-- Crawls are ordered\nSELECT 1";
        assert_eq!(
            question(sql).unwrap(),
            "how did blocking of each agent change between one crawl and the next?"
        );
        let long = "-- Question: how many hosts fully block at least one agent (registry\n\
                    --           category ai_training), and how many? More.\n-- Denominator: x\n";
        assert_eq!(
            question(long).unwrap(),
            "how many hosts fully block at least one agent (registry category ai_training), and how many?"
        );
        assert_eq!(question("SELECT 1"), None);
    }

    #[test]
    fn literals_and_names_double_their_quotes() {
        assert_eq!(literal("it's"), "'it''s'");
        assert_eq!(ident("a\"b"), "\"a\"\"b\"");
    }
}

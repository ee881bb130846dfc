//! Each table's rows as CSV, in a link under it (a `data:` URI: the page stays one file and
//! needs no script), so that a reader can take the numbers into a paper or a spreadsheet. A
//! cell holding a query's number gives the query's value (a share as 0.1681, not 16.81%); a
//! label gives its text.

use std::fmt::Write;

/// A table's rows as CSV: its header and its cells.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Csv {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Csv {
    /// The CSV of a table written as the page writes it: `head` (an empty head is `label`)
    /// and rows of `<td>` cells (no `rowspan`). Its columns are named as the page names them:
    /// a row's cells may hold different columns of a query, or a column hold several crawls.
    pub(super) fn of_rows(head: &[&str], rows: &[String]) -> Csv {
        let rows: Vec<Vec<String>> = rows.iter().map(|r| values_of(r)).collect();
        let width = rows.iter().map(Vec::len).max().unwrap_or(0).max(head.len());
        let header = (0..width)
            .map(|j| match head.get(j) {
                Some(h) if !h.is_empty() => h.to_string(),
                _ => "label".to_string(),
            })
            .collect();
        Csv { header, rows }
    }

    /// The CSV text (RFC 4180, as the `csv` crate writes it).
    pub(super) fn text(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        // Writing to a Vec cannot fail; rows shorter than the header are padded.
        let _ = w.write_record(&self.header);
        for r in &self.rows {
            let mut r = r.clone();
            r.resize(self.header.len().max(r.len()), String::new());
            let _ = w.write_record(&r);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// The link to these rows, saved as `name.csv`, and the bundled query that gives them
    /// (every row, not only those the table shows), if one does.
    pub(super) fn link(&self, name: &str, query: Option<&str>) -> String {
        use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
        // What a data: URI must encode (RFC 2397 carries RFC 3986's characters): everything
        // but the unreserved ones.
        const DATA: &AsciiSet = &NON_ALPHANUMERIC
            .remove(b'-')
            .remove(b'.')
            .remove(b'_')
            .remove(b'~');
        let file = format!("{}.csv", file_name(name));
        let mut out = format!(
            r#"<p class="csv"><a download="{0}" href="data:text/csv;charset=utf-8,{1}">The rows as CSV</a> ({0})"#,
            file,
            utf8_percent_encode(&self.text(), DATA)
        );
        if let Some(q) = query {
            let _ = write!(
                out,
                "; every row: <code>repcensus query {}</code> on the folder",
                file_name(q)
            );
        }
        out.push_str(".</p>");
        out
    }
}

/// `name` as a file name, safe in HTML as it stands (so this module needs no escaping from
/// `html`, which uses it): letters, digits, `-`, `_` and `.` kept, anything else `_`.
fn file_name(name: &str) -> String {
    (name.chars())
        .map(|c| match c {
            c if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') => c,
            _ => '_',
        })
        .collect()
}

/// The values of one row of `<td>` elements: each cell's `data-value` (the query's value), or
/// its text with tags removed.
fn values_of(row: &str) -> Vec<String> {
    let mut values = Vec::new();
    let mut rest = row;
    while let Some(at) = rest.find("<td") {
        let open_end = at + rest[at..].find('>').unwrap_or(rest.len() - at);
        let open = &rest[at..open_end];
        let close = open_end
            + rest[open_end..]
                .find("</td>")
                .unwrap_or(rest.len() - open_end);
        let inner = rest.get(open_end + 1..close).unwrap_or("");
        values.push(match attr(open, "data-value") {
            Some(v) => unescape(v),
            None => unescape(&strip_tags(inner)),
        });
        rest = rest.get(close + "</td>".len()..).unwrap_or("");
    }
    values
}

/// The value of attribute `name` of an opening tag, as written (escaped).
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    tag[at..].find('"').map(|end| &tag[at..at + end])
}

fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The text of what `html::esc` wrote.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tables_numbers_are_the_querys_values_under_the_pages_heads() {
        // Cells as `html::cell` writes them.
        let num = |key: &str, column: &str, value: &str, shown: &str| {
            format!(
                r#"<td class="num" data-key="{key}" data-column="{column}" data-value="{value}">{shown}</td>"#
            )
        };
        let rows = vec![
            format!(
                "<td>GPT&lt;Bot&gt; &amp; co</td><td><code>a,b</code></td>{}{}",
                num("GPTBot", "hosts", "1234", "1,234"),
                num("GPTBot", "share", "0.1681", "16.81%")
            ),
            format!(
                "<td>CCBot</td><td></td>{}{}",
                num("CCBot", "hosts", "7", "7"),
                num("CCBot", "share", "", "n/a")
            ),
        ];
        let csv = Csv::of_rows(&["agent", "", "hosts (2xx)", "share"], &rows);
        assert_eq!(csv.header, ["agent", "label", "hosts (2xx)", "share"]);
        assert_eq!(
            csv.text(),
            "agent,label,hosts (2xx),share\nGPT<Bot> & co,\"a,b\",1234,0.1681\nCCBot,,7,\n"
        );
    }

    #[test]
    fn the_link_carries_the_whole_csv_and_names_the_query() {
        let csv = Csv {
            header: vec!["kind".into(), "errors".into()],
            rows: vec![vec!["bad header, \"quoted\"".into(), "3".into()]],
        };
        let link = csv.link("samples/errors by kind", Some("errors_by_input"));
        assert!(
            link.contains(r#"download="samples_errors_by_kind.csv""#),
            "{link}"
        );
        let href = &link[link.find("href=\"").unwrap() + 6..];
        let href = &href[..href.find('"').unwrap()];
        let data = href.strip_prefix("data:text/csv;charset=utf-8,").unwrap();
        assert!(
            !data.contains([' ', '"', '<', '>', ',', '\n', '#']),
            "{data}"
        );
        let decoded = percent_encoding::percent_decode_str(data)
            .decode_utf8()
            .unwrap();
        assert_eq!(decoded, csv.text());
        assert!(link.contains("<code>repcensus query errors_by_input</code>"));
    }
}

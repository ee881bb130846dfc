//! The report page: one self-contained HTML file (inline CSS and SVG, no script, no font, no
//! network), readable offline and printable.
//!
//! Every number a query reproduces is written in a table cell that names its key and column
//! (`data-key`, `data-column`, `data-value`: the value as the query gives it), in a table that
//! names the query (`data-query`), under a section that names the crawl (`data-crawl`); `tests/answers/report.rs` compares
//! them with the queries' answers.

use super::csv_link::Csv;
use std::fmt::Write;

/// The most characters of one value from the tables the page shows (a URL, an agent name, a
/// line's value); longer ones are cut with `…`, and the tables keep them whole. A crafted
/// archive's 300 KB URLs made an 18 MB page.
pub(super) const VALUE_SHOWN: usize = 300;

/// Escape a value from the tables (what an archive wrote) for HTML content and attribute
/// values, cut at [`VALUE_SHOWN`] characters, as [`esc`] otherwise.
pub(super) fn esc_value(s: &str) -> String {
    match s.char_indices().nth(VALUE_SHOWN) {
        Some((at, _)) => esc(&s[..at]) + "…",
        None => esc(s),
    }
}

/// Escape text for HTML content and attribute values: control characters and the bidirectional
/// controls (which can reorder what a reader sees) become U+FFFD. The page's own text is never
/// cut; a value from the tables goes through [`esc_value`].
pub(super) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            c if is_hidden_control(c) => out.push('\u{FFFD}'),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// `s` with every hidden control (see [`is_hidden_control`]) made U+FFFD: for text that
/// another writer escapes (the charts' SVG labels, which plotters escapes for XML only).
pub(super) fn visible(s: &str) -> String {
    s.chars()
        .map(|c| if is_hidden_control(c) { '\u{FFFD}' } else { c })
        .collect()
}

/// A character that must not reach the page as it is: C0 and C1 controls (but tab and line
/// feed), and the Unicode bidirectional marks, embeddings, overrides and isolates.
fn is_hidden_control(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Text between backticks as `<code>` (in text already escaped).
fn code_spans(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(part);
            out.push_str("</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// A number as a query gives it (DuckDB writes 1.0 where Rust writes 1; the test compares
/// numerically).
pub(super) enum Num<'a> {
    Count(u64),
    Share(Option<f64>),
    /// A text column (a URL, a directive), compared as text.
    Text(&'a str),
}

impl Num<'_> {
    fn value(&self) -> String {
        match self {
            Num::Text(t) => esc_value(t),
            Num::Count(n) => n.to_string(),
            Num::Share(Some(s)) => s.to_string(),
            Num::Share(None) => String::new(),
        }
    }

    fn shown(&self) -> String {
        match self {
            Num::Text(t) => esc_value(t),
            Num::Count(n) => thousands(*n),
            Num::Share(Some(s)) => format!("{:.2}%", s * 100.0),
            Num::Share(None) => "n/a".to_string(),
        }
    }
}

/// `n` hosts in words: `1 host`, `1,234 hosts`.
pub(super) fn hosts_words(n: u64) -> String {
    match n {
        1 => "1 host".to_string(),
        n => format!("{} hosts", thousands(n)),
    }
}

/// `1234567` as `1,234,567`.
pub(super) fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// An `errors.kind` value, linked to its line of the glossary ([`error_glossary`]); a kind
/// this version does not know (tables of a later schema) as it stands.
pub(super) fn error_kind(kind: &str) -> String {
    match crate::archive::problem::ErrorKind::of_str(kind) {
        Some(k) => format!(r##"<a href="#error-kind-{k}">{k}</a>"##),
        None => esc_value(kind),
    }
}

/// One line per kind of problem met (`errors.kind` values), saying what it means and what was
/// kept; a kind this version does not know is said to be one.
pub(super) fn error_glossary<'a>(kinds: impl IntoIterator<Item = &'a str>, out: &mut String) {
    out.push_str(r#"<dl class="glossary">"#);
    for kind in kinds {
        match crate::archive::problem::ErrorKind::of_str(kind) {
            Some(k) => {
                let _ = write!(
                    out,
                    r#"<dt id="error-kind-{k}"><code>{k}</code></dt><dd>{}.</dd>"#,
                    code_spans(&esc(&sentence(k.meaning())))
                );
            }
            None => {
                let _ = write!(
                    out,
                    "<dt><code>{}</code></dt><dd>a kind this version of repcensus does not \
                     know (the tables were written by a later one).</dd>",
                    esc_value(kind)
                );
            }
        }
    }
    out.push_str("</dl>");
}

/// `s` with its first letter capitalised.
fn sentence(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// A table cell holding a number of its table's query (`data-query` on the table), for the row
/// `key` (empty when the query has one row per crawl) and `column`.
pub(super) fn cell(key: &str, column: &str, n: Num) -> String {
    format!(
        r#"<td class="{}" data-key="{}" data-column="{}" data-value="{}">{}</td>"#,
        if matches!(n, Num::Text(_)) {
            "text"
        } else {
            "num"
        },
        esc_value(key),
        esc(column),
        n.value(),
        n.shown()
    )
}

/// A cell as [`cell_in`], of another query than its table's (`data-query`).
pub(super) fn cell_of(query: &str, crawl: &str, key: &str, column: &str, n: Num) -> String {
    cell_in(crawl, key, column, n).replacen(
        "<td ",
        &format!(r#"<td data-query="{}" "#, esc(query)),
        1,
    )
}

/// A cell as [`cell`], of another crawl than its section's (`data-crawl`).
pub(super) fn cell_in(crawl: &str, key: &str, column: &str, n: Num) -> String {
    cell(key, column, n).replacen("<td ", &format!(r#"<td data-crawl="{}" "#, esc(crawl)), 1)
}

/// A figure: a title, an optional chart, a caption saying the unit, the denominator and the
/// query that reproduces it, and the table of its numbers.
pub(super) struct Figure<'a> {
    pub id: String,
    pub title: &'a str,
    pub chart: Option<String>,
    pub legend: &'a [(&'a str, String)],
    pub unit: &'a str,
    /// A one-row table of totals above the figure's table (its head and row), for a figure
    /// that lists the first of many rows.
    pub totals: Option<(&'a [&'a str], String)>,
    /// The queries that reproduce the figure: the table's cells are the first's unless they
    /// name another ([`cell_of`]).
    pub queries: &'a [&'a str],
    pub head: &'a [&'a str],
    pub rows: Vec<String>,
}

impl Figure<'_> {
    pub(super) fn render(&self, out: &mut String) {
        let _ = write!(
            out,
            r#"<figure id="{}"><h4>{}</h4>"#,
            esc(&self.id),
            esc(self.title)
        );
        if let Some(svg) = &self.chart {
            let _ = write!(out, r#"<div class="chart">{svg}</div>"#);
        }
        if !self.legend.is_empty() {
            out.push_str(r#"<p class="legend">"#);
            for (name, colour) in self.legend {
                let _ = write!(
                    out,
                    r#"<span><i style="background:{colour}"></i>{}</span>"#,
                    esc(name)
                );
            }
            out.push_str("</p>");
        }
        let files: Vec<String> = (self.queries.iter())
            .map(|q| format!("<code>queries/{}.sql</code>", esc(q)))
            .collect();
        let query = esc(self.queries.first().copied().unwrap_or(""));
        let _ = write!(
            out,
            r#"<figcaption>{} Reproduce: {}.</figcaption>"#,
            code_spans(&esc(self.unit)),
            files.join(", "),
        );
        if let Some((head, row)) = &self.totals {
            let _ = write!(
                out,
                r#"<table class="totals" data-query="{query}"><thead><tr>"#
            );
            for h in *head {
                let _ = write!(out, "<th>{}</th>", esc(h));
            }
            let _ = write!(out, "</tr></thead><tbody><tr>{row}</tr></tbody></table>");
            let totals = Csv::of_rows(head, std::slice::from_ref(row));
            out.push_str(&totals.link(
                &format!("{}-totals", self.id),
                self.queries.first().copied(),
            ));
        }
        let _ = write!(out, r#"<table data-query="{query}"><thead><tr>"#);
        for h in self.head {
            let _ = write!(out, "<th>{}</th>", esc(h));
        }
        out.push_str("</tr></thead><tbody>");
        for r in &self.rows {
            let _ = write!(out, "<tr>{r}</tr>");
        }
        out.push_str("</tbody></table>");
        let csv = Csv::of_rows(self.head, &self.rows);
        out.push_str(&csv.link(&self.id, self.queries.first().copied()));
        out.push_str("</figure>\n");
    }
}

/// The page around the sections.
pub(super) fn page(title: &str, intro: &str, nav: &str, body: &str) -> String {
    format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{CSS}</style></head>
<body><header><h1>{title}</h1>{intro}</header>
<nav>{nav}</nav>
<main>{body}</main>
</body></html>
"#,
        title = esc(title),
    )
}

const CSS: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:0 auto;max-width:960px;padding:0 16px 48px;color:#1a1a1a;line-height:1.45}
h1{margin:24px 0 4px}h2{border-bottom:2px solid #1a1a1a;padding-bottom:4px;margin-top:40px}
h3{margin-top:28px}h4{margin:0 0 8px}
nav a{margin-right:12px}
figure{margin:16px 0 28px;padding:12px;border:1px solid #ddd;border-radius:6px;break-inside:avoid}
figcaption{font-size:0.9em;color:#444;margin:6px 0}
.chart svg{max-width:100%;height:auto;font-family:sans-serif}
td.text{overflow-wrap:anywhere}
table{border-collapse:collapse;font-size:0.9em;margin-top:6px}
th,td{padding:2px 10px;border-bottom:1px solid #eee;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.legend span{margin-right:16px;font-size:0.9em}.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}
.missing{background:#fff4e5;border:1px solid #f0c36d;padding:8px 12px;border-radius:6px}
code{font-size:0.95em}
dl.glossary{font-size:0.9em}dl.glossary dt{margin-top:4px}dl.glossary dd{margin:0 0 0 20px;color:#444}
.chart{overflow-x:auto}p.csv{font-size:0.85em;margin:4px 0 0}.chart svg.timeline{max-width:none}
@media print{nav{display:none}p.csv{display:none}.chart svg.timeline{max-width:100%}body{max-width:none}figure{border:none;padding:0}h2,h3,h4{break-after:avoid}a{color:inherit;text-decoration:none}}
";

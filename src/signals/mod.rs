//! Page-level signals: the `X-Robots-Tag` / `Robots-Tag` response headers, `<meta name="robots">`
//! (and `<meta name="<product token>">`) tags, and the W3C TDM Reservation Protocol's
//! `tdm-reservation` / `tdm-policy` headers and meta tags, and the AI usage preferences of
//! the `Content-Usage` and `Content-Signal` headers and `<meta name="content-signal">` tags
//! ([`ai_prefs`]).
//!
//! [`value`] parses one header or meta value into directives (Structured Fields per
//! draft-illyes-repext, its lenient readings, or the legacy comma grammar). [`meta`] finds the
//! meta tags in the `<head>` of an HTML page with a real HTML tokenizer (html5gum).

pub mod ai_prefs;
pub mod meta;
pub mod value;

pub use value::{parse_header_value, parse_meta_content, ParsedValue, Syntax};

/// Directives a robots header and a meta tag may give one agent that contradict each other
/// (either way round): the pairs `signals_meta_header_conflicts.sql` lists, which
/// `summary_page_conflicts` counts and the report shows.
pub const OPPOSITE_DIRECTIVES: [(&str, &str); 8] = [
    ("index", "noindex"),
    ("follow", "nofollow"),
    ("archive", "noarchive"),
    ("snippet", "nosnippet"),
    ("all", "noindex"),
    ("all", "nofollow"),
    ("all", "none"),
    ("imageindex", "noimageindex"),
];

/// Are `a` and `b` one of the [`OPPOSITE_DIRECTIVES`], either way round?
pub fn are_opposite(a: &str, b: &str) -> bool {
    OPPOSITE_DIRECTIVES
        .iter()
        .any(|&(x, y)| (a == x && b == y) || (a == y && b == x))
}

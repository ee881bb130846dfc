//! Page-level signals: the `X-Robots-Tag` / `Robots-Tag` response headers, `<meta name="robots">`
//! (and `<meta name="<product token>">`) tags, and the W3C TDM Reservation Protocol's
//! `tdm-reservation` / `tdm-policy` headers and meta tags.
//!
//! [`value`] parses one header or meta value into directives (Structured Fields per
//! draft-illyes-repext, its lenient readings, or the legacy comma grammar). [`meta`] finds the
//! meta tags in the `<head>` of an HTML page with a real HTML tokenizer (html5gum).

pub mod meta;
pub mod value;

pub use value::{parse_header_value, parse_meta_content, ParsedValue, Syntax};

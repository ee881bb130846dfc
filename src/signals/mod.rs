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

str_enum! {
    /// Where a page signal was read (`page_signals.source`): a response header (its name
    /// without Common Crawl's `X-Crawler-` prefix) or a meta tag.
    pub enum Source {
        /// `X-Robots-Tag`.
        XRobotsTag = "x_robots_tag",
        /// `Robots-Tag` (the robots exclusion extension's name).
        RobotsTag = "robots_tag",
        /// `tdm-reservation` or `tdm-policy` (TDMRep).
        TdmHeader = "tdm_header",
        /// `Content-Usage` (aipref).
        ContentUsage = "content_usage",
        /// `Content-Signal`.
        ContentSignal = "content_signal",
        /// A `<meta>` tag of the HTML head.
        Meta = "meta",
    }
}

impl Source {
    /// A robots header: `X-Robots-Tag` or `Robots-Tag`.
    pub fn is_robots_header(self) -> bool {
        matches!(self, Source::XRobotsTag | Source::RobotsTag)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_source_is_read_back_from_the_name_the_tables_hold() {
        for s in Source::ALL {
            assert_eq!(Source::from_name(s.as_str()), Some(*s));
        }
        assert_eq!(
            Source::from_name("X-Robots-Tag"),
            None,
            "the column's name, not the header's"
        );
        let headers: Vec<_> = (Source::ALL.iter())
            .filter(|s| s.is_robots_header())
            .collect();
        assert_eq!(headers, [&Source::XRobotsTag, &Source::RobotsTag]);
    }
}

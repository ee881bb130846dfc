//! repcensus: a census of how the web tells machines what they may do.
//!
//! Reads web archives (WARC, ARC; plain, per-record gzip, whole-file gzip and other containers),
//! extracts robots.txt captures, robots headers and meta tags, and writes Parquet tables for
//! analysts. Each module folder is one layer, and the data flows down through them one way:
//!
//! ```text
//! archive (bytes to records) -> rows (records to rows) -> tables (the catalogue) -> parts (Parquet)
//!            robots, signals, agents: pure parsers and the agent registry, used by rows
//! derive: tables made per crawl from the written parts (robots_hosts), after the inputs
//! report: the census as an HTML page, read from the written parts
//! ```
//!
//! [`scan()`] drives it all on a thread pool; the binary in `main.rs` is a thin CLI over this
//! library. The layers are private modules: the API is what this file re-exports (scanning, the
//! table catalogue, the agent registry, robots.txt parsing and matching, page signal parsing,
//! record reading, synthetic archives, and [`inputs`]). docs/architecture.md draws the layers;
//! `tests/house/layers.rs` keeps imports pointing down.

/// A closed set of values that the tables hold as strings: an enum with one `as_str` (the
/// string a table holds), `ALL` and `Display`. Defined before the modules so every layer can use
/// it.
macro_rules! str_enum {
    (
        $(#[$doc:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vdoc:meta])* $variant:ident = $s:literal),* $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $($(#[$vdoc])* $variant),*
        }

        impl $name {
            /// Every value, in declaration order (not every enum's code needs it; its tests
            /// and docs checks do).
            #[allow(dead_code)]
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The string the tables hold.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $s),*
                }
            }

            /// The value a table's string names (`None`: no value of this set).
            #[allow(dead_code)]
            pub fn from_name(s: &str) -> Option<Self> {
                match s {
                    $($s => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

mod agents;
mod archive;
mod ask;
mod check;
mod derive;
mod explain;
mod files;
mod gen;
mod parts;
mod ranks;
mod report;
mod robots;
mod rows;
mod scan;
mod signals;
mod tables;

// The API. The layers stay private; what the binary, the benches, the tests and a library user
// need is named here.

/// The tracked crawlers.
pub use agents::{Agent, ListFormat, Registry};
pub use archive::container::reader::{
    read_gzip_members, read_plain, read_stream, ContainerStats, ReadBuffers,
};
/// Reading records out of archives, and the extractor that turns them into rows.
pub use archive::framing::framer::Framer;
pub use archive::framing::sink::{Need, Record, Sink, KEEP_BLOCK};
pub use archive::heads::record::Head;
pub use archive::problem::{ErrorKind, ReadError, Scope};
pub use archive::source::local::read_start;
pub use archive::source::ranges::Redirects;
/// Asking a scan's output folder the bundled questions (`repcensus query`, `repcensus views`).
pub use ask::{
    bundled_sql, engine::Engine as QueryEngine, query, questions, script as query_script,
    views as views_sql, Format as QueryFormat, QueryError, QueryOptions, Question,
};
/// `repcensus check`: what a robots.txt lets each agent fetch, URL by URL.
pub use check::{check, read_robots_txt, CheckOptions};
/// Each host's effective robots.txt capture (`repcensus hosts`, and the end of a scan).
pub use derive::hosts::{derive_in as derive_hosts, Budget, CrawlHosts, HostsSummary};
pub use derive::redirects::Resolution;
/// Why one host's robots.txt lets an agent fetch a path, from the tables (`repcensus explain`).
pub use explain::{explain, Capture, ExplainOptions, Explanation, HeldLine};
/// Synthetic archives for benchmarks and tests (`repcensus generate`).
pub use gen::{generate, parse_size, real_bodies, GenKind, GenOptions, Layout, GEN_REVISION};
/// A ranked list of sites into the `ranks` table (`repcensus ranks`).
pub use ranks::{ranks, ListForm, RanksOptions, RanksSummary};
/// The census as one HTML page, from the tables (`repcensus report`).
pub use report::{report, ReportOptions, ReportSummary};
pub use robots::matcher::Decision as MatchVerdict;
/// robots.txt: Google-compatible parsing and matching (`repcensus check`), and everything the
/// tables hold for one file as JSON (`repcensus parse`).
pub use robots::parse::{is_valid_product_token, product_token, PARSE_LIMIT};
pub use robots::{
    allowed_by_robots, path_params_query, GroupRules, Key, Matcher, RobotsTxt, Source,
};
pub use rows::from_robots::robots_txt::{file_json, file_json_of};
pub use rows::{ExtractBuffers, Extractor};
pub use scan::chunk_target;
/// Scanning archives into Parquet tables (`repcensus scan`).
pub use scan::records_list;
pub use scan::{
    scan, ArchiveFormat, InputStatus, ScanOptions, ScanSummary, TestHooks, DEFAULT_CHUNK,
};
/// `X-Robots-Tag` / `Robots-Tag` values and robots meta tag contents.
pub use signals::{parse_header_value, parse_meta_content, ParsedValue, Syntax};
/// The tables: their catalogue, a selection of them, the schema version in every part.
pub use tables::{Table, TableSelection, SCHEMA_VERSION};
/// The tiers of `ranks.tier`, in order.
pub const RANK_TIERS: &[tables::ranked_lists::Tier] = tables::ranked_lists::Tier::ALL;

/// Inputs: expanding command-line arguments into files, sharding them, and opening them.
pub mod inputs {
    pub use crate::archive::source::input::{
        expand, input_id, parse_shard, plan_chunks, shard, sniff_archive, stream_reader, Container,
    };
}

/// Pieces of the layers that the project's own tests and benches check directly. Not part of
/// the API: they change with the code.
#[doc(hidden)]
pub mod internals {
    pub use crate::archive::container::gz::{MemberInflater, MemberResult};
    pub use crate::archive::heads::http::parse_response;
    pub use crate::parts::{OutDir, PartWriter};
    pub use crate::robots::ext::{
        app_directives_at, app_directives_for, parse_app_directives, parse_pairs,
    };
    pub use crate::robots::lex::flag;
    pub use crate::rows::from_pages::host_counts::HostCounts;
    pub use crate::rows::from_pages::page_signals::Carried;
    pub use crate::rows::from_robots::robots_txt::{
        append_file_row, LineTables, ParsedBody, Provenance, RobotsLineTables, Scratch,
    };
    pub use crate::rows::from_robots::verdicts::Verdicts;
    pub use crate::signals::meta::HeadScanner;
    pub use crate::signals::value::normalize;
    pub use crate::tables::{
        HostCountsArrow, HostCountsBuilder, RobotsAgentsArrow, RobotsAgentsBuilder,
        RobotsFilesArrow, RobotsFilesBuilder, RobotsRulesArrow, RobotsRulesBuilder, TableBuilder,
    };
}

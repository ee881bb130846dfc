//! robots.txt: lexer, parser, Google-compatible matcher and the extensions sites write.
//!
//! ```text
//! bytes -> lex (one Line per physical line) -> parse (groups, normalised patterns, summary)
//!       -> matcher (allowed or not, path by path, by agent / purpose)
//!       -> classify (what the file lets an agent crawl as a whole: full, partial, allowed)
//!       -> ext (App-Directives, key=value lines)
//!       -> usage (the Content-Usage lines of an agent's groups, by attach-05's grouping)
//! ```
//!
//! Behaviour follows Google's open-source robotstxt library (robots.cc) case by case; the
//! module docs say where and why we differ.

pub mod acap;
pub mod classify;
pub mod cloudflare;
pub mod encoding;
pub mod ext;
pub mod key;
pub mod lex;
pub mod matcher;
pub mod parse;
pub mod usage;

pub use key::Key;
pub use lex::Line;
pub use matcher::{allowed_by_robots, path_params_query, GroupRules, Matcher, Source};
pub use parse::RobotsTxt;

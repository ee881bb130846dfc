//! repcensus: a census of how the web tells machines what they may do.
//!
//! Reads web archives (WARC, ARC; plain, per-record gzip, whole-file gzip and other containers),
//! extracts robots.txt captures, robots headers and meta tags, and writes Parquet tables for
//! analysts. Each module folder is one layer, and the data flows down through them one way:
//!
//! ```text
//! archive (bytes to records) -> rows (records to rows) -> tables (the catalogue) -> parts (Parquet)
//!            robots, signals, agents: pure parsers and the agent registry, used by rows
//! ```
//!
//! [`scan::scan`] drives it all on a thread pool; the binary in `main.rs` is a thin CLI.
//! docs/architecture.md draws the layers; `tests/layers.rs` keeps imports pointing down.

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
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The string the tables hold.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $s),*
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

pub mod agents;
pub mod archive;
pub mod parts;
pub mod robots;
pub mod rows;
pub mod scan;
pub mod signals;
pub mod tables;

//! The command line, the ripgrep way: what was typed (`args`, clap's reading of it, with the
//! help texts of `help`) is turned into the library's validated settings (`scan_command`: a
//! `ScanOptions` from the `scan` arguments, checked before anything is read; `commands`: the
//! other commands' options), and each command says what it did with the exit code its help
//! promises. `main.rs` dispatches. The binary's own modules: they reach the library as
//! `repcensus::`, never the other way.

pub mod args;
pub mod commands;
mod help;
pub mod scan_command;

//! The pages source: a page response's robots headers and meta tags (`page_signals`), its row of
//! `pages` (`pages`), and the responses per host (`host_counts`).

pub mod host_counts;
pub mod page_signals;
pub mod pages;

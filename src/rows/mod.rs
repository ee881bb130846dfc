//! Records to rows: the extractor that turns each record of a chunk into the rows of the selected
//! tables (robots.txt captures and their lines, agent verdicts, page signals, host counts).

mod body_facts;
pub mod extract;
pub mod fetch;
pub mod host_counts;
pub mod page_signals;
pub mod robots_txt;
pub mod verdicts;

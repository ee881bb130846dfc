//! The robots.txt source: a capture of `/robots.txt` (`robots_capture`), its fetch outcome
//! (`fetch`) and body (`body_facts`), its lines (`robots_txt`) and each tracked agent's verdicts
//! (`verdicts`, the caches; `verdict_rows`, the rows).

mod body_facts;
pub mod challenge;
pub mod robots_capture;
pub mod robots_txt;
pub mod verdict_rows;
pub mod verdicts;

//! Tables derived from the tables a scan wrote, per crawl rather than per input: they need every
//! input of a crawl, so they are made after the inputs' parts are in place (at the end of a scan
//! that is not a shard, or by `repcensus hosts` after the last shard).
//!
//! * `robots_hosts` ([`hosts`], from the index of [`host_index`]): each site's ([`site`]: a
//!   scheme, host and port) latest robots.txt capture and the capture its chain
//!   of redirects ends at ([`redirects`]), read through a revisit to the capture it revisits
//!   ([`revisits`]), which the `agents_*` queries read verdicts from;
//!   with it, `summary_robots_hosts` (hosts by fetch outcome and redirects) and
//!   `summary_robots_outcomes` (captures and hosts per fetch outcome of every capture).
//! * `summary_agents` ([`agent_summary`]): the hosts per tracked agent, by the verdicts of the capture
//!   that governs each (read from `agent_verdict_runs`), derived with `robots_hosts`, and
//!   `summary_agent_groups` ([`groups`]): the hosts blocking or naming some agent of a group.
//! * `summary_agent_pairs` and `summary_agent_domains` ([`pairs`]): hosts by the verdicts of
//!   two agents, and registered domains blocking an agent on all or some of their hosts;
//!   `summary_agent_content_usage` ([`content_usage`]): hosts whose file gives `/` a
//!   `Content-Usage` rule for an agent, by its value.
//! * `page_verdicts` ([`page_verdicts`]): whether each chosen agent may fetch each 2xx HTML
//!   page of the crawl, by the robots.txt capture that governs the page's host, made again
//!   from its lines in `robots_agents` and `robots_rules`.
//! * The derivation plan ([`PLAN`], run by [`plan::run`]): the families made from a crawl's
//!   parts alone, for every crawl that has some, robots.txt captures or not. `summary_page_*`
//!   ([`page_summaries`]): responses and hosts per page signal directive, header syntax, media
//!   type and meta/header conflict, from `page_signals`; `summary_llms_txt` and
//!   `summary_tdmrep` (`llms`, `tdmrep`); `page_tdm` and `summary_page_tdm` (`page_tdm`);
//!   `summary_errors` (`errors`): problems per scope and kind, from `errors`;
//!   `summary_page_ai_preferences` (`ai_preferences`): the AI-usage preferences 2xx pages state.
//! * `summary_robots_keys`, `summary_robots_key_forms`, `summary_robots_agents`,
//!   `summary_content_signals` ([`lines`]), `summary_app_directives`, `summary_acap_fields` and
//!   `summary_acap_problems` ([`extensions`]): how the files are written and what their
//!   extensions say, from `robots_agents`, `robots_rules`, `app_directives` and `acap_fields`.

pub mod agent_summary;
mod ai_preferences;
mod block_sets;
pub mod changes;
pub mod classes;
mod content_usage;
mod errors;
pub mod extensions;
pub mod groups;
mod host_capture;
mod host_counts;
mod host_index;
pub mod hosts;
mod latest;
pub mod lines;
mod llms;
pub mod page_summaries;
mod page_tdm;
pub mod page_verdicts;
pub mod pairs;
mod partitioned;
pub mod partitions;
pub mod plan;
pub mod read;
pub mod redirects;
pub mod revisits;
pub mod site;
mod spill;
pub mod tally;
mod tdmrep;

/// The derivations made from a crawl's parts alone, apart from `robots_hosts` and the summaries
/// made with it, in the order they run ([`plan::run`]).
pub const PLAN: &[&dyn plan::Derivation] = &[
    &page_summaries::PageSummaries,
    &llms::LlmsSummary,
    &tdmrep::TdmrepSummary,
    &page_tdm::PageTdm,
    &errors::ErrorsSummary,
    &ai_preferences::AiPreferences,
];

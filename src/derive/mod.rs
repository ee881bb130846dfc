//! Tables derived from the tables a scan wrote, per crawl rather than per input: they need every
//! input of a crawl, so they are made after the inputs' parts are in place (at the end of a scan
//! that is not a shard, or by `repcensus hosts` after the last shard).
//!
//! * `robots_hosts` ([`hosts`]): each host's latest robots.txt capture and the capture its chain
//!   of redirects ends at ([`redirects`]), which the `agents_*` queries read verdicts from.
//! * `summary_agents` ([`agents`]): the hosts per tracked agent, by the verdicts of the capture
//!   that governs each (read from `agent_verdict_runs`), derived with `robots_hosts`, and
//!   `summary_agent_groups` ([`groups`]): the hosts blocking or naming some agent of a group.
//! * `summary_agent_pairs` and `summary_agent_domains` ([`pairs`]): hosts by the verdicts of
//!   two agents, and registered domains blocking an agent on all or some of their hosts.
//! * `summary_page_*` ([`signals`]): responses and hosts per page signal directive, header
//!   syntax, media type and meta/header conflict, from `page_signals` (every crawl that has
//!   some, robots.txt captures or not).
//! * `summary_robots_hosts`, `summary_robots_keys`, `summary_robots_key_forms` and
//!   `summary_robots_agents` ([`lines`]): hosts by fetch outcome, and how the files are written
//!   (keys, their spellings, the agents named), from `robots_agents` and `robots_rules`.

pub mod agents;
pub mod classes;
pub mod extensions;
pub mod groups;
pub mod hosts;
pub mod lines;
pub mod pairs;
pub mod read;
pub mod redirects;
pub mod signals;
pub mod tally;

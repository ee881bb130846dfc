//! The tables derived from a crawl's rows rather than read from records: `page_verdicts`,
//! `robots_hosts` and the summaries (declared apart from the record tables of `mod.rs`), with
//! their list in the catalogue (`with_derived_tables!`).

// What the `table!` declarations expand to names.
use super::declare::table;
use super::kind::{Bool, Kind, Label, Str, StrList, Text, Ts, I32, I64};
use super::{AppendRow, Table, TableBuilder, CRAWL_COLUMN};
use crate::parts::PartWriter;
use anyhow::Result;
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::sync::Arc;

/// Hand the list of the tables derived per crawl, in the order of [`Table::DERIVED`], to
/// `catalogue!` after the tables a scan writes (`table.rs`): a derived table is declared in this
/// file alone, in this list (variant, name, builder) and by its `table!` below.
macro_rules! with_derived_tables {
    ($catalogue:ident { $($input:tt)* }) => {
        $catalogue! {
            $($input)*
            /// The tables derived from a crawl's tables once they are written: one part per crawl,
            /// not per input, and not in `--tables`.
            derived {
                /// One row per host of a crawl: its latest robots.txt capture and the capture its
                /// chain of redirects ends at, derived from all of the crawl's `robots_files`
                /// (`repcensus hosts`).
                RobotsHosts = "robots_hosts", RobotsHostsBuilder;
                /// Hosts per crawl and agent, by the verdicts of the capture that governs each
                /// host, derived from `robots_hosts` and `agent_verdict_runs`.
                SummaryAgents = "summary_agents", SummaryAgentsBuilder;
                /// Hosts per crawl and group of agents (category, operator, AI, all): blocking or
                /// naming at least one of them. Derived with `summary_agents`.
                SummaryAgentGroups = "summary_agent_groups", SummaryAgentGroupsBuilder;
                /// Hosts per crawl and pair of agents, by both agents' verdicts.
                SummaryAgentPairs = "summary_agent_pairs", SummaryAgentPairsBuilder;
                /// Registered domains per crawl and agent, blocking it on all or some hosts.
                SummaryAgentDomains = "summary_agent_domains", SummaryAgentDomainsBuilder;
                /// Hosts per crawl and agent whose governing capture gives `/` a Content-Usage rule
                /// for it, by the rule's value.
                SummaryAgentContentUsage = "summary_agent_content_usage",
                    SummaryAgentContentUsageBuilder;
                /// The distinct sets of agents governing captures fully block, with their hosts.
                SummaryBlockSets = "summary_block_sets", SummaryBlockSetsBuilder;
                /// How the blocking of each agent changed from the crawl before, among hosts in
                /// both.
                SummaryAgentChanges = "summary_agent_changes", SummaryAgentChangesBuilder;
                /// Hosts per crawl by fetch outcome and redirects, derived with `robots_hosts`.
                SummaryRobotsHosts = "summary_robots_hosts", SummaryRobotsHostsBuilder;
                /// Captures and hosts per crawl and fetch outcome of every capture.
                SummaryRobotsOutcomes = "summary_robots_outcomes", SummaryRobotsOutcomesBuilder;
                /// Hosts, captures and lines per crawl and robots.txt key.
                SummaryRobotsKeys = "summary_robots_keys", SummaryRobotsKeysBuilder;
                /// ... and key form, separator, with the most frequent spelling.
                SummaryRobotsKeyForms = "summary_robots_key_forms", SummaryRobotsKeyFormsBuilder;
                /// ... per agent name (or purpose) written.
                SummaryRobotsAgents = "summary_robots_agents", SummaryRobotsAgentsBuilder;
                /// ... per Content-Signal / Content-Usage pair.
                SummaryContentSignals = "summary_content_signals", SummaryContentSignalsBuilder;
                /// ... per application directive.
                SummaryAppDirectives = "summary_app_directives", SummaryAppDirectivesBuilder;
                /// ... per kind of ACAP field.
                SummaryAcapFields = "summary_acap_fields", SummaryAcapFieldsBuilder;
                /// ... per ACAP field and problem.
                SummaryAcapProblems = "summary_acap_problems", SummaryAcapProblemsBuilder;
                /// Responses and hosts per page signal directive, from `page_signals`.
                SummaryPageDirectives = "summary_page_directives", SummaryPageDirectivesBuilder;
                /// ... per robots header syntax.
                SummaryPageHeaders = "summary_page_headers", SummaryPageHeadersBuilder;
                /// ... per media type of responses with robots headers.
                SummaryPageHeaderTypes = "summary_page_header_types", SummaryPageHeaderTypesBuilder;
                /// ... per pair of opposite header and meta directives.
                SummaryPageConflicts = "summary_page_conflicts", SummaryPageConflictsBuilder;
                /// ... per agent, whether the two robots headers of a response agree.
                SummaryPageHeaderPairs = "summary_page_header_pairs", SummaryPageHeaderPairsBuilder;
                /// Captures and hosts per crawl and llms.txt file, status class and form.
                SummaryLlmsTxt = "summary_llms_txt", SummaryLlmsTxtBuilder;
                /// Captures and hosts per crawl and kind of tdmrep.json capture.
                SummaryTdmrep = "summary_tdmrep", SummaryTdmrepBuilder;
                /// Pages per crawl by effective TDM reservation and the technique that set it.
                SummaryPageTdm = "summary_page_tdm", SummaryPageTdmBuilder;
                /// One row per 2xx page of a crawl with a TDM reservation or policy: the effective
                /// values by the protocol's processing priority.
                PageTdm = "page_tdm", PageTdmBuilder;
                /// One row per 2xx HTML page of a crawl and chosen agent: whether the page's URL
                /// may be fetched, by the robots.txt capture that governs its host.
                PageVerdicts = "page_verdicts", PageVerdictsBuilder;
                /// Problems per crawl, scope and kind, with the inputs they were found in.
                SummaryErrors = "summary_errors", SummaryErrorsBuilder;
                /// The AI-usage preferences 2xx pages state, per form, vocabulary, key and
                /// value, with the pages and hosts stating each.
                SummaryPageAiPreferences = "summary_page_ai_preferences", SummaryPageAiPreferencesBuilder;
            }
        }
    };
}
pub(super) use with_derived_tables;
table! {
    /// One row per 2xx HTML page of a crawl and chosen agent (`--page-agents`), for the pages
    /// whose host has a robots.txt capture in the crawl: whether the page's URL may be fetched,
    /// by the capture that governs the host (`robots_hosts`). Derived with `robots_hosts`.
    PageVerdictsBuilder, PageVerdictRow, PageVerdicts,
    {
        /// The page's capture (as in `pages`).
        warc_file: Str,
        warc_offset: I64,
        url: Text,
        host: Str,
        agent: Str,
        agent_category: Str,
        /// The robots.txt capture that governs the host (`robots_hosts.effective_*`).
        robots_warc_file: Str,
        robots_warc_offset: I64,
        robots_fetch_outcome: Str,
        /// `derive::page_verdicts::PageVerdict`, Google's reading.
        verdict: Label,
        /// ... RFC 9309's reading of unreachable files (a 5xx disallows, a 429 allows).
        verdict_rfc9309: Label,
        /// The groups that decided Google's reading (`robots::Source`).
        verdict_source: Label,
        /// The line of the rule that decided Google's reading; NULL when no rule matched.
        rule_line: I32,
        /// ... the crawler's documented reading (`not_honored` for a crawler that ignores
        /// robots.txt).
        verdict_documented: Label,
        verdict_documented_source: Label,
        /// The agent's robots.txt `Content-Usage` preferences for the page's path, where
        /// Google's reading allows it (`signals::ai_prefs::robots_preferences`).
        content_usage: Str,
    }
}

table! {
    /// One row per site (scheme, host and port) of a crawl with a robots.txt capture: its
    /// latest capture, and the capture whose verdicts govern it (the end of the latest
    /// capture's chain of redirects); a host's figures are those of one of its sites
    /// (`counts_for_host`).
    /// Derived from the crawl's `robots_files` by `repcensus hosts` (and at the end of a scan).
    RobotsHostsBuilder, RobotsHostRow, RobotsHosts,
    {
        host: Str,
        /// `http` or `https`, and the port: with `host`, the site (RFC 9309 section 2.3).
        scheme: Label,
        port: I32,
        /// This site's latest capture is its host's latest: the row the host-level figures
        /// (the summaries, the bundled queries) count; one per host.
        counts_for_host: Bool,
        registered_domain: Str,
        /// Captures of `/robots.txt` on the site in the crawl.
        captures: I32,
        /// The site's latest capture (by `capture_time`, then `warc_file`, then `warc_offset`).
        warc_file: Str,
        warc_offset: I64,
        url: Text,
        capture_time: Ts,
        fetch_outcome: Str,
        /// How the latest capture's chain of redirects ended (`derive::redirects::Resolution`).
        resolution: Label,
        hops: I32,
        cross_host: Bool,
        /// How a revisit on the way was read (`derive::revisits::Revisit`); NULL when none was.
        revisit: Label,
        /// When the latest capture is a revisit: the capture it stands for (the host's file,
        /// whose lines the line summaries count).
        revisited_warc_file: Str,
        revisited_warc_offset: I64,
        revisited_fetch_outcome: Str,
        /// The capture that governs the host: the end of the chain when it was `resolved`,
        /// else the latest capture itself.
        effective_warc_file: Str,
        effective_warc_offset: I64,
        effective_url: Text,
        effective_host: Str,
        effective_fetch_outcome: Str,
        /// The tracked agents the governing capture fully blocks (Google's reading): an id of
        /// the crawl's `summary_block_sets`; NULL when the capture has no verdicts.
        block_set: I64,
        /// As `block_set`, the sets of the other readings the study queries count
        /// (`derive::block_sets::SetKind`): fully blocked by a group naming the agent, `/`
        /// disallowed by a group naming it, named on a user-agent line, `/` disallowed in
        /// RFC 9309's reading.
        full_block_by_name_set: I64,
        own_group_root_set: I64,
        named_set: I64,
        rfc9309_root_set: I64,
    }
}

table! {
    /// Hosts of a crawl per tracked agent, by the verdicts of the capture that governs each host
    /// (`robots_hosts`): one row per agent and combination of the other columns that some host
    /// has, with the number of such hosts. Derived with `robots_hosts` from the crawl's
    /// `agent_verdict_runs`.
    SummaryAgentsBuilder, SummaryAgentRow, SummaryAgents,
    {
        agent: Str,
        /// The agent's place in the registry (0-based), as `agent_verdict_runs.agent_index`
        /// counts: a run of `agents` agents from `agent_index` holds it when
        /// `agent_index <= this < agent_index + agents`.
        agent_index: I32,
        agent_category: Str,
        operator: Str,
        /// The governing capture's fetch outcome.
        fetch_outcome: Str,
        /// How the host's latest capture's redirects ended (`robots_hosts.resolution`).
        resolution: Str,
        verdict: Str,
        verdict_rfc9309: Str,
        verdict_documented: Str,
        verdict_source: Str,
        verdict_documented_source: Str,
        named: Bool,
        named_exact: Bool,
        root_allowed: Bool,
        /// The agent's own group is stricter than the host's `*` reading; NULL when the
        /// governing capture is not a 2xx or leaves no agent to `*`.
        singled_out: Bool,
        hosts: I64,
        /// Of the hosts, those whose governing capture has `robots_files.wildcard_split` or
        /// `wildcard_with_ai` (a `*` joined to other agents' lines: the accidental blocks).
        hosts_wildcard_flagged: I64,
    }
}

table! {
    /// Hosts of a crawl per group of tracked agents (one category and operator, one category,
    /// the AI categories, every agent), by whether the host fully blocks or names some agent of
    /// the group in its governing capture. Derived with `summary_agents`.
    SummaryAgentGroupsBuilder, SummaryAgentGroupRow, SummaryAgentGroups,
    {
        /// `operator`, `category`, `ai` or `all`.
        agent_group: Str,
        agent_category: Str,
        operator: Str,
        /// Agents of the registry in the group.
        agents: I32,
        fetch_outcome: Str,
        resolution: Str,
        /// The host's `*` reading: the verdict of the agents no group names (decided by `*`,
        /// or by no group where there is no `*` group); NULL when the governing capture is not
        /// a 2xx or names every agent.
        star_verdict: Str,
        blocks_any: Bool,
        blocked_by_name_only: Bool,
        names_exact: Bool,
        names_token: Bool,
        hosts: I64,
    }
}

table! {
    /// Hosts of a crawl per pair of tracked agents that a site may treat apart (an AI training
    /// crawler and its operator's other crawlers, or a search engine's), by both agents'
    /// verdicts in the governing capture. Derived with `summary_agents`.
    SummaryAgentPairsBuilder, SummaryAgentPairRow, SummaryAgentPairs,
    {
        /// The AI training crawler.
        agent: Str,
        /// The other agent of the pair.
        other_agent: Str,
        fetch_outcome: Str,
        resolution: Str,
        /// `agent`'s verdict (Google's reading).
        verdict: Str,
        other_verdict: Str,
        /// `/` is allowed for `other_agent`.
        other_root_allowed: Bool,
        hosts: I64,
    }
}

table! {
    /// Registered domains of a crawl per tracked agent, by whether all or some of the domain's
    /// hosts whose governing capture is a 2xx fully block the agent. Derived with
    /// `summary_agents`.
    SummaryAgentDomainsBuilder, SummaryAgentDomainRow, SummaryAgentDomains,
    {
        agent: Str,
        agent_category: Str,
        operator: Str,
        /// Every such host of the domain fully blocks the agent (`verdict` full_block).
        all_hosts_block: Bool,
        /// At least one does.
        some_host_blocks: Bool,
        domains: I64,
    }
}

table! {
    /// Hosts of a crawl per tracked agent whose governing capture (a 2xx) gives `/` a
    /// `Content-Usage` rule for the agent, by the rule's value. Derived with `summary_agents`.
    SummaryAgentContentUsageBuilder, SummaryAgentContentUsageRow, SummaryAgentContentUsage,
    {
        agent: Str,
        /// Its place in the registry the verdicts were made with (as in `summary_agents`).
        agent_index: I32,
        agent_category: Str,
        operator: Str,
        /// `agent_verdict_runs.content_usage`: the rule's preferences (`train-ai=n`, ...),
        /// empty when it states nothing the vocabulary knows.
        content_usage: Str,
        hosts: I64,
    }
}

table! {
    /// The distinct sets of tracked agents a crawl's governing captures fully block, with their
    /// hosts (`robots_hosts.block_set` names each host's). Derived with `summary_agents`.
    SummaryBlockSetsBuilder, SummaryBlockSetRow, SummaryBlockSets,
    {
        /// A hash of the agents' names (`derive::block_sets::set_id`).
        block_set: I64,
        /// The agents, in registry order.
        agents: StrList,
        agent_count: I32,
        hosts: I64,
        /// Of the hosts, those whose governing capture is a 2xx.
        hosts_2xx: I64,
    }
}

table! {
    /// How the blocking of each tracked agent changed from the crawl before (`from_crawl`, by
    /// earliest robots.txt capture) to this one, among the hosts captured in both whose
    /// governing capture is a 2xx in both. Derived from both crawls' `robots_hosts`.
    SummaryAgentChangesBuilder, SummaryAgentChangeRow, SummaryAgentChanges,
    {
        from_crawl: Str,
        agent: Str,
        agent_index: I32,
        agent_category: Str,
        operator: Str,
        /// Hosts compared: captured in both crawls, a 2xx governing capture in both.
        hosts_both: I64,
        /// Of those, fully blocking the agent in `from_crawl`, in this crawl.
        blocking_before: I64,
        blocking_after: I64,
        /// Not fully blocking before and fully blocking after; the reverse.
        newly_blocking: I64,
        unblocking: I64,
        /// Of `hosts_both`, those read through redirects in either crawl.
        hosts_resolved: I64,
        /// Hosts captured in both crawls whose redirects lead nowhere in either (not compared).
        hosts_unresolved: I64,
        /// Hosts captured in both crawls whose governing capture is a 5xx in either (not
        /// compared).
        hosts_5xx: I64,
    }
}

table! {
    /// Hosts and captures of a crawl by how their robots.txt fetch went: one row per
    /// combination of the host's latest capture's `fetch_outcome`, how its redirects ended and
    /// the governing capture's `fetch_outcome`. Derived with `robots_hosts`.
    SummaryRobotsHostsBuilder, SummaryRobotsHostRow, SummaryRobotsHosts,
    {
        /// The host's latest capture's fetch outcome (`robots_hosts.fetch_outcome`).
        fetch_outcome: Str,
        resolution: Str,
        /// `robots_hosts.revisit`.
        revisit: Str,
        /// The governing capture's (`robots_hosts.effective_fetch_outcome`).
        effective_fetch_outcome: Str,
        /// `robots_hosts.revisited_fetch_outcome`.
        revisited_fetch_outcome: Str,
        hosts: I64,
        /// Every robots.txt capture of those hosts in the crawl.
        captures: I64,
        /// Of the hosts, those whose governing capture has `wildcard_split` / `wildcard_with_ai`.
        hosts_wildcard_split: I64,
        hosts_wildcard_with_ai: I64,
        /// ... and those whose governing capture's `group_split` is `blank`, `comment`,
        /// `sitemap`, `crawl_delay`, `other`.
        hosts_split_blank: I64,
        hosts_split_comment: I64,
        hosts_split_sitemap: I64,
        hosts_split_crawl_delay: I64,
        hosts_split_other: I64,
        /// Of the hosts, those whose governing capture has `robots_files.cloudflare_managed`
        /// / `cloudflare_contradicted`.
        hosts_cloudflare_managed: I64,
        hosts_cloudflare_contradicted: I64,
    }
}

table! {
    /// Robots.txt captures of a crawl per fetch outcome: every capture, not only hosts' latest
    /// (as `robots_fetch_outcomes.sql` counts them). Derived with `robots_hosts`.
    SummaryRobotsOutcomesBuilder, SummaryRobotsOutcomeRow, SummaryRobotsOutcomes,
    {
        fetch_outcome: Str,
        captures: I64,
        /// Hosts with at least one capture of this outcome.
        hosts: I64,
        /// The earliest and latest `capture_time` of those captures.
        first_capture: Ts,
        last_capture: Ts,
    }
}

table! {
    /// Hosts, captures and lines of a crawl per robots.txt key, in any spelling. Hosts and
    /// lines count each host's latest capture (`robots_hosts.warc_file`/`warc_offset`),
    /// captures every capture. Derived with `robots_hosts` from `robots_agents` and
    /// `robots_rules`.
    SummaryRobotsKeysBuilder, SummaryRobotsKeyRow, SummaryRobotsKeys,
    {
        /// `user_agent`, `purpose` (`robots_agents.line_kind`) or `robots_rules.key`.
        key: Str,
        lines: I64,
        hosts: I64,
        captures: I64,
    }
}

table! {
    /// Hosts, captures and lines of a crawl per robots.txt key and how it is written (key form
    /// and separator), with its most frequent spelling. Counted as in `summary_robots_keys`.
    SummaryRobotsKeyFormsBuilder, SummaryRobotsKeyFormRow, SummaryRobotsKeyForms,
    {
        key: Str,
        key_form: Str,
        separator: Str,
        /// The most frequent spelling (case kept) in the hosts' latest captures (ties: the
        /// first in byte order; in every capture when no latest one has the form); NULL for
        /// `unknown` and `invalid`, whose spellings are any text.
        key_raw: Str,
        /// Distinct spellings counted for `key_raw`.
        spellings: I32,
        lines: I64,
        hosts: I64,
        captures: I64,
    }
}

table! {
    /// Hosts, captures and lines of a crawl per name written in a `User-agent` line (or
    /// purpose in a `User-Agent-Purpose` line), as `robots_agents.agent` has it: the
    /// [`AGENT_NAMES_KEPT`] named by the most hosts per `line_kind`. Counted as in
    /// `summary_robots_keys`.
    SummaryRobotsAgentsBuilder, SummaryRobotsAgentRow, SummaryRobotsAgents,
    {
        line_kind: Str,
        agent: Str,
        lines: I64,
        hosts: I64,
        captures: I64,
    }
}

table! {
    /// Hosts, captures and pairs of a crawl per `key=value` pair of `Content-Signal` and
    /// `Content-Usage` lines. Counted as in `summary_robots_keys`.
    SummaryContentSignalsBuilder, SummaryContentSignalRow, SummaryContentSignals,
    {
        /// `content_signal` or `content_usage`.
        key: Str,
        /// The pair's key, lowercase (`search`, `ai-train`, `train-ai`, ...).
        signal: Str,
        /// Whether the key is defined: by Cloudflare's Content Signals (`content_signal`), by
        /// the aipref vocabulary of `inputs.aipref_vocabulary` (`content_usage`).
        known: Bool,
        /// Its value, lowercase; NULL for a pair without `=`.
        value: Str,
        /// Such pairs in the hosts' latest captures.
        lines: I64,
        hosts: I64,
        captures: I64,
    }
}

table! {
    /// Hosts, captures and directives of a crawl per application directive of
    /// `App-Directives` lines (application, directive, value, problem, spelling), the
    /// [`VALUES_KEPT`] most hosts write. Counted as in `summary_robots_keys`.
    SummaryAppDirectivesBuilder, SummaryAppDirectiveRow, SummaryAppDirectives,
    {
        app_id: Str,
        directive: Str,
        value: Str,
        value_type: Str,
        problem: Str,
        /// The key as written, lowercase (`app-directives`, `app-directive`).
        spelling: Str,
        /// Such directives in the hosts' latest captures.
        directives: I64,
        hosts: I64,
        captures: I64,
    }
}

table! {
    /// Hosts, captures and fields of a crawl per kind of ACAP field (field, usage, resource
    /// type, to whom), the [`VALUES_KEPT`] most hosts write. Counted as in
    /// `summary_robots_keys`.
    SummaryAcapFieldsBuilder, SummaryAcapFieldRow, SummaryAcapFields,
    {
        field: Str,
        /// The usage verb (the version, for `version`).
        usage: Str,
        resource_type: Str,
        /// `any crawler` (the record's crawlers include `*`), `named crawlers`, NULL outside
        /// records.
        addressed_to: Str,
        /// Such fields in the hosts' latest captures.
        fields: I64,
        /// Of those, fields with at least one problem.
        with_problems: I64,
        hosts: I64,
        captures: I64,
    }
}

table! {
    /// Responses and hosts of a crawl per page signal directive: source, agent, directive and
    /// the response's status class. Derived per crawl from `page_signals`.
    SummaryPageDirectivesBuilder, SummaryPageDirectiveRow, SummaryPageDirectives,
    {
        source: Str,
        agent: Str,
        directive: Str,
        /// `2xx`, `3xx`, `4xx`, `5xx` or `other` (as in `host_counts`).
        status_class: Str,
        /// `page_signals` rows.
        signals: I64,
        responses: I64,
        hosts: I64,
    }
}

table! {
    /// Robots headers of a crawl by how their values are written: per source, syntax and status
    /// class, the headers, responses and hosts. Derived per crawl from `page_signals`.
    SummaryPageHeadersBuilder, SummaryPageHeaderRow, SummaryPageHeaders,
    {
        /// `x_robots_tag` or `robots_tag`.
        source: Str,
        /// `sfv`, `sfv_lenient`, `legacy`, `invalid`.
        syntax: Str,
        status_class: Str,
        /// Header values (distinct response and `signal_index`).
        headers: I64,
        responses: I64,
        hosts: I64,
    }
}

table! {
    /// Robots headers of a crawl per media type of the response: per content type and status
    /// class, the responses and hosts sending `X-Robots-Tag` or `Robots-Tag`, and their
    /// directives. Derived per crawl from `page_signals`.
    SummaryPageHeaderTypesBuilder, SummaryPageHeaderTypeRow, SummaryPageHeaderTypes,
    {
        content_type: Str,
        status_class: Str,
        responses: I64,
        hosts: I64,
        /// The most frequent directive (by rows; ties: the first in byte order).
        top_directive: Str,
        /// Every directive sent, sorted.
        directives: StrList,
    }
}

table! {
    /// Responses of a crawl whose robots header and meta tag say opposite things for one agent
    /// (`index` / `noindex`, `follow` / `nofollow`, ...), per pair of directives. Derived per
    /// crawl from `page_signals`.
    SummaryPageConflictsBuilder, SummaryPageConflictRow, SummaryPageConflicts,
    {
        agent: Str,
        header_directive: Str,
        meta_directive: Str,
        status_class: Str,
        responses: I64,
        hosts: I64,
    }
}

table! {
    /// Responses of a crawl that carry both robots headers, `X-Robots-Tag` and `Robots-Tag`
    /// (repext leaves open what a crawler does with the two), each with a directive for some
    /// agent: per agent either header addresses, whether the two give it the same directives;
    /// and (`agent` NULL) per response, whether they agree for every agent.
    SummaryPageHeaderPairsBuilder, SummaryPageHeaderPairRow, SummaryPageHeaderPairs,
    {
        agent: Str,
        status_class: Str,
        headers_agree: Bool,
        responses: I64,
        hosts: I64,
    }
}

table! {
    /// Captures of `/llms.txt` and `/llms-full.txt` of a crawl per file, status class, form
    /// and validity (`llms_txt`), and the hosts whose latest capture of the file is of that
    /// kind: summed over a file's rows, `hosts` counts each host with a capture once.
    SummaryLlmsTxtBuilder, SummaryLlmsTxtRow, SummaryLlmsTxt,
    {
        file: Str,
        status_class: Str,
        form: Str,
        valid: Bool,
        captures: I64,
        hosts: I64,
    }
}

table! {
    /// Captures of `/.well-known/tdmrep.json` of a crawl (`tdmrep_rules`, a capture once) per
    /// status class, what the body is, and the reservation the file gives the site's root, and
    /// the hosts whose latest capture is of that kind: summed, `hosts` counts each host with a
    /// capture once.
    SummaryTdmrepBuilder, SummaryTdmrepRow, SummaryTdmrep,
    {
        status_class: Str,
        /// As `tdmrep_rules.file_problem`: NULL for a TDM file or a capture that is not a 2xx.
        file_problem: Str,
        /// A 2xx whose body is a TDM file (a JSON array of rules, maybe empty).
        tdm_file: Bool,
        /// The reservation of the rule that decides `/` (0 or 1); NULL when no usable rule
        /// matches it.
        root_reservation: I32,
        /// Some usable rule says 1.
        reserves_some_path: Bool,
        captures: I64,
        hosts: I64,
    }
}

table! {
    /// One row per 2xx page of a crawl with a TDM reservation or policy from any technique of
    /// the TDM Reservation Protocol: the effective values by its processing priority (the
    /// matching rule of the host's latest `/.well-known/tdmrep.json`, then the page's headers,
    /// then its meta tags, each superseding the one before), the technique that set each, and
    /// what each technique stated. Derived from `pages`, `page_signals` and `tdmrep_rules`.
    PageTdmBuilder, PageTdmRow, PageTdm,
    {
        /// The page's capture (as in `pages`).
        warc_file: Str,
        warc_offset: I64,
        url: Text,
        host: Str,
        capture_time: Ts,
        http_status: I32,
        /// The effective reservation, 0 or 1; NULL when only a policy was stated.
        tdm_reservation: I32,
        /// `file`, `header` or `meta` (`files::tdmrep::Technique`): what set it.
        technique: Label,
        /// The effective policy URL, and what set it.
        tdm_policy: Text,
        policy_technique: Label,
        /// A later technique stated a reservation other than an earlier one's.
        overridden: Bool,
        /// What each technique stated (NULL: nothing, or a protocol error).
        file_reservation: I32,
        header_reservation: I32,
        meta_reservation: I32,
        /// The host's tdmrep.json capture read, and the location of its rule that matched
        /// the page (NULL: none matched, or the host has no TDM file).
        tdmrep_warc_file: Str,
        tdmrep_warc_offset: I64,
        file_location: Text,
    }
}

table! {
    /// The 2xx pages of a crawl per effective TDM reservation (`page_tdm`), the technique that
    /// set it, whether a policy is set and whether a later technique overrode an earlier one,
    /// with their hosts; one row (`technique` NULL, `hosts` NULL) counts the 2xx pages nothing
    /// is stated for, so the rows sum to the crawl's 2xx pages.
    SummaryPageTdmBuilder, SummaryPageTdmRow, SummaryPageTdm,
    {
        tdm_reservation: I32,
        technique: Str,
        has_policy: Bool,
        overridden: Bool,
        pages: I64,
        hosts: I64,
    }
}

table! {
    /// A crawl's `errors` per scope and kind: the problems and the inputs they were found in
    /// (`errors_by_kind.sql`), so that a check of a whole crawl reads a few rows.
    SummaryErrorsBuilder, SummaryErrorRow, SummaryErrors,
    {
        /// `input`, `record` or `body`, as `errors.scope`.
        scope: Str,
        kind: Str,
        errors: I64,
        /// Inputs with at least one such problem (distinct `errors.warc_file`).
        inputs: I64,
    }
}

table! {
    /// A crawl's AI-usage preferences stated by its 2xx pages (`signals_ai_preferences.sql`):
    /// the rows of `page_signals` whose source is `content_usage` or `content_signal`, or a
    /// `<meta name="content-signal">`, counted by page and host.
    SummaryPageAiPreferencesBuilder, SummaryPageAiPreferenceRow, SummaryPageAiPreferences,
    {
        /// `content_usage`, `content_signal` (headers) or `content_signal_meta`.
        form: Str,
        /// As `page_signals.vocabulary`.
        vocabulary: Str,
        /// The preference's key and value (`page_signals.directive`, `directive_value`).
        key: Str,
        value: Str,
        /// 2xx pages stating it (once per page, however many times it is stated there).
        pages: I64,
        /// Hosts of those pages.
        hosts: I64,
    }
}

/// The status class of an HTTP status, as `host_counts.status_class` and the page summaries
/// name it.
pub fn status_class(status: Option<i32>) -> &'static str {
    match status {
        Some(200..=299) => "2xx",
        Some(300..=399) => "3xx",
        Some(400..=499) => "4xx",
        Some(500..=599) => "5xx",
        _ => "other",
    }
}

table! {
    /// ACAP fields of a crawl per problem found in them (`acap_fields.problems`): one row per
    /// field and problem. Counted as in `summary_robots_keys`.
    SummaryAcapProblemsBuilder, SummaryAcapProblemRow, SummaryAcapProblems,
    {
        field: Str,
        problem: Str,
        /// Fields with the problem in the hosts' latest captures.
        fields: I64,
        hosts: I64,
        captures: I64,
    }
}

/// The rows per crawl `summary_app_directives` and `summary_acap_fields` keep (those the most
/// hosts write: their values are any text).
pub const VALUES_KEPT: usize = 10_000;

/// The names per crawl and `line_kind` `summary_robots_agents` keeps (those named by the most
/// hosts; a crawl of the web names hundreds of thousands once).
pub const AGENT_NAMES_KEPT: usize = 10_000;

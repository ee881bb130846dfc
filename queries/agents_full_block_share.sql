-- Question: what share of hosts fully block each tracked agent, and through which groups: the
--           agent's own group (specific) or the `*` group (wildcard)? And what share block part
--           of the site for it?
-- Each host counts once, by the robots.txt capture that governs it (robots_hosts): its latest
-- capture in the crawl (ties: later warc_file, then later offset) or, when that is a redirect,
-- the capture its redirects lead to (up to five hops; docs/schema.md, robots_hosts).
-- Denominators, both given:
--   hosts_2xx  hosts whose governing capture is a 2xx robots.txt (or a resource record), empty
--              or not
--   hosts_any  hosts with any capture (404s, 5xx and redirects that lead nowhere included)
-- full_block: every path but the robots.txt disallowed, nothing may be fetched (docs/agents.md).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_full_block_share.sql"
-- Columns:
--   crawl, agent, agent_category
--   share_2xx, share_any      full_block / hosts_2xx, full_block / hosts_any (4 decimals)
--   full_block                hosts fully blocking the agent
--   hosts_2xx, hosts_any      the denominators
--   by_own_group, by_star     of full_block, blocked by a group naming the agent / by `*`
--   partial_block             hosts blocking part of the site for the agent (verdict partial_block)
--   share_partial_2xx         partial_block / hosts_2xx (4 decimals)
--   full_block_documented     hosts fully blocking the agent as its operator documents its
--                             groups (verdict_documented; docs/agents.md)
--   hosts_resolved            of hosts_any, those read through redirects (resolution resolved)
--   hosts_unresolved          of hosts_any, those whose redirects lead nowhere (a loop, more than
--                             five hops, a target never captured, no Location): verdict redirect
--   hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary
--                             of hosts_2xx, those whose governing capture is an empty file, an
--                             HTML page (an error page served with 200) or binary (the rest:
--                             text); each is counted as the file a crawler would read
--   hosts_5xx                 of hosts_any, those whose governing capture is a 5xx
--   full_block_rfc9309        hosts fully blocking the agent in RFC 9309's reading
--                             (verdict_rfc9309: a 5xx robots.txt is a full block, a 429 is no
--                             robots.txt); it differs from full_block by the 5xx hosts only
--   share_any_rfc9309         full_block_rfc9309 / hosts_any (4 decimals)
--   hosts_unresolved_revisit  of hosts_any, those whose latest capture is a revisit no capture of
--                             the crawl matches (verdict unknown; docs/schema.md, robots_hosts)
--   partial_by_own_group      of partial_block, hosts blocking part of the site through a group
--                             naming the agent (the rest: their `*` group's generic rules)
-- summary_agents holds, per crawl and agent, the hosts by the verdicts of their governing
-- capture (docs/schema.md): each figure is a sum of its `hosts` over the rows that qualify.
-- The shares right after the keys, so a narrow display keeps them in view.
-- The vocabulary, as queries/views/vocabulary.sql defines it (copied as it is):
CREATE OR REPLACE TEMP MACRO is_2xx(outcome) AS
    outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary');
CREATE OR REPLACE TEMP MACRO hosts_where(hosts, cond) AS
    coalesce(sum(hosts) FILTER (cond), 0)::BIGINT;
CREATE OR REPLACE TEMP MACRO robots_denominators(hosts, outcome, resolution) AS {
    'hosts_2xx': hosts_where(hosts, is_2xx(outcome)),
    'hosts_resolved': hosts_where(hosts, is_2xx(outcome) AND resolution = 'resolved'),
    'hosts_2xx_empty': hosts_where(hosts, outcome = 'ok_empty'),
    'hosts_2xx_html': hosts_where(hosts, outcome = 'not_robots_html'),
    'hosts_2xx_binary': hosts_where(hosts, outcome = 'not_robots_binary'),
    'hosts_unresolved': hosts_where(hosts, resolution NOT IN ('direct', 'resolved')),
    'hosts_5xx': hosts_where(hosts, outcome = 'server_error')
};
WITH counts AS (
SELECT
    crawl,
    agent,
    any_value(agent_category) AS agent_category,
    hosts_where(hosts, is_2xx(fetch_outcome))
        AS hosts_2xx,
    sum(hosts)::BIGINT AS hosts_any,
    hosts_where(hosts, verdict = 'full_block') AS full_block,
    hosts_where(hosts, verdict = 'full_block' AND verdict_source = 'specific')
        AS by_own_group,
    hosts_where(hosts, verdict = 'full_block' AND verdict_source = 'wildcard')
        AS by_star,
    round(full_block / nullif(hosts_2xx, 0), 4) AS share_2xx,
    round(full_block / hosts_any, 4) AS share_any,
    hosts_where(hosts, verdict = 'partial_block') AS partial_block,
    round(partial_block / nullif(hosts_2xx, 0), 4) AS share_partial_2xx,
    hosts_where(hosts, verdict_documented = 'full_block')
        AS full_block_documented,
    hosts_where(hosts, resolution = 'resolved') AS hosts_resolved,
    hosts_where(hosts, resolution NOT IN ('direct', 'resolved'))
        AS hosts_unresolved,
    hosts_where(hosts, fetch_outcome = 'ok_empty') AS hosts_2xx_empty,
    hosts_where(hosts, fetch_outcome = 'not_robots_html') AS hosts_2xx_html,
    hosts_where(hosts, fetch_outcome = 'not_robots_binary')
        AS hosts_2xx_binary,
    hosts_where(hosts, fetch_outcome = 'server_error') AS hosts_5xx,
    hosts_where(hosts, verdict_rfc9309 = 'full_block')
        AS full_block_rfc9309,
    round(full_block_rfc9309 / hosts_any, 4) AS share_any_rfc9309,
    hosts_where(hosts, fetch_outcome = 'revisit') AS hosts_unresolved_revisit,
    hosts_where(hosts, verdict = 'partial_block' AND verdict_source = 'specific')
        AS partial_by_own_group
FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
GROUP BY crawl, agent
)
SELECT crawl, agent, agent_category, share_2xx, share_any, full_block, hosts_2xx, hosts_any,
    * EXCLUDE (crawl, agent, agent_category, share_2xx, share_any, full_block, hosts_2xx, hosts_any)
FROM counts
ORDER BY crawl, full_block DESC, agent;

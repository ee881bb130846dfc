-- Question: how many hosts fully block at least one AI-training agent (registry category
--           ai_training), and how many such agents does a host block on average?
-- Denominator: hosts whose governing robots.txt capture is a 2xx (or a resource record), each
-- host once (robots_hosts: its latest capture in the crawl or, when that is a redirect, the
-- capture its redirects lead to).
-- RFC 9309's reading (verdict_rfc9309) differs from Google's only for hosts whose governing
-- capture is a 5xx (RFC 9309: a full block of every agent; Google: unreachable) or a 429; among
-- hosts whose governing capture is a 2xx the two agree, so these figures hold for both;
-- hosts_5xx counts the 5xx hosts left out.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_ai_training_blocking.sql"
-- Columns: in this order, the shares right after the keys: crawl, share_blocking_any, hosts_2xx,
--     ai_training_agents, hosts_blocking_any, mean_blocked, mean_blocked_blocking, by_name_only,
--     hosts_resolved, hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary, hosts_unresolved, hosts_5xx; one by one:
--   crawl
--   hosts_2xx             the denominator
--   ai_training_agents    number of ai_training agents in the registry used
--   hosts_blocking_any    hosts fully blocking at least one of them
--   share_blocking_any    hosts_blocking_any / hosts_2xx (4 decimals)
--   mean_blocked          mean number of ai_training agents fully blocked, over hosts_2xx
--   mean_blocked_blocking the same, over hosts_blocking_any only
--   by_name_only          hosts blocking some ai_training agent only through groups naming it
--                         (their `*` group does not block it)
--   hosts_resolved        of hosts_2xx, those read through redirects
--   hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary
--                         of hosts_2xx, those whose governing capture is an empty file, an HTML
--                         page (an error page served with 200) or binary: the rest is text
--   hosts_unresolved        hosts (any outcome) whose redirects lead nowhere (a loop, more than
--                         five hops, a target never captured, no Location): outside hosts_2xx
--   hosts_5xx               hosts whose governing capture is a 5xx: outside hosts_2xx, full
--                         blocks of every agent to RFC 9309
-- summary_agent_groups gives the hosts blocking at least one ai_training agent; the agents
-- blocked per host add up from summary_agents (host x agent counts; docs/schema.md).
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
WITH answer AS (
WITH rows AS (
    SELECT *, is_2xx(fetch_outcome) AS is_2xx
    FROM read_parquet('summary_agent_groups/*/*.parquet', hive_partitioning = true)
    WHERE agent_group = 'category' AND agent_category = 'ai_training'
), g AS (
    SELECT
        crawl,
        max(agents) AS ai_training_agents,
        hosts_where(hosts, is_2xx AND blocks_any) AS hosts_blocking_any,
        hosts_where(hosts, is_2xx AND blocked_by_name_only) AS by_name_only,
        unnest(robots_denominators(hosts, fetch_outcome, resolution))
    FROM rows
    GROUP BY crawl
), a AS (
    SELECT crawl, hosts_where(hosts, verdict = 'full_block') AS full_blocks
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
    WHERE agent_category = 'ai_training' AND is_2xx(fetch_outcome)
    GROUP BY crawl
)
SELECT
    crawl,
    hosts_2xx::BIGINT AS hosts_2xx,
    ai_training_agents,
    hosts_blocking_any::BIGINT AS hosts_blocking_any,
    round(hosts_blocking_any / hosts_2xx, 4) AS share_blocking_any,
    round(full_blocks / hosts_2xx, 4) AS mean_blocked,
    round(full_blocks / nullif(hosts_blocking_any, 0), 4) AS mean_blocked_blocking,
    by_name_only::BIGINT AS by_name_only,
    hosts_resolved::BIGINT AS hosts_resolved,
    hosts_2xx_empty,
    hosts_2xx_html,
    hosts_2xx_binary,
    hosts_unresolved,
    hosts_5xx
FROM g JOIN a USING (crawl)
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, share_blocking_any,
    * EXCLUDE (crawl, share_blocking_any)
FROM answer
ORDER BY crawl;

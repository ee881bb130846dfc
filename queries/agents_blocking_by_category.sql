-- Question: how much blocking does each category of agent (and each operator within it) meet?
-- Unit: host x agent, each host once by its governing capture (robots_hosts: its latest capture
-- in the crawl or, when that is a redirect, the capture its redirects lead to), counting only
-- hosts whose governing capture is a 2xx robots.txt (or a resource record).
-- RFC 9309's reading (verdict_rfc9309) differs from Google's only for hosts whose governing
-- capture is a 5xx (RFC 9309: a full block of every agent; Google: unreachable) or a 429; among
-- hosts whose governing capture is a 2xx the two agree, so these figures hold for both;
-- hosts_5xx counts the 5xx hosts left out.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_blocking_by_category.sql"
-- Columns:
--   crawl, agent_category, operator
--   agents               registry agents of that operator and category
--   hosts_2xx            hosts with a 2xx governing capture
--   hosts_blocking_any   hosts fully blocking at least one of those agents
--   share_blocking_any   hosts_blocking_any / hosts_2xx, 4 decimals: the share of hosts (what
--                        the report plots)
--   full_block_share     full blocks / (hosts_2xx x agents), 4 decimals
--   partial_block_share  partial blocks / (hosts_2xx x agents), 4 decimals
--   hosts_resolved       of hosts_2xx, those read through redirects
--   hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary
--                         of hosts_2xx, those whose governing capture is an empty file, an HTML
--                         page (an error page served with 200) or binary: the rest is text
--   hosts_unresolved        hosts (any outcome) whose redirects lead nowhere (a loop, more than
--                         five hops, a target never captured, no Location): outside hosts_2xx
--   hosts_5xx               hosts whose governing capture is a 5xx: outside hosts_2xx, full
--                         blocks of every agent to RFC 9309
-- summary_agent_groups gives the hosts blocking at least one agent of each category and
-- operator; the host x agent shares add up from summary_agents (docs/schema.md).
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
WITH rows AS (
    SELECT *, is_2xx(fetch_outcome) AS is_2xx
    FROM read_parquet('summary_agent_groups/*/*.parquet', hive_partitioning = true)
    WHERE agent_group = 'operator'
), g AS (
    SELECT
        crawl,
        agent_category,
        operator,
        max(agents) AS agents,
        hosts_where(hosts, is_2xx AND blocks_any) AS hosts_blocking_any,
        unnest(robots_denominators(hosts, fetch_outcome, resolution))
    FROM rows
    GROUP BY crawl, agent_category, operator
), a AS (
    SELECT
        crawl,
        agent_category,
        operator,
        sum(hosts) AS host_agents,
        hosts_where(hosts, verdict = 'full_block') AS full_blocks,
        hosts_where(hosts, verdict = 'partial_block') AS partial_blocks
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
    WHERE is_2xx(fetch_outcome)
    GROUP BY ALL
)
SELECT
    crawl,
    agent_category,
    operator,
    agents::BIGINT AS agents,
    hosts_2xx::BIGINT AS hosts_2xx,
    hosts_blocking_any::BIGINT AS hosts_blocking_any,
    round(hosts_blocking_any / nullif(hosts_2xx, 0), 4) AS share_blocking_any,
    round(full_blocks / host_agents, 4) AS full_block_share,
    round(partial_blocks / host_agents, 4) AS partial_block_share,
    hosts_resolved::BIGINT AS hosts_resolved,
    hosts_2xx_empty,
    hosts_2xx_html,
    hosts_2xx_binary,
    hosts_unresolved,
    hosts_5xx
FROM g JOIN a USING (crawl, agent_category, operator)
ORDER BY crawl, agent_category, full_block_share DESC, operator;

-- Question: how much blocking does each category of agent (and each operator within it) meet?
-- Unit: host x agent, each host once by its governing capture (robots_hosts: its latest capture
-- in the crawl or, when that is a redirect, the capture its redirects lead to), counting only
-- hosts whose governing capture is a 2xx robots.txt (or a resource record).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_blocking_by_category.sql"
-- Columns:
--   crawl, agent_category, operator
--   agents               registry agents of that operator and category
--   hosts_2xx            hosts with a 2xx governing capture
--   hosts_blocking_any   hosts fully blocking at least one of those agents
--   full_block_share     full blocks / (hosts_2xx x agents), 4 decimals
--   partial_block_share  partial blocks / (hosts_2xx x agents), 4 decimals
--   hosts_resolved       of hosts_2xx, those read through redirects
-- summary_agent_groups gives the hosts blocking at least one agent of each category and
-- operator; the host x agent shares add up from summary_agents (docs/schema.md).
WITH g AS (
    SELECT
        crawl,
        agent_category,
        operator,
        max(agents) AS agents,
        sum(hosts) AS hosts_2xx,
        coalesce(sum(hosts) FILTER (blocks_any), 0) AS hosts_blocking_any,
        coalesce(sum(hosts) FILTER (resolution = 'resolved'), 0) AS hosts_resolved
    FROM read_parquet('summary_agent_groups/*/*.parquet', hive_partitioning = true)
    WHERE agent_group = 'operator' AND fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
    GROUP BY ALL
), a AS (
    SELECT
        crawl,
        agent_category,
        operator,
        sum(hosts) AS host_agents,
        coalesce(sum(hosts) FILTER (verdict = 'full_block'), 0) AS full_blocks,
        coalesce(sum(hosts) FILTER (verdict = 'partial_block'), 0) AS partial_blocks
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
    WHERE fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
    GROUP BY ALL
)
SELECT
    crawl,
    agent_category,
    operator,
    agents::BIGINT AS agents,
    hosts_2xx::BIGINT AS hosts_2xx,
    hosts_blocking_any::BIGINT AS hosts_blocking_any,
    round(full_blocks / host_agents, 4) AS full_block_share,
    round(partial_blocks / host_agents, 4) AS partial_block_share,
    hosts_resolved::BIGINT AS hosts_resolved
FROM g JOIN a USING (crawl, agent_category, operator)
ORDER BY crawl, agent_category, full_block_share DESC, operator;

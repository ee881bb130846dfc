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
WITH latest AS (
    -- Each host once, with the verdicts of the capture that governs it (robots_hosts).
    SELECT h.host, h.registered_domain, h.resolution, v.* EXCLUDE (host, registered_domain)
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl
        AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
), ok AS (
    SELECT * FROM latest
    WHERE fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
)
SELECT
    crawl,
    agent_category,
    operator,
    count(DISTINCT agent) AS agents,
    count(DISTINCT host) AS hosts_2xx,
    count(DISTINCT host) FILTER (verdict = 'full_block') AS hosts_blocking_any,
    round(count(*) FILTER (verdict = 'full_block') / count(*), 4) AS full_block_share,
    round(count(*) FILTER (verdict = 'partial_block') / count(*), 4) AS partial_block_share,
    count(DISTINCT host) FILTER (resolution = 'resolved') AS hosts_resolved
FROM ok
GROUP BY crawl, agent_category, operator
ORDER BY crawl, agent_category, full_block_share DESC, operator;

-- Question: how much blocking does each category of agent (and each operator within it) meet?
-- Unit: host x agent, each host once by its latest capture in the crawl, counting only hosts
-- whose latest capture is a 2xx robots.txt (or a resource record).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_blocking_by_category.sql"
-- Columns:
--   crawl, agent_category, operator
--   agents               registry agents of that operator and category
--   hosts_2xx            hosts with a 2xx latest capture
--   hosts_blocking_any   hosts fully blocking at least one of those agents
--   full_block_share     full blocks / (hosts_2xx x agents), 4 decimals
--   partial_block_share  partial blocks / (hosts_2xx x agents), 4 decimals
WITH latest AS (
    SELECT *
    FROM read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true)
    WHERE host IS NOT NULL
    QUALIFY row_number() OVER (
        PARTITION BY crawl, host, agent
        ORDER BY capture_time DESC NULLS LAST, warc_file DESC, warc_offset DESC) = 1
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
    round(count(*) FILTER (verdict = 'partial_block') / count(*), 4) AS partial_block_share
FROM ok
GROUP BY crawl, agent_category, operator
ORDER BY crawl, agent_category, full_block_share DESC, operator;

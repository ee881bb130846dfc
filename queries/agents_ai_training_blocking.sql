-- Question: how many hosts fully block at least one AI-training agent (registry category
--           ai_training), and how many such agents does a host block on average?
-- Denominator: hosts whose latest robots.txt capture in the crawl is a 2xx (or a resource
-- record), each host once.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_ai_training_blocking.sql"
-- Columns:
--   crawl
--   hosts_2xx             the denominator
--   ai_training_agents    number of ai_training agents in the registry used
--   hosts_blocking_any    hosts fully blocking at least one of them
--   share_blocking_any    hosts_blocking_any / hosts_2xx (4 decimals)
--   mean_blocked          mean number of ai_training agents fully blocked, over hosts_2xx
--   mean_blocked_blocking the same, over hosts_blocking_any only
--   by_name_only          hosts blocking some ai_training agent only through groups naming it
--                         (their `*` group does not block it)
WITH latest AS (
    SELECT *
    FROM read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true)
    WHERE host IS NOT NULL
    QUALIFY row_number() OVER (
        PARTITION BY crawl, host, agent
        ORDER BY capture_time DESC NULLS LAST, warc_file DESC, warc_offset DESC) = 1
), per_host AS (
    SELECT
        crawl,
        host,
        count(*) FILTER (verdict = 'full_block') AS blocked,
        count(*) FILTER (verdict = 'full_block' AND verdict_source = 'specific') AS blocked_by_name,
        count(*) AS agents
    FROM latest
    WHERE agent_category = 'ai_training'
      AND fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
    GROUP BY crawl, host
)
SELECT
    crawl,
    count(*) AS hosts_2xx,
    max(agents) AS ai_training_agents,
    count(*) FILTER (blocked > 0) AS hosts_blocking_any,
    round(hosts_blocking_any / hosts_2xx, 4) AS share_blocking_any,
    round(avg(blocked), 4) AS mean_blocked,
    round(avg(blocked) FILTER (blocked > 0), 4) AS mean_blocked_blocking,
    count(*) FILTER (blocked > 0 AND blocked = blocked_by_name) AS by_name_only
FROM per_host
GROUP BY crawl
ORDER BY crawl;

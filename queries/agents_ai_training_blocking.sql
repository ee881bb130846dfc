-- Question: how many hosts fully block at least one AI-training agent (registry category
--           ai_training), and how many such agents does a host block on average?
-- Denominator: hosts whose governing robots.txt capture is a 2xx (or a resource record), each
-- host once (robots_hosts: its latest capture in the crawl or, when that is a redirect, the
-- capture its redirects lead to).
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
--   hosts_resolved        of hosts_2xx, those read through redirects
WITH latest AS (
    -- Each host once, with the verdicts of the capture that governs it (robots_hosts).
    SELECT h.host, h.registered_domain, h.resolution, v.* EXCLUDE (host, registered_domain)
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl
        AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
), per_host AS (
    SELECT
        crawl,
        host,
        count(*) FILTER (verdict = 'full_block') AS blocked,
        count(*) FILTER (verdict = 'full_block' AND verdict_source = 'specific') AS blocked_by_name,
        count(*) AS agents,
        bool_or(resolution = 'resolved') AS resolved
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
    count(*) FILTER (blocked > 0 AND blocked = blocked_by_name) AS by_name_only,
    count(*) FILTER (resolved) AS hosts_resolved
FROM per_host
GROUP BY crawl
ORDER BY crawl;

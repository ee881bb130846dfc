-- Question: how did blocking of each agent change between one crawl and the next? Among hosts
--           captured in both, how many started fully blocking it, and how many stopped?
-- Crawls are ordered by their earliest robots.txt capture; each crawl is compared with the one
-- before it. Each host counts once per crawl, by its governing capture in that crawl
-- (robots_hosts: its latest capture or, when that is a redirect, the capture its redirects lead
-- to), and only hosts whose governing capture is a 2xx robots.txt (or a resource record) in both
-- crawls are compared.
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_blocking_change.sql"
-- Columns:
--   from_crawl, to_crawl   the two crawls
--   agent, agent_category
--   hosts_both             hosts compared (the denominator)
--   blocking_before        of those, fully blocking the agent in from_crawl
--   blocking_after         of those, fully blocking it in to_crawl
--   newly_blocking         not fully blocking before, fully blocking after
--   unblocking             fully blocking before, not after
--   change                 (blocking_after - blocking_before) / hosts_both (4 decimals)
WITH latest AS (
    -- Each host once, with the verdicts of the capture that governs it (robots_hosts).
    SELECT h.host, h.registered_domain, h.resolution, v.* EXCLUDE (host, registered_domain)
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl
        AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
), ok AS (
    SELECT crawl, host, agent, agent_category, verdict = 'full_block' AS blocks
    FROM latest
    WHERE fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
), crawls AS (
    SELECT crawl, lag(crawl) OVER (ORDER BY min(capture_time) NULLS LAST, crawl) AS previous
    FROM read_parquet('robots_files/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
)
SELECT
    c.previous AS from_crawl,
    c.crawl AS to_crawl,
    a.agent,
    any_value(a.agent_category) AS agent_category,
    count(*) AS hosts_both,
    count(*) FILTER (b.blocks) AS blocking_before,
    count(*) FILTER (a.blocks) AS blocking_after,
    count(*) FILTER (a.blocks AND NOT b.blocks) AS newly_blocking,
    count(*) FILTER (b.blocks AND NOT a.blocks) AS unblocking,
    round((blocking_after - blocking_before) / hosts_both, 4) AS change
FROM crawls c
JOIN ok a ON a.crawl = c.crawl
JOIN ok b ON b.crawl = c.previous AND b.host = a.host AND b.agent = a.agent
GROUP BY c.previous, c.crawl, a.agent
ORDER BY from_crawl, to_crawl, abs(change) DESC, a.agent;

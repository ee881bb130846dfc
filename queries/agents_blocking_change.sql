-- Question: how did blocking of each agent change between one crawl and the next of its
--           collection? Among hosts captured in both, how many started fully blocking it, and
--           how many stopped?
-- Crawls are ordered by their earliest robots.txt capture; each crawl is compared with the one
-- before it of its collection: crawls whose names differ only in their digits (CC-MAIN-2024-22
-- and CC-MAIN-2024-26), as the report joins them. Crawls of different kinds are not compared,
-- nor the inputs that named no crawl (`unknown`): each crawl left out has one row, agent NULL,
-- saying why (left_out). Each host counts once per crawl, by its governing capture in that crawl
-- (robots_hosts: its latest capture or, when that is a redirect, the capture its redirects lead
-- to), and only hosts whose governing capture is a 2xx robots.txt (or a resource record) in both
-- crawls are compared.
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md). RFC 9309's reading
-- (verdict_rfc9309) differs from it only for hosts whose governing capture is a 5xx or a 429;
-- among the hosts compared (2xx in both crawls) the two agree; hosts_5xx counts those left out.
-- Reads summary_agent_changes, a row per crawl, crawl before it and agent that `repcensus hosts`
-- (and a scan's end) derives by matching the two crawls' robots_hosts host by host: never the
-- detail tables, so it answers in the same time and memory whatever the crawls' size.
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
--   hosts_resolved         of hosts_both, those read through redirects in either crawl
--   hosts_unresolved       hosts captured in both crawls whose redirects lead nowhere in either
--                          (a loop, more than five hops, a target never captured, no Location):
--                          not compared
--   hosts_5xx              hosts captured in both crawls whose governing capture is a 5xx in
--                          either: not compared
--   left_out               NULL for a comparison; for a crawl with robots.txt hosts that is
--                          compared with none: why (the other columns but to_crawl NULL)
WITH changes AS (
SELECT
    from_crawl,
    crawl AS to_crawl,
    agent,
    agent_category,
    hosts_both,
    blocking_before,
    blocking_after,
    newly_blocking,
    unblocking,
    round((blocking_after - blocking_before) / hosts_both, 4) AS change,
    hosts_resolved,
    hosts_unresolved,
    hosts_5xx
FROM read_parquet('summary_agent_changes/*/*.parquet', hive_partitioning = true)
WHERE hosts_both > 0
), crawls AS (
    SELECT DISTINCT crawl
    FROM read_parquet('summary_robots_hosts/*/*.parquet', hive_partitioning = true)
), left_out AS (
    SELECT c.crawl AS to_crawl,
        CASE WHEN c.crawl = 'unknown'
            THEN 'its inputs named no crawl: compared with none'
            WHEN (SELECT count(*) FROM crawls o WHERE regexp_replace(o.crawl, '[0-9]+', '#', 'g')
                = regexp_replace(c.crawl, '[0-9]+', '#', 'g')) = 1
            THEN 'no other crawl of its collection (names differing only in their digits)'
            ELSE 'the first crawl of its collection, or none of its hosts was 2xx in both'
        END AS left_out
    FROM crawls c
    WHERE c.crawl NOT IN (SELECT to_crawl FROM changes)
)
SELECT * FROM (
    SELECT *, NULL::VARCHAR AS left_out FROM changes
    UNION ALL BY NAME
    SELECT * FROM left_out
)
ORDER BY left_out NULLS FIRST, from_crawl, to_crawl, abs(change) DESC, agent;

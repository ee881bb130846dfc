-- Question: how did blocking of each agent change between one crawl and the next? Among hosts
--           captured in both, how many started fully blocking it, and how many stopped?
-- Crawls are ordered by their earliest robots.txt capture; each crawl is compared with the one
-- before it. Each host counts once per crawl, by its governing capture in that crawl
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
ORDER BY from_crawl, to_crawl, abs(change) DESC, agent;

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
-- Reads robots_hosts and the full_block runs of agent_verdict_runs (a few rows per capture),
-- in memory that grows with the hosts of two crawls, never hosts x agents; the crawls must
-- have been scanned with one agent registry (agent_index places agents in it).
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
WITH crawls AS (
    SELECT crawl, lag(crawl) OVER (ORDER BY min(first_capture) NULLS LAST, crawl) AS previous
    FROM read_parquet('summary_robots_outcomes/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
), governed AS (
    -- each host's governing capture (robots_hosts), when it is a 2xx
    SELECT crawl, host, resolution, effective_warc_file AS f, effective_warc_offset AS o
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE effective_fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
), both_crawls AS (
    SELECT c.previous AS from_crawl, c.crawl AS to_crawl, a.host, b.f AS bf, b.o AS bo,
        a.f AS af, a.o AS ao, 'resolved' IN (a.resolution, b.resolution) AS resolved
    FROM crawls c
    JOIN governed a ON a.crawl = c.crawl
    JOIN governed b ON b.crawl = c.previous AND b.host = a.host
), hosts AS (
    SELECT crawl, host FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
), flagged AS (
    -- hosts whose redirects lead nowhere or whose governing capture is a 5xx (few)
    SELECT crawl, host, resolution NOT IN ('direct', 'resolved') AS unresolved,
        effective_fetch_outcome = 'server_error' AS is_5xx
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE resolution NOT IN ('direct', 'resolved') OR effective_fetch_outcome = 'server_error'
), left_out AS (
    -- of the hosts captured in both crawls, those flagged in either
    SELECT from_crawl, to_crawl, count(*) FILTER (unresolved) AS hosts_unresolved,
        count(*) FILTER (is_5xx) AS hosts_5xx
    FROM (
        SELECT c.previous AS from_crawl, c.crawl AS to_crawl, x.host,
            bool_or(x.unresolved) AS unresolved, bool_or(x.is_5xx) AS is_5xx
        FROM flagged x
        -- the same host in another crawl (the flagged hosts are few: the probe reads the rest)
        JOIN hosts h ON h.host = x.host AND h.crawl <> x.crawl
        JOIN crawls c
            ON (c.crawl = x.crawl AND c.previous = h.crawl)
            OR (c.previous = x.crawl AND c.crawl = h.crawl)
        GROUP BY ALL
    )
    GROUP BY ALL
), blocked AS (
    -- the agents a capture fully blocks, as ranges of registry places [s, e)
    SELECT crawl, warc_file AS f, warc_offset AS o, agent_index AS s, agent_index + agents AS e
    FROM read_parquet('agent_verdict_runs/*/*.parquet', hive_partitioning = true)
    WHERE verdict = 'full_block'
), before AS (
    SELECT from_crawl, to_crawl, host, s, e
    FROM both_crawls JOIN blocked r ON r.crawl = from_crawl AND r.f = bf AND r.o = bo
), after AS (
    SELECT from_crawl, to_crawl, host, s, e
    FROM both_crawls JOIN blocked r ON r.crawl = to_crawl AND r.f = af AND r.o = ao
), kept AS (
    -- agents fully blocked in both crawls: where a range before and a range after overlap
    SELECT b.from_crawl, b.to_crawl, greatest(b.s, a.s) AS s, least(b.e, a.e) AS e
    FROM before b JOIN after a USING (from_crawl, to_crawl, host)
    WHERE greatest(b.s, a.s) < least(b.e, a.e)
), ranges AS (
    SELECT from_crawl, to_crawl, 'before' AS kind, s, e FROM before
    UNION ALL SELECT from_crawl, to_crawl, 'after', s, e FROM after
    UNION ALL SELECT from_crawl, to_crawl, 'kept', s, e FROM kept
), steps AS (
    -- hosts gained where ranges start and lost where they end; an agent's count is the sum of
    -- the steps at or before its place
    SELECT from_crawl, to_crawl, kind, pos, sum(d) AS d
    FROM (
        SELECT from_crawl, to_crawl, kind, s AS pos, 1 AS d FROM ranges
        UNION ALL SELECT from_crawl, to_crawl, kind, e, -1 FROM ranges
    )
    GROUP BY ALL
), compared AS (
    SELECT from_crawl, to_crawl, count(*) AS hosts_both,
        count(*) FILTER (resolved) AS hosts_resolved
    FROM both_crawls GROUP BY ALL
), agents AS (
    SELECT DISTINCT crawl, agent, agent_index, agent_category
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
), counted AS (
    SELECT
        p.from_crawl,
        p.to_crawl,
        g.agent,
        g.agent_category,
        p.hosts_both,
        p.hosts_resolved,
        coalesce(sum(d) FILTER (kind = 'before'), 0) AS blocking_before,
        coalesce(sum(d) FILTER (kind = 'after'), 0) AS blocking_after,
        coalesce(sum(d) FILTER (kind = 'kept'), 0) AS kept
    FROM compared p
    JOIN agents g ON g.crawl = p.to_crawl
    LEFT JOIN steps s
        ON s.from_crawl = p.from_crawl AND s.to_crawl = p.to_crawl AND s.pos <= g.agent_index
    GROUP BY ALL
)
SELECT
    from_crawl,
    to_crawl,
    agent,
    agent_category,
    hosts_both,
    blocking_before::BIGINT AS blocking_before,
    blocking_after::BIGINT AS blocking_after,
    (blocking_after - kept)::BIGINT AS newly_blocking,
    (blocking_before - kept)::BIGINT AS unblocking,
    round((blocking_after - blocking_before) / hosts_both, 4) AS change,
    hosts_resolved,
    coalesce(l.hosts_unresolved, 0) AS hosts_unresolved,
    coalesce(l.hosts_5xx, 0) AS hosts_5xx
FROM counted LEFT JOIN left_out l USING (from_crawl, to_crawl)
ORDER BY from_crawl, to_crawl, abs(change) DESC, agent;

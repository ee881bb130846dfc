-- Question: how many sites block every crawler by accident? A frequent mistake: `User-agent: *`,
--           then a blank line, a comment, a `Sitemap:` or `Crawl-delay:` line, then a list of AI
--           user-agents and `Disallow: /`. RFC 9309 and Google end a group's user-agent lines
--           only at an Allow or Disallow line, so `*` joins the AI group and every crawler,
--           Googlebot included, is blocked.
-- Each host counts once, by the robots.txt capture that governs it (robots_hosts: its latest
-- capture in the crawl, through redirects and revisits), over the hosts whose governing capture
-- is a 2xx robots.txt (hosts_2xx).
-- Reads robots_hosts, the flags of robots_files (group_split, wildcard_split, wildcard_with_ai;
-- docs/schema.md), and the agent_verdict_runs rows of the flagged hosts' captures that hold
-- Googlebot (its place in the registry from summary_agents).
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_accidental_blocks.sql"
-- Columns: in this order, the shares right after the keys: crawl, share_wildcard_with_ai, hosts_2xx,
--     hosts_wildcard_with_ai, hosts_wildcard_split, hosts_blocking_googlebot, hosts_split_blank,
--     hosts_split_comment, hosts_split_sitemap, hosts_split_crawl_delay, hosts_split_other; one by one:
--   crawl
--   hosts_2xx                   the denominator
--   hosts_wildcard_with_ai      a group names both `*` and an AI agent of the registry
--   share_wildcard_with_ai      hosts_wildcard_with_ai / hosts_2xx (4 decimals)
--   hosts_wildcard_split        a `*` line joins, past a blank, comment, Sitemap, Crawl-delay or
--                               other line, the agent lines after it
--   hosts_blocking_googlebot    of the hosts with either flag, those whose file fully blocks
--                               Googlebot (verdict full_block: nothing may be crawled)
--   hosts_split_blank, hosts_split_comment, hosts_split_sitemap, hosts_split_crawl_delay,
--   hosts_split_other           hosts whose file splits some group's agent lines, by what
--                               first split them (group_split; any group, `*` or not)
WITH answer AS (
WITH hosts AS (
    SELECT h.crawl, h.host, h.effective_warc_file AS f, h.effective_warc_offset AS o,
        r.group_split, coalesce(r.wildcard_split, false) AS wildcard_split,
        coalesce(r.wildcard_with_ai, false) AS wildcard_with_ai
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) r
        ON r.crawl = h.crawl AND r.warc_file = h.effective_warc_file
        AND r.warc_offset = h.effective_warc_offset
    WHERE h.effective_fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
), flagged AS (
    SELECT * FROM hosts WHERE wildcard_split OR wildcard_with_ai
), googlebot_at AS (
    -- Googlebot's place in the registry the crawl's verdicts were made with
    SELECT DISTINCT crawl, agent_index
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
    WHERE agent = 'Googlebot'
), googlebot AS (
    SELECT f.crawl, f.host
    FROM flagged f
    JOIN read_parquet('agent_verdict_runs/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = f.crawl AND v.warc_file = f.f AND v.warc_offset = f.o
    JOIN googlebot_at g
        ON g.crawl = v.crawl
        AND g.agent_index >= v.agent_index AND g.agent_index < v.agent_index + v.agents
    WHERE v.verdict = 'full_block'
)
SELECT
    h.crawl,
    count(*) AS hosts_2xx,
    count(*) FILTER (wildcard_with_ai) AS hosts_wildcard_with_ai,
    round(count(*) FILTER (wildcard_with_ai) / count(*), 4) AS share_wildcard_with_ai,
    count(*) FILTER (wildcard_split) AS hosts_wildcard_split,
    count(g.host) AS hosts_blocking_googlebot,
    count(*) FILTER (group_split = 'blank') AS hosts_split_blank,
    count(*) FILTER (group_split = 'comment') AS hosts_split_comment,
    count(*) FILTER (group_split = 'sitemap') AS hosts_split_sitemap,
    count(*) FILTER (group_split = 'crawl_delay') AS hosts_split_crawl_delay,
    count(*) FILTER (group_split = 'other') AS hosts_split_other
FROM hosts h
LEFT JOIN googlebot g ON g.crawl = h.crawl AND g.host = h.host
GROUP BY h.crawl
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, share_wildcard_with_ai,
    * EXCLUDE (crawl, share_wildcard_with_ai)
FROM answer
ORDER BY crawl;

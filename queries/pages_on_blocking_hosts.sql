-- Question: what share of a crawl's pages, and of their bytes, is on sites whose robots.txt fully
--           blocks each tracked agent? Studies of AI-training consent weigh sites by how much
--           of the crawl they make up, not one vote per host.
-- Pages: distinct URLs of 2xx HTML responses in the `pages` table (a URL captured twice counts
-- once, with the bytes of its latest capture); bytes: the HTTP payload as captured.
-- Each page's host counts by the robots.txt capture that governs it (robots_hosts: its latest
-- capture in the same crawl, through redirects and revisits; for a host captured under two
-- schemes or ports, that of its latest capture: `counts_for_host`), so a crawl must hold the hosts'
-- robots.txt captures and their pages (scan the robots.txt archives and the page archives into
-- one output folder, under one crawl name).
-- Coverage: pages on hosts with no robots.txt capture in the crawl are counted apart
-- (urls_uncovered, bytes_uncovered) and never as allowed: the shares are over covered pages.
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md); a host's verdict is for its
-- whole site (full_block: every path disallowed), not for each page's URL.
-- Reads pages (one row per page response), the robots_hosts rows of the pages' hosts (their
-- block_set: the agents the governing capture fully blocks, in summary_block_sets) and
-- summary_agents for the agents' names; memory grows with the crawl's distinct page URLs (DuckDB
-- spills them), never with its robots.txt hosts, nor pages x agents.
-- Run from the scan's output folder: duckdb -c ".read ../queries/pages_on_blocking_hosts.sql"
-- Columns: in this order, the shares right after the keys: crawl, agent, agent_category, share_urls,
--     share_bytes, urls_covered, bytes_covered, urls_blocking, bytes_blocking, hosts_covered,
--     hosts_blocking, urls_uncovered, bytes_uncovered, hosts_uncovered; one by one:
--   crawl, agent, agent_category
--   urls_covered, bytes_covered   pages (distinct URLs) and bytes on hosts with a robots.txt
--                                 capture in the crawl: the denominators
--   urls_blocking, bytes_blocking of those, on hosts whose governing capture fully blocks the agent
--   share_urls, share_bytes       urls_blocking / urls_covered, bytes_blocking / bytes_covered
--                                 (4 decimals)
--   hosts_covered, hosts_blocking hosts with pages: with a robots.txt capture, fully blocking
--   urls_uncovered, bytes_uncovered, hosts_uncovered
--                                 pages, bytes and hosts with no robots.txt capture in the crawl
WITH answer AS (
WITH pages AS (
    -- each distinct 2xx HTML URL once, with its latest capture's bytes
    SELECT crawl, host, url, arg_max(bytes, (capture_time, warc_file, warc_offset)) AS bytes
    FROM read_parquet('pages/*/*.parquet', hive_partitioning = true)
    WHERE html AND http_status BETWEEN 200 AND 299 AND host IS NOT NULL
    GROUP BY crawl, host, url
), per_host AS (
    SELECT crawl, host, count(*) AS urls, coalesce(sum(bytes), 0) AS bytes
    FROM pages GROUP BY ALL
), covered_hosts AS (
    -- only the robots.txt hosts that have pages go into the join, not every host of the crawl
    SELECT crawl, host, block_set
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE counts_for_host AND (crawl, host) IN (SELECT (crawl, host) FROM per_host)
), governed AS (
    SELECT p.crawl, p.host, p.urls, p.bytes, h.host IS NOT NULL AS covered, h.block_set
    FROM per_host p
    LEFT JOIN covered_hosts h ON h.crawl = p.crawl AND h.host = p.host
), totals AS (
    SELECT
        crawl,
        coalesce(sum(urls) FILTER (covered), 0) AS urls_covered,
        coalesce(sum(bytes) FILTER (covered), 0) AS bytes_covered,
        count(*) FILTER (covered) AS hosts_covered,
        coalesce(sum(urls) FILTER (NOT covered), 0) AS urls_uncovered,
        coalesce(sum(bytes) FILTER (NOT covered), 0) AS bytes_uncovered,
        count(*) FILTER (NOT covered) AS hosts_uncovered
    FROM governed GROUP BY crawl
), by_set AS (
    -- pages, bytes and hosts per set of fully blocked agents
    SELECT crawl, block_set, sum(urls) AS urls, sum(bytes) AS bytes, count(*) AS hosts
    FROM governed WHERE block_set IS NOT NULL GROUP BY ALL
), blocking AS (
    SELECT b.crawl, unnest(s.agents) AS agent, b.urls, b.bytes, b.hosts
    FROM by_set b
    JOIN read_parquet('summary_block_sets/*/*.parquet', hive_partitioning = true) s
        ON s.crawl = b.crawl AND s.block_set = b.block_set
), agents AS (
    SELECT DISTINCT crawl, agent, agent_index, agent_category
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
), counted AS (
    SELECT
        a.crawl, a.agent, a.agent_category,
        coalesce(sum(b.urls), 0) AS urls_blocking,
        coalesce(sum(b.bytes), 0) AS bytes_blocking,
        coalesce(sum(b.hosts), 0) AS hosts_blocking
    FROM agents a
    LEFT JOIN blocking b ON b.crawl = a.crawl AND b.agent = a.agent
    GROUP BY ALL
)
SELECT
    c.crawl,
    agent,
    agent_category,
    urls_covered::BIGINT AS urls_covered,
    bytes_covered::BIGINT AS bytes_covered,
    urls_blocking::BIGINT AS urls_blocking,
    bytes_blocking::BIGINT AS bytes_blocking,
    round(urls_blocking / nullif(urls_covered, 0), 4) AS share_urls,
    round(bytes_blocking / nullif(bytes_covered, 0), 4) AS share_bytes,
    hosts_covered::BIGINT AS hosts_covered,
    hosts_blocking::BIGINT AS hosts_blocking,
    urls_uncovered::BIGINT AS urls_uncovered,
    bytes_uncovered::BIGINT AS bytes_uncovered,
    hosts_uncovered::BIGINT AS hosts_uncovered
FROM counted c JOIN totals t USING (crawl)
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, agent_category, share_urls, share_bytes,
    * EXCLUDE (crawl, agent, agent_category, share_urls, share_bytes)
FROM answer
ORDER BY crawl, urls_blocking DESC, agent;

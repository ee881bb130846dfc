-- Question: what share of a crawl's pages, and of their bytes, may each agent not fetch, by the
--           robots.txt rules that apply to the page's own URL?
-- Pages: distinct URLs of 2xx HTML responses in the `pages` table, each read at its latest
-- capture (its bytes: the HTTP payload as captured); a URL captured twice counts once.
-- Verdicts: `page_verdicts` (docs/schema.md): the robots.txt capture that governs the page's
-- site, its scheme, host and port (robots_hosts: through redirects and revisits, in the same
-- crawl) matched against the
-- page's URL, for the agents the scan's --page-agents chose (default: the ai_training agents).
-- A crawl must hold the hosts' robots.txt captures and their pages: scan the robots.txt
-- archives and the page archives into one output folder, under one crawl name.
-- Coverage: pages on sites with no robots.txt capture in the crawl are counted apart
-- (urls_uncovered, bytes_uncovered) and never as allowed; pages whose host's robots.txt
-- redirects nowhere or is an unresolved revisit are counted apart too (urls_unresolved).
-- Denominator of the shares: urls_resolved (covered pages less the unresolved ones), and
-- their bytes.
-- Run from the scan's output folder: duckdb -c ".read ../queries/pages_disallowed.sql"
-- Columns: in this order, the shares right after the keys: crawl, agent, agent_category, share_urls,
--     share_bytes, share_urls_rfc9309, share_urls_documented, urls_resolved, bytes_resolved,
--     urls_disallowed, bytes_disallowed, urls_unreachable, urls_disallowed_rfc9309,
--     urls_disallowed_documented, urls_not_honored, urls_no_robots, urls_unresolved, urls_uncovered,
--     bytes_uncovered; one by one:
--   crawl, agent, agent_category
--   urls_resolved, bytes_resolved     covered pages whose host's robots.txt was read: the
--                                     denominators
--   urls_disallowed, bytes_disallowed of those, pages whose own URL the agent may not fetch in
--                                     Google's reading (`verdict` = disallowed)
--   share_urls, share_bytes           urls_disallowed / urls_resolved, bytes likewise (4 decimals)
--   urls_unreachable                  pages whose host's robots.txt was a 5xx or 429: Google
--                                     stops crawling those sites (not in urls_disallowed)
--   urls_disallowed_rfc9309, share_urls_rfc9309
--                                     RFC 9309's reading: a 5xx robots.txt disallows every page
--   urls_disallowed_documented, share_urls_documented
--                                     the crawler's documented reading (docs/agents.md)
--   urls_not_honored                  pages of an agent that does not honour robots.txt (its
--                                     documented reading is not_honored: 0 or every page)
--   urls_no_robots                    pages of hosts whose robots.txt is empty or a 4xx
--   urls_unresolved, urls_uncovered, bytes_uncovered
--                                     left out: unresolved robots.txt; no robots.txt capture
--                                     (a crawl whose pages have no verdict at all: one row,
--                                     agent NULL)
WITH answer AS (
WITH latest AS (
    -- each distinct 2xx HTML URL at its latest capture
    SELECT crawl, url, any_value(host) AS host,
        arg_max(warc_file, (capture_time, warc_file, warc_offset)) AS f,
        arg_max(warc_offset, (capture_time, warc_file, warc_offset)) AS o,
        coalesce(arg_max(bytes, (capture_time, warc_file, warc_offset)), 0) AS bytes
    FROM read_parquet('pages/*/*.parquet', hive_partitioning = true)
    WHERE html AND http_status BETWEEN 200 AND 299 AND host IS NOT NULL
    GROUP BY crawl, url
), sited AS (
    -- the page's site: its scheme and port (the scheme's default when the URL names none)
    SELECT *, coalesce(try_cast(nullif(regexp_extract(url,
            '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#\\]*@)?(?:\[[^\]/]*\]|[^/?#\\:]*):([0-9]+)', 1),
            '') AS INTEGER), CASE scheme WHEN 'https' THEN 443 ELSE 80 END) AS port
    FROM (SELECT *, lower(regexp_extract(url, '^([A-Za-z][A-Za-z0-9+.-]*)://', 1)) AS scheme
        FROM latest)
), covered AS (
    -- a page is covered by its own site's robots.txt: scheme, host and port (RFC 9309 2.3)
    SELECT l.*, h.host IS NOT NULL AS covered
    FROM sited l
    LEFT JOIN (
        SELECT crawl, host, scheme, port
        FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
    ) h USING (crawl, host, scheme, port)
), uncovered AS (
    SELECT crawl, count(*) FILTER (NOT covered) AS urls_uncovered,
        coalesce(sum(bytes) FILTER (NOT covered), 0) AS bytes_uncovered
    FROM covered GROUP BY crawl
), verdicts AS (
    SELECT v.crawl, v.agent, v.agent_category, v.verdict, v.verdict_rfc9309,
        v.verdict_documented, c.bytes
    FROM covered c
    JOIN read_parquet('page_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = c.crawl AND v.warc_file = c.f AND v.warc_offset = c.o
    WHERE c.covered
), counted AS (
    SELECT
        crawl, agent, agent_category,
        count(*) FILTER (verdict NOT IN ('redirect', 'unknown')) AS urls_resolved,
        coalesce(sum(bytes) FILTER (verdict NOT IN ('redirect', 'unknown')), 0) AS bytes_resolved,
        count(*) FILTER (verdict = 'disallowed') AS urls_disallowed,
        coalesce(sum(bytes) FILTER (verdict = 'disallowed'), 0) AS bytes_disallowed,
        count(*) FILTER (verdict = 'unreachable') AS urls_unreachable,
        count(*) FILTER (verdict_rfc9309 = 'disallowed') AS urls_disallowed_rfc9309,
        count(*) FILTER (verdict_documented = 'disallowed') AS urls_disallowed_documented,
        count(*) FILTER (verdict_documented = 'not_honored') AS urls_not_honored,
        count(*) FILTER (verdict = 'no_robots') AS urls_no_robots,
        count(*) FILTER (verdict IN ('redirect', 'unknown')) AS urls_unresolved
    FROM verdicts GROUP BY ALL
)
SELECT
    crawl, agent, agent_category,
    coalesce(urls_resolved, 0) AS urls_resolved,
    coalesce(bytes_resolved, 0)::BIGINT AS bytes_resolved,
    coalesce(urls_disallowed, 0) AS urls_disallowed,
    coalesce(bytes_disallowed, 0)::BIGINT AS bytes_disallowed,
    round(urls_disallowed / nullif(urls_resolved, 0), 4) AS share_urls,
    round(bytes_disallowed / nullif(bytes_resolved, 0), 4) AS share_bytes,
    coalesce(urls_unreachable, 0) AS urls_unreachable,
    coalesce(urls_disallowed_rfc9309, 0) AS urls_disallowed_rfc9309,
    round(urls_disallowed_rfc9309 / nullif(urls_resolved, 0), 4) AS share_urls_rfc9309,
    coalesce(urls_disallowed_documented, 0) AS urls_disallowed_documented,
    round(urls_disallowed_documented / nullif(urls_resolved, 0), 4) AS share_urls_documented,
    coalesce(urls_not_honored, 0) AS urls_not_honored,
    coalesce(urls_no_robots, 0) AS urls_no_robots,
    coalesce(urls_unresolved, 0) AS urls_unresolved,
    urls_uncovered,
    bytes_uncovered::BIGINT AS bytes_uncovered
-- a crawl none of whose pages has a verdict (no host with a robots.txt capture) keeps one row,
-- with agent NULL, for its uncovered pages
FROM uncovered LEFT JOIN counted USING (crawl)
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, agent_category, share_urls, share_bytes, share_urls_rfc9309, share_urls_documented,
    * EXCLUDE (crawl, agent, agent_category, share_urls, share_bytes, share_urls_rfc9309, share_urls_documented)
FROM answer
ORDER BY crawl, share_urls DESC NULLS LAST, agent;

-- Question: for each page, what rules bind each crawler it names, under draft-illyes-repext-03
--           (the rules for `*` added to the crawler's own, meta tags only inside <head>) beside
--           -02's reading (the crawler's own rules replace those for `*`)?
-- Unit: one row per 2xx response and crawler named in its robots header or meta tags (the
-- pages signals_effective_rules.sql counts), and one for `*`; a detail listing, not a share.
-- Robots rules only (X-Robots-Tag, Robots-Tag, robots meta tags); `unknown` rules left out.
-- Reads page_signals only.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_effective_rules_by_page.sql"
-- Columns:
--   crawl, url, warc_file, warc_offset   the page
--   bot           the crawler (product token, lower case), or `*` (every crawler not named)
--   rules_02      the rules binding it in -02's reading, sorted, comma-separated ('' for none)
--   rules_03      the same in -03's reading
--   differ        rules_02 <> rules_03
WITH sig AS (
    SELECT crawl, url, warc_file, warc_offset, agent, directive,
        source <> 'meta' OR coalesce(in_head, true) AS in_head
    FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
    WHERE http_status BETWEEN 200 AND 299
        AND (source IN ('x_robots_tag', 'robots_tag')
            OR (source = 'meta' AND lower(name) <> 'content-signal'
                AND coalesce(directive, '') NOT IN ('tdm-reservation', 'tdm-policy')))
        AND coalesce(directive, '') <> 'unknown'
), bots AS (
    SELECT DISTINCT crawl, url, warc_file, warc_offset, agent AS bot FROM sig
)
SELECT b.crawl, b.url, b.warc_file, b.warc_offset, b.bot,
    coalesce(string_agg(DISTINCT s.directive, ',' ORDER BY s.directive)
        FILTER (s.agent = b.bot), '') AS rules_02,
    coalesce(string_agg(DISTINCT s.directive, ',' ORDER BY s.directive)
        FILTER ((s.agent = b.bot OR s.agent = '*') AND s.in_head), '') AS rules_03,
    rules_02 <> rules_03 AS differ
FROM bots b
JOIN sig s ON s.crawl = b.crawl AND s.warc_file = b.warc_file AND s.warc_offset = b.warc_offset
GROUP BY ALL
ORDER BY b.crawl, b.warc_file, b.warc_offset, b.bot;

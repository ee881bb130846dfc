-- Question: which pages say opposite things in their robots header and their robots meta tag,
--           for the same agent (index vs noindex, follow vs nofollow, archive vs noarchive,
--           snippet vs nosnippet, all vs noindex/nofollow/none)?
-- Pages: responses with a 2xx status (what a crawler could index), as in every signals_* query.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_meta_header_conflicts.sql"
-- Columns:
--   crawl              crawl name
--   url                the page
--   agent              * or the product token both signals address
--   header_directive   what the header says
--   meta_directive     what the meta tag (in the head) says
WITH s AS (
    SELECT crawl, warc_file, warc_offset, url, agent, directive,
           CASE WHEN source = 'meta' THEN 'meta' ELSE 'header' END AS side
    FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
    WHERE source IN ('meta', 'x_robots_tag', 'robots_tag') AND coalesce(in_head, true)
      AND directive IS NOT NULL AND http_status BETWEEN 200 AND 299
),
opposite(a, b) AS (
    VALUES ('index', 'noindex'), ('follow', 'nofollow'), ('archive', 'noarchive'),
           ('snippet', 'nosnippet'), ('all', 'noindex'), ('all', 'nofollow'), ('all', 'none'),
           ('imageindex', 'noimageindex')
)
SELECT DISTINCT h.crawl, h.url, h.agent, h.directive AS header_directive, m.directive AS meta_directive
FROM s h
JOIN s m ON h.warc_file = m.warc_file AND h.warc_offset = m.warc_offset AND h.agent = m.agent
JOIN opposite o ON (h.directive = o.a AND m.directive = o.b) OR (h.directive = o.b AND m.directive = o.a)
WHERE h.side = 'header' AND m.side = 'meta'
ORDER BY h.crawl, h.url, h.agent, header_directive, meta_directive;

-- Question: on which non-HTML responses do sites send robots headers (X-Robots-Tag or
--           Robots-Tag), by media type, and what do they say most?
-- Pages: responses with a 2xx status (what a crawler could index), as in every signals_* query.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_header_non_html.sql"
-- Columns:
--   crawl            crawl name
--   content_type     media type of the response (NULL when the response had none)
--   responses        2xx responses with a robots header
--   hosts            distinct hosts
--   top_directive    the most frequent directive on those responses
--   directives       the distinct directives seen, sorted
SELECT
    crawl,
    content_type,
    count(DISTINCT (warc_file, warc_offset)) AS responses,
    count(DISTINCT host) AS hosts,
    mode(directive ORDER BY directive) AS top_directive,
    list_sort(list(DISTINCT directive) FILTER (WHERE directive IS NOT NULL)) AS directives
FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
WHERE source IN ('x_robots_tag', 'robots_tag') AND http_status BETWEEN 200 AND 299
  AND coalesce(content_type, '') NOT IN ('text/html', 'application/xhtml+xml')
GROUP BY crawl, content_type
ORDER BY crawl, responses DESC, content_type;

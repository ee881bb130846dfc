-- Question: on which non-HTML responses do sites send robots headers (X-Robots-Tag or
--           Robots-Tag), by media type, and what do they say most?
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_header_non_html.sql"
-- Columns:
--   content_type     media type of the response (NULL when the response had none)
--   responses        responses with a robots header
--   hosts            distinct hosts
--   top_directive    the most frequent directive on those responses
--   directives       the distinct directives seen, sorted
SELECT
    content_type,
    count(DISTINCT (warc_file, warc_offset)) AS responses,
    count(DISTINCT host) AS hosts,
    mode(directive) AS top_directive,
    list_sort(list(DISTINCT directive) FILTER (WHERE directive IS NOT NULL)) AS directives
FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
WHERE source IN ('x_robots_tag', 'robots_tag')
  AND coalesce(content_type, '') NOT IN ('text/html', 'application/xhtml+xml')
GROUP BY content_type
ORDER BY responses DESC, content_type;

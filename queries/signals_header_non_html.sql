-- Question: on which non-HTML responses do sites send robots headers (X-Robots-Tag or
--           Robots-Tag), by media type, and what do they say most?
-- Pages: responses with a 2xx status (what a crawler could index), as in every signals_* query.
-- Reads summary_page_header_types (derived per crawl from page_signals).
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_header_non_html.sql"
-- Columns:
--   crawl            crawl name
--   content_type     media type of the response (NULL when the response had none)
--   responses        2xx responses with a robots header
--   hosts            distinct hosts
--   top_directive    the most frequent directive on those responses
--   directives       the distinct directives seen, sorted
SELECT crawl, content_type, responses, hosts, top_directive, directives
FROM read_parquet('summary_page_header_types/*/*.parquet', hive_partitioning = true)
WHERE status_class = '2xx'
  AND coalesce(content_type, '') NOT IN ('text/html', 'application/xhtml+xml')
ORDER BY crawl, responses DESC, content_type;

-- Question: which applications and directives do App-Directives lines (plan-b draft) name, with
--           which values, and how many such lines are not valid Structured Fields?
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset); lines of earlier captures are not counted.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_app_directives.sql"
-- Columns:
--   crawl         crawl name
--   app_id        application token (NULL when the line did not parse)
--   directive     directive (parameter) name; NULL for an application named without directives
--   value         directive value as text (booleans true/false)
--   value_type    Structured Fields type (boolean, integer, decimal, string, token, ...)
--   problem       NULL, or invalid_structured_field, member_not_token, inner_list, no_directives
--   spelling      App-Directives or App-Directive as written (lowercased)
--   directives    rows (directive occurrences)
--   hosts         distinct hosts
WITH latest AS (
    -- each host's latest robots.txt capture in the crawl (robots_hosts: by capture_time, then
    -- warc_file, then warc_offset)
    SELECT crawl, h.host, warc_file, warc_offset, f.parsed
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) f
        USING (crawl, warc_file, warc_offset)
)
SELECT
    crawl,
    app_id,
    directive,
    value,
    value_type,
    problem,
    lower(key_raw) AS spelling,
    count(*) AS directives,
    count(DISTINCT host) AS hosts
FROM read_parquet('app_directives/*/*.parquet', hive_partitioning = true)
JOIN latest USING (crawl, host, warc_file, warc_offset)
GROUP BY ALL
ORDER BY crawl, hosts DESC, app_id NULLS LAST, directive NULLS FIRST, value, spelling;

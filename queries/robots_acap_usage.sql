-- Question: what do sites still say in ACAP (the 2007 Automated Content Access Protocol fields of
--           robots.txt)? Which usages they allow or prohibit, to which crawlers, and how often the
--           fields break the ACAP strawman's vocabulary or ordering rules.
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset); lines of earlier captures are not counted.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_acap_usage.sql"
-- Columns:
--   crawl          crawl name
--   field          allow, disallow, request, crawler, usage_purpose, permissions_reference,
--                  qualified_usage, composite_usage, resource_set, ignore_conventional_records, version
--   usage          usage verb (crawl, follow, index, preserve, present, other; or an unknown one), or the
--                  action of a request; for version, the version number
--   resource_type  used resource type of present-<type> (snippet, thumbnail, ...)
--   addressed_to   'any crawler' when the record names '*', 'named crawlers' otherwise, NULL outside records
--   fields         ACAP fields
--   hosts          distinct hosts
--   with_problems  fields with at least one problem (unknown_usage, bad_order, ...)
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
    field,
    CASE WHEN field = 'version' THEN resource ELSE usage END AS usage,
    resource_type,
    CASE
        WHEN crawlers IS NULL THEN NULL
        WHEN list_contains(crawlers, '*') THEN 'any crawler'
        ELSE 'named crawlers'
    END AS addressed_to,
    count(*) AS fields,
    count(DISTINCT host) AS hosts,
    count(*) FILTER (WHERE len(problems) > 0) AS with_problems
FROM read_parquet('acap_fields/*/*.parquet', hive_partitioning = true)
JOIN latest USING (crawl, host, warc_file, warc_offset)
GROUP BY ALL
ORDER BY crawl, hosts DESC, fields DESC, field, usage NULLS LAST, addressed_to NULLS LAST;

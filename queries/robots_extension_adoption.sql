-- Question: how many sites use each robots.txt extension and non-standard line, per crawl?
--           User-Agent-Purpose, App-Directives, ACAP, Content-Usage, Content-Signal, Crawl-delay,
--           Host, Clean-param, Noindex, Request-rate, Visit-time, Sitemap.
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset); lines of earlier captures are not counted.
-- Denominator: hosts whose latest capture was parsed (a 2xx robots.txt or a resource record).
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_extension_adoption.sql"
-- Columns:
--   crawl      crawl name
--   extension  the key (purpose, app_directives, acap, content_usage, content_signal,
--              crawl_delay, host, clean_param, noindex, request_rate, visit_time, sitemap)
--   hosts      hosts whose robots.txt has at least one such line
--   lines      such lines in those captures
--   share      hosts / hosts whose latest capture was parsed (0..1, 4 decimals)
WITH latest AS (
    -- each host's latest robots.txt capture in the crawl (robots_hosts: by capture_time, then
    -- warc_file, then warc_offset)
    SELECT crawl, h.host, warc_file, warc_offset, f.parsed
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) f
        USING (crawl, warc_file, warc_offset)
), parsed AS (
    SELECT crawl, count(*) AS n FROM latest WHERE parsed GROUP BY crawl
), ext AS (
    SELECT crawl, 'purpose' AS extension, host, warc_file, warc_offset
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true)
    WHERE line_kind = 'purpose'
    UNION ALL
    SELECT crawl, key, host, warc_file, warc_offset
    FROM read_parquet('robots_rules/*/*.parquet', hive_partitioning = true)
    WHERE key IN ('app_directives', 'acap', 'content_usage', 'content_signal', 'crawl_delay',
                  'host', 'clean_param', 'noindex', 'request_rate', 'visit_time', 'sitemap')
)
SELECT
    ext.crawl,
    extension,
    count(DISTINCT ext.host) AS hosts,
    count(*) AS lines,
    round(count(DISTINCT ext.host) / any_value(parsed.n), 4) AS share
FROM ext
JOIN latest USING (crawl, host, warc_file, warc_offset)
JOIN parsed ON parsed.crawl = ext.crawl
GROUP BY ext.crawl, extension
ORDER BY ext.crawl, hosts DESC, extension;

-- Question: how many sites use each robots.txt extension and non-standard line, per crawl?
--           User-Agent-Purpose, App-Directives, ACAP, Content-Usage, Content-Signal, Crawl-delay,
--           Host, Clean-param, Noindex, Request-rate, Visit-time, Sitemap.
-- Denominator: hosts with at least one parsed robots.txt (2xx capture or resource record).
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_extension_adoption.sql"
-- Columns:
--   crawl      crawl name
--   extension  the key (purpose, app_directives, acap, content_usage, content_signal,
--              crawl_delay, host, clean_param, noindex, request_rate, visit_time, sitemap)
--   hosts      hosts whose robots.txt has at least one such line
--   lines      such lines, all captures
--   share      hosts / hosts with a parsed robots.txt (0..1, 4 decimals)
WITH parsed AS (
    SELECT crawl, count(DISTINCT host) AS n
    FROM read_parquet('robots_files/*/*.parquet', hive_partitioning = true)
    WHERE parsed
    GROUP BY crawl
), ext AS (
    SELECT crawl, 'purpose' AS extension, host
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true)
    WHERE line_kind = 'purpose'
    UNION ALL
    SELECT crawl, key, host
    FROM read_parquet('robots_rules/*/*.parquet', hive_partitioning = true)
    WHERE key IN ('app_directives', 'acap', 'content_usage', 'content_signal', 'crawl_delay',
                  'host', 'clean_param', 'noindex', 'request_rate', 'visit_time', 'sitemap')
)
SELECT
    ext.crawl,
    extension,
    count(DISTINCT host) AS hosts,
    count(*) AS lines,
    round(count(DISTINCT host) / any_value(parsed.n), 4) AS share
FROM ext JOIN parsed USING (crawl)
GROUP BY ext.crawl, extension
ORDER BY ext.crawl, hosts DESC, extension;

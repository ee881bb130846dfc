-- Question: how many sites use each robots.txt extension and non-standard line, per crawl?
--           User-Agent-Purpose, App-Directives, ACAP, Content-Usage, Content-Signal, License (RSL),
--           Crawl-delay, Host, Clean-param, Noindex, Request-rate, Visit-time, Sitemap.
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset; a revisit is read as the capture it stands for); lines of earlier
-- captures are not counted.
-- Denominator: hosts whose latest capture was parsed (a 2xx robots.txt or a resource record).
-- Reads the summaries (summary_robots_hosts, summary_robots_keys), derived per crawl with
-- robots_hosts: no line of robots_agents or robots_rules is read.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_extension_adoption.sql"
-- Columns: in this order, the shares right after the keys: crawl, extension, share, hosts, lines; one by one:
--   crawl      crawl name
--   extension  the key (purpose, app_directives, acap, content_usage, content_signal, license,
--              crawl_delay, host, clean_param, noindex, request_rate, visit_time, sitemap)
--   hosts      hosts whose robots.txt has at least one such line
--   lines      such lines in those captures
--   share      hosts / hosts whose latest capture was parsed (0..1, 4 decimals)
-- The vocabulary, as queries/views/vocabulary.sql defines it (copied as it is):
CREATE OR REPLACE TEMP MACRO is_2xx(outcome) AS
    outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary');
CREATE OR REPLACE TEMP MACRO hosts_where(hosts, cond) AS
    coalesce(sum(hosts) FILTER (cond), 0)::BIGINT;
CREATE OR REPLACE TEMP MACRO robots_denominators(hosts, outcome, resolution) AS {
    'hosts_2xx': hosts_where(hosts, is_2xx(outcome)),
    'hosts_resolved': hosts_where(hosts, is_2xx(outcome) AND resolution = 'resolved'),
    'hosts_2xx_empty': hosts_where(hosts, outcome = 'ok_empty'),
    'hosts_2xx_html': hosts_where(hosts, outcome = 'not_robots_html'),
    'hosts_2xx_binary': hosts_where(hosts, outcome = 'not_robots_binary'),
    'hosts_unresolved': hosts_where(hosts, resolution NOT IN ('direct', 'resolved')),
    'hosts_5xx': hosts_where(hosts, outcome = 'server_error')
};
WITH answer AS (
WITH parsed AS (
    -- hosts whose latest capture (through a revisit) was parsed: a 2xx (or a resource body)
    SELECT crawl, sum(hosts) AS n
    FROM read_parquet('summary_robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE is_2xx(coalesce(revisited_fetch_outcome, fetch_outcome))
    GROUP BY crawl
)
SELECT k.crawl, key AS extension, hosts, lines, round(hosts / parsed.n, 4) AS share
FROM read_parquet('summary_robots_keys/*/*.parquet', hive_partitioning = true) AS k
JOIN parsed USING (crawl)
WHERE key IN ('purpose', 'app_directives', 'acap', 'content_usage', 'content_signal', 'license',
              'crawl_delay', 'host', 'clean_param', 'noindex', 'request_rate', 'visit_time',
              'sitemap')
  AND hosts > 0
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, extension, share,
    * EXCLUDE (crawl, extension, share)
FROM answer
ORDER BY crawl, hosts DESC, extension;

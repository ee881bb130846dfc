-- Question: what do Content-Signal lines (contentsignals.org, Cloudflare's robots.txt extension)
--           say? Each signal (search, ai-input, ai-train, ...) with each value (yes, no, ...).
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset); a host with several lines giving the same signal and value counts once.
-- Denominator: hosts whose latest capture has at least one Content-Signal line.
-- Values are split at commas into `signal=value` pairs, lowercased and trimmed; a pair without
-- `=` is reported with value NULL.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_content_signal_values.sql"
-- Columns:
--   crawl    crawl name
--   signal   the signal name (search, ai-input, ai-train, or as written)
--   value    its value (yes, no, or as written)
--   hosts    hosts giving it
--   share    hosts / hosts with a Content-Signal line (0..1, 4 decimals)
WITH latest AS (
    -- each host's latest robots.txt capture in the crawl (robots_hosts: by capture_time, then
    -- warc_file, then warc_offset)
    SELECT crawl, host, warc_file, warc_offset
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
), lines AS (
    SELECT crawl, host, value
    FROM read_parquet('robots_rules/*/*.parquet', hive_partitioning = true)
    JOIN latest USING (crawl, host, warc_file, warc_offset)
    WHERE key = 'content_signal'
), pairs AS (
    SELECT crawl, host, trim(lower(unnest(string_split(value, ',')))) AS pair FROM lines
), users AS (
    SELECT crawl, count(DISTINCT host) AS n FROM lines GROUP BY crawl
)
SELECT
    pairs.crawl,
    trim(split_part(pair, '=', 1)) AS signal,
    CASE WHEN contains(pair, '=') THEN trim(split_part(pair, '=', 2)) END AS value,
    count(DISTINCT host) AS hosts,
    round(count(DISTINCT host) / any_value(users.n), 4) AS share
FROM pairs JOIN users USING (crawl)
WHERE pair <> ''
GROUP BY ALL
ORDER BY pairs.crawl, hosts DESC, signal, value;

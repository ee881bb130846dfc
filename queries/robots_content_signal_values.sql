-- Question: what do Content-Signal lines (contentsignals.org, Cloudflare's robots.txt extension)
--           say? Each signal (search, ai-input, ai-train, and use: immediate, reference, full,
--           which Cloudflare added in 2026) with each value (yes, no, ...).
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset; a revisit is read as the capture it stands for); a host with several
-- lines giving the same signal and value counts once.
-- Denominator: hosts whose latest capture has at least one Content-Signal line.
-- Values are split at commas into `signal=value` pairs, lowercased and trimmed; a pair without
-- `=` is reported with value NULL.
-- Reads summary_content_signals and summary_robots_keys (derived per crawl with robots_hosts).
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_content_signal_values.sql"
-- Columns: in this order, the shares right after the keys: crawl, signal, value, share, hosts; one by one:
--   crawl    crawl name
--   signal   the signal name (search, ai-input, ai-train, or as written)
--   value    its value (yes, no, or as written)
--   hosts    hosts giving it
--   share    hosts / hosts with a Content-Signal line (0..1, 4 decimals)
WITH answer AS (
WITH users AS (
    -- hosts whose latest capture has a Content-Signal line
    SELECT crawl, hosts AS n
    FROM read_parquet('summary_robots_keys/*/*.parquet', hive_partitioning = true)
    WHERE key = 'content_signal' AND hosts > 0
)
SELECT s.crawl, signal, value, hosts, round(hosts / users.n, 4) AS share
FROM read_parquet('summary_content_signals/*/*.parquet', hive_partitioning = true) AS s
JOIN users USING (crawl)
WHERE key = 'content_signal' AND hosts > 0
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, signal, value, share,
    * EXCLUDE (crawl, signal, value, share)
FROM answer
ORDER BY crawl, hosts DESC, signal, value;

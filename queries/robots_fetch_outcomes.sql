-- Question: how did robots.txt fetches turn out, per crawl? (200 with rules, empty, 404, 403,
--           5xx, redirects, HTML or binary served instead of a robots.txt, revisits)
-- Reads summary_robots_outcomes (derived per crawl with robots_hosts).
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_fetch_outcomes.sql"
-- Columns: in this order, the shares right after the keys: crawl, fetch_outcome, share, captures, hosts; one by one:
--   crawl          crawl name (warcinfo isPartOf, or --crawl)
--   fetch_outcome  ok, ok_empty, not_found, forbidden, unauthorized, payment_required (402),
--                  too_many_requests, client_error, server_error, challenge (a bot-protection
--                  challenge page with 403 or 503), redirect, not_modified, not_robots_html,
--                  not_robots_binary, revisit, no_http_response, bad_status_line, other_status,
--                  head_too_long
--   captures       robots.txt captures with that outcome
--   hosts          distinct hosts among them
--   share          captures / all robots.txt captures of the crawl (0..1, 4 decimals)
WITH answer AS (
SELECT
    crawl,
    fetch_outcome,
    captures,
    hosts,
    round(captures / sum(captures) OVER (PARTITION BY crawl), 4) AS share
FROM read_parquet('summary_robots_outcomes/*/*.parquet', hive_partitioning = true)
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, fetch_outcome, share,
    * EXCLUDE (crawl, fetch_outcome, share)
FROM answer
ORDER BY crawl, captures DESC, fetch_outcome;

-- Question: how do sites write robots.txt keys? Canonical spellings, unusual case, Google's
--           accepted typos (useragent, disalow, ...), variants (site-map, App-Directive),
--           prefixes (Disallowed), and lines separated by whitespace instead of a colon.
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset; a revisit is read as the capture it stands for); lines of earlier
-- captures are not counted.
-- Reads summary_robots_key_forms, derived per crawl with robots_hosts from robots_agents and
-- robots_rules (keys unknown and invalid, whose spellings are any text, are left out here).
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_key_forms.sql"
-- Columns:
--   crawl      crawl name
--   key        what the key means (user_agent, purpose, allow, disallow, sitemap, crawl_delay, ...)
--   key_form   canonical, case, typo, variant, prefix
--   separator  colon or whitespace
--   key_raw    the key as written (the most frequent spelling per key and form, case kept)
--   lines      lines written this way
--   hosts      distinct hosts writing it
SELECT crawl, key, key_form, separator, key_raw, lines, hosts
FROM read_parquet('summary_robots_key_forms/*/*.parquet', hive_partitioning = true)
WHERE key NOT IN ('unknown', 'invalid') AND lines > 0
ORDER BY crawl, lines DESC, key, key_form, separator;

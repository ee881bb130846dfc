-- Question: how do sites write robots.txt keys? Canonical spellings, unusual case, Google's
--           accepted typos (useragent, disalow, ...), variants (site-map, App-Directive),
--           prefixes (Disallowed), and lines separated by whitespace instead of a colon.
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset); lines of earlier captures are not counted.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_key_forms.sql"
-- Columns:
--   crawl      crawl name
--   key        what the key means (user_agent, purpose, allow, disallow, sitemap, crawl_delay, ...)
--   key_form   canonical, case, typo, variant, prefix
--   separator  colon or whitespace
--   key_raw    the key as written (the most frequent spelling per key and form, case kept)
--   lines      lines written this way
--   hosts      distinct hosts writing it
WITH latest AS (
    -- each host's latest robots.txt capture in the crawl (robots_hosts: by capture_time, then
    -- warc_file, then warc_offset)
    SELECT crawl, h.host, warc_file, warc_offset, f.parsed
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) f
        USING (crawl, warc_file, warc_offset)
), lines AS (
    SELECT crawl, 'user_agent' AS key, key_form, separator, key_raw, host, warc_file, warc_offset
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true)
    WHERE line_kind = 'user_agent'
    UNION ALL
    SELECT crawl, 'purpose', key_form, separator, key_raw, host, warc_file, warc_offset
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true)
    WHERE line_kind = 'purpose'
    UNION ALL
    SELECT crawl, key, key_form, separator, key_raw, host, warc_file, warc_offset
    FROM read_parquet('robots_rules/*/*.parquet', hive_partitioning = true)
    WHERE key NOT IN ('unknown', 'invalid')
)
SELECT
    crawl,
    key,
    key_form,
    separator,
    mode(key_raw ORDER BY key_raw) AS key_raw,
    count(*) AS lines,
    count(DISTINCT host) AS hosts
FROM lines JOIN latest USING (crawl, host, warc_file, warc_offset)
GROUP BY crawl, key, key_form, separator
ORDER BY crawl, lines DESC, key, key_form, separator;

-- Question: how do sites write robots.txt keys? Canonical spellings, unusual case, Google's
--           accepted typos (useragent, disalow, ...), variants (site-map, App-Directive),
--           prefixes (Disallowed), and lines separated by whitespace instead of a colon.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_key_forms.sql"
-- Columns:
--   key        what the key means (user_agent, purpose, allow, disallow, sitemap, crawl_delay, ...)
--   key_form   canonical, case, typo, variant, prefix
--   separator  colon or whitespace
--   key_raw    the key as written, lowercased (the most frequent spelling per key and form)
--   lines      lines written this way
--   hosts      distinct hosts writing it
WITH lines AS (
    SELECT 'user_agent' AS key, key_form, separator, key_raw, host
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true)
    WHERE line_kind = 'user_agent'
    UNION ALL
    SELECT 'purpose', key_form, separator, key_raw, host
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true)
    WHERE line_kind = 'purpose'
    UNION ALL
    SELECT key, key_form, separator, key_raw, host
    FROM read_parquet('robots_rules/*/*.parquet', hive_partitioning = true)
    WHERE key NOT IN ('unknown', 'invalid')
)
SELECT
    key,
    key_form,
    separator,
    mode(lower(key_raw)) AS key_raw,
    count(*) AS lines,
    count(DISTINCT host) AS hosts
FROM lines
GROUP BY key, key_form, separator
ORDER BY lines DESC, key, key_form, separator;

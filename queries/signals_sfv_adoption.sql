-- Question: have sites started to write the Structured Fields form of the repext draft? Robots
--           headers by the name written (X-Robots-Tag, Robots-Tag, ...) and the syntax that
--           parsed (sfv, sfv_lenient, legacy, invalid).
-- Pages: responses with a 2xx status (what a crawler could index), as in every signals_* query.
-- Reads summary_page_headers (derived per crawl from page_signals).
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_sfv_adoption.sql"
-- Columns: in this order, the shares right after the keys: crawl, source, syntax, share, headers,
--     responses, hosts; one by one:
--   crawl      crawl name
--   source     x_robots_tag or robots_tag (the header's name, any case)
--   syntax     sfv (valid Structured Fields), sfv_lenient (the draft's intent, not valid SF),
--              legacy, invalid
--   headers    header values written this way
--   responses  distinct responses
--   hosts      distinct hosts
--   share      share of the crawl's robots header values (0..1, 4 decimals)
WITH answer AS (
SELECT
    crawl,
    source,
    syntax,
    headers,
    responses,
    hosts,
    round(headers / sum(headers) OVER (PARTITION BY crawl), 4) AS share
FROM read_parquet('summary_page_headers/*/*.parquet', hive_partitioning = true)
WHERE status_class = '2xx'
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, source, syntax, share,
    * EXCLUDE (crawl, source, syntax, share)
FROM answer
ORDER BY crawl, headers DESC, source, syntax;

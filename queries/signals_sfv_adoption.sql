-- Question: have sites started to write the Structured Fields form of the repext draft? Robots
--           headers by the name written (X-Robots-Tag, Robots-Tag, ...) and the syntax that
--           parsed (sfv, sfv_lenient, legacy, invalid).
-- Pages: responses with a 2xx status (what a crawler could index), as in every signals_* query.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_sfv_adoption.sql"
-- Columns:
--   crawl      crawl name
--   source     x_robots_tag or robots_tag (the header's name, any case)
--   syntax     sfv (valid Structured Fields), sfv_lenient (the draft's intent, not valid SF),
--              legacy, invalid
--   headers    header values written this way
--   responses  distinct responses
--   hosts      distinct hosts
--   share      share of the crawl's robots header values (0..1, 4 decimals)
WITH h AS (
    SELECT DISTINCT crawl, warc_file, warc_offset, signal_index, source, syntax, host
    FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
    WHERE source IN ('x_robots_tag', 'robots_tag') AND http_status BETWEEN 200 AND 299
)
SELECT
    crawl,
    source,
    syntax,
    count(*) AS headers,
    count(DISTINCT (warc_file, warc_offset)) AS responses,
    count(DISTINCT host) AS hosts,
    round(count(*) / sum(count(*)) OVER (PARTITION BY crawl), 4) AS share
FROM h
GROUP BY crawl, source, syntax
ORDER BY crawl, headers DESC, source, syntax;

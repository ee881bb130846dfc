-- Question: what went wrong while reading, per input and kind of problem? (nightly data-quality check)
-- Run from the scan's output folder: duckdb -c ".read ../queries/errors_by_input.sql"
-- Columns:
--   crawl        crawl name (an input belongs to one crawl)
--   input        the input file as given to scan (errors.warc_file)
--   status       the input's status from the inputs table (ok, ok_with_errors, failed, empty)
--   scope        input (the whole file), record (framing, gzip), body (HTTP body decoding)
--   kind         the kind of problem (truncated_record, corrupt_gzip, bad_content_length, ...)
--   errors       how many
--   first_offset smallest byte offset of such a problem in the input (NULL for input scope)
SELECT
    e.crawl,
    e.warc_file AS input,
    i.status,
    e.scope,
    e.kind,
    count(*) AS errors,
    min(e.warc_offset) AS first_offset
FROM read_parquet('errors/*/*.parquet', hive_partitioning = true) AS e
LEFT JOIN read_parquet('inputs/*/*.parquet', hive_partitioning = true) AS i ON i.path = e.warc_file AND i.crawl = e.crawl
GROUP BY ALL
ORDER BY e.crawl, input, scope, kind;

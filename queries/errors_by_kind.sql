-- Question: what went wrong while reading each crawl, per kind of problem: how many problems,
--           found in how many of its inputs? (a nightly data-quality check of a whole crawl)
-- Unit: problems (errors rows) and inputs. Denominator of share_of_inputs: the crawl's inputs
--   (rows of inputs).
-- Reads summary_errors (a few rows per crawl) and inputs (one row per input), never errors;
-- errors_by_input.sql gives the same per input.
-- Run from the scan's output folder: duckdb -c ".read ../queries/errors_by_kind.sql"
-- Columns:
--   crawl            crawl name
--   scope            input (the whole file), record (framing, gzip), body (HTTP body decoding)
--   kind             the kind of problem (truncated_record, corrupt_gzip, bad_content_length, ...)
--   errors           problems of that kind
--   inputs           inputs with at least one of them
--   share_of_inputs  inputs / crawl_inputs (0..1, 4 decimals)
--   crawl_inputs     the crawl's inputs
WITH crawl_inputs AS (
    SELECT crawl, count(*) AS crawl_inputs
    FROM read_parquet('inputs/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
)
SELECT
    e.crawl,
    e.scope,
    e.kind,
    e.errors,
    e.inputs,
    round(e.inputs / i.crawl_inputs, 4) AS share_of_inputs,
    i.crawl_inputs
FROM read_parquet('summary_errors/*/*.parquet', hive_partitioning = true) AS e
JOIN crawl_inputs AS i USING (crawl)
ORDER BY e.crawl, e.errors DESC, e.scope, e.kind;

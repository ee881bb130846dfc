-- Question: what was read, per crawl: inputs (and how many failed or had problems), records,
--           robots.txt captures and hosts, problems found?
-- Units: inputs (inputs table), records (WARC/ARC records of every type), captures (robots_files
-- rows), hosts (robots_hosts rows: hosts with at least one robots.txt capture), errors rows.
-- Run from the scan's output folder: duckdb -c ".read ../queries/read_summary.sql"
-- Columns:
--   crawl               crawl name
--   inputs              inputs read into the crawl
--   inputs_failed       of those, inputs that could not be read (status failed)
--   inputs_with_errors  of those, inputs read with problems (status ok_with_errors)
--   records             records read
--   robots_captures     robots.txt captures (any status)
--   robots_hosts        hosts with a robots.txt capture
--   errors              problems found (errors rows; errors_by_input.sql breaks them down)
WITH i AS (
    SELECT
        crawl,
        count(*) AS inputs,
        count(*) FILTER (status = 'failed') AS inputs_failed,
        count(*) FILTER (status = 'ok_with_errors') AS inputs_with_errors,
        sum(records)::BIGINT AS records,
        sum(errors)::BIGINT AS errors
    FROM read_parquet('inputs/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
), f AS (
    SELECT crawl, count(*) AS robots_captures
    FROM read_parquet('robots_files/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
), h AS (
    SELECT crawl, count(*) FILTER (counts_for_host) AS robots_hosts
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
)
SELECT
    i.crawl,
    inputs,
    inputs_failed,
    inputs_with_errors,
    records,
    coalesce(robots_captures, 0) AS robots_captures,
    coalesce(robots_hosts, 0) AS robots_hosts,
    errors
FROM i
LEFT JOIN f USING (crawl)
LEFT JOIN h USING (crawl)
ORDER BY i.crawl;

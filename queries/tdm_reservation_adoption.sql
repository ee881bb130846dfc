-- Question: how many hosts and pages use each technique of the TDM Reservation Protocol
--           (TDMRep: the /.well-known/tdmrep.json file, the tdm-reservation header, the
--           tdm-reservation meta tag), and how many of them reserve TDM rights (the value 1:
--           the CDSM Directive's Article 4 opt-out)?
-- file: hosts by their latest capture of /.well-known/tdmrep.json (summary_tdmrep); a host
--   reserves when the file's rule for its root `/` says 1 (reserving_some_path: some rule
--   says 1). Over the hosts whose file was captured.
-- header, meta: 2xx pages whose tdm-reservation header or meta tag is written (page_signals),
--   and those whose value is 1 (another value is a protocol error: unset); a page with two
--   values counts as reserving when one is 1. Over the crawl's 2xx pages (host_counts).
-- Which technique decides a page when several speak (the file, then the header, then the
-- meta tag) is not counted here.
-- Run from the scan's output folder: duckdb -c ".read ../queries/tdm_reservation_adoption.sql"
-- Columns:
--   crawl, technique      crawl name; file, header or meta
--   share_reserving       reserving / denominator (0..1, 4 decimals)
--   using_it              file: hosts whose latest capture is a TDM file; header, meta: pages
--   reserving             of them, those that reserve (file: for the root)
--   reserving_some_path   file: hosts whose file reserves some path; NULL otherwise
--   denominator           file: hosts with a capture of the path; header, meta: 2xx pages
--   hosts                 hosts of using_it (for file, the same)
WITH files AS (
    SELECT crawl, 'file' AS technique,
        coalesce(sum(hosts) FILTER (tdm_file), 0)::BIGINT AS using_it,
        coalesce(sum(hosts) FILTER (root_reservation = 1), 0)::BIGINT AS reserving,
        coalesce(sum(hosts) FILTER (reserves_some_path), 0)::BIGINT AS reserving_some_path,
        sum(hosts)::BIGINT AS denominator,
        coalesce(sum(hosts) FILTER (tdm_file), 0)::BIGINT AS hosts
    FROM read_parquet('summary_tdmrep/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
),
said AS (
    SELECT crawl, warc_file, warc_offset, any_value(host) AS host,
        CASE WHEN source = 'tdm_header' THEN 'header' ELSE 'meta' END AS technique,
        bool_or(trim(directive_value) = '1') AS reserves
    FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
    WHERE directive = 'tdm-reservation' AND source IN ('tdm_header', 'meta')
      AND http_status BETWEEN 200 AND 299
    GROUP BY crawl, warc_file, warc_offset, technique
),
pages_2xx AS (
    SELECT crawl, sum(responses)::BIGINT AS pages
    FROM read_parquet('host_counts/*/*.parquet', hive_partitioning = true)
    WHERE status_class = '2xx'
    GROUP BY crawl
),
page_techniques AS (
    SELECT crawl, technique,
        count(*)::BIGINT AS using_it,
        count(*) FILTER (reserves)::BIGINT AS reserving,
        NULL::BIGINT AS reserving_some_path,
        any_value(p.pages) AS denominator,
        count(DISTINCT host)::BIGINT AS hosts
    FROM said
    LEFT JOIN pages_2xx p USING (crawl)
    GROUP BY crawl, technique
),
answer AS (
    SELECT * FROM files
    UNION ALL
    SELECT * FROM page_techniques
)
SELECT crawl, technique,
    round(reserving / denominator, 4) AS share_reserving,
    using_it, reserving, reserving_some_path, denominator, hosts
FROM answer
ORDER BY crawl, technique;

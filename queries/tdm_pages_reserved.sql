-- Question: how many pages reserve their TDM rights (the TDM Reservation Protocol's value 1:
--           the CDSM Directive's Article 4 opt-out) once the protocol's processing priority is
--           applied, and which technique decides them: the site's /.well-known/tdmrep.json
--           rule, the page's tdm-reservation header, or its meta tag (each supersedes the one
--           before; one that says nothing leaves the value before it)?
-- Unit: 2xx pages (and their hosts). Denominator: the crawl's 2xx pages (summary_page_tdm,
--   whose rows sum to them).
-- A page's file is its host's latest tdmrep.json capture in the crawl (page_tdm).
-- Run from the scan's output folder: duckdb -c ".read ../queries/tdm_pages_reserved.sql"
-- Columns:
--   crawl, technique      crawl name; file, header, meta: the technique that set the
--                         page's value; any: all of them
--   share_reserved        pages_reserved / pages_2xx (0..1, 4 decimals)
--   pages_reserved        pages whose effective reservation is 1
--   pages_not_reserved    pages whose effective reservation is 0
--   pages_overriding      of those, pages where this technique's value replaced another's
--   hosts_reserved        hosts with a page whose effective reservation is 1
--   pages_2xx             the crawl's 2xx pages
WITH pages AS (
    SELECT crawl, sum(pages)::BIGINT AS pages_2xx
    FROM read_parquet('summary_page_tdm/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
),
decided AS (
    SELECT crawl, technique, tdm_reservation, overridden, host
    FROM read_parquet('page_tdm/*/*.parquet', hive_partitioning = true)
    WHERE tdm_reservation IS NOT NULL
),
by_technique AS (
    SELECT crawl, coalesce(technique, 'any') AS technique,
        count(*) FILTER (tdm_reservation = 1)::BIGINT AS pages_reserved,
        count(*) FILTER (tdm_reservation = 0)::BIGINT AS pages_not_reserved,
        count(*) FILTER (overridden)::BIGINT AS pages_overriding,
        count(DISTINCT host) FILTER (tdm_reservation = 1)::BIGINT AS hosts_reserved
    FROM decided
    GROUP BY GROUPING SETS ((crawl, technique), (crawl))
)
SELECT crawl, technique,
    round(coalesce(pages_reserved, 0) / p.pages_2xx, 4) AS share_reserved,
    coalesce(pages_reserved, 0) AS pages_reserved,
    coalesce(pages_not_reserved, 0) AS pages_not_reserved,
    coalesce(pages_overriding, 0) AS pages_overriding,
    coalesce(hosts_reserved, 0) AS hosts_reserved,
    p.pages_2xx
FROM pages p
CROSS JOIN (VALUES ('file'), ('header'), ('meta'), ('any')) AS t(technique)
LEFT JOIN by_technique b USING (crawl, technique)
ORDER BY crawl, CASE technique WHEN 'file' THEN 1 WHEN 'header' THEN 2 WHEN 'meta' THEN 3 ELSE 4 END;

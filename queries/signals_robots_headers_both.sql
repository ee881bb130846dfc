-- Question: how many pages carry both an X-Robots-Tag and a Robots-Tag header, and on how many
--           do the two give some crawler different rules?
-- repext (draft-illyes-repext) names the header Robots-Tag and leaves open what a crawler does
-- with both on one response. Read from summary_page_header_pairs (one pass over the crawl's
-- page_signals at scan time); signals_robots_headers_disagree.sql lists the pages and agents.
-- Pages: responses with a 2xx status that carry both headers with at least one directive each,
-- as in every signals_* query.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_robots_headers_both.sql"
-- Columns:
--   crawl                 crawl name
--   pages_both            pages with both headers
--   pages_disagree        of those, pages where the two give some agent (`*` or a product
--                         token) different directives (an agent only one header names counts)
--   share_disagree        pages_disagree / pages_both (0..1, 4 decimals; NULL: no such page)
--   hosts_disagree        distinct hosts of the pages_disagree
SELECT
    crawl,
    sum(responses)::BIGINT AS pages_both,
    coalesce(sum(responses) FILTER (NOT headers_agree), 0)::BIGINT AS pages_disagree,
    round(coalesce(sum(responses) FILTER (NOT headers_agree), 0) / sum(responses), 4)
        AS share_disagree,
    coalesce(sum(hosts) FILTER (NOT headers_agree), 0)::BIGINT AS hosts_disagree
FROM read_parquet('summary_page_header_pairs/*/*.parquet', hive_partitioning = true)
WHERE agent IS NULL AND status_class = '2xx'
GROUP BY crawl
ORDER BY crawl;

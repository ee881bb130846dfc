-- Question: what share of HTML pages carry a robots meta tag, a robots header (X-Robots-Tag or
--           Robots-Tag), either, or a TDM Reservation Protocol signal? Per crawl, over 2xx
--           HTML responses (host_counts is the denominator: every response is counted there).
-- Pages: responses with a 2xx status (what a crawler could index), as in every signals_* query.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_html_share.sql"
-- Columns: in this order, the shares right after the keys: crawl, share_meta, share_header, share_any,
--     html_pages, with_meta, with_header, with_any, with_tdm, hosts; one by one:
--   crawl             crawl name
--   html_pages        2xx responses with an HTML media type
--   with_meta         of those, with a robots meta tag (robots or a crawler's name) in the head
--   with_header       of those, with an X-Robots-Tag or Robots-Tag header
--   with_any          with either
--   with_tdm          with a tdm-reservation / tdm-policy header or meta tag
--   share_meta, share_header, share_any   the shares of html_pages (0..1, 4 decimals)
--   hosts             distinct hosts with 2xx HTML pages
WITH answer AS (
SELECT
    crawl,
    sum(responses)::BIGINT AS html_pages,
    sum(with_meta)::BIGINT AS with_meta,
    sum(with_header)::BIGINT AS with_header,
    sum(with_meta + with_header - with_both)::BIGINT AS with_any,
    sum(with_tdm)::BIGINT AS with_tdm,
    round(sum(with_meta) / sum(responses), 4) AS share_meta,
    round(sum(with_header) / sum(responses), 4) AS share_header,
    round(sum(with_meta + with_header - with_both) / sum(responses), 4) AS share_any,
    count(DISTINCT host) AS hosts
FROM read_parquet('host_counts/*/*.parquet', hive_partitioning = true)
WHERE status_class = '2xx' AND html
GROUP BY crawl
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, share_meta, share_header, share_any,
    * EXCLUDE (crawl, share_meta, share_header, share_any)
FROM answer
ORDER BY crawl;

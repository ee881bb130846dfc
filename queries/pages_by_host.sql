-- Question: how much of a crawl does each host make up, in responses, distinct page URLs and
--           bytes, and is it governed by a robots.txt capture of the crawl?
-- Unit: one row per crawl and host with at least one page response (`pages`: every response
-- with an HTTP head but robots.txt captures), largest hosts (by distinct 2xx HTML URLs) first.
-- Responses count every capture; URLs count each distinct URL once; bytes are the HTTP payloads
-- as captured, of each distinct URL's latest capture (`host_counts` counts responses per input:
-- a URL captured in two inputs counts twice there, once here).
-- Denominator of share_html_urls: the crawl's distinct 2xx HTML URLs (every host's html_urls).
-- Run from the scan's output folder: duckdb -c ".read ../queries/pages_by_host.sql"
-- Columns: in this order, the shares right after the keys: crawl, host, registered_domain,
--     share_html_urls, responses, urls, html_urls, html_bytes, robots_fetch_outcome; one by one:
--   crawl, host, registered_domain
--   responses            page responses of the host (every capture, any status)
--   urls                 distinct URLs among them
--   html_urls            distinct URLs of 2xx HTML responses
--   html_bytes           bytes of those URLs, each at its latest capture
--   share_html_urls      html_urls / the crawl's distinct 2xx HTML URLs (6 decimals)
--   robots_fetch_outcome the fetch outcome of the robots.txt capture that governs the host
--                        (robots_hosts.effective_fetch_outcome); NULL: no robots.txt capture in
--                        the crawl (the host's pages are uncovered)
WITH answer AS (
WITH p AS (
    SELECT crawl, host, any_value(registered_domain) AS registered_domain, url,
        count(*) AS responses,
        bool_or(html AND http_status BETWEEN 200 AND 299) AS html_2xx,
        arg_max(bytes, (capture_time, warc_file, warc_offset))
            FILTER (html AND http_status BETWEEN 200 AND 299) AS bytes
    FROM read_parquet('pages/*/*.parquet', hive_partitioning = true)
    WHERE host IS NOT NULL
    GROUP BY crawl, host, url
), hosts AS (
    SELECT crawl, host, any_value(registered_domain) AS registered_domain,
        sum(responses) AS responses, count(*) AS urls,
        count(*) FILTER (html_2xx) AS html_urls,
        coalesce(sum(bytes), 0) AS html_bytes
    FROM p GROUP BY crawl, host
)
SELECT h.crawl, h.host, h.registered_domain,
    h.responses::BIGINT AS responses, h.urls, h.html_urls, h.html_bytes::BIGINT AS html_bytes,
    round(h.html_urls / nullif(sum(h.html_urls) OVER (PARTITION BY h.crawl), 0), 6)
        AS share_html_urls,
    r.effective_fetch_outcome AS robots_fetch_outcome
FROM hosts h
LEFT JOIN read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) r
    ON r.crawl = h.crawl AND r.host = h.host AND r.counts_for_host
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, host, registered_domain, share_html_urls,
    * EXCLUDE (crawl, host, registered_domain, share_html_urls)
FROM answer
ORDER BY crawl, html_urls DESC, host;

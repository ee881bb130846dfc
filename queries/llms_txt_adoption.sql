-- Question: how many hosts serve a valid llms.txt (or llms-full.txt), over the hosts whose file
--           was captured and over every host of the crawl?
-- A host's file is its latest capture of the path in the crawl (summary_llms_txt); it is valid
-- when that capture answered 2xx (or is a resource record) with the proposal's Markdown: an H1
-- first (see docs/schema.md, llms_txt). A capture that is an HTML page (a soft 404), empty or
-- other text is not valid.
-- Denominators: hosts with any capture of the path (the crawl fetched it), and every host with
-- a response in the crawl (host_counts). A crawl that does not fetch /llms.txt for every host
-- (Common Crawl's main crawl follows links) gives a lower bound over every host.
-- Run from the scan's output folder: duckdb -c ".read ../queries/llms_txt_adoption.sql"
-- Columns: in this order, the shares right after the keys:
--   crawl, file           crawl name; llms.txt or llms-full.txt
--   share_of_captured     hosts_valid / hosts_captured (0..1, 4 decimals)
--   share_of_hosts        hosts_valid / crawl_hosts (0..1, 4 decimals; NULL without host_counts)
--   hosts_valid           hosts whose latest capture of the file is valid
--   hosts_captured        hosts with a capture of the file
--   crawl_hosts           hosts with any response in the crawl
--   captures              captures of the file
--   captures_html         of them, HTML pages served at the path (soft 404s and the like)
WITH files AS (
    SELECT crawl, file,
        sum(hosts) FILTER (valid)::BIGINT AS hosts_valid,
        sum(hosts)::BIGINT AS hosts_captured,
        sum(captures)::BIGINT AS captures,
        coalesce(sum(captures) FILTER (form = 'html'), 0)::BIGINT AS captures_html
    FROM read_parquet('summary_llms_txt/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl, file
),
crawl_hosts AS (
    SELECT crawl, count(DISTINCT host) AS crawl_hosts
    FROM read_parquet('host_counts/*/*.parquet', hive_partitioning = true)
    WHERE host <> ''
    GROUP BY crawl
)
SELECT crawl, file,
    round(coalesce(hosts_valid, 0) / hosts_captured, 4) AS share_of_captured,
    round(coalesce(hosts_valid, 0) / crawl_hosts, 4) AS share_of_hosts,
    coalesce(hosts_valid, 0) AS hosts_valid,
    hosts_captured,
    crawl_hosts,
    captures,
    captures_html
FROM files
LEFT JOIN crawl_hosts USING (crawl)
ORDER BY crawl, file;

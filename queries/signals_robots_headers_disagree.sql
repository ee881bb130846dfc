-- Question: which pages carry both an X-Robots-Tag and a Robots-Tag header that give a crawler
--           different rules?
-- repext (draft-illyes-repext) names the header Robots-Tag and leaves open what a crawler does
-- with both on one response; this lists, per page and agent (`*` or a product token), the
-- directives each header gives the agent when the two sets differ (an agent only one of them
-- addresses differs: the other gives it nothing by name).
-- Pages: responses with a 2xx status that carry both headers with at least one directive each,
-- as in every signals_* query.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_robots_headers_disagree.sql"
-- Columns:
--   crawl                 crawl name
--   url                   the page
--   agent                 * or the product token a header addresses
--   x_robots_tag_says     the X-Robots-Tag directives for the agent, sorted, joined by `,`
--                         (empty: none)
--   robots_tag_says       the Robots-Tag directives for the agent, the same way
WITH s AS (
    SELECT crawl, warc_file, warc_offset, url, agent, directive, source
    FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
    WHERE source IN ('x_robots_tag', 'robots_tag') AND directive IS NOT NULL
      AND agent IS NOT NULL AND http_status BETWEEN 200 AND 299
),
both_headers AS (
    SELECT crawl, warc_file, warc_offset
    FROM s
    GROUP BY ALL
    HAVING count(DISTINCT source) = 2
),
said AS (
    SELECT crawl, warc_file, warc_offset, any_value(url) AS url, agent,
        coalesce(list_sort(list(DISTINCT directive) FILTER (source = 'x_robots_tag')), [])
            AS x_robots_tag,
        coalesce(list_sort(list(DISTINCT directive) FILTER (source = 'robots_tag')), [])
            AS robots_tag
    FROM s
    JOIN both_headers USING (crawl, warc_file, warc_offset)
    GROUP BY crawl, warc_file, warc_offset, agent
)
SELECT crawl, url, agent,
    array_to_string(x_robots_tag, ',') AS x_robots_tag_says,
    array_to_string(robots_tag, ',') AS robots_tag_says
FROM said
WHERE x_robots_tag <> robots_tag
ORDER BY crawl, url, agent;

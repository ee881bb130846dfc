-- Question: which agents do robots.txt files name most? Share of hosts whose robots.txt names each
--           product token on a user-agent line, per crawl.
-- Denominator: hosts with at least one parsed robots.txt (a 2xx capture, or a resource record)
--              in that crawl. A host counts once however many captures or lines name the agent.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_most_named_agents.sql"
-- Columns:
--   crawl          crawl name
--   product_token  lowercase product token (Google's leading [a-z_-] run), or '*'
--   hosts          hosts naming it
--   share          hosts / hosts with a parsed robots.txt (0..1, 4 decimals)
WITH parsed AS (
    SELECT crawl, count(DISTINCT host) AS n
    FROM read_parquet('robots_files/*/*.parquet', hive_partitioning = true)
    WHERE parsed
    GROUP BY crawl
), named AS (
    SELECT crawl, coalesce(product_token, agent) AS product_token, count(DISTINCT host) AS hosts
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true)
    WHERE line_kind = 'user_agent' AND coalesce(product_token, agent) <> ''
    GROUP BY ALL
)
SELECT named.crawl, product_token, hosts, round(hosts / parsed.n, 4) AS share
FROM named JOIN parsed USING (crawl)
QUALIFY row_number() OVER (PARTITION BY named.crawl ORDER BY hosts DESC, product_token) <= 25
ORDER BY named.crawl, hosts DESC, product_token;

-- Question: which agents do robots.txt files name most? Share of hosts whose robots.txt names
--           each agent on a user-agent line, by the name as written, per crawl.
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset), however many lines name the agent.
-- Denominator: hosts whose latest capture was parsed (a 2xx robots.txt with a body, or a
-- resource record).
-- Names as written: the user-agent value lowercased and cut at the first `/` or space
-- (`Googlebot/2.1` is `googlebot`), not Google's product token (`MJ12bot` stays `mj12bot`, where
-- Google reads `mj`); docs/agents.md, "Naming".
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_most_named_agents.sql"
-- Columns:
--   crawl    crawl name
--   agent    the name as written (lowercase), or '*'
--   hosts    hosts naming it
--   share    hosts / hosts whose latest capture was parsed (0..1, 4 decimals)
WITH latest AS (
    -- each host's latest robots.txt capture in the crawl (robots_hosts: by capture_time, then
    -- warc_file, then warc_offset)
    SELECT crawl, h.host, warc_file, warc_offset, f.parsed
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) f
        USING (crawl, warc_file, warc_offset)
), parsed AS (
    SELECT crawl, count(*) AS n FROM latest WHERE parsed GROUP BY crawl
), named AS (
    SELECT a.crawl, a.agent, count(DISTINCT a.host) AS hosts
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true) AS a
    JOIN latest AS l USING (crawl, host, warc_file, warc_offset)
    WHERE a.line_kind = 'user_agent' AND a.agent <> ''
    GROUP BY ALL
)
SELECT named.crawl, agent, hosts, round(hosts / parsed.n, 4) AS share
FROM named JOIN parsed USING (crawl)
QUALIFY row_number() OVER (PARTITION BY named.crawl ORDER BY hosts DESC, agent) <= 25
ORDER BY named.crawl, hosts DESC, agent;

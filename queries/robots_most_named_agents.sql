-- Question: which agents do robots.txt files name most? Share of hosts whose robots.txt names
--           each agent on a user-agent line, by the name as written, per crawl.
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset; a revisit is read as the capture it stands for), however many lines
-- name the agent.
-- Denominator: hosts whose latest capture was parsed (a 2xx robots.txt with a body, or a
-- resource record).
-- Names as written: the user-agent value lowercased and cut at the first `/` or space
-- (`Googlebot/2.1` is `googlebot`), not Google's product token (`MJ12bot` stays `mj12bot`, where
-- Google reads `mj`); docs/agents.md, "Naming".
-- Reads the summaries (summary_robots_hosts, summary_robots_agents), derived per crawl with
-- robots_hosts: no line of robots_agents or robots_rules is read.
-- summary_robots_agents keeps the 10,000 names most hosts write per crawl.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_most_named_agents.sql"
-- Columns: in this order, the shares right after the keys: crawl, agent, share, hosts; one by one:
--   crawl    crawl name
--   agent    the name as written (lowercase), or '*'
--   hosts    hosts naming it
--   share    hosts / hosts whose latest capture was parsed (0..1, 4 decimals)
-- The vocabulary, as queries/views/vocabulary.sql defines it (copied as it is):
CREATE OR REPLACE TEMP MACRO is_2xx(outcome) AS
    outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary');
CREATE OR REPLACE TEMP MACRO hosts_where(hosts, cond) AS
    coalesce(sum(hosts) FILTER (cond), 0)::BIGINT;
CREATE OR REPLACE TEMP MACRO robots_denominators(hosts, outcome, resolution) AS {
    'hosts_2xx': hosts_where(hosts, is_2xx(outcome)),
    'hosts_resolved': hosts_where(hosts, is_2xx(outcome) AND resolution = 'resolved'),
    'hosts_2xx_empty': hosts_where(hosts, outcome = 'ok_empty'),
    'hosts_2xx_html': hosts_where(hosts, outcome = 'not_robots_html'),
    'hosts_2xx_binary': hosts_where(hosts, outcome = 'not_robots_binary'),
    'hosts_unresolved': hosts_where(hosts, resolution NOT IN ('direct', 'resolved')),
    'hosts_5xx': hosts_where(hosts, outcome = 'server_error')
};
WITH answer AS (
WITH parsed AS (
    -- hosts whose latest capture (through a revisit) was parsed: a 2xx (or a resource body)
    SELECT crawl, sum(hosts) AS n
    FROM read_parquet('summary_robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE is_2xx(coalesce(revisited_fetch_outcome, fetch_outcome))
    GROUP BY crawl
)
SELECT a.crawl, agent, hosts, round(hosts / parsed.n, 4) AS share
FROM read_parquet('summary_robots_agents/*/*.parquet', hive_partitioning = true) AS a
JOIN parsed USING (crawl)
WHERE line_kind = 'user_agent' AND hosts > 0
QUALIFY row_number() OVER (PARTITION BY a.crawl ORDER BY hosts DESC, agent) <= 25
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, share,
    * EXCLUDE (crawl, agent, share)
FROM answer
ORDER BY crawl, hosts DESC, agent;

-- Question: what AI usage preferences do sites state for each crawler in robots.txt, with the
--           Content-Usage rule of draft-ietf-aipref-attach-05 (vocabulary aipref-vocab-08:
--           train-ai, ai-use and search, y or n), for their home page (`/`)?
-- Each host counts once, by the robots.txt capture that governs it (robots_hosts: its latest
-- capture in the crawl, through redirects and revisits).
-- Denominator of the shares: hosts whose governing capture is a 2xx robots.txt (hosts_2xx).
-- Reads summary_agent_content_usage (hosts per agent and Content-Usage value, a few hundred rows
-- per crawl) and summary_robots_hosts (the denominator): never the detail tables, so it answers in
-- the same time and memory whatever the crawl's size.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_content_usage.sql"
-- Columns: in this order, the shares right after the keys: crawl, agent, agent_category, share_train_ai_n,
--     hosts_2xx, hosts_with_rule, train_ai_n, train_ai_y, search_n, search_y, hosts_unknown; one by one:
--   crawl, agent, agent_category
--   hosts_2xx            the denominator
--   hosts_with_rule      hosts whose groups for the agent give `/` a Content-Usage rule
--   train_ai_n, train_ai_y   hosts whose rules say train-ai=n / train-ai=y
--   search_n, search_y   likewise for search
--   hosts_unknown        hosts with a rule stating nothing the vocabulary knows
--   share_train_ai_n     train_ai_n / hosts_2xx (4 decimals)
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
WITH totals AS (
    SELECT crawl, sum(hosts) AS hosts_2xx
    FROM read_parquet('summary_robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE is_2xx(effective_fetch_outcome)
    GROUP BY crawl
), usage AS (
    -- hosts per agent and value of its Content-Usage rule for `/`
    SELECT crawl, agent, agent_category, content_usage, hosts
    FROM read_parquet('summary_agent_content_usage/*/*.parquet', hive_partitioning = true)
)
SELECT u.crawl, agent, agent_category, any_value(t.hosts_2xx)::BIGINT AS hosts_2xx,
    sum(hosts)::BIGINT AS hosts_with_rule,
    hosts_where(hosts, content_usage LIKE '%train-ai=n%') AS train_ai_n,
    hosts_where(hosts, content_usage LIKE '%train-ai=y%') AS train_ai_y,
    hosts_where(hosts, content_usage LIKE '%search=n%') AS search_n,
    hosts_where(hosts, content_usage LIKE '%search=y%') AS search_y,
    hosts_where(hosts, content_usage = '') AS hosts_unknown,
    round(hosts_where(hosts, content_usage LIKE '%train-ai=n%')
        / any_value(t.hosts_2xx), 4) AS share_train_ai_n
FROM usage u JOIN totals t USING (crawl)
GROUP BY u.crawl, agent, agent_category
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, agent_category, share_train_ai_n,
    * EXCLUDE (crawl, agent, agent_category, share_train_ai_n)
FROM answer
ORDER BY crawl, hosts_with_rule DESC, agent;

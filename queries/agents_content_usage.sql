-- Question: what AI usage preferences do sites state for each crawler in robots.txt, with the
--           Content-Usage rule of draft-ietf-aipref-attach-05 (vocabulary aipref-vocab-07:
--           train-ai and search, y or n), for their home page (`/`)?
-- Each host counts once, by the robots.txt capture that governs it (robots_hosts: its latest
-- capture in the crawl, through redirects and revisits).
-- Denominator of the shares: hosts whose governing capture is a 2xx robots.txt (hosts_2xx).
-- Reads robots_hosts, the agent_verdict_runs rows with a content_usage (few: the column is NULL
-- wherever no Content-Usage rule applies) and summary_agents for the agents of each run.
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
WITH answer AS (
WITH hosts AS (
    SELECT crawl, effective_warc_file AS f, effective_warc_offset AS o
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE effective_fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
), totals AS (
    SELECT crawl, count(*) AS hosts_2xx FROM hosts GROUP BY crawl
), agents AS (
    SELECT DISTINCT crawl, agent, agent_index, agent_category
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
), usage AS (
    -- each run of agents with a content_usage, spread over its agents
    SELECT r.crawl, r.warc_file AS f, r.warc_offset AS o, a.agent, a.agent_category,
        r.content_usage
    FROM read_parquet('agent_verdict_runs/*/*.parquet', hive_partitioning = true) r
    JOIN agents a
        ON a.crawl = r.crawl
        AND a.agent_index >= r.agent_index AND a.agent_index < r.agent_index + r.agents
    WHERE r.content_usage IS NOT NULL
), per_host AS (
    SELECT u.crawl, u.agent, u.agent_category, u.content_usage
    FROM usage u JOIN hosts h ON h.crawl = u.crawl AND h.f = u.f AND h.o = u.o
)
SELECT p.crawl, agent, agent_category, any_value(t.hosts_2xx) AS hosts_2xx,
    count(*) AS hosts_with_rule,
    count(*) FILTER (content_usage LIKE '%train-ai=n%') AS train_ai_n,
    count(*) FILTER (content_usage LIKE '%train-ai=y%') AS train_ai_y,
    count(*) FILTER (content_usage LIKE '%search=n%') AS search_n,
    count(*) FILTER (content_usage LIKE '%search=y%') AS search_y,
    count(*) FILTER (content_usage = '') AS hosts_unknown,
    round(count(*) FILTER (content_usage LIKE '%train-ai=n%') / any_value(t.hosts_2xx), 4)
        AS share_train_ai_n
FROM per_host p JOIN totals t USING (crawl)
GROUP BY p.crawl, agent, agent_category
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, agent_category, share_train_ai_n,
    * EXCLUDE (crawl, agent, agent_category, share_train_ai_n)
FROM answer
ORDER BY crawl, hosts_with_rule DESC, agent;

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
WITH answer AS (
WITH totals AS (
    SELECT crawl, sum(hosts) AS hosts_2xx
    FROM read_parquet('summary_robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE effective_fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
    GROUP BY crawl
), usage AS (
    -- hosts per agent and value of its Content-Usage rule for `/`
    SELECT crawl, agent, agent_category, content_usage, hosts
    FROM read_parquet('summary_agent_content_usage/*/*.parquet', hive_partitioning = true)
)
SELECT u.crawl, agent, agent_category, any_value(t.hosts_2xx)::BIGINT AS hosts_2xx,
    sum(hosts)::BIGINT AS hosts_with_rule,
    coalesce(sum(hosts) FILTER (content_usage LIKE '%train-ai=n%'), 0)::BIGINT AS train_ai_n,
    coalesce(sum(hosts) FILTER (content_usage LIKE '%train-ai=y%'), 0)::BIGINT AS train_ai_y,
    coalesce(sum(hosts) FILTER (content_usage LIKE '%search=n%'), 0)::BIGINT AS search_n,
    coalesce(sum(hosts) FILTER (content_usage LIKE '%search=y%'), 0)::BIGINT AS search_y,
    coalesce(sum(hosts) FILTER (content_usage = ''), 0)::BIGINT AS hosts_unknown,
    round(coalesce(sum(hosts) FILTER (content_usage LIKE '%train-ai=n%'), 0)
        / any_value(t.hosts_2xx), 4) AS share_train_ai_n
FROM usage u JOIN totals t USING (crawl)
GROUP BY u.crawl, agent, agent_category
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, agent_category, share_train_ai_n,
    * EXCLUDE (crawl, agent, agent_category, share_train_ai_n)
FROM answer
ORDER BY crawl, hosts_with_rule DESC, agent;

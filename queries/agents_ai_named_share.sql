-- Question: what share of hosts name at least one AI agent in their robots.txt, by its own name?
-- AI agents: the registry's categories ai_training, ai_search, ai_assistant and ai_other.
-- "Names": the agent's own name is on a user-agent line (named_exact; docs/agents.md, "Naming");
-- hosts_naming_ai_token gives Google's token reading beside it, which over-counts (`User-agent:
-- Crawl` names Crawl4AI, `spider` named ai.robots.txt's Spider).
-- Each host counts once, by the robots.txt capture that governs it (robots_hosts): its latest
-- capture in the crawl (ties: later warc_file, then later offset) or, when that is a redirect,
-- the capture its redirects lead to (up to five hops; docs/schema.md, robots_hosts).
-- Denominator: hosts whose governing capture is a 2xx robots.txt (or a resource record), empty
-- or not (hosts_2xx, as in agents_full_block_share.sql).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_ai_named_share.sql"
-- Columns:
--   crawl
--   hosts_2xx               the denominator
--   hosts_naming_ai         hosts writing the name of at least one AI agent
--   share                   hosts_naming_ai / hosts_2xx (4 decimals)
--   hosts_naming_ai_token   hosts naming the product token of at least one AI agent
--   hosts_resolved          of hosts_2xx, those read through redirects
-- summary_agent_groups holds, per crawl and group of agents, the hosts by whether they name
-- some agent of the group (docs/schema.md); the group `ai` is the four AI categories.
SELECT
    crawl,
    sum(hosts)::BIGINT AS hosts_2xx,
    coalesce(sum(hosts) FILTER (names_exact), 0)::BIGINT AS hosts_naming_ai,
    round(hosts_naming_ai / nullif(hosts_2xx, 0), 4) AS share,
    coalesce(sum(hosts) FILTER (names_token), 0)::BIGINT AS hosts_naming_ai_token,
    coalesce(sum(hosts) FILTER (resolution = 'resolved'), 0)::BIGINT AS hosts_resolved
FROM read_parquet('summary_agent_groups/*/*.parquet', hive_partitioning = true)
WHERE agent_group = 'ai' AND fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
GROUP BY crawl
ORDER BY crawl;

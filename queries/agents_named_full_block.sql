-- Question: among hosts whose robots.txt names an agent, how often is it fully blocked?
-- "Names": the agent's own name is on a user-agent line (named_exact; docs/agents.md, "Naming").
-- hosts_naming_token gives Google's reading beside it (the agent's product token on a line:
-- `Ai2Bot-Dolma` names the token `Ai`, so it names AI2Bot too; `Crawl` names Crawl4AI).
-- Each host counts once, by its governing capture (robots_hosts: its latest capture in the crawl
-- or, when that is a redirect, the capture its redirects lead to).
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_named_full_block.sql"
-- Columns:
--   crawl, agent, agent_category
--   hosts_naming        hosts whose governing robots.txt writes the agent's name
--   hosts_naming_token  hosts whose governing robots.txt names the agent's product token
--   full_block          of hosts_naming, those fully blocking it
--   partial_block       of hosts_naming, those blocking part of the site
--   share_full          full_block / hosts_naming (4 decimals)
-- summary_agents holds, per crawl and agent, the hosts by the verdicts of their governing
-- capture (docs/schema.md): each figure is a sum of its `hosts` over the rows that qualify.
SELECT
    crawl,
    agent,
    any_value(agent_category) AS agent_category,
    coalesce(sum(hosts) FILTER (named_exact), 0)::BIGINT AS hosts_naming,
    sum(hosts)::BIGINT AS hosts_naming_token,
    coalesce(sum(hosts) FILTER (named_exact AND verdict = 'full_block'), 0)::BIGINT AS full_block,
    coalesce(sum(hosts) FILTER (named_exact AND verdict = 'partial_block'), 0)::BIGINT
        AS partial_block,
    round(full_block / nullif(hosts_naming, 0), 4) AS share_full
FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
WHERE named
GROUP BY crawl, agent
ORDER BY crawl, hosts_naming DESC, hosts_naming_token DESC, agent;

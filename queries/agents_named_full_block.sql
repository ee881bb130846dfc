-- Question: among hosts whose robots.txt names an agent, how often is it fully blocked?
-- "Names": the agent's own name is on a user-agent line (named_exact; docs/agents.md, "Naming").
-- hosts_naming_token gives Google's reading beside it (the agent's product token on a line:
-- `Ai2Bot-Dolma` names the token `Ai`, so it names AI2Bot too; `Crawl` names Crawl4AI).
-- Each host counts once, by its governing capture (robots_hosts: its latest capture in the crawl
-- or, when that is a redirect, the capture its redirects lead to).
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md).
-- RFC 9309's reading (verdict_rfc9309) differs from Google's only for hosts whose governing
-- capture is a 5xx (RFC 9309: a full block of every agent; Google: unreachable) or a 429; among
-- hosts whose governing capture is a 2xx the two agree, so these figures hold for both;
-- hosts_5xx counts the 5xx hosts left out.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_named_full_block.sql"
-- Columns: in this order, the shares right after the keys: crawl, agent, agent_category, share_full,
--     hosts_naming, hosts_naming_token, full_block, partial_block, hosts_resolved, hosts_unresolved,
--     hosts_5xx; one by one:
--   crawl, agent, agent_category
--   hosts_naming        hosts whose governing robots.txt writes the agent's name
--   hosts_naming_token  hosts whose governing robots.txt names the agent's product token
--   full_block          of hosts_naming, those fully blocking it
--   partial_block       of hosts_naming, those blocking part of the site
--   share_full          full_block / hosts_naming (4 decimals)
--   hosts_resolved      of hosts_naming, those read through redirects
--   hosts_unresolved    hosts (any outcome) whose redirects lead nowhere (a loop, more than five
--                       hops, a target never captured, no Location): they name nothing
--   hosts_5xx           hosts whose governing capture is a 5xx: they name nothing; full blocks
--                       of every agent to RFC 9309
-- summary_agents holds, per crawl and agent, the hosts by the verdicts of their governing
-- capture (docs/schema.md): each figure is a sum of its `hosts` over the rows that qualify.
WITH answer AS (
SELECT
    crawl,
    agent,
    any_value(agent_category) AS agent_category,
    coalesce(sum(hosts) FILTER (named_exact), 0)::BIGINT AS hosts_naming,
    coalesce(sum(hosts) FILTER (named), 0)::BIGINT AS hosts_naming_token,
    coalesce(sum(hosts) FILTER (named_exact AND verdict = 'full_block'), 0)::BIGINT AS full_block,
    coalesce(sum(hosts) FILTER (named_exact AND verdict = 'partial_block'), 0)::BIGINT
        AS partial_block,
    round(full_block / nullif(hosts_naming, 0), 4) AS share_full,
    coalesce(sum(hosts) FILTER (named_exact AND resolution = 'resolved'), 0)::BIGINT
        AS hosts_resolved,
    coalesce(sum(hosts) FILTER (resolution NOT IN ('direct', 'resolved')), 0)::BIGINT
        AS hosts_unresolved,
    coalesce(sum(hosts) FILTER (fetch_outcome = 'server_error'), 0)::BIGINT AS hosts_5xx
FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
GROUP BY crawl, agent
HAVING hosts_naming_token > 0
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, agent_category, share_full,
    * EXCLUDE (crawl, agent, agent_category, share_full)
FROM answer
ORDER BY crawl, hosts_naming DESC, hosts_naming_token DESC, agent;

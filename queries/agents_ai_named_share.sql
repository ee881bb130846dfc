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
-- RFC 9309's reading (verdict_rfc9309) differs from Google's only for hosts whose governing
-- capture is a 5xx (RFC 9309: a full block of every agent; Google: unreachable) or a 429; among
-- hosts whose governing capture is a 2xx the two agree, so these figures hold for both;
-- hosts_5xx counts the 5xx hosts left out.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_ai_named_share.sql"
-- Columns: in this order, the shares right after the keys: crawl, share, hosts_2xx, hosts_naming_ai,
--     hosts_naming_ai_token, hosts_resolved, hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary,
--     hosts_unresolved, hosts_5xx; one by one:
--   crawl
--   hosts_2xx               the denominator
--   hosts_naming_ai         hosts writing the name of at least one AI agent
--   share                   hosts_naming_ai / hosts_2xx (4 decimals)
--   hosts_naming_ai_token   hosts naming the product token of at least one AI agent
--   hosts_resolved          of hosts_2xx, those read through redirects
--   hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary
--                         of hosts_2xx, those whose governing capture is an empty file, an HTML
--                         page (an error page served with 200) or binary: the rest is text
--   hosts_unresolved        hosts (any outcome) whose redirects lead nowhere (a loop, more than
--                         five hops, a target never captured, no Location): outside hosts_2xx
--   hosts_5xx               hosts whose governing capture is a 5xx: outside hosts_2xx, full
--                         blocks of every agent to RFC 9309
-- summary_agent_groups holds, per crawl and group of agents, the hosts by whether they name
-- some agent of the group (docs/schema.md); the group `ai` is the four AI categories.
WITH answer AS (
WITH g AS (
    SELECT *, fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary') AS is_2xx
    FROM read_parquet('summary_agent_groups/*/*.parquet', hive_partitioning = true)
    WHERE agent_group = 'ai'
)
SELECT
    crawl,
    coalesce(sum(hosts) FILTER (is_2xx), 0)::BIGINT AS hosts_2xx,
    coalesce(sum(hosts) FILTER (is_2xx AND names_exact), 0)::BIGINT AS hosts_naming_ai,
    round(hosts_naming_ai / nullif(hosts_2xx, 0), 4) AS share,
    coalesce(sum(hosts) FILTER (is_2xx AND names_token), 0)::BIGINT AS hosts_naming_ai_token,
    coalesce(sum(hosts) FILTER (is_2xx AND resolution = 'resolved'), 0)::BIGINT AS hosts_resolved,
    coalesce(sum(hosts) FILTER (fetch_outcome = 'ok_empty'), 0)::BIGINT AS hosts_2xx_empty,
    coalesce(sum(hosts) FILTER (fetch_outcome = 'not_robots_html'), 0)::BIGINT AS hosts_2xx_html,
    coalesce(sum(hosts) FILTER (fetch_outcome = 'not_robots_binary'), 0)::BIGINT
        AS hosts_2xx_binary,
    coalesce(sum(hosts) FILTER (resolution NOT IN ('direct', 'resolved')), 0)::BIGINT
        AS hosts_unresolved,
    coalesce(sum(hosts) FILTER (fetch_outcome = 'server_error'), 0)::BIGINT AS hosts_5xx
FROM g
GROUP BY crawl
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, share,
    * EXCLUDE (crawl, share)
FROM answer
ORDER BY crawl;

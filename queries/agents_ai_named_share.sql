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
WITH g AS (
    SELECT *, is_2xx(fetch_outcome) AS is_2xx
    FROM read_parquet('summary_agent_groups/*/*.parquet', hive_partitioning = true)
    WHERE agent_group = 'ai'
), counts AS (
    SELECT
        crawl,
        hosts_where(hosts, is_2xx AND names_exact) AS hosts_naming_ai,
        hosts_where(hosts, is_2xx AND names_token) AS hosts_naming_ai_token,
        unnest(robots_denominators(hosts, fetch_outcome, resolution))
    FROM g
    GROUP BY crawl
)
-- The share right after the key, so that a narrow display keeps it in view.
SELECT crawl, round(hosts_naming_ai / nullif(hosts_2xx, 0), 4) AS share, hosts_2xx,
    hosts_naming_ai, hosts_naming_ai_token,
    * EXCLUDE (crawl, hosts_2xx, hosts_naming_ai, hosts_naming_ai_token)
FROM counts
ORDER BY crawl;

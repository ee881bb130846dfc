-- Question: which agents do sites single out: hosts whose robots.txt treats the agent more
--           strictly than every other crawler (its verdict is stricter than the `*` groups'),
--           so AI-specific restriction is not confused with a generic `Disallow: /admin`?
-- Strictness: full_block > partial_block > allowed. The `*` reading of a capture is the verdict
-- of the agents no group names (verdict_source wildcard or none); a host singles the agent out
-- when the agent's own group (verdict_source specific) gives a stricter verdict than that.
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md).
-- Each host counts once, by its governing capture (robots_hosts: its latest capture in the crawl
-- or, when that is a redirect, the capture its redirects lead to).
-- Denominator: hosts whose governing capture is a 2xx robots.txt (or a resource record), empty or
-- not, and that leave at least one agent to the `*` reading.
-- RFC 9309's reading (verdict_rfc9309) differs from Google's only for hosts whose governing
-- capture is a 5xx (RFC 9309: a full block of every agent; Google: unreachable) or a 429; among
-- hosts whose governing capture is a 2xx the two agree, so these figures hold for both;
-- hosts_5xx counts the 5xx hosts left out.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_singled_out.sql"
-- Columns: in this order, the shares right after the keys: crawl, agent, agent_category, share,
--     share_full_block, share_partial_block, hosts_2xx, singled_out, to_full_block,
--     to_partial_block, hosts_resolved, hosts_unresolved, hosts_5xx; one by one:
--   crawl, agent, agent_category
--   hosts_2xx        the denominator
--   singled_out      hosts whose verdict for the agent is stricter than their `*` verdict
--   to_full_block    of those, hosts fully blocking the agent
--   to_partial_block of those, hosts blocking part of the site to the agent
--   share            singled_out / hosts_2xx (4 decimals): both kinds together
--   share_full_block, share_partial_block
--                    to_full_block / hosts_2xx, to_partial_block / hosts_2xx (4 decimals)
--   hosts_resolved   of hosts_2xx, those read through redirects
--   hosts_unresolved hosts (any outcome) whose redirects lead nowhere: outside hosts_2xx
--   hosts_5xx        hosts whose governing capture is a 5xx: outside hosts_2xx, full blocks of
--                    every agent to RFC 9309
-- summary_agents holds, per crawl and agent, the hosts by the verdicts of their governing
-- capture, and whether the agent's verdict is stricter than the host's `*` reading
-- (`singled_out`, NULL for hosts outside the denominator; docs/schema.md).
WITH answer AS (
SELECT
    crawl,
    agent,
    any_value(agent_category) AS agent_category,
    coalesce(sum(hosts) FILTER (singled_out IS NOT NULL), 0)::BIGINT AS hosts_2xx,
    coalesce(sum(hosts) FILTER (singled_out), 0)::BIGINT AS singled_out,
    coalesce(sum(hosts) FILTER (singled_out AND verdict = 'full_block'), 0)::BIGINT
        AS to_full_block,
    coalesce(sum(hosts) FILTER (singled_out AND verdict = 'partial_block'), 0)::BIGINT
        AS to_partial_block,
    round(coalesce(sum(hosts) FILTER (singled_out), 0) / nullif(hosts_2xx, 0), 4) AS share,
    round(to_full_block / nullif(hosts_2xx, 0), 4) AS share_full_block,
    round(to_partial_block / nullif(hosts_2xx, 0), 4) AS share_partial_block,
    coalesce(sum(hosts) FILTER (singled_out IS NOT NULL AND resolution = 'resolved'), 0)::BIGINT
        AS hosts_resolved,
    coalesce(sum(hosts) FILTER (resolution NOT IN ('direct', 'resolved')), 0)::BIGINT
        AS hosts_unresolved,
    coalesce(sum(hosts) FILTER (fetch_outcome = 'server_error'), 0)::BIGINT AS hosts_5xx
FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
GROUP BY crawl, agent
HAVING hosts_2xx > 0
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, agent_category, share, share_full_block, share_partial_block,
    * EXCLUDE (crawl, agent, agent_category, share, share_full_block, share_partial_block)
FROM answer
ORDER BY crawl, singled_out DESC, agent;

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
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_singled_out.sql"
-- Columns:
--   crawl, agent, agent_category
--   hosts_2xx        the denominator
--   singled_out      hosts whose verdict for the agent is stricter than their `*` verdict
--   to_full_block    of those, hosts fully blocking the agent
--   share            singled_out / hosts_2xx (4 decimals)
-- summary_agents holds, per crawl and agent, the hosts by the verdicts of their governing
-- capture, and whether the agent's verdict is stricter than the host's `*` reading
-- (`singled_out`, NULL for hosts outside the denominator; docs/schema.md).
SELECT
    crawl,
    agent,
    any_value(agent_category) AS agent_category,
    sum(hosts)::BIGINT AS hosts_2xx,
    coalesce(sum(hosts) FILTER (singled_out), 0)::BIGINT AS singled_out,
    coalesce(sum(hosts) FILTER (singled_out AND verdict = 'full_block'), 0)::BIGINT
        AS to_full_block,
    round(coalesce(sum(hosts) FILTER (singled_out), 0) / sum(hosts), 4) AS share
FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
WHERE singled_out IS NOT NULL
GROUP BY crawl, agent
ORDER BY crawl, singled_out DESC, agent;

-- Question: what share of hosts fully block each tracked agent, and through which groups: the
--           agent's own group (specific) or the `*` group (wildcard)?
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset), so repeated captures of a host do not double count.
-- Denominators, both given:
--   hosts_2xx  hosts whose latest capture is a 2xx robots.txt (or a resource record), empty or not
--   hosts_any  hosts with any capture (404s, 5xx, redirects included)
-- full_block: every path but the robots.txt disallowed, nothing may be fetched (docs/agents.md).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_full_block_share.sql"
-- Columns:
--   crawl, agent, agent_category
--   hosts_2xx, hosts_any      the denominators
--   full_block                hosts fully blocking the agent
--   by_own_group, by_star     of those, blocked by a group naming the agent / by `*`
--   share_2xx, share_any      full_block / hosts_2xx, full_block / hosts_any (4 decimals)
--   full_block_documented     hosts fully blocking the agent as its operator documents its
--                             groups (verdict_documented; docs/agents.md)
WITH latest AS (
    SELECT *
    FROM read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true)
    WHERE host IS NOT NULL
    QUALIFY row_number() OVER (
        PARTITION BY crawl, host, agent
        ORDER BY capture_time DESC NULLS LAST, warc_file DESC, warc_offset DESC) = 1
)
SELECT
    crawl,
    agent,
    any_value(agent_category) AS agent_category,
    count(*) FILTER (fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary'))
        AS hosts_2xx,
    count(*) AS hosts_any,
    count(*) FILTER (verdict = 'full_block') AS full_block,
    count(*) FILTER (verdict = 'full_block' AND verdict_source = 'specific') AS by_own_group,
    count(*) FILTER (verdict = 'full_block' AND verdict_source = 'wildcard') AS by_star,
    round(full_block / nullif(hosts_2xx, 0), 4) AS share_2xx,
    round(full_block / hosts_any, 4) AS share_any,
    count(*) FILTER (verdict_documented = 'full_block') AS full_block_documented
FROM latest
GROUP BY crawl, agent
ORDER BY crawl, full_block DESC, agent;

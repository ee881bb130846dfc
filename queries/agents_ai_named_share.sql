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
WITH latest AS (
    -- Each host once, with the verdicts of the capture that governs it (robots_hosts).
    SELECT h.host, h.registered_domain, h.resolution, v.* EXCLUDE (host, registered_domain)
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl
        AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
), hosts AS (
    SELECT
        crawl,
        host,
        bool_or(fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary'))
            AS is_2xx,
        bool_or(resolution = 'resolved') AS resolved,
        bool_or(named_exact AND agent_category LIKE 'ai\_%' ESCAPE '\') AS names_ai,
        bool_or(named AND agent_category LIKE 'ai\_%' ESCAPE '\') AS names_ai_token
    FROM latest
    GROUP BY crawl, host
)
SELECT
    crawl,
    count(*) FILTER (is_2xx) AS hosts_2xx,
    count(*) FILTER (is_2xx AND names_ai) AS hosts_naming_ai,
    round(hosts_naming_ai / nullif(hosts_2xx, 0), 4) AS share,
    count(*) FILTER (is_2xx AND names_ai_token) AS hosts_naming_ai_token,
    count(*) FILTER (is_2xx AND resolved) AS hosts_resolved
FROM hosts
GROUP BY crawl
ORDER BY crawl;

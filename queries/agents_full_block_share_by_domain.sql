-- Question: what share of registered domains (example.co.uk for www.example.co.uk and
--           shop.example.co.uk) fully block each tracked agent, so sites with many hosts do not
--           count many times?
-- Each host counts by its governing capture (robots_hosts: its latest capture in the crawl or,
-- when that is a redirect, the capture its redirects lead to); a domain is made of its hosts
-- whose governing capture is a 2xx robots.txt (or a resource record).
-- Two readings, both given: every such host of the domain fully blocks the agent, or at least
-- one does.
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_full_block_share_by_domain.sql"
-- Columns:
--   crawl, agent, agent_category
--   domains_2xx          registered domains with at least one such host (the denominator)
--   all_hosts_block      domains all of whose such hosts fully block the agent
--   some_host_blocks     domains at least one of whose such hosts fully blocks it
--   share_all, share_some  all_hosts_block / domains_2xx, some_host_blocks / domains_2xx (4 decimals)
WITH latest AS (
    -- Each host once, with the verdicts of the capture that governs it (robots_hosts).
    SELECT h.host, h.registered_domain, h.resolution, v.* EXCLUDE (host, registered_domain)
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl
        AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
), domains AS (
    SELECT
        crawl,
        coalesce(registered_domain, host) AS domain,
        agent,
        any_value(agent_category) AS agent_category,
        bool_and(verdict = 'full_block') AS all_block,
        bool_or(verdict = 'full_block') AS some_block
    FROM latest
    WHERE fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
    GROUP BY ALL
)
SELECT
    crawl,
    agent,
    any_value(agent_category) AS agent_category,
    count(*) AS domains_2xx,
    count(*) FILTER (all_block) AS all_hosts_block,
    count(*) FILTER (some_block) AS some_host_blocks,
    round(all_hosts_block / domains_2xx, 4) AS share_all,
    round(some_host_blocks / domains_2xx, 4) AS share_some
FROM domains
GROUP BY crawl, agent
ORDER BY crawl, all_hosts_block DESC, agent;

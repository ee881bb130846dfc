-- Question: what share of registered domains (example.co.uk for www.example.co.uk and
--           shop.example.co.uk) fully block each tracked agent, so sites with many hosts do not
--           count many times?
-- Each host counts by its governing capture (robots_hosts: its latest capture in the crawl or,
-- when that is a redirect, the capture its redirects lead to); a domain is made of its hosts
-- whose governing capture is a 2xx robots.txt (or a resource record).
-- Two readings, both given: every such host of the domain fully blocks the agent, or at least
-- one does.
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md).
-- Reads summary_agent_domains (domains per agent by whether all or some of their such hosts
-- fully block it, derived per crawl with robots_hosts).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_full_block_share_by_domain.sql"
-- Columns:
--   crawl, agent, agent_category
--   domains_2xx          registered domains with at least one such host (the denominator)
--   all_hosts_block      domains all of whose such hosts fully block the agent
--   some_host_blocks     domains at least one of whose such hosts fully blocks it
--   share_all, share_some  all_hosts_block / domains_2xx, some_host_blocks / domains_2xx (4 decimals)
WITH counted AS (
    SELECT
        crawl,
        agent,
        any_value(agent_category) AS agent_category,
        sum(domains) AS domains_2xx,
        coalesce(sum(domains) FILTER (all_hosts_block), 0) AS n_all,
        coalesce(sum(domains) FILTER (some_host_blocks), 0) AS n_some
    FROM read_parquet('summary_agent_domains/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl, agent
)
SELECT
    crawl,
    agent,
    agent_category,
    domains_2xx::BIGINT AS domains_2xx,
    n_all::BIGINT AS all_hosts_block,
    n_some::BIGINT AS some_host_blocks,
    round(n_all / domains_2xx, 4) AS share_all,
    round(n_some / domains_2xx, 4) AS share_some
FROM counted
ORDER BY crawl, all_hosts_block DESC, agent;

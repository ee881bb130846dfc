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
-- RFC 9309's reading (verdict_rfc9309) differs from Google's only for hosts whose governing
-- capture is a 5xx (RFC 9309: a full block of every agent; Google: unreachable) or a 429; among
-- hosts whose governing capture is a 2xx the two agree, so these figures hold for both;
-- hosts_5xx counts the 5xx hosts left out.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_full_block_share_by_domain.sql"
-- Columns: in this order, the shares right after the keys: crawl, agent, agent_category, share_all,
--     share_some, domains_2xx, all_hosts_block, some_host_blocks, hosts_resolved, hosts_unresolved,
--     hosts_5xx; one by one:
--   crawl, agent, agent_category
--   domains_2xx          registered domains with at least one such host (the denominator)
--   all_hosts_block      domains all of whose such hosts fully block the agent
--   some_host_blocks     domains at least one of whose such hosts fully blocks it
--   share_all, share_some  all_hosts_block / domains_2xx, some_host_blocks / domains_2xx (4 decimals)
--   hosts_resolved       hosts of the crawl with a 2xx governing capture read through redirects
--   hosts_unresolved     hosts of the crawl whose redirects lead nowhere (a loop, more than five
--                        hops, a target never captured, no Location): in no domain's count
--   hosts_5xx            hosts of the crawl whose governing capture is a 5xx: in no domain's
--                        count; full blocks of every agent to RFC 9309
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
WITH answer AS (
WITH hosts AS (
    SELECT
        crawl,
        hosts_where(hosts, resolution = 'resolved' AND is_2xx(effective_fetch_outcome))
            AS hosts_resolved,
        hosts_where(hosts, resolution NOT IN ('direct', 'resolved'))
            AS hosts_unresolved,
        hosts_where(hosts, effective_fetch_outcome = 'server_error')
            AS hosts_5xx
    FROM read_parquet('summary_robots_hosts/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl
), counted AS (
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
    round(n_some / domains_2xx, 4) AS share_some,
    hosts_resolved,
    hosts_unresolved,
    hosts_5xx
FROM counted JOIN hosts USING (crawl)
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, agent, agent_category, share_all, share_some,
    * EXCLUDE (crawl, agent, agent_category, share_all, share_some)
FROM answer
ORDER BY crawl, all_hosts_block DESC, agent;

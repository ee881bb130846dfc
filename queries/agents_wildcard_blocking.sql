-- Question: what share of hosts block every crawler they do not name, through their `*` group,
--           fully or in part? And how many block some AI agent while `*` leaves the rest open?
-- The `*` reading of a host: the verdict of the agents no group of its robots.txt names, decided
-- by the `*` group (or `allowed`, by no group, when the file has none). Every agent a host does
-- not name gets that verdict, so the per-agent shares of agents_full_block_share.sql repeat it
-- for every agent the host leaves to `*`; this gives it once per host.
-- Verdicts: `verdict`, Google's library's reading (docs/agents.md).
-- Each host counts once, by the robots.txt capture that governs it (robots_hosts: its latest
-- capture in the crawl or, when that is a redirect, the capture its redirects lead to).
-- Denominator: hosts whose governing capture is a 2xx robots.txt (or a resource record), empty or
-- not (hosts_2xx, as in agents_full_block_share.sql).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_wildcard_blocking.sql"
-- Columns: in this order, the shares right after the keys: crawl, share_full_block, share_partial_block,
--     share_ai_blocked_star_open, hosts_2xx, hosts_with_star, star_full_block, star_partial_block,
--     ai_blocked_star_open; one by one:
--   crawl
--   hosts_2xx               the denominator
--   hosts_with_star         of hosts_2xx, those with a `*` reading: leaving some tracked agent to
--                           `*`, or to no group where the file has no `*` group (all but hosts
--                           naming every tracked agent). A host counts here with or without a
--                           `*` group of its own; its `*` reading is then `allowed`
--   star_full_block         hosts whose `*` reading is full_block: nothing may be fetched by any
--                           crawler they do not name
--   share_full_block        star_full_block / hosts_2xx (4 decimals)
--   star_partial_block      hosts whose `*` reading is partial_block (often `Disallow: /admin`)
--   share_partial_block     star_partial_block / hosts_2xx (4 decimals)
--   ai_blocked_star_open    hosts fully blocking at least one AI agent (registry categories ai_*)
--                           while their `*` reading blocks nothing (neither full nor partial)
--   share_ai_blocked_star_open  ai_blocked_star_open / hosts_2xx (4 decimals)
-- summary_agent_groups holds, per crawl and group of agents, the hosts by their `*` reading
-- (star_verdict, the same in every group's rows) and by whether they block some agent of the
-- group (docs/schema.md); the group `all` counts each host once, the group `ai` is the four AI
-- categories.
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
WITH g AS (
    SELECT *, is_2xx(fetch_outcome) AS is_2xx
    FROM read_parquet('summary_agent_groups/*/*.parquet', hive_partitioning = true)
    WHERE agent_group IN ('all', 'ai')
)
SELECT
    crawl,
    hosts_where(hosts, agent_group = 'all' AND is_2xx) AS hosts_2xx,
    hosts_where(hosts, agent_group = 'all' AND star_verdict IS NOT NULL)
        AS hosts_with_star,
    hosts_where(hosts, agent_group = 'all' AND star_verdict = 'full_block')
        AS star_full_block,
    round(star_full_block / nullif(hosts_2xx, 0), 4) AS share_full_block,
    hosts_where(hosts, agent_group = 'all' AND star_verdict = 'partial_block')
        AS star_partial_block,
    round(star_partial_block / nullif(hosts_2xx, 0), 4) AS share_partial_block,
    hosts_where(hosts, agent_group = 'ai' AND is_2xx AND blocks_any AND star_verdict NOT IN ('full_block', 'partial_block')) AS ai_blocked_star_open,
    round(ai_blocked_star_open / nullif(hosts_2xx, 0), 4) AS share_ai_blocked_star_open
FROM g
GROUP BY crawl
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, share_full_block, share_partial_block, share_ai_blocked_star_open,
    * EXCLUDE (crawl, share_full_block, share_partial_block, share_ai_blocked_star_open)
FROM answer
ORDER BY crawl;

-- Question: do sites block AI training but allow AI search or plain search? Hosts that fully
--           block one agent while letting another in, for three pairs:
--           GPTBot vs OAI-SearchBot, Google-Extended vs Googlebot, CCBot vs Googlebot.
-- "Blocks": verdict full_block. "Allows": `/` is allowed (root_allowed) for the other agent.
-- Each host counts once, by its governing capture (robots_hosts: its latest capture in the crawl
-- or, when that is a redirect, the capture its redirects lead to); denominator: hosts whose
-- governing capture is a 2xx robots.txt (or a resource record).
-- Reads summary_agent_pairs (hosts by both agents' verdicts, derived per crawl with
-- robots_hosts): pair any ai_training agent with its operator's other agents, Googlebot or bingbot.
-- RFC 9309's reading (verdict_rfc9309) differs from Google's only for hosts whose governing
-- capture is a 5xx (RFC 9309: a full block of every agent; Google: unreachable) or a 429; among
-- hosts whose governing capture is a 2xx the two agree, so these figures hold for both;
-- hosts_5xx counts the 5xx hosts left out.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_selective_policies.sql"
-- Columns: in this order, the shares right after the keys: crawl, policy, share_selective, hosts_2xx,
--     blocks_first, selective, hosts_resolved, hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary,
--     hosts_unresolved, hosts_5xx; one by one:
--   crawl, policy
--   hosts_2xx        the denominator
--   blocks_first     hosts fully blocking the first agent
--   selective        of those, hosts allowing the second
--   share_selective  selective / hosts_2xx (4 decimals)
--   hosts_resolved   of hosts_2xx, those read through redirects
--   hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary
--                    of hosts_2xx, those whose governing capture is an empty file, an HTML page
--                    (an error page served with 200) or binary: the rest is text
--   hosts_unresolved hosts (any outcome) whose redirects lead nowhere: outside hosts_2xx
--   hosts_5xx        hosts whose governing capture is a 5xx: outside hosts_2xx, full blocks of
--                    every agent to RFC 9309
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
WITH pairs(policy, blocked, allowed) AS (
    VALUES
        ('blocks GPTBot, allows OAI-SearchBot', 'GPTBot', 'OAI-SearchBot'),
        ('blocks Google-Extended, allows Googlebot', 'Google-Extended', 'Googlebot'),
        ('blocks CCBot, allows Googlebot', 'CCBot', 'Googlebot')
), counted AS (
    SELECT
        crawl,
        p.policy,
        hosts_where(hosts, is_2xx AND verdict = 'full_block') AS blocks_first,
        hosts_where(hosts, is_2xx AND verdict = 'full_block' AND other_root_allowed)
            AS selective,
        unnest(robots_denominators(hosts, fetch_outcome, resolution))
    FROM pairs p
    JOIN (
        SELECT *,
            is_2xx(fetch_outcome) AS is_2xx
        FROM read_parquet('summary_agent_pairs/*/*.parquet', hive_partitioning = true)
    ) s ON s.agent = p.blocked AND s.other_agent = p.allowed
    GROUP BY crawl, p.policy
)
SELECT
    crawl,
    policy,
    hosts_2xx::BIGINT AS hosts_2xx,
    blocks_first::BIGINT AS blocks_first,
    selective::BIGINT AS selective,
    round(selective / hosts_2xx, 4) AS share_selective,
    hosts_resolved::BIGINT AS hosts_resolved,
    hosts_2xx_empty::BIGINT AS hosts_2xx_empty,
    hosts_2xx_html::BIGINT AS hosts_2xx_html,
    hosts_2xx_binary::BIGINT AS hosts_2xx_binary,
    hosts_unresolved::BIGINT AS hosts_unresolved,
    hosts_5xx::BIGINT AS hosts_5xx
FROM counted
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, policy, share_selective,
    * EXCLUDE (crawl, policy, share_selective)
FROM answer
ORDER BY crawl, policy;

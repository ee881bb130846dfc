-- Question: do sites block AI training but allow AI search or plain search? Hosts that fully
--           block one agent while letting another in, for three pairs:
--           GPTBot vs OAI-SearchBot, Google-Extended vs Googlebot, CCBot vs Googlebot.
-- "Blocks": verdict full_block. "Allows": `/` is allowed (root_allowed) for the other agent.
-- Each host counts once, by its governing capture (robots_hosts: its latest capture in the crawl
-- or, when that is a redirect, the capture its redirects lead to); denominator: hosts whose
-- governing capture is a 2xx robots.txt (or a resource record).
-- Reads summary_agent_pairs (hosts by both agents' verdicts, derived per crawl with
-- robots_hosts): pair any ai_training agent with its operator's other agents, Googlebot or bingbot.
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_selective_policies.sql"
-- Columns:
--   crawl, policy
--   hosts_2xx        the denominator
--   blocks_first     hosts fully blocking the first agent
--   selective        of those, hosts allowing the second
--   share_selective  selective / hosts_2xx (4 decimals)
WITH pairs(policy, blocked, allowed) AS (
    VALUES
        ('blocks GPTBot, allows OAI-SearchBot', 'GPTBot', 'OAI-SearchBot'),
        ('blocks Google-Extended, allows Googlebot', 'Google-Extended', 'Googlebot'),
        ('blocks CCBot, allows Googlebot', 'CCBot', 'Googlebot')
), counted AS (
    SELECT
        crawl,
        p.policy,
        sum(hosts) AS hosts_2xx,
        coalesce(sum(hosts) FILTER (verdict = 'full_block'), 0) AS blocks_first,
        coalesce(sum(hosts) FILTER (verdict = 'full_block' AND other_root_allowed), 0) AS selective
    FROM pairs p
    JOIN read_parquet('summary_agent_pairs/*/*.parquet', hive_partitioning = true) s
        ON s.agent = p.blocked AND s.other_agent = p.allowed
    WHERE fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
    GROUP BY crawl, p.policy
)
SELECT
    crawl,
    policy,
    hosts_2xx::BIGINT AS hosts_2xx,
    blocks_first::BIGINT AS blocks_first,
    selective::BIGINT AS selective,
    round(selective / hosts_2xx, 4) AS share_selective
FROM counted
ORDER BY crawl, policy;

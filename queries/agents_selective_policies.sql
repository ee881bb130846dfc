-- Question: do sites block AI training but allow AI search or plain search? Hosts that fully
--           block one agent while letting another in, for three pairs:
--           GPTBot vs OAI-SearchBot, Google-Extended vs Googlebot, CCBot vs Googlebot.
-- "Blocks": verdict full_block. "Allows": `/` is allowed (root_allowed) for the other agent.
-- Each host counts once, by its governing capture (robots_hosts: its latest capture in the crawl
-- or, when that is a redirect, the capture its redirects lead to); denominator: hosts whose
-- governing capture is a 2xx robots.txt (or a resource record).
-- Run from the scan's output folder: duckdb -c ".read ../queries/agents_selective_policies.sql"
-- Columns:
--   crawl, policy
--   hosts_2xx        the denominator
--   blocks_first     hosts fully blocking the first agent
--   selective        of those, hosts allowing the second
--   share_selective  selective / hosts_2xx (4 decimals)
WITH latest AS (
    -- Each host once, with the verdicts of the capture that governs it (robots_hosts).
    SELECT h.host, h.registered_domain, h.resolution, v.* EXCLUDE (host, registered_domain)
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl
        AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
), ok AS (
    SELECT * FROM latest
    WHERE fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
), pairs(policy, blocked, allowed) AS (
    VALUES
        ('blocks GPTBot, allows OAI-SearchBot', 'GPTBot', 'OAI-SearchBot'),
        ('blocks Google-Extended, allows Googlebot', 'Google-Extended', 'Googlebot'),
        ('blocks CCBot, allows Googlebot', 'CCBot', 'Googlebot')
)
SELECT
    b.crawl,
    p.policy,
    count(*) AS hosts_2xx,
    count(*) FILTER (b.verdict = 'full_block') AS blocks_first,
    count(*) FILTER (b.verdict = 'full_block' AND a.root_allowed) AS selective,
    round(selective / hosts_2xx, 4) AS share_selective
FROM pairs p
JOIN ok b ON b.agent = p.blocked
JOIN ok a ON a.agent = p.allowed AND a.crawl = b.crawl AND a.host = b.host
GROUP BY b.crawl, p.policy
ORDER BY b.crawl, p.policy;

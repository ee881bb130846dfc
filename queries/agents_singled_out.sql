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
WITH latest AS (
    -- Each host once, with the verdicts of the capture that governs it (robots_hosts).
    SELECT h.host, h.registered_domain, h.resolution, v.* EXCLUDE (host, registered_domain)
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl
        AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
), ranked AS (
    SELECT *,
        CASE verdict WHEN 'full_block' THEN 2 WHEN 'partial_block' THEN 1 ELSE 0 END AS strictness
    FROM latest
    WHERE fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
), star AS (
    SELECT crawl, host, max(strictness) AS star_strictness
    FROM ranked
    WHERE verdict_source IN ('wildcard', 'none')
    GROUP BY crawl, host
)
SELECT
    r.crawl,
    r.agent,
    any_value(r.agent_category) AS agent_category,
    count(*) AS hosts_2xx,
    count(*) FILTER (r.verdict_source = 'specific' AND r.strictness > s.star_strictness)
        AS singled_out,
    count(*) FILTER (r.verdict_source = 'specific' AND r.strictness > s.star_strictness
                     AND r.verdict = 'full_block') AS to_full_block,
    round(singled_out / hosts_2xx, 4) AS share
FROM ranked r JOIN star s USING (crawl, host)
GROUP BY r.crawl, r.agent
ORDER BY r.crawl, singled_out DESC, r.agent;

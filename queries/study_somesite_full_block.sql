-- Question: how many sites fully disallow each AI crawler, the way "Somesite I used to crawl" (IMC 2025)
--           counts it (no path allowed, through its own group or `*`), and how many by name?
-- Definition (somesite_full_block, ../shared/specs/studies.md): a host counts for agent A when Google's parser allows A no path (verdict full_block); by name when the deciding group names A.
-- Source: "Somesite I used to crawl" (IMC 2025) and its artifact.
-- Denominator: hosts whose governing robots.txt answered 2xx or 404/410 (a 404 allows everything)
-- Memory: the CTEs over the hosts are not materialized (read again instead): at ten times the
-- benchmark (4 million hosts), 0.8 GB and 8 CPU s instead of 1.7 GB and 4 CPU s.
-- Unit: the host name (robots_hosts: its row that counts for the host, read at its governing capture, through
-- redirects and revisits). With a ranked list (`repcensus ranks FILE --out OUT --name NAME`),
-- each ranked name counts once, by one host (the host it names; for a registered domain, the
-- domain's own host, else www., else its first host by name), per tier: top1k, top10k,
-- top100k and top1m are cumulative (top10k holds ranks 1 to 10,000), rest is beyond 1,000,000.
-- Rows without a list (list and tier NULL) count every host of the crawl. A ranked name with
-- no robots.txt capture in the crawl is outside this denominator (cc_outcomes counts it).
-- Agents: those of the registry's ai_training and ai_search categories, one row each, and an
-- `agent IS NULL` row for "any AI agent" (at least one of them).
-- Reads robots_hosts (a row per host: counts_for_host), ranks, summary_agents and summary_block_sets: never
-- the verdicts, so it answers in one pass over the hosts whatever the crawl's size.
-- Run from the scan's output folder: duckdb -c ".read ../queries/study_somesite_full_block.sql", or
-- `repcensus query study_somesite_full_block OUT [--param list=NAME]`.
-- Columns: crawl, list, tier, agent, outcome (NULL here), hosts, denominator, share, hosts_by_name; one by one:
--   crawl, list, tier   the crawl, and the ranked list and tier (NULL: every host)
--   agent               the agent (NULL: any AI agent)
--   hosts               hosts of the denominator the definition counts for the agent
--   denominator         hosts whose governing robots.txt answered 2xx or 404/410 (a 404 allows everything)
--   share               hosts / denominator (4 decimals)
--   hosts_by_name       of hosts, those where a group naming the agent (any AI agent: one of
--                       them) decides it
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
WITH hosts AS NOT MATERIALIZED (
    SELECT crawl, host, registered_domain, effective_fetch_outcome AS outcome,
        block_set, full_block_by_name_set
    FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE counts_for_host  -- a host's figures, not each of its sites'
), ranks AS (
    -- `repcensus query ... --param list=NAME` reads one list; a bare DuckDB reads them all.
    SELECT list, name, kind, rank
    FROM read_parquet('ranks/*/*.parquet', hive_partitioning = false)
    WHERE getvariable('list') IS NULL OR list = getvariable('list')
), tiers AS (
    -- Cumulative as the studies use them; `rest` is beyond 1,000,000.
    SELECT * FROM (VALUES ('top1k', 1, 1000), ('top10k', 1, 10000), ('top100k', 1, 100000),
        ('top1m', 1, 1000000), ('rest', 1000001, NULL)) t(tier, first_rank, last_rank)
), matched AS NOT MATERIALIZED (
    -- A ranked host matches that host; a ranked domain its own host, else www., else the
    -- first of its hosts by name: one host per ranked name and crawl.
    SELECT r.list, r.name, r.rank, h.*,
        row_number() OVER (PARTITION BY h.crawl, r.list, r.name
            ORDER BY h.host = r.name DESC, h.host = 'www.' || r.name DESC, h.host) AS pick
    FROM ranks r JOIN hosts h ON r.kind = 'domain' AND h.registered_domain = r.name
    UNION ALL BY NAME
    SELECT r.list, r.name, r.rank, h.*, 1 AS pick
    FROM ranks r JOIN hosts h ON r.kind = 'host' AND h.host = r.name
), units AS NOT MATERIALIZED (
    -- Every host of the crawl (list and tier NULL), then each ranked name's host per tier.
    SELECT crawl, NULL::VARCHAR AS list, NULL::VARCHAR AS tier, * EXCLUDE (crawl) FROM hosts
    UNION ALL BY NAME
    SELECT m.crawl, m.list, t.tier, m.* EXCLUDE (crawl, list, name, rank, pick)
    FROM matched m JOIN tiers t
        ON m.rank >= t.first_rank AND (t.last_rank IS NULL OR m.rank <= t.last_rank)
    WHERE m.pick = 1
), ai AS (
    SELECT DISTINCT crawl, agent, agent_category
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
    WHERE agent_category IN ('ai_training', 'ai_search')
), sets AS (
    SELECT s.crawl, s.block_set, s.agents,
        len(list_intersect(s.agents, (SELECT list(DISTINCT agent) FROM ai a WHERE a.crawl = s.crawl))) > 0 AS any_ai
    FROM read_parquet('summary_block_sets/*/*.parquet', hive_partitioning = true) s
)
, counted AS (
    SELECT crawl, list, tier, count(*) AS denominator FROM units
    WHERE (is_2xx(outcome) OR outcome = 'not_found') GROUP BY ALL
), by_set AS (
    SELECT crawl, list, tier, block_set AS block_set, full_block_by_name_set AS by_name_set, count(*) AS hosts
    FROM units WHERE (is_2xx(outcome) OR outcome = 'not_found') GROUP BY ALL
), per_agent AS (
    SELECT b.crawl, b.list, b.tier, a.agent,
        sum(b.hosts) FILTER (list_contains(s.agents, a.agent)) AS hosts,
        sum(b.hosts) FILTER (list_contains(n.agents, a.agent)) AS hosts_by_name
    FROM by_set b JOIN ai a ON a.crawl = b.crawl
    LEFT JOIN sets s ON s.crawl = b.crawl AND s.block_set = b.block_set
    LEFT JOIN sets n ON n.crawl = b.crawl AND n.block_set = b.by_name_set
    GROUP BY ALL
), any_ai AS (
    SELECT b.crawl, b.list, b.tier, NULL::VARCHAR AS agent,
        sum(b.hosts) FILTER (s.any_ai) AS hosts,
        sum(b.hosts) FILTER (n.any_ai) AS hosts_by_name
    FROM by_set b
    LEFT JOIN sets s ON s.crawl = b.crawl AND s.block_set = b.block_set
    LEFT JOIN sets n ON n.crawl = b.crawl AND n.block_set = b.by_name_set
    GROUP BY ALL
)
SELECT c.crawl, c.list, c.tier, p.agent, NULL::VARCHAR AS outcome,
    coalesce(p.hosts, 0)::BIGINT AS hosts, c.denominator::BIGINT AS denominator,
    round(coalesce(p.hosts, 0) / c.denominator, 4) AS share,
    coalesce(p.hosts_by_name, 0)::BIGINT AS hosts_by_name
FROM counted c
JOIN (SELECT * FROM per_agent UNION ALL BY NAME SELECT * FROM any_ai) p
    ON p.crawl = c.crawl AND p.list IS NOT DISTINCT FROM c.list
    AND p.tier IS NOT DISTINCT FROM c.tier
ORDER BY c.crawl, c.list NULLS FIRST, c.tier, p.agent NULLS FIRST;

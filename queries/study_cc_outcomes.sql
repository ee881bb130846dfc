-- Question: how did the robots.txt fetches of a ranked list's sites turn out, the way Common
--           Crawl's robotstxt-experiments count them (no capture, forbidden, defer, allow all,
--           unresolved redirects, files without and with rules)?
-- Definition (cc_outcomes, ../shared/specs/studies.md): each ranked name (each host, without a
-- list) gets one label from its host's governing capture: no_capture (no robots.txt capture of
-- it in the crawl), forbidden (401, 403), defer (429, 5xx), allow_all (404, 410, other 4xx),
-- payment_required (402), challenge (a bot-protection challenge page), unresolved_redirect (a
-- redirect whose chain ends nowhere), no_rules (a 2xx file with no Allow or Disallow line:
-- empty, HTML, binary or only other lines), rules (a 2xx file with some), other (a revisit no
-- capture matched, 304, no HTTP response, a bad status line, a head too long).
-- Source: Common Crawl robotstxt-experiments (CC-MAIN-2025-38).
-- Denominator: every ranked name of the tier, captured or not (without a list: every host of
-- the crawl); 402 and challenge hosts stay in it.
-- Unit: the host name (robots_hosts, read at its governing capture); a ranked name counts once,
-- by one host (the host it names; for a registered domain, the domain's own host, else www.,
-- else its first host by name). Tiers top1k, top10k, top100k, top1m are cumulative; rest is
-- beyond 1,000,000.
-- Reads robots_hosts, ranks and, of robots_files, the 2xx files without rules only.
-- Run from the scan's output folder: duckdb -c ".read ../queries/study_cc_outcomes.sql", or
-- `repcensus query study_cc_outcomes OUT [--param list=NAME]`.
-- Columns: crawl, list, tier, agent (NULL), outcome, hosts, denominator, share; one by one:
--   crawl, list, tier   the crawl, and the ranked list and tier (NULL: every host)
--   outcome             the label
--   hosts               ranked names (or hosts) with that label
--   denominator         every ranked name of the tier (or host of the crawl)
--   share               hosts / denominator (4 decimals)
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
        resolution, effective_warc_file, effective_warc_offset
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
)
, no_rules AS (
    SELECT crawl, warc_file, warc_offset
    FROM read_parquet('robots_files/*/*.parquet', hive_partitioning = true)
    WHERE is_2xx(fetch_outcome)
        AND coalesce(n_rules, 0) = 0
), labelled AS (
    SELECT u.crawl, u.list, u.tier,
        CASE
            WHEN u.outcome IN ('unauthorized', 'forbidden') THEN 'forbidden'
            WHEN u.outcome IN ('too_many_requests', 'server_error') THEN 'defer'
            WHEN u.outcome IN ('not_found', 'client_error') THEN 'allow_all'
            WHEN u.outcome IN ('payment_required', 'challenge') THEN u.outcome
            WHEN u.outcome = 'redirect' THEN 'unresolved_redirect'
            WHEN is_2xx(u.outcome)
                AND z.warc_file IS NOT NULL THEN 'no_rules'
            WHEN is_2xx(u.outcome)
                THEN 'rules'
            ELSE 'other'
        END AS outcome
    FROM units u
    LEFT JOIN no_rules z ON z.crawl = u.crawl AND z.warc_file = u.effective_warc_file
        AND z.warc_offset = u.effective_warc_offset
), missing AS (
    -- Each ranked name with no host in the crawl, per tier.
    SELECT c.crawl, r.list, t.tier, 'no_capture' AS outcome
    FROM ranks r CROSS JOIN (SELECT DISTINCT crawl FROM hosts) c
    JOIN tiers t ON r.rank >= t.first_rank AND (t.last_rank IS NULL OR r.rank <= t.last_rank)
    WHERE NOT EXISTS (SELECT 1 FROM matched m
        WHERE m.crawl = c.crawl AND m.list = r.list AND m.name = r.name)
), counts AS (
    SELECT crawl, list, tier, outcome, count(*) AS hosts
    FROM (SELECT * FROM labelled UNION ALL SELECT * FROM missing)
    GROUP BY ALL
)
SELECT crawl, list, tier, NULL::VARCHAR AS agent, outcome, hosts::BIGINT AS hosts,
    (sum(hosts) OVER (PARTITION BY crawl, list, tier))::BIGINT AS denominator,
    round(hosts / sum(hosts) OVER (PARTITION BY crawl, list, tier), 4) AS share
FROM counts
ORDER BY crawl, list NULLS FIRST, tier, hosts DESC, outcome;

-- Question: how many sites block every crawler by accident? A frequent mistake: `User-agent: *`,
--           then a blank line, a comment, a `Sitemap:` or `Crawl-delay:` line, then a list of AI
--           user-agents and `Disallow: /`. RFC 9309 and Google end a group's user-agent lines
--           only at an Allow or Disallow line, so `*` joins the AI group and every crawler,
--           Googlebot included, is blocked.
-- Each host counts once, by the robots.txt capture that governs it (robots_hosts: its latest
-- capture in the crawl, through redirects and revisits), over the hosts whose governing capture
-- is a 2xx robots.txt (hosts_2xx).
-- Reads summary_robots_hosts (hosts by the flags of their governing capture's robots_files row:
-- group_split, wildcard_split, wildcard_with_ai; docs/schema.md) and, for Googlebot, the
-- summary_agents column hosts_wildcard_flagged: never the detail tables, so it answers in the same
-- time and memory whatever the crawl's size. A crawl whose robots_files parts predate the flags
-- (schema 11 and before) has NULL counts: scan those inputs again.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_accidental_blocks.sql"
-- Columns: in this order, the shares right after the keys: crawl, share_wildcard_with_ai, hosts_2xx,
--     hosts_wildcard_with_ai, hosts_wildcard_split, hosts_blocking_googlebot, hosts_split_blank,
--     hosts_split_comment, hosts_split_sitemap, hosts_split_crawl_delay, hosts_split_other; one by one:
--   crawl
--   hosts_2xx                   the denominator
--   hosts_wildcard_with_ai      a group names both `*` and an AI agent of the registry
--   share_wildcard_with_ai      hosts_wildcard_with_ai / hosts_2xx (4 decimals)
--   hosts_wildcard_split        a `*` line joins, past a blank, comment, Sitemap, Crawl-delay or
--                               other line, the agent lines after it
--   hosts_blocking_googlebot    of the hosts with either flag, those whose file fully blocks
--                               Googlebot (verdict full_block: nothing may be crawled)
--   hosts_split_blank, hosts_split_comment, hosts_split_sitemap, hosts_split_crawl_delay,
--   hosts_split_other           hosts whose file splits some group's agent lines, by what
--                               first split them (group_split; any group, `*` or not)
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
    SELECT crawl,
        sum(hosts) AS hosts_2xx,
        sum(hosts_wildcard_with_ai) AS hosts_wildcard_with_ai,
        sum(hosts_wildcard_split) AS hosts_wildcard_split,
        sum(hosts_split_blank) AS hosts_split_blank,
        sum(hosts_split_comment) AS hosts_split_comment,
        sum(hosts_split_sitemap) AS hosts_split_sitemap,
        sum(hosts_split_crawl_delay) AS hosts_split_crawl_delay,
        sum(hosts_split_other) AS hosts_split_other
    FROM read_parquet('summary_robots_hosts/*/*.parquet', hive_partitioning = true)
    WHERE is_2xx(effective_fetch_outcome)
    GROUP BY crawl
), googlebot AS (
    -- of the hosts with either flag, those whose governing capture fully blocks Googlebot
    SELECT crawl, sum(hosts_wildcard_flagged) AS hosts_blocking_googlebot
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
    WHERE agent = 'Googlebot' AND verdict = 'full_block'
        AND is_2xx(fetch_outcome)
    GROUP BY crawl
)
SELECT
    h.crawl,
    hosts_2xx::BIGINT AS hosts_2xx,
    hosts_wildcard_with_ai::BIGINT AS hosts_wildcard_with_ai,
    round(hosts_wildcard_with_ai / hosts_2xx, 4) AS share_wildcard_with_ai,
    hosts_wildcard_split::BIGINT AS hosts_wildcard_split,
    coalesce(g.hosts_blocking_googlebot, 0)::BIGINT AS hosts_blocking_googlebot,
    hosts_split_blank::BIGINT AS hosts_split_blank,
    hosts_split_comment::BIGINT AS hosts_split_comment,
    hosts_split_sitemap::BIGINT AS hosts_split_sitemap,
    hosts_split_crawl_delay::BIGINT AS hosts_split_crawl_delay,
    hosts_split_other::BIGINT AS hosts_split_other
FROM hosts h
LEFT JOIN googlebot g USING (crawl)
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, share_wildcard_with_ai,
    * EXCLUDE (crawl, share_wildcard_with_ai)
FROM answer
ORDER BY crawl;

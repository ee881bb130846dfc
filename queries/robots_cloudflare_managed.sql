-- Question: written versus enforced: how many sites carry Cloudflare's managed robots.txt, how
--           many contradict it in their own lines, and how many answer a robots.txt fetch with
--           HTTP 402 or a bot-protection challenge page?
-- The managed block is what Cloudflare writes for a site, from `# BEGIN Cloudflare Managed
-- content` to `# END Cloudflare Managed Content`; a 402 comes from pay-per-crawl schemes; a
-- challenge page (403 or 503) is neither the site's robots.txt nor its answer about one.
-- Since 2026-09-15 Cloudflare also blocks AI crawlers at its edge without writing anything in
-- robots.txt: a share of written blocks that falls across that date reads fewer written
-- disallows, not fewer blocks.
-- Each host counts once, by the robots.txt capture that governs it (robots_hosts: its latest
-- capture in the crawl, through redirects and revisits).
-- Reads summary_robots_hosts only, so it answers in the same time and memory whatever the
-- crawl's size. A crawl whose robots_files parts predate the Cloudflare columns (schema 17 and
-- before) has NULL Cloudflare counts: scan those inputs again.
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_cloudflare_managed.sql"
-- Columns: in this order, the shares right after the keys: crawl, share_cloudflare_managed,
--     share_contradicted, share_payment_required, share_challenge, hosts, hosts_2xx,
--     hosts_cloudflare_managed, hosts_cloudflare_contradicted, hosts_payment_required,
--     hosts_challenge; one by one:
--   crawl
--   hosts                          every host with a robots.txt capture (denominator of the
--                                  402 and challenge shares)
--   hosts_2xx                      hosts whose governing capture answered 2xx (denominator of
--                                  share_cloudflare_managed)
--   hosts_cloudflare_managed       of hosts_2xx, those whose file holds the managed block
--   share_cloudflare_managed       hosts_cloudflare_managed / hosts_2xx (4 decimals)
--   hosts_cloudflare_contradicted  of those, the ones whose own lines give an agent the block
--                                  names another verdict for `/` (robots_files.cloudflare_contradicted)
--   share_contradicted             hosts_cloudflare_contradicted / hosts_cloudflare_managed
--   hosts_payment_required         hosts whose governing capture answered 402
--   share_payment_required         hosts_payment_required / hosts
--   hosts_challenge                hosts whose governing capture is a challenge page
--   share_challenge                hosts_challenge / hosts
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
SELECT
    crawl,
    sum(hosts)::BIGINT AS hosts,
    sum(hosts) FILTER (is_2xx(effective_fetch_outcome))::BIGINT AS hosts_2xx,
    sum(hosts_cloudflare_managed) FILTER (is_2xx(effective_fetch_outcome))::BIGINT
        AS hosts_cloudflare_managed,
    sum(hosts_cloudflare_contradicted) FILTER (is_2xx(effective_fetch_outcome))::BIGINT
        AS hosts_cloudflare_contradicted,
    hosts_where(hosts, effective_fetch_outcome = 'payment_required')
        AS hosts_payment_required,
    hosts_where(hosts, effective_fetch_outcome = 'challenge')
        AS hosts_challenge
FROM read_parquet('summary_robots_hosts/*/*.parquet', hive_partitioning = true)
GROUP BY crawl
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl,
    round(hosts_cloudflare_managed / nullif(hosts_2xx, 0), 4) AS share_cloudflare_managed,
    round(hosts_cloudflare_contradicted / nullif(hosts_cloudflare_managed, 0), 4) AS share_contradicted,
    round(hosts_payment_required / nullif(hosts, 0), 4) AS share_payment_required,
    round(hosts_challenge / nullif(hosts, 0), 4) AS share_challenge,
    *  EXCLUDE (crawl)
FROM answer
ORDER BY crawl;

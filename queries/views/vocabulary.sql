-- Vocabulary: the closed sets and the denominator block the bundled queries share, defined
-- here once, as DuckDB macros.
-- Each bundled query that uses one starts with these statements, copied from this file as
-- they are, so that it still runs alone in a bare DuckDB; a test holds every copy equal to
-- this file (REPCENSUS_BLESS=1 rewrites the copies) and is_2xx equal to the 2xx set of
-- `FetchOutcome` (src/tables/fetch_outcome.rs). `repcensus views` (and so Python's
-- `repcensus.connect`) and `repcensus query` with a SQL file of your own run them first, so
-- your own SQL can use them too.
--   is_2xx(outcome)            a fetch_outcome of a 2xx response (or a resource record): the
--                              robots.txt a crawler reads, empty, HTML or binary as it may be
--   hosts_where(hosts, cond)   the sum of a summary's `hosts` over the rows where cond holds,
--                              0 when none does
--   robots_denominators(hosts, outcome, resolution)
--                              the denominators of the agent questions, as one struct to
--                              unnest: hosts_2xx, hosts_resolved (of hosts_2xx, read through
--                              redirects), hosts_2xx_empty, hosts_2xx_html, hosts_2xx_binary,
--                              hosts_unresolved (redirects that lead nowhere), hosts_5xx
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

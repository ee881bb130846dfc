-- Question: what may each crawler named on a page do with it, under draft-illyes-repext-03
--           (rules for `*` are added to every crawler's own, and meta tags count only inside
--           <head>) beside -02's reading (a crawler's own rules replace those for `*`, meta tags
--           wherever they were found), and on how many pages do the two readings differ?
-- Pages: 2xx responses with robots rules for a crawler by name (a header member or meta tag
-- naming its product token, rules or none: `ExampleBot;` or -02's `ExampleBot=;` give a crawler
-- no rules of its own). Robots rules only: X-Robots-Tag, Robots-Tag and robots meta tags (TDM and
-- AI-preference signals apart); `unknown` rules left out.
-- Each page counts once per crawler and rule, whatever the number of headers and tags giving it.
-- Reads page_signals only.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_effective_rules.sql"
-- Columns: in this order, the shares right after the keys: crawl, bot, directive, share_03, pages_named,
--     pages_02, pages_03, pages_added, pages_dropped; one by one:
--   crawl, bot        the crawler (product token, lower case)
--   directive         the rule (noindex, nosnippet, ...)
--   pages_named       pages naming the crawler (the denominator of the shares)
--   pages_02          of those, pages where the rule applies to it in -02's reading
--   pages_03          ... in -03's reading
--   pages_added       pages where -03 applies it and -02 does not (the `*` rules a crawler's own
--                     rules no longer replace)
--   pages_dropped     pages where -02 applies it and -03 does not (meta tags after the head)
--   share_03          pages_03 / pages_named (4 decimals)
WITH answer AS (
WITH sig AS (
    SELECT crawl, warc_file AS f, warc_offset AS o, agent, directive,
        source <> 'meta' OR coalesce(in_head, true) AS in_head
    FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
    WHERE http_status BETWEEN 200 AND 299
        AND (source IN ('x_robots_tag', 'robots_tag')
            OR (source = 'meta' AND lower(name) <> 'content-signal'
                AND coalesce(directive, '') NOT IN ('tdm-reservation', 'tdm-policy')))
        AND coalesce(directive, '') <> 'unknown'
), named AS (
    SELECT DISTINCT crawl, f, o, agent AS bot FROM sig WHERE agent <> '*'
), rules AS (
    SELECT DISTINCT crawl, f, o, agent, directive, in_head FROM sig WHERE directive IS NOT NULL
), r02 AS (
    -- -02: the crawler's own rules, wherever its meta tags were
    SELECT DISTINCT n.crawl, n.f, n.o, n.bot, r.directive
    FROM named n JOIN rules r ON r.crawl = n.crawl AND r.f = n.f AND r.o = n.o AND r.agent = n.bot
), r03 AS (
    -- -03: its own rules and those for `*`, meta tags only inside <head>
    SELECT DISTINCT n.crawl, n.f, n.o, n.bot, r.directive
    FROM named n JOIN rules r ON r.crawl = n.crawl AND r.f = n.f AND r.o = n.o
        AND r.agent IN (n.bot, '*') AND r.in_head
), both_readings AS (
    SELECT coalesce(a.crawl, b.crawl) AS crawl, coalesce(a.f, b.f) AS f, coalesce(a.o, b.o) AS o,
        coalesce(a.bot, b.bot) AS bot, coalesce(a.directive, b.directive) AS directive,
        a.bot IS NOT NULL AS in_02, b.bot IS NOT NULL AS in_03
    FROM r02 a FULL JOIN r03 b
        ON a.crawl = b.crawl AND a.f = b.f AND a.o = b.o AND a.bot = b.bot
        AND a.directive = b.directive
), pages AS (
    SELECT crawl, bot, count(*) AS pages_named FROM named GROUP BY ALL
)
SELECT r.crawl, r.bot, r.directive, any_value(p.pages_named) AS pages_named,
    count(*) FILTER (in_02) AS pages_02,
    count(*) FILTER (in_03) AS pages_03,
    count(*) FILTER (in_03 AND NOT in_02) AS pages_added,
    count(*) FILTER (in_02 AND NOT in_03) AS pages_dropped,
    round(count(*) FILTER (in_03) / any_value(p.pages_named), 4) AS share_03
FROM both_readings r JOIN pages p USING (crawl, bot)
GROUP BY r.crawl, r.bot, r.directive
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, bot, directive, share_03,
    * EXCLUDE (crawl, bot, directive, share_03)
FROM answer
ORDER BY crawl, pages_named DESC, bot, pages_03 DESC, directive;

-- Question: which directives do pages give, by source (meta tag, X-Robots-Tag, Robots-Tag) and
--           by the agent they address (* for all, else the product token)?
-- Pages: responses with a 2xx status (what a crawler could index), as in every signals_* query.
-- Reads summary_page_directives (derived per crawl from page_signals).
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_directive_frequency.sql"
-- Columns:
--   crawl       crawl name
--   source      meta, x_robots_tag, robots_tag
--   agent       * or the product token (lower case)
--   directive   normalized directive (noindex, max-snippet, noai, ..., unknown)
--   responses   distinct 2xx responses giving it
--   hosts       distinct hosts giving it
SELECT crawl, source, agent, directive, responses, hosts
FROM read_parquet('summary_page_directives/*/*.parquet', hive_partitioning = true)
WHERE source IN ('meta', 'x_robots_tag', 'robots_tag') AND directive IS NOT NULL
  AND directive NOT LIKE 'tdm-%' AND status_class = '2xx'
ORDER BY crawl, responses DESC, source, agent, directive;

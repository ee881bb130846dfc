-- Question: which directives do pages give, by source (meta tag, X-Robots-Tag, Robots-Tag) and
--           by the agent they address (* for all, else the product token)?
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_directive_frequency.sql"
-- Columns:
--   source      meta, x_robots_tag, robots_tag
--   agent       * or the product token (lower case)
--   directive   normalized directive (noindex, max-snippet, noai, ..., unknown)
--   responses   distinct responses giving it
--   hosts       distinct hosts giving it
SELECT
    source,
    agent,
    directive,
    count(DISTINCT (warc_file, warc_offset)) AS responses,
    count(DISTINCT host) AS hosts
FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)
WHERE source IN ('meta', 'x_robots_tag', 'robots_tag') AND directive IS NOT NULL
  AND directive NOT LIKE 'tdm-%'
GROUP BY source, agent, directive
ORDER BY responses DESC, source, agent, directive;

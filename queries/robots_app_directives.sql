-- Question: which applications and directives do App-Directives lines (plan-b draft) name, with
--           which values, and how many such lines are not valid Structured Fields?
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset; a revisit is read as the capture it stands for); lines of earlier
-- captures are not counted.
-- Reads summary_app_directives (derived per crawl with robots_hosts; it keeps the 10,000
-- directives most hosts write per crawl).
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_app_directives.sql"
-- Columns:
--   crawl         crawl name
--   app_id        application token (NULL when the line did not parse)
--   directive     directive (parameter) name; NULL for an application named without directives
--   value         directive value as text (booleans true/false)
--   value_type    Structured Fields type (boolean, integer, decimal, string, token, ...)
--   problem       NULL, or invalid_structured_field, member_not_token, inner_list, no_directives
--   spelling      App-Directives or App-Directive as written (lowercased)
--   directives    rows (directive occurrences)
--   hosts         distinct hosts
SELECT crawl, app_id, directive, value, value_type, problem, spelling, directives, hosts
FROM read_parquet('summary_app_directives/*/*.parquet', hive_partitioning = true)
WHERE hosts > 0
ORDER BY crawl, hosts DESC, app_id NULLS LAST, directive NULLS FIRST, value, spelling;

-- Question: which applications and directives do App-Directives lines (plan-b draft) name, with
--           which values, and how many such lines are not valid Structured Fields?
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_app_directives.sql"
-- Columns:
--   app_id        application token (NULL when the line did not parse)
--   directive     directive (parameter) name; NULL for an application named without directives
--   value         directive value as text (booleans true/false)
--   value_type    Structured Fields type (boolean, integer, decimal, string, token, ...)
--   problem       NULL, or invalid_structured_field, member_not_token, inner_list, no_directives
--   spelling      App-Directives or App-Directive as written (lowercased)
--   directives    rows (directive occurrences)
--   hosts         distinct hosts
SELECT
    app_id,
    directive,
    value,
    value_type,
    problem,
    lower(key_raw) AS spelling,
    count(*) AS directives,
    count(DISTINCT host) AS hosts
FROM read_parquet('app_directives/*/*.parquet', hive_partitioning = true)
GROUP BY ALL
ORDER BY hosts DESC, app_id NULLS LAST, directive NULLS FIRST, value, spelling;

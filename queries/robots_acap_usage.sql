-- Question: what do sites still say in ACAP (the 2007 Automated Content Access Protocol fields of
--           robots.txt)? Which usages they allow or prohibit, to which crawlers, and how often the
--           fields break the ACAP strawman's vocabulary or ordering rules.
-- Each host counts once, by its latest robots.txt capture in the crawl (ties: later warc_file,
-- then later offset; a revisit is read as the capture it stands for); lines of earlier
-- captures are not counted.
-- Reads summary_acap_fields (derived per crawl with robots_hosts; it keeps the 10,000 kinds
-- of field most hosts write per crawl).
-- Run from the scan's output folder: duckdb -c ".read ../queries/robots_acap_usage.sql"
-- Columns:
--   crawl          crawl name
--   field          allow, disallow, request, crawler, usage_purpose, permissions_reference,
--                  qualified_usage, composite_usage, resource_set, ignore_conventional_records, version
--   usage          usage verb (crawl, follow, index, preserve, present, other; or an unknown one), or the
--                  action of a request; for version, the version number
--   resource_type  used resource type of present-<type> (snippet, thumbnail, ...)
--   addressed_to   'any crawler' when the record names '*', 'named crawlers' otherwise, NULL outside records
--   fields         ACAP fields
--   hosts          distinct hosts
--   with_problems  fields with at least one problem (unknown_usage, bad_order, ...)
SELECT crawl, field, usage, resource_type, addressed_to, fields, hosts, with_problems
FROM read_parquet('summary_acap_fields/*/*.parquet', hive_partitioning = true)
WHERE hosts > 0
ORDER BY crawl, hosts DESC, fields DESC, field, usage NULLS LAST, addressed_to NULLS LAST;

-- View: agent_verdicts, one row per robots.txt capture and tracked agent, made from the
-- tables a scan writes by default. A scan writes the table itself only on request
-- (`scan --tables default,agent_verdicts`): its 215 rows per capture hold nothing that
-- agent_verdict_runs (the verdict columns, one row per run of agents that share them),
-- robots_files (the capture's provenance) and summary_agents (the registry's agents, their
-- category and operator, and which ones do not honour robots.txt) do not.
-- Same columns, same rows as the table (tests/answers/views.rs compares them); docs/schema.md,
-- `agent_verdicts`, says what each column means.
-- Needs the crawl's summaries: a scan writes them at its end; after `scan --shard`, run
-- `repcensus hosts` first. A crawl scanned without robots_files has no rows here.
-- Run from the scan's output folder, before a query that reads agent_verdicts:
--   duckdb -c ".read ../queries/views/agent_verdicts.sql" -c "SELECT ... FROM agent_verdicts"
-- A question about a few agents reads the runs of those agents only:
--   SELECT host FROM agent_verdicts WHERE agent = 'GPTBot' AND verdict = 'full_block'
CREATE OR REPLACE VIEW agent_verdicts AS
WITH registry AS (
    SELECT crawl, agent_index, any_value(agent) AS agent,
        any_value(agent_category) AS agent_category, any_value(operator) AS operator,
        bool_or(verdict_documented_source = 'not_honored') AS not_honored
    FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
    GROUP BY crawl, agent_index
)
SELECT
    r.crawl, f.warc_file, f.warc_offset, f.host, f.registered_domain, f.capture_time, f.http_status,
    f.fetch_outcome, a.agent, a.agent_category, a.operator,
    r.named, r.named_exact, r.verdict_source, r.root_allowed, r.verdict, r.verdict_rfc9309,
    CASE WHEN a.not_honored THEN 'not_honored' ELSE r.verdict_documented END
        AS verdict_documented,
    CASE WHEN a.not_honored THEN 'not_honored' ELSE r.verdict_documented_source END
        AS verdict_documented_source,
    r.n_applicable_rules, r.crawl_delay, r.app_directives, r.content_usage
FROM read_parquet('agent_verdict_runs/*/*.parquet', hive_partitioning = true) r
JOIN registry a
    ON a.crawl = r.crawl
    AND a.agent_index >= r.agent_index AND a.agent_index < r.agent_index + r.agents
JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) f
    ON f.crawl = r.crawl AND f.warc_file = r.warc_file AND f.warc_offset = r.warc_offset;

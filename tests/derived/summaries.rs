//! The summaries equal what the detail tables give: `summary_agents` and `summary_agent_groups`
//! row for row against the join of `robots_hosts` with `agent_verdicts` the bundled queries
//! made before they existed
//! (through the DuckDB CLI), after a full scan, after shards and `repcensus hosts`, and after
//! `--resume`; on the samples and on a generated archive of each kind.

use crate::common;

use common::{assert_ok, bin, duck, repo, scan, table_rows};
use std::path::Path;

/// `summary_agents` computed from the detail tables: each host of `robots_hosts` once per agent
/// (its row that counts for it, with the captures of all its sites),
/// by the `agent_verdicts` rows of its governing capture, with the `*` reading of
/// `agents_singled_out.sql`.
const FROM_DETAIL: &str = "
WITH latest AS (
    SELECT h.crawl, h.host, h.resolution, v.* EXCLUDE (host, registered_domain, crawl),
        coalesce(r.wildcard_split OR r.wildcard_with_ai, false) AS flagged
    FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
    JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) r
        ON r.crawl = h.crawl AND r.warc_file = h.effective_warc_file
        AND r.warc_offset = h.effective_warc_offset
), ranked AS (
    SELECT *,
        CASE verdict WHEN 'full_block' THEN 2 WHEN 'partial_block' THEN 1 ELSE 0 END AS strictness,
        fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary') AS is_2xx
    FROM latest
), star AS (
    SELECT crawl, host, max(strictness) AS s FROM ranked
    WHERE verdict_source IN ('wildcard', 'none') AND is_2xx GROUP BY ALL
)
SELECT r.crawl, agent, agent_category, operator, fetch_outcome, resolution, verdict,
    verdict_rfc9309, verdict_documented, verdict_source, verdict_documented_source, named,
    named_exact, root_allowed,
    CASE WHEN s.s IS NULL THEN NULL ELSE (verdict_source = 'specific' AND strictness > s.s) END
        AS singled_out,
    count(*) AS hosts, count(*) FILTER (flagged) AS hosts_wildcard_flagged
FROM ranked r LEFT JOIN star s USING (crawl, host) GROUP BY ALL";

/// `summary_agent_groups` computed from the detail tables: each host once per group of agents.
const GROUPS_FROM_DETAIL: &str = r"WITH latest AS (
    SELECT h.crawl, h.host, h.resolution, v.* EXCLUDE (host, registered_domain, crawl)
    FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset
), grouped AS (
    SELECT *, 'operator' AS agent_group, agent_category AS g_category, operator AS g_operator FROM latest
    UNION ALL SELECT *, 'category', agent_category, NULL FROM latest
    UNION ALL SELECT *, 'ai', NULL, NULL FROM latest WHERE agent_category LIKE 'ai\_%' ESCAPE '\'
    UNION ALL SELECT *, 'all', NULL, NULL FROM latest
), star AS (
    SELECT crawl, host, arg_max(verdict, CASE verdict WHEN 'full_block' THEN 2
        WHEN 'partial_block' THEN 1 ELSE 0 END) AS star_verdict
    FROM latest
    WHERE verdict_source IN ('wildcard', 'none')
        AND fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
    GROUP BY ALL
), per_host AS (
    SELECT crawl, host, agent_group, g_category, g_operator,
        any_value(fetch_outcome) AS fetch_outcome, any_value(resolution) AS resolution,
        any_value(star_verdict) AS star_verdict,
        count(DISTINCT agent)::INT AS agents,
        count(*) FILTER (verdict = 'full_block') AS blocked,
        count(*) FILTER (verdict = 'full_block' AND verdict_source = 'specific') AS by_name,
        coalesce(bool_or(named_exact), false) AS names_exact,
        coalesce(bool_or(named), false) AS names_token
    FROM grouped LEFT JOIN star USING (crawl, host)
    GROUP BY crawl, host, agent_group, g_category, g_operator
), detail AS (
    SELECT crawl, agent_group, g_category, g_operator, agents, fetch_outcome, resolution,
        star_verdict,
        blocked > 0, CASE WHEN blocked > 0 THEN blocked = by_name END, names_exact, names_token,
        count(*) AS hosts
    FROM per_host GROUP BY ALL
)
SELECT * FROM detail";

/// Each host of `robots_hosts` with the verdicts of its governing capture.
const GOVERNED: &str = "
    SELECT h.crawl, h.host, h.registered_domain AS domain, h.resolution,
        v.* EXCLUDE (host, registered_domain, crawl)
    FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
    JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
        ON v.crawl = h.crawl AND v.warc_file = h.effective_warc_file
        AND v.warc_offset = h.effective_warc_offset";

/// `summary_agent_pairs` computed from the detail tables: every ai_training agent with each
/// agent of its operator in another category and with Googlebot and bingbot.
fn pairs_from_detail() -> String {
    format!(
        "WITH latest AS ({GOVERNED}),
        agents AS (SELECT DISTINCT agent, agent_category, operator FROM latest),
        pairs AS (
            SELECT a.agent AS first, b.agent AS other FROM agents a JOIN agents b
            ON a.agent_category = 'ai_training' AND b.agent_category <> 'ai_training'
                AND (b.operator = a.operator OR b.agent IN ('Googlebot', 'bingbot'))
        )
        SELECT x.crawl, x.agent, y.agent AS other_agent, x.fetch_outcome, x.resolution,
            x.verdict, y.verdict AS other_verdict, y.root_allowed AS other_root_allowed,
            count(*) AS hosts
        FROM pairs p JOIN latest x ON x.agent = p.first
        JOIN latest y ON y.agent = p.other AND y.crawl = x.crawl AND y.host = x.host
        GROUP BY ALL"
    )
}

/// `summary_agent_domains` computed from the detail tables, as
/// `agents_full_block_share_by_domain.sql` once was.
fn domains_from_detail() -> String {
    format!(
        "WITH latest AS ({GOVERNED}), domains AS (
            SELECT crawl, coalesce(domain, host) AS d, agent,
                any_value(agent_category) AS agent_category, any_value(operator) AS operator,
                bool_and(verdict = 'full_block') AS all_block,
                bool_or(verdict = 'full_block') AS some_block
            FROM latest
            WHERE fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
            GROUP BY crawl, d, agent
        )
        SELECT crawl, agent, agent_category, operator, all_block, some_block, count(*) AS domains
        FROM domains GROUP BY ALL"
    )
}

/// `summary_agent_content_usage` computed from the detail tables, as
/// `agents_content_usage.sql` once was: each host whose governing capture is a 2xx, once per
/// agent its runs give a `content_usage`.
const CONTENT_USAGE_FROM_DETAIL: &str = "
    SELECT h.crawl, a.agent, a.agent_index, a.agent_category, a.operator, r.content_usage,
        count(*) AS hosts
    FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
    JOIN read_parquet('agent_verdict_runs/*/*.parquet', hive_partitioning = true) r
        ON r.crawl = h.crawl AND r.warc_file = h.effective_warc_file
        AND r.warc_offset = h.effective_warc_offset
    JOIN (SELECT DISTINCT crawl, agent, agent_index, agent_category, operator
          FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)) a
        ON a.crawl = r.crawl
        AND a.agent_index >= r.agent_index AND a.agent_index < r.agent_index + r.agents
    WHERE r.content_usage IS NOT NULL
        AND h.effective_fetch_outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')
    GROUP BY ALL";

/// Each host's `block_set` (through `summary_block_sets`) computed from the detail tables: the
/// agents its governing capture fully blocks, in registry order; and the hosts of each set.
const BLOCK_SETS_FROM_DETAIL: &str = "
    WITH blocked AS (
        SELECT h.crawl, h.host, h.effective_fetch_outcome AS outcome,
            coalesce(list(v.agent ORDER BY s.agent_index) FILTER (v.verdict = 'full_block'), [])
                AS agents
        FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
        JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
            ON v.crawl = h.crawl AND v.warc_file = h.effective_warc_file
            AND v.warc_offset = h.effective_warc_offset
        JOIN (SELECT DISTINCT crawl, agent, agent_index
              FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)) s
            ON s.crawl = v.crawl AND s.agent = v.agent
        GROUP BY ALL
    )
    SELECT crawl, agents, len(agents)::INT AS agent_count, count(*) AS hosts,
        count(*) FILTER (outcome IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary'))
            AS hosts_2xx
    FROM blocked GROUP BY ALL";

/// The same sets read through `robots_hosts.block_set`: every host's set is a row of
/// `summary_block_sets`, which counts the hosts naming it.
const BLOCK_SETS_OF_HOSTS: &str = "
    SELECT h.crawl, s.agents, s.agent_count, count(*) AS hosts,
        count(*) FILTER (h.effective_fetch_outcome
            IN ('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')) AS hosts_2xx
    FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
    JOIN read_parquet('summary_block_sets/*/*.parquet', hive_partitioning = true) s
        ON s.crawl = h.crawl AND s.block_set = h.block_set
    GROUP BY ALL";

/// `summary_agent_pairs`, `summary_agent_domains` and `summary_agent_content_usage` under `out`
/// equal what the detail gives.
fn assert_pairs_and_domains_equal_detail(out: &Path) {
    let read = |t: &str, cols: &str| {
        format!(
            "SELECT crawl, {cols} FROM read_parquet('{t}/*/*.parquet', hive_partitioning = true)"
        )
    };
    for (table, detail, summary) in [
        (
            "summary_agent_pairs",
            pairs_from_detail(),
            read(
                "summary_agent_pairs",
                "agent, other_agent, fetch_outcome, resolution, verdict, other_verdict, \
                 other_root_allowed, hosts",
            ),
        ),
        (
            "summary_agent_domains",
            domains_from_detail(),
            read(
                "summary_agent_domains",
                "agent, agent_category, operator, all_hosts_block, some_host_blocks, domains",
            ),
        ),
        (
            "summary_agent_content_usage",
            CONTENT_USAGE_FROM_DETAIL.to_string(),
            read(
                "summary_agent_content_usage",
                "agent, agent_index, agent_category, operator, content_usage, hosts",
            ),
        ),
        (
            "summary_block_sets (hosts)",
            BLOCK_SETS_FROM_DETAIL.to_string(),
            BLOCK_SETS_OF_HOSTS.to_string(),
        ),
        (
            "summary_block_sets",
            BLOCK_SETS_FROM_DETAIL.to_string(),
            // A set only the other readings name has no host of its own.
            read(
                "summary_block_sets",
                "agents, agent_count, hosts, hosts_2xx",
            ) + " WHERE hosts > 0",
        ),
    ] {
        assert_same_rows(out, table, &detail, &summary);
    }
    for (column, holds) in SET_READINGS {
        assert_same_rows(
            out,
            column,
            &host_sets_from_detail(holds),
            &host_sets_of_hosts(column),
        );
    }
}

/// Each set column of `robots_hosts` but `block_set`, with the condition on an
/// `agent_verdicts` row that puts its agent in the set (`derive::block_sets::SetKind`).
const SET_READINGS: [(&str, &str); 4] = [
    (
        "full_block_by_name_set",
        "v.verdict = 'full_block' AND v.verdict_source = 'specific'",
    ),
    (
        "own_group_root_set",
        "v.verdict_source = 'specific' AND NOT v.root_allowed",
    ),
    ("named_set", "v.named"),
    (
        "rfc9309_root_set",
        "v.verdict_rfc9309 = 'full_block' \
         OR (v.verdict_rfc9309 = 'partial_block' AND NOT v.root_allowed)",
    ),
];

/// Each host's agents for which `holds`, from the detail, in registry order.
fn host_sets_from_detail(holds: &str) -> String {
    format!(
        "SELECT h.crawl, h.host,
            coalesce(list(v.agent ORDER BY s.agent_index) FILTER ({holds}), []) AS agents
         FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
         JOIN read_parquet('agent_verdicts/*/*.parquet', hive_partitioning = true) v
             ON v.crawl = h.crawl AND v.warc_file = h.effective_warc_file
             AND v.warc_offset = h.effective_warc_offset
         JOIN (SELECT DISTINCT crawl, agent, agent_index
               FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)) s
             ON s.crawl = v.crawl AND s.agent = v.agent
         GROUP BY ALL"
    )
}

/// Each host's agents read through its `column` and `summary_block_sets`.
fn host_sets_of_hosts(column: &str) -> String {
    format!(
        "SELECT h.crawl, h.host, s.agents
         FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
         JOIN read_parquet('summary_block_sets/*/*.parquet', hive_partitioning = true) s
             ON s.crawl = h.crawl AND s.block_set = h.{column}"
    )
}

const GROUPS: &str = "
SELECT crawl, agent_group, agent_category, operator, agents, fetch_outcome, resolution,
    star_verdict, blocks_any, blocked_by_name_only, names_exact, names_token, hosts
FROM read_parquet('summary_agent_groups/*/*.parquet', hive_partitioning = true)";

const SUMMARY: &str = "
SELECT crawl, agent, agent_category, operator, fetch_outcome, resolution, verdict,
    verdict_rfc9309, verdict_documented, verdict_source, verdict_documented_source, named,
    named_exact, root_allowed, singled_out, hosts, hosts_wildcard_flagged
FROM read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)";

/// Every line of `robots_agents` and `robots_rules`, marked when its capture is its host's
/// file: its latest (the capture `robots_hosts` names), or the capture that one stands for
/// when it is a revisit.
const LINES: &str = "
WITH lines AS (
    SELECT crawl, warc_file, warc_offset, line_kind AS key, key_form, separator, key_raw,
        agent, line_kind
    FROM read_parquet('robots_agents/*/*.parquet', hive_partitioning = true)
    UNION ALL
    SELECT crawl, warc_file, warc_offset, key, key_form, separator, key_raw, NULL, NULL
    FROM read_parquet('robots_rules/*/*.parquet', hive_partitioning = true)
)
SELECT l.*, h.host IS NOT NULL AS latest, h.host AS file_host
FROM lines l LEFT JOIN (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
    ON h.crawl = l.crawl AND coalesce(h.revisited_warc_file, h.warc_file) = l.warc_file
        AND coalesce(h.revisited_warc_offset, h.warc_offset) = l.warc_offset";

/// The `Content-Signal` and `Content-Usage` lines of `robots_rules`, marked as [`LINES`] are.
const SIGNAL_LINES: &str = "
SELECT r.crawl, r.warc_file, r.warc_offset, r.key, r.value, h.host IS NOT NULL AS latest, h.host AS file_host
FROM read_parquet('robots_rules/*/*.parquet', hive_partitioning = true) r
LEFT JOIN (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
    ON h.crawl = r.crawl AND coalesce(h.revisited_warc_file, h.warc_file) = r.warc_file
        AND coalesce(h.revisited_warc_offset, h.warc_offset) = r.warc_offset
WHERE r.key IN ('content_signal', 'content_usage') AND r.value IS NOT NULL";

/// Every row of `table`, marked when its capture is its host's file (as in [`LINES`]).
fn marked(table: &str) -> String {
    format!(
        "SELECT t.*, h.host IS NOT NULL AS latest, h.host AS file_host
         FROM read_parquet('{table}/*/*.parquet', hive_partitioning = true) t
         LEFT JOIN (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
            ON h.crawl = t.crawl AND coalesce(h.revisited_warc_file, h.warc_file) = t.warc_file
                AND coalesce(h.revisited_warc_offset, h.warc_offset) = t.warc_offset"
    )
}

/// How lines, hosts and captures are counted from [`LINES`].
const USE: &str = "count(*) FILTER (latest) AS lines,
    count(DISTINCT file_host) FILTER (latest) AS hosts,
    count(DISTINCT (warc_file, warc_offset)) AS captures";

/// `page_signals` with each row's status class.
const SIGNALS: &str = "
SELECT *, CASE WHEN http_status BETWEEN 200 AND 299 THEN '2xx'
    WHEN http_status BETWEEN 300 AND 399 THEN '3xx' WHEN http_status BETWEEN 400 AND 499 THEN '4xx'
    WHEN http_status BETWEEN 500 AND 599 THEN '5xx' ELSE 'other' END AS status_class
FROM read_parquet('page_signals/*/*.parquet', hive_partitioning = true)";

/// Each page summary and the query that gives it from `page_signals`.
fn pages_from_detail() -> Vec<(&'static str, String, String)> {
    let read = |t: &str, cols: &str| {
        format!(
            "SELECT crawl, {cols} FROM read_parquet('{t}/*/*.parquet', hive_partitioning = true)"
        )
    };
    let responses = "count(DISTINCT (warc_file, warc_offset)) AS responses, \
                     count(DISTINCT host) AS hosts";
    vec![
        (
            "summary_page_directives",
            format!(
                "SELECT crawl, source, agent, directive, status_class, count(*) AS signals,
                    {responses} FROM ({SIGNALS}) GROUP BY ALL"
            ),
            read(
                "summary_page_directives",
                "source, agent, directive, status_class, signals, responses, hosts",
            ),
        ),
        (
            "summary_page_headers",
            format!(
                "SELECT crawl, source, syntax, status_class,
                    count(DISTINCT (warc_file, warc_offset, signal_index)) AS headers, {responses}
                 FROM ({SIGNALS}) WHERE source IN ('x_robots_tag', 'robots_tag') GROUP BY ALL"
            ),
            read(
                "summary_page_headers",
                "source, syntax, status_class, headers, responses, hosts",
            ),
        ),
        (
            "summary_page_header_types",
            format!(
                "WITH h AS (SELECT * FROM ({SIGNALS}) WHERE source IN ('x_robots_tag', 'robots_tag')),
                 counted AS (
                    SELECT crawl, content_type, status_class, {responses},
                        list_sort(list(DISTINCT directive) FILTER (WHERE directive IS NOT NULL))
                            AS directives
                    FROM h GROUP BY ALL
                 ), tops AS (
                    SELECT crawl, content_type, status_class, directive AS top_directive
                    FROM (SELECT crawl, content_type, status_class, directive, count(*) AS n
                          FROM h WHERE directive IS NOT NULL GROUP BY ALL)
                    QUALIFY row_number() OVER (PARTITION BY crawl, content_type, status_class
                        ORDER BY n DESC, directive) = 1
                 )
                 SELECT crawl, content_type, status_class, responses, hosts, top_directive,
                    directives
                 FROM counted LEFT JOIN tops USING (crawl, content_type, status_class)"
            ),
            read(
                "summary_page_header_types",
                "content_type, status_class, responses, hosts, top_directive, directives",
            ),
        ),
        (
            "summary_page_conflicts",
            format!(
                "WITH s AS (
                    SELECT *, CASE WHEN source = 'meta' THEN 'meta' ELSE 'header' END AS side
                    FROM ({SIGNALS})
                    WHERE source IN ('meta', 'x_robots_tag', 'robots_tag')
                        AND coalesce(in_head, true) AND directive IS NOT NULL
                 ), opposite(a, b) AS (
                    VALUES ('index', 'noindex'), ('follow', 'nofollow'), ('archive', 'noarchive'),
                        ('snippet', 'nosnippet'), ('all', 'noindex'), ('all', 'nofollow'),
                        ('all', 'none'), ('imageindex', 'noimageindex')
                 )
                 SELECT h.crawl, h.agent, h.directive AS header_directive,
                    m.directive AS meta_directive, h.status_class,
                    count(DISTINCT (h.warc_file, h.warc_offset)) AS responses,
                    count(DISTINCT h.host) AS hosts
                 FROM s h
                 JOIN s m ON h.crawl = m.crawl AND h.warc_file = m.warc_file
                    AND h.warc_offset = m.warc_offset AND h.agent = m.agent
                 JOIN opposite o ON (h.directive = o.a AND m.directive = o.b)
                    OR (h.directive = o.b AND m.directive = o.a)
                 WHERE h.side = 'header' AND m.side = 'meta'
                 GROUP BY ALL"
            ),
            read(
                "summary_page_conflicts",
                "agent, header_directive, meta_directive, status_class, responses, hosts",
            ),
        ),
    ]
}

/// The page summaries.
const PAGE_SUMMARIES: [&str; 4] = [
    "summary_page_directives",
    "summary_page_headers",
    "summary_page_header_types",
    "summary_page_conflicts",
];

/// The summaries derived from `agent_verdict_runs`.
const AGENT_SUMMARIES: [&str; 6] = [
    "summary_agents",
    "summary_agent_groups",
    "summary_agent_pairs",
    "summary_agent_domains",
    "summary_agent_content_usage",
    "summary_block_sets",
];

/// The summaries of robots.txt lines.
const LINE_SUMMARIES: [&str; 8] = [
    "summary_robots_hosts",
    "summary_robots_outcomes",
    "summary_robots_keys",
    "summary_robots_key_forms",
    "summary_robots_agents",
    "summary_content_signals",
    "summary_app_directives",
    "summary_acap_fields",
];

/// Each summary of robots.txt lines and the query that gives it from the detail.
fn lines_from_detail() -> Vec<(&'static str, String, String)> {
    let read = |t: &str, cols: &str| {
        format!(
            "SELECT crawl, {cols} FROM read_parquet('{t}/*/*.parquet', hive_partitioning = true)"
        )
    };
    vec![
        (
            "summary_robots_hosts",
            "SELECT h.crawl, h.fetch_outcome, resolution, revisit, effective_fetch_outcome,
                revisited_fetch_outcome, count(*) AS hosts, sum(captures)::BIGINT AS captures,
                count(*) FILTER (r.wildcard_split) AS hosts_wildcard_split,
                count(*) FILTER (r.wildcard_with_ai) AS hosts_wildcard_with_ai,
                count(*) FILTER (r.group_split = 'blank') AS hosts_split_blank,
                count(*) FILTER (r.group_split = 'comment') AS hosts_split_comment,
                count(*) FILTER (r.group_split = 'sitemap') AS hosts_split_sitemap,
                count(*) FILTER (r.group_split = 'crawl_delay') AS hosts_split_crawl_delay,
                count(*) FILTER (r.group_split = 'other') AS hosts_split_other,
                count(*) FILTER (r.cloudflare_managed) AS hosts_cloudflare_managed,
                count(*) FILTER (r.cloudflare_contradicted) AS hosts_cloudflare_contradicted
             FROM (SELECT * REPLACE (sum(captures) OVER (PARTITION BY crawl, host) AS captures) FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true) QUALIFY counts_for_host) h
             LEFT JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) r
                ON r.crawl = h.crawl AND r.warc_file = h.effective_warc_file
                AND r.warc_offset = h.effective_warc_offset
             GROUP BY ALL"
                .to_string(),
            read(
                "summary_robots_hosts",
                "fetch_outcome, resolution, revisit, effective_fetch_outcome, \
                 revisited_fetch_outcome, hosts, captures, hosts_wildcard_split, \
                 hosts_wildcard_with_ai, hosts_split_blank, hosts_split_comment, \
                 hosts_split_sitemap, hosts_split_crawl_delay, hosts_split_other, \
                 hosts_cloudflare_managed, hosts_cloudflare_contradicted",
            ),
        ),
        (
            "summary_robots_outcomes",
            "SELECT crawl, fetch_outcome, count(*) AS captures, count(DISTINCT host) AS hosts,
                min(capture_time) AS first_capture, max(capture_time) AS last_capture
             FROM read_parquet('robots_files/*/*.parquet', hive_partitioning = true)
             WHERE host IS NOT NULL GROUP BY ALL"
                .to_string(),
            read(
                "summary_robots_outcomes",
                "fetch_outcome, captures, hosts, first_capture, last_capture",
            ),
        ),
        (
            "summary_robots_keys",
            format!("SELECT crawl, key, {USE} FROM ({LINES}) GROUP BY ALL"),
            read("summary_robots_keys", "key, lines, hosts, captures"),
        ),
        (
            "summary_robots_key_forms",
            format!(
                "WITH l AS ({LINES}), forms AS (
                    SELECT crawl, key, key_form, separator, {USE} FROM l GROUP BY ALL
                 ), spelled AS (
                    SELECT crawl, key, key_form, separator, key_raw,
                        count(*) FILTER (latest) AS latest_lines, count(*) AS all_lines
                    FROM l WHERE key NOT IN ('unknown', 'invalid') AND key_raw IS NOT NULL
                    GROUP BY ALL
                 ), best AS (
                    SELECT crawl, key, key_form, separator, key_raw,
                        (count(*) OVER (PARTITION BY crawl, key, key_form, separator))::INT
                            AS spellings
                    FROM spelled
                    QUALIFY row_number() OVER (
                        PARTITION BY crawl, key, key_form, separator
                        ORDER BY latest_lines > 0 DESC, latest_lines DESC,
                            CASE WHEN latest_lines = 0 THEN all_lines END DESC, key_raw) = 1
                 )
                 SELECT crawl, key, key_form, separator, key_raw, spellings, lines, hosts,
                    captures
                 FROM forms LEFT JOIN best USING (crawl, key, key_form, separator)"
            ),
            read(
                "summary_robots_key_forms",
                "key, key_form, separator, key_raw, spellings, lines, hosts, captures",
            ),
        ),
        (
            "summary_content_signals",
            format!(
                "WITH r AS (
                    SELECT crawl, warc_file, warc_offset, key, latest, file_host,
                        unnest(string_split(value, ',')) AS raw_pair
                    FROM ({SIGNAL_LINES})
                 ), p AS (
                    -- Content-Usage members as written (a Structured Field), Content-Signal
                    -- pairs lowercased.
                    SELECT *, CASE key WHEN 'content_usage' THEN trim(raw_pair)
                        ELSE trim(lower(raw_pair)) END AS pair
                    FROM r
                 )
                 SELECT crawl, key,
                    CASE key WHEN 'content_usage' THEN trim(regexp_extract(pair, '^[^=;]*'))
                        ELSE trim(split_part(pair, '=', 1)) END AS signal,
                    CASE WHEN key = 'content_usage' AND regexp_matches(pair, '^[^=;]*=')
                            THEN trim(substr(pair, strpos(pair, '=') + 1))
                        WHEN key <> 'content_usage' AND contains(pair, '=')
                            THEN trim(split_part(pair, '=', 2)) END AS value,
                    {USE}
                 FROM p WHERE pair <> '' GROUP BY ALL"
            ),
            read(
                "summary_content_signals",
                "key, signal, value, lines, hosts, captures",
            ),
        ),
        (
            "summary_app_directives",
            format!(
                "SELECT crawl, app_id, directive, value, value_type, problem,
                    lower(key_raw) AS spelling, {USE}
                 FROM ({}) GROUP BY ALL",
                marked("app_directives")
            ),
            read(
                "summary_app_directives",
                "app_id, directive, value, value_type, problem, spelling, directives AS lines, \
                 hosts, captures",
            ),
        ),
        (
            "summary_acap_fields",
            format!(
                "SELECT crawl, field,
                    CASE WHEN field = 'version' THEN resource ELSE usage END AS usage,
                    resource_type,
                    CASE WHEN crawlers IS NULL THEN NULL
                        WHEN list_contains(crawlers, '*') THEN 'any crawler'
                        ELSE 'named crawlers' END AS addressed_to,
                    {USE}, count(*) FILTER (latest AND len(problems) > 0) AS with_problems
                 FROM ({}) GROUP BY ALL",
                marked("acap_fields")
            ),
            read(
                "summary_acap_fields",
                "field, usage, resource_type, addressed_to, fields AS lines, hosts, captures, \
                 with_problems",
            ),
        ),
        (
            "summary_robots_agents",
            format!(
                "SELECT crawl, line_kind, agent, {USE} FROM ({LINES})
                 WHERE line_kind IS NOT NULL AND agent <> '' GROUP BY ALL"
            ),
            read(
                "summary_robots_agents",
                "line_kind, agent, lines, hosts, captures",
            ),
        ),
    ]
}

/// The summaries of robots.txt lines under `out` equal what the detail gives, and are not
/// empty.
fn assert_lines_equal_detail(out: &Path) {
    for (table, detail, summary) in lines_from_detail().into_iter().chain(pages_from_detail()) {
        assert_same_rows(out, table, &detail, &summary);
    }
}

/// The summary table's rows (`summary`) are the detail's (`detail`), and there are some.
fn assert_same_rows(out: &Path, table: &str, detail: &str, summary: &str) {
    let only = |a: &str, b: &str| {
        common::duck_value(
            out,
            &format!("SELECT count(*) FROM (({a}) EXCEPT ALL ({b}))"),
        )
    };
    let rows = common::duck_value(out, &format!("SELECT count(*) FROM ({summary})"));
    assert_eq!(
        (only(detail, summary), only(summary, detail)),
        ("0".to_string(), "0".to_string()),
        "{table}: {rows} rows"
    );
}

/// Rows of the detail's summary missing from the summary table, rows of it the detail does not
/// give, and the rows and hosts of the summary table.
fn compare(out: &Path, detail: &str, summary: &str) -> (String, String, String) {
    let only = |a: &str, b: &str| {
        common::duck_value(
            out,
            &format!("SELECT count(*) FROM (({a}) EXCEPT ALL ({b}))"),
        )
    };
    (
        only(detail, summary),
        only(summary, detail),
        common::duck_value(
            out,
            &format!("SELECT count(*) || ' rows, ' || sum(hosts) || ' hosts' FROM ({summary})"),
        ),
    )
}

/// `summary_agents` and `summary_agent_groups` under `out` equal what the detail gives, and
/// are not empty.
fn assert_summary_equals_detail(out: &Path) {
    let (missing, extra, size) = compare(out, FROM_DETAIL, SUMMARY);
    assert_eq!((missing.as_str(), extra.as_str()), ("0", "0"), "{size}");
    assert!(!size.starts_with("0 rows"), "{size}");
    let (missing, extra, size) = compare(out, GROUPS_FROM_DETAIL, GROUPS);
    assert_eq!(
        (missing.as_str(), extra.as_str()),
        ("0", "0"),
        "groups: {size}"
    );
    assert!(!size.starts_with("0 rows"), "groups: {size}");
    assert_pairs_and_domains_equal_detail(out);
    assert_lines_equal_detail(out);
}

/// Scan `inputs` into `out`: every table (the summaries are compared with the
/// `agent_verdicts` table itself, not the view made from the runs), unless `extra` chooses.
fn scan_into(out: &Path, inputs: &[&str], extra: &[&str]) {
    let mut args: Vec<&str> = inputs.to_vec();
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    if !extra.contains(&"--tables") {
        args.extend_from_slice(&["--tables", "all"]);
    }
    let (code, err) = scan(&args);
    assert!(code == 0, "exit {code}: {err}");
}

fn hosts(args: &[&str]) -> std::process::Output {
    bin()
        .current_dir(repo())
        .arg("hosts")
        .args(args)
        .output()
        .unwrap()
}

fn samples() -> String {
    repo().join("samples").to_str().unwrap().to_string()
}

#[test]
fn summary_agents_equals_the_detail_on_the_samples() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    scan_into(&out, &[&samples()], &[]);
    assert_summary_equals_detail(&out);
    // Every crawl with robots.txt captures has its summary, with every agent of the registry.
    let crawls = duck(
        &out,
        "SELECT crawl, count(DISTINCT agent) FROM read_parquet('summary_agents/*/*.parquet', \
         hive_partitioning = true) GROUP BY crawl ORDER BY crawl",
    );
    assert!(crawls.lines().count() >= 6, "{crawls}");
    // The samples hold rows of every summary, so none of the comparisons above is empty.
    for table in AGENT_SUMMARIES
        .into_iter()
        .chain(LINE_SUMMARIES)
        .chain(PAGE_SUMMARIES)
    {
        assert!(!table_rows(&out, table, &[]).is_empty(), "{table}");
    }
    let agents = bin().args(["agents", "--format", "csv"]).output().unwrap();
    let registry = String::from_utf8_lossy(&agents.stdout)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .count()
        - 1;
    for line in crawls.lines().skip(1) {
        assert!(line.ends_with(&format!(",{registry}")), "{line}");
    }
}

#[test]
fn summary_agents_equals_the_detail_on_generated_archives_of_each_kind() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = common::generated_archives(dir.path(), "3M");
    let out = dir.path().join("out");
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    scan_into(&out, &inputs, &[]);
    assert_summary_equals_detail(&out);
}

#[test]
fn summary_agents_after_the_shards_and_hosts_equals_one_full_scan() {
    let dir = tempfile::tempdir().unwrap();
    let (full, sharded) = (dir.path().join("full"), dir.path().join("sharded"));
    scan_into(&full, &[&samples()], &[]);
    for spec in ["0/3", "1/3", "2/3"] {
        scan_into(&sharded, &[&samples()], &["--shard", spec]);
    }
    assert!(!common::has_parts(&sharded, "summary_agents"));
    let run = hosts(&[sharded.to_str().unwrap()]);
    assert_ok(&run);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("summary_agents  repcensus-samples: "),
        "{said}"
    );
    let want = table_rows(&full, "summary_agents", &[]);
    assert!(want.len() > 1000, "{} rows", want.len());
    assert_eq!(table_rows(&sharded, "summary_agents", &[]), want);
    for table in AGENT_SUMMARIES
        .into_iter()
        .chain(LINE_SUMMARIES)
        .chain(PAGE_SUMMARIES)
    {
        assert_eq!(
            table_rows(&sharded, table, &[]),
            table_rows(&full, table, &[]),
            "{table}"
        );
    }
    assert_summary_equals_detail(&sharded);
}

#[test]
fn summary_agents_after_a_resumed_scan_equals_one_full_scan() {
    let dir = tempfile::tempdir().unwrap();
    let (full, resumed) = (dir.path().join("full"), dir.path().join("resumed"));
    scan_into(&full, &[&samples()], &[]);
    // A first run that read part of the inputs, then a resumed run of them all.
    let some = repo().join("samples/generated-cc-robots.warc.gz");
    scan_into(&resumed, &[some.to_str().unwrap()], &[]);
    scan_into(&resumed, &[&samples()], &["--resume"]);
    assert_eq!(
        table_rows(&resumed, "summary_agents", &[]),
        table_rows(&full, "summary_agents", &[])
    );
    // A resumed run with nothing left to do derives the same again.
    scan_into(&resumed, &[&samples()], &["--resume"]);
    for table in AGENT_SUMMARIES
        .into_iter()
        .chain(LINE_SUMMARIES)
        .chain(PAGE_SUMMARIES)
    {
        assert_eq!(
            table_rows(&resumed, table, &[]),
            table_rows(&full, table, &[]),
            "{table}"
        );
    }
    assert_summary_equals_detail(&resumed);
}

/// A crawl scanned with `--agents FILE` has verdicts for another registry: `hosts` without the
/// file says so, exits 1 and removes the crawl's summary rather than keep one that no longer
/// agrees with robots_hosts; with the file it derives it again.
#[test]
fn summaries_need_the_registry_the_verdicts_were_made_with() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let extra = repo().join("tests/data/agents-extra.csv");
    let extra = extra.to_str().unwrap();
    let input = repo().join("samples/verdict-cases.warc.gz");
    scan_into(&out, &[input.to_str().unwrap()], &["--agents", extra]);
    assert_summary_equals_detail(&out);
    let want = table_rows(&out, "summary_agents", &[]);
    assert!(want.iter().any(|r| r.contains("agent=ExampleBot|")));

    let run = hosts(&[out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1));
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("summary_agents") && said.contains("--agents FILE"),
        "{said}"
    );
    assert!(table_rows(&out, "summary_agents", &[]).is_empty());
    assert!(!table_rows(&out, "robots_hosts", &[]).is_empty());

    assert_ok(&hosts(&[out.to_str().unwrap(), "--agents", extra]));
    assert_eq!(table_rows(&out, "summary_agents", &[]), want);
}

/// A scan that leaves verdicts out writes no summary, and removes the one an earlier scan of
/// the crawl left (it would count verdicts the crawl no longer has).
#[test]
fn a_crawl_without_verdict_runs_has_no_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = repo().join("samples/generated-cc-robots.warc.gz");
    let input = input.to_str().unwrap();
    scan_into(&out, &[input], &[]);
    assert!(!table_rows(&out, "summary_agents", &[]).is_empty());
    // agent_verdict_runs alone is enough for the summary, without the 215 rows per capture.
    let lean = dir.path().join("lean");
    scan_into(
        &lean,
        &[input],
        &["--tables", "robots_files,agent_verdict_runs"],
    );
    assert_eq!(
        table_rows(&lean, "summary_agents", &[]),
        table_rows(&out, "summary_agents", &[])
    );
    // The input scanned again under another crawl: the old crawl keeps no summary.
    scan_into(
        &out,
        &[input],
        &["--crawl", "other", "--tables", "robots_files"],
    );
    assert!(table_rows(&out, "summary_agents", &[]).is_empty());
}

/// A crawl whose inputs were scanned with two registries cannot be summarized: the scan that
/// finds it so says why even with `--quiet`, and leaves no summary that counts half the hosts.
#[test]
fn a_crawl_of_two_registries_is_said_and_left_without_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let extra = repo().join("tests/data/agents-extra.csv");
    let cases = repo().join("samples/verdict-cases.warc.gz");
    let generated = repo().join("samples/generated-cc-robots.warc.gz");
    let crawl = ["--crawl", "mixed"];
    scan_into(
        &out,
        &[cases.to_str().unwrap()],
        &[&crawl[..], &["--agents", extra.to_str().unwrap()]].concat(),
    );
    assert!(!table_rows(&out, "summary_agents", &[]).is_empty());
    let (code, err) = scan(&[
        generated.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--crawl",
        "mixed",
    ]);
    // The inputs were read; what the run was asked to derive was not: exit 1.
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("summaries of crawl mixed not derived") && err.contains("--agents FILE"),
        "{err}"
    );
    assert!(table_rows(&out, "summary_agents", &[]).is_empty());
    assert!(table_rows(&out, "summary_agent_groups", &[]).is_empty());
    assert!(!table_rows(&out, "robots_hosts", &[]).is_empty());
}

/// The same check on the tables of any scan, for the real archives of `../shared/data/warc` or
/// a crawl too large for the suite: `REPCENSUS_CHECK_OUT=OUT cargo test --release --test
/// summaries -- --ignored`.
#[test]
#[ignore = "needs REPCENSUS_CHECK_OUT, the output folder of a scan"]
fn the_summaries_of_a_given_scan_equal_its_detail() {
    let out = std::env::var_os("REPCENSUS_CHECK_OUT").expect("REPCENSUS_CHECK_OUT");
    assert_summary_equals_detail(Path::new(&out));
}

/// `Content-Usage` members are counted as written: vocab-08 reads `Train-AI=n` (an uppercase
/// key fails the parse) and `train-ai="n"` (a String, not the Token `n`) as unknown, so neither
/// may be counted as `train-ai=n`; `Content-Signal` pairs are lowercased (any case is valid).
#[test]
fn content_usage_members_are_counted_as_written_and_content_signals_lowercased() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("cu.warc"), dir.path().join("out"));
    let files = [
        ("a.example", "User-agent: *\nContent-Usage: train-ai=n\n"),
        ("b.example", "User-agent: *\nContent-Usage: Train-AI=n\n"),
        (
            "c.example",
            "User-agent: *\nContent-Usage: /p train-ai=\"n\", search;x=1\n",
        ),
        ("d.example", "User-agent: *\nContent-Signal: AI-Train=No\n"),
        // -08's ai-use is known; a proposed infer-* label is kept by its name, not known.
        (
            "e.example",
            "User-agent: *\nContent-Usage: ai-use=n, infer-train=n\nContent-Signal: ai-use=no\n",
        ),
    ];
    common::robots_warc(&input, "2025-01-01T00:00:00Z", &files);
    scan_into(&out, &[input.to_str().unwrap()], &[]);
    let values = common::duck(
        &out,
        "SELECT key, value FROM 'robots_rules/*/*.parquet' \
         WHERE key IN ('content_usage', 'content_signal') ORDER BY host, line_no",
    );
    let want = "key,value\ncontent_usage,train-ai=n\ncontent_usage,Train-AI=n\n\
                content_usage,\"train-ai=\"\"n\"\",search;x=1\"\ncontent_signal,ai-train=No\n\
                content_usage,\"ai-use=n,infer-train=n\"\ncontent_signal,ai-use=no\n";
    assert_eq!(values, want);
    let counted = common::duck(
        &out,
        "SELECT key, signal, known, value, hosts FROM 'summary_content_signals/*/*.parquet' \
         ORDER BY key, signal, value",
    );
    let want = "key,signal,known,value,hosts\ncontent_signal,ai-train,true,no,1\n\
                content_signal,ai-use,false,no,1\ncontent_usage,Train-AI,false,n,1\n\
                content_usage,ai-use,true,n,1\ncontent_usage,infer-train,false,n,1\n\
                content_usage,search,true,NULL,1\ncontent_usage,train-ai,true,\"\"\"n\"\"\",1\n\
                content_usage,train-ai,true,n,1\n";
    assert_eq!(counted, want);
    assert_lines_equal_detail(&out);
}

/// RSL's `License:` line (Really Simple Licensing 1.0) is a key of its own, its written form
/// kept (`Licence` a variant), its value as written; its hosts are counted among the
/// extensions, by the summaries and the bundled query alike.
#[test]
fn rsl_license_lines_are_a_key_counted_among_the_extensions() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("rsl.warc"), dir.path().join("out"));
    let files = [
        (
            "a.example",
            "License: https://a.example/license.xml\r\nUser-agent: *\r\nDisallow:\r\n",
        ),
        (
            "b.example",
            "\u{feff}User-agent: *\nAllow: /\n\nLicence: /rsl.xml # relative\n",
        ),
        ("c.example", "User-agent: *\nDisallow: /private\n"),
    ];
    common::robots_warc(&input, "2026-02-01T00:00:00Z", &files);
    scan_into(&out, &[input.to_str().unwrap()], &[]);
    let lines = common::duck(
        &out,
        "SELECT host, key, key_raw, key_form, value FROM 'robots_rules/*/*.parquet' \
         WHERE key = 'license' ORDER BY host",
    );
    let want = "host,key,key_raw,key_form,value\n\
                a.example,license,License,canonical,https://a.example/license.xml\n\
                b.example,license,Licence,variant,/rsl.xml\n";
    assert_eq!(lines, want);
    let adoption = common::bin_with_duckdb()
        .args(["query", "robots_extension_adoption"])
        .arg(&out)
        .args(["--where", "extension = 'license'", "--format", "csv"])
        .output()
        .unwrap();
    let adoption = String::from_utf8_lossy(&adoption.stdout);
    assert!(adoption.ends_with(",license,0.6667,2,2\n"), "{adoption}");
    assert_lines_equal_detail(&out);
}

/// A crawl scanned for page signals alone (no robots.txt table) has its page summaries, equal
/// to a full scan's.
#[test]
fn a_scan_of_page_signals_alone_has_the_page_summaries() {
    let dir = tempfile::tempdir().unwrap();
    let (full, pages) = (dir.path().join("full"), dir.path().join("pages"));
    let input = repo().join("samples/signal-cases.warc.gz");
    let input = input.to_str().unwrap();
    scan_into(&full, &[input], &[]);
    scan_into(&pages, &[input], &["--tables", "page_signals"]);
    for table in PAGE_SUMMARIES {
        let want = table_rows(&full, table, &[]);
        assert_eq!(table_rows(&pages, table, &[]), want, "{table}");
    }
    assert!(!table_rows(&pages, "summary_page_directives", &[]).is_empty());
    assert!(!common::has_parts(&pages, "robots_hosts"));
}

/// ACAP fields with problems (a field outside any record, an unknown usage) are counted per
/// problem in `summary_acap_problems`, as `acap_fields.problems` lists them.
#[test]
fn acap_problems_are_counted_per_field_and_problem() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("acap.warc"), dir.path().join("out"));
    let acap = "ACAP-allow-crawl: /early\nACAP-crawler: *\nACAP-disallow-frobnicate: /x\n\
                ACAP-allow-crawl: /\n";
    common::robots_warc(
        &input,
        "2025-01-01T00:00:00Z",
        &[("a.example", acap), ("b.example", acap)],
    );
    scan_into(&out, &[input.to_str().unwrap()], &[]);
    let detail = format!(
        "SELECT crawl, field, problem, count(*) FILTER (latest) AS fields,
            count(DISTINCT file_host) FILTER (latest) AS hosts,
            count(DISTINCT (warc_file, warc_offset)) AS captures
         FROM (SELECT *, unnest(list_distinct(problems)) AS problem FROM ({}))
         GROUP BY ALL",
        marked("acap_fields")
    );
    let summary = "SELECT crawl, field, problem, fields, hosts, captures \
                   FROM read_parquet('summary_acap_problems/*/*.parquet', hive_partitioning = true)";
    assert_same_rows(&out, "summary_acap_problems", &detail, summary);
    let rows = table_rows(&out, "summary_acap_problems", &[]);
    assert!(rows.len() >= 2, "{rows:?}");
    assert!(rows.iter().all(|r| r.contains("hosts=2|")), "{rows:?}");
}

/// A part of `robots_rules` or `page_signals` that is not Parquet: `hosts` exits 1 naming the
/// crawl and the part, removes the summaries it could not derive (none is left half-counted),
/// and keeps `robots_hosts` and the summaries that do not read the broken table.
#[test]
fn a_broken_part_loses_only_the_summaries_that_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    scan_into(&out, &[&samples()], &[]);
    let crawl = "repcensus-samples";
    let agents = table_rows(&out, "summary_agents", &[]);
    for (table, lost) in [
        ("robots_rules", "summary_robots_keys"),
        ("page_signals", "summary_page_directives"),
    ] {
        let broken = out.join(format!("{table}/crawl={crawl}/part-zzz.parquet"));
        std::fs::write(&broken, b"not parquet").unwrap();
        let run = hosts(&[out.to_str().unwrap()]);
        assert_eq!(run.status.code(), Some(1), "{table}");
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(
            said.contains(crawl) && said.contains("part-zzz.parquet"),
            "{said}"
        );
        let rows = table_rows(&out, lost, &[]);
        assert!(!rows.iter().any(|r| r.contains(crawl)), "{lost}: {rows:?}");
        assert!(!rows.is_empty(), "{lost}: the other crawls keep theirs");
        assert_eq!(table_rows(&out, "summary_agents", &[]), agents);
        assert!(!table_rows(&out, "robots_hosts", &[]).is_empty());
        std::fs::remove_file(&broken).unwrap();
    }
    assert_ok(&hosts(&[out.to_str().unwrap()]));
    assert_summary_equals_detail(&out);
}

/// Captures of `/llms.txt` and `/llms-full.txt` as sites serve them (the proposal's example with
/// a BOM and CRLF, an HTML soft 404, a 404 page) become `llms_txt` rows, a summary, and the
/// adoption query's shares over the hosts captured and over every host of the crawl.
#[test]
fn llms_txt_captures_are_read_summarized_and_counted_per_host() {
    use common::{http_warc, Response};
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("l.warc"), dir.path().join("out"));
    let mock = "\u{feff}# Title\r\n\r\n> Optional description goes here\r\n\r\nOptional details go here\r\n\r\n## Section name\r\n\r\n- [Link title](https://link_url): Optional link details\r\n\r\n## Optional\r\n\r\n- [Link title](https://link_url)\r\n";
    let soft_404 = "<!DOCTYPE html><html><head><title>Page not found</title></head></html>";
    let plain = || "Content-Type: text/plain; charset=utf-8\r\n".to_string();
    let html = || "Content-Type: text/html\r\n".to_string();
    let responses = [
        Response {
            url: "https://a.example/llms.txt",
            status: "200 OK",
            headers: plain(),
            body: mock.as_bytes(),
        },
        Response {
            url: "https://a.example/llms-full.txt",
            status: "200 OK",
            headers: plain(),
            body: b"# A\n\n## Docs\n- [x](/x.md)\n",
        },
        Response {
            url: "https://b.example/llms.txt",
            status: "200 OK",
            headers: html(),
            body: soft_404.as_bytes(),
        },
        Response {
            url: "http://c.example/llms.txt?x=1",
            status: "404 Not Found",
            headers: html(),
            body: b"<html><body>404</body></html>",
        },
        Response {
            url: "https://d.example/docs/llms.txt.html",
            status: "200 OK",
            headers: html(),
            body: b"<html><head></head></html>",
        },
    ];
    http_warc(&input, "2026-05-01T00:00:00Z", &responses);
    let (code, err) = scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let rows = duck(
        &out,
        "SELECT host, file, http_status, form, valid, title, has_summary, sections, links, \
         optional_section FROM read_parquet('llms_txt/*/*.parquet') ORDER BY host, file",
    );
    assert_eq!(
        rows,
        "host,file,http_status,form,valid,title,has_summary,sections,links,optional_section\n\
         a.example,llms-full.txt,200,markdown,true,A,false,1,1,false\n\
         a.example,llms.txt,200,markdown,true,Title,true,2,2,true\n\
         b.example,llms.txt,200,html,false,NULL,NULL,NULL,NULL,NULL\n\
         c.example,llms.txt,404,html,false,NULL,NULL,NULL,NULL,NULL\n"
    );
    let sql = format!(
        ".read {}",
        repo().join("queries/llms_txt_adoption.sql").display()
    );
    assert_eq!(
        duck(&out, &sql),
        "crawl,file,share_of_captured,share_of_hosts,hosts_valid,hosts_captured,crawl_hosts,\
         captures,captures_html\n\
         unknown,llms-full.txt,1.0,0.25,1,1,4,1,0\n\
         unknown,llms.txt,0.3333,0.25,1,3,4,3,2\n"
    );
    let inputs = duck(
        &out,
        "SELECT rows_llms_txt FROM read_parquet('inputs/*/*.parquet')",
    );
    assert_eq!(inputs, "rows_llms_txt\n4\n");
}

/// Captures of `/.well-known/tdmrep.json` as sites serve them: the report's example of three
/// groups (one row per rule, the one that decides `/` marked), a file with a trailing comma and
/// one with a comment (invalid, with the parser's reason), an HTML soft 404, a 404, and a rule
/// whose reservation is the string "1" (kept, unused).
#[test]
fn tdmrep_json_captures_give_rows_per_rule_a_summary_and_adoption_per_technique() {
    use common::{http_warc, Response};
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("t.warc"), dir.path().join("out"));
    let groups = br#"[
  { "location": "/directory-a/", "tdm-reservation": 1 },
  { "location": "/directory-b/html/", "tdm-reservation": 1, "tdm-policy":"https://provider.com/policies/policy.json" },
  { "location": "/*.jpg", "tdm-reservation": 0 },
  { "location": "/", "tdm-reservation": "1" }
]"#;
    let json = || "Content-Type: application/json\r\n".to_string();
    let responses = [
        Response {
            url: "https://a.example/.well-known/tdmrep.json",
            status: "200 OK",
            headers: json(),
            body: groups,
        },
        Response {
            url: "https://b.example/.well-known/tdmrep.json",
            status: "200 OK",
            headers: json(),
            body: b"\xef\xbb\xbf[\r\n {\"location\": \"/\", \"tdm-reservation\": 1},\r\n]\r\n",
        },
        Response {
            url: "https://c.example/.well-known/tdmrep.json",
            status: "200 OK",
            headers: json(),
            body: b"// reserved\n[{\"location\": \"/\", \"tdm-reservation\": 1}]",
        },
        Response {
            url: "https://d.example/.well-known/tdmrep.json",
            status: "200 OK",
            headers: "Content-Type: text/html\r\n".into(),
            body: b"<!doctype html><title>Not found</title>",
        },
        Response {
            url: "https://e.example/.well-known/tdmrep.json",
            status: "404 Not Found",
            headers: "Content-Type: text/html\r\n".into(),
            body: b"<html>404</html>",
        },
        Response {
            url: "https://f.example/.well-known/tdmrep.json",
            status: "200 OK",
            headers: json(),
            body: b"[{\"location\": \"/\", \"tdm-reservation\": 1}]",
        },
        // The other two techniques: a header that reserves, a meta tag that does not.
        Response {
            url: "https://g.example/article.html",
            status: "200 OK",
            headers: "Content-Type: text/html\r\ntdm-reservation: 1\r\n".into(),
            body: b"<html><head><title>a</title></head></html>",
        },
        Response {
            url: "https://h.example/article.html",
            status: "200 OK",
            headers: "Content-Type: text/html\r\n".into(),
            body: b"<html><head><meta name=\"tdm-reservation\" content=\"0\"></head></html>",
        },
    ];
    http_warc(&input, "2026-02-01T00:00:00Z", &responses);
    let (code, err) = scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let rows = duck(
        &out,
        "SELECT host, http_status, file_problem, rules, rule_index, location, tdm_reservation, \
         reservation_raw, tdm_policy IS NOT NULL AS policy, rule_problem, decides_root \
         FROM read_parquet('tdmrep_rules/*/*.parquet') ORDER BY host, rule_index",
    );
    assert_eq!(
        rows,
        "host,http_status,file_problem,rules,rule_index,location,tdm_reservation,reservation_raw,\
         policy,rule_problem,decides_root\n\
         a.example,200,NULL,4,0,/directory-a/,1,1,false,NULL,false\n\
         a.example,200,NULL,4,1,/directory-b/html/,1,1,true,NULL,false\n\
         a.example,200,NULL,4,2,/*.jpg,0,0,false,NULL,false\n\
         a.example,200,NULL,4,3,/,NULL,\"\"\"1\"\"\",false,bad_reservation,false\n\
         b.example,200,not_json,0,NULL,NULL,NULL,NULL,false,NULL,NULL\n\
         c.example,200,not_json,0,NULL,NULL,NULL,NULL,false,NULL,NULL\n\
         d.example,200,html,0,NULL,NULL,NULL,NULL,false,NULL,NULL\n\
         e.example,404,NULL,NULL,NULL,NULL,NULL,NULL,false,NULL,NULL\n\
         f.example,200,NULL,1,0,/,1,1,false,NULL,true\n"
    );
    let detail = duck(
        &out,
        "SELECT file_detail FROM read_parquet('tdmrep_rules/*/*.parquet') WHERE host = 'b.example'",
    );
    assert!(detail.contains("trailing comma"), "{detail}");
    let summary = duck(
        &out,
        "SELECT status_class, file_problem, tdm_file, root_reservation, reserves_some_path, \
         captures, hosts FROM read_parquet('summary_tdmrep/*/*.parquet') ORDER BY ALL",
    );
    assert_eq!(
        summary,
        "status_class,file_problem,tdm_file,root_reservation,reserves_some_path,captures,hosts\n\
         2xx,html,false,NULL,false,1,1\n\
         2xx,not_json,false,NULL,false,2,2\n\
         2xx,NULL,true,1,true,1,1\n\
         2xx,NULL,true,NULL,true,1,1\n\
         4xx,NULL,false,NULL,false,1,1\n"
    );
    // Six hosts captured the file, two serve a TDM file, one reserves its root; of the seven
    // 2xx pages, one reserves by header, one says 0 by meta tag.
    let sql = format!(
        ".read {}",
        repo()
            .join("queries/tdm_reservation_adoption.sql")
            .display()
    );
    assert_eq!(
        duck(&out, &sql),
        "crawl,technique,share_reserving,using_it,reserving,reserving_some_path,denominator,hosts\n\
         unknown,file,0.1667,2,1,2,6,2\n\
         unknown,header,0.1429,1,1,NULL,7,1\n\
         unknown,meta,0.0,1,0,NULL,7,1\n"
    );
}

/// TDMRep's processing priority, page by page: the rule of the host's latest tdmrep.json that
/// matches the page, then its `tdm-reservation` / `tdm-policy` headers, then its meta tags, each
/// superseding the one before, and one that says nothing (or says something other than 0 or 1)
/// leaving the value as it was. A host whose latest capture of the file is a 404 has no file.
#[test]
fn each_page_takes_its_tdm_reservation_from_the_file_then_the_header_then_the_meta_tag() {
    use common::{http_warc, Response};
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("t.warc"), dir.path().join("out"));
    let groups = br#"[
  { "location": "/directory-a/", "tdm-reservation": 1 },
  { "location": "/directory-b/html/", "tdm-reservation": 1, "tdm-policy":"https://provider.com/policies/policy.json" },
  { "location": "/directory-b/images/*.jpg", "tdm-reservation": 0 }
]"#;
    let html = |extra: &str| format!("Content-Type: text/html\r\n{extra}");
    let page = |url, headers, body| Response {
        url,
        status: "200 OK",
        headers,
        body,
    };
    let responses = [
        page(
            "https://a.example/.well-known/tdmrep.json",
            "Content-Type: application/json\r\n".into(),
            groups,
        ),
        page(
            "https://a.example/directory-a/x.pdf",
            "Content-Type: application/pdf\r\n".into(),
            b"%PDF",
        ),
        page(
            "https://a.example/directory-b/html/p.html",
            html("tdm-reservation: 0\r\n"),
            b"<html></html>",
        ),
        page(
            "https://a.example/directory-b/images/cat.jpg",
            "Content-Type: image/jpeg\r\n".into(),
            b"\xff\xd8",
        ),
        page(
            "https://a.example/other.html",
            html(""),
            b"<html><head><meta name=\"tdm-reservation\" content=\"1\">\
              <meta name=\"tdm-policy\" content=\"https://a.example/tdm.json\"></head></html>",
        ),
        page("https://a.example/plain.html", html(""), b"<html></html>"),
        page(
            "https://b.example/page.html",
            html("tdm-reservation: yes\r\n"),
            b"<html><head><meta name=\"tdm-reservation\" content=\"0\"></head></html>",
        ),
        Response {
            url: "https://c.example/gone.html",
            status: "404 Not Found",
            headers: html("tdm-reservation: 1\r\n"),
            body: b"<html></html>",
        },
        page(
            "https://d.example/.well-known/tdmrep.json",
            "Content-Type: application/json\r\n".into(),
            br#"[{"location": "/", "tdm-reservation": 1}]"#,
        ),
        Response {
            url: "https://d.example/.well-known/tdmrep.json",
            status: "404 Not Found",
            headers: html(""),
            body: b"<html>gone</html>",
        },
        page("https://d.example/x.html", html(""), b"<html></html>"),
    ];
    http_warc(&input, "2026-02-01T00:00:00Z", &responses);
    let (code, err) = scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let rows = duck(
        &out,
        "SELECT url, tdm_reservation, technique, tdm_policy, policy_technique, overridden, \
         file_reservation, header_reservation, meta_reservation, file_location, \
         tdmrep_warc_offset IS NOT NULL AS file_read \
         FROM read_parquet('page_tdm/*/*.parquet') ORDER BY url",
    );
    assert_eq!(
        rows,
        "url,tdm_reservation,technique,tdm_policy,policy_technique,overridden,file_reservation,\
         header_reservation,meta_reservation,file_location,file_read\n\
         https://a.example/directory-a/x.pdf,1,file,NULL,NULL,false,1,NULL,NULL,/directory-a/,true\n\
         https://a.example/directory-b/html/p.html,0,header,https://provider.com/policies/policy.json,\
         file,true,1,0,NULL,/directory-b/html/,true\n\
         https://a.example/directory-b/images/cat.jpg,0,file,NULL,NULL,false,0,NULL,NULL,\
         /directory-b/images/*.jpg,true\n\
         https://a.example/other.html,1,meta,https://a.example/tdm.json,meta,false,NULL,NULL,1,\
         NULL,false\n\
         https://b.example/page.html,0,meta,NULL,NULL,false,NULL,NULL,0,NULL,false\n"
    );
    let summary = duck(
        &out,
        "SELECT tdm_reservation, technique, has_policy, overridden, pages, hosts \
         FROM read_parquet('summary_page_tdm/*/*.parquet') ORDER BY ALL",
    );
    // Nine 2xx pages (the two tdmrep.json captures that are 2xx among them); four say nothing.
    assert_eq!(
        summary,
        "tdm_reservation,technique,has_policy,overridden,pages,hosts\n\
         0,file,false,false,1,1\n\
         0,header,true,true,1,1\n\
         0,meta,false,false,1,1\n\
         1,file,false,false,1,1\n\
         1,meta,true,false,1,1\n\
         NULL,NULL,false,false,4,NULL\n"
    );
    let sql = format!(
        ".read {}",
        repo().join("queries/tdm_pages_reserved.sql").display()
    );
    assert_eq!(
        duck(&out, &sql),
        "crawl,technique,share_reserved,pages_reserved,pages_not_reserved,pages_overriding,\
         hosts_reserved,pages_2xx\n\
         unknown,file,0.1111,1,1,0,1,9\n\
         unknown,header,0.0,0,1,1,0,9\n\
         unknown,meta,0.1111,1,1,0,1,9\n\
         unknown,any,0.2222,2,3,1,1,9\n"
    );
}

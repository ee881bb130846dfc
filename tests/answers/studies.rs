//! The `study_*` queries (../shared/specs/studies.md) against counts written here from the
//! detail tables (the `agent_verdicts` view, `robots_hosts`, `robots_files`), for every crawl
//! of the samples, every AI agent and every tier of a ranked list that `repcensus ranks` read.

use crate::common;

use common::{duck, duck_value, repo, with_verdicts_view};
use std::path::Path;

/// Ranks spread over every tier (top1k to rest), given in turn to the samples' domains.
const RANKS: [i64; 6] = [7, 700, 7_000, 70_000, 700_000, 7_000_000];

/// The samples scanned, with a Tranco-form list of their registered domains (and two names no
/// crawl has) read in as `test-list`.
fn tables_with_list() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, stderr) = common::scan(&[
        repo().join("samples").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let domains = duck(
        &out,
        "SELECT DISTINCT registered_domain AS d FROM read_parquet('robots_hosts/*/*.parquet')
         WHERE registered_domain IS NOT NULL AND counts_for_host ORDER BY d",
    );
    let mut list = String::new();
    for (k, d) in domains.lines().skip(1).enumerate() {
        list.push_str(&format!("{},{d}\n", RANKS[k % RANKS.len()] + k as i64));
    }
    list.push_str("3,never-captured.example.com\n9000,also-missing.org\n");
    let file = dir.path().join("list.csv");
    std::fs::write(&file, list).unwrap();
    let done = common::bin()
        .args(["ranks", "--quiet", "--name", "test-list", "--out"])
        .arg(&out)
        .arg(&file)
        .status()
        .unwrap();
    assert_eq!(done.code(), Some(0));
    (dir, out)
}

/// The units of the studies written from the definition: every host (list and tier NULL), and
/// each ranked name's one host per cumulative tier.
const UNITS: &str = "
    CREATE TEMP TABLE units AS
    WITH r AS (SELECT * FROM read_parquet('ranks/*/*.parquet', hive_partitioning = false)),
    t AS (SELECT * FROM (VALUES ('top1k', 1000), ('top10k', 10000), ('top100k', 100000),
        ('top1m', 1000000), ('rest', 9223372036854775807)) v(tier, top)),
    candidates AS (
        SELECT h.crawl, r.list, r.name, r.rank, h.host,
            CASE WHEN h.host = r.name THEN 0 WHEN h.host = 'www.' || r.name THEN 1 ELSE 2 END
                AS preference
        FROM r JOIN (SELECT * FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
                WHERE counts_for_host) h
            ON (r.kind = 'domain' AND h.registered_domain = r.name)
            OR (r.kind = 'host' AND h.host = r.name)
    ),
    chosen AS (
        SELECT crawl, list, name, rank, arg_min(host, (preference, host)) AS host
        FROM candidates GROUP BY ALL
    )
    SELECT crawl, NULL::VARCHAR AS list, NULL::VARCHAR AS tier, host
    FROM (SELECT * FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
                WHERE counts_for_host)
    UNION ALL
    SELECT c.crawl, c.list, t.tier, c.host FROM chosen c JOIN t
        ON (t.tier = 'rest' AND c.rank > 1000000) OR (t.tier <> 'rest' AND c.rank <= t.top);";

/// A study's rows from the detail: per crawl, list, tier and AI agent (and NULL: any of them),
/// the units of the denominator (`den`, on `h` the host's robots_hosts row) for which the
/// verdict `v` of the agent holds (`holds`).
fn from_detail(den: &str, holds: &str) -> String {
    format!(
        "WITH ai AS (SELECT DISTINCT crawl, agent FROM
             read_parquet('summary_agents/*/*.parquet', hive_partitioning = true)
             WHERE agent_category IN ('ai_training', 'ai_search')),
        u AS (SELECT u.* FROM units u
             JOIN (SELECT * FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
                WHERE counts_for_host) h
             ON h.crawl = u.crawl AND h.host = u.host WHERE {den}),
        hit AS (
            SELECT u.crawl, u.list, u.tier, u.host, v.agent
            FROM u JOIN (SELECT * FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
                WHERE counts_for_host) h
                ON h.crawl = u.crawl AND h.host = u.host
            JOIN agent_verdicts v ON v.crawl = h.crawl AND v.warc_file = h.effective_warc_file
                AND v.warc_offset = h.effective_warc_offset
            JOIN ai ON ai.crawl = v.crawl AND ai.agent = v.agent
            WHERE {holds}),
        denominators AS (SELECT crawl, list, tier, count(*) AS d FROM u GROUP BY ALL),
        per_agent AS (
            SELECT d.crawl, d.list, d.tier, ai.agent, NULL AS outcome,
                (SELECT count(*) FROM hit WHERE hit.crawl = d.crawl AND hit.agent = ai.agent
                    AND hit.list IS NOT DISTINCT FROM d.list
                    AND hit.tier IS NOT DISTINCT FROM d.tier) AS n, d.d
            FROM denominators d JOIN ai ON ai.crawl = d.crawl),
        any_ai AS (
            SELECT d.crawl, d.list, d.tier, NULL AS agent, NULL AS outcome,
                (SELECT count(DISTINCT host) FROM hit WHERE hit.crawl = d.crawl
                    AND hit.list IS NOT DISTINCT FROM d.list
                    AND hit.tier IS NOT DISTINCT FROM d.tier) AS n, d.d
            FROM denominators d)
        SELECT * FROM per_agent UNION ALL SELECT * FROM any_ai"
    )
}

/// The rows `query` gives, as (crawl, list, tier, agent, outcome, hosts, denominator).
fn of_query(query: &str) -> String {
    let sql = std::fs::read_to_string(repo().join(format!("queries/{query}.sql"))).unwrap();
    common::around(
        &sql,
        "SELECT crawl, list, tier, agent, outcome, hosts, denominator FROM ({})",
    )
}

fn assert_same(out: &Path, what: &str, detail: &str, query: &str) {
    let only = |a: &str, b: &str| {
        duck_value(
            out,
            &with_verdicts_view(&format!(
                "{UNITS}\nSELECT count(*) FROM (({a}) EXCEPT ALL ({b}))"
            )),
        )
    };
    let rows = duck_value(
        out,
        &with_verdicts_view(&format!("{UNITS}\nSELECT count(*) FROM ({query})")),
    );
    assert_eq!(
        (only(detail, query), only(query, detail)),
        ("0".to_string(), "0".to_string()),
        "{what}: {rows} rows"
    );
}

const TWO_XX: &str = "('ok', 'ok_empty', 'not_robots_html', 'not_robots_binary')";

/// Every agent study equals its definition counted from the verdicts, for every host and for
/// each tier of the list (whose names lie in every tier, two of them in no crawl).
#[test]
fn each_study_equals_its_definition_counted_from_the_verdicts() {
    let (_dir, out) = tables_with_list();
    let tiers = duck(
        &out,
        "SELECT tier, count(*) AS n FROM read_parquet('ranks/*/*.parquet') GROUP BY ALL ORDER BY 1",
    );
    assert_eq!(tiers.lines().count(), 6, "a name in every tier: {tiers}");
    let two_xx = format!("h.effective_fetch_outcome IN {TWO_XX}");
    let somesite =
        format!("h.effective_fetch_outcome IN {TWO_XX} OR h.effective_fetch_outcome = 'not_found'");
    for (query, den, holds) in [
        (
            "study_own_group_root",
            two_xx.as_str(),
            "v.verdict_source = 'specific' AND NOT v.root_allowed",
        ),
        (
            "study_somesite_full_block",
            &somesite,
            "v.verdict = 'full_block'",
        ),
        ("study_almanac_named", "TRUE", "v.named"),
        (
            "study_rfc9309_any_ai",
            "TRUE",
            "v.verdict_rfc9309 = 'full_block' \
             OR (v.verdict_rfc9309 = 'partial_block' AND NOT v.root_allowed)",
        ),
    ] {
        let detail = from_detail(den, holds);
        assert_same(&out, query, &detail, &of_query(query));
    }
    // somesite's `hosts_by_name`: the deciding group names the agent.
    let by_name = from_detail(
        &somesite,
        "v.verdict = 'full_block' AND v.verdict_source = 'specific'",
    );
    let sql =
        std::fs::read_to_string(repo().join("queries/study_somesite_full_block.sql")).unwrap();
    let by_name_query = common::around(
        &sql,
        "SELECT crawl, list, tier, agent, outcome, hosts_by_name, denominator FROM ({})",
    );
    assert_same(&out, "hosts_by_name", &by_name, &by_name_query);
    // Not a vacuous comparison: some AI agent is blocked in some tier.
    let some = duck_value(
        &out,
        &format!(
            "SELECT count(*) FROM ({}) WHERE list IS NOT NULL AND hosts > 0",
            of_query("study_somesite_full_block")
        ),
    );
    assert_ne!(some, "0");
}

/// `study_cc_outcomes` labels every ranked name, captured or not, from its host's governing
/// capture; the names no crawl has are `no_capture` in each crawl.
#[test]
fn cc_outcomes_labels_every_ranked_name_captured_or_not() {
    let (_dir, out) = tables_with_list();
    let detail = format!(
        "WITH r AS (SELECT * FROM read_parquet('ranks/*/*.parquet', hive_partitioning = false)),
        crawls AS (SELECT DISTINCT crawl FROM units),
        t AS (SELECT DISTINCT tier FROM units WHERE tier IS NOT NULL),
        named AS (
            SELECT c.crawl, r.list, t.tier, u.host FROM r CROSS JOIN crawls c
            JOIN t ON (t.tier = 'rest' AND r.rank > 1000000) OR (t.tier <> 'rest'
                AND r.rank <= CASE t.tier WHEN 'top1k' THEN 1000 WHEN 'top10k' THEN 10000
                    WHEN 'top100k' THEN 100000 ELSE 1000000 END)
            LEFT JOIN (SELECT DISTINCT u.crawl, u.list, u.tier, u.host, x.name FROM units u
                JOIN (SELECT * FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
                WHERE counts_for_host) h
                    ON h.crawl = u.crawl AND h.host = u.host
                JOIN r x ON u.list = x.list AND (h.registered_domain = x.name OR h.host = x.name))
                u ON u.crawl = c.crawl AND u.list = r.list AND u.tier = t.tier AND u.name = r.name
            UNION ALL SELECT crawl, list, tier, host FROM units WHERE list IS NULL),
        labelled AS (
            SELECT n.crawl, n.list, n.tier, CASE
                WHEN n.host IS NULL THEN 'no_capture'
                WHEN h.effective_fetch_outcome IN ('unauthorized', 'forbidden') THEN 'forbidden'
                WHEN h.effective_fetch_outcome IN ('too_many_requests', 'server_error') THEN 'defer'
                WHEN h.effective_fetch_outcome IN ('not_found', 'client_error') THEN 'allow_all'
                WHEN h.effective_fetch_outcome = 'redirect' THEN 'unresolved_redirect'
                WHEN h.effective_fetch_outcome IN {TWO_XX} AND coalesce(f.n_rules, 0) = 0
                    THEN 'no_rules'
                WHEN h.effective_fetch_outcome IN {TWO_XX} THEN 'rules'
                WHEN h.effective_fetch_outcome IN ('payment_required', 'challenge')
                    THEN h.effective_fetch_outcome
                ELSE 'other' END AS outcome
            FROM named n
            LEFT JOIN (SELECT * FROM read_parquet('robots_hosts/*/*.parquet', hive_partitioning = true)
                WHERE counts_for_host) h
                ON h.crawl = n.crawl AND h.host = n.host
            LEFT JOIN read_parquet('robots_files/*/*.parquet', hive_partitioning = true) f
                ON f.crawl = h.crawl AND f.warc_file = h.effective_warc_file
                AND f.warc_offset = h.effective_warc_offset)
        SELECT crawl, list, tier, NULL AS agent, outcome, count(*) AS hosts,
            sum(count(*)) OVER (PARTITION BY crawl, list, tier) AS denominator
        FROM labelled GROUP BY crawl, list, tier, outcome"
    );
    assert_same(
        &out,
        "study_cc_outcomes",
        &detail,
        &of_query("study_cc_outcomes"),
    );
    let missing = duck_value(
        &out,
        &common::around(
            &std::fs::read_to_string(repo().join("queries/study_cc_outcomes.sql")).unwrap(),
            "SELECT sum(hosts) FROM ({}) WHERE outcome = 'no_capture' AND tier = 'top1k'",
        ),
    );
    assert_ne!(missing, "0", "the names no crawl has are no_capture");
}

/// `repcensus query study_X OUT --param list=NAME` answers for that list only (and the rows of
/// every host), and a user's own SQL reads the list as the view `ranks`.
#[test]
fn the_list_is_a_parameter_and_a_view() {
    let (dir, out) = tables_with_list();
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "archive.org\n").unwrap();
    let done = common::bin()
        .args(["ranks", "--quiet", "--name", "other", "--out"])
        .arg(&out)
        .arg(&other)
        .status()
        .unwrap();
    assert_eq!(done.code(), Some(0));
    let lists = |extra: &[&str]| -> std::collections::BTreeSet<String> {
        let mut args = vec!["query", "study_own_group_root", out.to_str().unwrap()];
        args.extend_from_slice(&["--format", "csv"]);
        args.extend_from_slice(extra);
        let run = common::bin_with_duckdb().args(&args).output().unwrap();
        common::assert_ok(&run);
        let text = String::from_utf8(run.stdout).unwrap();
        (text.lines().skip(1))
            .map(|l| l.split(',').nth(1).unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(
        lists(&[]),
        ["", "other", "test-list"].map(String::from).into()
    );
    assert_eq!(
        lists(&["--param", "list=other"]),
        ["", "other"].map(String::from).into()
    );
    // `--crawl` reads one crawl's partitions, and the lists whole.
    assert_eq!(
        lists(&["--crawl", "unknown", "--param", "list=other"]),
        ["", "other"].map(String::from).into()
    );
    let own = dir.path().join("own.sql");
    std::fs::write(
        &own,
        "SELECT count(*) AS n FROM ranks WHERE list = 'other';",
    )
    .unwrap();
    let run = common::bin_with_duckdb()
        .args([
            "query",
            own.to_str().unwrap(),
            out.to_str().unwrap(),
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    common::assert_ok(&run);
    assert_eq!(String::from_utf8(run.stdout).unwrap(), "n\n1\n");
}

/// The study queries each run alone in a bare DuckDB, so each carries the same block that
/// picks the units (every host; each ranked name's one host per tier) and, for the agent
/// studies, the same AI agents and sets: one definition of a unit for all five, held equal here
/// so that a change to one is made to all.
#[test]
fn every_study_picks_its_units_and_agents_alike() {
    let block = |sql: &str, from: &str, to: &str| -> String {
        let start = sql.find(from).unwrap_or_else(|| panic!("no {from:?}"));
        let end = start + sql[start..].find(to).unwrap_or_else(|| panic!("no {to:?}"));
        sql[start..end].to_string()
    };
    let read = |q: &str| std::fs::read_to_string(repo().join(format!("queries/{q}.sql"))).unwrap();
    let agent_studies = [
        "study_own_group_root",
        "study_somesite_full_block",
        "study_almanac_named",
        "study_rfc9309_any_ai",
    ];
    let units = |q: &str| block(&read(q), "), ranks AS (", "WHERE m.pick = 1");
    let first = units("study_cc_outcomes");
    for q in agent_studies {
        assert_eq!(
            units(q),
            first,
            "{q}'s units differ from study_cc_outcomes'"
        );
    }
    let agents = |q: &str| block(&read(q), "), ai AS (", "\n, counted AS (");
    for q in &agent_studies[1..] {
        assert_eq!(
            agents(q),
            agents(agent_studies[0]),
            "{q}'s AI agents differ"
        );
    }
}

//! The agent registry and `agent_verdicts`: verdicts on the real robots.txt files checked against
//! the matcher, one sample capture per verdict kind and source (samples/verdict-cases.warc.gz,
//! written by scripts/make_verdict_cases.py), overrides, and the `agents` command.

use crate::common;

use common::{bin, duck, duck_value, repo};
use repcensus::internals::Verdicts;
use repcensus::Registry;
use repcensus::{Key, Matcher, RobotsTxt};
use std::path::Path;

/// Paths to probe a verdict kind with: `/`, some ordinary ones, and each rule's own path with a
/// few endings.
fn probe_paths(r: &RobotsTxt<'_>) -> Vec<Vec<u8>> {
    let mut paths: Vec<Vec<u8>> = [
        "/",
        "/index.html",
        "/a/b?c=d",
        "/zzz",
        "/wp-admin/",
        "/x.pdf",
    ]
    .iter()
    .map(|p| p.as_bytes().to_vec())
    .collect();
    for (i, l) in r.lines.iter().enumerate() {
        if !l.key.is_rule() {
            continue;
        }
        let p = r.norm_value(i);
        let p = p.strip_suffix(b"$").unwrap_or(p);
        let base = match p.first() {
            Some(b'/') => p.to_vec(),
            Some(b'*') => [b"/", p].concat(),
            _ => continue,
        };
        for tail in [&b""[..], b"\x01", b"more/x.html", b"?q=1"] {
            paths.push([&base[..], tail].concat());
        }
    }
    // Large files (thousands of rules) get an even sample of at most 600 probes: each probe
    // costs a pass over every rule.
    let step = paths.len().div_ceil(600);
    paths.into_iter().step_by(step).collect()
}

#[test]
fn verdicts_of_real_files_agree_with_the_matcher() {
    let files = common::corpus::real_robots();
    assert_eq!(files.len(), 519);
    let registry = Registry::builtin();
    let mut v = Verdicts::default();
    let mut m = Matcher::new();
    let mut kinds = std::collections::BTreeMap::<(&str, &str), usize>::new();
    let mut checks = 0usize;
    for (name, body) in &files {
        let r = RobotsTxt::parse(body);
        let tokens: Vec<Vec<u8>> = r
            .lines
            .iter()
            .filter(|l| l.key == Key::UserAgent)
            .map(|l| repcensus::product_token(l.value(r.body)).to_ascii_lowercase())
            .collect();
        let paths = probe_paths(&r);
        // Every agent the file names, and a few it may not (unnamed agents all share the verdict
        // of the `*` groups, so more of them would test nothing new).
        for a in &registry.agents {
            let named = tokens.contains(&a.token.to_ascii_lowercase().into_bytes());
            if !named && !["GPTBot", "CCBot", "Googlebot", "ClaudeBot"].contains(&a.name.as_str()) {
                continue;
            }
            let got = v.parsed(&r, a, named);
            let outcomes: Vec<bool> = paths
                .iter()
                .map(|p| m.verdict(&r, &[&a.token], None, p).allowed)
                .collect();
            let root = m.verdict(&r, &[&a.token], None, b"/");
            assert_eq!(got.root_allowed, Some(root.allowed), "{name} {}", a.name);
            assert_eq!(got.source, Some(root.source), "{name} {}", a.name);
            assert_eq!(got.n_rules, Some(root.n_rules as i32), "{name} {}", a.name);
            assert_eq!(
                got.root_allowed,
                Some(repcensus::allowed_by_robots(body, &a.token, "http://h/")),
                "{name} {}",
                a.name
            );
            match got.verdict.as_str() {
                "full_block" => assert!(outcomes.iter().all(|o| !o), "{name} {}", a.name),
                "allowed" => assert!(outcomes.iter().all(|&o| o), "{name} {}", a.name),
                "partial_block" => {
                    // Open somewhere (maybe only past a reopening Allow), closed somewhere.
                    assert!(outcomes.iter().any(|o| !o), "{name} {}", a.name);
                }
                k => panic!("{name} {}: unexpected verdict {k}", a.name),
            }
            checks += paths.len();
            if ["GPTBot", "CCBot", "Googlebot", "ClaudeBot"].contains(&a.name.as_str()) {
                *kinds.entry((&a.name, got.verdict.as_str())).or_default() += 1;
            }
        }
    }
    assert!(checks > 100_000, "{checks}");
    // The real files' verdicts for four agents (counts reviewed against the files' groups).
    let count = |a: &str, k: &str| kinds.get(&(a, k)).copied().unwrap_or(0);
    eprintln!("{kinds:?}");
    for a in ["GPTBot", "CCBot", "Googlebot", "ClaudeBot"] {
        assert_eq!(
            count(a, "full_block") + count(a, "partial_block") + count(a, "allowed"),
            519
        );
    }
    assert!(count("GPTBot", "full_block") > count("Googlebot", "full_block"));
}

fn scan_cases(extra: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let status = bin()
        .current_dir(repo())
        .args(["scan", "--quiet", "samples/verdict-cases.warc.gz", "--out"])
        .arg(&out)
        .args(["--tables", "all"])
        .args(extra)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    (dir, out)
}

/// (host prefix, agent) -> "verdict,source,rfc9309,named,named_exact,root_allowed,crawl_delay"
fn case(out: &Path, host: &str, agent: &str) -> String {
    let v = duck_value(
        out,
        &format!(
            "SELECT verdict || ',' || coalesce(verdict_source, '-') || ',' || verdict_rfc9309 \
             || ',' || coalesce(named::varchar, '-') || ',' || coalesce(named_exact::varchar, '-') \
             || ',' || coalesce(root_allowed::varchar, '-') || ',' \
             || coalesce(crawl_delay::varchar, '-') AS v \
             FROM 'agent_verdicts/*/*.parquet' \
             WHERE host = '{host}.verdict-case.invalid' AND agent = '{agent}' \
             ORDER BY capture_time DESC LIMIT 1"
        ),
    );
    v.trim_matches('"').to_string()
}

#[test]
fn one_sample_capture_per_verdict_kind_and_source() {
    let (_d, out) = scan_cases(&[]);
    let expect = [
        (
            "full-wildcard",
            "GPTBot",
            "full_block,wildcard,full_block,false,false,false,-",
        ),
        (
            "full-specific",
            "GPTBot",
            "full_block,specific,full_block,true,true,false,-",
        ),
        (
            "full-specific",
            "ClaudeBot",
            "partial_block,wildcard,partial_block,false,false,true,-",
        ),
        (
            "selective-openai",
            "OAI-SearchBot",
            "allowed,specific,allowed,true,true,true,-",
        ),
        (
            "selective-openai",
            "Googlebot",
            "allowed,none,allowed,false,false,true,-",
        ),
        (
            "selective-google",
            "Google-Extended",
            "full_block,specific,full_block,true,true,false,-",
        ),
        (
            "selective-google",
            "Googlebot",
            "allowed,specific,allowed,true,true,true,-",
        ),
        (
            "selective-google",
            "bingbot",
            "partial_block,wildcard,partial_block,false,false,true,-",
        ),
        (
            "partial-reopened",
            "CCBot",
            "partial_block,wildcard,partial_block,false,false,false,-",
        ),
        (
            "homepage-only",
            "CCBot",
            "partial_block,wildcard,partial_block,false,false,true,-",
        ),
        (
            "allow-overrides",
            "CCBot",
            "allowed,wildcard,allowed,false,false,true,-",
        ),
        (
            "allowed-explicit",
            "CCBot",
            "allowed,wildcard,allowed,false,false,true,-",
        ),
        (
            "no-groups",
            "CCBot",
            "allowed,none,allowed,false,false,true,-",
        ),
        (
            "crawl-delay",
            "bingbot",
            "partial_block,specific,partial_block,true,true,true,10.0",
        ),
        (
            "crawl-delay",
            "Googlebot",
            "allowed,wildcard,allowed,false,false,true,2.0",
        ),
        // `Ai2Bot-Dolma` is the token `Ai` to Google, so it names AI2Bot (token `AI`) too.
        (
            "token-collision",
            "AI2Bot",
            "full_block,specific,full_block,true,false,false,-",
        ),
        (
            "token-collision",
            "Ai2Bot-Dolma",
            "full_block,specific,full_block,true,true,false,-",
        ),
        (
            "purpose",
            "GPTBot",
            "allowed,wildcard,allowed,false,false,true,-",
        ),
        (
            "empty",
            "GPTBot",
            "no_robots,none,no_robots,false,false,true,-",
        ),
        (
            "not-found",
            "GPTBot",
            "no_robots,none,no_robots,false,false,true,-",
        ),
        ("server-error", "GPTBot", "unreachable,-,full_block,-,-,-,-"),
        ("rate-limited", "GPTBot", "unreachable,-,no_robots,-,-,-,-"),
        ("redirect", "GPTBot", "redirect,-,redirect,-,-,-,-"),
        // The latest capture of the host blocks GPTBot; the earlier one allowed it.
        (
            "repeat",
            "GPTBot",
            "full_block,specific,full_block,true,true,false,-",
        ),
    ];
    let mut wrong = Vec::new();
    for (host, agent, want) in expect {
        let got = case(&out, host, agent);
        if got != want {
            wrong.push(format!("{host} {agent}: got {got}, want {want}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every capture x every registry agent.
    let n_agents = Registry::builtin().agents.len();
    assert_eq!(
        duck_value(&out, "SELECT count(*) FROM 'agent_verdicts/*/*.parquet'"),
        (22 * n_agents).to_string()
    );
    assert_eq!(
        duck_value(
            &out,
            "SELECT count(DISTINCT registry_version) || ' ' || min(registry_version) \
             FROM 'inputs/*/*.parquet'"
        ),
        format!("1 {}", Registry::builtin().version)
    );
}

#[test]
fn overrides_add_purpose_and_application() {
    let (_d, out) = scan_cases(&["--agents", "tests/data/agents-extra.csv"]);
    assert_eq!(
        case(&out, "purpose", "ExampleBot"),
        "full_block,purpose,full_block,false,false,false,-"
    );
    assert_eq!(
        duck(
            &out,
            "SELECT agent_category, operator, app_directives FROM 'agent_verdicts/*/*.parquet' \
             WHERE host = 'purpose.verdict-case.invalid' AND agent IN ('ExampleBot', 'CCBot') \
             ORDER BY agent"
        ),
        "agent_category,operator,app_directives\n\
         archiver,Common Crawl Foundation,NULL\n\
         ai_search,Example Corp,\"['widgets=false', 'snippets=5']\"\n"
    );
    let n_agents = Registry::builtin().agents.len() + 1;
    assert_eq!(
        duck_value(&out, "SELECT count(*) FROM 'agent_verdicts/*/*.parquet'"),
        (22 * n_agents).to_string()
    );
}

#[test]
fn agents_command_lists_the_registry_with_sources() {
    let out = bin().arg("agents").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("ai-robots-txt/ai.robots.txt"));
    assert!(text.contains("83485effdb4a31ea010e99cf5dddf14656a998b8"));
    let version = format!("registry_version: {}", Registry::builtin().version);
    assert!(text.contains(&version), "{version}");
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        rows[0].split_whitespace().collect::<Vec<_>>(),
        ["name", "token", "category", "operator", "robots_txt"]
    );
    assert!(rows.len() > 150, "{}", rows.len());
    assert!(rows.iter().any(|r| r.split_whitespace().collect::<Vec<_>>()
        == ["GPTBot", "GPTBot", "ai_training", "OpenAI", "documented"]));

    // CSV out, CSV back in: nothing changes.
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("registry.csv");
    let csv = bin().args(["agents", "--format", "csv"]).output().unwrap();
    std::fs::write(&csv_path, &csv.stdout).unwrap();
    let mut base = Registry::builtin();
    let n = base.agents.len();
    let before = base.agents.clone();
    assert_eq!(base.apply_file(&csv_path).unwrap(), n);
    for (a, b) in before.iter().zip(&base.agents) {
        assert_eq!(
            (&a.name, &a.category, &a.operator),
            (&b.name, &b.category, &b.operator)
        );
    }

    // An ai.robots.txt-style robots.json adds its agents (operator links and `respect` read).
    let json = bin()
        .args(["agents", "--format", "json", "--agents"])
        .arg(repo().join("tests/data/agents-extra.json"))
        .output()
        .unwrap();
    assert!(json.status.success());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(agents.len(), n + 1);
    let new = agents.last().unwrap();
    assert_eq!(new["name"], "NewAIBot");
    assert_eq!(new["operator"], "New AI");
    assert_eq!(new["robots_txt"], "documented");
    assert_eq!(new["category"], "other");

    // A bad file is a usage error.
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "name,category\nFooBot,not_a_category\n").unwrap();
    let out = bin()
        .arg("agents")
        .arg("--agents")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown category"));
}

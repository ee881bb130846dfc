//! `repcensus explain` reads one host's verdict out of the tables alone. Each of the 519 real
//! robots.txt files of samples/real-robots.warc.gz is served as its own host's robots.txt; for
//! every host, 20 agents and two paths, explain (from the scanned tables) and `check` (on the
//! original file) agree on the verdict, the deciding line and the documented reading, and RFC
//! 9309's reading is Google's for a file that was read.

use crate::common;

use common::corpus::real_robots;
use common::{assert_ok, bin, scan, Response};
use repcensus::{CheckOptions, ExplainOptions, Registry};
use std::path::Path;

const AGENTS: [&str; 20] = [
    "GPTBot",
    "ClaudeBot",
    "CCBot",
    "Google-Extended",
    "Googlebot",
    "bingbot",
    "Applebot",
    "Applebot-Extended",
    "PerplexityBot",
    "Bytespider",
    "Amazonbot",
    "meta-externalagent",
    "OAI-SearchBot",
    "ChatGPT-User",
    "anthropic-ai",
    "cohere-ai",
    "Diffbot",
    "YandexBot",
    "facebookexternalhit",
    "DuckDuckBot",
];

/// A path the file's own first Disallow line names (`*` as `x`, without a final `$`), else `/x`.
fn named_path(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let first = text.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        let value = value.split('#').next()?.trim();
        (key.trim().eq_ignore_ascii_case("disallow") && value.starts_with('/')).then_some(value)
    });
    let path = first.unwrap_or("/x").replace('*', "x");
    path.trim_end_matches('$').to_string()
}

/// `check --json` (with `--documented` or not) of one agent token on the original file.
fn check_json(
    file: &Path,
    tokens: &[&str],
    purpose: Option<&str>,
    urls: &[String],
    documented: bool,
) -> Vec<serde_json::Value> {
    let opts = CheckOptions {
        robots: file.to_path_buf(),
        agents: tokens.iter().map(|t| t.to_string()).collect(),
        urls: urls.to_vec(),
        purpose: purpose.map(str::to_string),
        json: true,
        explain: false,
        documented,
        stall_timeout: std::time::Duration::from_secs(10),
    };
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    repcensus::check(&opts, &mut out, &mut notes).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The deciding line of a `check --json` answer: none when no pattern of length > 0 matched.
fn deciding_line(answer: &serde_json::Value) -> Option<i64> {
    (answer["priority"].as_i64().unwrap_or(-1) > 0)
        .then(|| answer["line"].as_i64())
        .flatten()
}

#[test]
fn explain_agrees_with_check_on_every_real_file_for_twenty_agents() {
    let files = real_robots();
    assert_eq!(files.len(), 519);
    let dir = tempfile::tempdir().unwrap();
    let urls: Vec<String> = (0..files.len())
        .map(|i| format!("http://r{i}.real-robots.invalid/robots.txt"))
        .collect();
    let responses: Vec<Response<'_>> = (files.iter().zip(&urls))
        .map(|((_, body), url)| Response {
            url,
            status: "200 OK",
            headers: "Content-Type: text/plain\r\n".into(),
            body,
        })
        .collect();
    let warc = dir.path().join("real.warc.gz");
    common::http_warc(&warc, "2026-03-01T00:00:00Z", &responses);
    let out = dir.path().join("out");
    let (code, err) = scan(&[
        warc.to_str().unwrap(),
        "--crawl",
        "real",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");

    let registry = Registry::builtin();
    let mut compared = 0;
    for (i, (source, body)) in files.iter().enumerate() {
        let host = format!("r{i}.real-robots.invalid");
        let original = dir.path().join("robots.txt");
        std::fs::write(&original, body).unwrap();
        let paths = ["/".to_string(), named_path(body)];
        for path in &paths {
            let opts = ExplainOptions {
                host: host.clone(),
                agents: AGENTS.iter().map(|a| a.to_string()).collect(),
                url: path.clone(),
                crawls: vec![],
            };
            let explained = repcensus::explain(&out, &registry, &opts).unwrap();
            assert_eq!(explained.len(), AGENTS.len(), "{source}");
            // One check of the agents without a purpose, one of each with its own.
            let urls = [path.clone()];
            let plain: Vec<&str> = (explained.iter())
                .filter(|e| e.agent.purpose.is_none())
                .map(|e| e.agent.token.as_str())
                .collect();
            let google_plain = check_json(&original, &plain, None, &urls, false);
            let documented_plain = check_json(&original, &plain, None, &urls, true);
            for e in &explained {
                let agent = &e.agent;
                assert!(e.registered, "{} is not in the registry", agent.name);
                let (google, documented) = match agent.purpose.as_deref() {
                    None => {
                        let k = plain.iter().position(|t| *t == agent.token).unwrap();
                        (google_plain[k].clone(), documented_plain[k].clone())
                    }
                    Some(p) => {
                        let token = [agent.token.as_str()];
                        let g = check_json(&original, &token, Some(p), &urls, false).remove(0);
                        let d = check_json(&original, &token, Some(p), &urls, true).remove(0);
                        (g, d)
                    }
                };
                let j = e.json();
                let what = format!(
                    "{source} ({host}), {} on {path}: {j}\ncheck: {google}",
                    agent.name
                );
                if e.governing.fetch_outcome == "ok_empty" {
                    // No rule in the file: everything may be fetched.
                    assert_eq!(google["allowed"], true, "{what}");
                    assert_eq!(j["readings"]["google"], "no_robots", "{what}");
                    continue;
                }
                assert_eq!(j["allowed"], google["allowed"], "{what}");
                assert_eq!(j["line"], google["line"], "{what}");
                assert_eq!(
                    e.reading.line.map(i64::from),
                    deciding_line(&google),
                    "{what}"
                );
                assert_eq!(j["source"], google["source"], "{what}");
                assert_eq!(j["readings"]["rfc9309"], j["readings"]["google"], "{what}");
                let word = |a: &serde_json::Value| match a["allowed"].as_bool() {
                    Some(true) => "allowed",
                    _ => "disallowed",
                };
                if !agent.ignores_robots_txt() {
                    assert_eq!(
                        j["readings"]["documented"],
                        word(&documented),
                        "{what}\ndocumented: {documented}"
                    );
                    assert_eq!(
                        j["readings"]["documented_line"].as_i64(),
                        deciding_line(&documented),
                        "{what}\ndocumented: {documented}"
                    );
                } else {
                    assert_eq!(j["readings"]["documented"], "not_honored", "{what}");
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 19_000, "{compared}");

    // The command line: one host, its text naming the governing capture and the deciding line.
    let shown = bin()
        .args([
            "explain",
            out.to_str().unwrap(),
            "r0.real-robots.invalid",
            "GPTBot",
        ])
        .output()
        .unwrap();
    assert!(shown.status.code().is_some_and(|c| c <= 1), "{shown:?}");
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(
        text.contains("governing capture  http://r0.real-robots.invalid/robots.txt"),
        "{text}"
    );
    assert!(text.contains("Google's reading"), "{text}");
    let missing = bin()
        .args([
            "explain",
            out.to_str().unwrap(),
            "nowhere.invalid",
            "GPTBot",
        ])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("no robots.txt capture of nowhere.invalid"));
    let _ = assert_ok;
}

/// A URL that names a scheme or port is explained by that site's own robots.txt (RFC 9309
/// section 2.3); a path alone by the site the host's figures count (that of its latest
/// capture); a site with no capture by nothing.
#[test]
fn a_url_is_explained_by_its_own_sites_robots_txt() {
    let dir = tempfile::tempdir().unwrap();
    let (early, late) = (dir.path().join("early.warc"), dir.path().join("late.warc"));
    let out = dir.path().join("out");
    let robots = |url, body: &'static str| Response {
        url,
        status: "200 OK",
        headers: "Content-Type: text/plain\r\n".into(),
        body: body.as_bytes(),
    };
    common::http_warc(
        &early,
        "2026-03-01T00:00:00Z",
        &[robots(
            "http://two.example/robots.txt",
            "User-agent: *\nDisallow: /\n",
        )],
    );
    common::http_warc(
        &late,
        "2026-04-01T00:00:00Z",
        &[robots(
            "https://two.example/robots.txt",
            "User-agent: *\nAllow: /\n",
        )],
    );
    let (code, err) = scan(&[
        early.to_str().unwrap(),
        late.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let explain = |url: &str| {
        let run = bin()
            .args(["explain", out.to_str().unwrap(), "two.example", "GPTBot"])
            .args(["--url", url, "--json"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&run.stdout).into_owned();
        let answers: Vec<serde_json::Value> = (text.lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (run.status.code(), answers)
    };
    // As `check`: 1 when the agent may not fetch the URL.
    let (code, http) = explain("http://two.example/x");
    assert_eq!(code, Some(1));
    assert_eq!(http.len(), 1);
    assert_eq!(http[0]["site"], "http://two.example:80");
    assert_eq!(http[0]["verdict"], "DISALLOWED");
    let (_, https) = explain("https://two.example/x");
    assert_eq!(https[0]["site"], "https://two.example:443");
    assert_eq!(https[0]["verdict"], "ALLOWED");
    let (_, path) = explain("/x");
    assert_eq!(
        path[0]["site"], "https://two.example:443",
        "the latest capture's site"
    );
    let (code, none) = explain("http://two.example:8080/x");
    assert_eq!((code, none.len()), (Some(2), 0));
}

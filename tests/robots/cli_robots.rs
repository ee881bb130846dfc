//! `repcensus check` and `repcensus parse`, run as a user runs them.

use crate::common;

use std::io::Write;

fn robots_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

/// `repcensus parse` of a file holding `text`: its JSON (the command must succeed).
fn parse_json(text: &str) -> serde_json::Value {
    let f = robots_file(text);
    let out = common::bin()
        .args(["parse", f.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const ROBOTS: &str = "User-agent: *\nDisallow: /private\nAllow: /private/ok$\n\nUser-agent: FooBot\nUser-Agent-Purpose: ai-training\nDisallow: /\nApp-Directive: /n/ search;snippets=?0\n";

#[test]
fn check_prints_googles_line_and_exit_code() {
    let f = robots_file(ROBOTS);
    let p = f.path().to_str().unwrap();
    let out = common::bin()
        .args(["check", p, "FooBot", "http://e.com/x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "user-agent 'FooBot' with URI 'http://e.com/x': DISALLOWED\n"
    );
    let out = common::bin()
        .args(["check", p, "BarBot", "http://e.com/public"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "user-agent 'BarBot' with URI 'http://e.com/public': ALLOWED\n"
    );
    // Missing file: exit 2.
    let out = common::bin()
        .args(["check", "/nonexistent/robots.txt", "a", "http://e.com/"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `check --json` gives each agent's `Content-Usage` preferences for each URL (attach-05: the
/// rules of its groups whose path matches the URL longest), none where it may not fetch it.
#[test]
fn check_json_gives_the_content_usage_of_each_agent_and_url() {
    let f = robots_file(
        "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y, search=n\n\
         Disallow: /never\n\nUser-agent: GPTBot\nAllow: /\n",
    );
    let out = common::bin()
        .args(["check", f.path().to_str().unwrap(), "--json"])
        .args(["--agent", "OtherBot", "--agent", "GPTBot"])
        .args(["--url", "http://e.com/a", "--url", "http://e.com/open/b"])
        .args(["--url", "http://e.com/never/c"])
        .output()
        .unwrap();
    let got: Vec<(String, String, serde_json::Value)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| {
            let text = |k: &str| v[k].as_str().unwrap().to_string();
            (text("agent"), text("path"), v["content_usage"].clone())
        })
        .collect();
    let s = |v: &str| serde_json::Value::String(v.into());
    let none = serde_json::Value::Null;
    assert_eq!(
        got,
        [
            ("OtherBot".into(), "/a".into(), s("train-ai=n")),
            (
                "OtherBot".into(),
                "/open/b".into(),
                s("train-ai=y,search=n")
            ),
            ("OtherBot".into(), "/never/c".into(), none.clone()),
            ("GPTBot".into(), "/a".into(), none.clone()),
            ("GPTBot".into(), "/open/b".into(), none.clone()),
            ("GPTBot".into(), "/never/c".into(), none),
        ]
    );
}

#[test]
fn check_json_has_one_line_per_agent_and_url() {
    let f = robots_file(ROBOTS);
    let out = common::bin()
        .args(["check", f.path().to_str().unwrap(), "--json"])
        .args(["--agent", "BarBot", "--agent", "FooBot"])
        .args([
            "--url",
            "http://e.com/private/ok",
            "--url",
            "http://e.com/private/x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    let v = |agent: &str, url: &str| {
        lines
            .iter()
            .find(|l| l["agent"] == agent && l["url"] == url)
            .unwrap()
            .clone()
    };
    let a = v("BarBot", "http://e.com/private/ok");
    assert_eq!(
        (
            a["allowed"].as_bool(),
            a["line"].as_u64(),
            a["source"].as_str()
        ),
        (Some(true), Some(3), Some("wildcard"))
    );
    let b = v("BarBot", "http://e.com/private/x");
    assert_eq!(
        (
            b["allowed"].as_bool(),
            b["line"].as_u64(),
            b["group"].as_u64()
        ),
        (Some(false), Some(2), Some(0))
    );
    let c = v("FooBot", "http://e.com/private/ok");
    assert_eq!(
        (
            c["allowed"].as_bool(),
            c["line"].as_u64(),
            c["source"].as_str()
        ),
        (Some(false), Some(7), Some("specific"))
    );
    // A purpose decides when no group names the agent.
    let out = common::bin()
        .args([
            "check",
            f.path().to_str().unwrap(),
            "Other",
            "http://e.com/a",
            "--purpose",
            "AI-Training",
            "--json",
        ])
        .output()
        .unwrap();
    let o: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (o["source"].as_str(), o["allowed"].as_bool()),
        (Some("purpose"), Some(false))
    );
}

#[test]
fn check_explain_names_the_deciding_line() {
    let f = robots_file(ROBOTS);
    let out = common::bin()
        .args([
            "check",
            f.path().to_str().unwrap(),
            "BarBot",
            "http://e.com/private/x",
            "--explain",
        ])
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("line 2: Disallow: /private"), "{s}");
    assert!(s.contains("'*' group"), "{s}");
}

/// `check --documented` reads the file as the crawler's operator documents: Applebot follows
/// Googlebot's group, AdsBot-Google ignores `*`; without the flag, Google's library's reading.
#[test]
fn check_documented_follows_each_crawlers_own_group_rules() {
    let f = robots_file("User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n");
    let check = |agent: &str, url: &str, documented: bool| {
        let mut c = common::bin();
        c.args(["check", f.path().to_str().unwrap(), agent, url, "--explain"]);
        if documented {
            c.arg("--documented");
        }
        let out = c.output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, s) = check("Applebot", "http://e.com/a", false);
    assert_eq!(code, Some(0), "{s}");
    let (code, s) = check("Applebot", "http://e.com/a", true);
    assert_eq!(code, Some(1), "{s}");
    assert!(
        s.contains("naming 'Googlebot', which the crawler follows"),
        "{s}"
    );
    let (code, s) = check("AdsBot-Google", "http://e.com/x", false);
    assert_eq!(code, Some(1), "{s}");
    let (code, s) = check("AdsBot-Google", "http://e.com/x", true);
    assert_eq!(code, Some(0), "{s}");
    assert!(s.contains("ignores the '*' group(s)"), "{s}");
    // An agent the registry does not know reads as without the flag.
    assert_eq!(check("FooBot", "http://e.com/x", true).0, Some(1));
    // Several URLs are each decided against the groups chosen once for the agent.
    let out = common::bin()
        .args([
            "check",
            f.path().to_str().unwrap(),
            "--documented",
            "--explain",
        ])
        .args([
            "--agent",
            "Applebot",
            "--url",
            "http://e.com/a",
            "--url",
            "http://e.com/x",
        ])
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert_eq!(s.matches("DISALLOWED").count(), 2, "{s}");
    assert_eq!(s.matches("naming 'Googlebot', which").count(), 2, "{s}");
    // A crawler that does not honour robots.txt: a note says so, the lines say what the file
    // asks of it.
    let out = common::bin()
        .args(["check", f.path().to_str().unwrap(), "Perplexity-User"])
        .args(["http://e.com/x", "--documented"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Perplexity-User does not honour robots.txt"),
        "{err}"
    );
    assert!(err.contains("docs.perplexity.ai"), "{err}");
    assert_eq!(out.status.code(), Some(1));
}

/// `check --json` and `--explain` give the App-Directives each application obtains for the
/// agent and URL (plan-b: the agent's groups, else `*`; the longest matching path), not only
/// those for `/`.
#[test]
fn check_gives_the_app_directives_of_each_agent_and_url() {
    let f = robots_file(
        // The Disallow lines end the groups (App-Directives lines do not, for Google's parser).
        "User-agent: *\nDisallow: /private\nApp-Directives: search;snippets=?1\nApp-Directives: /news/ search;snippets=?0, archive;keep=5\n\nUser-agent: FooBot\nDisallow:\nApp-Directives: /news/ search;snippets=?1\n",
    );
    let json = |agent: &str, url: &str| -> serde_json::Value {
        let out = common::bin()
            .args(["check", f.path().to_str().unwrap(), agent, url, "--json"])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let apps = |v: &serde_json::Value| -> Vec<String> {
        (v["app_directives"].as_array().unwrap().iter())
            .map(|d| {
                format!(
                    "{}:{}={}",
                    d["app"].as_str().unwrap(),
                    d["directive"].as_str().unwrap(),
                    d["value"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(
        apps(&json("BarBot", "http://e.com/")),
        ["search:snippets=true"]
    );
    assert_eq!(
        apps(&json("BarBot", "http://e.com/news/1")),
        ["search:snippets=false", "archive:keep=5"]
    );
    // FooBot's own group decides; `*`'s directives do not add to it.
    assert_eq!(
        apps(&json("FooBot", "http://e.com/news/1")),
        ["search:snippets=true"]
    );
    assert!(apps(&json("FooBot", "http://e.com/")).is_empty());
    let out = common::bin()
        .args([
            "check",
            f.path().to_str().unwrap(),
            "BarBot",
            "http://e.com/news/1",
            "--explain",
        ])
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("search: snippets=false, archive: keep=5"), "{s}");
}

#[test]
fn parse_prints_the_table_rows() {
    let v = parse_json(ROBOTS);
    assert_eq!(v["robots_files"]["n_groups"], 2);
    assert_eq!(v["robots_files"]["n_agents"], 3);
    assert_eq!(v["robots_files"]["has_purpose"], true);
    assert_eq!(v["robots_agents"].as_array().unwrap().len(), 3);
    assert_eq!(v["robots_rules"].as_array().unwrap().len(), 4);
    let ad = &v["app_directives"][0];
    assert_eq!(
        (
            ad["app_id"].as_str(),
            ad["directive"].as_str(),
            ad["value"].as_str()
        ),
        (Some("search"), Some("snippets"), Some("false"))
    );
    assert_eq!(
        ad["agents"],
        serde_json::json!(["foobot", "purpose:ai-training"])
    );
    // A file read alone: warc_type "file", offset 0.
    assert_eq!(v["robots_files"]["warc_type"], "file");
    assert_eq!(v["robots_files"]["warc_offset"], 0);
}

/// `parse` gives every tracked agent's verdict columns, as a scan's agent_verdicts rows for
/// the same body hold them.
#[test]
fn parse_gives_each_tracked_agents_verdict() {
    let body = "User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n";
    let v = parse_json(body);
    let rows = v["agent_verdicts"].as_array().unwrap();
    assert_eq!(rows.len(), repcensus::Registry::builtin().agents.len());
    let of = |agent: &str| {
        let r = rows.iter().find(|r| r["agent"] == agent).unwrap();
        (
            r["verdict"].as_str().unwrap().to_string(),
            r["verdict_documented"].as_str().unwrap().to_string(),
            r["verdict_source"].as_str().unwrap().to_string(),
        )
    };
    let s = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(of("GPTBot"), s("full_block", "full_block", "wildcard"));
    assert_eq!(
        of("Googlebot"),
        s("partial_block", "partial_block", "specific")
    );
    // Googlebot-Image follows Googlebot's group when none names it (Google documents it).
    assert_eq!(
        of("Googlebot-Image"),
        s("full_block", "partial_block", "wildcard")
    );
    // Which groups decided the documented reading; a crawler that ignores robots.txt.
    let documented_source = |agent: &str| {
        let r = rows.iter().find(|r| r["agent"] == agent).unwrap();
        r["verdict_documented_source"].as_str().unwrap().to_string()
    };
    assert_eq!(documented_source("Googlebot-Image"), "fallback");
    assert_eq!(documented_source("GPTBot"), "wildcard");
    assert_eq!(of("Feedfetcher-Google").1, "not_honored");
    assert_eq!(documented_source("Feedfetcher-Google"), "not_honored");
}

/// An agent that is not a product token (`Googlebot/2.1`) gets a warning on stderr: Google's
/// matcher never matches it to a group, so `*` decides. `--explain` counts in the singular.
#[test]
fn check_warns_of_an_agent_that_is_not_a_product_token() {
    let f = robots_file("User-agent: googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n");
    let p = f.path().to_str().unwrap();
    let out = common::bin()
        .args(["check", p, "Googlebot/2.1", "http://e.com/y"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: 'Googlebot/2.1' is not a product token"),
        "{err}"
    );
    let out = common::bin()
        .args(["check", p, "Googlebot", "http://e.com/x", "--explain"])
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("(1 allow/disallow line considered)"), "{s}");
    assert!(s.contains("the longest matching pattern, 2 bytes"), "{s}");
}

#[test]
fn parse_and_check_read_at_most_500_kib_of_an_endless_input() {
    let out = common::bin().args(["parse", "/dev/zero"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Counted up to 64 MiB past what is kept: more than 500 KiB, so truncated.
    assert_eq!(v["robots_files"]["body_bytes"], 512_000 + (64 << 20));
    assert_eq!(v["robots_files"]["truncated"], true);
    assert!(String::from_utf8_lossy(&out.stderr).contains("only its first 500 KiB are read"));
    let out = common::bin()
        .args(["check", "/dev/zero", "a", "http://e.com/"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn thousands_of_wildcard_rules_against_a_100_kb_url_give_googles_verdict() {
    // 12,000 rules (480 KB) that each hold 12 wildcards, against a path of 100,000 `a`: Google's
    // position sets would walk about 10^13 positions; the rules still decide as they would.
    let mut text = String::from("User-agent: *\n");
    for _ in 0..12_000 {
        text.push_str("Disallow: /*a*a*a*a*a*a*a*a*a*a*a*b\n");
    }
    text.push_str("Disallow: /*a$\n");
    let f = robots_file(&text);
    let url = format!("http://e.com/{}", "a".repeat(100_000));
    let out = common::bin()
        .args(["check", f.path().to_str().unwrap(), "Bot", &url, "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pattern"], "/*a$");
    assert_eq!(v["rules_considered"], 12_001);
}

#[test]
fn a_closed_output_pipe_ends_quietly_and_a_full_device_is_an_error() {
    for args in [
        &["agents", "--format", "json"][..],
        &["parse", "/dev/zero"],
        &["check", "/dev/null", "a", "http://e.com/", "--json"],
    ] {
        let mut child = common::bin()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("Broken pipe") && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = common::bin()
        .args(["agents", "--format", "json"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("No space left on device") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

/// `parse` of a file longer than 500 KiB reads its first 500 KiB and says the file is longer
/// (`body_bytes` is the file's size, `truncated` true; it said false).
#[test]
fn parse_of_a_file_past_the_limit_says_it_is_truncated() {
    let text = format!("User-agent: *\nDisallow: /x\n{}", "# pad\n".repeat(100_000));
    let v = parse_json(&text);
    assert_eq!(v["robots_files"]["truncated"], true);
    assert_eq!(v["robots_files"]["body_bytes"], text.len());
    let v = parse_json(ROBOTS);
    assert_eq!(v["robots_files"]["truncated"], false);
}

/// `check` and `parse` on a FIFO that no writer opens give up after `--stall-timeout` (they
/// waited forever).
#[cfg(unix)]
#[test]
fn check_and_parse_of_a_fifo_without_writer_give_up() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let fifo = fifo.to_str().unwrap();
    for args in [&["parse", fifo][..], &["check", fifo, "GPTBot", "/"]] {
        let out = common::bin()
            .args(args)
            .args(["--stall-timeout", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("no writer opened the FIFO"), "{said}");
    }
}

/// `check --explain` prints a line of the file with its control characters and bidirectional
/// controls escaped: a line could retitle the terminal or clear the screen.
#[test]
fn check_explain_escapes_control_characters_of_the_file() {
    let f = robots_file("User-agent: *\nDisallow: /x #\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}evil\n");
    let out = common::bin()
        .args([
            "check",
            "--explain",
            f.path().to_str().unwrap(),
            "GPTBot",
            "/x",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(r"#\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}evil"),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text}"
    );
}

/// A name followed by punctuation is named exactly (`GPTBot, ClaudeBot`, `CCBot;`,
/// `GPTBot(1.0)`, `GPTBot*`; real files write `Mediapartners-Google*`): `named_exact` was false
/// while `named` was true, and such hosts left every "hosts naming it" figure.
#[test]
fn a_name_followed_by_punctuation_is_named_exactly() {
    for (line, agent) in [
        ("GPTBot, ClaudeBot", "GPTBot"),
        ("CCBot;", "CCBot"),
        ("GPTBot(1.0)", "GPTBot"),
        ("GPTBot*", "GPTBot"),
        ("Mediapartners-Google*", "Mediapartners-Google"),
    ] {
        let v = parse_json(&format!("User-agent: {line}\nDisallow: /\n"));
        let row = v["agent_verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["agent"] == agent)
            .unwrap();
        assert_eq!(row["named"], true, "{line}");
        assert_eq!(row["named_exact"], true, "{line}");
        assert_eq!(row["verdict"], "full_block", "{line}");
    }
    // Google's reading takes the first name of a list only: ClaudeBot is named by neither.
    let v = parse_json("User-agent: GPTBot, ClaudeBot\nDisallow: /\n");
    let claude = (v["agent_verdicts"].as_array().unwrap().iter())
        .find(|r| r["agent"] == "ClaudeBot")
        .unwrap();
    assert_eq!(
        (&claude["named"], &claude["named_exact"]),
        (&false.into(), &false.into())
    );
}

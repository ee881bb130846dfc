//! `page_verdicts`: each 2xx HTML page's verdict for each chosen agent, by the robots.txt
//! capture that governs its host, made from the lines the tables keep. Checked against the
//! original bodies of the 519 real robots.txt files of samples/real-robots.warc.gz, matched by
//! the library's matcher on each page's URL, and on hosts whose robots.txt is missing,
//! unreachable or redirected.

use crate::common;

use common::corpus::real_robots;
use common::{bin, duck, scan, Response};
use repcensus::{path_params_query, Matcher, Registry, RobotsTxt};
use std::collections::BTreeMap;
use std::path::Path;

/// A WARC of `response` records (URL, status line, media type, body), with each record's offset.
fn write_warc(path: &Path, responses: &[(String, &str, &str, Vec<u8>)]) -> Vec<u64> {
    let responses: Vec<Response<'_>> = (responses.iter())
        .map(|(url, status, media_type, body)| Response {
            url,
            status,
            headers: format!("Content-Type: {media_type}\r\n"),
            body,
        })
        .collect();
    common::http_warc(path, "2026-03-01T00:00:00Z", &responses)
}

/// Paths a file's own rules name: each Allow/Disallow pattern with `*` as `x` and without a
/// final `$`, and the same followed by `x.html`; only those a URL can hold as written.
fn paths_of(body: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(body);
    let mut paths = vec!["/".to_string()];
    for line in text.lines() {
        let l = line.split('#').next().unwrap().trim();
        let lower = l.to_ascii_lowercase();
        let Some(v) = ["disallow:", "allow:"]
            .iter()
            .find_map(|k| lower.starts_with(k).then(|| l[k.len()..].trim()))
        else {
            continue;
        };
        let p = v.replace('*', "x");
        let p = p.strip_suffix('$').unwrap_or(&p);
        if !p.starts_with('/') || !p.bytes().all(|b| b.is_ascii_graphic()) {
            continue;
        }
        paths.push(p.to_string());
        paths.push(format!("{p}x.html"));
    }
    paths.sort();
    paths.dedup();
    paths.truncate(12);
    paths
}

/// The agents checked: the default (`ai_training`) and agents whose documented reading differs
/// from Google's (a fallback token, `*` ignored, robots.txt not honoured).
const AGENTS: &str = "ai_training,Googlebot-Image,Applebot,AdsBot-Google,Feedfetcher-Google";

/// The expected row of `page_verdicts` for an agent on a page of a host whose robots.txt is
/// `body` (200), as `verdict,verdict_documented,rule_line`.
fn expected(body: &[u8], agent: &repcensus::Agent, url: &str) -> String {
    if body.iter().all(|b| b.is_ascii_whitespace()) {
        let documented = match agent.ignores_robots_txt() {
            true => "not_honored",
            false => "no_robots",
        };
        return format!("no_robots,{documented},");
    }
    let robots = RobotsTxt::parse(body);
    let path = path_params_query(url);
    let mut m = Matcher::new();
    let purpose = agent.purpose.as_deref();
    let sel = m.select(&robots, &[&agent.token], purpose);
    let v = m.decide(&robots, sel, path.as_bytes());
    let word = |allowed: bool| if allowed { "allowed" } else { "disallowed" };
    let documented = if agent.ignores_robots_txt() {
        "not_honored"
    } else {
        let sel = m.select_documented(&robots, &agent.token, purpose, agent.group_rules());
        word(m.decide(&robots, sel, path.as_bytes()).allowed)
    };
    let line = (v.priority > 0).then_some(v.line).flatten();
    let line = line.map_or(String::new(), |l| l.to_string());
    format!("{},{documented},{line}", word(v.allowed))
}

#[test]
fn page_verdicts_made_from_the_tables_agree_with_the_original_files_of_real_robots_txt() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("pages.warc");
    let out = dir.path().join("out");
    let bodies = real_robots();
    let mut responses = Vec::new();
    // Which host and URL each page is: by its place in `responses`.
    let mut pages: Vec<(usize, usize, String)> = Vec::new();
    for (h, (_, body)) in bodies.iter().enumerate() {
        let host = format!("r{h}.example");
        let robots = format!("http://{host}/robots.txt");
        responses.push((robots, "200 OK", "text/plain", body.clone()));
        for p in paths_of(body) {
            let url = format!("http://{host}{p}");
            pages.push((responses.len(), h, url.clone()));
            responses.push((url, "200 OK", "text/html", b"<html></html>".to_vec()));
        }
    }
    // Pages that get no rows: not HTML, not 2xx, and on a host without a robots.txt capture.
    let host = "r0.example";
    for (url, status, ty) in [
        (
            format!("http://{host}/feed.xml"),
            "200 OK",
            "application/xml",
        ),
        (format!("http://{host}/gone"), "404 Not Found", "text/html"),
        (
            "http://uncovered.example/".to_string(),
            "200 OK",
            "text/html",
        ),
    ] {
        responses.push((url, status, ty, b"<html></html>".to_vec()));
    }
    let offsets = write_warc(&warc, &responses);
    let (code, err) = scan(&[
        warc.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--crawl",
        "pages",
        "--page-agents",
        AGENTS,
    ]);
    assert_eq!(code, 0, "{err}");

    let registry = Registry::builtin();
    let mut agents: Vec<&repcensus::Agent> = (registry.agents.iter())
        .filter(|a| a.category == "ai_training")
        .collect();
    for name in AGENTS.split(',').skip(1) {
        agents.push(&registry.agents[registry.position(name).unwrap()]);
    }
    let mut want = BTreeMap::new();
    for (k, h, url) in &pages {
        for a in &agents {
            let key = format!("{},{}", offsets[*k], a.name);
            want.insert(key, expected(&bodies[*h].1, a, url));
        }
    }
    let csv = duck(
        &out,
        "select warc_offset, agent, verdict, verdict_documented, coalesce(rule_line::varchar, '') \
         from 'page_verdicts/*/*.parquet' order by all",
    );
    let got: BTreeMap<String, String> = (csv.lines().skip(1))
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, ',').collect();
            (format!("{},{}", f[0], f[1]), f[2].to_string())
        })
        .collect();
    assert_eq!(got.len(), want.len(), "one row per page and agent");
    let disallowed = want
        .values()
        .filter(|v| v.starts_with("disallowed"))
        .count();
    assert!(
        disallowed > 1000,
        "the rules' own paths are disallowed: {disallowed}"
    );
    let differing: Vec<_> = (want.iter())
        .filter(|(k, v)| got.get(*k) != Some(v))
        .take(5)
        .map(|(k, v)| format!("{k}: want {v}, got {:?}", got.get(k)))
        .collect();
    assert!(differing.is_empty(), "{differing:#?}");
}

#[test]
fn pages_of_hosts_whose_robots_txt_is_missing_unreachable_or_redirected_read_as_their_status() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("status.warc");
    let out = dir.path().join("out");
    let html = || b"<html></html>".to_vec();
    let robots = |host: &str, status, body: &str| {
        let url = format!("http://{host}/robots.txt");
        (url, status, "text/plain", body.as_bytes().to_vec())
    };
    let page = |host: &str| (format!("http://{host}/a"), "200 OK", "text/html", html());
    let responses = vec![
        robots("notfound.example", "404 Not Found", ""),
        page("notfound.example"),
        robots("down.example", "503 Service Unavailable", ""),
        page("down.example"),
        robots("busy.example", "429 Too Many Requests", ""),
        page("busy.example"),
        (
            "http://moved.example/robots.txt".to_string(),
            "301 Moved Permanently\r\nLocation: http://elsewhere.example/robots.txt",
            "text/plain",
            Vec::new(),
        ),
        page("moved.example"),
        robots("blocked.example", "200 OK", "User-agent: *\nDisallow: /\n"),
        page("blocked.example"),
        page("blocked.example"),
    ];
    write_warc(&warc, &responses);
    let (code, err) = scan(&[
        warc.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--page-agents",
        "GPTBot,Perplexity-User",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows = duck(
        &out,
        "select host, agent, verdict, verdict_rfc9309, verdict_documented, robots_fetch_outcome, \
         count(*) from 'page_verdicts/*/*.parquet' group by all order by all",
    );
    let expected = "\
host,agent,verdict,verdict_rfc9309,verdict_documented,robots_fetch_outcome,count_star()
blocked.example,GPTBot,disallowed,disallowed,disallowed,ok,2
blocked.example,Perplexity-User,disallowed,disallowed,not_honored,ok,2
busy.example,GPTBot,unreachable,no_robots,unreachable,too_many_requests,1
busy.example,Perplexity-User,unreachable,no_robots,not_honored,too_many_requests,1
down.example,GPTBot,unreachable,disallowed,unreachable,server_error,1
down.example,Perplexity-User,unreachable,disallowed,not_honored,server_error,1
moved.example,GPTBot,redirect,redirect,redirect,redirect,1
moved.example,Perplexity-User,redirect,redirect,not_honored,redirect,1
notfound.example,GPTBot,no_robots,no_robots,no_robots,not_found,1
notfound.example,Perplexity-User,no_robots,no_robots,not_honored,not_found,1
";
    assert_eq!(rows, expected);
}

#[test]
fn page_agents_takes_names_and_categories_and_refuses_unknown_ones_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let sample = common::repo().join("samples/verdict-cases.warc.gz");
    let (code, err) = scan(&[
        sample.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--page-agents",
        "GPTBot,NoSuchBot",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("\"NoSuchBot\" is neither an agent"), "{err}");
    assert!(!out.join("inputs").exists(), "nothing was read");
    let (code, err) = scan(&[sample.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let hosts = |agents: &str| {
        let mut run = bin();
        run.arg("hosts").arg(&out).args(["--page-agents", agents]);
        run.output().unwrap()
    };
    assert_eq!(hosts("seo,GPTBot").status.code(), Some(0));
    let refused = hosts("seo,nope");
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("\"nope\" is neither an agent"), "{err}");
}

#[test]
fn page_verdicts_are_not_derived_without_the_lines_of_the_robots_txt_files_and_the_run_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("p.warc");
    let (out, summary) = (dir.path().join("out"), dir.path().join("summary.json"));
    let robots = "User-agent: GPTBot\nDisallow: /\n".as_bytes().to_vec();
    let html = b"<html></html>".to_vec();
    write_warc(
        &warc,
        &[
            (
                "http://a.example/robots.txt".into(),
                "200 OK",
                "text/plain",
                robots,
            ),
            ("http://a.example/".into(), "200 OK", "text/html", html),
        ],
    );
    let (code, err) = scan(&[
        warc.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
        "--tables",
        "robots_files,pages",
    ]);
    assert_eq!(code, 0, "{err}");
    let s = common::read_summary(&summary);
    let why = &s["robots_hosts"]["crawls"][0]["page_verdicts_skipped"];
    assert!(
        why.as_str()
            .is_some_and(|w| w.contains("without robots_agents or robots_rules")),
        "{s}"
    );
    assert!(!common::has_parts(&out, "page_verdicts"));
    // The same input scanned again with every table: its lines are there, and so are its rows.
    let (code, err) = scan(&[warc.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let n = common::duck_value(&out, "select count(*) from 'page_verdicts/*/*.parquet'");
    let registry = Registry::builtin();
    let ai_training = registry
        .agents
        .iter()
        .filter(|a| a.category == "ai_training");
    assert_eq!(
        n,
        ai_training.count().to_string(),
        "one row per ai_training agent"
    );
}

/// RFC 9309 section 2.3: a robots.txt governs its own scheme, host and port. An `http://` file
/// that disallows everything and a later `https://` file that allows it govern their own pages;
/// a page on a port no file was captured on is not covered; the host counts once, by the site
/// of its latest capture, in `robots_hosts`' host rows and the summaries.
#[test]
fn each_scheme_and_port_of_a_host_is_governed_by_its_own_robots_txt() {
    let dir = tempfile::tempdir().unwrap();
    let (early, late) = (dir.path().join("early.warc"), dir.path().join("late.warc"));
    let out = dir.path().join("out");
    let html = || b"<html></html>".to_vec();
    let robots = |url: &str, body: &str| {
        let body = body.as_bytes().to_vec();
        (url.to_string(), "200 OK", "text/plain", body)
    };
    let page = |url: &str| (url.to_string(), "200 OK", "text/html", html());
    write_warc(
        &early,
        &[
            robots(
                "http://two.example/robots.txt",
                "User-agent: *\nDisallow: /\n",
            ),
            page("http://two.example/x"),
            page("http://two.example:8080/x"),
        ],
    );
    let late_responses = [
        robots(
            "https://two.example/robots.txt",
            "User-agent: *\nAllow: /\n",
        ),
        page("https://two.example/x"),
        page("HTTPS://two.example:443/y"),
    ];
    let late_responses: Vec<Response<'_>> = (late_responses.iter())
        .map(|(url, status, media_type, body)| Response {
            url,
            status,
            headers: format!("Content-Type: {media_type}\r\n"),
            body,
        })
        .collect();
    common::http_warc(&late, "2026-04-01T00:00:00Z", &late_responses);
    let (code, err) = scan(&[
        early.to_str().unwrap(),
        late.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--page-agents",
        "GPTBot",
    ]);
    assert_eq!(code, 0, "{err}");
    let verdicts = duck(
        &out,
        "select url, verdict, robots_warc_file like '%early%' as by_early \
         from 'page_verdicts/*/*.parquet' order by all",
    );
    assert_eq!(
        verdicts,
        "url,verdict,by_early\n\
         HTTPS://two.example:443/y,allowed,false\n\
         http://two.example/x,disallowed,true\n\
         https://two.example/x,allowed,false\n"
    );
    let sites = duck(
        &out,
        "select scheme, port, counts_for_host, captures, fetch_outcome \
         from 'robots_hosts/*/*.parquet' order by all",
    );
    assert_eq!(
        sites,
        "scheme,port,counts_for_host,captures,fetch_outcome\n\
         http,80,false,1,ok\n\
         https,443,true,1,ok\n"
    );
    // The host's figures: one host, by its latest capture (the https file allows GPTBot).
    let gptbot = duck(
        &out,
        "select coalesce(sum(hosts) filter (verdict = 'full_block'), 0) as blocking, \
         sum(hosts) as hosts \
         from 'summary_agents/*/*.parquet' where agent = 'GPTBot'",
    );
    assert_eq!(gptbot, "blocking,hosts\n0,1\n");
    // The bundled query counts the port-8080 page as uncovered, and the others by their site.
    let sql = std::fs::read_to_string(common::repo().join("queries/pages_disallowed.sql")).unwrap();
    let counted = duck(
        &out,
        &format!(
            "select urls_resolved, urls_disallowed, urls_uncovered from ({}) where agent = 'GPTBot'",
            sql.trim().trim_end_matches(';')
        ),
    );
    assert_eq!(
        counted,
        "urls_resolved,urls_disallowed,urls_uncovered\n3,1,1\n"
    );
}

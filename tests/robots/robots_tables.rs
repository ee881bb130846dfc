//! The robots.txt tables filled by `scan` from the real robots.txt corpus in the samples:
//! the ACAP records of the two real ACAP files, and a row per line for a known file.

use crate::common;

use common::{scan, table_rows};

fn scan_real() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let input = common::repo().join("samples/real-robots.warc.gz");
    let (code, stderr) = scan(&[
        input.to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    out
}

#[test]
fn acap_records_of_the_real_files() {
    let out = scan_real();
    let rows = table_rows(out.path(), "acap_fields", &["line_no"]);
    // www.rsc.org: two records, the first to two named crawlers.
    let rsc: Vec<&String> = rows
        .iter()
        .filter(|r| r.contains("crawlers=[gsa-crawler, guidebot]"))
        .collect();
    assert_eq!(rsc.len(), 3, "{rows:#?}");
    assert!(rsc.iter().any(|r| r.contains("field=disallow|")
        && r.contains("usage=crawl|")
        && r.contains("resource=/|")));
    // Every record: crawl prohibitions with paths, no problems, version 1.0 in both files.
    let disallows = rows
        .iter()
        .filter(|r| r.contains("field=disallow|"))
        .count();
    assert_eq!(disallows, 25);
    assert!(rows.iter().all(|r| r.contains("problems=[]")));
    assert_eq!(
        rows.iter()
            .filter(|r| r.contains("field=version|") && r.contains("resource=1.0|"))
            .count(),
        2
    );
    assert!(rows
        .iter()
        .any(|r| r.contains("crawlers=[*]") && r.contains("resource=/*.ece$|")));
    assert!(rows
        .iter()
        .any(|r| r.contains("crawlers=[*]") && r.contains("resource=/Labs/|")));
    let files = table_rows(out.path(), "robots_files", &[]);
    assert_eq!(
        files
            .iter()
            .filter(|r| r.contains("has_acap=true") && r.contains("acap_version=1.0"))
            .count(),
        2
    );
}

#[test]
fn every_parsed_capture_has_its_line_rows() {
    let out = scan_real();
    let files = table_rows(out.path(), "robots_files", &[]);
    assert_eq!(files.len(), 519);
    assert!(files.iter().all(|r| r.contains("parsed=true")));
    // Lines of the real corpus: agent rows + rule rows + blank lines = n_lines, per file, in SQL.
    let check = common::duck_value(
        out.path(),
        "WITH f AS (SELECT warc_offset, n_lines, n_agents FROM read_parquet('robots_files/*/*.parquet')),
              a AS (SELECT warc_offset, count(*) n FROM read_parquet('robots_agents/*/*.parquet') GROUP BY 1),
              r AS (SELECT warc_offset, count(*) n FROM read_parquet('robots_rules/*/*.parquet') GROUP BY 1)
         SELECT count(*) FROM f LEFT JOIN a USING (warc_offset) LEFT JOIN r USING (warc_offset)
         WHERE coalesce(a.n, 0) <> n_agents OR coalesce(a.n, 0) + coalesce(r.n, 0) > n_lines",
    );
    assert_eq!(check.trim(), "0", "{check}");
}

/// A robots.txt answered with 402 is `payment_required` (read as the 4xx it is); a
/// bot-protection challenge page with 403 or 503 is `challenge` (its verdicts `unknown`), while
/// a site's own 403 page stays `forbidden`; Cloudflare's managed block is found, and contradicted
/// only where the site's own lines give an agent it names another verdict for `/`.
#[test]
fn payment_required_challenge_and_cloudflare_managed_block_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("r.warc"), dir.path().join("out"));
    let challenge = "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>\
        <script>window._cf_chl_opt={cType: 'managed'};</script></body></html>";
    let own_403 = "<html><head><title>403 Forbidden</title></head><body>nginx</body></html>";
    let managed = "# BEGIN Cloudflare Managed content\nUser-agent: *\nAllow: /\n\n\
        User-agent: GPTBot\nDisallow: /\n# END Cloudflare Managed Content\n";
    let allowing = format!("{managed}\nUser-agent: GPTBot\nAllow: /\n");
    let agreeing = format!("{managed}\nUser-agent: *\nDisallow: /cgi-bin/\n");
    common::robots_warc_with_status(
        &input,
        "2026-10-01T00:00:00Z",
        &[
            ("pay.example", "402 Payment Required", "pay to crawl"),
            ("chl403.example", "403 Forbidden", challenge),
            ("chl503.example", "503 Service Unavailable", challenge),
            ("own403.example", "403 Forbidden", own_403),
            ("cf-allow.example", "200 OK", &allowing),
            ("cf-agree.example", "200 OK", &agreeing),
        ],
    );
    let (code, stderr) = scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let got = common::duck(
        &out,
        &common::with_verdicts_view(
            "SELECT f.host, f.http_status, f.fetch_outcome, f.cloudflare_managed, \
               f.cloudflare_contradicted, v.verdict, v.verdict_rfc9309 \
             FROM read_parquet('robots_files/*/*.parquet') f \
             JOIN agent_verdicts v USING (warc_file, warc_offset) \
             WHERE v.agent = 'GPTBot' ORDER BY f.host;",
        ),
    );
    assert_eq!(
        got.trim_end(),
        "host,http_status,fetch_outcome,cloudflare_managed,cloudflare_contradicted,verdict,\
         verdict_rfc9309\n\
         cf-agree.example,200,ok,true,false,full_block,full_block\n\
         cf-allow.example,200,ok,true,true,allowed,allowed\n\
         chl403.example,403,challenge,NULL,NULL,unknown,unknown\n\
         chl503.example,503,challenge,NULL,NULL,unknown,unknown\n\
         own403.example,403,forbidden,NULL,NULL,no_robots,no_robots\n\
         pay.example,402,payment_required,NULL,NULL,no_robots,no_robots"
    );
}

/// `robots_files` keeps each capture's scheme and port (the scheme's default when the URL
/// names none): with the host, the site a robots.txt governs.
#[test]
fn each_capture_keeps_its_scheme_and_port() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("r.warc"), dir.path().join("out"));
    let body = "User-agent: *\nDisallow: /\n";
    common::responses_warc(
        &input,
        "2026-10-01T00:00:00Z",
        &[
            ("http://a.example/robots.txt", "200 OK", "text/plain", body),
            ("https://a.example/robots.txt", "200 OK", "text/plain", body),
            (
                "http://a.example:8080/robots.txt",
                "200 OK",
                "text/plain",
                body,
            ),
            (
                "https://a.example:443/robots.txt",
                "200 OK",
                "text/plain",
                body,
            ),
        ],
    );
    let (code, stderr) = scan(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let got = common::duck(
        &out,
        "SELECT url, host, scheme, port FROM read_parquet('robots_files/*/*.parquet') \
         ORDER BY warc_offset",
    );
    assert_eq!(
        got.trim_end(),
        "url,host,scheme,port\n\
         http://a.example/robots.txt,a.example,http,80\n\
         https://a.example/robots.txt,a.example,https,443\n\
         http://a.example:8080/robots.txt,a.example,http,8080\n\
         https://a.example:443/robots.txt,a.example,https,443"
    );
}

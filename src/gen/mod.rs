//! A deterministic generator of Common-Crawl-like archives, for benchmarks and tests.
//!
//! The same options always give the same bytes. Like Common Crawl's files, a generated archive
//! starts with a `warcinfo` record (`isPartOf: CC-MAIN-GENERATED`) followed by
//! request/response/metadata triples, each record in its own gzip member. Two kinds exist:
//! `pages` (HTML pages, some with robots meta tags and `X-Robots-Tag` or `Robots-Tag` headers) and `robots`
//! (robots.txt captures with Common Crawl's spread of outcomes: rules, empty files, 404s,
//! redirects, 5xx, HTML error pages). The layout can also be plain WARC or whole-file gzip, so
//! that tests can check every container gives the same rows.

mod bodies;
mod real;

pub use real::real_bodies;

use bodies::{cc_html_page, html_page, robots_body, WORDS};
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::{self, Write};

/// What the archive holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenKind {
    Pages,
    /// HTML pages sized like Common Crawl's: see `cc_html_page`.
    CcPages,
    Robots,
    /// robots.txt captures as [`GenKind::Robots`], whose 2xx bodies are real files drawn at
    /// random from [`GenOptions::bodies`] (see [`real_bodies`]): real lengths, line counts and
    /// extension lines. A drawn file's `Sitemap` URLs name the capture's host, as a site's own
    /// file does (see `own_host`), so bodies repeat across hosts only where real ones would.
    RobotsReal,
}

/// How the records are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One gzip member per record (Common Crawl).
    GzipPerRecord,
    /// One gzip member for the whole file.
    GzipWholeFile,
    /// Uncompressed.
    Plain,
}

#[derive(Debug, Clone)]
pub struct GenOptions {
    pub kind: GenKind,
    pub layout: Layout,
    /// Stop after the uncompressed output reaches this many bytes.
    pub target_bytes: u64,
    pub seed: u64,
    /// The bodies [`GenKind::RobotsReal`] draws from (other kinds ignore them).
    pub bodies: Vec<Vec<u8>>,
}

/// What was generated.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct GenStats {
    pub records: u64,
    pub captures: u64,
    pub robots_captures: u64,
    /// Captures of `/llms.txt` or `/llms-full.txt` (pages kinds).
    pub llms_captures: u64,
    pub uncompressed_bytes: u64,
}

/// SplitMix64: small, fast and good enough for test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

struct Writer<'w, W: Write> {
    out: &'w mut W,
    layout: Layout,
    whole: Option<GzEncoder<Vec<u8>>>,
    stats: GenStats,
}

impl<W: Write> Writer<'_, W> {
    /// Write one capture: its request, response and metadata records.
    fn capture(
        &mut self,
        rng: &mut Rng,
        uri: &str,
        host: &str,
        date: &str,
        http: &[u8],
    ) -> io::Result<()> {
        self.stats.captures += 1;
        let request = format!(
            "GET {} HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\nAccept: text/html\r\nHost: {host}\r\n\r\n",
            &uri[uri.find(host).map_or(0, |i| i + host.len())..]
        );
        let h = warc_header(
            rng,
            "request",
            uri,
            date,
            "Content-Type: application/http; request\r\n",
        );
        self.record(&h, request.as_bytes())?;
        let h = warc_header(
            rng,
            "response",
            uri,
            date,
            "Content-Type: application/http; msgtype=response\r\n",
        );
        self.record(&h, http)?;
        let meta = format!("fetchTimeMs: {}\r\n", rng.below(2000));
        let h = warc_header(
            rng,
            "metadata",
            uri,
            date,
            "Content-Type: application/warc-fields\r\n",
        );
        self.record(&h, meta.as_bytes())?;
        Ok(())
    }

    fn record(&mut self, header: &str, block: &[u8]) -> io::Result<()> {
        let mut rec = Vec::with_capacity(header.len() + block.len() + 64);
        rec.extend_from_slice(header.as_bytes());
        rec.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
        rec.extend_from_slice(block);
        rec.extend_from_slice(b"\r\n\r\n");
        self.stats.records += 1;
        self.stats.uncompressed_bytes += rec.len() as u64;
        match self.layout {
            Layout::Plain => self.out.write_all(&rec),
            Layout::GzipPerRecord => {
                let mut e =
                    GzEncoder::new(Vec::with_capacity(rec.len() / 3), Compression::default());
                e.write_all(&rec)?;
                self.out.write_all(&e.finish()?)
            }
            Layout::GzipWholeFile => {
                let e = self
                    .whole
                    .get_or_insert_with(|| GzEncoder::new(Vec::new(), Compression::default()));
                e.write_all(&rec)?;
                if e.get_ref().len() > 1 << 20 {
                    let buf = std::mem::take(e.get_mut());
                    self.out.write_all(&buf)?;
                }
                Ok(())
            }
        }
    }
}

fn warc_header(rng: &mut Rng, ty: &str, uri: &str, date: &str, extra: &str) -> String {
    format!(
        "WARC/1.0\r\nWARC-Type: {ty}\r\nWARC-Date: {date}\r\nWARC-Record-ID: <urn:uuid:{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}>\r\n{extra}WARC-Target-URI: {uri}\r\n",
        rng.next() as u32,
        rng.next() as u16,
        rng.below(0x1000),
        rng.below(0x1000),
        rng.next() & 0xffff_ffff_ffff
    )
}

/// The revision of what [`generate`] writes: raised whenever the same options give other
/// bytes, so that an archive kept on disk by its options (the e2e bench's `target/bench-data/`)
/// is made again rather than measured under a name it no longer fits. 2: `robots-real` names
/// each capture's host in its sitemaps. 3: the pages kinds carry llms.txt captures and
/// `Robots-Tag` headers. 4: and tdmrep.json captures and `tdm-reservation` headers.
pub const GEN_REVISION: u32 = 4;

/// Write a generated archive to `out`.
pub fn generate(opts: &GenOptions, out: &mut impl Write) -> io::Result<GenStats> {
    let mut rng = Rng(opts.seed ^ 0x5eed);
    let mut w = Writer {
        out,
        layout: opts.layout,
        whole: None,
        stats: GenStats::default(),
    };
    let info = "software: repcensus-generator\r\nformat: WARC File Format 1.0\r\nisPartOf: CC-MAIN-GENERATED\r\ndescription: synthetic Common-Crawl-like archive\r\n";
    let mut h = warc_header(
        &mut rng,
        "warcinfo",
        "",
        "2025-08-04T10:00:00Z",
        "Content-Type: application/warc-fields\r\n",
    );
    h = h.replace(
        "WARC-Target-URI: \r\n",
        "WARC-Filename: generated.warc.gz\r\n",
    );
    w.record(&h, info.as_bytes())?;
    // The llms.txt captures draw their record ids from a stream of their own, so the pages
    // are the same with them as without.
    let mut side = Rng(opts.seed ^ 0x11a5);
    let mut n = 0u64;
    while w.stats.uncompressed_bytes < opts.target_bytes {
        n += 1;
        let host = format!(
            "www.site{}.{}",
            rng.below(1_000_000),
            rng.pick(&["com", "org", "co.uk", "de", "example"])
        );
        let date = format!(
            "2025-08-{:02}T{:02}:{:02}:{:02}Z",
            1 + rng.below(28),
            rng.below(24),
            rng.below(60),
            rng.below(60)
        );
        let (uri, http) = match opts.kind {
            GenKind::Pages | GenKind::CcPages => page_capture(&mut rng, opts.kind, &host, n),
            GenKind::Robots | GenKind::RobotsReal => {
                w.stats.robots_captures += 1;
                let real = (opts.kind == GenKind::RobotsReal).then_some(&opts.bodies[..]);
                robots_capture(&mut rng, &host, real)
            }
        };
        w.capture(&mut rng, &uri, &host, &date, &http)?;
        let pages = matches!(opts.kind, GenKind::Pages | GenKind::CcPages);
        if pages && n.is_multiple_of(LLMS_EVERY) {
            let (uri, http) = llms_capture(&host, n / LLMS_EVERY);
            w.stats.llms_captures += 1;
            w.capture(&mut side, &uri, &host, &date, &http)?;
        }
        if pages && n % TDMREP_EVERY == TDMREP_EVERY / 2 {
            let (uri, http) = tdmrep_capture(&host, n / TDMREP_EVERY);
            w.capture(&mut side, &uri, &host, &date, &http)?;
        }
    }
    if let Some(e) = w.whole.take() {
        let buf = e.finish()?;
        w.out.write_all(&buf)?;
    }
    w.out.flush()?;
    Ok(w.stats)
}

/// The URI and HTTP response of an HTML page capture.
fn page_capture(rng: &mut Rng, kind: GenKind, host: &str, n: u64) -> (String, Vec<u8>) {
    let uri = format!("https://{host}/{}/{}.html", rng.pick(WORDS), n);
    let body = if kind == GenKind::Pages {
        html_page(rng, host)
    } else {
        cc_html_page(rng, host)
    };
    // One page in ten has an X-Robots-Tag; about one in thirty a Robots-Tag (repext's name), two
    // thirds of them beside an X-Robots-Tag, which says the same on half of those pages and less
    // on the rest. Chosen by `n` where the draw of one in twenty is not enough, so that the
    // draws, and so the other pages, stay as they were.
    let xrt = match (rng.below(20), n % 5) {
        (0, 0) => "X-Robots-Tag: noindex\r\nRobots-Tag: noindex\r\n",
        (0, 1) => "X-Robots-Tag: noindex\r\nRobots-Tag: noindex, nosnippet\r\n",
        (0, _) => "X-Robots-Tag: noindex\r\n",
        (1, _) => "X-Robots-Tag: googlebot: nosnippet\r\n",
        (2, 0) => "Robots-Tag: noindex\r\n",
        _ => "",
    };
    // One page in two hundred reserves TDM rights by TDMRep's header.
    let tdm = if n % 200 == 3 {
        "tdm-reservation: 1\r\n"
    } else {
        ""
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nDate: Mon, 04 Aug 2025 10:33:29 GMT\r\nContent-Type: text/html; charset=UTF-8\r\n{xrt}{tdm}X-Crawler-Content-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    (uri, [head.into_bytes(), body.into_bytes()].concat())
}

/// One page capture in this many is followed by a capture of its host's `/llms.txt`.
const LLMS_EVERY: u64 = 100;

/// ... and in this many by one of its `/.well-known/tdmrep.json` (TDMRep is rarer: 37 sites of
/// the Tranco top million in February 2026, most of them publishers).
const TDMREP_EVERY: u64 = 1000;

/// The URI and HTTP response of the `k`th tdmrep.json capture: of four, two TDM files (one
/// reserving the whole site, one a directory with a policy), a 404 and an HTML soft 404.
fn tdmrep_capture(host: &str, k: u64) -> (String, Vec<u8>) {
    let uri = format!("https://{host}/.well-known/tdmrep.json");
    let (status, ctype, body) = match k % 4 {
        0 => ("200 OK", "application/json", "[\n  {\"location\": \"/\", \"tdm-reservation\": 1}\n]\n".to_string()),
        1 => (
            "200 OK",
            "application/json",
            format!("[{{\"location\": \"/articles/*\", \"tdm-reservation\": 1, \"tdm-policy\": \"https://{host}/tdm-policy.json\"}}, {{\"location\": \"/\", \"tdm-reservation\": 0}}]"),
        ),
        2 => ("404 Not Found", "text/html", "<html><body>Not found</body></html>".to_string()),
        _ => ("200 OK", "text/html", format!("<!DOCTYPE html><html><head><title>{host}</title></head></html>")),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    (uri, [head.into_bytes(), body.into_bytes()].concat())
}

/// The URI and HTTP response of the `k`th llms.txt capture: what a crawl that fetches the path
/// finds. Of twenty: eight the proposal's Markdown, six an HTML page served for any path (a
/// soft 404), three a 404, one empty, one other text, one a valid `/llms-full.txt`.
fn llms_capture(host: &str, k: u64) -> (String, Vec<u8>) {
    let file = if k % 20 == 19 {
        "llms-full.txt"
    } else {
        "llms.txt"
    };
    let uri = format!("https://{host}/{file}");
    let (status, ctype, body) = match k % 20 {
        0..=7 | 19 => ("200 OK", "text/plain; charset=utf-8", llms_markdown(host, k)),
        8..=13 => (
            "200 OK",
            "text/html; charset=UTF-8",
            format!("<!DOCTYPE html><html><head><title>{host}</title></head><body><h1>Welcome</h1></body></html>"),
        ),
        14..=16 => ("404 Not Found", "text/html", "<html><body>Not found</body></html>".into()),
        17 => ("200 OK", "text/plain", String::new()),
        _ => ("200 OK", "text/plain", "User-agent: *\nDisallow:\n".into()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    (uri, [head.into_bytes(), body.into_bytes()].concat())
}

/// An llms.txt as the proposal writes it: title, summary, sections of links, and now and then
/// an `Optional` section; 3 to 40 links.
fn llms_markdown(host: &str, k: u64) -> String {
    let word = |i: u64| WORDS[(i as usize) % WORDS.len()];
    let mut s = format!(
        "# {host}\n\n> The {} and {} of {host}.\n\n",
        word(k),
        word(k + 3)
    );
    let links = 3 + (k * 7) % 38;
    for i in 0..links {
        if i % 8 == 0 {
            s.push_str(&format!("\n## {}\n\n", word(k + i)));
        }
        s.push_str(&format!(
            "- [{}](https://{host}/{}/{i}.md): {} {}\n",
            word(k + i),
            word(i),
            word(k * i),
            word(i + 1)
        ));
    }
    if k.is_multiple_of(3) {
        s.push_str(&format!(
            "\n## Optional\n\n- [{}](https://{host}/more.md)\n",
            word(k)
        ));
    }
    s
}

/// The URI and HTTP response of a robots.txt capture: Common Crawl's mix of outcomes. The 2xx
/// bodies are generated, or drawn from `real` when given.
fn robots_capture(rng: &mut Rng, host: &str, real: Option<&[Vec<u8>]>) -> (String, Vec<u8>) {
    let uri = format!("https://{host}/robots.txt");
    let roll = rng.below(100);
    let (status, ctype, body): (&str, &str, Vec<u8>) = match roll {
        0..=54 => {
            let body = match real {
                Some(bodies) => own_host(&bodies[rng.below(bodies.len() as u64) as usize], host),
                None => robots_body(rng),
            };
            // About 2% of files carry Cloudflare's managed block before the site's own lines.
            let body = match rng.below(50) {
                0 => [bodies::CLOUDFLARE_MANAGED, &body].concat(),
                _ => body,
            };
            ("200 OK", "text/plain", body)
        }
        55..=59 => ("200 OK", "text/plain", Vec::new()),
        60 if rng.below(10) == 0 => ("402 Payment Required", "text/plain", Vec::new()),
        60..=79 => (
            "404 Not Found",
            "text/html",
            b"<!DOCTYPE html><html><body>Not found</body></html>".to_vec(),
        ),
        80..=86 => ("301 Moved Permanently", "text/html", Vec::new()),
        // A third of the 503s and a quarter of the 403s are challenge pages.
        87 | 90 => (
            if roll == 87 {
                "503 Service Unavailable"
            } else {
                "403 Forbidden"
            },
            "text/html",
            bodies::CHALLENGE.to_vec(),
        ),
        88..=89 => (
            "503 Service Unavailable",
            "text/html",
            b"<html>busy</html>".to_vec(),
        ),
        91..=93 => (
            "403 Forbidden",
            "text/html",
            b"<html>forbidden</html>".to_vec(),
        ),
        _ => (
            "200 OK",
            "text/html",
            b"<!doctype html><html><head><title>Home</title></head></html>".to_vec(),
        ),
    };
    let location = if status.starts_with("301") {
        format!("Location: https://{host}/robots.txt\r\n").replace("www.", "")
    } else {
        String::new()
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n{location}Content-Length: {}\r\n\r\n",
        body.len()
    );
    (uri, [head.into_bytes(), body].concat())
}

/// `body` with the host of each absolute URL of its `Sitemap` lines replaced by `host`. More than
/// half of real robots.txt files name their own sitemap (289 of the 519 in `../shared/data/robots`),
/// so a file drawn for many hosts would otherwise repeat byte for byte where real ones differ, and
/// a benchmark would reward whatever caches by body.
fn own_host(body: &[u8], host: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 16);
    for line in body.split_inclusive(|&b| b == b'\n') {
        let key_end = line.iter().position(|&b| b == b':').unwrap_or(0);
        let is_sitemap = line[..key_end]
            .trim_ascii()
            .eq_ignore_ascii_case(b"sitemap");
        let url = memchr::memmem::find(line, b"://").filter(|_| is_sitemap);
        let Some(at) = url.map(|u| u + 3) else {
            out.extend_from_slice(line);
            continue;
        };
        let end = (line[at..].iter())
            .position(|&b| matches!(b, b'/' | b'?' | b'#') || b.is_ascii_whitespace())
            .map_or(line.len(), |n| at + n);
        out.extend_from_slice(&line[..at]);
        out.extend_from_slice(host.as_bytes());
        out.extend_from_slice(&line[end..]);
    }
    out
}

/// A size: a number of bytes, or with a unit (`K`, `M`, `G` and `KiB`, `MiB`, `GiB`: powers of
/// 1024; `KB`, `MB`, `GB`: powers of 1000; any case).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let digits = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(digits);
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        _ => {
            return Err(format!(
                "unknown unit {unit:?} (K, M, G, KiB, MiB, GiB, KB, MB, GB)"
            ))
        }
    };
    let n: u64 = num.parse().map_err(|_| format!("not a size: {s:?}"))?;
    n.checked_mul(mult)
        .ok_or_else(|| format!("too large: {s:?}"))
}

#[cfg(test)]
mod tests {
    use super::real::RobotsBodies;
    use super::*;
    use crate::archive::container::reader::read_plain;

    #[test]
    fn deterministic() {
        let opts = GenOptions {
            kind: GenKind::Robots,
            layout: Layout::GzipPerRecord,
            target_bytes: 50_000,
            seed: 7,
            bodies: Vec::new(),
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let sa = generate(&opts, &mut a).unwrap();
        generate(&opts, &mut b).unwrap();
        assert_eq!(a, b);
        assert!(sa.robots_captures > 10);
        assert_eq!(sa.records, 1 + 3 * sa.captures);
    }

    /// Common-Crawl-sized pages: sizes and heads in the ranges the doc comment promises, and
    /// gzip takes them to about a quarter.
    #[test]
    fn cc_pages_are_sized_like_common_crawl() {
        let mut rng = Rng(3);
        let pages: Vec<String> = (0..400)
            .map(|_| cc_html_page(&mut rng, "www.a.example"))
            .collect();
        let mut sizes: Vec<usize> = pages.iter().map(String::len).collect();
        let mut heads: Vec<usize> = pages.iter().map(|p| p.find("</head>").unwrap()).collect();
        sizes.sort_unstable();
        heads.sort_unstable();
        let median = |v: &[usize]| v[v.len() / 2];
        assert!(
            (15_000..40_000).contains(&median(&sizes)),
            "{}",
            median(&sizes)
        );
        assert!(
            (1_500..5_000).contains(&median(&heads)),
            "{}",
            median(&heads)
        );
        assert!(sizes[0] >= 6_000 && *sizes.last().unwrap() <= 210_000);
        assert!(*heads.last().unwrap() > 30_000);
        let all = pages.concat();
        let gz = {
            let mut e = GzEncoder::new(Vec::new(), Compression::default());
            e.write_all(all.as_bytes()).unwrap();
            e.finish().unwrap()
        };
        let ratio = all.len() as f64 / gz.len() as f64;
        assert!((3.5..6.0).contains(&ratio), "{ratio}");
    }

    /// `robots-real` keeps the capture mix and draws each non-empty 2xx body from the corpus,
    /// so bodies are as long as real ones (the generated ones stop at 1.6 KB).
    #[test]
    fn robots_real_draws_its_bodies_from_the_real_files() {
        let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/real-robots.warc.gz");
        let corpus = real_bodies(std::path::Path::new(samples)).unwrap();
        assert!(corpus.len() > 500, "{} bodies", corpus.len());
        let mut out = Vec::new();
        let opts = GenOptions {
            kind: GenKind::RobotsReal,
            layout: Layout::Plain,
            target_bytes: 4 << 20,
            seed: 3,
            bodies: corpus.clone(),
        };
        let stats = generate(&opts, &mut out).unwrap();
        assert_eq!(stats.robots_captures, stats.captures);
        let mut got = RobotsBodies::default();
        read_plain(&out, 0, out.len(), &mut got);
        // Up to the hosts their sitemaps name.
        let anon = |b: &[u8]| {
            let b = b.strip_prefix(bodies::CLOUDFLARE_MANAGED).unwrap_or(b);
            own_host(b, "h.example")
        };
        let known: std::collections::HashSet<Vec<u8>> = corpus.iter().map(|b| anon(b)).collect();
        assert!(got.problems.is_empty(), "{:?}", got.problems);
        let (real, html): (Vec<_>, Vec<_>) =
            got.bodies.iter().partition(|b| known.contains(&anon(b)));
        // Besides real bodies, 2xx captures are empty or HTML error pages (the mix of `robots`).
        assert!(
            html.iter()
                .all(|b| b.is_empty() || b.starts_with(b"<!doctype")),
            "{html:?}"
        );
        assert!(
            real.len() as u64 > stats.captures / 3,
            "{} of {}",
            real.len(),
            stats.captures
        );
        assert!(real.iter().any(|b| b.len() > 16 << 10));
        // A sitemap names the capture's own host, so such bodies do not repeat across hosts.
        let with_sitemap: Vec<_> = (real.iter())
            .filter(|b| memchr::memmem::find(b, b"www.site").is_some())
            .collect();
        let distinct: std::collections::HashSet<_> = with_sitemap.iter().collect();
        assert!(
            with_sitemap.len() > real.len() / 3,
            "{} of {}",
            with_sitemap.len(),
            real.len()
        );
        assert!(
            distinct.len() * 10 > with_sitemap.len() * 9,
            "{} of {}",
            distinct.len(),
            with_sitemap.len()
        );
    }

    #[test]
    fn own_host_puts_the_host_into_sitemap_urls_only() {
        let body = b"User-agent: *\r\nDisallow: /x\r\nSitemap: https://old.example/map.xml\r\n\
                     sitemap:http://old.example:8080?x=1\nHost: old.example\n\
                     # see https://old.example/\nSitemap: https://OLD.example";
        let got = own_host(body, "www.site7.de");
        assert_eq!(
            String::from_utf8(got).unwrap(),
            "User-agent: *\r\nDisallow: /x\r\nSitemap: https://www.site7.de/map.xml\r\n\
             sitemap:http://www.site7.de?x=1\nHost: old.example\n\
             # see https://old.example/\nSitemap: https://www.site7.de"
        );
    }

    /// A damaged corpus archive is refused with the problem, not read in part.
    #[test]
    fn real_bodies_refuses_a_damaged_archive() {
        let dir = tempfile::tempdir().unwrap();
        let cut = dir.path().join("cut.warc");
        let rec = b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/robots.txt\r\nContent-Length: 100\r\n\r\nUser-agent: *\n";
        std::fs::write(&cut, rec).unwrap();
        let e = real_bodies(&cut).unwrap_err().to_string();
        assert!(e.contains("truncated_record"), "{e}");
    }
}

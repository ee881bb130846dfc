//! A deterministic generator of Common-Crawl-like archives, for benchmarks and tests.
//!
//! The same options always give the same bytes. Like Common Crawl's files, a generated archive
//! starts with a `warcinfo` record (`isPartOf: CC-MAIN-GENERATED`) followed by
//! request/response/metadata triples, each record in its own gzip member. Two kinds exist:
//! `pages` (HTML pages, some with robots meta tags and `X-Robots-Tag` headers) and `robots`
//! (robots.txt captures with Common Crawl's spread of outcomes: rules, empty files, 404s,
//! redirects, 5xx, HTML error pages). The layout can also be plain WARC or whole-file gzip, so
//! that tests can check every container gives the same rows.

use crate::archive::http::{parse_response, BodyDecoder};
use crate::archive::input::{sniff, Container};
use crate::archive::problem::ReadError;
use crate::archive::reader::{read_gzip_members, read_plain, ReadBuffers};
use crate::archive::record::{strip_angle, trim, unfold};
use crate::archive::sink::{Record, Sink};
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

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "crawl",
    "archive",
    "robots",
    "policy",
    "data",
    "web",
    "page",
    "site",
    "search",
    "index",
    "content",
    "model",
    "training",
    "agent",
    "privacy",
    "news",
    "article",
    "product",
    "price",
    "review",
    "home",
    "about",
    "contact",
    "service",
    "learn",
    "more",
    "today",
    "people",
    "world",
    "local",
    "story",
    "video",
    "image",
    "share",
    "community",
    "library",
    "research",
    "open",
    "free",
    "access",
    "terms",
    "use",
    "cookie",
    "language",
];

const AGENTS: &[&str] = &[
    "GPTBot",
    "CCBot",
    "Google-Extended",
    "ClaudeBot",
    "anthropic-ai",
    "Bytespider",
    "PerplexityBot",
    "Googlebot",
    "Bingbot",
    "Applebot-Extended",
    "OAI-SearchBot",
    "ChatGPT-User",
    "Amazonbot",
    "FacebookBot",
    "Yandex",
];

const PATHS: &[&str] = &[
    "/",
    "/admin/",
    "/wp-admin/",
    "/search",
    "/cart",
    "/checkout/",
    "/*?sessionid=",
    "/*.pdf$",
    "/private/",
    "/api/",
    "/tmp/",
    "/cgi-bin/",
    "/login",
    "/account/",
    "/wp-admin/admin-ajax.php",
    "/tag/",
    "/feed/",
    "/print/",
];

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

fn words(rng: &mut Rng, n: usize, out: &mut String) {
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        let w: &str = WORDS[rng.below(WORDS.len() as u64) as usize];
        out.push_str(w);
    }
}

/// A paragraph of 20-99 words and a link of 3: `open`, the words, `</p>`, the link with
/// `link_attrs`, `close`.
fn paragraph(
    rng: &mut Rng,
    host: &str,
    (open, link_attrs, close): (&str, &str, &str),
    s: &mut String,
) {
    s.push_str(open);
    let n = 20 + rng.below(80) as usize;
    words(rng, n, s);
    s.push_str(&format!(
        "</p>\n<a href=\"https://{host}/{}/{}\"{link_attrs}>",
        rng.pick(WORDS),
        rng.below(100_000)
    ));
    words(rng, 3, s);
    s.push_str(close);
}

fn html_page(rng: &mut Rng, host: &str) -> String {
    let mut s = String::with_capacity(32 * 1024);
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    words(rng, 6, &mut s);
    s.push_str("</title>\n");
    match rng.below(10) {
        0 => s.push_str("<meta name=\"robots\" content=\"noindex, nofollow\">\n"),
        1 => s.push_str("<meta name=\"robots\" content=\"max-snippet:50, max-image-preview:large\">\n"),
        2 => s.push_str("<meta name=\"googlebot\" content=\"noarchive\"><meta name=\"robots\" content=\"noai, noimageai\">\n"),
        _ => {}
    }
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<script>window.dataLayer=[];function gtag(){dataLayer.push(arguments)}</script>\n");
    s.push_str("<!-- <meta name=\"robots\" content=\"noindex\"> commented out -->\n");
    s.push_str(&format!("<link rel=\"canonical\" href=\"https://{host}/\"><style>body{{font-family:sans-serif}}</style></head>\n<body>\n"));
    let paragraphs = 10 + rng.below(60) as usize;
    for _ in 0..paragraphs {
        paragraph(rng, host, ("<p>", "", "</a>\n"), &mut s);
    }
    s.push_str("</body></html>\n");
    s
}

/// A page sized like the Common Crawl pages of samples/ (the 37 HTML responses of
/// `allenai_dolma__sample-*`, CC-MAIN): pages of 6 KB to 200 KB (median about 25 KB, mean about
/// 45 KB), heads of under 1 KB to 50 KB (median about 2.5 KB: inline styles, scripts and JSON-LD),
/// markup as repetitive as real pages' (gzip takes them to about a quarter). [`html_page`] makes
/// smaller pages (19 KB, heads of 0.5 KB), where per-record costs weigh more.
fn cc_html_page(rng: &mut Rng, host: &str) -> String {
    let size = match rng.below(100) {
        0..=29 => 6_000 + rng.below(9_000),
        30..=59 => 15_000 + rng.below(15_000),
        60..=84 => 30_000 + rng.below(30_000),
        _ => 60_000 + rng.below(140_000),
    } as usize;
    let head_size = match rng.below(100) {
        0..=49 => 600 + rng.below(2_400),
        50..=79 => 3_000 + rng.below(9_000),
        _ => 15_000 + rng.below(37_000),
    } as usize;
    let mut s = String::with_capacity(size + head_size + 1024);
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    words(rng, 6, &mut s);
    s.push_str("</title>\n");
    match rng.below(10) {
        0 => s.push_str("<meta name=\"robots\" content=\"index, follow, max-image-preview:large\">\n"),
        1 => s.push_str("<meta name=\"robots\" content=\"noindex, nofollow\">\n"),
        2 => s.push_str("<meta name=\"googlebot\" content=\"noarchive\"><meta name=\"robots\" content=\"noai, noimageai\">\n"),
        _ => {}
    }
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    s.push_str(&format!(
        "<link rel=\"canonical\" href=\"https://{host}/\">\n"
    ));
    while s.len() < head_size {
        match rng.below(4) {
            0 => s.push_str(&format!(
                "<link rel=\"stylesheet\" href=\"https://{host}/wp-content/themes/{}/style.css?ver={}\" type=\"text/css\" media=\"all\">\n",
                rng.pick(WORDS),
                rng.below(100)
            )),
            1 => {
                s.push_str("<style>");
                for _ in 0..10 {
                    s.push_str(&format!(
                        ".{}-{}{{margin:{}px;padding:0 {}px;color:#{:06x};font-family:Helvetica,Arial,sans-serif}}\n",
                        rng.pick(WORDS),
                        rng.pick(WORDS),
                        rng.below(40),
                        rng.below(20),
                        rng.below(1 << 24)
                    ));
                }
                s.push_str("</style>\n");
            }
            2 => {
                s.push_str("<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"WebPage\",\"name\":\"");
                words(rng, 5, &mut s);
                s.push_str(&format!("\",\"url\":\"https://{host}/\",\"datePublished\":\"2025-0{}-1{}\"}}</script>\n", 1 + rng.below(9), rng.below(10)));
            }
            _ => s.push_str(&format!(
                "<script>window.dataLayer=window.dataLayer||[];function gtag(){{dataLayer.push(arguments)}}gtag('config','G-{:08X}');</script>\n",
                rng.below(1 << 32)
            )),
        }
    }
    s.push_str("</head>\n<body class=\"home page-template-default\">\n<nav><ul>\n");
    for _ in 0..5 + rng.below(20) {
        let w = rng.pick(WORDS);
        s.push_str(&format!(
            "<li class=\"menu-item\"><a href=\"https://{host}/{w}/\">{w}</a></li>\n"
        ));
    }
    s.push_str("</ul></nav>\n<main>\n");
    let body_end = s.len() + size.saturating_sub(head_size);
    while s.len() < body_end {
        paragraph(
            rng,
            host,
            (
                "<div class=\"entry-content\"><p>",
                " class=\"more-link\"",
                "</a></div>\n",
            ),
            &mut s,
        );
    }
    s.push_str("</main>\n<footer><p>&copy; 2025</p></footer>\n</body></html>\n");
    s
}

fn robots_body(rng: &mut Rng) -> Vec<u8> {
    let mut s = String::new();
    if rng.below(20) == 0 {
        s.push('\u{feff}');
    }
    let groups = 1 + rng.below(6);
    for g in 0..groups {
        let agents = if g == 0 { 1 } else { 1 + rng.below(3) };
        for a in 0..agents {
            let agent = if g == 0 && a == 0 {
                "*"
            } else {
                rng.pick(AGENTS)
            };
            let key = *rng.pick(&[
                "User-agent",
                "User-agent",
                "User-Agent",
                "user-agent",
                "Useragent",
            ]);
            s.push_str(&format!("{key}: {agent}\n"));
        }
        if rng.below(15) == 0 {
            let purpose = rng.pick(&["ai-training", "search", "ai-input"]);
            s.push_str(&format!("User-Agent-Purpose: {purpose}\n"));
        }
        for _ in 0..rng.below(12) {
            let key = *rng.pick(&[
                "Disallow", "Disallow", "Allow", "Disallow", "disallow", "Disalow",
            ]);
            s.push_str(&format!("{key}: {}\n", rng.pick(PATHS)));
        }
        if rng.below(5) == 0 {
            s.push_str(&format!("Crawl-delay: {}\n", 1 + rng.below(10)));
        }
        if rng.below(12) == 0 {
            // App-Directives (plan-b), in both spellings, sometimes with a path, sometimes invalid.
            let line: &&str = rng.pick(&[
                "App-Directives: examplesearch;snippets=?0\n",
                "App-Directive: /news/ examplesearch;widgets=?1, otherapp;max=5\n",
                "app-directives: assistant;summaries=?0;note=\"ask first\"\n",
                "App-Directives: broken;x=\n",
            ]);
            s.push_str(line);
        }
        s.push('\n');
    }
    if rng.below(3) == 0 {
        s.push_str("# AI preferences\nContent-Signal: search=yes, ai-train=no\n");
    }
    if rng.below(12) == 0 {
        s.push_str("Content-Usage: train-ai=n\n");
    }
    s.push_str(&format!(
        "Sitemap: https://www.example.com/sitemap{}.xml\n",
        rng.below(5)
    ));
    let body = if rng.below(4) == 0 {
        s.replace('\n', "\r\n")
    } else {
        s
    };
    body.into_bytes()
}

/// The revision of what [`generate`] writes: raised whenever the same options give other
/// bytes, so that an archive kept on disk by its options (the e2e bench's `target/bench-data/`)
/// is made again rather than measured under a name it no longer fits. 2: `robots-real` names
/// each capture's host in its sitemaps.
pub const GEN_REVISION: u32 = 2;

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
    let xrt = match rng.below(20) {
        0 => "X-Robots-Tag: noindex\r\n",
        1 => "X-Robots-Tag: googlebot: nosnippet\r\n",
        _ => "",
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nDate: Mon, 04 Aug 2025 10:33:29 GMT\r\nContent-Type: text/html; charset=UTF-8\r\n{xrt}X-Crawler-Content-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    (uri, [head.into_bytes(), body.into_bytes()].concat())
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
            ("200 OK", "text/plain", body)
        }
        55..=59 => ("200 OK", "text/plain", Vec::new()),
        60..=79 => (
            "404 Not Found",
            "text/html",
            b"<!DOCTYPE html><html><body>Not found</body></html>".to_vec(),
        ),
        80..=86 => ("301 Moved Permanently", "text/html", Vec::new()),
        87..=89 => (
            "503 Service Unavailable",
            "text/html",
            b"<html>busy</html>".to_vec(),
        ),
        90..=93 => (
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

/// The robots.txt bodies of a folder of files (each non-empty file whose name ends in `.txt`, in
/// name order) or of an
/// archive (the 2xx bodies of its `resource` and `response` records of robots.txt URLs, as
/// `samples/real-robots.warc.gz` holds them): the corpus of [`GenKind::RobotsReal`].
pub fn real_bodies(path: &std::path::Path) -> io::Result<Vec<Vec<u8>>> {
    let mut bodies = Vec::new();
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<_>>()?;
        files.sort();
        let txt = |f: &std::path::PathBuf| f.extension().is_some_and(|e| e == "txt");
        for f in files.into_iter().filter(|f| f.is_file() && txt(f)) {
            bodies.push(std::fs::read(f)?);
        }
    } else {
        let data = std::fs::read(path)?;
        let mut sink = RobotsBodies::default();
        match sniff(&data[..data.len().min(16)]) {
            Container::Gzip => {
                let mut bufs = ReadBuffers::new();
                read_gzip_members(&data, 0, data.len(), &mut bufs, &mut sink);
            }
            Container::Plain => {
                read_plain(&data, 0, data.len(), &mut sink);
            }
            other => {
                return Err(io::Error::other(format!(
                    "{}: a {other:?} archive; give a plain or per-record gzip WARC, or a folder",
                    path.display()
                )))
            }
        }
        if let Some(first) = sink.problems.first() {
            return Err(io::Error::other(format!(
                "{}: {} problem(s) reading it as an archive, the first: {first}",
                path.display(),
                sink.problems.len()
            )));
        }
        bodies = sink.bodies;
    }
    bodies.retain(|b| !b.is_empty());
    if bodies.is_empty() {
        return Err(io::Error::other(format!(
            "{}: no robots.txt bodies found",
            path.display()
        )));
    }
    Ok(bodies)
}

/// Collects the 2xx robots.txt bodies of an archive, and the problems reading it (a damaged
/// corpus is refused rather than silently thinned).
#[derive(Default)]
struct RobotsBodies {
    bodies: Vec<Vec<u8>>,
    problems: Vec<String>,
}

impl Sink for RobotsBodies {
    fn record(&mut self, rec: &Record<'_>) {
        let uri = unfold(rec.head.target_uri);
        if !strip_angle(&uri).ends_with(b"/robots.txt") {
            return;
        }
        let ty = unfold(rec.head.warc_type);
        if trim(&ty).eq_ignore_ascii_case(b"resource") {
            self.bodies.push(rec.block.to_vec());
        } else if trim(&ty).eq_ignore_ascii_case(b"response") {
            let Some(h) = parse_response(rec.block) else {
                return;
            };
            if (200..300).contains(&h.status.unwrap_or(0)) {
                let mut decoder = BodyDecoder::default();
                let (body, _) = decoder.decode(&h, rec.block);
                self.bodies.push(body.to_vec());
            }
        }
    }

    fn error(&mut self, err: ReadError) {
        let at = err
            .offset
            .map_or(String::new(), |o| format!(" at offset {o}"));
        self.problems
            .push(format!("{}{at}: {}", err.kind, err.detail));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let anon = |b: &[u8]| own_host(b, "h.example");
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

//! What generated captures hold: HTML pages (plain and sized like Common Crawl's) and robots.txt
//! bodies, made of words, agents and paths drawn by the generator's random numbers.

use super::Rng;

pub(super) const WORDS: &[&str] = &[
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

pub(super) fn html_page(rng: &mut Rng, host: &str) -> String {
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
pub(super) fn cc_html_page(rng: &mut Rng, host: &str) -> String {
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

/// Cloudflare's managed robots.txt block, as Cloudflare writes it (Research Square's, in
/// ../shared/data/robots, cut to four agents).
pub(super) const CLOUDFLARE_MANAGED: &[u8] = b"# BEGIN Cloudflare Managed content\n\n\
User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\n\
User-agent: Amazonbot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\n\
User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n\n\
# END Cloudflare Managed Content\n\n";

/// The start of Cloudflare's "Just a moment..." challenge page and its script, cut short.
pub(super) const CHALLENGE: &[u8] = b"<!DOCTYPE html><html lang=\"en-US\"><head>\
<title>Just a moment...</title><meta name=\"robots\" content=\"noindex,nofollow\"></head>\
<body class=\"no-js\"><script>(function(){window._cf_chl_opt={cvId: '3',cType: 'managed'};\
var cpo = document.createElement('script');\
cpo.src = '/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1';}());</script></body></html>";

pub(super) fn robots_body(rng: &mut Rng) -> Vec<u8> {
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

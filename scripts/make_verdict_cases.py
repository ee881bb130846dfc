#!/usr/bin/env python3
"""Write samples/verdict-cases.warc.gz: hand-written robots.txt captures, one per verdict kind,
verdict source and selective policy of the `agent_verdicts` table (see docs/agents.md).

Every record is a WARC/1.1 `response` (one gzip member each) for
`http://<case>.verdict-case.invalid/robots.txt` (reserved .invalid TLD). The bodies are written
for this file (no third-party content). Deterministic: same bytes on every run.

Usage: python3 scripts/make_verdict_cases.py samples/verdict-cases.warc.gz
"""
import sys

sys.path.insert(0, __import__('os').path.dirname(__file__))
from warc_cases import response, warcinfo  # noqa: E402

CASES = [
    # (host, date, status line, extra headers, body)
    ("full-wildcard", "2026-02-01T00:00:00Z", "200 OK", [], "User-agent: *\nDisallow: /\n"),
    ("full-specific", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"),
    ("selective-openai", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: GPTBot\nDisallow: /\n\nUser-agent: OAI-SearchBot\nAllow: /\n"),
    ("selective-google", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: Google-Extended\nDisallow: /\n\nUser-agent: Googlebot\nDisallow:\n\n"
     "User-agent: *\nDisallow: /admin\n"),
    ("selective-ccbot", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
    ("ai-blocklist", "2026-02-01T00:00:00Z", "200 OK", [],
     "# block AI crawlers\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\n"
     "User-agent: Google-Extended\nUser-agent: Bytespider\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
    ("partial-reopened", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: *\nDisallow: /\nAllow: /public/\n"),
    ("homepage-only", "2026-02-01T00:00:00Z", "200 OK", [], "User-agent: *\nDisallow: /\nAllow: /$\n"),
    ("allow-overrides", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: *\nDisallow: /\nAllow: /\n"),
    ("allowed-explicit", "2026-02-01T00:00:00Z", "200 OK", [], "User-agent: *\nDisallow:\n"),
    ("no-groups", "2026-02-01T00:00:00Z", "200 OK", [],
     "Sitemap: http://no-groups.verdict-case.invalid/sitemap.xml\n"),
    ("content-signal-forms", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: *\nContent-Signal: AI-Train = No, search=yes , ai-input\n"
     "Content-signal: search=yes,,ai-train=no=later\nAllow: /\n"),
    ("crawl-delay", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: bingbot\nCrawl-delay: 10\nDisallow: /search\n\nUser-agent: *\nCrawl-delay: 2\n"),
    ("token-collision", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-agent: Ai2Bot-Dolma\nDisallow: /\n"),
    # A purpose group and App-Directives: they decide for agents given a purpose and an
    # application with `--agents tests/data/agents-extra.csv` (no built-in agent has either).
    ("purpose", "2026-02-01T00:00:00Z", "200 OK", [],
     "User-Agent-Purpose: EXAMPLE-PURPOSE-1\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
     "App-Directives: examplesearch;widgets=?0;snippets=5\n"),
    ("empty", "2026-02-01T00:00:00Z", "200 OK", [], ""),
    ("not-found", "2026-02-01T00:00:00Z", "404 Not Found", [], "<html>not found</html>\n"),
    ("server-error", "2026-02-01T00:00:00Z", "503 Service Unavailable", [], "busy\n"),
    ("rate-limited", "2026-02-01T00:00:00Z", "429 Too Many Requests", [], "slow down\n"),
    ("redirect", "2026-02-01T00:00:00Z", "301 Moved Permanently",
     [("Location", "https://www.redirect.verdict-case.invalid/robots.txt")], ""),
    # The same host twice: the earlier capture allows GPTBot, the later one blocks it.
    ("repeat", "2026-01-01T00:00:00Z", "200 OK", [], "User-agent: *\nDisallow:\n"),
    ("repeat", "2026-03-01T00:00:00Z", "200 OK", [], "User-agent: GPTBot\nDisallow: /\n"),
]


def main(out):
    with open(out, "wb") as f:
        f.write(warcinfo("make_verdict_cases.py", "verdict-cases", "hand-written robots.txt captures, one per agent_verdicts case"))
        for i, (host, date, status, headers, body) in enumerate(CASES):
            body = body.encode()
            http = f"HTTP/1.1 {status}\r\nContent-Type: text/plain\r\n"
            http += "".join(f"{k}: {v}\r\n" for k, v in headers)
            http += f"Content-Length: {len(body)}\r\n\r\n"
            block = http.encode() + body
            uri = f"http://{host}.verdict-case.invalid/robots.txt"
            f.write(response(i, uri, date, block))
    print(f"{len(CASES)} captures -> {out}")


main(sys.argv[1])

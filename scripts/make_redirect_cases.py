#!/usr/bin/env python3
"""Write samples/redirect-cases.warc.gz: hand-written robots.txt captures whose redirects the
`robots_hosts` table follows (RFC 9309 section 2.3.1.2; docs/schema.md, robots_hosts): chains to
https and to the bare host, five hops and six, a loop, targets never captured, a redirect
without a Location, relative and scheme-relative locations, and targets that answer 404 or 503.

Every record is a WARC/1.1 `response` (one gzip member each) for a host under
`redirect-case.invalid` (reserved .invalid TLD). The bodies are written for this file (no
third-party content). Deterministic: same bytes on every run.

Usage: python3 scripts/make_redirect_cases.py samples/redirect-cases.warc.gz
"""
import sys

sys.path.insert(0, __import__('os').path.dirname(__file__))
from warc_cases import response, warcinfo  # noqa: E402

D = "redirect-case.invalid"
BLOCK_GPTBOT = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow:\n"
EARLY, LATE = "2026-02-01T00:00:00Z", "2026-02-02T00:00:00Z"


def moved(location):
    return ("301 Moved Permanently", [("Location", location)] if location else [], "")


def ok(body):
    return ("200 OK", [], body)


CASES = [
    # (url, date, (status line, extra headers, body))
    # To https on the same host: the host's latest capture is the redirect, its target the file.
    (f"https://https.{D}/robots.txt", EARLY, ok(BLOCK_GPTBOT)),
    (f"http://https.{D}/robots.txt", LATE, moved(f"https://https.{D}/robots.txt")),
    # www. to the bare host (another host), which is a host of its own too.
    (f"http://www.bare.{D}/robots.txt", LATE, moved(f"http://bare.{D}/robots.txt")),
    (f"http://bare.{D}/robots.txt", EARLY, ok("User-agent: *\nDisallow: /\n")),
    # Five hops: resolved.
    *[(f"http://five{i}.{D}/robots.txt", LATE, moved(f"http://five{i + 1}.{D}/robots.txt"))
      for i in range(5)],
    (f"http://five5.{D}/robots.txt", EARLY, ok(BLOCK_GPTBOT)),
    # Six hops: more than RFC 9309's five.
    *[(f"http://six{i}.{D}/robots.txt", LATE, moved(f"http://six{i + 1}.{D}/robots.txt"))
      for i in range(6)],
    (f"http://six6.{D}/robots.txt", EARLY, ok(BLOCK_GPTBOT)),
    # A loop between two hosts.
    (f"http://loop-a.{D}/robots.txt", LATE, moved(f"http://loop-b.{D}/robots.txt")),
    (f"http://loop-b.{D}/robots.txt", LATE, moved(f"http://loop-a.{D}/robots.txt")),
    # A target never captured, and a redirect to the home page (no robots.txt there).
    (f"http://missing.{D}/robots.txt", LATE, moved(f"https://missing.{D}/robots.txt")),
    (f"http://home.{D}/robots.txt", LATE, moved(f"https://home.{D}/")),
    # No Location header.
    (f"http://no-location.{D}/robots.txt", LATE, moved(None)),
    # A relative location (on the same host) and a scheme-relative one (to another host).
    (f"http://relative.{D}/robots.txt", LATE, moved("/robots.txt?v=2")),
    (f"http://relative.{D}/robots.txt?v=2", EARLY, ok(BLOCK_GPTBOT)),
    (f"http://www.scheme-relative.{D}/robots.txt", LATE,
     moved(f"//scheme-relative.{D}/robots.txt")),
    (f"http://scheme-relative.{D}/robots.txt", EARLY, ok("User-agent: *\nDisallow: /\n")),
    # Targets that answer 404 (no robots.txt: all allowed) and 503 (unreachable).
    (f"http://gone.{D}/robots.txt", LATE, moved(f"https://gone.{D}/robots.txt")),
    (f"https://gone.{D}/robots.txt", EARLY, ("404 Not Found", [], "not here\n")),
    (f"http://busy.{D}/robots.txt", LATE, moved(f"https://busy.{D}/robots.txt")),
    (f"https://busy.{D}/robots.txt", EARLY, ("503 Service Unavailable", [], "busy\n")),
    # The target was captured twice: its latest capture decides.
    (f"http://twice.{D}/robots.txt", LATE, moved(f"https://twice.{D}/robots.txt")),
    (f"https://twice.{D}/robots.txt", "2026-01-01T00:00:00Z", ok("User-agent: *\nDisallow:\n")),
    (f"https://twice.{D}/robots.txt", EARLY, ok(BLOCK_GPTBOT)),
]


def main(out):
    with open(out, "wb") as f:
        f.write(warcinfo("make_redirect_cases.py", "redirect-cases",
                         "hand-written robots.txt captures with chains of redirects"))
        for i, (uri, date, (status, headers, body)) in enumerate(CASES):
            body = body.encode()
            http = f"HTTP/1.1 {status}\r\nContent-Type: text/plain\r\n"
            http += "".join(f"{k}: {v}\r\n" for k, v in headers)
            http += f"Content-Length: {len(body)}\r\n\r\n"
            f.write(response(i, uri, date, http.encode() + body))
    print(f"{len(CASES)} captures -> {out}")


main(sys.argv[1])

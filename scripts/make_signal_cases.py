#!/usr/bin/env python3
"""Write samples/signal-cases.warc.gz: hand-written responses, one per page-signal case of the
`page_signals` and `host_counts` tables (robots headers in every syntax, TDM headers, meta tags
in and out of the head, tags that are not tags, encoded bodies, a head longer than the scan
limit).

Every record is a WARC/1.1 `response` (one gzip member each) for
`http://<case>.signal-case.invalid/...` (reserved .invalid TLD). The bodies are written for this
file (no third-party content). Deterministic: same bytes on every run.

Usage: python3 scripts/make_signal_cases.py samples/signal-cases.warc.gz
"""
import gzip
import sys

sys.path.insert(0, __import__('os').path.dirname(__file__))
from warc_cases import response, warcinfo  # noqa: E402
import zlib

HTML = "text/html; charset=utf-8"


def page(head, body="<p>text</p>"):
    return f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>t</title>\n{head}\n</head><body>{body}</body></html>\n"


CASES = [
    # (host, path, status line, content type, [(header, value)], body, transform)
    ("legacy-header", "/a.html", "200 OK", HTML, [("X-Robots-Tag", "noindex, nofollow")], page(""), None),
    ("sfv-header", "/a.html", "200 OK", HTML, [("Robots-Tag", "*;noindex;nosnippet, ExampleBot")], page(""), None),
    ("sfv-lenient-header", "/a.html", "200 OK", HTML, [("Robots-Tag", ";noindex;nosnippet, ExampleBot=;")], page(""), None),
    ("sfv-dict-header", "/a.html", "200 OK", HTML, [("Robots-Tag", "*=noindex, nosnippet; ExampleBot=;")], page(""), None),
    ("repeated-headers", "/report.pdf", "200 OK", "application/pdf",
     [("X-Robots-Tag", "googlebot: noindex"), ("x-robots-tag", "bingbot: noarchive, unavailable_after: Wed, 03 Dec 2025 13:09:53 GMT")],
     "%PDF-1.4\n%%EOF\n", None),
    ("image-header", "/cat.png", "200 OK", "image/png", [("X-Robots-Tag", "noimageai, noimageindex")], "\x89PNG\r\n", None),
    ("tdm", "/a.html", "200 OK", HTML,
     [("tdm-reservation", "1"), ("tdm-policy", "https://tdm.signal-case.invalid/policy.json")],
     page('<meta name="tdm-reservation" content="1">'), None),
    ("not-tags", "/a.html", "200 OK", HTML, [],
     page('<!-- <meta name="robots" content="noindex"> -->\n'
          '<script>document.write(\'<meta name="robots" content="noindex">\');</script>\n'
          '<style>/* <meta name="robots" content="noindex"> */</style>\n'
          '<template><meta name="robots" content="noindex"></template>\n'
          '<noscript><meta name="robots" content="noindex"></noscript>\n'
          '<meta name="robots" content="noarchive">'), None),
    ("product-tokens", "/a.html", "200 OK", HTML, [],
     page('<meta name="googlebot" content="nosnippet">\n<META NAME=GPTBot CONTENT=noai>\n'
          "<meta content='noindex' name='bingbot'>\n<meta name=\"viewport\" content=\"none\">\n"
          '<meta http-equiv="X-Robots-Tag" content="noimageai">'), None),
    ("after-body", "/a.html", "200 OK", HTML, [],
     page('<meta name="robots" content="index">', '<meta name="robots" content="noindex">'), None),
    ("conflict", "/a.html", "200 OK", HTML, [("X-Robots-Tag", "noindex")],
     page('<meta name="robots" content="index, follow">'), None),
    ("conflict", "/b,c.html", "200 OK", HTML, [("X-Robots-Tag", "googlebot: nofollow, all")],
     page('<meta name="googlebot" content="follow">\n<meta name="robots" content="none">'),
     None),
    ("conflict", "/after-body.html", "200 OK", HTML, [("X-Robots-Tag", "noindex")],
     page('', '<meta name="robots" content="index">'), None),
    ("gzip-body", "/a.html", "200 OK", HTML, [("Content-Encoding", "gzip")],
     page('<meta name="robots" content="max-snippet:50, max-image-preview:large">'), "gzip"),
    ("chunked-body", "/a.html", "200 OK", HTML, [("Transfer-Encoding", "chunked")],
     page('<meta name="robots" content="noindex, noai">'), "chunked"),
    ("empty-and-invalid", "/a.html", "200 OK", HTML, [("X-Robots-Tag", ""), ("X-Robots-Tag", "<html>")], page(""), None),
    ("no-signals", "/a.html", "200 OK", HTML, [], page('<meta name="description" content="noindex">'), None),
    ("no-signals", "/b.html", "404 Not Found", HTML, [], page('<meta name="robots" content="noindex">'), None),
    ("huge-head", "/a.html", "200 OK", HTML, [],
     page('<meta name="robots" content="nofollow">' + '<link rel="preload" href="/x.css">' * 40000
          + '<meta name="robots" content="noindex">'), None),
]


def main(out):
    with open(out, "wb") as f:
        f.write(warcinfo("make_signal_cases.py", "signal-cases", "hand-written responses, one per page_signals case"))
        for i, (host, path, status, ctype, headers, body, transform) in enumerate(CASES):
            body = body.encode("latin-1") if ctype.startswith("image") else body.encode()
            if transform == "gzip":
                body = gzip.compress(body, mtime=0)
            elif transform == "chunked":
                body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in [body[:40], body[40:]]) + b"0\r\n\r\n"
            http = f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n"
            http += "".join(f"{k}: {v}\r\n" for k, v in headers)
            if transform != "chunked":
                http += f"Content-Length: {len(body)}\r\n"
            http += "\r\n"
            block = http.encode() + body
            uri = f"http://{host}.signal-case.invalid{path}"
            f.write(response(i, uri, "2026-02-01T00:00:00Z", block))
    print(f"{len(CASES)} responses -> {out}")


main(sys.argv[1])

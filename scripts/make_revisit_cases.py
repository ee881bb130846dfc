#!/usr/bin/env python3
"""Write samples/revisit-cases.warc.gz: hand-written robots.txt captures whose latest capture is
a `revisit` record, which `robots_hosts` reads as the capture it revisits (docs/schema.md,
robots_hosts): by `WARC-Refers-To-Target-URI` and `-Date` (WARC 1.1), by the same payload digest
on the same URL (Heritrix's WARC 1.0 identical-payload-digest revisits) or on another URL, a
revisit of a redirect, a redirect to a revisit, a revisit of a 404, and revisits that match
nothing (or only a later capture), or only a capture of another host with another status.

Records are WARC/1.1 (one gzip member each) for hosts under `revisit-case.invalid` (reserved
.invalid TLD). The bodies are written for this file. Deterministic: same bytes on every run.

Usage: python3 scripts/make_revisit_cases.py samples/revisit-cases.warc.gz
"""
import sys

sys.path.insert(0, __import__('os').path.dirname(__file__))
from warc_cases import payload_digest, response, revisit, warcinfo  # noqa: E402

D = "revisit-case.invalid"
BLOCK_ALL = "User-agent: *\nDisallow: /\n"
BLOCK_GPTBOT = "User-agent: GPTBot\nDisallow: /\n"
ALLOW_ALL = "User-agent: *\nDisallow:\n"
T1, T2, T3 = "2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z"
IDENTICAL = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
ELSEWHERE = "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"


def http(status, body, headers=()):
    head = f"HTTP/1.1 {status}\r\nContent-Type: text/plain\r\n"
    head += "".join(f"{k}: {v}\r\n" for k, v in headers)
    head += f"Content-Length: {len(body)}\r\n\r\n"
    return head.encode(), body.encode()


def got(uri, date, status, body, headers=()):
    """A response, with its payload digest."""
    head, payload = http(status, body, headers)
    return ("response", uri, date, head + payload, [("WARC-Payload-Digest", payload_digest(payload))])


def again(uri, date, status, body, headers=(), digest=None, refers_to=None, refers_to_date=None):
    """A revisit of a response with this status and body (its head only)."""
    head, payload = http(status, body, headers)
    fields = [("WARC-Profile", IDENTICAL),
              ("WARC-Payload-Digest", digest or payload_digest(payload))]
    if refers_to:
        fields.append(("WARC-Refers-To-Target-URI", refers_to))
    if refers_to_date:
        fields.append(("WARC-Refers-To-Date", refers_to_date))
    return ("revisit", uri, date, head, fields)


CASES = [
    # The same URL, the same digest (no Refers-To): the earlier response.
    got(f"http://same-url.{D}/robots.txt", T1, "200 OK", BLOCK_ALL),
    again(f"http://same-url.{D}/robots.txt", T2, "200 OK", BLOCK_ALL),
    # Refers-To names another URL (the http capture of an https revisit) and its date.
    got(f"http://refers-to.{D}/robots.txt", T1, "200 OK", BLOCK_GPTBOT),
    again(f"https://refers-to.{D}/robots.txt", T2, "200 OK", BLOCK_GPTBOT,
          refers_to=f"http://refers-to.{D}/robots.txt", refers_to_date=T1),
    # Refers-To-Date picks the earlier of two captures of the URL, not the latest.
    got(f"http://dated.{D}/robots.txt", T1, "200 OK", BLOCK_ALL),
    got(f"http://dated.{D}/robots.txt", T2, "200 OK", ALLOW_ALL),
    again(f"http://dated.{D}/robots.txt", T3, "200 OK", BLOCK_ALL,
          refers_to=f"http://dated.{D}/robots.txt", refers_to_date=T1),
    # Only another host has this body: a crawler deduplicating across URLs.
    got(f"http://origin.{D}/robots.txt", T1, "200 OK", BLOCK_ALL + "# shared\n"),
    again(f"http://elsewhere.{D}/robots.txt", T2, "200 OK", BLOCK_ALL + "# shared\n"),
    # No capture has the digest: unresolved, the revisit governs (verdict unknown).
    again(f"http://unmatched.{D}/robots.txt", T2, "200 OK", BLOCK_GPTBOT, digest=ELSEWHERE),
    # The only capture with the digest is later than the revisit: unresolved too.
    again(f"http://too-early.{D}/robots.txt", T1, "200 OK", BLOCK_ALL + "# later\n"),
    got(f"http://later.{D}/robots.txt", T3, "200 OK", BLOCK_ALL + "# later\n"),
    # A revisit of a redirect: the redirect's chain is followed on.
    got(f"https://moved.{D}/robots.txt", T1, "200 OK", BLOCK_GPTBOT + "# moved\n"),
    got(f"http://moved.{D}/robots.txt", T1, "301 Moved Permanently", "",
        [("Location", f"https://moved.{D}/robots.txt")]),
    again(f"http://moved.{D}/robots.txt", T2, "301 Moved Permanently", "",
          [("Location", f"https://moved.{D}/robots.txt")]),
    # A redirect whose target's latest capture is a revisit.
    got(f"https://target.{D}/robots.txt", T1, "200 OK", BLOCK_ALL + "# target\n"),
    again(f"https://target.{D}/robots.txt", T2, "200 OK", BLOCK_ALL + "# target\n"),
    got(f"http://target.{D}/robots.txt", T3, "301 Moved Permanently", "",
        [("Location", f"https://target.{D}/robots.txt")]),
    # A revisit of a 404: no robots.txt, everything allowed.
    got(f"http://gone.{D}/robots.txt", T1, "404 Not Found", "not here\n"),
    again(f"http://gone.{D}/robots.txt", T2, "404 Not Found", "not here\n"),
    # A 404 revisit whose digest only another host's 200 `Disallow: /` has: its own status
    # decides (a 4xx restricts nothing), never the other host's file.
    got(f"http://blocker.{D}/robots.txt", T1, "200 OK", BLOCK_ALL + "# blocker\n"),
    again(f"http://lost.{D}/robots.txt", T2, "404 Not Found", BLOCK_ALL + "# blocker\n"),
    # A 200 revisit of an empty file, whose digest only another host's empty 301 has: it does
    # not follow that redirect (an empty body's digest is every empty response's).
    got(f"http://empty-moved.{D}/robots.txt", T1, "301 Moved Permanently", "",
        [("Location", f"https://origin.{D}/robots.txt")]),
    again(f"http://empty.{D}/robots.txt", T2, "200 OK", ""),
]


def main(out):
    with open(out, "wb") as f:
        f.write(warcinfo("make_revisit_cases.py", "revisit-cases",
                         "hand-written robots.txt captures whose latest capture is a revisit"))
        for i, (kind, uri, date, block, fields) in enumerate(CASES):
            if kind == "response":
                f.write(response(i, uri, date, block, fields))
            else:
                f.write(revisit(i, uri, date, block, fields))
    print(f"{len(CASES)} captures -> {out}")


main(sys.argv[1])

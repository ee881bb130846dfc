#!/usr/bin/env python3
"""Pack the real robots.txt files of ../shared/data/robots into samples/real-robots.warc.gz.

Each file becomes one WARC/1.1 `resource` record (one gzip member each, as Common Crawl writes
them). The body bytes are the file's bytes, unchanged. The capture metadata is NOT real: the files
come from public GitHub repositories, not from crawls, so each record gets a placeholder URI
`http://sNNN.robots-sample.invalid/robots.txt` (the reserved .invalid TLD) and a fixed date, and
says where its bytes come from in `WARC-Source-Repo`, `WARC-Source-Path` and `WARC-Source-Commit`.

Usage: python3 scripts/pack_real_robots.py ../shared/data/robots samples/real-robots.warc.gz
"""
import csv
import gzip
import hashlib
import sys
import uuid

src, out = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(f"{src}/SOURCES.tsv", newline=""), delimiter="\t"))
rows.sort(key=lambda r: r["file"])
DATE = "2026-01-01T00:00:00Z"


def record(fields, body):
    head = "WARC/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields) + "\r\n"
    return gzip.compress(head.encode() + body + b"\r\n\r\n", mtime=0)


with open(out, "wb") as f:
    info = (
        "software: repcensus scripts/pack_real_robots.py\r\n"
        "isPartOf: repcensus-samples\r\n"
        "description: real robots.txt files from public GitHub repositories, wrapped as resource "
        "records with placeholder URIs and dates; see WARC-Source-* fields\r\n"
    ).encode()
    f.write(record([
        ("WARC-Type", "warcinfo"),
        ("WARC-Date", DATE),
        ("WARC-Record-ID", f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'repcensus-real-robots')}>"),
        ("Content-Type", "application/warc-fields"),
        ("Content-Length", str(len(info))),
    ], info))
    for i, r in enumerate(rows):
        body = open(f"{src}/{r['file']}", "rb").read()
        assert hashlib.sha256(body).hexdigest() == r["sha256"], r["file"]
        f.write(record([
            ("WARC-Type", "resource"),
            ("WARC-Date", DATE),
            ("WARC-Record-ID", f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, r['file'])}>"),
            ("WARC-Target-URI", f"http://s{i:03}.robots-sample.invalid/robots.txt"),
            ("WARC-Source-Repo", r["repo"]),
            ("WARC-Source-Path", r["path"]),
            ("WARC-Source-Commit", r["commit"]),
            ("WARC-Block-Digest", "sha256:" + r["sha256"]),
            ("Content-Type", "text/plain"),
            ("Content-Length", str(len(body))),
        ], body))
print(f"{len(rows)} files -> {out}")

"""The peer of issue 20's end-to-end benchmark: a one-core Python pipeline, FastWARC + regexes +
pyarrow, that writes one Parquet row per HTTP response capture.

    python3 benches/peer_fastwarc.py INPUT.warc.gz OUT.parquet

It is what a researcher would write in an afternoon instead of using repcensus, and does about
what `scan --tables robots_files` does for a capture, less carefully: the capture's URL, host,
time, HTTP status, content type, body length and SHA-256, the `X-Robots-Tag` header, and
 * for a robots.txt capture: its user-agent, allow/disallow and sitemap lines counted by a
   regex, and whether a `Disallow: /` line appears;
 * for an HTML page: the content of its first robots `<meta>` tag, found by a regex.
No groups, no verdicts, no line tables: the bench compares it with `scan` writing every table.
`cargo bench --bench e2e` installs fastwarc and pyarrow from PyPI into target/tools/peer and runs
it in the same rounds as the scan; it prints the number of rows so a broken run cannot look fast.
"""

import hashlib
import re
import sys

import pyarrow as pa
import pyarrow.parquet as pq
from fastwarc.warc import ArchiveIterator, WarcRecordType

HOST = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]*)")
AGENT = re.compile(rb"^[ \t]*user-?agent[ \t]*:", re.I | re.M)
RULE = re.compile(rb"^[ \t]*(?:dis)?allow[ \t]*:", re.I | re.M)
SITEMAP = re.compile(rb"^[ \t]*sitemap[ \t]*:", re.I | re.M)
DISALLOW_ALL = re.compile(rb"^[ \t]*disallow[ \t]*:[ \t]*/[ \t]*(?:#.*)?\r?$", re.I | re.M)
META = re.compile(
    rb"<meta\s[^>]*name\s*=\s*[\"']?robots[\"']?[^>]*content\s*=\s*[\"']([^\"'>]*)", re.I
)
BATCH = 65536

SCHEMA = pa.schema(
    [
        ("url", pa.string()),
        ("host", pa.string()),
        ("capture_time", pa.timestamp("s", tz="UTC")),
        ("offset", pa.int64()),
        ("http_status", pa.int32()),
        ("content_type", pa.string()),
        ("body_bytes", pa.int64()),
        ("body_sha256", pa.string()),
        ("x_robots_tag", pa.string()),
        ("n_agents", pa.int32()),
        ("n_rules", pa.int32()),
        ("n_sitemaps", pa.int32()),
        ("disallow_all", pa.bool_()),
        ("meta_robots", pa.string()),
    ]
)


def rows(path):
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
            url = rec.headers.get("WARC-Target-URI") or ""
            m = HOST.match(url)
            body = rec.reader.read()
            http = rec.http_headers
            robots_txt = url.endswith("/robots.txt")
            meta = None
            if not robots_txt:
                found = META.search(body)
                meta = found.group(1).decode("utf-8", "replace") if found else None
            yield (
                url,
                m.group(1).lower() if m else None,
                rec.record_date,
                rec.stream_pos,
                http.status_code,
                http.get("Content-Type"),
                len(body),
                hashlib.sha256(body).hexdigest(),
                http.get("X-Robots-Tag"),
                len(AGENT.findall(body)) if robots_txt else None,
                len(RULE.findall(body)) if robots_txt else None,
                len(SITEMAP.findall(body)) if robots_txt else None,
                bool(DISALLOW_ALL.search(body)) if robots_txt else None,
                meta,
            )


def main():
    src, dst = sys.argv[1], sys.argv[2]
    n = 0
    with pq.ParquetWriter(dst, SCHEMA, compression="zstd") as out:
        batch = []
        for row in rows(src):
            batch.append(row)
            if len(batch) == BATCH:
                n += flush(out, batch)
        n += flush(out, batch)
    print(n)


def flush(out, batch):
    if batch:
        columns = list(zip(*batch))
        out.write_table(pa.Table.from_arrays(
            [pa.array(c, type=f.type) for c, f in zip(columns, SCHEMA)], schema=SCHEMA))
    k = len(batch)
    batch.clear()
    return k


if __name__ == "__main__":
    main()

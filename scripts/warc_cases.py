"""WARC/1.1 records for the hand-written sample archives (make_verdict_cases.py,
make_signal_cases.py, make_redirect_cases.py, make_revisit_cases.py): one gzip member per record,
deterministic bytes."""
import base64
import gzip
import hashlib
import uuid


def record(fields, block):
    head = "WARC/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields) + "\r\n"
    return gzip.compress(head.encode() + block + b"\r\n\r\n", mtime=0)


def warcinfo(script, name, description):
    """The warcinfo record naming the script, the `repcensus-samples` crawl and the file."""
    info = (
        f"software: repcensus scripts/{script}\r\n"
        "isPartOf: repcensus-samples\r\n"
        f"description: {description}\r\n"
    ).encode()
    return record([
        ("WARC-Type", "warcinfo"),
        ("WARC-Date", "2026-01-01T00:00:00Z"),
        ("WARC-Record-ID", f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}>"),
        ("Content-Type", "application/warc-fields"),
        ("Content-Length", str(len(info))),
    ], info)


def payload_digest(payload):
    """`WARC-Payload-Digest` of an HTTP payload, as Heritrix and wget write it."""
    return "sha1:" + base64.b32encode(hashlib.sha1(payload).digest()).decode()


def response(i, uri, date, block, extra=()):
    """The `response` record of case `i` for `uri`, holding the HTTP message `block`, with the
    `extra` WARC fields."""
    return record([
        ("WARC-Type", "response"),
        ("WARC-Date", date),
        ("WARC-Record-ID", f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{i}{uri}')}>"),
        ("WARC-Target-URI", uri),
        *extra,
        ("Content-Type", "application/http; msgtype=response"),
        ("Content-Length", str(len(block))),
    ], block)


def revisit(i, uri, date, head, extra):
    """The `revisit` record of case `i` for `uri`: the HTTP head `head` without its payload, and
    the `extra` WARC fields (profile, payload digest, Refers-To)."""
    return record([
        ("WARC-Type", "revisit"),
        ("WARC-Date", date),
        ("WARC-Record-ID", f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{i}{uri}')}>"),
        ("WARC-Target-URI", uri),
        *extra,
        ("Content-Type", "application/http; msgtype=response"),
        ("Content-Length", str(len(head))),
    ], head)

"""A loopback HTTP file server for the remote-input tests: HEAD and GET with single byte ranges
(`Range: bytes=N-` and `bytes=N-M`), Last-Modified, and an ETag unless the file name contains
`noetag`. A file whose name contains `nohead` answers HEAD with 405 (GET works); `hang`: a GET is
never answered; `trickle`: a GET sends its headers and the first 1,000 bytes, then one byte every
2 s for ever (each byte is progress, never enough); `norange`: Range is ignored (a GET answers
200 with the whole file); `endless`: a Range GET answers 206 with the right Content-Range and
no Content-Length, and sends bytes until the client goes; `refuse416`: every Range GET answers
416 with the file's size. A GET of `redirect-other-NAME` is answered `302` to NAME on `localhost`
(another host name than the 127.0.0.1 the client asked), `redirect-same-NAME` to NAME on
127.0.0.1. A file `_faults` in ROOT, when present, is read at each request: the words `norange`
and `refuse416` in it apply to every file (so a test can turn a fault off between two runs).
With `--drop N`, the first N GET responses for each file are cut off: the full
Content-Length is announced, 40% of the bytes are sent, and the connection is closed, as a
failing server or network would. With `--refuse N`, the first N GETs of each range are refused
in turn with 503 (with `Retry-After: 1`), 429 (with `Retry-After` as a date) and 403, as a
throttling front end would. With `--throttle K`, every K-th GET the server answers (ranged or
not, counted over all files) is refused with `503 SlowDown` and `Retry-After: 1`, as Common
Crawl's S3 and CloudFront front ends answer a client that asks too fast; each such answer is
a line of ROOT/_throttled (the path it refused), so a test can see that it happened.

Prints the port it listens on (127.0.0.1, chosen by the OS) as its first line of output.
    python3 range_http.py ROOT [--drop N]
"""
import argparse
import email.utils
import hashlib
import http.server
import os
import re
import socket
import sys
import threading
import urllib.parse

ap = argparse.ArgumentParser()
ap.add_argument("root")
ap.add_argument("--drop", type=int, default=0)
ap.add_argument("--refuse", type=int, default=0)
ap.add_argument("--throttle", type=int, default=0)
ap.add_argument("--delay", type=float, default=0.0,
                help="seconds each GET waits before its answer (a distant server's latency)")
args = ap.parse_args()
ROOT = os.path.abspath(args.root)
gets = {}
ranges_asked = {}
all_gets = [0]
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are separate writes: with Nagle's algorithm each small answer waits for
    # the client's delayed ACK (40 ms), which is the server's cost, not the client's.
    disable_nagle_algorithm = True

    def log_message(self, *a):
        pass

    def do_HEAD(self):
        if "nohead" in self.path:
            self.send_response(405)
            self.send_header("Allow", "GET")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.serve(head=True)

    def do_GET(self):
        if args.delay:
            threading.Event().wait(args.delay)
        self.serve(head=False)

    def serve(self, head):
        rel = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).lstrip("/")
        for kind, host in (("redirect-other-", "localhost"), ("redirect-same-", "127.0.0.1")):
            if os.path.basename(rel).startswith(kind):
                target = os.path.join(os.path.dirname(rel), os.path.basename(rel)[len(kind):])
                self.send_response(302)
                self.send_header("Location", f"http://{host}:{self.server.server_address[1]}/{target}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        try:
            with open(os.path.join(ROOT, "_faults")) as f:
                faults = f.read()
        except OSError:
            faults = ""
        path = os.path.abspath(os.path.join(ROOT, rel))
        if not path.startswith(ROOT + os.sep) or not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if not head and "hang" in os.path.basename(path):
            threading.Event().wait()
        size = os.path.getsize(path)
        start, end, status = 0, size - 1, 200
        rng = self.headers.get("Range")
        if not head and args.throttle:
            with lock:
                all_gets[0] += 1
                slow = all_gets[0] % args.throttle == 0
            if slow:
                body = b"<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
                self.send_response(503)
                self.send_header("Retry-After", "1")
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                with lock, open(os.path.join(ROOT, "_throttled"), "a") as f:
                    f.write(rel + "\n")
                return
        if rng and not head and args.refuse:
            with lock:
                n = ranges_asked.get((path, rng), 0)
                ranges_asked[(path, rng)] = n + 1
            if n < args.refuse:
                status = [503, 429, 403][n % 3]
                self.send_response(status)
                if status == 503:
                    self.send_header("Retry-After", "1")
                elif status == 429:
                    later = email.utils.formatdate(__import__("time").time() + 1, usegmt=True)
                    self.send_header("Retry-After", later)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        if rng and ("norange" in os.path.basename(path) or "norange" in faults):
            rng = None
        if rng and not head and ("refuse416" in os.path.basename(path) or "refuse416" in faults):
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if rng and not head and "endless" in os.path.basename(path):
            m = re.fullmatch(r"bytes=(\d+)-(\d*)", rng.strip())
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {m.group(1)}-{m.group(2)}/{size}")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                while True:
                    self.wfile.write(b"\0" * 65536)
            except OSError:  # the client gave up
                pass
            return
        if rng:
            m = re.fullmatch(r"bytes=(\d+)-(\d*)", rng.strip())
            if not m or int(m.group(1)) >= size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            start = int(m.group(1))
            end = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
            status = 206
        st = os.stat(path)
        self.send_response(status)
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
        if "noetag" not in os.path.basename(path):
            tag = hashlib.sha1(f"{path}:{size}:{st.st_mtime_ns}".encode()).hexdigest()
            self.send_header("ETag", f'"{tag}"')
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if head:
            return
        name = os.path.basename(path)
        with lock:
            n = gets.get(path, 0)
            gets[path] = n + 1
        with open(path, "rb") as f:
            f.seek(start)
            body = f.read(end - start + 1)
        if n < args.drop and len(body) > 1:
            self.wfile.write(body[: max(1, len(body) * 2 // 5)])
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if "trickle" in name:
            self.wfile.write(body[:1000])
            self.wfile.flush()
            try:
                for i in range(1000, len(body)):
                    threading.Event().wait(2)
                    self.wfile.write(body[i : i + 1])
                    self.wfile.flush()
            except OSError:  # the client gave up
                pass
            return
        try:
            self.wfile.write(body)
        except OSError:  # the client took what it wanted of a whole-file answer and went
            pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

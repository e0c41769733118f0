#!/usr/bin/env python3
"""Serves a built dist/ folder with the headers that make the page cross-origin isolated
(Z3's threads need SharedArrayBuffer), as a classroom's server should: a file whose name
carries its content hash (scripts/hash-assets.py) is cached for a year (`immutable`),
index.html and sw.js are revalidated at every visit, and a browser that accepts gzip gets the
build's `.gz` twin of a file. Usage: serve.py [DIR] [PORT] [--host HOST] [--count-bytes]
(`--count-bytes`: `GET /__served` answers the body bytes served and the requests answered
(a 304 too) since it was last asked, for scripts/load-bench.mjs)."""

import argparse
import email.utils
import functools
import http.server
import os
import json
import re
import sys
import threading

HASHED = re.compile(r"-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css)$")


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
    }

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        # Same-origin only; says so explicitly for the COEP check of workers and wasm.
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if HASHED.search(path):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def do_GET(self):
        if self.server.counting and self.path == "/__served":
            with self.server.lock:
                body = json.dumps({"bytes": self.server.served, "requests": self.server.requests})
                self.server.served = self.server.requests = 0
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())
            return
        super().do_GET()

    def copyfile(self, source, outputfile):
        sent = 0
        for chunk in iter(lambda: source.read(1 << 16), b""):
            outputfile.write(chunk)
            sent += len(chunk)
        with self.server.lock:
            self.server.served += sent

    def log_request(self, code="-", size="-"):
        if self.server.counting and self.path != "/__served":
            with self.server.lock:
                self.server.requests += 1
        super().log_request(code, size)

    def send_head(self):
        """The `.gz` twin of the file asked for, where there is one and gzip is accepted."""
        path = self.translate_path(self.path)
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and os.path.isfile(path) and os.path.isfile(path + ".gz")):
            return super().send_head()
        f = open(path + ".gz", "rb")
        fs = os.fstat(f.fileno())
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(fs.st_size))
        self.send_header("Last-Modified", email.utils.formatdate(fs.st_mtime, usegmt=True))
        self.end_headers()
        return f

    def log_message(self, fmt, *args):
        if not self.server.quiet:
            super().log_message(fmt, *args)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("dir", nargs="?", default="dist")
    p.add_argument("port", nargs="?", type=int, default=8080)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--quiet", action="store_true", help="do not log requests")
    p.add_argument("--count-bytes", action="store_true", help="answer GET /__served")
    a = p.parse_args(argv)
    handler = functools.partial(IsolatedHandler, directory=a.dir)
    with http.server.ThreadingHTTPServer((a.host, a.port), handler) as httpd:
        httpd.quiet = a.quiet
        httpd.counting = a.count_bytes
        httpd.lock = threading.Lock()
        httpd.served = httpd.requests = 0
        host, port = httpd.server_address[:2]
        print(f"Serving {a.dir}/ on http://{host}:{port}/ (cross-origin isolated)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

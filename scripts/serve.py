#!/usr/bin/env python3
"""Serves a built dist/ folder with the headers that make the page cross-origin isolated
(Z3's threads need SharedArrayBuffer). Usage: serve.py [DIR] [PORT] [--host HOST]."""

import argparse
import functools
import http.server
import sys


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
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        if not self.server.quiet:
            super().log_message(fmt, *args)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("dir", nargs="?", default="dist")
    p.add_argument("port", nargs="?", type=int, default=8080)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--quiet", action="store_true", help="do not log requests")
    a = p.parse_args(argv)
    handler = functools.partial(IsolatedHandler, directory=a.dir)
    with http.server.ThreadingHTTPServer((a.host, a.port), handler) as httpd:
        httpd.quiet = a.quiet
        host, port = httpd.server_address[:2]
        print(f"Serving {a.dir}/ on http://{host}:{port}/ (cross-origin isolated)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

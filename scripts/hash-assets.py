#!/usr/bin/env python3
"""Content-hashes the files of dist/ that trunk copies under fixed names, so that every file
but index.html and sw.js can be cached for a year (scripts/serve.py says so: `immutable`) and
a new build never mixes with an old one.

Usage: hash-assets.py DIST

1. The engine worker's files and Z3 (z3-built.wasm, z3-built.js, z3-fast-eh.js, cpa-worker.js,
   cpa-worker_bg.wasm) get their hash in their name (`z3-built-<16 hex>.wasm`); worker.js,
   which loads them, is rewritten to the new names (each quoted name must occur, or the build
   stops) and learns Z3's size (its download progress must not depend on a header that
   compression changes); then worker.js itself is hashed, and index.html's
   `<meta name="cpa-worker">` names it (the page reads the worker's name there).
2. sw.js gets the list of every file of the build and a version (the hash of that list):
   the service worker caches exactly these (static/sw.js).
3. Every compressible file gets a gzip twin (`.gz`) that scripts/serve.py sends to a browser
   that accepts it.

Idempotent: hashed names from an earlier run are removed first (trunk keeps copied files).
"""

import gzip
import hashlib
import os
import re
import sys

LEAVES = ["z3-built.wasm", "z3-built.js", "z3-fast-eh.js", "cpa-worker.js", "cpa-worker_bg.wasm"]
HASHED = re.compile(r"-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css)$")
COMPRESSIBLE = (".js", ".wasm", ".css", ".html")


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def hashed_name(name, path):
    stem, ext = os.path.splitext(name)
    return f"{stem}-{digest(path)}{ext}"


def fail(message):
    sys.exit(f"hash-assets: {message}")


def replace_once_or_more(text, old, new, what):
    if old not in text:
        fail(f"{what}: {old!r} not found")
    return text.replace(old, new)


def main(dist):
    ours = re.compile(r"^(z3-built|z3-fast-eh|cpa-worker|cpa-worker_bg|worker)-[0-9a-f]{16}\.(js|wasm)$")
    for name in os.listdir(dist):
        if name.endswith(".gz") or ours.match(name):
            os.remove(os.path.join(dist, name))
    for leaf in LEAVES + ["worker.js", "index.html", "sw.js"]:
        if not os.path.isfile(os.path.join(dist, leaf)):
            fail(f"{leaf} missing in {dist}")

    renamed = {}
    for leaf in LEAVES:
        src = os.path.join(dist, leaf)
        renamed[leaf] = hashed_name(leaf, src)
        os.replace(src, os.path.join(dist, renamed[leaf]))

    worker_path = os.path.join(dist, "worker.js")
    worker = open(worker_path, encoding="utf-8").read()
    for leaf, new in renamed.items():
        worker = replace_once_or_more(worker, f"'{leaf}'", f"'{new}'", "worker.js")
    size = os.path.getsize(os.path.join(dist, renamed["z3-built.wasm"]))
    worker = replace_once_or_more(
        worker, "const Z3_WASM_BYTES = 0;", f"const Z3_WASM_BYTES = {size};", "worker.js"
    )
    with open(worker_path, "w", encoding="utf-8") as f:
        f.write(worker)
    worker_name = hashed_name("worker.js", worker_path)
    os.replace(worker_path, os.path.join(dist, worker_name))

    index_path = os.path.join(dist, "index.html")
    index = open(index_path, encoding="utf-8").read()
    index = replace_once_or_more(
        index,
        '<meta name="cpa-worker" content="worker.js"',
        f'<meta name="cpa-worker" content="{worker_name}"',
        "index.html",
    )
    with open(index_path, "w", encoding="utf-8") as f:
        f.write(index)

    assets = sorted(n for n in os.listdir(dist) if n not in ("index.html", "sw.js"))
    for n in assets:
        if not HASHED.search(n):
            fail(f"{n} has no content hash in its name: it could not be cached for long")
    version = hashlib.sha256("\n".join(assets + [index]).encode()).hexdigest()[:16]
    sw_path = os.path.join(dist, "sw.js")
    sw = open(sw_path, encoding="utf-8").read()
    sw = replace_once_or_more(sw, "const VERSION = 'dev';", f"const VERSION = '{version}';", "sw.js")
    listed = ", ".join(f"'{n}'" for n in assets)
    sw = replace_once_or_more(sw, "const ASSETS = [];", f"const ASSETS = [{listed}];", "sw.js")
    with open(sw_path, "w", encoding="utf-8") as f:
        f.write(sw)

    for n in os.listdir(dist):
        path = os.path.join(dist, n)
        if n.endswith(COMPRESSIBLE) and os.path.getsize(path) > 1024:
            with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=6) as g:
                for block in iter(lambda: f.read(1 << 20), b""):
                    g.write(block)
    total = sum(os.path.getsize(os.path.join(dist, n)) for n in assets + ["index.html", "sw.js"])
    print(f"[hash-assets] {len(assets)} files hashed, version {version}, {total / 1e6:.1f} MB")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        fail("usage: hash-assets.py DIST")
    main(sys.argv[1])

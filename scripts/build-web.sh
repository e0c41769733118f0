#!/usr/bin/env bash
# Builds the playground into dist/: the page's JavaScript bundle (esbuild), then the Yew page and the
# engine worker (trunk, offline: every tool is installed by scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '[build-web] %s\n' "$*" >&2; }
t0=$SECONDS

# npm packages (esbuild, CodeMirror, viz.js, Z3): npm ci only if node_modules does not match
# package-lock.json.
scripts/setup.sh --npm-only

log "esbuild: web/js/index.js -> target/js/cpa-page.js"
mkdir -p target/js
node_modules/.bin/esbuild web/js/index.js --bundle --format=iife --global-name=CpaPage \
  --minify --target=es2020 --log-level=warning --outfile=target/js/cpa-page.js

log "trunk build --release --offline"
trunk build --release --offline

# z3-solver's glue (z3-built.js) is linked without optimisation, so every call through the
# function table (Z3's emulated C++ exceptions make tens of millions of them per run) also
# re-reads the table to assert that the JS mirror is current. The table never changes here (no
# dynamic linking; Z3 runs on one thread), and dropping that one line cut Z3's time in the page
# by about 40 % (docs/web-bench.md). (static/z3-fast-eh.js now takes those calls in wasm; the
# JS ones remain where a browser lacks wasm exception handling.) Exactly one line must match,
# or the build stops: a new z3-solver release must be looked at again.
log "z3-built.js: drop the function-table mirror assertion"
python3 - dist/z3-built.js <<'PY'
import sys
path = sys.argv[1]
line = "assert(wasmTable.get(funcPtr) == func, 'JavaScript-side Wasm function table mirror is out of date!');"
marker = "/* mirror assertion dropped by scripts/build-web.sh */"
text = open(path).read()
n = text.count(line)
if n == 0 and text.count(marker) == 1:
    sys.exit(0)  # already patched (trunk kept the file)
if n != 1:
    sys.exit(f"z3-built.js: expected the mirror assertion once, found it {n} times")
open(path, "w").write(text.replace(line, marker, 1))
PY

# Content hashes in the names of the files trunk copies as they are, the service worker's
# list of the build's files, and gzip twins (scripts/hash-assets.py).
python3 scripts/hash-assets.py dist

for f in index.html sw.js 'worker-*.js' 'z3-fast-eh-*.js' 'cpa-worker-*.js' 'cpa-worker_bg-*.wasm' \
  'z3-built-*.js' 'z3-built-*.wasm'; do
  compgen -G "dist/$f" > /dev/null || { log "missing dist/$f"; exit 1; }
done
log "dist/ ready in $((SECONDS - t0)) s"

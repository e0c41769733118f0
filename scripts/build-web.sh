#!/usr/bin/env bash
# Builds the playground into dist/: the JS vendor bundle (esbuild), then the Yew page and the
# engine worker (trunk, offline: every tool is installed by scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '[build-web] %s\n' "$*" >&2; }
t0=$SECONDS

# npm packages (esbuild, CodeMirror, viz.js, Z3): npm ci only if node_modules does not match
# package-lock.json.
scripts/setup.sh --npm-only

log "esbuild: vendor/index.js -> target/vendor/cpa-vendor.js"
mkdir -p target/vendor
node_modules/.bin/esbuild vendor/index.js --bundle --format=iife --global-name=CpaVendor \
  --minify --target=es2020 --log-level=warning --outfile=target/vendor/cpa-vendor.js

log "trunk build --release --offline"
trunk build --release --offline

for f in index.html worker.js cpa-worker.js cpa-worker_bg.wasm z3-built.js z3-built.wasm coi-serviceworker.min.js; do
  [ -s "dist/$f" ] || { log "missing dist/$f"; exit 1; }
done
log "dist/ ready in $((SECONDS - t0)) s"

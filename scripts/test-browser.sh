#!/usr/bin/env bash
# Runs the browser tests (tests/browser/*.test.mjs) against dist/, served with the isolation
# headers on a free loopback port; the server is stopped however the tests end.
# Usage: scripts/test-browser.sh [TEST_FILE...] (default: all of tests/browser/).
set -euo pipefail
cd "$(dirname "$0")/.."

[ -s dist/index.html ] || { echo "dist/ is not built: run scripts/build-web.sh" >&2; exit 1; }
# solver.test.mjs compares the browser's interpolants with the native `cpa itp` (a no-op when
# `make test`'s native step has built it already).
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release -q -p cpa-cli
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 scripts/serve.py dist "$port" --quiet &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

for _ in $(seq 1 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done

CPA_BASE_URL="http://127.0.0.1:$port/" node --test --test-concurrency=1 "${@:-tests/browser/}"

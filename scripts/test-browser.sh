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
source scripts/serve-dist.sh

CPA_BASE_URL="$dist_url" node --test --test-concurrency=1 "${@:-tests/browser/}"

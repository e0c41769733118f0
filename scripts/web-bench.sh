#!/usr/bin/env bash
# The playground's performance in headless Chromium (by hand, not part of `make test`; the
# figures go to docs/web-bench.md): page load to interactive, load to the first verdict of the
# default example, step latency on a ~600-state ARG, ARG layout and drawing at 100/500/2000
# states, browser/native time to the verdict on five tasks, bundle sizes.
# Usage: scripts/web-bench.sh [REPEATS]   (SKIP_BUILD=1 uses the existing dist/ and cpa;
# CPA_BENCH_ONLY=compare measures only compare mode's step latency and the race)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
repeats=${1:-3}

if [ "${SKIP_BUILD:-}" != 1 ]; then
  cargo build --release -q -p cpa-cli
  scripts/build-web.sh
fi
[ -s dist/index.html ] || { echo "dist/ is not built: run scripts/build-web.sh" >&2; exit 1; }

source scripts/serve-dist.sh
node scripts/web-bench.mjs "$dist_url" "$repeats"

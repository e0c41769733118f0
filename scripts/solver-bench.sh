#!/usr/bin/env bash
# Solver throughput natively and in the browser, with the same query mix
# (solver_bridge::bench::timed_query_mix) and the same round count, and their ratio.
# Run by hand (not part of `make test`): scripts/solver-bench.sh [ROUNDS] [REPEATS]
# Native: the `qps` example over `z3 -in` through a SharedPool handle (the browser's layering).
# Browser: the worker's `solver-bench` request over the npm z3-solver build, in headless
# Chromium, timed with performance.now() in the worker; each repetition loads the page, runs
# the mix once "cold" (Z3's wasm not yet optimized by Chromium), then once measured. Reports
# the median of REPEATS runs.
# SKIP_BUILD=1 uses the existing target/release/examples/qps and dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
rounds=${1:-400}
repeats=${2:-5}

log() { printf '[solver-bench] %s\n' "$*" >&2; }

if [ "${SKIP_BUILD:-}" != 1 ]; then
  log "building the native benchmark and the web playground"
  cargo build --release -q -p solver-bridge --example qps
  scripts/build-web.sh
fi
[ -x target/release/examples/qps ] || { log "target/release/examples/qps is missing"; exit 1; }
[ -s dist/index.html ] || { log "dist/ is not built: run scripts/build-web.sh"; exit 1; }

source scripts/serve-dist.sh

out=$(mktemp -d)
# Alternate native and browser runs, so a change of machine load hits both alike.
for i in $(seq 1 "$repeats"); do
  log "run $i/$repeats: native"
  target/release/examples/qps "$rounds" --mix-only | sed -n 's/^qps-json //p' >> "$out/native"
  log "run $i/$repeats: browser"
  node scripts/solver-bench.mjs "$dist_url" "$rounds" 1 > "$out/browser.log"
  sed -n 's/^browser-json //p' "$out/browser.log" >> "$out/browser"
  sed -n 's/^browser-cold-json //p' "$out/browser.log" >> "$out/browser-cold"
done

python3 - "$out" "$rounds" <<'PY'
import json, statistics, subprocess, sys, os
out, rounds = sys.argv[1], int(sys.argv[2])
def load(name):
    return [json.loads(l) for l in open(os.path.join(out, name)) if l.strip()]
native, browser, cold = load("native"), load("browser"), load("browser-cold")
blog = open(os.path.join(out, "browser.log")).read().splitlines()
info = {l.split(" ", 1)[0]: l.split(" ", 1)[1] for l in blog if " " in l}
for n, b in zip(native, browser):
    assert n["round_trips"] == b["round_trips"] and n["check_sats"] == b["check_sats"], (n, b)
def rate(runs, key):
    return [r[key] * 1000.0 / r["ms"] for r in runs]
z3 = subprocess.run(["z3", "--version"], capture_output=True, text=True).stdout.strip()
q, c = native[0]["round_trips"], native[0]["check_sats"]
print(f"query mix: {rounds} rounds = {q} round trips ({c} check-sats), median of {len(native)} runs")
for label, runs, version in [("native ", native, z3), ("browser", browser, info.get("browser-z3", "?"))]:
    ms = statistics.median(r["ms"] for r in runs)
    qps = statistics.median(rate(runs, "round_trips"))
    cps = statistics.median(rate(runs, "check_sats"))
    each = ", ".join("%.0f" % r["ms"] for r in runs)
    print(f"  {label}: {qps:7.0f} queries/s ({cps:6.0f} check-sat/s), {ms:8.1f} ms  [{version}]  runs: {each} ms")
ratio = statistics.median(rate(native, "round_trips")) / statistics.median(rate(browser, "round_trips"))
print(f"  ratio native/browser: {ratio:.2f}")
cold_qps = statistics.median(rate(cold, "round_trips"))
each = ", ".join("%.0f" % r["ms"] for r in cold)
print(f"  (browser, first run after the page load: {cold_qps:.0f} queries/s, runs: {each} ms)")
raw = statistics.median(r["raw_ms"] for r in native)
print(f"  (native raw z3 -in without the SharedPool layer: median {raw:.1f} ms)")
print(f"  browser: {info.get('browser-ua', '?')}")
PY
rm -rf "$out"

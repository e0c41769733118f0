#!/usr/bin/env bash
# Tests the BenchExec tool-info module contrib/benchexec/cpa_playground.py with the release
# binary: BenchExec's own checker (benchexec.test_tool_info, without container, so no cgroups
# are needed) on task definitions and real outputs of `cpa verify`, then the module's unit
# tests (contrib/benchexec/test_cpa_playground.py, real runs). Fails on any problem the checker
# reports. Needs scripts/setup-benchexec.sh and target/release/cpa (or CPA_TOOL_DIR=DIR with
# DIR/cpa or DIR/target/release/cpa).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=target/benchexec-venv/bin/python
[ -x "$PY" ] || { echo "BenchExec is not installed: run scripts/setup-benchexec.sh" >&2; exit 1; }
tool_dir=${CPA_TOOL_DIR:-.}
cpa=$tool_dir/target/release/cpa
[ -x "$cpa" ] || cpa=$tool_dir/cpa
[ -x "$cpa" ] || { echo "no cpa binary in $tool_dir (cargo build --release -p cpa-cli)" >&2; exit 1; }
# A relative tool directory keeps the checker's command lines relative (it warns on absolute
# ones, which do not move to other machines).
tool_dir=$(realpath --relative-to=. "$tool_dir")
export CPA_TOOL_DIR=$tool_dir
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-benchexec: FAILED: $*" >&2; exit 1; }

# Real outputs (stdout and stderr together, as runexec records them) for the checker's
# --tool-output: a TRUE, a FALSE and a refused property.
printf 'CHECK( init(main()), LTL(G ! overflow) )\n' > "$tmp/no-overflow.prp"
"$cpa" verify tests/svcomp/bitvector/num_conversion_1.yml > "$tmp/true.log" 2>&1
"$cpa" verify tests/svcomp/loops/sum04-1.yml > "$tmp/false.log" 2>&1
"$cpa" verify tests/svcomp/loops/sum04-1.i --spec "$tmp/no-overflow.prp" > "$tmp/refused.log" 2>&1 &&
  fail "cpa accepted the no-overflow property"

checker=$tmp/checker.txt
if ! "$PY" -m benchexec.test_tool_info contrib.benchexec.cpa_playground --no-container \
    --tool-directory "$tool_dir" \
    --task-definition tests/svcomp/loops/sum04-1.yml tests/svcomp/bitvector/num_conversion_1.yml \
    --tool-output "$tmp/true.log" "$tmp/false.log" "$tmp/refused.log" > "$checker" 2>&1; then
  cat "$checker" >&2
  fail "benchexec.test_tool_info exited with an error"
fi

# Every warning of the checker is a problem, except the one for a feature cpa lacks by
# design: tasks with several input files.
problems=$(grep -E '^(WARNING|ERROR|CRITICAL)|Traceback' "$checker" \
  | grep -v 'does not support tasks with multiple input files' || true)
[ -z "$problems" ] || { cat "$checker" >&2; fail "the checker reports: $problems"; }

# What the checker printed must be what the module means to do.
expect() { # description, then the text (grep -F) that must occur in the checker's output
  grep -qF -- "$2" "$checker" || { cat "$checker" >&2; fail "$1: no '$2'"; }
}
expect "name" 'Name of tool: “CPA Playground”'
expect "version" 'Version: “0.1.0”'
expect "options and property" "'verify', '--spec', 'PROPERTY.PRP', 'INPUT.FILE'"
expect "options passed through" "'verify', '-SOME_OPTION', 'INPUT.FILE'"
expect "task definition" "'--spec', 'tests/svcomp/properties/unreach-call.prp', 'tests/svcomp/loops/sum04-1.i'"
result_of() { # the result the checker gives for one of the outputs above
  grep -A1 -F "Result of analyzing tool output in “$tmp/$1”" "$checker" | sed -n '2s/^\s*//p'
}
[ "$(result_of true.log)" = '“true”' ] || fail "TRUE output gives $(result_of true.log)"
[ "$(result_of false.log)" = '“false(unreach-call)”' ] || fail "FALSE output gives $(result_of false.log)"
[ "$(result_of refused.log)" = '“ERROR (unsupported property)”' ] ||
  fail "refused property gives $(result_of refused.log)"
echo "test-benchexec: benchexec.test_tool_info reports no problem"

if ! "$PY" -m unittest contrib.benchexec.test_cpa_playground > "$tmp/unit.txt" 2>&1; then
  cat "$tmp/unit.txt" >&2
  fail "unit tests of the module"
fi
tail -n 3 "$tmp/unit.txt"
echo "test-benchexec: ok"

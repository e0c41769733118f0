#!/usr/bin/env bash
# The long fuzzing campaign (docs/reliability.md): differential testing of the verifier on
# generated programs (`cpa fuzz`) and, separately, mutated inputs to the front end
# (`cpa fuzz-frontend`). Both run in chunks so that a long campaign can share the machine: with
# FUZZ_LOCK set to a lock file, every chunk runs under `flock "$FUZZ_LOCK"`.
#
#   scripts/fuzz.sh [--programs N] [--inputs M] [--seed S] [--jobs J] [--chunk C]
#                   [--start-chunk K] [--timeout SECS] [--out DIR] [--memory]
#
# --memory: the generator writes arrays, pointers and structs too (other programs for the
# same seed; their logs are named programs-m-SEED-K).
# Defaults: 10000 programs in chunks of 100, 1000000 inputs, seed 1, 2 jobs. Logs and the
# per-chunk outputs go to target/fuzz-campaign/; findings to tests/fuzz-findings/ (or --out).
# At the end the figures are printed in the form of docs/reliability.md. A campaign that was
# interrupted resumes with --start-chunk (chunks already logged are kept and counted).
# The exit code is 3 when anything was found.
set -euo pipefail
cd "$(dirname "$0")/.."

programs=10000
inputs=1000000
seed=1
jobs=2
chunk=100
start_chunk=0
timeout=60
out=tests/fuzz-findings
memory=()
tag=""
while [ $# -gt 0 ]; do
  case "$1" in
    --programs) programs=$2; shift 2 ;;
    --inputs) inputs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    --start-chunk) start_chunk=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --memory) memory=(--memory); tag="m-"; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

export PATH="$HOME/.cargo/bin:$PATH"
dir=target/fuzz-campaign
mkdir -p "$dir"
locked() {
  if [ -n "${FUZZ_LOCK:-}" ]; then flock "$FUZZ_LOCK" "$@"; else "$@"; fi
}
locked cargo build --release -p cpa-cli
# A private copy: a rebuild of target/release/cpa during a campaign of hours (other work on the
# same checkout) must not make the running chunks fail to start their child processes.
cpa=$dir/cpa
cp target/release/cpa "$cpa.new" && mv -f "$cpa.new" "$cpa"
found=0

# Differential testing, chunk by chunk.
chunks=$(( (programs + chunk - 1) / chunk ))
for ((k = start_chunk; k < chunks; k++)); do
  first=$((k * chunk))
  n=$(( programs - first < chunk ? programs - first : chunk ))
  echo "== programs $first..$((first + n - 1)) ($(date +%H:%M:%S))"
  set +e
  locked "$cpa" fuzz "${memory[@]}" --seed "$seed" --start "$first" --count "$n" --jobs "$jobs" \
    --timeout "$timeout" --out "$out" --log "$dir/programs-$tag$seed-$k.jsonl" \
    > "$dir/programs-$tag$seed-$k.out"
  rc=$?
  set -e
  grep -E '^(BUG|GENERATOR)' "$dir/programs-$tag$seed-$k.out" || true
  tail -n 1 "$dir/programs-$tag$seed-$k.out"
  [ $rc -eq 0 ] || found=1
done

# Front-end fuzzing, in chunks of 200000 inputs.
fe_chunk=200000
for ((first = 0; first < inputs; first += fe_chunk)); do
  n=$(( inputs - first < fe_chunk ? inputs - first : fe_chunk ))
  echo "== front-end inputs $first..$((first + n - 1)) ($(date +%H:%M:%S))"
  set +e
  locked "$cpa" fuzz-frontend --seed "$seed" --start "$first" --count "$n" --jobs "$jobs" \
    --out "$out" > "$dir/frontend-$seed-$first.out"
  rc=$?
  set -e
  grep '^BUG' "$dir/frontend-$seed-$first.out" || true
  tail -n 1 "$dir/frontend-$seed-$first.out"
  [ $rc -eq 0 ] || found=1
done

python3 scripts/fuzz_figures.py "$dir" "$tag$seed"
[ $found -eq 0 ] || exit 3

#!/usr/bin/env python3
"""Figures of a fuzzing campaign (scripts/fuzz.sh) for docs/reliability.md.

Usage: scripts/fuzz_figures.py DIR SEED
Reads DIR/programs-SEED-*.jsonl (one JSON line per program, written by `cpa fuzz --log`),
DIR/programs-SEED-*.out and DIR/frontend-SEED-*.out (their summary lines) and prints the
figures as Markdown.
"""
import glob
import json
import re
import sys
from collections import Counter, defaultdict


def main():
    d, seed = sys.argv[1], sys.argv[2]
    programs = []
    for path in sorted(glob.glob(f"{d}/programs-{seed}-*.jsonl")):
        with open(path) as f:
            programs += [json.loads(line) for line in f if line.strip()]
    seconds = 0.0
    for path in glob.glob(f"{d}/programs-{seed}-*.out"):
        for line in open(path):
            m = re.match(r"fuzz: .* time (\d+) s$", line.strip())
            if m:
                seconds += float(m.group(1))
    verdicts = defaultdict(Counter)
    run_seconds = Counter()
    bugs = Counter()
    signatures = Counter()
    buggy = 0
    for p in programs:
        for r in p["runs"]:
            verdicts[r["preset"]][r["verdict"]] += 1
            run_seconds[r["preset"]] += r["seconds"]
        for b in p["bugs"]:
            bugs[b["kind"]] += 1
            signatures[f'{b["kind"]} [{", ".join(b["presets"])}]'] += 1
        buggy += bool(p["bugs"])
    n = len(programs)
    print(f"## Differential testing (seed {seed})\n")
    print(f"- programs: {n} ({sum(p['bounded'] for p in programs)} bounded, "
          f"{sum(p['witness'] for p in programs)} with a planted witness, "
          f"{sum(p['truth_false'] for p in programs)} established FALSE)")
    print(f"- runs: {sum(sum(c.values()) for c in verdicts.values())}")
    print(f"- wall-clock time: {seconds:.0f} s ({seconds / 3600:.1f} h)"
          + (f", {seconds / n:.2f} s per program" if n else ""))
    print(f"- bugs: {sum(bugs.values())} in {buggy} programs"
          + (": " + ", ".join(f"{k} {v}" for k, v in sorted(bugs.items())) if bugs else ""))
    print(f"- generator problems: {sum(1 for p in programs if p.get('generator_problem'))}\n")
    print("| preset | runs | true | false | unknown | slow | stuck | crash | time (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for preset in sorted(verdicts):
        c = verdicts[preset]
        print(f"| {preset} | {sum(c.values())} | {c['true']} | {c['false']} | {c['unknown']} "
              f"| {c['slow']} | {c['stuck']} | {c['crash']} | {run_seconds[preset]:.0f} |")
    if signatures:
        print("\n| bug (kind, presets) | programs |")
        print("|---|---:|")
        for s, k in signatures.most_common():
            print(f"| {s} | {k} |")
    inputs = parsed = findings = 0
    fe_seconds = 0.0
    kinds = Counter()
    for path in glob.glob(f"{d}/frontend-{seed}-*.out"):
        for line in open(path):
            m = re.match(r"fuzz-frontend: seed \d+, inputs (\d+) .*parsed (\d+), rejected \d+, "
                         r"findings (\d+)(?: \(([^)]*)\))?.* time (\d+) s$", line.strip())
            if m:
                inputs += int(m.group(1))
                parsed += int(m.group(2))
                findings += int(m.group(3))
                for part in (m.group(4) or "").split(", "):
                    if part:
                        k, v = part.rsplit(" ", 1)
                        kinds[k] += int(v)
                fe_seconds += float(m.group(5))
    print(f"\n## Front-end fuzzing (seed {seed})\n")
    print(f"- inputs: {inputs} ({parsed} parsed, {inputs - parsed} rejected with a diagnostic)")
    print(f"- findings: {findings}"
          + (" (" + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + ")" if kinds else ""))
    print(f"- wall-clock time: {fe_seconds:.0f} s")


if __name__ == "__main__":
    main()

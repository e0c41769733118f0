#!/usr/bin/env python3
"""Summarises `cpa bench --output FILE.jsonl` as the Markdown tables of docs/benchmarks.md.

Usage: scripts/bench-report.py RESULTS.jsonl [REFERENCE_PRESET]

Per preset: correct TRUE, correct FALSE, wrong, UNKNOWN, total wall time, the share of it
spent in the solver (a timeout counts its whole time, none of it in the solver), the engine's
share of the runs that finished (their time outside the solver; issue 14 asks under 15 %),
and the total time as a ratio to the reference preset (default predicate-lbe) measured in the
same run. Then the reasons of every UNKNOWN of the preset with
the most correct answers.
"""
import json
import sys
from collections import OrderedDict


def main():
    path = sys.argv[1]
    ref = sys.argv[2] if len(sys.argv) > 2 else "predicate-lbe"
    rows = [json.loads(l) for l in open(path) if l.strip()]
    by = OrderedDict()
    for r in rows:
        by.setdefault(r["config"], []).append(r)
    summary = {}
    certificates = {}
    for cfg, rs in by.items():
        ct = sum(1 for r in rs if r["outcome"] == "correct" and r["verdict"] == "true")
        cf = sum(1 for r in rs if r["outcome"] == "correct" and r["verdict"] == "false")
        wrong = sum(1 for r in rs if r["outcome"] == "WRONG")
        unk = sum(1 for r in rs if r["outcome"] == "unknown")
        total = sum(r["seconds"] for r in rs)
        solver = sum((r.get("stats") or {}).get("solver_ms", 0) / 1000 for r in rs)
        # The runs that finished (a timeout has no statistics): the engine's part of their time.
        done = [r["stats"] for r in rs if r.get("stats")]
        done_total = sum(st.get("total_ms", 0) for st in done)
        done_solver = sum(st.get("solver_ms", 0) for st in done)
        engine = 100 * (done_total - done_solver) / done_total if done_total else 0
        summary[cfg] = (ct, cf, wrong, unk, total, solver, engine)
        # The certificate check of the TRUE answers: its solver time against the solver time
        # of those runs (CEGAR presets; BMC and k-induction have none).
        trues = [r for r in rs if (r.get("stats") or {}).get("certificate_ms") is not None]
        cert = sum(r["stats"]["certificate_ms"] for r in trues)
        cert_solver = sum(r["stats"].get("solver_ms", 0) for r in trues)
        certificates[cfg] = (len(trues), cert, cert_solver)
    ref_total = summary.get(ref, (0,) * 7)[4] or 1.0
    print("| preset | correct TRUE | correct FALSE | correct | wrong | UNKNOWN | total time (s) | solver share | engine share of finished runs | time / " + ref + " |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for cfg, (ct, cf, wrong, unk, total, solver, engine) in summary.items():
        share = 100 * solver / total if total else 0
        print(f"| {cfg} | {ct} | {cf} | {ct + cf} | {wrong} | {unk} | {total:.0f} | {share:.0f}% | {engine:.0f}% | {total / ref_total:.2f} |")
    print()
    print("Certificate check of every CEGAR TRUE (solver time of the check / solver time of those runs):")
    print()
    print("| preset | TRUE answers checked | check solver time (ms) | share of their solver time |")
    print("| --- | --- | --- | --- |")
    for cfg, (n, cert, total) in certificates.items():
        if n:
            print(f"| {cfg} | {n} | {cert:.0f} | {100 * cert / total if total else 0:.1f}% |")
    best = max(summary, key=lambda c: summary[c][0] + summary[c][1])
    print()
    print(f"UNKNOWN answers of the best preset, {best}:")
    print()
    print("| task | expected | time (s) | reason |")
    print("| --- | --- | --- | --- |")
    for r in by[best]:
        if r["outcome"] == "unknown":
            print(f"| {r['path']} | {r['expected']} | {r['seconds']:.1f} | {r['reason']} |")
    print()
    print("Solved by each preset (C = correct, . = UNKNOWN, W = wrong):")
    print()
    cfgs = list(by)
    print("| task | " + " | ".join(cfgs) + " |")
    print("| --- | " + " | ".join("---" for _ in cfgs) + " |")
    tasks = OrderedDict()
    for r in rows:
        tasks.setdefault(r["path"], {})[r["config"]] = r["outcome"]
    mark = {"correct": "C", "unknown": ".", "WRONG": "W"}
    for t, outs in tasks.items():
        print(f"| {t} | " + " | ".join(mark.get(outs.get(c, ""), "?") for c in cfgs) + " |")


if __name__ == "__main__":
    main()

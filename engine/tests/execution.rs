//! Concrete execution with input splitting on the programs of `tests/execution/`: each gets
//! the verdict (or the UNKNOWN reason) its header states, or, for a program with one 8-bit
//! input and no header, the verdict of its 256 concrete runs. Every FALSE's counterexample is
//! replayed by the interpreter with the input values it shows.

mod common;

use common::native_session;
use cpa_engine::cfa::Edge;
use cpa_engine::cfa::NodeId;
use cpa_engine::concrete::{self, Oracle, Outcome as RunOutcome};
use cpa_engine::config::Config;
use cpa_engine::fuzz::exec::{replay_counterexample, CexStep};
use cpa_engine::invariants::Formula;
use cpa_engine::invariants::LocationInvariant;
use cpa_engine::ir::Expr;
use cpa_engine::ir::{IntType, VarId};
use cpa_engine::parse_program;
use cpa_engine::proof::Outcome;
use cpa_engine::smt::BridgeSmt;
use cpa_engine::verdict::Verdict;
use solver_bridge::solver::NativeZ3;
use std::collections::BTreeMap;
use std::path::Path;

fn header<'a>(src: &'a str, key: &str) -> Option<&'a str> {
    src.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.trim_start_matches("//").trim().strip_prefix(key))
        .map(str::trim)
}

/// Every input read gets `value` (the programs without a header read one 8-bit input).
struct Always(i128);

impl Oracle for Always {
    fn value(&mut self, _: usize, _: &Edge, _: VarId, ty: IntType) -> Option<i128> {
        Some(ty.wrap(self.0))
    }
}

/// The verdict of all 256 runs of a program with one 8-bit input.
fn ground_truth(src: &str) -> &'static str {
    let cfa = parse_program("t.c", src).expect("parses").cfa;
    let mut verdict = "true";
    for v in 0..256 {
        match concrete::run(&cfa, &mut Always(v), 1_000_000).outcome {
            RunOutcome::ReachedError => verdict = "false",
            RunOutcome::Terminated => {}
            other => panic!("the run for input {v} ends with {other:?}"),
        }
    }
    verdict
}

#[test]
fn input_splitting_decides_as_the_headers_and_the_concrete_runs_say() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/execution");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{}", files.len());
    let mut failures = Vec::new();
    let mut brute = 0;
    let mut with_invariants = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(path).unwrap();
        let mut session = native_session(&src, Config::preset("execution").unwrap());
        let v = session.run().clone();
        eprintln!("{name:<28} {:<8} {}", v.name(), v.reason().unwrap_or(""));
        if let Some(text) = header(&src, "unknown:") {
            if !v.reason().is_some_and(|r| r.contains(text)) {
                failures.push(format!("{name}: expected UNKNOWN ({text}), got {v:?}"));
            }
            continue;
        }
        let expected = match header(&src, "verdict:") {
            Some(e) => e.to_string(),
            None => {
                brute += 1;
                ground_truth(&src).to_string()
            }
        };
        if v.name() != expected {
            failures.push(format!("{name}: expected {expected}, got {v:?}"));
        }
        if matches!(v, Verdict::True) {
            let invariants = session.invariants();
            if !invariants.is_empty() {
                with_invariants += 1;
                invariants_hold(&name, &src, invariants, &mut failures);
            }
        }
        if let Verdict::False { counterexample } = &v {
            let cfa = parse_program("t.c", &src).unwrap().cfa;
            let steps: Vec<CexStep> = counterexample.trace.iter().map(CexStep::from).collect();
            if let Err(e) = replay_counterexample(&cfa, &steps) {
                failures.push(format!("{name}: the counterexample does not replay: {e}"));
            }
        }
    }
    assert!(
        brute >= 4,
        "programs checked against their concrete runs: {brute}"
    );
    assert!(
        with_invariants >= 2,
        "TRUE answers whose witness has invariants: {with_invariants}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A TRUE's correctness-witness invariants (the octagon invariants at the loop heads) hold:
/// the witness check without sufficiency confirms them.
fn invariants_hold(
    name: &str,
    src: &str,
    invariants: Vec<LocationInvariant>,
    failures: &mut Vec<String>,
) {
    let cfa = parse_program("t.c", src).unwrap().cfa;
    let exprs: BTreeMap<NodeId, Expr> = invariants
        .into_iter()
        .map(|i| match i.formula {
            Formula::C(e) => (i.location, e),
            other => panic!("{name}: an invariant that is not C: {other:?}"),
        })
        .collect();
    let texts = cpa_engine::proof::induction::with_texts(&cfa, &exprs);
    let mut smt = BridgeSmt::new(NativeZ3::new().unwrap());
    match cpa_engine::proof::induction::check(&cfa, &mut smt, &texts, false) {
        Ok(Outcome::Confirmed) => {}
        other => failures.push(format!(
            "{name}: the invariants {texts:?} do not hold: {other:?}"
        )),
    }
}

/// The classes are exact: a split at a comparison, a wrap-around or an equality gives parts
/// that each decide it one way, so `x` has exactly the value the split found.
#[test]
fn counterexamples_show_the_single_input_that_reaches_the_error() {
    for (src, value) in [
        (
            "extern int __VERIFIER_nondet_int(void); extern void reach_error(void);\nint main(void) { int x = __VERIFIER_nondet_int(); if (x > 0) { x = x + 1; if (x < 0) reach_error(); } return 0; }",
            2147483647,
        ),
        (
            "extern int __VERIFIER_nondet_int(void); extern void reach_error(void);\nint main(void) { int x = __VERIFIER_nondet_int(); int y = 3 * x - 7; if (y == 21) reach_error(); return 0; }",
            -1431655756,
        ),
        (
            "extern unsigned char __VERIFIER_nondet_uchar(void); extern void reach_error(void);\nint main(void) { unsigned char x = __VERIFIER_nondet_uchar(); unsigned char d = x * 3; if (d == 1) reach_error(); return 0; }",
            171,
        ),
    ] {
        let v = native_session(src, Config::preset("execution").unwrap())
            .run()
            .clone();
        let Verdict::False { counterexample } = v else {
            panic!("{src}: {v:?}")
        };
        let first = counterexample
            .trace
            .iter()
            .find_map(|t| t.values.get("x"))
            .copied();
        assert_eq!(first, Some(value), "{src}");
    }
}

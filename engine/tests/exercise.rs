//! The exercises with the real z3. The invariant exercise (`proof::exercise`): candidate
//! invariants of a textbook loop, each with the parts that hold and fail, and the
//! counterexample to induction checked against the program's semantics (unsigned wrap-around
//! included). The predicate exercise (the `predicates` knob with `max-refinements=0`): the
//! run uses exactly the predicates given, and proves the program or stops at the error's line.

use cpa_engine::frontend::invariant::parse_invariant;
use cpa_engine::parse_program;
use cpa_engine::proof::exercise::{check, loop_head_at_line, Part, Report};
use cpa_engine::smt::BridgeSmt;
use solver_bridge::solver::NativeZ3;

const PROGRAM: &str = "extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  unsigned i = 0, j = 0;
  while (i < n) { i++; j += 2; }
  if (j != 2 * i) reach_error();
  return 0;
}
";

fn report(inv: &str) -> Report {
    let cfa = parse_program("t.c", PROGRAM).unwrap().cfa;
    let head = loop_head_at_line(&cfa, 6).expect("the loop of line 6");
    let e = parse_invariant(&cfa, cfa.node(head).function, inv).unwrap();
    let mut smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
    check(&cfa, &mut smt, head, &e, inv).unwrap()
}

fn holds(p: &Part) -> &'static str {
    match p {
        Part::Holds => "holds",
        Part::Fails { .. } => "fails",
        Part::Unknown { .. } => "unknown",
    }
}

#[test]
fn each_part_of_each_candidate() {
    for (inv, want) in [
        ("j == 2 * i", ["holds", "holds", "holds"]),
        ("j == 2 * i + 1", ["fails", "holds", "fails"]),
        ("i <= n", ["holds", "holds", "fails"]),
        ("j >= i", ["holds", "fails", "fails"]),
        ("i == 0", ["holds", "fails", "fails"]),
    ] {
        let r = report(inv);
        let got = [
            holds(&r.initiation),
            holds(&r.consecution),
            holds(&r.sufficiency),
        ];
        assert_eq!(got, want, "{inv}: {r:?}");
        assert_eq!(r.proves(), want == ["holds"; 3], "{inv}");
    }
}

/// The counterexample to induction is one iteration of the loop: before it the invariant
/// holds and `i < n`, after it `i` and `j` moved by 1 and 2 (modulo 2^32) and it fails.
#[test]
fn a_counterexample_to_induction_is_one_real_iteration() {
    let Part::Fails { before, after, .. } = report("j >= i").consecution else {
        panic!("consecution should fail");
    };
    let get = |vals: &[(String, String)], k: &str| -> i128 {
        vals.iter()
            .find(|(n, _)| n == k)
            .unwrap()
            .1
            .parse()
            .unwrap()
    };
    let (i0, j0, n0) = (get(&before, "i"), get(&before, "j"), get(&before, "n"));
    let (i1, j1) = (get(&after, "i"), get(&after, "j"));
    assert!(j0 >= i0 && i0 < n0, "before: {before:?}");
    assert_eq!((i1, j1), ((i0 + 1) % (1 << 32), (j0 + 2) % (1 << 32)));
    assert!(j1 < i1, "after: {after:?}");
}

/// The unifying view's Figure 2 with hand-given predicates and no refinement.
#[test]
fn given_predicates_prove_or_stop_without_refinement() {
    use cpa_engine::config::Config;
    use cpa_engine::session::Session;
    use cpa_engine::verdict::Verdict;
    let src = include_str!("../../tests/verdicts/unifying-fig2.c");
    for (preset, predicates, want) in [
        ("predicate-lbe", "8: x == y", "TRUE"),
        ("predicate-abel", "8: x == y", "TRUE"),
        (
            "impact",
            "8: x == y",
            "IMPACT does not abstract with predicates",
        ),
        ("predicate-lbe", "8: x <= 2", "error at line 12"),
        ("predicate-lbe", "8: k == 1", "undeclared identifier 'k'"),
        (
            "predicate-lbe",
            "99: x == 1",
            "no program location at line 99",
        ),
        // Without predicates and without refinement: the first spurious path ends the run.
        ("value", "", "error at line 12"),
    ] {
        let mut sets = vec![("max-refinements", "0")];
        if !predicates.is_empty() {
            sets.push(("predicates", predicates));
        }
        let config = Config::build(preset, sets).unwrap();
        let cfa = parse_program("t.c", src).unwrap().cfa;
        let smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
        let mut s = Session::new(std::rc::Rc::new(cfa), config, Box::new(smt));
        let got = match s.run() {
            Verdict::True => "TRUE".to_string(),
            Verdict::False { .. } => "FALSE".to_string(),
            Verdict::Unknown { reason } => reason.clone(),
        };
        assert!(got.contains(want), "{preset} {predicates}: {got}");
        assert_eq!(s.stats().refinements, 0, "{preset} {predicates}");
    }
}

/// `affine-predicates`: Karr's equality `j == 2 * i` at the loop head as the first precision
/// proves the textbook loop with LBE without any refinement; without it, predicate
/// abstraction with refinement off stops at the error's line.
#[test]
fn affine_predicates_prove_the_double_counter_without_refinement() {
    use cpa_engine::config::Config;
    use cpa_engine::session::Session;
    use cpa_engine::verdict::Verdict;
    for (affine, want) in [("true", "TRUE"), ("false", "error at line 7")] {
        let config = Config::build(
            "predicate-lbe",
            [("max-refinements", "0"), ("affine-predicates", affine)],
        )
        .unwrap();
        let cfa = parse_program("t.c", PROGRAM).unwrap().cfa;
        let smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
        let mut s = Session::new(std::rc::Rc::new(cfa), config, Box::new(smt));
        let got = match s.run() {
            Verdict::True => "TRUE".to_string(),
            Verdict::False { .. } => "FALSE".to_string(),
            Verdict::Unknown { reason } => reason.clone(),
        };
        assert!(got.contains(want), "affine-predicates={affine}: {got}");
        assert_eq!(s.stats().refinements, 0);
    }
}

/// `invariant-predicates`: the invariants Houdini keeps at the loop head (here
/// `0 <= 2*n - i <= 1` and `i <= 2*k || i == 0`, which concrete runs suggest) as the first
/// precision prove half's pattern with LBE and no refinement; without them predicate
/// abstraction with refinement off stops at the error's line. The unsafe twin stays FALSE
/// with them (with refinement): predicates never remove a real path.
#[test]
fn invariant_predicates_prove_half_without_refinement() {
    use cpa_engine::config::Config;
    use cpa_engine::session::Session;
    use cpa_engine::verdict::Verdict;
    for (preset, file, sets, want) in [
        (
            "predicate-lbe",
            "samples-half-safe.c",
            vec![("max-refinements", "0"), ("invariant-predicates", "true")],
            "TRUE",
        ),
        (
            "predicate-lbe",
            "samples-half-safe.c",
            vec![("max-refinements", "0"), ("invariant-predicates", "false")],
            "error at line",
        ),
        (
            "predicate-lbe",
            "samples-half-unsafe.c",
            vec![("invariant-predicates", "true")],
            "FALSE",
        ),
        // IMPACT has no predicate precision: the message names the knob to unset.
        (
            "impact",
            "samples-half-safe.c",
            vec![("invariant-predicates", "true")],
            "invariant-predicates: IMPACT does not abstract with predicates",
        ),
    ] {
        let path = format!("{}/../tests/verdicts/{file}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(&path).unwrap();
        let config = Config::build(preset, sets.clone()).unwrap();
        let cfa = parse_program(file, &src).unwrap().cfa;
        let smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
        let mut s = Session::new(std::rc::Rc::new(cfa), config, Box::new(smt));
        let got = match s.run() {
            Verdict::True => "TRUE".to_string(),
            Verdict::False { .. } => "FALSE".to_string(),
            Verdict::Unknown { reason } => reason.clone(),
        };
        assert!(got.contains(want), "{preset} {file} {sets:?}: {got}");
    }
}

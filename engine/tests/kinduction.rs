//! k-induction (Algorithm 3 of the unifying-view paper) component by component: the base case,
//! the forward condition, the inductive step and the auxiliary invariants each decide one
//! program here, and each test fails if its component answers wrongly or another component
//! decides instead. Real z3.

mod common;
use common::native_session;

use cpa_engine::config::Config;
use cpa_engine::events::Event;
use cpa_engine::verdict::Verdict;

/// (what, bound, satisfiable) of every check a run made, and its verdict.
fn checks(
    src: &str,
    preset: &str,
    sets: &[(&str, &str)],
) -> (Vec<(String, u32, Option<bool>)>, Verdict) {
    let config = Config::build(preset, sets.iter().copied()).unwrap();
    let mut s = native_session(src, config);
    let v = s.run().clone();
    let cs = s
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Check {
                what,
                bound,
                satisfiable,
                ..
            } => Some((
                serde_json::to_value(what)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string(),
                *bound,
                *satisfiable,
            )),
            _ => None,
        })
        .collect();
    (cs, v)
}

const BUG_AFTER_THREE: &str = "extern void reach_error(void);
int main(void) { int i = 0; while (i < 10) { i = i + 1; if (i == 3) reach_error(); } return 0; }";

/// The base case finds the bug at the first bound that reaches it, not before.
#[test]
fn base_case_finds_the_bug_at_its_bound() {
    for preset in ["kinduction", "bmc"] {
        let (cs, v) = checks(BUG_AFTER_THREE, preset, &[]);
        assert!(matches!(v, Verdict::False { .. }), "{preset}: {v:?}");
        let base: Vec<_> = cs.iter().filter(|c| c.0 == "base").collect();
        let last = base.last().unwrap();
        assert_eq!(last.2, Some(true), "{preset}: {cs:?}");
        // Loop-bound counting: the bug needs the loop head three times (counter 2 < bound).
        assert!(
            base[..base.len() - 1].iter().all(|c| c.2 == Some(false)),
            "{cs:?}"
        );
        assert_eq!(last.1, 3, "{preset}: {cs:?}");
    }
}

/// A loop that always ends after two iterations: the forward condition proves safety once
/// the bound covers every path. The property is not k-inductive (from an arbitrary state `y`
/// is arbitrary), so the step case cannot decide instead.
#[test]
fn forward_condition_proves_a_bounded_loop() {
    let src = "extern void reach_error(void);
int main(void) { int i = 0; int y = 0;
  while (i < 2) { i = i + 1; y = y + 2; } if (y != 4) reach_error(); return 0; }";
    for preset in ["bmc", "kinduction"] {
        let (cs, v) = checks(src, preset, &[("invariants", "false")]);
        assert_eq!(v, Verdict::True, "{preset}: {cs:?}");
        let last = cs.last().unwrap();
        assert_eq!(
            (last.0.as_str(), last.2),
            ("forward", Some(false)),
            "{cs:?}"
        );
        // Bounds below the loop's length leave paths cut.
        assert!(
            cs.iter().any(|c| c.0 == "forward" && c.2 == Some(true)),
            "{cs:?}"
        );
    }
}

/// An unbounded loop whose property is 1-inductive by itself: the step case proves it
/// (without invariants); BMC cannot.
#[test]
fn step_case_proves_an_inductive_property() {
    let src = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);
int main(void) { int x = 0;
  while (__VERIFIER_nondet_int()) { if (x != 0) reach_error(); x = 0; } return 0; }";
    let (cs, v) = checks(src, "kinduction", &[("invariants", "false")]);
    assert_eq!(v, Verdict::True, "{cs:?}");
    let last = cs.last().unwrap();
    assert_eq!((last.0.as_str(), last.2), ("step", Some(false)), "{cs:?}");
    let (_, v) = checks(src, "bmc", &[("k-max", "6")]);
    assert!(matches!(v, Verdict::Unknown { .. }), "bmc: {v:?}");
}

/// The step case must not prove an unsafe loop: the bug of this program needs four
/// iterations; the step case at k = 1 is satisfiable (it once was refuted by an invariant
/// asserted at a state off the error path), and the base case finds the bug at k = 4.
#[test]
fn step_case_does_not_prove_an_unsafe_loop() {
    let src = "extern void reach_error(void);
int main(void) { int n = 1; do { n = n + 4; } while (n < 15); if (n == 17) reach_error(); return 0; }";
    for invariants in ["true", "false"] {
        let (cs, v) = checks(src, "kinduction", &[("invariants", invariants)]);
        assert!(
            matches!(v, Verdict::False { .. }),
            "invariants={invariants}: {v:?} {cs:?}"
        );
        assert!(
            cs.iter()
                .filter(|c| c.0 == "step")
                .all(|c| c.2 == Some(true)),
            "invariants={invariants}: {cs:?}"
        );
        let last = cs.last().unwrap();
        assert_eq!(
            (last.0.as_str(), last.1, last.2),
            ("base", 4, Some(true)),
            "{cs:?}"
        );
    }
}

/// A property that is k-inductive only with the interval invariant (x stays in [0, 1]): with
/// invariants the step case proves it, without them no bound does.
#[test]
fn auxiliary_invariants_make_the_step_case_succeed() {
    let src = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);
int main(void) { int x = 0;
  while (__VERIFIER_nondet_int()) { x = 1 - x; } if (x != 0 && x != 1) reach_error(); return 0; }";
    let (cs, v) = checks(src, "kinduction", &[("invariants", "true"), ("k-max", "5")]);
    assert_eq!(v, Verdict::True, "{cs:?}");
    assert_eq!(cs.last().unwrap().0, "step", "{cs:?}");
    let (cs, v) = checks(
        src,
        "kinduction",
        &[("invariants", "false"), ("k-max", "5")],
    );
    assert!(
        matches!(v, Verdict::Unknown { .. }),
        "without invariants: {v:?} {cs:?}"
    );
}

/// Two loops (the step case needs one): the octagon invariants `k == i` and `j <= k` at the
/// loop heads are a proof, checked once after the first bound; without invariants no bound
/// proves it.
#[test]
fn octagon_invariants_prove_a_program_with_two_loops() {
    let src = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);
int main(void) { int n = __VERIFIER_nondet_int(); int k = 0; int i = 0;
  while (i < n) { i++; k++; }
  int j = n;
  while (j > 0) { if (k <= 0) reach_error(); j--; k--; }
  return 0; }";
    let (cs, v) = checks(src, "kinduction", &[("k-max", "5")]);
    assert_eq!(v, Verdict::True, "{cs:?}");
    let last = cs.last().unwrap();
    assert_eq!(
        (last.0.as_str(), last.1, last.2),
        ("invariant", 1, Some(false)),
        "{cs:?}"
    );
    let (cs, v) = checks(
        src,
        "kinduction",
        &[("invariants", "false"), ("k-max", "5")],
    );
    assert!(matches!(v, Verdict::Unknown { .. }), "{v:?} {cs:?}");
    // The same with an off-by-one bug (k < 0 where k reaches 0): never TRUE.
    let bad = src.replace("if (k <= 0)", "if (k <= 1)");
    let (cs, v) = checks(&bad, "kinduction", &[("k-max", "5")]);
    assert!(matches!(v, Verdict::False { .. }), "{v:?} {cs:?}");
    assert!(
        cs.iter().any(|c| c.0 == "invariant" && c.2 == Some(true)),
        "{cs:?}"
    );
}

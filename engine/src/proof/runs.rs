//! The check of a correctness witness by running every run of the program: concrete execution
//! with loop acceleration and input splitting ([`crate::concrete::execution`]) on a copy of
//! the CFA with each location's invariant asserted there ([`crate::cfa::transform::checks`]).
//!
//! Execution follows every run exactly (input classes partition the input values, and an
//! accelerated loop repeats its path only as long as every decision on it, the asserted
//! invariants included, goes the same way), so its answers decide the witness: TRUE means
//! that every invariant holds at every visit of its location (and, when `sufficient`, that
//! no run reaches an error location); FALSE at a check means that an invariant does not hold,
//! FALSE at an error location that they cannot suffice (the program is unsafe). This decides
//! invariants that hold but are not k-inductive with the error excluded (`sum == i*(i-1)/2`
//! is needed for gauss_sum, parities for others) wherever execution can follow the runs; where
//! it cannot (an input that splitting does not handle, more than [`MAX_STEPS`] steps), the
//! check has no answer and the witness keeps the answer of the blocks.
//!
//! As for the witness validators of SV-COMP, confirming a witness's invariants as sufficient
//! means here that the validator proved the program with them at hand: the invariants hold,
//! and no run reaches the error.

use crate::cpa::algorithm::Algorithm;

use crate::cfa::transform::checks::with_checks;
use crate::cfa::{Cfa, NodeId};
use crate::concrete::execution::Execution;
use crate::invariants::intervals::conj;
use crate::ir::Expr;
use crate::proof::described;
use crate::proof::Outcome;
use crate::verdict::Verdict;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Steps of the execution (one step runs one run to its next loop head, call or return).
pub const MAX_STEPS: usize = 100_000;

/// The witness's invariants checked on every run of `cfa` (see the module documentation);
/// `None`: execution could not follow the runs, or not within [`MAX_STEPS`] steps.
pub fn all_runs(
    cfa: &Cfa,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
    sufficient: bool,
) -> Option<Outcome> {
    let checks: BTreeMap<NodeId, Expr> = invariants
        .iter()
        .filter_map(|(&n, v)| Some((n, conj(v.iter().map(|(e, _)| e.clone()))?)))
        .collect();
    let checked = with_checks(cfa, &checks, sufficient);
    let original = cfa.nodes.len();
    let checked = Rc::new(checked);
    let mut execution = Execution::new(checked.clone());
    let mut events = Vec::new();
    for _ in 0..MAX_STEPS {
        events.clear();
        let verdict = match execution.step(&mut events) {
            Ok(None) => continue,
            Ok(Some(v)) => v,
            Err(_) => return None,
        };
        return match verdict {
            Verdict::True => Some(Outcome::Confirmed),
            Verdict::Unknown { .. } => None,
            Verdict::False { counterexample } => {
                let last = counterexample.trace.last()?;
                let edge = checked.edge(crate::cfa::EdgeId(last.edge));
                let inputs = input_values(&counterexample.trace);
                if (edge.to.0 as usize) < original {
                    // An error location of the program (without `sufficient` the copy has
                    // none: they are ends of a run there).
                    return sufficient.then(|| {
                        Outcome::Refuted(format!(
                            "the invariants do not suffice: a run{inputs} reaches the error at \
                             line {} (found by executing every run)",
                            checked.node(edge.to).line
                        ))
                    });
                }
                Some(Outcome::Refuted(format!(
                    "{} does not hold: a run{inputs} violates it (found by executing every run)",
                    described(cfa, invariants, edge.from)
                )))
            }
        };
    }
    None
}

/// The values the run's inputs took, as ` with the inputs n = 3, m = -1` (nothing when no
/// variable holds one).
fn input_values(trace: &[crate::verdict::TraceStep]) -> String {
    let read: Vec<String> = trace
        .iter()
        .filter(|s| s.op.contains("__VERIFIER_nondet"))
        .filter_map(|s| {
            let (lhs, _) = s.op.split_once('=')?;
            let name = lhs.split_whitespace().last()?;
            Some(format!("{name} = {}", s.values.get(name)?))
        })
        .take(8)
        .collect();
    if read.is_empty() {
        String::new()
    } else {
        format!(" with the inputs {}", read.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::{all_runs, Outcome};
    use crate::proof::induction::tests::at_loop_head;

    /// `all_runs` on `src` with `invariant` at its (only) loop head.
    fn check(src: &str, invariant: &str, sufficient: bool) -> Option<Outcome> {
        let (cfa, invs) = at_loop_head(src, invariant);
        all_runs(&cfa, &invs, sufficient)
    }

    /// Gauss's sum for an input `n` in 0..=50: safe, and provable from `0 <= i && i <= n`
    /// only with `2 * s == i * (i + 1)`, which is no invariant of the witness.
    const GAUSS: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int n = __VERIFIER_nondet_int();\n  if (n < 0 || n > 50) return 0;\n  int i = 0; int s = 0;\n  while (i < n) { i++; s = s + i; }\n  if (2 * s != n * (n + 1)) reach_error();\n  return 0;\n}\n";

    #[test]
    fn every_run_confirms_invariants_that_are_not_inductive() {
        assert_eq!(
            check(GAUSS, "0 <= i && i <= n", true),
            Some(Outcome::Confirmed)
        );
    }

    #[test]
    fn a_run_that_violates_an_invariant_refutes_it() {
        match check(GAUSS, "i < 40", true) {
            Some(Outcome::Refuted(why)) => {
                assert!(why.contains("'i < 40' at line 7 does not hold"), "{why}");
                assert!(
                    why.contains("n = 40"),
                    "the smallest input that violates it: {why}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_unsafe_program_refutes_sufficiency_only() {
        let unsafe_gauss = GAUSS.replace("2 * s != n * (n + 1)", "n == 37");
        match check(&unsafe_gauss, "0 <= i && i <= n", true) {
            Some(Outcome::Refuted(why)) => {
                assert!(why.contains("do not suffice"), "{why}");
                assert!(why.contains("line 8"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        // Without unreach-call, only whether the invariant holds is checked.
        assert_eq!(
            check(&unsafe_gauss, "0 <= i && i <= n", false),
            Some(Outcome::Confirmed)
        );
        match check(&unsafe_gauss, "i <= 30", false) {
            Some(Outcome::Refuted(why)) => assert!(why.contains("does not hold"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    /// Runs that execution cannot follow (a second input while the first is a class of
    /// 2^32 values) decide nothing.
    #[test]
    fn runs_execution_cannot_follow_decide_nothing() {
        let src = "extern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int a = __VERIFIER_nondet_int();\n  int b = __VERIFIER_nondet_int();\n  while (a > b) { a = a - 1; }\n  return 0;\n}\n";
        assert_eq!(check(src, "1", true), None);
    }
}

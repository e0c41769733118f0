//! Bounded model checking and k-induction: the unrolling with its loop bound, each
//! satisfiability check (one row of [`CHECKS`] per kind), the bound growing.

use crate::explain::context::*;
use cpa_engine::config::AlgorithmKind;
use cpa_engine::events::{CheckKind, Event};

const UV_BMC: &str = "BMC, Sect. 4.1 (A Unifying View on SMT-Based Software Verification)";
const UV_KIND: &str =
    "k-induction, Algorithm 3 (A Unifying View on SMT-Based Software Verification)";

/// How a check is explained: the question it asks (of the bound `k`, the formula's size or
/// the count of candidates `n`, and the solver's answer), and what each answer means.
struct CheckText {
    kind: CheckKind,
    question: fn(k: u32, n: u64, result: &str) -> String,
    /// Unsatisfiable (for the candidates: `{n}` is the number kept).
    unsat: &'static str,
    sat: &'static str,
    unknown: &'static str,
}

const CHECKS: [CheckText; 6] = [
    CheckText {
        kind: CheckKind::Base,
        question: |k, n, result| format!("Base case for k = {k}: is an error location reachable within {k} loop iterations? The disjunction of the error states' path formulas ({n} terms) is {result}"),
        unsat: ": no bug up to this bound.",
        sat: ": a bug.",
        unknown: ".",
    },
    CheckText {
        kind: CheckKind::Forward,
        question: |k, _, result| format!("Forward condition for k = {k}: can an execution run longer than the bound? The path formulas of the cut states are {result}"),
        unsat: ": no, the unrolling covers every execution, so the program is safe.",
        sat: ": yes, so the bound must grow.",
        unknown: ".",
    },
    CheckText {
        kind: CheckKind::Step,
        question: |k, _, result| format!("Inductive step for k = {k}: can {k} safe loop iterations from any state (satisfying the auxiliary invariants) be followed by an unsafe one? The formula is {result}"),
        unsat: ": no, the property is k-inductive, so the program is safe.",
        sat: ": yes, it is not k-inductive yet.",
        unknown: ".",
    },
    CheckText {
        kind: CheckKind::Invariant,
        question: |_, n, _| format!("Invariant check: an octagon analysis (constraints ±x ± y ≤ c) proposed invariants at {n} loop head(s); do they hold on arrival, are they preserved by every path from one loop head to the next, and do they exclude every path to the error?"),
        unsat: " Yes: they are a proof, so the program is safe.",
        sat: " No: some obligation fails, so k-induction goes on.",
        unknown: " The solver could not decide, so k-induction goes on.",
    },
    CheckText {
        kind: CheckKind::Summary,
        question: |_, n, _| format!("Contract check: the program is recursive, so the unrolling cannot prove it at any bound. An interval analysis over the calls proposed contracts for {n} recursive function(s): bounds on their return values. With every call replaced by its contract (any value in its bounds, any globals), is the program safe, and does every such function establish its contract at its exit from any arguments (its own recursive calls replaced the same way)?"),
        unsat: " Yes: by induction over the calls that return, the contracts hold in every run, so the program is safe.",
        sat: " Not confirmed, so k-induction goes on.",
        unknown: " Not confirmed, so k-induction goes on.",
    },
    CheckText {
        kind: CheckKind::Candidates,
        question: |_, _, _| "Candidate check (Houdini): affine equalities between variables and the program's own conditions and assignments (a condition, its non-strict relaxation, v <= e and v >= e for an assignment v = e) are candidate invariants at the loop heads; where they do not suffice, so are the bounds and disjunctions that concrete runs of the program satisfy (such as 2*n - i <= 1 or i <= 2*k || i == 0). Starting from the octagon invariants, a candidate is kept when the whole set stays inductive (holds on arrival, preserved from loop head to loop head); ".to_string(),
        unsat: "{n} were kept, and with them no path reaches the error: a proof, so the program is safe.",
        sat: "the candidates kept do not exclude the error (or none was kept), so k-induction goes on.",
        unknown: "the candidates kept do not exclude the error (or none was kept), so k-induction goes on.",
    },
];

/// The explanation of `e`, an event of this family.
pub(super) fn explain(cx: &Context, _index: usize, e: &Event) -> Explanation {
    let kinduction = cx.algorithm() == Some(AlgorithmKind::KInduction);
    match e {
        Event::Started {
            algorithm,
            bound: Some(k),
        } => {
            if algorithm.contains("inductive step") {
                say()
                    .t(format!("k-induction, inductive step for k = {k}: the ARG is unrolled from the loop head, from any state (not only the initial one), for {k} iterations; the auxiliary invariants constrain that arbitrary state."))
                    .done(UV_KIND, "kinduction")
            } else if algorithm.contains("k-induction") {
                say()
                    .t(format!("k-induction, base case for k = {k}: the program is unrolled from its entry with the loop bound {k} (the Loop-Bound CPA stops every path after {k} iterations of a loop)."))
                    .done(UV_KIND, "kinduction")
            } else {
                say()
                    .t(format!("Bounded model checking with the loop bound k = {k}: the Loop-Bound CPA stops every path after {k} iterations of any loop, and the block operator blk^never computes no abstraction, so every state keeps its whole path formula."))
                    .done(UV_BMC, "bmc")
            }
        }
        Event::Check {
            what,
            bound,
            satisfiable,
            formula_size,
        } => {
            let result = match satisfiable {
                Some(true) => "satisfiable",
                Some(false) => "unsatisfiable",
                None => "unknown to the solver",
            };
            let text = CHECKS.iter().find(|c| c.kind == *what);
            let s = match text {
                Some(c) => {
                    let answer = match satisfiable {
                        Some(false) => c.unsat,
                        Some(true) => c.sat,
                        None => c.unknown,
                    };
                    say()
                        .t((c.question)(*bound, *formula_size, result))
                        .t(answer.replace("{n}", &formula_size.to_string()))
                }
                None => say().t(format!("A check for k = {bound}: {result}.")),
            };
            if kinduction {
                s.done(UV_KIND, "kinduction")
            } else {
                s.done(UV_BMC, "bmc")
            }
        }
        Event::BoundIncreased { bound } => say()
            .t(format!(
                "The bound grows to k = {bound}: the ARG is unrolled again with the new loop bound."
            ))
            .done(if kinduction { UV_KIND } else { UV_BMC }, "bmc"),
        other => super::unexpected(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_kind_has_a_row() {
        for kind in [
            CheckKind::Base,
            CheckKind::Forward,
            CheckKind::Step,
            CheckKind::Invariant,
            CheckKind::Summary,
            CheckKind::Candidates,
        ] {
            assert_eq!(
                CHECKS.iter().filter(|c| c.kind == kind).count(),
                1,
                "{kind:?}"
            );
        }
    }
}

//! Refinement: the abstract counterexample, its interpolants, the precision refined, and the ARG cut back and regrown.

use crate::explain::context::*;
use cpa_engine::config::BinaryMode;
use cpa_engine::events::Event;

/// The abstract counterexample and its interpolants.
pub(super) fn counterexample(cx: &Context, _index: usize, e: &Event) -> Explanation {
    match e {
        Event::Counterexample {
            states,
            blocks,
            feasible,
            cut,
        } => {
            if (cx.value() || cx.combined()) && !*cut {
                let n = blocks.len();
                let s = say().t(format!(
                    "The path to the error state {} has {n} edges. Its path formula ",
                    states.last().copied().unwrap_or(0)
                ));
                return if *feasible {
                    s.t("is satisfiable: the error is reachable, confirmed by executing the program concretely with the model's values.")
                        .done(cx.value_paper(), "counterexample")
                } else {
                    s.t(if cx.symbolic() {
                        "is unsatisfiable: the path is spurious; the analysis forgot values or constraints it needs."
                    } else {
                        "is unsatisfiable: the path is spurious; the analysis forgot values it needs."
                    })
                    .done(cx.value_paper(), "counterexample")
                };
            }
            let mut s = say().t(if *cut {
                "The abstract path to a call beyond the recursion bound goes through the abstraction states "
            } else {
                "The abstract counterexample goes through the abstraction states "
            });
            for (i, id) in states.iter().take(12).enumerate() {
                if i > 0 {
                    s = s.t(" → ");
                }
                s = s.s(*id);
            }
            if states.len() > 12 {
                s = s.t(" → …");
            }
            let n = blocks.len();
            if *cut && *feasible {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is satisfiable: the call is reachable, and what it would do is beyond the bound, so the analysis cannot prove the program."))
                    .done("recursion depth bound of the callstack CPA; refine_P, feasibility check (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            } else if *cut {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is unsatisfiable: the call is not reachable, so the path is refined away like a spurious counterexample."))
                    .done("recursion depth bound of the callstack CPA; refine_P, abstract counterexample (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            } else if *feasible
                && states
                    .last()
                    .is_some_and(|&t| cx.overflow_check(t).is_some())
            {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is satisfiable: a signed overflow is reachable. The model's values were confirmed by executing the program concretely."))
                    .done("refine_P, feasibility check (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            } else if *feasible {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is satisfiable: the error is reachable. The model's values were confirmed by executing the program concretely."))
                    .done("refine_P, feasibility check (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            } else {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is unsatisfiable: the path is spurious, so the abstraction is too coarse and must be refined."))
                    .done("refine_P, abstract counterexample (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            }
        }
        Event::Interpolants {
            states,
            interpolants,
        } => {
            let labelled: Vec<(u32, &String)> = states
                .iter()
                .zip(interpolants.iter())
                .filter(|(_, t)| *t != "true" && *t != "false")
                .map(|(a, b)| (*a, b))
                .collect();
            let binary = cx.config.and_then(|c| c.trace_refinement.binary());
            if let (Some(mode), [(st, itp)]) = (binary, labelled.as_slice()) {
                let (name, why) = match mode {
                    BinaryMode::Forward => ("FW_BIN_ITP", "the path up to it is feasible (the longest feasible prefix), and the interpolant follows from that prefix and contradicts the next step"),
                    BinaryMode::Backward => ("BW_BIN_ITP", "the path from it to the error is feasible (the longest feasible suffix), and the interpolant follows from the step into it and contradicts that suffix"),
                    BinaryMode::MinPrune => ("MIN_PRUNE", "of the forward and the backward binary interpolant, this one cuts the path nearer the initial state"),
                    BinaryMode::MaxPrune => ("MAX_PRUNE", "of the forward and the backward binary interpolant, this one cuts the path nearer the error"),
                };
                return say()
                    .t(format!(
                        "One binary interpolant ({name}) instead of one per state: at "
                    ))
                    .s(*st)
                    .t(" ")
                    .f(itp.to_string())
                    .t(format!(": {why}. Every other state keeps "))
                    .f("true")
                    .t(if cx.value() {
                        "; its variables become tracked there."
                    } else {
                        "; its predicates are added there."
                    })
                    .done(EFFICIENT_PAPER, "interpolant");
            }
            let by_values = cx.value() || (cx.combined() && value_interpolants(interpolants));
            let mut s = say().t(if cx.symbolic() {
                "Interpolants for the path (the values and constraints each state must keep for the rest of the path to stay contradictory): "
            } else if cx.combined() && !by_values {
                "Explicit values cannot refute the path, so predicate interpolants are computed for its blocks (true inside a block): "
            } else if by_values {
                "Interpolants for the path (the values each state must keep for the rest of the path to stay contradictory): "
            } else {
                "Sequence interpolants for the blocks: "
            });
            let inner: Vec<(u32, &String)> = states
                .iter()
                .zip(interpolants.iter())
                .skip(1)
                .take(states.len().saturating_sub(2))
                .map(|(a, b)| (*a, b))
                .collect();
            if inner.is_empty() {
                s = s
                    .t("the path has a single block, so there is nothing between ")
                    .f("true")
                    .t(" and ")
                    .f("false");
            }
            for (i, (st, itp)) in inner.iter().take(6).enumerate() {
                if i > 0 {
                    s = s.t("; ");
                }
                s = s.t("at ").s(*st).t(" ").f(itp.to_string());
            }
            if inner.len() > 6 {
                s = s.t("; …");
            }
            s.t(". Each follows from the blocks before it and, with the blocks after it, is unsatisfiable.")
                .done("refine_P, interpolation (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "interpolant")
        }
        other => super::unexpected(other),
    }
}

/// The precision refined, the ARG cut back, the states regrown, the refinement done.
pub(super) fn precision(cx: &Context, index: usize, e: &Event) -> Explanation {
    let run = cx.run;
    match e {
        Event::PrecisionRefined { added } => {
            let variables =
                cx.value() || (cx.combined() && added.iter().all(|(_, x)| is_variable(x)));
            // Before the first refinement: the precision the run starts from (the knobs
            // `predicates`, `affine-predicates`, `invariant-predicates`).
            let initial = !run.derived.refinements.iter().any(|r| r.start < index);
            let mut s = say().t(if initial {
                "Predicates to start with (from the knobs predicates, affine-predicates or invariant-predicates): "
            } else if variables {
                "Variables tracked from now on: "
            } else {
                "Predicates added: "
            });
            for (i, (loc, p)) in added.iter().take(8).enumerate() {
                if i > 0 {
                    s = s.t("; ");
                }
                s = s.f(p.clone()).t(format!(" at N{loc}"));
                if let Some(l) = cx.line(*loc) {
                    s = s.t(" (").l(Some(l)).t(")");
                }
            }
            if added.len() > 8 {
                s = s.t(format!("; and {} more", added.len() - 8));
            }
            if added.is_empty() {
                s = s.t("none new");
            }
            s.t(". The precision tracks them at these locations only (lazy abstraction).")
                .done("lazy predicate abstraction (Sect. 4.3 of A Unifying View on SMT-Based Software Verification)", "precision")
        }
        Event::Removed { states } => {
            let pivot = run
                .derived
                .refinements
                .iter()
                .rev()
                .find(|r| r.start <= index)
                .and_then(|r| r.pivot);
            let mut s = say().t(format!(
                "The ARG is cut back: {} state{} ",
                states.len(),
                if states.len() == 1 { "" } else { "s" }
            ));
            if let Some(p) = pivot {
                s = s.t("from the pivot ").s(p).t(" down ");
            }
            s.t("leave the ARG; they were computed with a precision too coarse to rule out the spurious path.")
                .done("lazy predicate abstraction, pivot (Sect. 4.3 of A Unifying View on SMT-Based Software Verification)", "pivot")
        }
        Event::Readded { states } => say()
            .states(states, 6)
            .t(" go back into the waitlist, to be expanded again with the refined precision.")
            .done(
                "refine_P (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)",
                "waitlist",
            ),
        Event::Refined { refinement, .. } => {
            let s = say().t(format!("Refinement {refinement} is done: "));
            if cx.impact() {
                s.t("the strengthened states stay in the ARG and states they now cover are not expanded; CPA++ continues with the waitlist.")
                    .done("IMPACT refinement (Sect. 3.2); CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "impact")
            } else if cx.value() {
                s.t("CPA++ continues with the waitlist, now keeping the values of the newly tracked variables.")
                    .done(cx.value_paper(), "cegar")
            } else if cx.combined() {
                s.t("CPA++ continues with the waitlist, with the refined precision (tracked variables and predicates).")
                    .done(VALUE_PAPER, "cegar")
            } else {
                s.t("CPA++ continues with the waitlist, now abstracting with the new predicates.")
                    .done(
                        "CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)",
                        "cegar",
                    )
            }
        }
        other => super::unexpected(other),
    }
}

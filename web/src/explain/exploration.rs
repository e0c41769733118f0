//! Exploration: the waitlist, the transfer relation, merge, stop, the precision adjustment (abstraction), the targets reached, and concrete execution's runs and jumps.

use crate::explain::context::*;
use cpa_engine::config::AbstractionKind;
use cpa_engine::events::{CutReason, Event, StateKind};

/// The analysis starts (the unrolling of BMC and k-induction is explained by `bounded`).
pub(super) fn started(cx: &Context, index: usize, e: &Event) -> Explanation {
    match e {
        Event::Started { algorithm, bound } => match bound {
            None if cx.execution() => say()
                .t(format!("The analysis starts: {algorithm}. The program is run from the entry of "))
                .c("main")
                .t(" with the exact C semantics; without inputs this run is the program's only execution, so reaching the error is a bug and ending without it a proof. Where the run reads an input, it goes on for all of the input's values t at once (a class, every value affine in t) and is split exactly where the runs of the class would differ; a class of one value is a concrete run again. A loop whose iterations repeat one path with every variable changed by the same amount is skipped by its closed form.")
                .done(ACCEL, "acceleration"),
            None if algorithm.contains("recursion depth") => say()
                .t("The ARG was complete except for calls cut at the recursion depth bound, so the analysis starts over (")
                .c(algorithm.as_str())
                .t("), keeping the predicates learned so far.")
                .done("CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "cegar"),
            None if cx.symbolic() => say()
                .t(format!("The analysis starts: {algorithm}. The ARG holds the initial state, at the entry of "))
                .c("main")
                .t(": no value and no path constraint (⊤). A value read before it is known becomes a fresh symbolic identifier ($s0, $s1, …). The precision tracks no variable yet.")
                .done(SYMBOLIC_PAPER, "symbolic"),
            None if cx.value() => say()
                .t(format!("The analysis starts: {algorithm}. The ARG holds the initial abstract state, at the entry of "))
                .c("main")
                .t(": an abstract variable assignment that knows no value (⊤). The precision tracks no variable yet.")
                .done(VALUE_PAPER, "value"),
            None if cx.combined() => say()
                .t(format!("The analysis starts: {algorithm}. The ARG holds the initial abstract state, at the entry of "))
                .c("main")
                .t(": it knows no value (⊤) and its abstraction formula is ")
                .f("true")
                .t(". The precision tracks no variable and no predicate yet; a refinement tracks variables where explicit values refute the spurious path, and adds predicates where they cannot.")
                .done(VALUE_PAPER, "value"),
            None => say()
                .t(format!("The analysis starts: {algorithm}. The ARG holds the initial abstract state, at the entry of "))
                .c("main")
                .t(", with the abstraction formula ")
                .f("true")
                .t("; it is the only state in the waitlist.")
                .done("CEGAR, Algorithm 4; CPA++, Algorithm 2 (A Unifying View on SMT-Based Software Verification)", "cegar"),
            Some(_) => super::bounded::explain(cx, index, e),
        },
        other => super::unexpected(other),
    }
}

/// A state taken from the waitlist and its successors.
pub(super) fn expansion(cx: &Context, index: usize, e: &Event) -> Explanation {
    let run = cx.run;
    match e {
        Event::StatePopped { state } if cx.execution() => {
            let mut s = say().t("The run goes on from ").s(*state);
            if let Some(l) = cx.state_line(*state) {
                s = s.t(" at ").l(Some(l));
            }
            s.t(": it executes the program edge by edge with the exact C semantics up to the next loop head, function entry, return or the end of the run (the runs still to go wait on a stack: after a split, the part with the smaller inputs goes first). At a loop head it compares the state with the previous arrival there, to see whether the loop can be accelerated.")
                .done(ACCEL, "acceleration")
        }
        Event::StatePopped { state } => {
            let code = cx.state_line(*state).and_then(|l| source_line(run, l));
            let mut s = say().t("Expanding ").s(*state);
            if let Some(l) = cx.state_line(*state) {
                s = s.t(" at ").l(Some(l));
                if let Some(code) = code {
                    s = s.t(" (").c(code).t(")");
                }
            }
            s.t(format!(", taken from the waitlist ({}). The transfer relation computes its successors along each outgoing CFA edge.", cx.order()))
                .done("CPA++, Algorithm 2 (A Unifying View on SMT-Based Software Verification)", "waitlist")
        }
        Event::StateAdded {
            state,
            location,
            parents,
            kind,
            target,
            ..
        } => {
            let merged_next = matches!(run.events.get(index + 1), Some(Event::Merged { .. }));
            let edge = parents.last().and_then(|(_, e)| cx.edge(*e));
            let mut s = say();
            if parents.is_empty() {
                s = s
                    .t("The initial state ")
                    .s(*state)
                    .t(" enters the ARG at the entry of ")
                    .c("main")
                    .t(".");
                return s.done(
                    "CPA++, Algorithm 2 (A Unifying View on SMT-Based Software Verification)",
                    "arg",
                );
            }
            if cx.execution() {
                s = s.t("The run reaches ");
                if let Some(l) = cx.line(*location) {
                    s = s.l(Some(l)).t(" ");
                }
                s = s.t(format!("(location N{location}), after "));
                match edge {
                    Some(e) if !e.label.trim().is_empty() => s = s.c(short(&e.label)),
                    _ => s = s.t("a CFA edge"),
                }
                let class =
                    matches!(e, Event::StateAdded { label, .. } if label.starts_with("input t"));
                return s
                    .t(": ")
                    .s(*state)
                    .t(if class {
                        " stands for the runs of every input value t its label shows (a class): they all took this path, and each variable's value is the affine form in t shown (a loop head, a function entry or exit, a return, or the end of the run)."
                    } else {
                        " holds the values of the variables there (a loop head, a function entry or exit, a return, or the end of the run)."
                    })
                    .done(ACCEL, "acceleration");
            }
            s = s.t("Transfer along ");
            if let Some(e) = edge {
                s = s.c(short(&e.label));
                if e.lines[0] > 0 {
                    s = s.t(" (").l(Some(e.lines[0])).t(")");
                }
            } else {
                // Only overflow checks add edges the page's CFA does not have.
                s = s.t("an overflow check's edge");
            }
            s = s.t(": new ");
            s = match kind {
                StateKind::Intermediate => s.t("intermediate state "),
                StateKind::Abstraction => s.t("state "),
                StateKind::Plain => s.t("state "),
            };
            let check = if *target {
                cx.overflow_check(*state)
            } else {
                None
            };
            if let Some(line) = check {
                s = s.s(*state).t(" at a failed overflow check");
                if line.is_some() {
                    s = s.t(" of ").l(line);
                }
                s = s.t(": a run that reaches it overflows a signed operation there (signed-overflow=check); a feasible path to it ends the run with UNKNOWN, a spurious one is refined away like any other");
            } else {
                s = s.s(*state).t(format!(" at location N{location}"));
                if *target {
                    s = s.t(", an error location");
                }
            }
            if cx.symbolic() {
                return s
                    .t(". Its values are the parent's after the edge, as terms over symbolic identifiers; an assumption over symbolic values becomes a path constraint. Only the variables the precision tracks at this location are kept, with the constraints that came from them.")
                    .done(SYMBOLIC_PAPER, "symbolic");
            }
            if cx.value() {
                return s
                    .t(". Its values are the parent's after the edge (an assignment with an unknown right-hand side forgets its variable), kept only for the variables the precision tracks at this location.")
                    .done(VALUE_PAPER, "value");
            }
            s = s.t(". Its path formula is the strongest postcondition of the edge applied to the block's path formula so far");
            if merged_next {
                s = s.t("; it joins a state of the same block (see the next event).");
            } else {
                s = s.t(".");
            }
            s.done("Predicate CPA, transfer relation (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "transfer")
        }
        other => super::unexpected(other),
    }
}

/// Merge, stop (coverage), infeasible successors and cut paths.
pub(super) fn coverage(cx: &Context, index: usize, e: &Event) -> Explanation {
    let run = cx.run;
    match e {
        Event::Merged { old, into, removed } => {
            let mut s = say()
                .t("merge_P: the new successor and ")
                .s(*old)
                .t(" are intermediate states of the same block at the same location, so they are merged into ")
                .s(*into)
                .t(", whose path formula is the disjunction of both (inside a block no precision is lost).");
            if removed.len() > 1 {
                s = s.t(format!(" {} states leave the ARG with it.", removed.len()));
            }
            s.done("Predicate CPA, merge operator merge_P (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "merge")
        }
        Event::Covered { state, by } => {
            let forced = index > 0
                && matches!(run.events.get(index - 1), Some(Event::Strengthened { state: s, .. }) if s == state);
            let f = cx.state_label(*state).unwrap_or_else(|| "ψ".into());
            let g = cx.state_label(*by).unwrap_or_else(|| "ψ'".into());
            let s = say().s(*state).t(" is covered by ").s(*by).t(": its abstraction formula ").f(f.clone()).t(" implies ").s(*by).t("'s ").f(g.clone());
            if forced {
                s.t(". Forced covering strengthened it with the coverer's formula, which its path implies, so it is not expanded.")
                    .done("forced covering fcover (Sect. 3.3 of A Unifying View on SMT-Based Software Verification)", "fcover")
            } else {
                s.t(", so stop_P does not put it into the waitlist: everything it represents is already represented.")
                    .done("Predicate CPA, stop operator stop_P (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "stop")
            }
        }
        Event::Uncovered { state } => say()
            .s(*state)
            .t(" is no longer covered: its coverer was strengthened or removed, so its coverage must be checked again and it may be expanded.")
            .done("IMPACT refinement, coverage recheck (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "stop"),
        Event::Infeasible { parent, edge } => {
            let mut s = say().t("The successor of ").s(*parent).t(" along ");
            match cx.edge(*edge) {
                Some(e) => {
                    s = s.c(short(&e.label));
                    if e.lines[0] > 0 {
                        s = s.t(" (").l(Some(e.lines[0])).t(")");
                    }
                }
                None => s = s.t("its edge"),
            }
            s.t(" is infeasible: its formula is unsatisfiable or its abstraction is ")
                .f("false")
                .t(", so no state is added.")
                .done("Predicate CPA, transfer and prec_P (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "transfer")
        }
        Event::Cut { state, reason } => match reason {
            CutReason::LoopBound => say()
                .s(*state)
                .t(" reached the loop bound: the Loop-Bound CPA produces no successor, so longer paths are not explored (only the forward condition can tell whether that misses any).")
                .done("Loop-Bound CPA (Sect. 4.1 of A Unifying View on SMT-Based Software Verification)", "bmc"),
            CutReason::RecursionDepth => say()
                .s(*state)
                .t(" calls a function deeper than the recursion depth bound: the call is not followed, and the verdict TRUE is impossible while such cuts remain.")
                .done("Callstack CPA, recursion bound", "cegar"),
        },
        other => super::unexpected(other),
    }
}

/// The precision adjustment at a block end, strengthening, and a target reached.
pub(super) fn abstraction(cx: &Context, _index: usize, e: &Event) -> Explanation {
    let run = cx.run;
    match e {
        Event::Abstraction {
            state,
            location,
            formula,
            predicates,
            block,
            queries,
        } => {
            let line = cx.line(*location);
            let cartesian = cx
                .config
                .is_some_and(|c| c.predicate.abstraction == AbstractionKind::Cartesian);
            let mut s = say().t(format!("The block ends at {}", cx.block_end(*location)));
            if line.is_some() {
                s = s.t(", ").l(line);
            }
            if predicates.is_empty() {
                s = s
                    .t(": the precision has no predicates here yet, so the abstraction of the block formula ")
                    .f(block.clone())
                    .t(" is ")
                    .f(formula.clone());
                if formula == "false" {
                    s = s.t(" (the block formula is unsatisfiable)");
                }
            } else {
                s = s
                    .t(format!(
                        ": the {} abstraction of the block formula ",
                        if cartesian { "Cartesian" } else { "Boolean" }
                    ))
                    .f(block.clone())
                    .t(" under the predicates {");
                for (i, p) in predicates.iter().enumerate() {
                    if i > 0 {
                        s = s.t(", ");
                    }
                    s = s.f(p.clone());
                }
                s = s.t("} is ").f(formula.clone());
            }
            s.t(format!(
                " ({queries} solver quer{}). ",
                if *queries == 1 { "y" } else { "ies" }
            ))
            .s(*state)
            .t(" becomes an abstraction state: its path formula restarts at ")
            .f("true")
            .t(".")
            .done("Predicate CPA, precision adjustment prec_P with blk (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "abstraction")
        }
        Event::Strengthened { state, formula } => {
            let in_refinement = run.refinement_in_progress().is_some();
            let s = say()
                .s(*state)
                .t("'s abstraction formula is conjoined with ");
            if in_refinement {
                s.t("the interpolant at its position on the path: it is now ")
                    .f(formula.clone())
                    .t(" (IMPACT refines the states themselves instead of the precision).")
                    .done("IMPACT refinement (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "impact")
            } else {
                s.t("a coverer's formula that its path implies: it is now ")
                    .f(formula.clone())
                    .t(".")
                    .done("forced covering fcover (Sect. 3.3 of A Unifying View on SMT-Based Software Verification)", "fcover")
            }
        }
        Event::TargetReached { state } => {
            if let Some(line) = cx.overflow_check(*state) {
                let mut s = say().s(*state).t(" is at a failed overflow check");
                if line.is_some() {
                    s = s.t(" (").l(line).t(")");
                }
                return s
                    .t(": a signed operation there can overflow on this abstract path. With signed-overflow=check the operations are encoded as mathematical integers where their checks pass, so this path is checked like a path to the error location: if it is feasible, a run overflows and the analysis ends with UNKNOWN (the wrap-around continues where the checked encoding cannot follow); if not, refinement removes it.")
                    .done("CPA++ abort, Algorithm 2; CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "cegar");
            }
            let mut s = say().s(*state).t(" is at the error location");
            if let Some(l) = cx.state_line(*state) {
                s = s.t(" (").l(Some(l)).t(")");
            }
            if cx.execution() {
                return s
                    .t(": the run reached it, so the program is unsafe; the counterexample is the concrete run (for the smallest input value of its class, where it read inputs).")
                    .done(ACCEL, "acceleration");
            }
            s.t(" and its abstraction is not ")
            .f("false")
            .t(": CPA++ stops (abort) and CEGAR checks the abstract counterexample that leads there.")
            .done("CPA++ abort, Algorithm 2; CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "cegar")
        }
        other => super::unexpected(other),
    }
}

/// The value and symbolic domains' enumeration and satisfiability checks, and concrete execution's jumps.
pub(super) fn values(_cx: &Context, _index: usize, e: &Event) -> Explanation {
    match e {
        Event::Enumerated {
            parent,
            values,
            exceeded,
            ..
        } => match exceeded {
            Some(k) => say()
                .t("The value along the edge from ")
                .s(*parent)
                .t(format!(" has more than {k} solutions under the path's constraints: the successor keeps it unknown."))
                .done("bounded enumeration (Efficient CEGAR, explicit domain)", "transfer"),
            None => say()
                .t("The value along the edge from ")
                .s(*parent)
                .t(format!(" has {} solutions under the path's constraints ({}): one successor each.", values.len(), values.join(", ")))
                .done("bounded enumeration (Efficient CEGAR, explicit domain)", "transfer"),
        },
        Event::SatCheck {
            parent, satisfiable, ..
        } => say()
            .t("The path constraints after ")
            .s(*parent)
            .t(if *satisfiable {
                " and this edge are satisfiable: the successor is explored. (Constraints that the values of an earlier model, all-0 or all-1 values, or one of their own constants or its neighbours satisfy are settled without the solver: the solver log can list fewer queries than checks.)"
            } else {
                " and this edge are unsatisfiable: the branch cannot be taken."
            })
            .done("constraints CPA, satisfiability check (symbolic execution with CEGAR)", "transfer"),
        Event::Accelerated {
            from,
            state,
            line,
            iterations,
            changes,
            ..
        } => {
            let mut s = say()
                .t("Acceleration: the last iteration of the loop at ")
                .l(Some(*line))
                .t(" took one path and changed every variable by a constant. Executed again with the iteration count as a parameter, the path repeats as long as its conditions hold; they are linear in the count, so the run jumps from ")
                .s(*from)
                .t(format!(" over {iterations} more iteration{} to ", if *iterations == 1 { "" } else { "s" }))
                .s(*state);
            if !changes.is_empty() {
                s = s.t(": ");
                for (i, (v, c)) in changes.iter().take(6).enumerate() {
                    if i > 0 {
                        s = s.t(", ");
                    }
                    s = s.c(v.as_str()).t(format!(" goes {c}"));
                }
            }
            s.t(". The last skipped iteration was executed concretely to check the jump.")
                .done(ACCEL, "acceleration")
        }
        other => super::unexpected(other),
    }
}

//! Refinement for explicit values combined with predicate abstraction
//! ([`crate::domains::value_predicate`]), as the explicit-value CEGAR paper combines them (Beyer and
//! Löwe, FASE 2013, Sect. 4): value interpolation first, predicate interpolation for the paths
//! that explicit values cannot refute.
//!
//! * **Trace**: the ARG states on one path of first parents from the root to the target
//!   (each step one CFA edge); its abstraction states delimit the predicate blocks, whose
//!   formulas hold every path merged into the block.
//! * **Feasibility**: the conjunction of the block formulas, as in predicate refinement (all
//!   merged paths); a model is validated by concrete execution before FALSE.
//! * **Refutation**: when the blocks are infeasible, so is each of their paths: the value
//!   interpolants of the trace's path when the value semantics at full precision refutes it
//!   (the variables to track); otherwise, and when tracking them would add nothing, inductive
//!   sequence interpolants over the blocks, placed at the abstraction states (`true` at the
//!   states inside a block).
//! * **Precision**: tracked variables at the location of each state, or the interpolants'
//!   atoms as predicates at the location of each abstraction state.

use crate::cpa::arg::{Arg, ArgId};
use crate::domains::value_predicate::{
    ValuePredicateCpa, ValuePredicatePrecision, ValuePredicateState,
};
use crate::formula::deindex;
use crate::refinement::binary::{FormulaTrace, TraceFormula};
use crate::refinement::predicate::{
    block_formulas, check_feasibility, inner_interpolants, predicates_at, PredicateSplit,
};
use crate::refinement::value::{
    edge_steps, edge_trace, edge_trace_formula, value_refutation, variable_refutation, variables_at,
};
use crate::refinement::{
    Feasibility, Goal, Increment, PrecisionRefiner, Refutation, Trace, TraceChecker,
};
use crate::smt::{EngineError, Result, Smt};
use crate::text::clip;
use solver_bridge::term::Term;

type VpArg = Arg<ValuePredicateState, ValuePredicatePrecision>;

/// Value interpolation, then predicate interpolation.
#[derive(Default)]
pub struct ValuePredicateTraceChecker {
    /// The last refutation was by values (a predicate refutation may still follow).
    by_values: bool,
}

/// Sequence interpolants over the predicate blocks of `trace`, placed at the trace's
/// abstraction states (`true` inside blocks, `false` at the target). When interpolation fails
/// (a quantifier left by quantifier elimination, a resource limit), the refutation is empty:
/// the refinement makes no progress and the path stays undecided, as in the value analysis,
/// so that exploration may still find a feasible error path.
fn predicate_refutation(
    cpa: &mut ValuePredicateCpa,
    smt: &mut dyn Smt,
    arg: &VpArg,
    trace: &Trace,
) -> Result<(Refutation, Vec<String>)> {
    cpa.refutation_failure = None;
    match interpolate_blocks(smt, arg, trace) {
        Err(EngineError::Interpolation(why)) => {
            // A failed strategy can leave the solver's context in an unknown state (a
            // resource limit hit inside it): the next query starts from a fresh one.
            smt.reset()?;
            let n = trace.states.len();
            let mut texts = vec!["true".to_string(); n];
            texts[n - 1] = "false".into();
            cpa.refutation_failure = Some(why);
            Ok((Refutation::Variables(vec![Default::default(); n]), texts))
        }
        r => r,
    }
}

fn interpolate_blocks(
    smt: &mut dyn Smt,
    arg: &VpArg,
    trace: &Trace,
) -> Result<(Refutation, Vec<String>)> {
    let at: Vec<usize> = trace
        .states
        .iter()
        .enumerate()
        .filter(|(_, id)| arg.node(**id).data.pred.is_abstraction())
        .map(|(i, _)| i)
        .collect();
    let last = trace.states.len() - 1;
    if at.first() != Some(&0) || at.last() != Some(&last) || at.len() < 2 {
        return Err(EngineError::Unsupported(
            "predicate refinement needs block ends at the root and the target".into(),
        ));
    }
    let states: Vec<ArgId> = at.iter().map(|&i| trace.states[i]).collect();
    let (blocks, _) = block_formulas(arg, &states)?;
    let inner = inner_interpolants(smt, &blocks)?;
    let mut itps = vec![Term::tt(); trace.states.len()];
    for (k, t) in inner.into_iter().enumerate() {
        itps[at[k + 1]] = t;
    }
    itps[last] = Term::ff();
    let texts = itps
        .iter()
        .map(|t| clip(deindex(t).unwrap_or_else(|| t.clone())))
        .collect();
    Ok((Refutation::Interpolants(itps), texts))
}

impl TraceChecker<ValuePredicateCpa> for ValuePredicateTraceChecker {
    fn trace(&self, cpa: &ValuePredicateCpa, arg: &VpArg, target: ArgId) -> Result<Trace> {
        edge_trace(cpa.cfa(), arg, target)
    }

    fn feasibility(
        &mut self,
        cpa: &mut ValuePredicateCpa,
        smt: &mut dyn Smt,
        arg: &VpArg,
        trace: &Trace,
        goal: Goal,
    ) -> Result<Feasibility> {
        let states: Vec<ArgId> = trace
            .states
            .iter()
            .copied()
            .filter(|id| arg.node(*id).data.pred.is_abstraction())
            .collect();
        let (blocks, approximated) = block_formulas(arg, &states)?;
        if goal == Goal::Cut {
            return Feasibility::of_cut(smt, &Term::and(blocks));
        }
        let cfa = cpa.cfa().clone();
        Ok(Feasibility::of_error_path(check_feasibility(
            smt,
            arg,
            &cfa,
            &states,
            &blocks,
            approximated,
        )?))
    }

    fn refute(
        &mut self,
        cpa: &mut ValuePredicateCpa,
        smt: &mut dyn Smt,
        arg: &VpArg,
        trace: &Trace,
    ) -> Result<(Refutation, Vec<String>)> {
        let steps = edge_steps(arg, &trace.states)?;
        if let Some((r, _)) = value_refutation(&cpa.value, &steps, true)? {
            self.by_values = true;
            return Ok(r);
        }
        self.by_values = false;
        predicate_refutation(cpa, smt, arg, trace)
    }

    /// Tracking the value interpolants' variables adds nothing: the predicate interpolants.
    fn refute_further(
        &mut self,
        cpa: &mut ValuePredicateCpa,
        smt: &mut dyn Smt,
        arg: &VpArg,
        trace: &Trace,
    ) -> Result<Option<(Refutation, Vec<String>)>> {
        if !self.by_values {
            return Ok(None);
        }
        self.by_values = false;
        predicate_refutation(cpa, smt, arg, trace).map(Some)
    }
}

impl FormulaTrace<ValuePredicateCpa> for ValuePredicateTraceChecker {
    /// The edges, and each state's values and ψ (binary interpolation refines the tracked
    /// variables, as in the explicit domain of the efficient-CEGAR paper).
    fn trace_formula(
        &self,
        cpa: &mut ValuePredicateCpa,
        arg: &VpArg,
        trace: &Trace,
    ) -> Result<TraceFormula> {
        let cfa = cpa.cfa().clone();
        edge_trace_formula(
            &cfa,
            &cpa.value.encoder(),
            &cpa.value.names,
            arg,
            trace,
            |_, s| cpa.formula(s),
        )
    }

    fn refutation(&self, cpa: &ValuePredicateCpa, itps: Vec<Term>) -> (Refutation, Vec<String>) {
        variable_refutation(&cpa.value.names, &itps)
    }
}

/// Variables become tracked at the location of each state; interpolants become predicates at
/// the location of each abstraction state.
pub struct ValuePredicatePrecisionRefiner {
    pub split: PredicateSplit,
}

impl PrecisionRefiner<ValuePredicateCpa> for ValuePredicatePrecisionRefiner {
    fn no_progress(&self, cpa: &ValuePredicateCpa) -> String {
        match &cpa.refutation_failure {
            Some(why) => format!("refinement made no progress: the path is infeasible, but explicit values do not show it and interpolation failed ({why})"),
            None => "refinement made no progress: neither the value interpolants nor the predicate interpolants add to the precision".into(),
        }
    }

    fn increment(
        &mut self,
        cpa: &mut ValuePredicateCpa,
        arg: &VpArg,
        trace: &Trace,
        refutation: &Refutation,
    ) -> Result<Increment<ValuePredicatePrecision>> {
        let loc = |id: &ArgId| arg.node(*id).ctl.location;
        Ok(match refutation {
            Refutation::Variables(sets) => {
                let cfa = cpa.cfa().clone();
                let inc = variables_at(
                    &cfa,
                    cpa.value.cfg.scope,
                    trace.states.iter().map(loc).zip(sets),
                );
                Increment {
                    added: ValuePredicatePrecision {
                        value: inc.added,
                        pred: Default::default(),
                    },
                    shown: inc.shown,
                }
            }
            Refutation::Interpolants(itps) => {
                let at = trace
                    .states
                    .iter()
                    .zip(itps)
                    .skip(1)
                    .filter(|(id, _)| arg.node(**id).data.pred.is_abstraction())
                    .map(|(id, t)| (loc(id), t));
                let inc = predicates_at(&mut cpa.pred.table, self.split, at)?;
                Increment {
                    added: ValuePredicatePrecision {
                        value: Default::default(),
                        pred: inc.added,
                    },
                    shown: inc.shown,
                }
            }
        })
    }
}

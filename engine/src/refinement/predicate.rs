//! Refinement for predicate abstraction (the Predicate CPA paper's refine_P): the abstract
//! counterexample through the abstraction states, one feasibility query over the block
//! formulas (a satisfying model is validated by concrete execution), inductive sequence
//! interpolants; the atoms of τi become predicates at the location of the i-th state (lazy
//! abstraction).

use crate::cfa::Cfa;
use crate::cfa::NodeId;
use crate::cpa::arg::{Arg, ArgId};
use crate::domains::predicate::{
    HasPredicateState, PredicateCpa, PredicatePrecision, PredicateState, PredicateTable,
};
use crate::formula::deindex;
use crate::proof::counterexample::{self};
use crate::refinement::binary::{FormulaTrace, TraceFormula};
use crate::refinement::{
    Feasibility, Goal, Increment, PrecisionRefiner, Refutation, Trace, TraceChecker,
};
use crate::smt::{EngineError, Result, Sat, Smt};
use crate::text::clip;
use crate::verdict::Counterexample;
use serde::{Deserialize, Serialize};
use solver_bridge::term::Term;

type PArg = Arg<PredicateState, PredicatePrecision>;

/// The abstraction states e0..en on one ARG path from the root to `target`.
pub fn abstract_counterexample<D: HasPredicateState, P>(
    arg: &Arg<D, P>,
    target: ArgId,
) -> Vec<ArgId> {
    arg.path_to(target)
        .into_iter()
        .filter(|id| arg.node(*id).data.predicate_state().is_abstraction())
        .collect()
}

/// The block formulas of the abstraction states after the first, and whether one of them
/// over-approximates an operation.
pub fn block_formulas<D: HasPredicateState, P>(
    arg: &Arg<D, P>,
    states: &[ArgId],
) -> Result<(Vec<Term>, bool)> {
    let mut blocks = Vec::new();
    let mut approximated = false;
    for id in states.iter().skip(1) {
        let pf = arg
            .node(*id)
            .data
            .predicate_state()
            .block
            .clone()
            .ok_or_else(|| {
                EngineError::Unsupported("abstraction state without block formula".into())
            })?;
        approximated |= pf.approximated;
        blocks.push(pf.formula);
    }
    Ok((blocks, approximated))
}

/// Checks the ARG path `states` (through merged states: one formula, all paths) for
/// feasibility; a satisfying model is validated by concrete execution.
pub fn check_feasibility<D: HasPredicateState, P>(
    smt: &mut dyn Smt,
    arg: &Arg<D, P>,
    cfa: &Cfa,
    states: &[ArgId],
    formulas: &[Term],
    approximated: bool,
) -> Result<Option<std::result::Result<Counterexample, String>>> {
    let conj = Term::and(formulas.iter().cloned());
    match smt.check(std::slice::from_ref(&conj))? {
        Sat::Unsat => Ok(None),
        Sat::Unknown(r) => Err(EngineError::Solver(format!("feasibility check: {r}"))),
        Sat::Sat => {
            let model = counterexample::model_of(smt, &conj)?;
            let states_u32 = states.iter().map(|s| s.0).collect();
            Ok(Some(
                counterexample::confirm(cfa, arg, states[0], &model, approximated).map(|trace| {
                    Counterexample {
                        trace,
                        states: states_u32,
                    }
                }),
            ))
        }
    }
}

/// The inner sequence interpolants τ1 .. τ(n-1) of the blocks φ1 .. φn (one fewer than the
/// blocks).
pub fn inner_interpolants(smt: &mut dyn Smt, blocks: &[Term]) -> Result<Vec<Term>> {
    let inner = smt.interpolate(blocks)?;
    if inner.len() + 1 != blocks.len() {
        return Err(EngineError::Interpolation(format!(
            "{} interpolants for {} blocks",
            inner.len(),
            blocks.len()
        )));
    }
    Ok(inner)
}

/// Block formulas, feasibility and sequence interpolants.
pub struct PredicateTraceChecker;

impl TraceChecker<PredicateCpa> for PredicateTraceChecker {
    fn trace(&self, _cpa: &PredicateCpa, arg: &PArg, target: ArgId) -> Result<Trace> {
        let states = abstract_counterexample(arg, target);
        if states.len() < 2 || !arg.node(target).data.is_abstraction() {
            return Err(EngineError::Unsupported(
                "refinement needs a block end at the error location".into(),
            ));
        }
        let (blocks, _) = block_formulas(arg, &states)?;
        Ok(Trace {
            states,
            blocks: blocks.iter().map(clip).collect(),
        })
    }

    fn feasibility(
        &mut self,
        cpa: &mut PredicateCpa,
        smt: &mut dyn Smt,
        arg: &PArg,
        trace: &Trace,
        goal: Goal,
    ) -> Result<Feasibility> {
        let (blocks, approximated) = block_formulas(arg, &trace.states)?;
        if goal == Goal::Cut {
            return Feasibility::of_cut(smt, &Term::and(blocks.iter().cloned()));
        }
        let cfa = cpa.cfa.clone();
        Ok(Feasibility::of_error_path(check_feasibility(
            smt,
            arg,
            &cfa,
            &trace.states,
            &blocks,
            approximated,
        )?))
    }

    fn refute(
        &mut self,
        _cpa: &mut PredicateCpa,
        smt: &mut dyn Smt,
        arg: &PArg,
        trace: &Trace,
    ) -> Result<(Refutation, Vec<String>)> {
        let (blocks, _) = block_formulas(arg, &trace.states)?;
        let inner = inner_interpolants(smt, &blocks)?;
        let mut itps = vec![Term::tt()];
        itps.extend(inner);
        itps.push(Term::ff());
        let texts = itps.iter().map(clip).collect();
        Ok((Refutation::Interpolants(itps), texts))
    }
}

impl FormulaTrace<PredicateCpa> for PredicateTraceChecker {
    /// The abstraction formulas ψi instantiated where each block ends, and the block
    /// formulas between them.
    fn trace_formula(
        &self,
        cpa: &mut PredicateCpa,
        arg: &PArg,
        trace: &Trace,
    ) -> Result<TraceFormula> {
        let (ops, _) = block_formulas(arg, &trace.states)?;
        let enc = cpa.encoder();
        let states = trace
            .states
            .iter()
            .map(|id| {
                let s = &arg.node(*id).data;
                let ssa = s.block.as_ref().map_or(&s.pf.ssa, |b| &b.ssa);
                let (psi, extra) = enc.instantiate(&cpa.names, &cpa.abs_term(&s.abs), ssa);
                Term::and(std::iter::once(psi).chain(extra))
            })
            .collect();
        Ok(TraceFormula { states, ops })
    }

    fn refutation(&self, _cpa: &PredicateCpa, itps: Vec<Term>) -> (Refutation, Vec<String>) {
        let texts = itps
            .iter()
            .map(|t| clip(deindex(t).unwrap_or_else(|| t.clone())))
            .collect();
        (Refutation::Interpolants(itps), texts)
    }
}

/// How an interpolant becomes predicates (the efficient-CEGAR paper's `PredSplit`, Sect.
/// 3.1.3): its atoms (negations and connectives stripped), its top-level conjuncts, or the
/// whole formula as one predicate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PredicateSplit {
    #[default]
    Atoms,
    Conjuncts,
    Whole,
}

impl PredicateSplit {
    pub fn split(self, t: &Term) -> Vec<Term> {
        match self {
            PredicateSplit::Atoms => t.atoms(),
            PredicateSplit::Conjuncts => t.conjuncts(),
            PredicateSplit::Whole if t.is_true() => Vec::new(),
            PredicateSplit::Whole => vec![t.clone()],
        }
    }
}

/// The interpolant τi, split into predicates, is added at the location of the i-th state
/// (`false` where τi is `false`: a satisfiability check there).
pub struct PredicatePrecisionRefiner {
    pub split: PredicateSplit,
}

impl PrecisionRefiner<PredicateCpa> for PredicatePrecisionRefiner {
    fn no_progress(&self, _cpa: &PredicateCpa) -> String {
        "refinement made no progress: the interpolants add no new predicate".into()
    }

    fn increment(
        &mut self,
        cpa: &mut PredicateCpa,
        arg: &PArg,
        trace: &Trace,
        refutation: &Refutation,
    ) -> Result<Increment<PredicatePrecision>> {
        let Refutation::Interpolants(itps) = refutation else {
            return Err(EngineError::Unsupported(
                "predicate refinement needs interpolants".into(),
            ));
        };
        let at = trace
            .states
            .iter()
            .zip(itps)
            .skip(1)
            .map(|(id, t)| (arg.node(*id).ctl.location, t));
        predicates_at(&mut cpa.table, self.split, at)
    }
}

/// The predicates of interpolants at locations: each τ, split into predicates (`false`
/// where τ is `false`: a satisfiability check there), added at its location.
pub fn predicates_at<'a>(
    table: &mut PredicateTable,
    split: PredicateSplit,
    at: impl Iterator<Item = (NodeId, &'a Term)>,
) -> Result<Increment<PredicatePrecision>> {
    let mut added = PredicatePrecision::default();
    let mut shown = Vec::new();
    for (loc, itp) in at {
        let mut preds = Vec::new();
        if itp.is_false() {
            preds.push(Term::ff());
        } else if let Some(t) = deindex(itp) {
            preds.extend(split.split(&t));
        } else {
            // An interpolant over auxiliary values: only its program-variable atoms are
            // usable.
            preds.extend(itp.atoms().into_iter().filter_map(|a| deindex(&a)));
        }
        for p in preds {
            let pid = table.intern(p.clone())?;
            if added.by_location.entry(loc).or_default().insert(pid) {
                shown.push((loc.0, p.to_string()));
            }
        }
    }
    Ok(Increment { added, shown })
}

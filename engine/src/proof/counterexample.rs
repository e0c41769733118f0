//! Concrete counterexamples from a satisfying model of an ARG path formula.
//!
//! The model gives values to SSA constants. The program is executed concretely from its entry
//! ([`crate::concrete::run`]); every nondeterministic value is read from the model at the SSA
//! index the ARG state reached by that very edge assigns, so the run follows the ARG (merged
//! states included: the unification equalities make the merged index carry the taken branch's
//! value). The run decides every branch itself with exact C semantics, so the trace is a real
//! execution; the verdict FALSE stands only if it reaches an error location.

use crate::cfa::{Cfa, Edge};
use crate::concrete::{self, Oracle, Outcome};
use crate::cpa::arg::{Arg, ArgId};
use crate::domains::predicate::HasPredicateState;
use crate::formula::literal_value;
use crate::formula::Frames;
use crate::ir::{IntType, VarId};
use crate::verdict::{Counterexample, TraceStep};
use solver_bridge::term::Term;
use std::collections::BTreeMap;

/// Longest concrete run accepted when validating a counterexample.
pub const MAX_TRACE: usize = 100_000;

struct ModelOracle<'a, D, P> {
    cfa: &'a Cfa,
    arg: &'a Arg<D, P>,
    model: &'a BTreeMap<String, Term>,
    current: Option<ArgId>,
}

impl<D: Clone, P> ModelOracle<'_, D, P> {
    fn child(&self, edge: &Edge) -> Option<ArgId> {
        let cur = self.current?;
        self.arg.node(cur).children.iter().copied().find(|c| {
            self.arg.node(*c).is_alive()
                && self
                    .arg
                    .node(*c)
                    .parents
                    .iter()
                    .any(|(p, e)| *p == cur && *e == edge.id)
        })
    }
}

impl<D: HasPredicateState, P> Oracle for ModelOracle<'_, D, P> {
    fn value(&mut self, _step: usize, edge: &Edge, var: VarId, ty: IntType) -> Option<i128> {
        // The state the edge leads to holds the index of the written variable; main's
        // parameters (never written) are read at index 0.
        let node = self.child(edge).or(self.current)?;
        let n = self.arg.node(node);
        let slot = Frames::of(self.cfa, &n.ctl).slot(self.cfa, var);
        let idx = n.data.predicate_state().pf.ssa.get(slot).unwrap_or(0);
        let name = crate::formula::ssa::indexed_name(self.cfa, slot, idx);
        match self.model.get(&name) {
            Some(t) => literal_value(t, ty),
            // Not constrained by the formula: any value of the type will do.
            None => Some(0),
        }
    }

    fn executed(&mut self, _step: usize, edge: &Edge) {
        self.current = self.child(edge);
    }
}

/// Executes the program guided by `model` along the ARG from `root`. Returns the trace if the
/// run reaches an error location, or why it does not.
pub fn validate<D: HasPredicateState>(
    cfa: &Cfa,
    arg: &Arg<D, impl Sized>,
    root: ArgId,
    model: &BTreeMap<String, Term>,
    max_steps: usize,
) -> Result<Vec<TraceStep>, String> {
    let mut oracle = ModelOracle {
        cfa,
        arg,
        model,
        current: Some(root),
    };
    run_to_error(cfa, &mut oracle, max_steps)
}

/// Runs the program concretely with the inputs of `oracle`: the trace if it reaches an error
/// location, or why not.
fn run_to_error(
    cfa: &Cfa,
    oracle: &mut dyn Oracle,
    max_steps: usize,
) -> Result<Vec<TraceStep>, String> {
    let run = concrete::run(cfa, oracle, max_steps);
    match run.outcome {
        Outcome::ReachedError => Ok(run.trace),
        Outcome::Terminated | Outcome::Diverges => {
            Err("the concrete execution ends without reaching the error".into())
        }
        Outcome::StepLimit => Err(format!("the concrete execution exceeds {max_steps} steps")),
        Outcome::Failed(e) => Err(e.to_string()),
    }
}

/// The UNKNOWN reason for a satisfiable path formula whose concrete run failed (`why`): an
/// `approximated` formula (Int encoding of bit operations) is named as the likely cause.
fn unconfirmed(why: String, approximated: bool) -> String {
    if approximated {
        format!("the error path is feasible only under the over-approximation of bit operations of the int encoding ({why}); try --set encoding=bv")
    } else {
        format!("the error path could not be confirmed by concrete execution: {why}")
    }
}

/// The model of a satisfiable `formula`: every free constant's value, by name.
pub fn model_of(
    smt: &mut dyn crate::smt::Smt,
    formula: &Term,
) -> crate::smt::Result<BTreeMap<String, Term>> {
    let vars: Vec<Term> = formula.free_vars().into_iter().map(|v| v.term()).collect();
    let values = smt
        .model(std::slice::from_ref(formula), &vars)?
        .ok_or_else(|| {
            crate::smt::EngineError::Solver("no model for a satisfiable formula".into())
        })?;
    Ok(vars
        .iter()
        .zip(values)
        .filter_map(|(v, val)| Some((v.as_var()?.name.to_string(), val)))
        .collect())
}

/// [`validate`], with the reason a failure gives for the verdict UNKNOWN: an `approximated`
/// formula (Int encoding of bit operations) is named as the likely cause.
pub fn confirm<D: HasPredicateState>(
    cfa: &Cfa,
    arg: &Arg<D, impl Sized>,
    root: ArgId,
    model: &BTreeMap<String, Term>,
    approximated: bool,
) -> Result<Vec<TraceStep>, String> {
    validate(cfa, arg, root, model, MAX_TRACE).map_err(|why| unconfirmed(why, approximated))
}

/// One step of a path of single CFA edges: the edge and the control states around it.
#[derive(Clone, Debug)]
pub struct EdgeStep {
    pub edge: crate::cfa::EdgeId,
    pub from: crate::cpa::control::ControlState,
    pub to: crate::cpa::control::ControlState,
}

/// The SSA formula of each step of `steps` (one conjunct per edge, indices continuing), and
/// the SSA map after each step.
pub fn edge_path_formulas(
    cfa: &Cfa,
    enc: &crate::formula::Encoder,
    steps: &[EdgeStep],
) -> (
    Vec<crate::formula::PathFormula>,
    Vec<crate::formula::SsaMap>,
) {
    let mut ssa = crate::formula::SsaMap::default();
    let mut formulas = Vec::new();
    let mut maps = Vec::new();
    for s in steps {
        let pf = enc.sp(
            &crate::formula::PathFormula::empty(ssa),
            cfa.edge(s.edge),
            &s.from,
            &s.to,
        );
        ssa = pf.ssa.clone();
        maps.push(pf.ssa.clone());
        formulas.push(pf);
    }
    (formulas, maps)
}

/// Reads nondeterministic values of a concrete run from the model of a path of single edges:
/// the value written at step `i` is the SSA constant the path formula gave it there.
struct PathOracle<'a> {
    cfa: &'a Cfa,
    steps: &'a [EdgeStep],
    maps: &'a [crate::formula::SsaMap],
    model: &'a BTreeMap<String, Term>,
}

impl Oracle for PathOracle<'_> {
    fn value(&mut self, step: usize, _edge: &Edge, var: VarId, ty: IntType) -> Option<i128> {
        let (Some(s), Some(map)) = (self.steps.get(step), self.maps.get(step)) else {
            // Beyond the path: any value (the run must still reach the error by itself).
            return Some(0);
        };
        let slot = Frames::of(self.cfa, &s.to).slot(self.cfa, var);
        let idx = map.get(slot).unwrap_or(0);
        let name = crate::formula::ssa::indexed_name(self.cfa, slot, idx);
        match self.model.get(&name) {
            Some(t) => literal_value(t, ty),
            None => Some(0),
        }
    }

    fn executed(&mut self, _step: usize, _edge: &Edge) {}
}

/// Checks a path of single edges (from the program entry) for feasibility; a satisfying model
/// is validated by concrete execution. `Ok(None)`: infeasible. `states` are the ARG states of
/// the path, for the counterexample.
pub fn check_edge_path(
    smt: &mut dyn crate::smt::Smt,
    cfa: &Cfa,
    enc: &crate::formula::Encoder,
    steps: &[EdgeStep],
    states: Vec<u32>,
) -> crate::smt::Result<Option<Result<Counterexample, String>>> {
    use crate::smt::{EngineError, Sat};
    let (formulas, maps) = edge_path_formulas(cfa, enc, steps);
    let approximated = formulas.iter().any(|f| f.approximated);
    let conj = Term::and(formulas.into_iter().map(|f| f.formula));
    match smt.check(std::slice::from_ref(&conj))? {
        Sat::Unsat => Ok(None),
        Sat::Unknown(r) => Err(EngineError::Solver(format!("feasibility check: {r}"))),
        Sat::Sat => {
            let model = model_of(smt, &conj)?;
            let mut oracle = PathOracle {
                cfa,
                steps,
                maps: &maps,
                model: &model,
            };
            Ok(Some(
                run_to_error(cfa, &mut oracle, MAX_TRACE)
                    .map(|trace| Counterexample { trace, states })
                    .map_err(|why| unconfirmed(why, approximated)),
            ))
        }
    }
}

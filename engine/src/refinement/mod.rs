//! CEGAR's refinement (Algorithm 4 of the unifying-view paper, Algorithm 2 of the
//! efficient-CEGAR paper), split the way Theta splits it:
//!
//! * a [`TraceChecker`] takes the abstract counterexample to a target (the abstraction states
//!   on the ARG path) and decides whether it is feasible (a real bug, validated by concrete
//!   execution) or infeasible, in which case it gives a [`Refutation`]: sequence interpolants
//!   for predicate abstraction, or the variables (and constraints) that refute the path for
//!   value analysis and symbolic execution;
//! * a [`PrecisionRefiner`] turns the refutation into precision increments by location;
//! * a [`PruneStrategy`] decides how much of the ARG is rebuilt: lazily from the pivot (the
//!   first state whose precision grows, lazy abstraction) or fully from the root.
//!
//! [`CegarRefiner`] composes the three for every domain; IMPACT, which strengthens states
//! instead of refining a precision, is its own [`Refiner`] ([`impact`]).

pub mod impact;
pub mod predicate;
pub mod prune;
pub mod symbolic;
pub mod value;

use crate::cfa::Cfa;
use crate::counterexample::Counterexample;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::{Cpa, Describe, Precision};
use crate::events::Event;
use crate::smt::{Result, Smt};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// Longest concrete run accepted when validating a counterexample.
pub const MAX_TRACE: usize = 100_000;

/// What the path being refined leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// An error state (a target): a feasible path is a bug, once validated concretely.
    Error,
    /// A state beyond the recursion bound: a feasible path means that deeper recursion must be
    /// explored; an infeasible one is refined away like a spurious counterexample.
    Cut,
}

/// What a CEGAR refinement changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefinementStrategy {
    /// The precision (lazy predicate abstraction, value and symbolic refinement).
    Predicate,
    /// The abstraction formulas along the path (IMPACT).
    Impact,
}

/// How much of the ARG a refinement rebuilds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PruneStrategy {
    /// Remove the subtree of the pivot and re-expand its parents (lazy abstraction).
    #[default]
    Lazy,
    /// Remove everything but the root and start over with the refined precision.
    Full,
}

pub enum Outcome {
    /// The counterexample is real (validated by concrete execution).
    Feasible(Counterexample),
    /// The path to a cut state is feasible (the recursion bound really cuts it).
    CutFeasible,
    /// The ARG was refined; exploration continues.
    Refined,
    /// Refinement cannot continue (no progress, or a feasible path that does not validate).
    Unknown(String),
}

/// An abstract counterexample: the states whose abstractions it checks, root first.
pub struct Trace {
    pub states: Vec<ArgId>,
    /// The formula (or operations) of each step, as the playground shows them: one per state
    /// after the first.
    pub blocks: Vec<String>,
}

/// The answer of a feasibility check.
pub enum Feasibility {
    Feasible(Counterexample),
    /// Feasible, but the goal was a cut (nothing to validate).
    FeasibleCut,
    Infeasible,
    /// Feasible in the formula but not confirmed concretely, or the solver gave up.
    Unknown(String),
}

impl Feasibility {
    /// The answer for an error path from its check (`None`: infeasible; `Err`: feasible in
    /// the formula but not confirmed concretely).
    pub fn of_error_path(checked: Option<std::result::Result<Counterexample, String>>) -> Self {
        match checked {
            None => Feasibility::Infeasible,
            Some(Ok(cex)) => Feasibility::Feasible(cex),
            Some(Err(why)) => Feasibility::Unknown(why),
        }
    }

    /// The answer for a path into a cut state with path formula `formula`: infeasible only
    /// when the solver says unsatisfiable (feasible, or the solver gave up: the cut stays).
    pub fn of_cut(smt: &mut dyn Smt, formula: &solver_bridge::term::Term) -> Result<Self> {
        Ok(match smt.check(std::slice::from_ref(formula))? {
            crate::smt::Sat::Unsat => Feasibility::Infeasible,
            _ => Feasibility::FeasibleCut,
        })
    }
}

/// Why a trace is infeasible.
pub enum Refutation {
    /// Sequence interpolants τ0 = true .. τn = false, one per state of the trace.
    Interpolants(Vec<solver_bridge::term::Term>),
    /// The variables each state of the trace must track (value interpolation, or the
    /// variables of sequence interpolants), one set per state.
    Variables(Vec<std::collections::BTreeSet<crate::ir::VarId>>),
}

/// Decides the feasibility of abstract counterexamples and refutes the infeasible ones.
pub trait TraceChecker<C: Cpa> {
    /// The abstract counterexample to `target`.
    fn trace(&self, cpa: &C, arg: &Arg<C::State, C::Prec>, target: ArgId) -> Result<Trace>;

    fn feasibility(
        &mut self,
        cpa: &mut C,
        smt: &mut dyn Smt,
        arg: &Arg<C::State, C::Prec>,
        trace: &Trace,
        goal: Goal,
    ) -> Result<Feasibility>;

    /// A refutation of an infeasible trace, and its steps as text (one per state).
    fn refute(
        &mut self,
        cpa: &mut C,
        smt: &mut dyn Smt,
        arg: &Arg<C::State, C::Prec>,
        trace: &Trace,
    ) -> Result<(Refutation, Vec<String>)>;
}

/// Precision increments from a refutation.
pub struct Increment<P> {
    pub added: P,
    /// What was added, by location, as the playground shows it.
    pub shown: Vec<(u32, String)>,
}

pub trait PrecisionRefiner<C: Cpa> {
    /// Why a refutation that adds nothing is a dead end, for the UNKNOWN reason.
    fn no_progress(&self, _cpa: &C) -> String {
        "refinement made no progress: the refutation adds nothing to the precision".into()
    }

    fn increment(
        &mut self,
        cpa: &mut C,
        arg: &Arg<C::State, C::Prec>,
        trace: &Trace,
        refutation: &Refutation,
    ) -> Result<Increment<C::Prec>>;
}

/// One refinement of the path to a target (or a cut state).
pub trait Refiner<C: Cpa + Describe> {
    #[allow(clippy::too_many_arguments)]
    fn refine(
        &mut self,
        cfa: &Cfa,
        cpa: &mut C,
        smt: &mut dyn Smt,
        algo: &mut CpaPlus<C>,
        target: ArgId,
        goal: Goal,
        events: &mut Vec<Event>,
    ) -> Result<Outcome>;

    /// Forced covering before `e` is expanded (IMPACT's fcover). Returns whether `e` was
    /// covered; refiners without it never cover.
    fn force_cover(
        &mut self,
        _cfa: &Cfa,
        _cpa: &mut C,
        _smt: &mut dyn Smt,
        _algo: &mut CpaPlus<C>,
        _e: ArgId,
        _events: &mut Vec<Event>,
    ) -> Result<bool> {
        Ok(false)
    }
}

/// Trace checker, precision refiner and prune strategy, composed.
pub struct CegarRefiner<T, P> {
    pub checker: T,
    pub precision: P,
    pub prune: PruneStrategy,
}

/// Checks the trace to `target` and records the [`Event::Counterexample`]; an infeasible trace
/// is refuted and the refutation recorded ([`Event::Interpolants`]). `Err` carries the
/// outcome when the trace is not refuted (feasible, or undecided).
pub fn check_trace<C: Cpa, T: TraceChecker<C>>(
    checker: &mut T,
    cpa: &mut C,
    smt: &mut dyn Smt,
    arg: &Arg<C::State, C::Prec>,
    target: ArgId,
    goal: Goal,
    events: &mut Vec<Event>,
) -> Result<std::result::Result<(Trace, Refutation), Outcome>> {
    let trace = checker.trace(cpa, arg, target)?;
    let feasibility = checker.feasibility(cpa, smt, arg, &trace, goal)?;
    let feasible = !matches!(feasibility, Feasibility::Infeasible);
    events.push(Event::Counterexample {
        states: trace.states.iter().map(|s| s.0).collect(),
        blocks: trace.blocks.clone(),
        feasible: match goal {
            Goal::Cut => feasible,
            Goal::Error => matches!(feasibility, Feasibility::Feasible(_)),
        },
        cut: goal == Goal::Cut,
    });
    let outcome = match feasibility {
        Feasibility::Infeasible => {
            let (refutation, texts) = checker.refute(cpa, smt, arg, &trace)?;
            events.push(Event::Interpolants {
                states: trace.states.iter().map(|s| s.0).collect(),
                interpolants: texts,
            });
            return Ok(Ok((trace, refutation)));
        }
        Feasibility::Feasible(cex) => Outcome::Feasible(cex),
        Feasibility::FeasibleCut => Outcome::CutFeasible,
        Feasibility::Unknown(_) if goal == Goal::Cut => Outcome::CutFeasible,
        Feasibility::Unknown(why) => Outcome::Unknown(why),
    };
    Ok(Err(outcome))
}

impl<C, T, P> Refiner<C> for CegarRefiner<T, P>
where
    C: Cpa + Describe,
    T: TraceChecker<C>,
    P: PrecisionRefiner<C>,
{
    fn refine(
        &mut self,
        cfa: &Cfa,
        cpa: &mut C,
        smt: &mut dyn Smt,
        algo: &mut CpaPlus<C>,
        target: ArgId,
        goal: Goal,
        events: &mut Vec<Event>,
    ) -> Result<Outcome> {
        let (trace, refutation) =
            match check_trace(&mut self.checker, cpa, smt, &algo.arg, target, goal, events)? {
                Ok(t) => t,
                Err(outcome) => return Ok(outcome),
            };
        let inc = self
            .precision
            .increment(cpa, &algo.arg, &trace, &refutation)?;
        let joined = Rc::new(algo.arg.node(target).prec.join(&inc.added));
        // The pivot: the first state of the counterexample whose abstraction would now use
        // more than the precision it was computed with.
        let pivot = trace.states.iter().skip(1).copied().find(|id| {
            let n = algo.arg.node(*id);
            joined.count_at(n.ctl.location) > n.made_with.count_at(n.ctl.location)
        });
        let Some(pivot) = pivot else {
            return Ok(Outcome::Unknown(self.precision.no_progress(cpa)));
        };
        events.push(Event::PrecisionRefined { added: inc.shown });
        match self.prune {
            PruneStrategy::Lazy => prune::lazy(cfa, &mut algo.arg, pivot, &joined, events),
            PruneStrategy::Full => prune::full(cfa, &mut algo.arg, &joined, events),
        }
        Ok(Outcome::Refined)
    }
}

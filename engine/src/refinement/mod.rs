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

pub mod binary;
pub mod impact;
pub mod liveness;
pub mod predicate;
pub mod prune;
pub mod suffix;
pub mod symbolic;
pub mod value;
pub mod value_predicate;

use crate::cfa::Cfa;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::{Cpa, Describe, Precision};
use crate::events::Event;
use crate::smt::{Result, Smt};
use crate::verdict::Counterexample;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::rc::Rc;

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

    /// A second, stronger refutation when the first one adds nothing to the precision (binary
    /// interpolation falls back to the domain's sequence refutation); `None`: there is none.
    fn refute_further(
        &mut self,
        _cpa: &mut C,
        _smt: &mut dyn Smt,
        _arg: &Arg<C::State, C::Prec>,
        _trace: &Trace,
    ) -> Result<Option<(Refutation, Vec<String>)>> {
        Ok(None)
    }
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

    /// Refines the paths to several targets at once (multiple counterexamples); one outcome
    /// per target it decided. Refiners without it refine the first target only (the others
    /// stay in the ARG and are refined later).
    fn refine_many(
        &mut self,
        cfa: &Cfa,
        cpa: &mut C,
        smt: &mut dyn Smt,
        algo: &mut CpaPlus<C>,
        targets: &[ArgId],
        events: &mut Vec<Event>,
    ) -> Result<Vec<(ArgId, Outcome)>> {
        let Some(&t) = targets.first() else {
            return Ok(Vec::new());
        };
        let outcome = self.refine(cfa, cpa, smt, algo, t, Goal::Error, events)?;
        Ok(vec![(t, outcome)])
    }

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

/// A refinement decided but not yet applied: the pivot and the precision increment.
struct Plan<P> {
    pivot: ArgId,
    /// The target's precision joined with the increment.
    joined: P,
    shown: Vec<(u32, String)>,
}

impl<T, P> CegarRefiner<T, P> {
    /// Checks and refutes the path to `target` and finds the pivot: the first state of the
    /// counterexample whose abstraction would now use more than the precision it was computed
    /// with. `Err` carries the outcome when nothing is to be pruned.
    fn plan<C>(
        &mut self,
        cpa: &mut C,
        smt: &mut dyn Smt,
        arg: &Arg<C::State, C::Prec>,
        target: ArgId,
        goal: Goal,
        events: &mut Vec<Event>,
    ) -> Result<std::result::Result<Plan<C::Prec>, Outcome>>
    where
        C: Cpa + Describe,
        T: TraceChecker<C>,
        P: PrecisionRefiner<C>,
    {
        let (trace, refutation) =
            match check_trace(&mut self.checker, cpa, smt, arg, target, goal, events)? {
                Ok(t) => t,
                Err(outcome) => return Ok(Err(outcome)),
            };
        let mut inc = self.precision.increment(cpa, arg, &trace, &refutation)?;
        let pivot_of = |inc: &Increment<C::Prec>| {
            let joined = arg.node(target).prec.join(&inc.added);
            let pivot = trace.states.iter().skip(1).copied().find(|id| {
                let n = arg.node(*id);
                joined.count_at(n.ctl.location) > n.made_with.count_at(n.ctl.location)
            });
            (joined, pivot)
        };
        let (mut joined, mut pivot) = pivot_of(&inc);
        if pivot.is_none() {
            if let Some((refutation, texts)) = self.checker.refute_further(cpa, smt, arg, &trace)? {
                events.push(Event::Interpolants {
                    states: trace.states.iter().map(|s| s.0).collect(),
                    interpolants: texts,
                });
                inc = self.precision.increment(cpa, arg, &trace, &refutation)?;
                (joined, pivot) = pivot_of(&inc);
            }
        }
        Ok(match pivot {
            Some(pivot) => Ok(Plan {
                pivot,
                joined,
                shown: inc.shown,
            }),
            None => Err(Outcome::Unknown(self.precision.no_progress(cpa))),
        })
    }

    fn prune<S: Clone, Q: Precision>(
        &self,
        cfa: &Cfa,
        arg: &mut Arg<S, Q>,
        pivot: ArgId,
        refined: &Rc<Q>,
        events: &mut Vec<Event>,
    ) {
        match self.prune {
            PruneStrategy::Lazy => prune::lazy(cfa, arg, pivot, refined, events),
            PruneStrategy::Full => prune::full(cfa, arg, refined, events),
        }
    }
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
        let plan = match self.plan(cpa, smt, &algo.arg, target, goal, events)? {
            Ok(plan) => plan,
            Err(outcome) => return Ok(outcome),
        };
        events.push(Event::PrecisionRefined { added: plan.shown });
        self.prune(
            cfa,
            &mut algo.arg,
            plan.pivot,
            &Rc::new(plan.joined),
            events,
        );
        Ok(Outcome::Refined)
    }

    /// Algorithm 5 of the efficient-CEGAR paper (`MULTI_SEQ`): every counterexample is checked
    /// (the first feasible one is the answer) and refuted; a path whose pivot has another
    /// path's pivot as a proper ancestor is skipped (it may come back in the next iteration);
    /// the others' increments are joined and each distinct pivot is pruned once.
    fn refine_many(
        &mut self,
        cfa: &Cfa,
        cpa: &mut C,
        smt: &mut dyn Smt,
        algo: &mut CpaPlus<C>,
        targets: &[ArgId],
        events: &mut Vec<Event>,
    ) -> Result<Vec<(ArgId, Outcome)>> {
        let mut outcomes = Vec::new();
        let mut plans: Vec<(ArgId, Plan<C::Prec>)> = Vec::new();
        for &t in targets {
            match self.plan(cpa, smt, &algo.arg, t, Goal::Error, events)? {
                Ok(plan) => plans.push((t, plan)),
                Err(Outcome::Feasible(cex)) => return Ok(vec![(t, Outcome::Feasible(cex))]),
                Err(outcome) => outcomes.push((t, outcome)),
            }
        }
        // The states strictly below each pivot (over tree edges).
        let below: Vec<BTreeSet<ArgId>> = plans
            .iter()
            .map(|(_, p)| p.pivot)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|q| {
                let mut sub: BTreeSet<ArgId> = algo.arg.subtree(q).into_iter().collect();
                sub.remove(&q);
                sub
            })
            .collect();
        let mut kept: Vec<&Plan<C::Prec>> = Vec::new();
        for (t, plan) in &plans {
            let below_another = below.iter().any(|sub| sub.contains(&plan.pivot));
            if !below_another {
                kept.push(plan);
            }
            outcomes.push((*t, Outcome::Refined));
        }
        if kept.is_empty() {
            return Ok(outcomes);
        }
        let joined = Rc::new(
            kept.iter()
                .skip(1)
                .fold(kept[0].joined.clone(), |acc, p| acc.join(&p.joined)),
        );
        let mut shown: Vec<(u32, String)> = kept.iter().flat_map(|p| p.shown.clone()).collect();
        shown.sort();
        shown.dedup();
        events.push(Event::PrecisionRefined { added: shown });
        let mut pruned: BTreeSet<ArgId> = BTreeSet::new();
        for plan in &kept {
            if self.prune == PruneStrategy::Full {
                prune::full(cfa, &mut algo.arg, &joined, events);
                break;
            }
            // Each distinct pivot once, and only while it is still in the ARG (pruning another
            // pivot can take it with the states it covered).
            if pruned.insert(plan.pivot) && algo.arg.node(plan.pivot).is_alive() {
                self.prune(cfa, &mut algo.arg, plan.pivot, &joined, events);
            }
        }
        Ok(outcomes)
    }
}

//! The bounded-model-checking core that BMC and k-induction share (the unifying-view paper,
//! Sect. 4.1 and Alg. 3): the Predicate CPA with blk^never (one block, merged path formulas)
//! and the Loop-Bound CPA with bound k, unrolled by CPA++ without abort from a start state
//! (the program entry, or an arbitrary state at a loop head); then satisfiability checks over
//! the path formulas of the states it reached: the error states (a bug, validated by concrete
//! execution) and the states whose successors the bound cut off (the forward condition of
//! Gadelha et al.: unsatisfiable means every path was unrolled completely).

use crate::cfa::{Cfa, NodeId};
use crate::cpa::arg::{Arg, ArgId, ArgNode};
use crate::cpa::control::ControlCpa;
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::waitlist::WaitlistOrder;
use crate::cpa::Cpa;
use crate::domains::predicate::{PredicateCpa, PredicatePrecision, PredicateState};
use crate::events::{CheckKind, Event};
use crate::proof::counterexample;
use crate::smt::{EngineError, Result, Sat, Smt};
use crate::verdict::Verdict;
use solver_bridge::term::Term;
use std::rc::Rc;

/// The disjunction of the path formulas of `states`.
pub fn disjunction(arg: &Arg<PredicateState, PredicatePrecision>, states: &[ArgId]) -> Term {
    Term::or_factored(states.iter().map(|s| arg.node(*s).data.pf.formula.clone()))
}

/// One unrolling after another, with the solver they share.
pub struct Unrolling {
    pub cfa: Rc<Cfa>,
    pub cpa: PredicateCpa,
    pub smt: Box<dyn Smt>,
    pub algo: CpaPlus<PredicateCpa>,
    order: WaitlistOrder,
    max_depth: usize,
    /// States of the unrollings before the current one.
    states_before: u64,
}

impl Unrolling {
    pub fn new(
        cfa: Rc<Cfa>,
        cpa: PredicateCpa,
        smt: Box<dyn Smt>,
        order: WaitlistOrder,
        max_depth: usize,
        bound: u32,
    ) -> Unrolling {
        let algo = CpaPlus::new(Arg::new(order), Self::control(bound, max_depth));
        Unrolling {
            cfa,
            cpa,
            smt,
            algo,
            order,
            max_depth,
            states_before: 0,
        }
    }

    fn control(bound: u32, max_depth: usize) -> ControlCpa {
        ControlCpa {
            loop_bound: Some(bound),
            max_depth,
            cut_states: false,
        }
    }

    /// A fresh unrolling with loop bound `bound` from the program entry, or from an arbitrary
    /// state at the loop head `at`.
    pub fn restart(&mut self, bound: u32, at: Option<NodeId>, what: &str, events: &mut Vec<Event>) {
        let cfa = self.cfa.clone();
        self.states_before += self.algo.arg.len() as u64;
        self.algo = CpaPlus::new(Arg::new(self.order), Self::control(bound, self.max_depth));
        events.push(Event::Started {
            algorithm: what.into(),
            bound: Some(bound),
        });
        let ctl = match at {
            Some(h) => self.algo.control.initial_at(&cfa, h),
            None => self.algo.control.initial(&cfa),
        };
        let data = self.cpa.initial_state(&ctl);
        self.algo.init(
            &cfa,
            ctl,
            data,
            Rc::new(PredicatePrecision::default()),
            &self.cpa,
            events,
        );
    }

    /// Expands one state; `true` once the unrolling is complete.
    pub fn step(&mut self, events: &mut Vec<Event>) -> Result<bool> {
        let cfa = self.cfa.clone();
        match self.algo.arg.pop() {
            Some(e) => {
                events.push(Event::StatePopped { state: e.0 });
                self.algo
                    .expand(&cfa, &mut self.cpa, self.smt.as_mut(), e, events)?;
                Ok(false)
            }
            None => Ok(true),
        }
    }

    /// The alive states at error locations that satisfy `keep`.
    pub fn errors(
        &self,
        keep: impl Fn(&ArgNode<PredicateState, PredicatePrecision>) -> bool,
    ) -> Vec<ArgId> {
        self.algo
            .arg
            .alive()
            .filter(|n| self.cfa.node(n.ctl.location).is_error() && keep(n))
            .map(|n| n.id)
            .collect()
    }

    /// The base case: is one of the error states reachable? A satisfiable formula gives a
    /// counterexample, validated by concrete execution (FALSE), or UNKNOWN with the reason.
    pub fn base_check(&mut self, bound: u32, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        let errors = self.errors(|_| true);
        let formula = disjunction(&self.algo.arg, &errors);
        let verdict = self.check_error_states(&errors)?;
        events.push(Event::Check {
            what: CheckKind::Base,
            bound,
            satisfiable: Some(verdict.is_some()),
            formula_size: formula.size(),
        });
        Ok(verdict)
    }

    /// The forward condition: is a state whose successors the bound cut reachable?
    /// Unsatisfiable: every path was unrolled completely.
    pub fn forward_check(&mut self, bound: u32, events: &mut Vec<Event>) -> Result<Sat> {
        let cut: Vec<ArgId> = self
            .algo
            .cut
            .iter()
            .map(|(s, _)| *s)
            .filter(|s| self.algo.arg.node(*s).is_alive())
            .collect();
        let formula = disjunction(&self.algo.arg, &cut);
        let sat = self.smt.check(std::slice::from_ref(&formula))?;
        events.push(check_event(CheckKind::Forward, bound, &sat, formula.size()));
        Ok(sat)
    }

    /// Checks the disjunction of the error states' path formulas and turns a model into a
    /// validated counterexample.
    fn check_error_states(&mut self, errors: &[ArgId]) -> Result<Option<Verdict>> {
        let arg = &self.algo.arg;
        let formula = disjunction(arg, errors);
        match self.smt.check(std::slice::from_ref(&formula))? {
            Sat::Unsat => Ok(None),
            Sat::Unknown(r) => Err(EngineError::Solver(r)),
            Sat::Sat => {
                let model = counterexample::model_of(self.smt.as_mut(), &formula)?;
                let approximated = errors.iter().any(|e| arg.node(*e).data.pf.approximated);
                let root = ArgId(0);
                let last = errors.iter().copied().max().unwrap_or(root);
                Ok(Some(
                    match counterexample::confirm(&self.cfa, arg, root, &model, approximated) {
                        Ok(trace) => Verdict::False {
                            counterexample: crate::verdict::Counterexample {
                                trace,
                                states: arg.path_to(last).iter().map(|s| s.0).collect(),
                            },
                        },
                        Err(reason) => Verdict::Unknown { reason },
                    },
                ))
            }
        }
    }

    /// All states of all unrollings so far.
    pub fn states(&self) -> u64 {
        self.states_before + self.algo.arg.len() as u64
    }
}

/// The [`Event::Check`] of a query.
pub fn check_event(what: CheckKind, bound: u32, sat: &Sat, formula_size: u64) -> Event {
    Event::Check {
        what,
        bound,
        satisfiable: match sat {
            Sat::Sat => Some(true),
            Sat::Unsat => Some(false),
            Sat::Unknown(_) => None,
        },
        formula_size,
    }
}

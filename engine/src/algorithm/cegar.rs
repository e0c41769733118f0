//! CEGAR (Algorithm 4 of the unifying-view paper) around CPA++ with the Predicate CPA: expand
//! until a target state is added, then refine; SAFE only when the waitlist is empty and nothing
//! was cut off.
//!
//! Recursion is inlined by the call stack up to a depth bound. The bound starts small and
//! doubles up to the configured `max-depth` whenever a complete ARG was cut by it (the run
//! restarts with the precision learned so far): before an abstraction knows the recursion
//! parameter, every call may recurse, and a binary recursion explored to depth 32 has 2^32
//! call stacks, while the bug of `fibo_2calls_2-1.c` sits at depth 2.

use super::{AlgoStats, Algorithm, Verdict};
use crate::cfa::Cfa;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::control::{ControlCpa, Cut};
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::waitlist::WaitlistOrder;
use crate::events::Event;
use crate::formula::SsaMap;
use crate::predicate::refine::{self, Outcome, RefinementStrategy};
use crate::predicate::{PredicateCpa, PredicatePrecision};
use crate::smt::Result;
use std::rc::Rc;

/// The first recursion depth bound (see the module documentation).
const INITIAL_DEPTH: usize = 8;

pub struct Cegar {
    cfa: Rc<Cfa>,
    order: WaitlistOrder,
    /// The configured bound; `algo.control.max_depth` is the current one.
    max_depth: usize,
    cpa: PredicateCpa,
    algo: CpaPlus<PredicateCpa>,
    strategy: RefinementStrategy,
    pending: Option<ArgId>,
    refinements: u64,
    started: bool,
    /// Forced covering (IMPACT) before each expansion.
    pub fcover: bool,
}

impl Cegar {
    pub fn new(
        cfa: Rc<Cfa>,
        cpa: PredicateCpa,
        strategy: RefinementStrategy,
        order: WaitlistOrder,
        max_depth: usize,
    ) -> Cegar {
        let algo = CpaPlus::new(
            Arg::new(order),
            ControlCpa {
                loop_bound: None,
                max_depth: max_depth.min(INITIAL_DEPTH),
            },
        );
        Cegar {
            cfa,
            order,
            max_depth,
            cpa,
            algo,
            strategy,
            pending: None,
            refinements: 0,
            started: false,
            fcover: false,
        }
    }

    /// A fresh ARG from the initial state with precision `prec` (the first run, and restarts
    /// with a deeper recursion bound).
    fn start(&mut self, prec: Rc<PredicatePrecision>, events: &mut Vec<Event>) {
        let cfa = self.cfa.clone();
        let name = match self.strategy {
            RefinementStrategy::Predicate => "predicate abstraction (CEGAR)",
            RefinementStrategy::Impact => "IMPACT (CEGAR)",
        };
        let depth = self.algo.control.max_depth;
        // A restart says why.
        let algorithm = if !self.algo.arg.is_empty() {
            format!("{name}, recursion depth {depth}")
        } else {
            name.to_string()
        };
        self.algo = CpaPlus::new(Arg::new(self.order), self.algo.control.clone());
        events.push(Event::Started {
            algorithm,
            bound: None,
        });
        let ctl = self.algo.control.initial(&cfa);
        let data = self.cpa.initial_state(cfa.entry(), SsaMap::default());
        self.algo.init(&cfa, ctl, data, prec, &self.cpa, events);
    }

    pub fn arg(&self) -> &Arg<crate::predicate::PredicateState, PredicatePrecision> {
        &self.algo.arg
    }
}

impl Algorithm for Cegar {
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        let cfa = self.cfa.clone();
        if !self.started {
            self.started = true;
            self.start(Rc::new(PredicatePrecision::default()), events);
            return Ok(None);
        }
        if let Some(target) = self.pending.take() {
            let outcome =
                refine::refine(&mut self.cpa, &mut self.algo, target, self.strategy, events)?;
            return Ok(match outcome {
                Outcome::Feasible(counterexample) => Some(Verdict::False { counterexample }),
                Outcome::Unknown(reason) => Some(Verdict::Unknown { reason }),
                Outcome::Refined => {
                    self.refinements += 1;
                    if let Some(Event::Refined { refinement, .. }) = events.last_mut() {
                        *refinement = self.refinements as u32;
                    }
                    None
                }
            });
        }
        let Some(e) = self.algo.arg.pop() else {
            // The waitlist is empty: the ARG is complete unless successors were cut.
            let depth = self.algo.control.max_depth;
            let recursion = self.algo.cut.iter().any(|(_, c)| *c == Cut::RecursionDepth);
            if recursion && depth < self.max_depth {
                self.algo.control.max_depth = (2 * depth).min(self.max_depth);
                let learned = self
                    .algo
                    .arg
                    .alive()
                    .fold(PredicatePrecision::default(), |p, n| p.join(&n.prec));
                self.start(Rc::new(learned), events);
                return Ok(None);
            }
            if let Some((_, cut)) = self.algo.cut.first() {
                let what = match cut {
                    Cut::RecursionDepth => "the recursion depth bound was reached",
                    Cut::LoopBound => "the loop bound was reached",
                };
                return Ok(Some(Verdict::Unknown {
                    reason: format!("{what}; the proof is incomplete"),
                }));
            }
            return Ok(Some(Verdict::True));
        };
        events.push(Event::StatePopped { state: e.0 });
        if self.fcover && refine::force_cover(&mut self.cpa, &mut self.algo, e, events)? {
            return Ok(None);
        }
        let exp = self.algo.expand(&cfa, &mut self.cpa, e, events)?;
        // abort as soon as a target state was added (CPA++'s abort_ERR).
        self.pending = exp.targets.first().copied();
        Ok(None)
    }

    fn stats(&self) -> AlgoStats {
        AlgoStats {
            states: self.algo.arg.len() as u64,
            refinements: self.refinements,
            solver_queries: self.cpa.smt.queries(),
            abstractions: self.cpa.stats.abstractions,
            predicates: self.cpa.table.len() as u64,
            bound: 0,
        }
    }

    fn abstraction_states(&self) -> u64 {
        self.algo
            .arg
            .alive()
            .filter(|n| n.covered_by.is_none() && n.data.is_abstraction())
            .count() as u64
    }
}

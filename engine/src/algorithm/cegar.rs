//! CEGAR (Algorithm 4 of the unifying-view paper) around CPA++ with the Predicate CPA: expand
//! until a target state is added, then refine; SAFE only when the waitlist is empty and nothing
//! was cut off.

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

pub struct Cegar {
    cfa: Rc<Cfa>,
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
                max_depth,
            },
        );
        Cegar {
            cfa,
            cpa,
            algo,
            strategy,
            pending: None,
            refinements: 0,
            started: false,
            fcover: false,
        }
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
            let name = match self.strategy {
                RefinementStrategy::Predicate => "predicate abstraction (CEGAR)",
                RefinementStrategy::Impact => "IMPACT (CEGAR)",
            };
            events.push(Event::Started {
                algorithm: name.into(),
                bound: None,
            });
            let ctl = self.algo.control.initial(&cfa);
            let data = self.cpa.initial_state(cfa.entry(), SsaMap::default());
            self.algo.init(
                &cfa,
                ctl,
                data,
                Rc::new(PredicatePrecision::default()),
                &self.cpa,
                events,
            );
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

//! CEGAR (Algorithm 4 of the unifying-view paper) around CPA++ with the Predicate CPA: expand
//! until a target state is added, then refine; SAFE only when the waitlist is empty, no target
//! state is left in the ARG, nothing was cut off, and the final ARG passed the certificate
//! check ([`crate::certificate`]).
//!
//! Every target an expansion adds is refined (one per step, in the order they were added),
//! not only the first: a second target left in the ARG would be an unrefined error path.
//! A call beyond the recursion bound yields a cut state that is refined like a target
//! ([`Goal::Cut`]): an infeasible path to it is refined away, so recursion bounded by the data
//! gets a proof; a feasible one stays cut.
//!
//! Recursion is inlined by the call stack up to a depth bound. The bound starts small and
//! doubles up to the configured `max-depth` whenever a complete ARG was cut by it (the run
//! restarts with the precision learned so far): before an abstraction knows the recursion
//! parameter, every call may recurse, and a binary recursion explored to depth 32 has 2^32
//! call stacks, while the bug of `fibo_2calls_2-1.c` sits at depth 2.

use super::{AlgoStats, Algorithm, Verdict};
use crate::cfa::Cfa;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::control::ControlCpa;
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::waitlist::WaitlistOrder;
use crate::events::Event;
use crate::formula::SsaMap;
use crate::predicate::refine::{self, Goal, Outcome, RefinementStrategy};
use crate::predicate::{PredicateCpa, PredicatePrecision};
use crate::smt::Result;
use std::collections::{BTreeSet, VecDeque};
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
    /// Targets and cut states waiting for refinement, in the order they were added.
    pending: VecDeque<(ArgId, Goal)>,
    /// Cut states whose path was found feasible (or could not be refined): they stay cut.
    kept_cuts: BTreeSet<ArgId>,
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
                cut_states: true,
            },
        );
        Cegar {
            cfa,
            order,
            max_depth,
            cpa,
            algo,
            strategy,
            pending: VecDeque::new(),
            kept_cuts: BTreeSet::new(),
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
        self.pending.clear();
        self.kept_cuts.clear();
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

    /// The analysis and the CPA++ state, for tests that tamper with a final ARG.
    #[cfg(test)]
    pub(crate) fn parts(&mut self) -> (&mut PredicateCpa, &mut CpaPlus<PredicateCpa>) {
        (&mut self.cpa, &mut self.algo)
    }
}

impl Cegar {
    /// Whether `id` is still a reached state (alive and not covered).
    fn reached(&self, id: ArgId) -> bool {
        let n = self.algo.arg.node(id);
        n.is_alive() && n.covered_by.is_none()
    }

    /// The alive, uncovered cut states (beyond the recursion bound).
    fn live_cuts(&self) -> Vec<ArgId> {
        self.algo
            .cut
            .iter()
            .map(|(s, _)| *s)
            .filter(|s| self.reached(*s))
            .collect()
    }

    /// Refines the path to `target`; `None` to go on.
    fn refine(
        &mut self,
        target: ArgId,
        goal: Goal,
        events: &mut Vec<Event>,
    ) -> Result<Option<Verdict>> {
        let outcome = refine::refine(
            &mut self.cpa,
            &mut self.algo,
            target,
            goal,
            self.strategy,
            events,
        )?;
        Ok(match outcome {
            Outcome::Feasible(counterexample) => Some(Verdict::False { counterexample }),
            Outcome::CutFeasible => {
                self.kept_cuts.insert(target);
                None
            }
            // A cut that cannot be refined stays cut (the run ends UNKNOWN if nothing else
            // decides it); an error path that cannot be refined ends the run.
            Outcome::Unknown(_) if goal == Goal::Cut => {
                self.kept_cuts.insert(target);
                None
            }
            Outcome::Unknown(reason) => Some(Verdict::Unknown { reason }),
            Outcome::Refined => {
                self.refinements += 1;
                if let Some(Event::Refined { refinement, .. }) = events.last_mut() {
                    *refinement = self.refinements as u32;
                }
                None
            }
        })
    }

    /// The waitlist is empty: deepen the recursion bound, give up, or prove.
    fn conclude(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        // Every target must have been refined away. A target still here would be an error
        // path nobody checked: refine it (CPA++ may only conclude SAFE from an empty waitlist
        // with no target in reached, the unifying-view digest's pitfall 14).
        let stray: Vec<ArgId> = self
            .algo
            .arg
            .alive()
            .filter(|n| n.covered_by.is_none() && self.cfa.node(n.ctl.location).is_error())
            .map(|n| n.id)
            .collect();
        if !stray.is_empty() {
            self.pending
                .extend(stray.into_iter().map(|t| (t, Goal::Error)));
            return Ok(None);
        }
        let cuts = self.live_cuts();
        if !cuts.is_empty() {
            let depth = self.algo.control.max_depth;
            if depth < self.max_depth {
                self.algo.control.max_depth = (2 * depth).min(self.max_depth);
                let learned = self
                    .algo
                    .arg
                    .alive()
                    .fold(PredicatePrecision::default(), |p, n| p.join(&n.prec));
                self.start(Rc::new(learned), events);
                return Ok(None);
            }
            return Ok(Some(Verdict::Unknown {
                reason: format!(
                    "the recursion depth bound ({depth}) was reached on a feasible path; the proof is incomplete"
                ),
            }));
        }
        crate::certificate::check_arg(&mut self.cpa, &self.algo, events)
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
        while let Some((target, goal)) = self.pending.pop_front() {
            // Earlier refinements may have removed or covered it.
            if self.reached(target) {
                return self.refine(target, goal, events);
            }
        }
        let Some(e) = self.algo.arg.pop() else {
            return self.conclude(events);
        };
        events.push(Event::StatePopped { state: e.0 });
        if self.fcover && refine::force_cover(&mut self.cpa, &mut self.algo, e, events)? {
            return Ok(None);
        }
        let exp = self.algo.expand(&cfa, &mut self.cpa, e, events)?;
        // abort as soon as a target state was added (CPA++'s abort_ERR): errors first, then
        // the paths into cut states.
        self.pending
            .extend(exp.targets.into_iter().map(|t| (t, Goal::Error)));
        self.pending
            .extend(exp.cuts.into_iter().map(|c| (c, Goal::Cut)));
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

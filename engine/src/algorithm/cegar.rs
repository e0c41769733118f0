//! CEGAR (Algorithm 4 of the unifying-view paper, Algorithm 3 of the efficient-CEGAR paper)
//! around CPA++ with any data CPA and its refiner: expand until a target state is added, then
//! refine; SAFE only when the waitlist is empty, no target state is left in the ARG, nothing
//! was cut off, and the final ARG passed the analysis' certificate check
//! ([`crate::proof::certificate`]).
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

use crate::cpa::algorithm::Stats;

use crate::cpa::algorithm::Algorithm;

use crate::cfa::Cfa;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::control::ControlCpa;
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::waitlist::WaitlistOrder;
use crate::cpa::{Cpa, Describe, Precision};
use crate::events::{Event, StateKind};
use crate::proof::certificate::Certifier;
use crate::refinement::{Goal, Outcome, Refiner};
use crate::smt::{Result, Smt};
use crate::verdict::Verdict;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;

/// The first recursion depth bound (see the module documentation).
const INITIAL_DEPTH: usize = 8;

/// The parts of a CEGAR analysis: the data CPA, its refiner and its certificate check.
pub struct Parts<C: Describe> {
    pub name: String,
    pub cpa: C,
    pub refiner: Box<dyn Refiner<C>>,
    pub certifier: Box<dyn Certifier<C>>,
    /// An error path that can be neither confirmed nor refined does not end the run: it stays
    /// in the ARG, undecided, and exploration goes on, so that another error path may still
    /// be confirmed (FALSE); TRUE is then impossible. The value analysis meets such paths
    /// whenever they depend on values it does not know.
    pub keep_going: bool,
    /// Multiple counterexamples (the efficient-CEGAR paper's `MULTI_SEQ`): exploration does
    /// not stop at a target; when the waitlist is empty, all targets are refined at once.
    pub multi_cex: bool,
}

/// A precision to start from and its predicates as the views show them (by location), or why
/// the given predicates cannot be used.
pub type Initial<P> = std::result::Result<(P, Vec<(u32, String)>), String>;

/// How the first step computes the precision to start from: against the analysis' CPA (its
/// predicate table) and with the run's solver (invariants proved before the search starts).
pub type Seed<C> = Box<dyn FnOnce(&mut C, &mut dyn Smt) -> Result<Initial<<C as Cpa>::Prec>>>;

pub struct Cegar<C: Describe> {
    cfa: Rc<Cfa>,
    order: WaitlistOrder,
    /// The configured bound; `algo.control.max_depth` is the current one.
    max_depth: usize,
    name: String,
    cpa: C,
    smt: Box<dyn Smt>,
    algo: CpaPlus<C>,
    refiner: Box<dyn Refiner<C>>,
    certifier: Box<dyn Certifier<C>>,
    /// Targets and cut states waiting for refinement, in the order they were added.
    pending: VecDeque<(ArgId, Goal)>,
    /// Cut states whose path was found feasible (or could not be refined): they stay cut.
    kept_cuts: BTreeSet<ArgId>,
    keep_going: bool,
    multi_cex: bool,
    /// With `multi_cex`: the targets added since the last refinement.
    collected: Vec<ArgId>,
    /// Targets whose path could be neither confirmed nor refined (with `keep_going`), and why.
    undecided: BTreeMap<ArgId, String>,
    refinements: u64,
    started: bool,
    /// How the first step computes a precision to start from (predicates given by hand or
    /// proved invariants) and how it is shown, or why the given predicates cannot be used
    /// (the first step answers UNKNOWN with it).
    initial: Option<Seed<C>>,
    /// Never refine: a path to an error ends the run UNKNOWN (the predicate exercise).
    fixed: bool,
}

impl<C: Describe> Cegar<C> {
    /// Starts from the precision `seed` computes in the first step instead of the empty
    /// precision (an `Err`: the first step ends the run with that reason).
    pub fn with_initial_precision(mut self, seed: Seed<C>) -> Self {
        self.initial = Some(seed);
        self
    }

    /// Never refines: the first path to an error ends the run UNKNOWN, naming the line.
    pub fn without_refinement(mut self) -> Self {
        self.fixed = true;
        self
    }

    /// The reason a run without refinement ends at `target`.
    fn not_refined(&self, target: ArgId) -> crate::smt::EngineError {
        let line = self.cfa.node(self.algo.arg.node(target).ctl.location).line;
        crate::smt::EngineError::Unsupported(format!(
            "the precision does not rule out the path to the error at line {line} \
             (refinement is off: max-refinements=0)"
        ))
    }

    pub fn new(
        cfa: Rc<Cfa>,
        parts: Parts<C>,
        smt: Box<dyn Smt>,
        order: WaitlistOrder,
        max_depth: usize,
    ) -> Cegar<C> {
        let mut algo = CpaPlus::new(
            Arg::new(order),
            ControlCpa {
                loop_bound: None,
                max_depth: max_depth.min(INITIAL_DEPTH),
                cut_states: true,
            },
        );
        algo.uncovered_targets = parts.keep_going || parts.multi_cex;
        Cegar {
            cfa,
            order,
            max_depth,
            name: parts.name,
            cpa: parts.cpa,
            smt,
            algo,
            refiner: parts.refiner,
            certifier: parts.certifier,
            pending: VecDeque::new(),
            kept_cuts: BTreeSet::new(),
            keep_going: parts.keep_going,
            multi_cex: parts.multi_cex,
            collected: Vec::new(),
            undecided: BTreeMap::new(),
            refinements: 0,
            started: false,
            initial: None,
            fixed: false,
        }
    }

    /// A fresh ARG from the initial state with precision `prec` (the first run, and restarts
    /// with a deeper recursion bound).
    fn start(&mut self, prec: Rc<C::Prec>, events: &mut Vec<Event>) {
        let cfa = self.cfa.clone();
        let depth = self.algo.control.max_depth;
        // A restart says why.
        let algorithm = if !self.algo.arg.is_empty() {
            format!("{}, recursion depth {depth}", self.name)
        } else {
            self.name.clone()
        };
        self.algo = CpaPlus::new(Arg::new(self.order), self.algo.control.clone());
        self.algo.uncovered_targets = self.keep_going || self.multi_cex;
        self.pending.clear();
        self.collected.clear();
        self.kept_cuts.clear();
        self.undecided.clear();
        events.push(Event::Started {
            algorithm,
            bound: None,
        });
        let ctl = self.algo.control.initial(&cfa);
        let data = self.cpa.initial_state(&ctl);
        self.algo.init(&cfa, ctl, data, prec, &self.cpa, events);
    }

    pub fn arg(&self) -> &Arg<C::State, C::Prec> {
        &self.algo.arg
    }

    /// The analysis, the solver and the CPA++ state, for tests that tamper with a final ARG.
    #[cfg(test)]
    pub(crate) fn parts(&mut self) -> (&mut C, &mut dyn Smt, &mut CpaPlus<C>) {
        (&mut self.cpa, self.smt.as_mut(), &mut self.algo)
    }

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
        if self.fixed {
            return Err(self.not_refined(target));
        }
        let cfa = self.cfa.clone();
        let outcome = self.refiner.refine(
            &cfa,
            &mut self.cpa,
            self.smt.as_mut(),
            &mut self.algo,
            target,
            goal,
            events,
        )?;
        let (verdict, refined) = self.absorb(target, goal, outcome);
        if refined {
            self.count_refinement(events);
        }
        Ok(verdict)
    }

    /// Takes in the outcome of refining the path to `target`: the verdict it decides, if
    /// any, and whether it refined the ARG.
    fn absorb(&mut self, target: ArgId, goal: Goal, outcome: Outcome) -> (Option<Verdict>, bool) {
        let verdict = match outcome {
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
            Outcome::Unknown(reason) if self.keep_going => {
                self.undecided.insert(target, reason);
                None
            }
            Outcome::Unknown(reason) => Some(Verdict::Unknown { reason }),
            Outcome::Refined => return (None, true),
        };
        (verdict, false)
    }

    /// One more refinement: its number goes into the `Refined` events it pushed.
    fn count_refinement(&mut self, events: &mut [Event]) {
        self.refinements += 1;
        for e in events.iter_mut().rev() {
            match e {
                Event::Refined { refinement, .. } if *refinement == 0 => {
                    *refinement = self.refinements as u32
                }
                Event::Refined { .. } => break,
                _ => {}
            }
        }
    }

    /// Refines all collected targets at once (multiple counterexamples); `None` to go on.
    fn refine_collected(
        &mut self,
        targets: Vec<ArgId>,
        events: &mut Vec<Event>,
    ) -> Result<Option<Verdict>> {
        if let (true, Some(t)) = (self.fixed, targets.first()) {
            return Err(self.not_refined(*t));
        }
        let cfa = self.cfa.clone();
        let outcomes = self.refiner.refine_many(
            &cfa,
            &mut self.cpa,
            self.smt.as_mut(),
            &mut self.algo,
            &targets,
            events,
        )?;
        let mut refined = false;
        for (target, outcome) in outcomes {
            let (verdict, r) = self.absorb(target, Goal::Error, outcome);
            if verdict.is_some() {
                return Ok(verdict);
            }
            refined |= r;
        }
        if refined {
            self.count_refinement(events);
        }
        Ok(None)
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
            .filter(|n| {
                n.covered_by.is_none()
                    && self.cfa.node(n.ctl.location).is_error()
                    && !self.undecided.contains_key(&n.id)
            })
            .map(|n| n.id)
            .collect();
        if !stray.is_empty() {
            self.pending
                .extend(stray.into_iter().map(|t| (t, Goal::Error)));
            return Ok(None);
        }
        if let Some(reason) = self.undecided.values().next() {
            let n = self.undecided.len();
            return Ok(Some(Verdict::Unknown {
                reason: if n == 1 {
                    reason.clone()
                } else {
                    format!("{reason} ({n} error paths undecided)")
                },
            }));
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
                    .fold(C::Prec::default(), |p, n| p.join(&n.prec));
                self.start(Rc::new(learned), events);
                return Ok(None);
            }
            return Ok(Some(Verdict::Unknown {
                reason: format!(
                    "the recursion depth bound ({depth}) was reached on a feasible path; the proof is incomplete"
                ),
            }));
        }
        crate::proof::certificate::check_arg(
            self.certifier.as_mut(),
            &mut self.cpa,
            self.smt.as_mut(),
            &self.algo,
            events,
        )
    }
}

impl<C: Describe> Algorithm for Cegar<C> {
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        let cfa = self.cfa.clone();
        if !self.started {
            self.started = true;
            let initial = match self.initial.take() {
                Some(seed) => Some(seed(&mut self.cpa, self.smt.as_mut())?),
                None => None,
            };
            match initial {
                Some(Err(why)) => return Err(crate::smt::EngineError::Unsupported(why)),
                Some(Ok((prec, shown))) => {
                    self.start(Rc::new(prec), events);
                    // The given predicates, where the views list learned ones.
                    events.push(Event::PrecisionRefined { added: shown });
                }
                None => self.start(Rc::new(C::Prec::default()), events),
            }
            return Ok(None);
        }
        while let Some((target, goal)) = self.pending.pop_front() {
            // Earlier refinements may have removed or covered it.
            if self.reached(target) {
                return self.refine(target, goal, events);
            }
        }
        let Some(e) = self.algo.arg.pop() else {
            let targets: Vec<ArgId> = std::mem::take(&mut self.collected)
                .into_iter()
                .filter(|t| self.reached(*t) && !self.undecided.contains_key(t))
                .collect();
            if !targets.is_empty() {
                return self.refine_collected(targets, events);
            }
            return self.conclude(events);
        };
        events.push(Event::StatePopped { state: e.0 });
        if self.refiner.force_cover(
            &cfa,
            &mut self.cpa,
            self.smt.as_mut(),
            &mut self.algo,
            e,
            events,
        )? {
            return Ok(None);
        }
        let exp = self
            .algo
            .expand(&cfa, &mut self.cpa, self.smt.as_mut(), e, events)?;
        // abort as soon as a target state was added (CPA++'s abort_ERR): errors first, then
        // the paths into cut states. With multiple counterexamples, targets wait until the
        // waitlist is empty.
        if self.multi_cex {
            self.collected.extend(exp.targets);
        } else {
            self.pending
                .extend(exp.targets.into_iter().map(|t| (t, Goal::Error)));
        }
        self.pending
            .extend(exp.cuts.into_iter().map(|c| (c, Goal::Cut)));
        Ok(None)
    }

    fn stats(&self) -> Stats {
        let c = self.cpa.counters();
        Stats {
            states: self.algo.arg.len() as u64,
            refinements: self.refinements,
            solver_queries: self.smt.queries(),
            cache_hits: self.smt.cache_hits(),
            solver_work: self.smt.work(),
            abstractions: c.abstractions,
            predicates: c.precision,
            bound: 0,
            ..Stats::default()
        }
    }

    fn invariants(&self) -> Vec<crate::invariants::LocationInvariant> {
        self.certifier.invariants(&self.cpa, &self.algo)
    }

    fn abstraction_states(&self) -> u64 {
        self.algo
            .arg
            .alive()
            .filter(|n| n.covered_by.is_none() && self.cpa.kind(&n.data) == StateKind::Abstraction)
            .count() as u64
    }
}

#[cfg(test)]
mod tests;

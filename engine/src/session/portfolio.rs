//! A sequential portfolio: analyses run one after another on the same program, each with a
//! budget of solver queries and its preset's own step, state and refinement limits (counts,
//! never time, so that a portfolio run is as deterministic as its components and replays
//! exactly in the browser). The first TRUE or FALSE ends the run and names the component
//! that decided; a component that ends without a verdict (its budget, its limits, or its own
//! UNKNOWN) hands over to the next one, and the switch is an event
//! ([`Event::Component`]). Every component answers as it would alone: a FALSE carries a
//! concretely validated counterexample, a CEGAR TRUE has passed the certificate check.
//!
//! A component that is the same analysis as one that already ended for a reason other than
//! its query budget (its own UNKNOWN, its step, state or refinement limit) is skipped: the
//! engine is deterministic and the solver context is fresh for each component, so it would
//! end the same way, only a larger budget is not used. The skip is a component event with
//! that reason, as if the component had run.

use crate::cfa::Cfa;
use crate::cpa::algorithm::{Algorithm, Stats};
use crate::events::Event;
use crate::session::config::{Component, Config};
use crate::smt::{EngineError, Result, Smt};
use crate::verdict::{StopReason, Verdict};
use solver_bridge::term::Term;
use std::cell::RefCell;
use std::rc::Rc;

/// One solver for every component: each gets a handle, the portfolio keeps one to set the
/// component's query budget and interpolation strategy.
#[derive(Clone)]
pub struct SharedSmt(Rc<RefCell<Box<dyn Smt>>>);

impl SharedSmt {
    pub fn new(smt: Box<dyn Smt>) -> SharedSmt {
        SharedSmt(Rc::new(RefCell::new(smt)))
    }
}

impl Smt for SharedSmt {
    fn check(&mut self, formulas: &[Term]) -> Result<crate::smt::Sat> {
        self.0.borrow_mut().check(formulas)
    }
    fn check_uncached(&mut self, formulas: &[Term]) -> Result<crate::smt::Sat> {
        self.0.borrow_mut().check_uncached(formulas)
    }
    fn check_uncached_values(
        &mut self,
        formulas: &[Term],
        terms: &[Term],
    ) -> Result<(crate::smt::Sat, Option<Vec<Term>>)> {
        self.0.borrow_mut().check_uncached_values(formulas, terms)
    }
    fn check_preprocessed(&mut self, formulas: &[Term]) -> Result<crate::smt::Sat> {
        self.0.borrow_mut().check_preprocessed(formulas)
    }
    fn model(&mut self, formulas: &[Term], terms: &[Term]) -> Result<Option<Vec<Term>>> {
        self.0.borrow_mut().model(formulas, terms)
    }
    fn all_sat(&mut self, formula: &Term, bools: &[Term], limit: usize) -> Result<Vec<Vec<bool>>> {
        self.0.borrow_mut().all_sat(formula, bools, limit)
    }
    fn interpolate(&mut self, sequence: &[Term]) -> Result<Vec<Term>> {
        self.0.borrow_mut().interpolate(sequence)
    }
    fn queries(&self) -> u64 {
        self.0.borrow().queries()
    }
    fn cache_hits(&self) -> u64 {
        self.0.borrow().cache_hits()
    }
    fn set_resource_limit(&mut self, limit: Option<u64>) -> Result<()> {
        self.0.borrow_mut().set_resource_limit(limit)
    }
    fn resource_limit(&self) -> Option<u64> {
        self.0.borrow().resource_limit()
    }
    fn set_interpolation(&mut self, strategy: solver_bridge::itp::Strategy) {
        self.0.borrow_mut().set_interpolation(strategy)
    }
    fn set_query_limit(&mut self, limit: Option<u64>) {
        self.0.borrow_mut().set_query_limit(limit)
    }
    fn work(&self) -> u64 {
        self.0.borrow().work()
    }
    fn set_work_limit(&mut self, limit: Option<u64>) {
        self.0.borrow_mut().set_work_limit(limit)
    }
    fn reset(&mut self) -> Result<()> {
        self.0.borrow_mut().reset()
    }
}

/// Adds a component's counts of work (states, refinements, abstractions) to `into`.
fn add_work(into: &mut Stats, s: &Stats) {
    into.states += s.states;
    into.refinements += s.refinements;
    into.abstractions += s.abstractions;
}

/// How a component ended without a verdict.
struct Ended {
    index: usize,
    reason: String,
    /// Whether the same analysis would end so again with any budget (its own UNKNOWN or
    /// preset limits; not its query budget, not a failure of the solver process).
    repeatable: bool,
}

/// The component running now.
struct Running {
    index: usize,
    config: Config,
    algorithm: Box<dyn Algorithm>,
    /// Its own steps so far (the session counts the portfolio's).
    steps: u64,
    /// Solver queries answered before it started.
    queries_before: u64,
    /// The solver's work before it started, and its share of the run's ([`Portfolio::share`]).
    work_before: u64,
    work_share: u64,
}

/// Builds a component's analysis (the session's builder, handed in so that the portfolio
/// does not import it back: [`crate::session::build::build`]).
pub type Builder = fn(Rc<Cfa>, &Config, Box<dyn Smt>) -> Box<dyn Algorithm>;

pub struct Portfolio {
    cfa: Rc<Cfa>,
    build: Builder,
    components: Vec<Component>,
    smt: SharedSmt,
    /// The whole run's query limit (the session's).
    max_queries: u64,
    /// The whole run's solver work limit (the session's).
    max_work: u64,
    current: Option<Running>,
    /// The next component to start.
    next: usize,
    /// Each finished component's end, in order.
    ended: Vec<Ended>,
    /// Counters of the finished components, summed.
    done: Stats,
}

impl Portfolio {
    pub fn new(cfa: Rc<Cfa>, config: &Config, smt: Box<dyn Smt>, build: Builder) -> Portfolio {
        Portfolio {
            cfa,
            build,
            components: config.portfolio.clone(),
            smt: SharedSmt::new(smt),
            max_queries: config.limits.max_queries,
            max_work: config.limits.max_solver_work,
            current: None,
            next: 0,
            ended: Vec::new(),
            done: Stats::default(),
        }
    }

    /// Starts the next component, or answers UNKNOWN when none is left.
    fn start_next(&mut self, events: &mut Vec<Event>) -> Option<Verdict> {
        let Some(component) = self.components.get(self.next) else {
            let why: Vec<String> = self
                .ended
                .iter()
                .map(|e| format!("{}: {}", self.components[e.index].preset, e.reason))
                .collect();
            return Some(Verdict::Unknown {
                reason: format!("no component of the portfolio decided ({})", why.join("; ")),
            });
        };
        let index = self.next;
        self.next += 1;
        // Validated with the portfolio's configuration.
        let config = match component.config() {
            Ok(c) => c,
            Err(e) => {
                return Some(Verdict::Unknown {
                    reason: format!("invalid portfolio component: {e}"),
                })
            }
        };
        events.push(Event::Component {
            index: index as u32,
            of: self.components.len() as u32,
            preset: component.preset.name().to_string(),
            component: component.text(),
            previous: self.ended.last().map(|e| e.reason.clone()),
        });
        if let Some(same) = self.ended.iter().find(|e| {
            e.repeatable && {
                let c = &self.components[e.index];
                c.preset == component.preset && c.settings == component.settings
            }
        }) {
            let reason = format!(
                "the same analysis as component {} ({}), which ended without a verdict: {}",
                same.index + 1,
                self.components[same.index].text(),
                same.reason
            );
            self.ended.push(Ended {
                index,
                reason,
                repeatable: false,
            });
            return self.start_next(events);
        }
        // A fresh solver context: nothing the previous component left (levels, a context
        // poisoned by an error) reaches this one. The reset is a round trip of the run's,
        // not of the component's budget.
        self.smt.set_query_limit(Some(self.max_queries));
        self.smt.set_work_limit(Some(self.max_work));
        let rlimit = config.limits.solver_rlimit;
        let fresh = self
            .smt
            .reset()
            .and_then(|()| self.smt.set_resource_limit((rlimit > 0).then_some(rlimit)));
        if let Err(e) = fresh {
            return Some(Verdict::Unknown {
                reason: format!("the solver could not be reset for the next component: {e}"),
            });
        }
        let queries_before = self.smt.queries();
        let limit = queries_before
            .saturating_add(component.queries)
            .min(self.max_queries);
        self.smt.set_query_limit(Some(limit));
        let work_before = self.smt.work();
        let work_share = self.share(index, work_before);
        self.smt.set_work_limit(Some(
            work_before.saturating_add(work_share).min(self.max_work),
        ));
        self.smt.set_interpolation(config.interpolation);
        let algorithm = (self.build)(self.cfa.clone(), &config, Box::new(self.smt.clone()));
        self.current = Some(Running {
            index,
            config,
            algorithm,
            steps: 0,
            queries_before,
            work_before,
            work_share,
        });
        None
    }

    /// Component `index`'s share of the solver work: what the components before it left of
    /// the run's, divided equally among it and the ones after it. So the portfolio ends
    /// within the run's work limit however its components end, no component can starve the
    /// later ones (their query budgets say how many queries, not how hard), and a component
    /// that ends early leaves its rest to the later ones.
    fn share(&self, index: usize, used: u64) -> u64 {
        let left = self.max_work.saturating_sub(used);
        let remaining = (self.components.len() - index).max(1) as u64;
        left / remaining
    }

    /// The whole run's limit of queries or solver work, once reached (it ends the run, not
    /// only the component).
    fn run_limit(&self) -> Option<StopReason> {
        if self.smt.queries() >= self.max_queries {
            Some(StopReason::Queries(self.max_queries))
        } else if self.smt.work() >= self.max_work {
            Some(StopReason::SolverWork(self.max_work))
        } else {
            None
        }
    }

    /// Ends the running component without a verdict.
    fn end_current(&mut self, reason: String, repeatable: bool) {
        if let Some(r) = self.current.take() {
            add_work(&mut self.done, &r.algorithm.stats());
            self.ended.push(Ended {
                index: r.index,
                reason,
                repeatable,
            });
        }
    }

    /// Why the running component must stop before its next step, if it must: its budget
    /// and its preset's own limits, as a session would check them; with whether the reason
    /// is repeatable (see [`Ended`]).
    fn over_budget(r: &Running, queries: u64, work: u64) -> Option<(String, bool)> {
        let s = r.algorithm.stats();
        let l = &r.config.limits;
        if queries - r.queries_before >= l.max_queries {
            Some((StopReason::Budget(l.max_queries).to_string(), false))
        } else if work - r.work_before >= r.work_share {
            Some((StopReason::WorkBudget(r.work_share).to_string(), false))
        } else {
            l.reached(r.steps, s.states, s.refinements, 0, 0)
                .map(|why| (why.to_string(), true))
        }
    }
}

impl Algorithm for Portfolio {
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        if let Some(reason) = self.run_limit() {
            return Err(EngineError::Stopped(reason));
        }
        let (queries, work) = (self.smt.queries(), self.smt.work());
        if let Some((reason, repeatable)) = self
            .current
            .as_ref()
            .and_then(|r| Self::over_budget(r, queries, work))
        {
            self.end_current(reason, repeatable);
        }
        let Some(r) = self.current.as_mut() else {
            return Ok(self.start_next(events));
        };
        r.steps += 1;
        match r.algorithm.step(events) {
            Ok(None) => Ok(None),
            Ok(Some(Verdict::Unknown { reason })) => {
                self.end_current(reason, true);
                Ok(None)
            }
            Ok(Some(v)) => Ok(Some(v)),
            // The whole run's limits end the run; the component's budget (the bridge
            // refuses the queries beyond it) or any other error ends the component.
            Err(e) if self.run_limit().is_some() => Err(e),
            Err(e) => {
                let (queries, work) = (self.smt.queries(), self.smt.work());
                let (reason, repeatable) = match self
                    .current
                    .as_ref()
                    .and_then(|r| Self::over_budget(r, queries, work))
                {
                    Some(budget) => budget,
                    None => {
                        let rlimit = self
                            .current
                            .as_ref()
                            .map_or(0, |r| r.config.limits.solver_rlimit);
                        (e.reason(rlimit), !matches!(e, EngineError::Solver(_)))
                    }
                };
                self.end_current(reason, repeatable);
                Ok(None)
            }
        }
    }

    fn stats(&self) -> Stats {
        let mut s = self.done.clone();
        if let Some(r) = &self.current {
            let c = r.algorithm.stats();
            add_work(&mut s, &c);
            s.predicates = c.predicates;
            s.bound = c.bound;
        }
        s.solver_queries = self.smt.queries();
        s.cache_hits = self.smt.cache_hits();
        s.solver_work = self.smt.work();
        s
    }

    fn abstraction_states(&self) -> u64 {
        self.current
            .as_ref()
            .map_or(0, |r| r.algorithm.abstraction_states())
    }

    fn invariants(&self) -> Vec<crate::invariants::LocationInvariant> {
        self.current
            .as_ref()
            .map_or_else(Vec::new, |r| r.algorithm.invariants())
    }
}

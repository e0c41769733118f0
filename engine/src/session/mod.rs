//! A verification run as a stepping machine (what the playground steps; ARCHITECTURE.md).
//! The session owns the algorithm, the event log and the limits. Stepping forward runs the
//! algorithm one unit at a time until the requested granularity is reached; stepping backward
//! is replaying a prefix of the event log ([`crate::session::view`], [`Session::view_at`]), so the
//! engine never needs to undo work.

pub mod build;
pub mod config;
pub mod portfolio;
pub mod report;
pub mod view;

pub use crate::cpa::algorithm::Stats;

use crate::cpa::algorithm::Algorithm;

use crate::cfa::Cfa;
use crate::events::Event;
use crate::session::config::Config;
use crate::smt::{EngineError, Smt};
use crate::verdict::{StopReason, Verdict};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// How far one step goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Granularity {
    /// At least one new event.
    Event,
    /// Up to and including the next waitlist pop's expansion.
    Pop,
    /// Up to the next abstraction computation.
    Abstraction,
    /// Up to the end of the next refinement.
    Refinement,
    /// To the verdict.
    End,
    /// Up to the next state added at this CFA location (compare mode's "to the same
    /// location").
    Location(u32),
}

impl Granularity {
    /// Whether `e` ends a step of this granularity (the one check, which the page's stepping
    /// uses too).
    pub fn reached_by(self, e: &Event) -> bool {
        match self {
            Granularity::Event => true,
            Granularity::Pop => matches!(e, Event::StatePopped { .. }),
            Granularity::Abstraction => matches!(e, Event::Abstraction { .. }),
            Granularity::Refinement => matches!(e, Event::Refined { .. }),
            Granularity::End => false,
            Granularity::Location(l) => {
                matches!(e, Event::StateAdded { location, .. } if *location == l)
            }
        }
    }
}

/// The algorithm of a session whose configuration was refused.
struct Refused(String);

impl Algorithm for Refused {
    fn step(&mut self, _: &mut Vec<Event>) -> crate::smt::Result<Option<Verdict>> {
        Ok(Some(Verdict::Unknown {
            reason: self.0.clone(),
        }))
    }

    fn stats(&self) -> Stats {
        Stats::default()
    }
}

pub struct Session {
    algorithm: Box<dyn Algorithm>,
    pub config: Config,
    events: Vec<Event>,
    verdict: Option<Verdict>,
    steps: u64,
}

impl Session {
    /// A session of `config` on `cfa`. A configuration that fails [`Config::validate`] (one
    /// deserialized from JSON, say) is not run: its first step answers UNKNOWN with the reason.
    pub fn new(cfa: Rc<Cfa>, config: Config, smt: Box<dyn Smt>) -> Session {
        Session::with_query_cache(cfa, config, smt, true)
    }

    /// [`Session::new`], with or without the query cache ([`crate::smt::cache`]; without
    /// it only to measure what the cache saves: `CPA_NO_QUERY_CACHE=1 cpa bench ...`).
    pub fn with_query_cache(
        cfa: Rc<Cfa>,
        config: Config,
        smt: Box<dyn Smt>,
        cache: bool,
    ) -> Session {
        if let Err(e) = config.validate() {
            return Session {
                algorithm: Box::new(Refused(format!("invalid configuration: {e}"))),
                config,
                events: Vec::new(),
                verdict: None,
                steps: 0,
            };
        }
        let mut smt: Box<dyn Smt> = if cache {
            Box::new(crate::smt::cache::CachedSmt::new(smt))
        } else {
            smt
        };
        let rlimit = config.limits.solver_rlimit;
        // A failure here surfaces on the first query (the context is poisoned), as UNKNOWN.
        let _ = smt.set_resource_limit((rlimit > 0).then_some(rlimit));
        smt.set_interpolation(config.interpolation);
        smt.set_query_limit(Some(config.limits.max_queries));
        smt.set_work_limit(Some(config.limits.max_solver_work));
        let algorithm = crate::session::build::build(cfa, &config, smt);
        Session {
            algorithm,
            config,
            events: Vec::new(),
            verdict: None,
            steps: 0,
        }
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The ARG as it was after the first `n` events (backward stepping: `n` smaller than
    /// `events().len()`; larger values mean all events so far).
    pub fn view_at(&self, n: usize) -> crate::session::view::ArgView {
        crate::session::view::ArgView::replay(&self.events[..n.min(self.events.len())])
    }

    pub fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// After TRUE: the invariants by location the proof rests on (for a correctness witness).
    pub fn invariants(&self) -> Vec<crate::invariants::LocationInvariant> {
        match self.verdict() {
            Some(Verdict::True) => self.algorithm.invariants(),
            _ => Vec::new(),
        }
    }

    /// After a portfolio's TRUE or FALSE: the preset of the component that decided it.
    pub fn decided_by(&self) -> Option<&str> {
        crate::events::decided_by(&self.events)
    }

    pub fn is_finished(&self) -> bool {
        self.verdict.is_some()
    }

    pub fn stats(&self) -> Stats {
        Stats {
            steps: self.steps,
            abstraction_states: self.algorithm.abstraction_states(),
            ..self.algorithm.stats()
        }
    }

    fn finish(&mut self, v: Verdict) {
        self.events.push(Event::Verdict {
            verdict: v.kind(),
            reason: v.reason().map(str::to_string),
        });
        self.verdict = Some(v);
    }

    fn check_limits(&self) -> Option<StopReason> {
        let s = self.algorithm.stats();
        self.config.limits.reached(
            self.steps,
            s.states,
            s.refinements,
            s.solver_queries,
            s.solver_work,
        )
    }

    /// Runs one unit of the algorithm. Returns false once the run has a verdict.
    pub fn step_unit(&mut self) -> bool {
        if self.verdict.is_some() {
            return false;
        }
        if let Some(reason) = self.check_limits() {
            self.stopped(reason);
            return false;
        }
        self.steps += 1;
        let mut new = Vec::new();
        let result = self.algorithm.step(&mut new);
        self.events.extend(new);
        match result {
            Ok(None) => true,
            Ok(Some(v)) => {
                self.finish(v);
                false
            }
            Err(EngineError::Stopped(reason)) => {
                self.stopped(reason);
                false
            }
            Err(e) => {
                self.finish(Verdict::Unknown {
                    reason: e.reason(self.config.limits.solver_rlimit),
                });
                false
            }
        }
    }

    /// Ends the run on a limit, saying how far it got, so that the user knows what to raise.
    fn stopped(&mut self, reason: StopReason) {
        let reason = format!(
            "{reason} ({})",
            progress(self.steps, &self.algorithm.stats())
        );
        self.finish(Verdict::Unknown { reason });
    }

    /// Steps until the granularity is reached (or the run ends). Returns the index of the first
    /// new event.
    pub fn advance(&mut self, g: Granularity) -> usize {
        let start = self.events.len();
        loop {
            let before = self.events.len();
            if !self.step_unit() {
                break;
            }
            let done = self.events[before..].iter().any(|e| g.reached_by(e));
            if done {
                break;
            }
        }
        start
    }

    /// Runs to the verdict.
    pub fn run(&mut self) -> &Verdict {
        self.advance(Granularity::End);
        self.verdict
            .as_ref()
            .expect("a finished session has a verdict")
    }
}

/// How far a run got: its steps, unrolling depth, refinements, states and solver queries, as
/// an UNKNOWN on a limit reports them ("after 600 steps: 8 refinements, 616 states, 610
/// solver queries").
fn progress(steps: u64, s: &Stats) -> String {
    let mut parts = Vec::new();
    if s.bound > 0 {
        parts.push(format!("unrolled to depth {}", s.bound));
    }
    if s.refinements > 0 {
        parts.push(format!("{} refinements", s.refinements));
    }
    parts.push(format!("{} states", s.states));
    parts.push(format!("{} solver queries", s.solver_queries));
    format!("after {steps} steps: {}", parts.join(", "))
}

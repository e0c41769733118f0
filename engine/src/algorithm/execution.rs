//! Concrete execution with loop acceleration ([`crate::accel`]) as a stepping analysis: for a
//! program whose run does not depend on inputs, the run is its only execution, so reaching
//! the error is FALSE (the run is the counterexample) and ending without it is TRUE. Loops
//! whose iterations repeat one path with every variable changed by a constant are skipped by
//! their closed form, so runs of 10^9 iterations and more take a few hundred steps (the
//! SV-COMP loop-acceleration tasks), each jump checked by executing its last iteration.
//!
//! The ARG is the run: a state at the program entry, at every arrival at a loop head or
//! function entry, after every return, after every jump and at the end; one algorithm step
//! takes the last state (a waitlist of one) and runs to the next of them. A run that needs an input (a nondeterministic value, an
//! uninitialised local that is read) ends UNKNOWN: the other analyses decide those programs.

use super::{AlgoStats, Algorithm, Verdict};
use crate::accel::{self, NoInput, RunError, Runner, Step};
use crate::cfa::{Cfa, EdgeId, EdgeKind, NodeKind};
use crate::concrete::{ExecError, TraceStep};
use crate::counterexample::Counterexample;
use crate::events::{Event, StateKind};
use crate::smt::Result;
use std::collections::VecDeque;
use std::rc::Rc;

/// The steps of the run a counterexample keeps (the last ones).
pub const MAX_TRACE: usize = 10_000;

/// Longest state label put into an event.
const MAX_LABEL: usize = 400;

pub struct Execution {
    cfa: Rc<Cfa>,
    runner: Runner,
    trace: VecDeque<TraceStep>,
    dropped: usize,
    /// The ARG states: the last one added, and how many.
    last: Option<u32>,
    states: u64,
    /// ARG states along the run (the counterexample's states).
    path: Vec<u32>,
}

impl Execution {
    pub fn new(cfa: Rc<Cfa>) -> Execution {
        let runner = Runner::new(&cfa);
        Execution {
            cfa,
            runner,
            trace: VecDeque::new(),
            dropped: 0,
            last: None,
            states: 0,
            path: Vec::new(),
        }
    }

    fn record(&mut self, step: TraceStep) {
        if self.trace.len() == MAX_TRACE {
            self.trace.pop_front();
            self.dropped += 1;
        }
        self.trace.push_back(step);
    }

    fn label(&self) -> String {
        let values = self.runner.machine.visible_values(&self.cfa);
        if values.is_empty() {
            return "no value yet".into();
        }
        let mut out = String::new();
        for (name, v) in values {
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(&format!("{name} = {v}"));
            if out.len() > MAX_LABEL {
                out.push('…');
                break;
            }
        }
        out
    }

    /// A new state at the runner's location, reached from the last one by `edge`.
    fn add_state(&mut self, edge: Option<EdgeId>, events: &mut Vec<Event>) -> u32 {
        let id = self.states as u32;
        self.states += 1;
        let location = self.runner.location();
        let parents = match (self.last, edge) {
            (Some(p), Some(e)) => vec![(p, e.0)],
            _ => Vec::new(),
        };
        events.push(Event::StateAdded {
            state: id,
            location: location.0,
            parents,
            kind: StateKind::Plain,
            label: self.label(),
            depth: self.runner.machine.depth().saturating_sub(1) as u32,
            target: self.cfa.node(location).is_error(),
        });
        self.last = Some(id);
        self.path.push(id);
        id
    }

    fn counterexample(&self) -> Counterexample {
        let mut trace: Vec<TraceStep> = self.trace.iter().cloned().collect();
        if self.dropped > 0 {
            if let Some(first) = trace.first() {
                let note = TraceStep {
                    edge: first.edge,
                    line: first.line,
                    op: format!("… {} earlier steps not shown …", self.dropped),
                    values: Default::default(),
                };
                trace.insert(0, note);
            }
        }
        Counterexample {
            trace,
            states: self.path.clone(),
        }
    }

    fn unknown(&self, e: RunError) -> Verdict {
        let reason = match e {
            RunError::Exec(ExecError::NoValue { var, .. }) => {
                let line = self.cfa.node(self.runner.location()).line;
                // A temporary of the front end holds a nondeterministic call's value.
                let what = match var.split_once("::") {
                    Some((_, name)) if !name.starts_with("__") => format!("a value for '{name}'"),
                    _ => "a nondeterministic value".to_string(),
                };
                format!(
                    "the run needs an input ({what} at line {line}): concrete execution decides only programs whose run does not depend on inputs"
                )
            }
            other => other.to_string(),
        };
        Verdict::Unknown { reason }
    }
}

impl Algorithm for Execution {
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        let cfa = self.cfa.clone();
        if self.last.is_none() {
            events.push(Event::Started {
                algorithm: "concrete execution with loop acceleration".into(),
                bound: None,
            });
            self.add_state(None, events);
            return Ok(None);
        }
        // A waitlist of one: the run goes on from the last state.
        if let Some(last) = self.last {
            events.push(Event::StatePopped { state: last });
        }
        loop {
            match self.runner.step(&cfa, &mut NoInput) {
                Ok(Step::Edge(e)) => {
                    let edge = cfa.edge(e);
                    let step = TraceStep {
                        edge: e.0,
                        line: edge.span.start_line,
                        op: cfa.label(&edge.kind),
                        values: self.runner.machine.visible_values(&cfa),
                    };
                    self.record(step);
                    let to = cfa.node(edge.to);
                    let boundary = to.loop_head
                        || to.kind != NodeKind::Normal
                        || matches!(edge.kind, EdgeKind::Return { .. });
                    if boundary {
                        let id = self.add_state(Some(e), events);
                        if to.is_error() {
                            events.push(Event::TargetReached { state: id });
                        }
                        return Ok(None);
                    }
                }
                Ok(Step::Jump(seg)) => {
                    self.record(accel::jump_step(&cfa, &seg, &self.runner));
                    let from = self.last.unwrap_or(0);
                    let last_edge = seg.body.iter().rev().find_map(|i| match i {
                        accel::Item::Edge(e) => Some(*e),
                        accel::Item::Segment(_) => None,
                    });
                    let id = self.add_state(last_edge, events);
                    let changes = seg
                        .delta
                        .iter()
                        .filter(|(_, d)| **d != 0)
                        .filter(|(v, _)| !cfa.var(**v).synthetic)
                        .map(|(v, d)| {
                            (
                                cfa.var(*v).name.clone(),
                                format!(
                                    "from {} to {} ({:+} per iteration)",
                                    seg.before[v], seg.after[v], d
                                ),
                            )
                        })
                        .collect();
                    events.push(Event::Accelerated {
                        from,
                        state: id,
                        head: seg.head.0,
                        line: cfa.node(seg.head).line,
                        iterations: u64::try_from(seg.skipped).unwrap_or(u64::MAX),
                        changes,
                    });
                    return Ok(None);
                }
                Ok(Step::ReachedError) => {
                    return Ok(Some(Verdict::False {
                        counterexample: self.counterexample(),
                    }))
                }
                Ok(Step::Terminated) => return Ok(Some(Verdict::True)),
                Ok(Step::Forever { .. }) => return Ok(Some(Verdict::True)),
                Err(e) => return Ok(Some(self.unknown(e))),
            }
        }
    }

    fn stats(&self) -> AlgoStats {
        AlgoStats {
            states: self.states,
            ..AlgoStats::default()
        }
    }
}

//! Concrete execution with loop acceleration ([`crate::concrete::accel`]) and input splitting
//! ([`crate::concrete::accel::split`]) as a stepping analysis. For a program whose run does not depend
//! on inputs, the run is its only execution, so reaching the error is FALSE (the run is the
//! counterexample) and ending without it is TRUE. Loops whose iterations repeat one path with
//! every variable changed by a constant are skipped by their closed form, so runs of 10^9
//! iterations and more take a few hundred steps (the SV-COMP loop-acceleration tasks), each
//! jump checked by executing its last iteration.
//!
//! A run that needs an input goes on for all values of that input at once, as a class whose
//! values are affine in the input; the class is split where the run's decisions differ, and a
//! class of one value is a concrete run again. The classes partition the input values exactly,
//! so the error reached by a class is FALSE (the counterexample is the concrete run of one of
//! its values, executed again from the start) and all classes ending without it is TRUE. A
//! run that needs what splitting cannot follow (a nonlinear operation on a class larger than
//! [`split::ENUMERATE`] values, a second input while the first is still a class) ends
//! UNKNOWN: the other analyses decide those programs.
//!
//! The ARG is the tree of runs: a state at the program entry, at every arrival at a loop head
//! or function entry, after every return, after every jump and at the end; a split gives the
//! last state of the class one child per part. One algorithm step takes the last class (a
//! stack: the classes run one after another, depth first) and runs it to its next state.

use crate::cpa::algorithm::Stats;

use crate::cpa::algorithm::Algorithm;

use crate::cfa::{Cfa, Edge, EdgeId, EdgeKind, NodeId, NodeKind};
use crate::concrete::accel::split::{self, ClassMachine, Need};
use crate::concrete::accel::{self, NoInput, RunError, Runner, Step};
use crate::concrete::{counted_values, ExecError, Oracle, MAX_TRACE_VALUES, SMALL_STATE};
use crate::events::{Event, StateKind};
use crate::ir::{IntType, VarId};
use crate::smt::Result;
use crate::verdict::Counterexample;
use crate::verdict::TraceStep;
use crate::verdict::Verdict;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

/// The steps of the run a counterexample keeps (the last ones).
pub const MAX_TRACE: usize = 10_000;

/// The most values the replay of a counterexample's run computes for its steps' states
/// (beyond `SMALL_STATE` per step: about 2 s natively); a longer run ends UNKNOWN.
const MAX_REPLAY_VALUES: usize = 20 * MAX_TRACE_VALUES;

/// The most runner steps the counterexample's run may take when it is executed again (it
/// took fewer the first time: the analysis' step limit bounds it).
const MAX_REPLAY: u64 = 100_000_000;

/// Longest state label put into an event.
const MAX_LABEL: usize = 400;

/// How a class runs: one concrete run, or the runs of an interval of one input's values.
enum Run {
    Concrete(Box<Runner>),
    Class(Box<ClassMachine>),
}

/// What a run read: the value an oracle gave at each step where the run read an input, and
/// the step of the latest declaration of each uninitialised local (where an oracle gives its
/// value, when it is read before it is assigned).
/// The steps from which the run was a class and ran without acceleration are kept too, so
/// that a run executed again takes the same steps.
#[derive(Clone, Debug, Default)]
struct Inputs {
    values: BTreeMap<usize, i128>,
    declared: BTreeMap<VarId, usize>,
    /// `[from, to)`: the run's steps as a class.
    classes: Vec<(usize, usize)>,
}

impl Inputs {
    /// The inputs of the class `m` for its parameter's value `t`, from its current step on a
    /// concrete run.
    fn with(&self, m: &ClassMachine, t: i128) -> Inputs {
        let mut out = self.clone();
        out.values.insert(m.input_step, m.input_form.at(t));
        out.classes.push((m.start_step, m.steps()));
        out
    }

    /// Notes `edge`, executed as the run's step `step`.
    fn executed(&mut self, edge: &Edge, step: usize) {
        if let EdgeKind::Declare { var, init: None } = &edge.kind {
            self.declared.insert(*var, step);
        }
    }
}

struct Class {
    run: Run,
    inputs: Inputs,
    /// The ARG state the run is at.
    last: u32,
}

pub struct Execution {
    cfa: Rc<Cfa>,
    started: bool,
    /// Runs still to go; the last one goes on now.
    work: Vec<Class>,
    /// The parent of each ARG state (the counterexample's states are the path to the root).
    parent: Vec<Option<u32>>,
}

impl Execution {
    pub fn new(cfa: Rc<Cfa>) -> Execution {
        Execution {
            cfa,
            started: false,
            work: Vec::new(),
            parent: Vec::new(),
        }
    }

    /// A new state at `location`, a child of `from` by `edge`.
    fn add_state(
        &mut self,
        from: Option<(u32, EdgeId)>,
        location: NodeId,
        label: String,
        depth: usize,
        events: &mut Vec<Event>,
    ) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(from.map(|(p, _)| p));
        events.push(Event::StateAdded {
            state: id,
            location: location.0,
            parents: from.map(|(p, e)| vec![(p, e.0)]).unwrap_or_default(),
            kind: StateKind::Plain,
            label,
            depth: depth.saturating_sub(1) as u32,
            target: self.cfa.node(location).is_error(),
        });
        if self.cfa.node(location).is_error() {
            events.push(Event::TargetReached { state: id });
        }
        id
    }

    fn path_to(&self, state: u32) -> Vec<u32> {
        let mut path = vec![state];
        let mut cur = state;
        while let Some(Some(p)) = self.parent.get(cur as usize) {
            path.push(*p);
            cur = *p;
        }
        path.reverse();
        path
    }

    /// The class reached the error: its concrete run (for the class's smallest input value)
    /// is executed again from the start and is the counterexample.
    fn found_error(&self, inputs: &Inputs, state: u32) -> Verdict {
        let cfa = &self.cfa;
        let mut oracle = Recorded(&inputs.values);
        let mut runner = Runner::new(cfa);
        let mut trace: VecDeque<TraceStep> = VecDeque::new();
        let mut dropped = 0usize;
        let (mut held, mut computed) = (0usize, 0usize);
        // Keeps at most MAX_TRACE steps and MAX_TRACE_VALUES values in their states (all of
        // them here, not only those beyond SMALL_STATE: a window of the run's end); false
        // once the run's states held more than MAX_REPLAY_VALUES values in all (each costs
        // time to record, and the run may be long: a loop over arrays of thousands of cells).
        let mut record = |step: TraceStep| -> bool {
            held += step.values.len();
            computed += counted_values(&step);
            trace.push_back(step);
            while trace.len() > MAX_TRACE || (held > MAX_TRACE_VALUES && trace.len() > 1) {
                if let Some(first) = trace.pop_front() {
                    held -= first.values.len();
                    dropped += 1;
                }
            }
            computed <= MAX_REPLAY_VALUES
        };
        let too_large = || Verdict::Unknown {
            reason: format!(
                "the counterexample's run is too large to record: its states hold more than \
                 {MAX_REPLAY_VALUES} values beyond the first {SMALL_STATE} of every step \
                 (every variable in scope at every step; an array is one variable per cell)"
            ),
        };
        for _ in 0..MAX_REPLAY {
            // Without acceleration where the first run was a class, and from a new runner
            // where it became a concrete run again, as the first run did.
            let at = runner.machine.steps();
            let class = inputs.classes.iter().any(|(a, b)| *a <= at && at < *b);
            if class {
                runner.accelerate = false;
            } else if !runner.accelerate {
                runner = Runner::from_machine(runner.machine.clone());
            }
            match runner.step(cfa, &mut oracle) {
                Ok(Step::Edge(e)) => {
                    if !record(TraceStep::after(cfa, cfa.edge(e), &runner.machine)) {
                        return too_large();
                    }
                }
                Ok(Step::Jump(seg)) => {
                    if !record(accel::jump_step(cfa, &seg, &runner)) {
                        return too_large();
                    }
                }
                Ok(Step::ReachedError) => {
                    let mut trace: Vec<TraceStep> = trace.into_iter().collect();
                    if dropped > 0 {
                        if let Some(first) = trace.first() {
                            let note = TraceStep {
                                edge: first.edge,
                                line: first.line,
                                op: format!("… {dropped} earlier steps not shown …"),
                                values: Default::default(),
                                input: None,
                            };
                            trace.insert(0, note);
                        }
                    }
                    return Verdict::False {
                        counterexample: Counterexample {
                            trace,
                            states: self.path_to(state),
                        },
                    };
                }
                Ok(other) => {
                    return internal(format!(
                        "the run with the inputs {:?} ended without the error ({other:?})",
                        inputs.values
                    ))
                }
                Err(e) => return internal(e.to_string()),
            }
        }
        internal(format!(
            "the run with the inputs {:?} took too long",
            inputs.values
        ))
    }

    /// A class (or a part of one: one value makes it a concrete run again).
    fn class(&self, m: ClassMachine, inputs: &Inputs, last: u32) -> Class {
        if m.lo == m.hi {
            let inputs = inputs.with(&m, m.lo);
            return Class {
                run: Run::Concrete(Box::new(Runner::from_machine(m.concrete(m.lo)))),
                inputs,
                last,
            };
        }
        Class {
            run: Run::Class(Box::new(m)),
            inputs: inputs.clone(),
            last,
        }
    }

    /// One concrete run for each value of the class (the smallest runs first).
    fn enumerate(&mut self, m: &ClassMachine, inputs: &Inputs, last: u32) {
        for v in (m.lo..=m.hi).rev() {
            self.work.push(self.class(m.restricted(v, v), inputs, last));
        }
    }

    /// The class needs `need` before it can go on: it is split, enumerated, or the run ends.
    fn need(&mut self, m: ClassMachine, need: Need, inputs: Inputs, last: u32) -> Option<Verdict> {
        let line = self.cfa.node(m.location()).line;
        match need {
            Need::Split(s) => {
                // The lower part runs first.
                let (low, high) = (m.restricted(m.lo, s), m.restricted(s + 1, m.hi));
                self.work.push(self.class(high, &inputs, last));
                self.work.push(self.class(low, &inputs, last));
                None
            }
            Need::Residue(k) => {
                let mut parts = Vec::new();
                for q in 0..k {
                    match m.residue(k, q) {
                        Ok(part) => parts.extend(part),
                        Err(need) => return self.need(m, need, inputs, last),
                    }
                }
                for part in parts.into_iter().rev() {
                    self.work.push(self.class(part, &inputs, last));
                }
                None
            }
            Need::Points(_) if m.size() <= split::ENUMERATE => {
                self.enumerate(&m, &inputs, last);
                None
            }
            Need::Points(what) => Some(Verdict::Unknown {
                reason: format!(
                    "the run needs single input values at line {line} ({what}), and the input read at line {} still has {} values there (input splitting enumerates at most {})",
                    m.input_line,
                    m.size(),
                    split::ENUMERATE
                ),
            }),
            Need::Undefined(what) => Some(Verdict::Unknown {
                reason: format!(
                    "undefined behaviour at line {line} for the inputs {} to {} read at line {}: {what}",
                    m.input_form.at(m.lo),
                    m.input_form.at(m.hi),
                    m.input_line
                ),
            }),
        }
    }

    /// A run ended without the error: the next class goes on, or all have ended.
    fn ended(&self) -> Option<Verdict> {
        self.work.is_empty().then_some(Verdict::True)
    }

    fn step_concrete(
        &mut self,
        mut runner: Box<Runner>,
        mut inputs: Inputs,
        last: u32,
        events: &mut Vec<Event>,
    ) -> Option<Verdict> {
        let cfa = self.cfa.clone();
        loop {
            match runner.step(&cfa, &mut NoInput) {
                Ok(Step::Edge(e)) => {
                    let edge = cfa.edge(e);
                    inputs.executed(edge, runner.machine.steps() - 1);
                    if boundary(&cfa, e) {
                        let label = label(runner.machine.visible_values(&cfa));
                        let id = self.add_state(
                            Some((last, e)),
                            edge.to,
                            label,
                            runner.machine.depth(),
                            events,
                        );
                        self.work.push(Class {
                            run: Run::Concrete(runner),
                            inputs,
                            last: id,
                        });
                        return None;
                    }
                }
                Ok(Step::Jump(seg)) => {
                    let last_edge = seg.body.iter().rev().find_map(|i| match i {
                        accel::Item::Edge(e) => Some(*e),
                        accel::Item::Segment(_) => None,
                    });
                    let label = label(runner.machine.visible_values(&cfa));
                    let id = self.add_state(
                        last_edge.map(|e| (last, e)),
                        runner.location(),
                        label,
                        runner.machine.depth(),
                        events,
                    );
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
                        from: last,
                        state: id,
                        head: seg.head.0,
                        line: cfa.node(seg.head).line,
                        iterations: u64::try_from(seg.skipped).unwrap_or(u64::MAX),
                        changes,
                    });
                    self.work.push(Class {
                        run: Run::Concrete(runner),
                        inputs,
                        last: id,
                    });
                    return None;
                }
                Ok(Step::ReachedError) => return Some(self.found_error(&inputs, last)),
                Ok(Step::Terminated) | Ok(Step::Forever { .. }) => return self.ended(),
                Err(RunError::Exec(ExecError::NoValue { var, .. })) => {
                    // An input: the run goes on for all its values at once.
                    let input = cfa.vars.iter().position(|v| v.qualified == var);
                    let main_param = |v: VarId| cfa.function(cfa.main).params.contains(&v);
                    match input.map(|i| VarId(i as u32)) {
                        Some(v) if !main_param(v) => {
                            let declared = inputs.declared.get(&v).copied().unwrap_or(usize::MAX);
                            let m = ClassMachine::new(&cfa, &runner.machine, v, declared);
                            self.work.push(self.class(m, &inputs, last));
                            return None;
                        }
                        _ => return Some(self.unsplit_input(&var, &runner)),
                    }
                }
                Err(e) => {
                    return Some(Verdict::Unknown {
                        reason: e.to_string(),
                    })
                }
            }
        }
    }

    fn step_class(
        &mut self,
        mut m: Box<ClassMachine>,
        mut inputs: Inputs,
        last: u32,
        events: &mut Vec<Event>,
    ) -> Option<Verdict> {
        let cfa = self.cfa.clone();
        if cfa.node(m.location()).is_error() {
            return Some(self.found_error(&inputs.with(&m, m.lo), last));
        }
        loop {
            let edge = match m.enabled_edge(&cfa) {
                Ok(Some(e)) => e,
                Ok(None) => return self.ended(),
                Err(need) => return self.need(*m, need, inputs, last),
            };
            let step = m.steps();
            if let Err(need) = m.execute(&cfa, edge) {
                return self.need(*m, need, inputs, last);
            }
            inputs.executed(edge, step);
            if boundary(&cfa, edge.id) {
                let mut label = if m.input_form == (split::Lin { a: 1, b: 0 }) {
                    format!("input t ∈ [{}, {}] (line {})", m.lo, m.hi, m.input_line)
                } else {
                    format!(
                        "input t ∈ [{}, {}] (line {}, its value {})",
                        m.lo,
                        m.hi,
                        m.input_line,
                        split::show(m.input_form)
                    )
                };
                let values = m.visible_values(&cfa);
                if !values.is_empty() {
                    label.push_str(": ");
                    label.push_str(&join_values(values));
                }
                let id = self.add_state(Some((last, edge.id)), edge.to, label, m.depth(), events);
                if cfa.node(edge.to).loop_head && m.size() <= split::ENUMERATE {
                    // A small class goes on as concrete runs, whose loops can be accelerated.
                    self.enumerate(&m, &inputs, id);
                    return None;
                }
                self.work.push(Class {
                    run: Run::Class(m),
                    inputs,
                    last: id,
                });
                return None;
            }
        }
    }

    /// A run that needs an input splitting does not take (a parameter of `main`).
    fn unsplit_input(&self, var: &str, runner: &Runner) -> Verdict {
        let line = self.cfa.node(runner.location()).line;
        let what = match var.split_once("::") {
            Some((_, name)) if !name.starts_with("__") => format!("a value for '{name}'"),
            _ => "a nondeterministic value".to_string(),
        };
        Verdict::Unknown {
            reason: format!(
                "the run needs an input that input splitting does not handle ({what} at line {line})"
            ),
        }
    }
}

fn internal(why: String) -> Verdict {
    Verdict::Unknown {
        reason: format!("internal: the counterexample's run could not be executed again: {why}"),
    }
}

/// Whether the run gets a new ARG state after `edge`: at a loop head, a function entry or exit
/// or an error location, and after a return.
fn boundary(cfa: &Cfa, edge: EdgeId) -> bool {
    let edge = cfa.edge(edge);
    let to = cfa.node(edge.to);
    to.loop_head || to.kind != NodeKind::Normal || matches!(edge.kind, EdgeKind::Return { .. })
}

fn label(values: std::collections::BTreeMap<String, i128>) -> String {
    if values.is_empty() {
        return "no value yet".into();
    }
    join_values(
        values
            .into_iter()
            .map(|(n, v)| (n, v.to_string()))
            .collect(),
    )
}

fn join_values(values: Vec<(String, String)>) -> String {
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

/// The inputs of a run, given again at the steps where it read them.
struct Recorded<'a>(&'a BTreeMap<usize, i128>);

impl Oracle for Recorded<'_> {
    fn value(&mut self, step: usize, _edge: &Edge, _var: VarId, _ty: IntType) -> Option<i128> {
        self.0.get(&step).copied()
    }
}

impl Algorithm for Execution {
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        let cfa = self.cfa.clone();
        if !self.started {
            self.started = true;
            events.push(Event::Started {
                algorithm: "concrete execution with loop acceleration".into(),
                bound: None,
            });
            let runner = Runner::new(&cfa);
            let label = label(runner.machine.visible_values(&cfa));
            let root = self.add_state(
                None,
                runner.location(),
                label,
                runner.machine.depth(),
                events,
            );
            self.work.push(Class {
                run: Run::Concrete(Box::new(runner)),
                inputs: Inputs::default(),
                last: root,
            });
            return Ok(None);
        }
        // A stack of runs: the last one goes on from its last state.
        let Some(class) = self.work.pop() else {
            return Ok(Some(Verdict::True));
        };
        events.push(Event::StatePopped { state: class.last });
        Ok(match class.run {
            Run::Concrete(r) => self.step_concrete(r, class.inputs, class.last, events),
            Run::Class(m) => self.step_class(m, class.inputs, class.last, events),
        })
    }

    fn stats(&self) -> Stats {
        Stats {
            states: self.parent.len() as u64,
            ..Stats::default()
        }
    }

    /// The runs visit loop heads only where acceleration stops, so their values are no
    /// invariant; the octagon invariants at the loop heads ([`crate::invariants::octagon`]) hold in every
    /// run and are what a correctness witness of this TRUE can give (the validator then
    /// decides whether they suffice).
    fn invariants(&self) -> Vec<crate::invariants::LocationInvariant> {
        crate::invariants::octagon::loop_invariants(&self.cfa)
            .into_iter()
            .map(|(l, e)| crate::invariants::LocationInvariant::c(l, e))
            .collect()
    }
}

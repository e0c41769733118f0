//! Concrete execution with loop acceleration: the interpreter of [`crate::concrete`] that skips
//! the iterations of a loop whose body takes the same path again with every variable changed by
//! the same amount.
//!
//! At each arrival at a loop head the runner compares the state with the one of the previous
//! arrival at that head (same frame): the path between them is one iteration, and `δ` the
//! change of every variable. The iteration is executed again over affine forms in an iteration
//! counter `j` from the state `x(0) + j·δ` ([`symexec`]): when every value the path computes
//! stays affine and the path ends in `x(0) + (j+1)·δ`, the iteration repeats exactly as long as
//! the atoms of its decisions hold (each convex in `j`, so the first `j` where one fails is
//! computed exactly: [`affine::first_failure`]), and the runner jumps there. This is path
//! acceleration of loops whose bodies translate their variables (Kroening, Lewis, Weissenbacher,
//! "Under-approximating loops in C programs for fast counterexample detection", CAV 2013, for
//! the idea; here it is exact, since the run is concrete): inner loops that were accelerated
//! themselves take part with a counter of their own, so nested loops whose inner counts are
//! affine in the outer counters are skipped level by level.
//!
//! Every jump is checked before it is taken: the last skipped iteration is executed concretely
//! from `x(0) + (n-1)·δ` and must arrive at `x(0) + n·δ` (a failure is an internal error, never
//! a wrong state). A run that arrives at a loop head in the state it had there before loops
//! forever ([`crate::concrete::Outcome::Diverges`]).

pub mod affine;
pub mod record;
pub mod split;
pub mod symexec;

use crate::cfa::{Cfa, EdgeId, EdgeKind, NodeId};
pub use crate::concrete::NoInput;
use crate::concrete::{ExecError, Machine, Oracle, Outcome, Run};
use crate::ir::VarId;
use crate::verdict::TraceStep;
pub use record::{Item, Segment, Snapshot};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use symexec::Acceleration;

/// What one [`Runner::step`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Edge(EdgeId),
    Jump(Rc<Segment>),
    /// The run came back to the loop head `head` in the state it had there before.
    Forever {
        head: NodeId,
    },
    ReachedError,
    /// No edge can be taken: the end of `main`, `abort()`, or a failed assumption.
    Terminated,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    Exec(ExecError),
    /// A jump did not survive its check: a bug in the acceleration, never a verdict.
    Check(String),
    /// Calls nested deeper than [`MAX_FRAMES`].
    TooDeep,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Exec(e) => e.fmt(f),
            RunError::Check(why) => write!(f, "internal: acceleration check failed: {why}"),
            RunError::TooDeep => write!(f, "calls nested deeper than {MAX_FRAMES}"),
        }
    }
}

/// The longest iteration (recorded items) the runner tries to accelerate; the record of a run
/// is trimmed to about twice this.
pub const MAX_BODY: usize = 100_000;

/// The deepest call nesting a run may reach.
pub const MAX_FRAMES: usize = 10_000;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunnerStats {
    pub edges: u64,
    pub jumps: u64,
    /// Iterations skipped by all jumps.
    pub skipped: i128,
}

/// Failed acceleration attempts at one loop head. An attempt costs time in the size of the
/// state (every variable's value is compared with the earlier arrival's) and of the body
/// (an array read is a case split over its cells), which a loop that never repeats
/// affinely (it writes another cell of an array in every iteration) pays at every arrival:
/// 4.6 ms per iteration on `loop-acceleration/array_2-1-simple.i`, two arrays of 2,048
/// cells. After [`FREE_TRIES`] failures in a row the head is tried again only after 1, 2,
/// 4, ... up to [`MAX_SKIP`] arrivals (deterministic; the iterations in between run
/// concretely, which gives the same states as a jump would).
#[derive(Clone, Copy, Debug, Default)]
struct Miss {
    failures: u32,
    /// Arrivals left before the next attempt.
    skip: u32,
}

/// Failed attempts at a loop head before its attempts are spaced out ([`Miss`]).
const FREE_TRIES: u32 = 4;

/// The most arrivals between two attempts at a loop head ([`Miss`]).
const MAX_SKIP: u32 = 64;

struct Arrival {
    /// The state at the arrival; `None` where the next arrival will not try to accelerate
    /// ([`Miss`]), so that a skipped attempt costs no copy of the state either.
    snapshot: Option<Rc<Snapshot>>,
    /// Index of the first item after the arrival in the whole record.
    pos: usize,
}

/// A concrete run that accelerates loops.
#[derive(Clone)]
pub struct Runner {
    pub machine: Machine,
    log: Vec<Item>,
    /// Items trimmed from the front of `log`.
    log_base: usize,
    arrivals: BTreeMap<(NodeId, usize), Rc<Arrival>>,
    /// Loop heads (in a frame) whose acceleration attempts failed: see [`Miss`].
    misses: BTreeMap<(NodeId, usize), Miss>,
    pending: Option<Step>,
    /// Check every jump by executing its last iteration (recursively, with acceleration).
    check: bool,
    /// Look for jumps at loop heads (off: a plain concrete run, edge by edge, that still
    /// records its arrivals).
    pub accelerate: bool,
    pub stats: RunnerStats,
    started: bool,
}

impl Runner {
    pub fn new(cfa: &Cfa) -> Runner {
        Runner {
            machine: Machine::new(cfa),
            ..Runner::new_empty()
        }
    }

    /// A runner that goes on from `machine` (a run already under way).
    pub fn from_machine(machine: Machine) -> Runner {
        Runner {
            machine,
            started: true,
            ..Runner::new_empty()
        }
    }

    fn new_empty() -> Runner {
        Runner {
            machine: Machine::from_parts(crate::concrete::MachineParts {
                globals: BTreeMap::new(),
                frames: Vec::new(),
                return_sites: Vec::new(),
                location: NodeId(0),
                step: 0,
            }),
            log: Vec::new(),
            log_base: 0,
            arrivals: BTreeMap::new(),
            misses: BTreeMap::new(),
            pending: None,
            check: true,
            accelerate: true,
            stats: RunnerStats::default(),
            started: false,
        }
    }

    pub fn location(&self) -> NodeId {
        self.machine.location
    }

    /// One edge, or one jump found at the arrival the last edge made (the jump is taken when
    /// it is returned, so the edge's step still shows the state before it).
    pub fn step(&mut self, cfa: &Cfa, oracle: &mut dyn Oracle) -> Result<Step, RunError> {
        if let Some(s) = self.pending.take() {
            if let Step::Jump(seg) = &s {
                self.machine.restore(cfa, &seg.after);
                self.stats.jumps += 1;
                self.stats.skipped += seg.skipped;
                self.log.push(Item::Segment(seg.clone()));
                self.record_arrival(seg.head, self.machine.depth());
            }
            return Ok(s);
        }
        if !self.started {
            self.started = true;
            if let Some(first) = cfa.successors(cfa.entry()).next() {
                self.machine
                    .init_main_params(cfa, oracle, first)
                    .map_err(RunError::Exec)?;
            }
        }
        if self.machine.at_error(cfa) {
            return Ok(Step::ReachedError);
        }
        let Some(edge) = self.machine.enabled_edge(cfa).map_err(RunError::Exec)? else {
            return Ok(Step::Terminated);
        };
        self.machine
            .execute(cfa, edge, oracle)
            .map_err(RunError::Exec)?;
        self.stats.edges += 1;
        self.log.push(Item::Edge(edge.id));
        let depth = self.machine.depth();
        match edge.kind {
            EdgeKind::Return { .. } => {
                self.arrivals.retain(|(_, d), _| *d <= depth);
                self.misses.retain(|(_, d), _| *d <= depth);
            }
            EdgeKind::Call { .. } if depth > MAX_FRAMES => return Err(RunError::TooDeep),
            _ => {}
        }
        if cfa.node(edge.to).loop_head && !self.accelerate {
            self.record_arrival(edge.to, depth);
        } else if cfa.node(edge.to).loop_head {
            self.arrive(cfa, edge.to, depth)?;
        }
        self.trim();
        Ok(Step::Edge(edge.id))
    }

    fn abs_len(&self) -> usize {
        self.log_base + self.log.len()
    }

    fn trim(&mut self) {
        if self.log.len() <= 2 * MAX_BODY {
            return;
        }
        let cut = self.abs_len() - MAX_BODY;
        self.arrivals.retain(|_, a| a.pos >= cut);
        self.log.drain(..cut - self.log_base);
        self.log_base = cut;
    }

    /// The run arrived at the loop head `head` in the frame at `depth`.
    fn arrive(&mut self, cfa: &Cfa, head: NodeId, depth: usize) -> Result<(), RunError> {
        let key = (head, depth);
        if let Some(miss) = self.misses.get_mut(&key).filter(|m| m.skip > 0) {
            miss.skip -= 1;
            let snapshot = (miss.skip == 0).then(|| Rc::new(self.machine.snapshot()));
            self.record_arrival_with(head, depth, snapshot);
            return Ok(());
        }
        let cur = self.machine.snapshot();
        let prev = self.arrivals.get(&key).cloned();
        if let Some((pos, prev_snapshot)) = prev.and_then(|p| Some((p.pos, p.snapshot.clone()?))) {
            let from = pos - self.log_base;
            if self.log.len() - from <= MAX_BODY {
                let body: Rc<[Item]> = self.log[from..].into();
                match symexec::accelerate(cfa, &prev_snapshot, &cur, &body) {
                    Some(Acceleration::Jump { count, after }) if count >= 2 => {
                        let delta: BTreeMap<VarId, i128> = prev_snapshot
                            .iter()
                            .map(|(v, p)| (*v, cur[v] - p))
                            .collect();
                        if self.check {
                            self.check_jump(
                                cfa,
                                &prev_snapshot,
                                &delta,
                                &cur,
                                count,
                                &after,
                                &body,
                            )?;
                        }
                        self.pending = Some(Step::Jump(Rc::new(Segment {
                            head,
                            body,
                            delta,
                            skipped: count - 1,
                            before: cur,
                            after,
                        })));
                        self.misses.remove(&key);
                        // The arrival after the jump is recorded when it is taken.
                        return Ok(());
                    }
                    Some(Acceleration::Forever) => {
                        self.pending = Some(Step::Forever { head });
                    }
                    _ => {
                        let miss = self.misses.entry(key).or_default();
                        miss.failures += 1;
                        if miss.failures > FREE_TRIES {
                            let doublings = (miss.failures - FREE_TRIES - 1).min(6);
                            miss.skip = (1u32 << doublings).min(MAX_SKIP);
                        }
                    }
                }
            }
        }
        self.record_arrival_with(head, depth, Some(Rc::new(cur)));
        Ok(())
    }

    fn record_arrival(&mut self, head: NodeId, depth: usize) {
        let snapshot = Rc::new(self.machine.snapshot());
        self.record_arrival_with(head, depth, Some(snapshot));
    }

    fn record_arrival_with(&mut self, head: NodeId, depth: usize, snapshot: Option<Rc<Snapshot>>) {
        let pos = self.abs_len();
        self.arrivals
            .insert((head, depth), Rc::new(Arrival { snapshot, pos }));
    }

    /// Executes the last of the `count` iterations from `prev + (count-1)·δ` along the
    /// recorded path `body` (an inner accelerated loop on it is accelerated again from the
    /// state it meets there) and compares where it arrives with `after`.
    #[allow(clippy::too_many_arguments)]
    fn check_jump(
        &self,
        cfa: &Cfa,
        prev: &Snapshot,
        delta: &BTreeMap<VarId, i128>,
        cur: &Snapshot,
        count: i128,
        after: &Snapshot,
        body: &[Item],
    ) -> Result<(), RunError> {
        let head = self.machine.location;
        let mut start = cur.clone();
        for (v, p) in prev {
            start.insert(*v, p + (count - 1) * delta[v]);
        }
        let mut m = self.machine.clone();
        m.restore(cfa, &start);
        let fail = |why: String| {
            RunError::Check(format!(
                "the last of {count} iterations at line {}: {why}",
                cfa.node(head).line
            ))
        };
        replay(cfa, &mut m, body).map_err(fail)?;
        let got = m.snapshot();
        if m.location == head && got == *after {
            return Ok(());
        }
        let diff = got
            .keys()
            .chain(after.keys())
            .find(|v| got.get(v) != after.get(v))
            .map(|v| {
                format!(
                    "{} is {:?} after the iteration, {:?} after the jump",
                    cfa.var(*v).qualified,
                    got.get(v),
                    after.get(v)
                )
            })
            .unwrap_or_default();
        Err(fail(format!(
            "it does not arrive where the jump does: {diff}"
        )))
    }
}

/// Executes the recorded `items` concretely from `m`: every edge must be the one the run takes;
/// an accelerated loop is accelerated again from the state met at its head.
fn replay(cfa: &Cfa, m: &mut Machine, items: &[Item]) -> Result<(), String> {
    for item in items {
        match item {
            Item::Edge(e) => {
                let taken = m.enabled_edge(cfa).map_err(|e| e.to_string())?;
                if taken.map(|t| t.id) != Some(*e) {
                    return Err(format!("the path leaves the recorded one at edge {}", e.0));
                }
                m.execute(cfa, cfa.edge(*e), &mut NoInput)
                    .map_err(|e| e.to_string())?;
            }
            Item::Segment(seg) => {
                let cur = m.snapshot();
                let mut prev = Snapshot::new();
                for (v, d) in &seg.delta {
                    let x = cur
                        .get(v)
                        .ok_or("a variable of an inner loop has no value")?;
                    prev.insert(*v, x - d);
                }
                match symexec::accelerate(cfa, &prev, &cur, &seg.body) {
                    Some(Acceleration::Jump { count, after }) if count >= 2 => {
                        m.restore(cfa, &after)
                    }
                    other => {
                        return Err(format!(
                            "the inner loop at line {} does not repeat as recorded ({other:?})",
                            cfa.node(seg.head).line
                        ))
                    }
                }
            }
        }
    }
    Ok(())
}

/// Runs the program from its entry with acceleration, taking inputs from `oracle`, for at
/// most `max_steps` edges and jumps. A jump is one step of the trace, whose text says how many
/// iterations it stands for.
pub fn run(cfa: &Cfa, oracle: &mut dyn Oracle, max_steps: usize) -> Run {
    let mut r = Runner::new(cfa);
    let mut trace = Vec::new();
    let mut budget = crate::concrete::TraceBudget::default();
    let outcome = loop {
        if trace.len() >= max_steps {
            break Outcome::StepLimit;
        }
        match r.step(cfa, oracle) {
            Ok(Step::Edge(e)) => {
                let edge = cfa.edge(e);
                oracle.executed(trace.len(), edge);
                if let Err(e) = budget.push(&mut trace, TraceStep::after(cfa, edge, &r.machine)) {
                    break Outcome::Failed(e);
                }
            }
            Ok(Step::Jump(seg)) => {
                if let Err(e) = budget.push(&mut trace, jump_step(cfa, &seg, &r)) {
                    break Outcome::Failed(e);
                }
            }
            Ok(Step::Forever { .. }) => break Outcome::Diverges,
            Ok(Step::ReachedError) => break Outcome::ReachedError,
            Ok(Step::Terminated) => break Outcome::Terminated,
            Err(RunError::Exec(e)) => break Outcome::Failed(e),
            Err(e) => {
                break Outcome::Failed(ExecError::Undefined {
                    step: trace.len(),
                    line: cfa.node(r.location()).line,
                    what: e.to_string(),
                })
            }
        }
    };
    Run { trace, outcome }
}

/// The trace step of a jump: the loop head's line, and the iterations it stands for.
pub fn jump_step(cfa: &Cfa, seg: &Segment, r: &Runner) -> TraceStep {
    let last = seg.body.iter().rev().find_map(|i| match i {
        Item::Edge(e) => Some(*e),
        Item::Segment(_) => None,
    });
    TraceStep {
        edge: last.map_or(0, |e| e.0),
        line: cfa.node(seg.head).line,
        op: jump_text(cfa, seg),
        values: r.machine.visible_values(cfa),
        input: None,
    }
}

/// `loop at line 12: 1023 more iterations (accelerated)`.
pub fn jump_text(cfa: &Cfa, seg: &Segment) -> String {
    let n = seg.skipped;
    format!(
        "loop at line {}: {n} more iteration{} of the same path (accelerated)",
        cfa.node(seg.head).line,
        if n == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests;

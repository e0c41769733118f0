//! A run as the page holds it: the engine's events streamed so far, the position shown
//! ("event k of n"), the frame there (the ARG replayed from checkpoints) and the records the
//! views list (refinements, checks).

use crate::protocol::Graph;
use crate::protocol::{Batch, QueryEntry, RunConfig, RunInfo, UnitEnd};
use cpa_engine::events::{CheckKind, Event};
use cpa_engine::session::{Granularity, Stats};
use cpa_engine::verdict::Verdict;
use cpa_engine::view::{ArgView, StateView};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// How far a forward step goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Event,
    Abstraction,
    Refinement,
    End,
    /// To the next state added at this CFA location.
    Location(u32),
}

impl Target {
    pub(crate) fn granularity(self) -> Granularity {
        match self {
            Target::Event => Granularity::Event,
            Target::Abstraction => Granularity::Abstraction,
            Target::Refinement => Granularity::Refinement,
            Target::End => Granularity::End,
            Target::Location(l) => Granularity::Location(l),
        }
    }

    /// Whether `e` ends a step of this kind (the engine's check).
    pub(crate) fn reached_by(self, e: &Event) -> bool {
        self.granularity().reached_by(e)
    }
}

/// Run speeds in events per second; `None` is "to the end at full speed".
pub const SPEEDS: [Option<u32>; 7] = [
    Some(1),
    Some(3),
    Some(10),
    Some(30),
    Some(100),
    Some(1000),
    None,
];
pub const DEFAULT_SPEED: Option<u32> = Some(10);
/// The run timer's period.
pub const TICK_MS: u32 = 50;

/// What the ARG looks like at one position, plus what the engine's view does not track:
/// which states were expanded (popped) and are not back in the waitlist.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    pub view: ArgView,
    pub popped: BTreeSet<u32>,
}

impl Frame {
    pub(crate) fn apply(&mut self, e: &Event) {
        match e {
            Event::Started { .. } => self.popped.clear(),
            Event::StatePopped { state } => {
                self.popped.insert(*state);
            }
            Event::Readded { states } => {
                for s in states {
                    self.popped.remove(s);
                }
            }
            Event::Removed { states }
            | Event::Merged {
                removed: states, ..
            } => {
                for s in states {
                    self.popped.remove(s);
                }
            }
            _ => {}
        }
        self.view.apply(e);
    }

    /// Waiting in the waitlist: neither expanded nor covered, nor a target.
    pub fn waiting(&self, s: &StateView) -> bool {
        !self.popped.contains(&s.id) && s.covered_by.is_none() && !s.target
    }
}

/// Events between two checkpoints of the replay (the view at any position is at most this
/// many event applications away).
const CHECKPOINT_EVERY: usize = 128;
/// More checkpoints than this and every other one is dropped (their spacing doubles), so
/// memory stays bounded on long runs.
const MAX_CHECKPOINTS: usize = 96;

/// The frame at the current position, and checkpoints to step backward from.
#[derive(Clone, Debug, Default)]
pub struct Cursor {
    pub frame: Frame,
    pub at: usize,
    /// States the event just before `at` removed (shown faded for that step).
    pub removed_now: Vec<StateView>,
    /// Frames at positions `spacing * i`.
    checkpoints: Vec<Rc<Frame>>,
    spacing: usize,
}

impl Cursor {
    pub(crate) fn new() -> Cursor {
        Cursor {
            checkpoints: vec![Rc::new(Frame::default())],
            spacing: CHECKPOINT_EVERY,
            ..Cursor::default()
        }
    }

    pub(crate) fn apply_one(&mut self, e: &Event) {
        self.removed_now = match e {
            Event::Removed { states }
            | Event::Merged {
                removed: states, ..
            } => states
                .iter()
                .filter_map(|s| self.frame.view.states.get(s).cloned())
                .collect(),
            _ => Vec::new(),
        };
        self.frame.apply(e);
        self.at += 1;
        if self.at.is_multiple_of(self.spacing) && self.at / self.spacing == self.checkpoints.len()
        {
            self.checkpoints.push(Rc::new(self.frame.clone()));
            if self.checkpoints.len() > MAX_CHECKPOINTS {
                self.spacing *= 2;
                let kept: Vec<Rc<Frame>> = self.checkpoints.iter().step_by(2).cloned().collect();
                self.checkpoints = kept;
            }
        }
    }

    /// Moves to position `k` of `events`.
    pub fn seek(&mut self, events: &[Event], k: usize) {
        let k = k.min(events.len());
        if k == self.at {
            return;
        }
        if k < self.at || k == 0 {
            // From the last checkpoint before `k` (strictly, so the last event is applied
            // here and its removals are known).
            let i = (k.saturating_sub(1) / self.spacing).min(self.checkpoints.len() - 1);
            self.frame = (*self.checkpoints[i]).clone();
            self.at = i * self.spacing;
            self.removed_now.clear();
            // Checkpoints after `k` stay valid: the events do not change.
        }
        while self.at < k {
            let e = &events[self.at];
            self.apply_one(e);
        }
    }

    /// Forgets checkpoints beyond `len` events (the run was cut back).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.checkpoints.truncate(len / self.spacing + 1);
        if self.at > len {
            let i = self.checkpoints.len() - 1;
            self.frame = (*self.checkpoints[i]).clone();
            self.at = i * self.spacing;
            self.removed_now.clear();
        }
    }
}

/// One refinement as the interpolants view shows it, gathered from its events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refinement {
    /// 1-based number.
    pub number: u32,
    /// Index of its `Counterexample` event.
    pub start: usize,
    /// Index of its `Refined` event, once there.
    pub end: Option<usize>,
    pub states: Vec<u32>,
    /// The CFA location of each state of `states`.
    pub locations: Vec<u32>,
    pub blocks: Vec<String>,
    pub feasible: bool,
    pub interpolants: Vec<String>,
    /// (location, predicate) pairs.
    pub predicates: Vec<(u32, String)>,
    /// IMPACT: (state, new abstraction formula).
    pub strengthened: Vec<(u32, String)>,
    pub removed: usize,
    pub pivot: Option<u32>,
}

/// A satisfiability check of BMC or k-induction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub index: usize,
    pub what: CheckKind,
    pub bound: u32,
    pub satisfiable: Option<bool>,
    pub formula_size: u64,
}

/// Records of the event log that views list, kept up to date as events arrive.
#[derive(Clone, Debug, Default)]
pub struct Derived {
    pub refinements: Vec<Refinement>,
    pub checks: Vec<Check>,
    /// The location of every state added so far (the latest, where BMC reuses ids).
    locations: BTreeMap<u32, u32>,
}

impl Derived {
    pub(crate) fn push(&mut self, index: usize, e: &Event) {
        fn open(d: &mut Derived) -> Option<&mut Refinement> {
            d.refinements.last_mut().filter(|r| r.end.is_none())
        }
        match e {
            Event::StateAdded {
                state, location, ..
            } => {
                self.locations.insert(*state, *location);
            }
            Event::Counterexample {
                states,
                blocks,
                feasible,
                ..
            } => {
                let number = self.refinements.len() as u32 + 1;
                let locations = states
                    .iter()
                    .map(|s| self.locations.get(s).copied().unwrap_or(0))
                    .collect();
                self.refinements.push(Refinement {
                    number,
                    start: index,
                    states: states.clone(),
                    locations,
                    blocks: blocks.clone(),
                    feasible: *feasible,
                    ..Refinement::default()
                });
            }
            Event::Interpolants { interpolants, .. } => {
                if let Some(r) = open(self) {
                    r.interpolants = interpolants.clone();
                }
            }
            Event::PrecisionRefined { added } => {
                if let Some(r) = open(self) {
                    r.predicates.extend(added.iter().cloned());
                }
            }
            Event::Strengthened { state, formula } => {
                if let Some(r) = open(self) {
                    r.strengthened.push((*state, formula.clone()));
                }
            }
            Event::Removed { states } => {
                if let Some(r) = open(self) {
                    r.removed += states.len();
                }
            }
            // One refinement of several counterexamples (multi-seq) closes every path it
            // checked.
            Event::Refined { pivot, .. } => {
                for r in self.refinements.iter_mut().rev() {
                    if r.end.is_some() {
                        break;
                    }
                    r.end = Some(index);
                    r.pivot = *pivot;
                }
            }
            Event::Check {
                what,
                bound,
                satisfiable,
                formula_size,
            } => self.checks.push(Check {
                index,
                what: *what,
                bound: *bound,
                satisfiable: *satisfiable,
                formula_size: *formula_size,
            }),
            _ => {}
        }
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.refinements.retain(|r| r.start < len);
        if let Some(r) = self.refinements.last_mut() {
            if r.end.is_some_and(|e| e >= len) {
                r.end = None;
            }
        }
        self.checks.retain(|c| c.index < len);
    }
}

/// Which request a worker answer belongs to: answers for an older run, or from before the
/// worker was replaced, are dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket {
    pub run: u64,
    pub epoch: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Waiting for the worker to create the session.
    Starting,
    Idle,
    /// A step is being computed (the worker is busy).
    Busy,
    /// A fresh worker is replaying the run to where it was.
    Replaying,
    /// The run could not start (bad configuration, program, Z3 failed to load).
    Failed(String),
    /// The worker died during the run (panic, out of memory).
    Crashed(String),
}

/// One verification run of one program with one configuration.
#[derive(Clone, Debug)]
pub struct Run {
    pub id: u64,
    pub epoch: u64,
    pub config: RunConfig,
    pub file: String,
    pub source: Rc<str>,
    pub cfa: Rc<Graph>,
    pub info: Option<RunInfo>,
    pub phase: Phase,
    pub events: Vec<Event>,
    pub units: Vec<UnitEnd>,
    pub queries: Vec<Rc<QueryEntry>>,
    pub derived: Derived,
    /// The worker's result once the run is over.
    pub verdict: Option<Verdict>,
    /// After TRUE: the loop invariants the proof rests on (line, C expression).
    pub invariants: Vec<(u32, String)>,
    pub position: usize,
    pub cursor: Cursor,
    /// A forward step waiting for the worker.
    pub pending: Option<Target>,
    /// Single-event steps asked for while the worker was busy (each one counts).
    pub owed: usize,
    /// An event index to show once the worker has computed that far (a share link's step).
    pub goal: Option<usize>,
    /// Running: events per second (`Some(None)`: to the end at full speed).
    pub running: Option<Option<u32>>,
    /// Fractional events owed by the run timer.
    pub(crate) credit: f64,
}

impl Run {
    /// Forgets the steps asked for and not yet carried out (a pending step, owed single
    /// events, a link's goal).
    pub(crate) fn drop_requests(&mut self) {
        self.pending = None;
        self.owed = 0;
        self.goal = None;
    }

    pub fn finished(&self) -> bool {
        self.verdict.is_some()
    }

    /// The run has its verdict and shows it: the position is at its last event.
    pub fn at_verdict(&self) -> bool {
        self.finished() && self.position == self.events.len()
    }

    pub fn ticket(&self) -> Ticket {
        Ticket {
            run: self.id,
            epoch: self.epoch,
        }
    }

    /// `n` of "event k of n": what the page has (the whole run once it is over).
    pub fn total(&self) -> usize {
        self.events.len()
    }

    /// The event shown last (the one just applied), with its index.
    pub fn current_event(&self) -> Option<(usize, &Event)> {
        self.position
            .checked_sub(1)
            .and_then(|i| self.events.get(i).map(|e| (i, e)))
    }

    /// The verdict, once the position reaches it.
    pub fn shown_verdict(&self) -> Option<&Verdict> {
        self.verdict
            .as_ref()
            .filter(|_| self.position == self.events.len())
    }

    /// The statistics after the step the position is in.
    pub fn stats(&self) -> (Stats, f64) {
        let i = self
            .units
            .partition_point(|u| (u.events as usize) <= self.position);
        match i.checked_sub(1).map(|i| &self.units[i]) {
            Some(u) => (u.stats.clone(), u.solver_ms),
            None => (Stats::default(), 0.0),
        }
    }

    /// The queries made by the steps shown so far.
    pub fn shown_queries(&self) -> &[Rc<QueryEntry>] {
        let n = self
            .queries
            .partition_point(|q| (q.at as usize) < self.position);
        &self.queries[..n]
    }

    /// The refinements begun by the position.
    pub fn shown_refinements(&self) -> impl Iterator<Item = &Refinement> {
        let k = self.position;
        self.derived
            .refinements
            .iter()
            .take_while(move |r| r.start < k)
    }

    pub fn shown_checks(&self) -> impl Iterator<Item = &Check> {
        let k = self.position;
        self.derived.checks.iter().take_while(move |c| c.index < k)
    }

    /// A refinement is under way at the position: its counterexample is shown, its end not.
    pub fn refinement_in_progress(&self) -> Option<&Refinement> {
        self.shown_refinements()
            .last()
            .filter(|r| r.end.is_none_or(|e| e >= self.position))
    }

    /// The source lines of the locations the ARG has reached at the position: the lines of
    /// the CFA edges into its states (and of the initial location).
    pub fn covered_lines(&self) -> BTreeSet<u32> {
        let mut lines = BTreeSet::new();
        let edge_lines = |id: u32| {
            self.cfa
                .edges
                .get(id as usize)
                .filter(|e| e.id == id)
                .or_else(|| self.cfa.edges.iter().find(|e| e.id == id))
                .map(|e| e.lines)
        };
        for s in self.cursor.frame.view.states.values() {
            if s.parents.is_empty() {
                if let Some(n) = self.cfa.node(s.location) {
                    if n.line > 0 {
                        lines.insert(n.line);
                    }
                }
            }
            for (_, edge) in &s.parents {
                if let Some([a, b]) = edge_lines(*edge) {
                    if a > 0 {
                        lines.extend(a..=b.max(a).min(a + 50));
                    }
                }
            }
        }
        lines
    }

    pub(crate) fn seek(&mut self, k: usize) {
        self.position = k.min(self.events.len());
        let (events, cursor) = (&self.events, &mut self.cursor);
        cursor.seek(events, self.position);
    }

    /// The index after the next event at or after the position that ends a `target` step.
    pub(crate) fn find(&self, target: Target) -> Option<usize> {
        if target == Target::Event {
            return (self.position < self.events.len()).then_some(self.position + 1);
        }
        self.events[self.position..]
            .iter()
            .position(|e| target.reached_by(e))
            .map(|i| self.position + i + 1)
    }

    pub(crate) fn append(&mut self, batch: Batch) -> bool {
        if batch.from as usize != self.events.len() {
            // Not contiguous: a protocol bug; better stop than show a wrong run.
            self.phase = Phase::Crashed(format!(
                "events out of order (got {} while expecting {})",
                batch.from,
                self.events.len()
            ));
            return false;
        }
        for e in batch.events {
            self.derived.push(self.events.len(), &e);
            self.events.push(e);
        }
        self.units.extend(batch.units);
        self.queries.extend(batch.queries.into_iter().map(Rc::new));
        true
    }

    /// Drops everything after the end of the step that contains the position (the worker
    /// that replays the run stops there).
    pub(crate) fn cut_back(&mut self) -> usize {
        let i = self
            .units
            .partition_point(|u| (u.events as usize) < self.position);
        let keep = match self.units.get(i) {
            Some(u) => u.events as usize,
            None => self.units.last().map_or(0, |u| u.events as usize),
        };
        self.events.truncate(keep);
        self.units.truncate(i + 1);
        self.units.retain(|u| u.events as usize <= keep);
        self.queries.retain(|q| (q.at as usize) < keep);
        self.derived.truncate(keep);
        self.cursor.truncate(keep);
        self.verdict = None;
        self.invariants.clear();
        keep
    }
}

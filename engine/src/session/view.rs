//! The ARG as the playground shows it at any point of a run, rebuilt by replaying a prefix of
//! the event log. This is how a session steps backward: the engine never undoes work, the view
//! of step `n` is the replay of the first `n` events (and replaying is cheap next to solving).
//! The replay is a pure function of the events, so a share link (program, configuration, step)
//! shows the same picture everywhere.

use crate::events::{Event, StateKind, VerdictKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateView {
    pub id: u32,
    pub location: u32,
    /// (parent state, CFA edge) pairs.
    pub parents: Vec<(u32, u32)>,
    pub kind: StateKind,
    /// The abstraction formula (latest strengthening included) or the state's summary.
    pub label: String,
    pub depth: u32,
    pub target: bool,
    pub covered_by: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgView {
    /// The states currently in the ARG (removed ones are gone), by id.
    pub states: BTreeMap<u32, StateView>,
    /// The state being expanded (the last pop).
    pub current: Option<u32>,
    /// States added since the ARG was (re)started, including removed ones: the ARG CPA's
    /// arena size.
    pub added: u32,
    /// Refinements finished so far.
    pub refinements: u32,
    /// The current bound of BMC or k-induction.
    pub bound: Option<u32>,
    /// The last abstract counterexample (abstraction states) and its interpolants.
    pub counterexample: Vec<u32>,
    pub interpolants: Vec<String>,
    /// Predicates by location, in the order they were added.
    pub predicates: BTreeMap<u32, Vec<String>>,
    /// The verdict, once the replay reaches it.
    pub verdict: Option<VerdictKind>,
    /// The running component of a portfolio (its knob text).
    #[serde(default)]
    pub component: Option<String>,
    /// States reached by an accelerated loop (concrete execution), with the iterations the
    /// edge from their parent stands for.
    #[serde(default)]
    pub accelerated: BTreeMap<u32, u64>,
}

impl ArgView {
    /// The view after the events `events` (a prefix of a run's log).
    pub fn replay(events: &[Event]) -> ArgView {
        let mut v = ArgView::default();
        for e in events {
            v.apply(e);
        }
        v
    }

    /// Applies one more event: `replay(&events[..=n])` is `replay(&events[..n])` followed by
    /// `apply(&events[n])`, so a viewer can step forward without replaying from the start.
    pub fn apply(&mut self, e: &Event) {
        match e {
            Event::Started { bound, .. } => {
                // BMC and k-induction build a fresh ARG for every bound.
                self.states.clear();
                self.current = None;
                self.added = 0;
                self.bound = *bound;
            }
            // A portfolio's next component starts from nothing.
            Event::Component { component, .. } => {
                *self = ArgView {
                    component: Some(component.clone()),
                    ..ArgView::default()
                }
            }
            Event::StatePopped { state } => self.current = Some(*state),
            Event::StateAdded {
                state,
                location,
                parents,
                kind,
                label,
                depth,
                target,
            } => {
                self.added += 1;
                self.states.insert(
                    *state,
                    StateView {
                        id: *state,
                        location: *location,
                        parents: parents.clone(),
                        kind: kind.clone(),
                        label: label.clone(),
                        depth: *depth,
                        target: *target,
                        covered_by: None,
                    },
                );
            }
            Event::Merged { removed, .. } | Event::Removed { states: removed } => {
                for s in removed {
                    self.states.remove(s);
                }
                // Coverage by a removed state is gone with it.
                for s in self.states.values_mut() {
                    if s.covered_by.is_some_and(|c| removed.contains(&c)) {
                        s.covered_by = None;
                    }
                }
            }
            Event::Covered { state, by } => {
                if let Some(s) = self.states.get_mut(state) {
                    s.covered_by = Some(*by);
                }
            }
            Event::Uncovered { state } => {
                if let Some(s) = self.states.get_mut(state) {
                    s.covered_by = None;
                }
            }
            Event::Strengthened { state, formula } => {
                if let Some(s) = self.states.get_mut(state) {
                    s.label = formula.clone();
                }
            }
            Event::Abstraction { state, formula, .. } => {
                if let Some(s) = self.states.get_mut(state) {
                    s.label = formula.clone();
                }
            }
            Event::Counterexample { states, .. } => {
                self.counterexample = states.clone();
                self.interpolants.clear();
            }
            Event::Interpolants { interpolants, .. } => self.interpolants = interpolants.clone(),
            Event::PrecisionRefined { added } => {
                for (l, p) in added {
                    let ps = self.predicates.entry(*l).or_default();
                    if !ps.contains(p) {
                        ps.push(p.clone());
                    }
                }
            }
            Event::Refined { .. } => self.refinements += 1,
            Event::BoundIncreased { bound } => self.bound = Some(*bound),
            Event::Verdict { verdict, .. } => self.verdict = Some(*verdict),
            Event::Accelerated {
                state, iterations, ..
            } => {
                self.accelerated.insert(*state, *iterations);
            }
            Event::Readded { .. }
            | Event::Infeasible { .. }
            | Event::Cut { .. }
            | Event::TargetReached { .. }
            | Event::Check { .. }
            | Event::Certificate { .. }
            | Event::Enumerated { .. }
            | Event::SatCheck { .. } => {}
        }
    }
}

//! Views derived from the run at its position: what the CFA view, the editor and the legend
//! mark for the current event.

use crate::protocol::Graph;
use crate::state::run::Run;
use cpa_engine::events::{Event, StateKind};
use cpa_engine::view::ArgView;
use std::collections::BTreeMap;

/// The label of CFA edge `e` (empty if there is none).
pub fn edge_label(cfa: &Graph, e: u32) -> String {
    cfa.edges
        .iter()
        .find(|x| x.id == e)
        .map(|x| x.label.clone())
        .unwrap_or_default()
}

/// The line of a CFA location, if it has one.
pub fn location_line(cfa: &Graph, l: u32) -> Option<u32> {
    cfa.node(l).map(|n| n.line).filter(|&line| line > 0)
}

/// The CFA locations the current event is about (marked in the CFA view).
pub fn event_locations(run: &Run) -> Vec<u32> {
    let view = &run.cursor.frame.view;
    let loc = |s: &u32| {
        view.states
            .get(s)
            .or_else(|| run.cursor.removed_now.iter().find(|r| r.id == *s))
            .map(|st| st.location)
    };
    let mut out: Vec<u32> = Vec::new();
    if let Some((_, e)) = run.current_event() {
        match e {
            Event::StatePopped { state }
            | Event::Covered { state, .. }
            | Event::Uncovered { state }
            | Event::Strengthened { state, .. }
            | Event::TargetReached { state }
            | Event::Cut { state, .. } => out.extend(loc(state)),
            Event::StateAdded { location, .. } | Event::Abstraction { location, .. } => {
                out.push(*location)
            }
            Event::Merged { into, .. } => out.extend(loc(into)),
            Event::Infeasible { parent, .. } => out.extend(loc(parent)),
            Event::PrecisionRefined { added } => out.extend(added.iter().map(|(l, _)| *l)),
            Event::Counterexample { states, .. } | Event::Interpolants { states, .. } => {
                out.extend(states.iter().filter_map(loc))
            }
            Event::Readded { states } | Event::Removed { states } => {
                out.extend(states.iter().filter_map(loc))
            }
            _ => {}
        }
    }
    if out.is_empty() {
        if let Some(c) = view.current {
            out.extend(loc(&c));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The source lines of the current event (marked in the editor).
pub fn event_lines(run: &Run) -> Vec<u32> {
    let edge_lines = |id: u32| {
        run.cfa
            .edges
            .iter()
            .find(|e| e.id == id)
            .filter(|e| e.lines[0] > 0)
            .map(|e| (e.lines[0]..=e.lines[1].max(e.lines[0]).min(e.lines[0] + 20)).collect())
    };
    let from_edge: Option<Vec<u32>> = match run.current_event() {
        Some((_, Event::StateAdded { parents, .. })) => {
            parents.last().and_then(|(_, e)| edge_lines(*e))
        }
        Some((_, Event::Infeasible { edge, .. })) => edge_lines(*edge),
        _ => None,
    };
    let mut lines = from_edge.unwrap_or_else(|| {
        event_locations(run)
            .into_iter()
            .filter_map(|l| location_line(&run.cfa, l))
            .collect()
    });
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// States of the view by kind, for the legend and counts.
pub fn kind_counts(view: &ArgView) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for s in view.states.values() {
        let k = match s.kind {
            StateKind::Abstraction => "abstraction",
            StateKind::Intermediate => "intermediate",
            StateKind::Plain => "plain",
        };
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

//! What the ARG view draws at the run's position: its states with their classes, the tree
//! and merge edges, coverage, and the state to keep in sight (`components::arg_view` hands it
//! to `web/js/arg.js`, which lays it out and draws it).

use crate::state::run::{Frame, Run};
use crate::state::view::Selection;
use cpa_engine::events::StateKind;
use cpa_engine::view::StateView;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Beyond this many states, only the part around the current state is drawn.
pub const MAX_DRAWN: usize = 2000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArgNode {
    pub id: u32,
    /// Parents in the drawing (the first one places the state in the tree).
    pub parents: Vec<u32>,
    pub kind: &'static str,
    /// Space-separated: waiting, covered, target, current, new, removed, cex, selected,
    /// linked.
    pub cls: String,
    pub label: String,
    /// Small text beside the state: its source line.
    pub sub: String,
    pub title: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArgModel {
    pub nodes: Vec<ArgNode>,
    /// (covered state, coverer).
    pub covers: Vec<(u32, u32)>,
    /// `"parent>child"` → the CFA edge's operation.
    pub edge_titles: BTreeMap<String, String>,
    pub focus: Option<u32>,
    /// States not drawn (large ARGs).
    #[serde(skip)]
    pub hidden: usize,
    #[serde(skip)]
    pub edge_count: usize,
}

/// `1023`, `2.7e8`: an iteration count for the small text beside a state.
fn short_count(n: u64) -> String {
    if n < 100_000 {
        n.to_string()
    } else {
        format!("{:.1e}", n as f64)
    }
}

fn kind_name(k: &StateKind) -> &'static str {
    match k {
        StateKind::Abstraction => "abstraction",
        StateKind::Intermediate => "intermediate",
        StateKind::Plain => "plain",
    }
}

/// The states to draw: all, or the `MAX_DRAWN` nearest to `focus` in the tree.
fn visible(frame: &Frame, focus: Option<u32>) -> BTreeSet<u32> {
    let states = &frame.view.states;
    if states.len() <= MAX_DRAWN {
        return states.keys().copied().collect();
    }
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for s in states.values() {
        for (p, _) in &s.parents {
            children.entry(*p).or_default().push(s.id);
        }
    }
    let start = focus
        .filter(|f| states.contains_key(f))
        .or_else(|| states.keys().next_back().copied());
    let mut seen = BTreeSet::new();
    let mut queue: VecDeque<u32> = start.into_iter().collect();
    while let Some(s) = queue.pop_front() {
        if seen.len() >= MAX_DRAWN || !seen.insert(s) {
            continue;
        }
        if let Some(st) = states.get(&s) {
            queue.extend(st.parents.iter().map(|(p, _)| *p));
        }
        if let Some(cs) = children.get(&s) {
            queue.extend(cs.iter().copied());
        }
    }
    seen
}

/// What the ARG view draws at the run's position.
pub fn arg_model(run: &Run, selection: Option<Selection>, linked: &BTreeSet<u32>) -> ArgModel {
    let frame = &run.cursor.frame;
    let view = &frame.view;
    let current_event = run.current_event();
    // States the current event is about, highlighted once.
    let mut fresh: BTreeSet<u32> = BTreeSet::new();
    if let Some((_, e)) = current_event {
        use cpa_engine::events::Event::*;
        match e {
            StateAdded { state, .. }
            | Covered { state, .. }
            | Uncovered { state }
            | Strengthened { state, .. }
            | Abstraction { state, .. }
            | TargetReached { state }
            | Cut { state, .. } => {
                fresh.insert(*state);
            }
            Merged { into, .. } => {
                fresh.insert(*into);
            }
            Readded { states } => fresh.extend(states.iter().copied()),
            _ => {}
        }
    }
    let cex: BTreeSet<u32> = match run.refinement_in_progress() {
        Some(r) => {
            // The whole ARG path to the target: from the last state of the abstract
            // counterexample up the first parents.
            let mut on_path = BTreeSet::new();
            let mut cur = r.states.last().copied();
            while let Some(s) = cur {
                if !on_path.insert(s) {
                    break;
                }
                cur = view
                    .states
                    .get(&s)
                    .and_then(|st| st.parents.first().map(|(p, _)| *p));
            }
            on_path
        }
        None => BTreeSet::new(),
    };
    // Keep in sight what the current event is about, else the state being expanded.
    let focus = fresh
        .iter()
        .copied()
        .find(|s| view.states.contains_key(s))
        .or(view.current);
    let shown = visible(frame, focus);
    // At the verdict, when every state is drawn: the newest target state if there is one (a
    // FALSE shows where the error was reached), else none, so that the view shows the whole
    // ARG if it fits at a legible scale.
    let focus = if run.at_verdict() && shown.len() == view.states.len() {
        view.states.values().rev().find(|s| s.target).map(|s| s.id)
    } else {
        focus
    };
    let selected = match selection {
        Some(Selection::State(s)) => Some(s),
        _ => None,
    };
    let mut model = ArgModel {
        focus,
        hidden: view.states.len() - shown.len(),
        ..ArgModel::default()
    };
    let marks = Marks {
        fresh: &fresh,
        cex: &cex,
        selected,
        linked,
    };
    for s in view.states.values().filter(|s| shown.contains(&s.id)) {
        push(run, &marks, s, false, &mut model);
    }
    for s in &run.cursor.removed_now {
        if !view.states.contains_key(&s.id) {
            push(run, &marks, s, true, &mut model);
        }
    }
    model
        .covers
        .retain(|(a, b)| shown.contains(a) && shown.contains(b));
    model.edge_count += model.covers.len();
    model
}

/// What marks a state besides its own status: the current event's states, the
/// counterexample's path, the selection and the states linked to it.
struct Marks<'a> {
    fresh: &'a BTreeSet<u32>,
    cex: &'a BTreeSet<u32>,
    selected: Option<u32>,
    linked: &'a BTreeSet<u32>,
}

/// Adds state `s` (one the current event removed, if `removed`) to the model.
fn push(run: &Run, marks: &Marks, s: &StateView, removed: bool, model: &mut ArgModel) {
    let frame = &run.cursor.frame;
    let view = &frame.view;
    let edge_label = |id: u32| {
        run.cfa
            .edges
            .get(id as usize)
            .filter(|e| e.id == id)
            .map(|e| e.label.clone())
            .unwrap_or_default()
    };
    let mut cls = Vec::new();
    if removed {
        cls.push("removed");
    } else {
        if s.covered_by.is_some() {
            cls.push("covered");
        } else if frame.waiting(s) {
            cls.push("waiting");
        }
        if s.target {
            cls.push("target");
        }
    }
    if Some(s.id) == view.current {
        cls.push("current");
    }
    if marks.fresh.contains(&s.id) {
        cls.push("new");
    }
    if marks.cex.contains(&s.id) {
        cls.push("cex");
    }
    if Some(s.id) == marks.selected {
        cls.push("selected");
    }
    if marks.linked.contains(&s.id) {
        cls.push("linked");
    }
    let line = crate::state::selectors::location_line(&run.cfa, s.location);
    let mut title = format!("state {} · location N{}", s.id, s.location);
    if let Some(l) = line {
        title.push_str(&format!(" · line {l}"));
    }
    title.push_str(&format!(" · {}", kind_name(&s.kind)));
    if !s.label.is_empty() {
        let here = crate::present::formula::Ranges::at(&run.cfa, s.location);
        title.push_str(&format!(
            "\n{}",
            crate::present::formula::pretty_at(&s.label, &here)
        ));
    }
    if let Some(c) = s.covered_by {
        title.push_str(&format!("\ncovered by state {c}"));
    }
    let parents: Vec<u32> = s.parents.iter().map(|(p, _)| *p).collect();
    let jump = view.accelerated.get(&s.id).copied();
    for (p, e) in &s.parents {
        let t = match jump {
            Some(n) => format!("{n} more iterations of the loop (accelerated)"),
            None => edge_label(*e),
        };
        model.edge_titles.insert(format!("{p}>{}", s.id), t);
    }
    let mut sub = line.map(|l| format!("l.{l}")).unwrap_or_default();
    if let Some(n) = jump {
        cls.push("accelerated");
        title.push_str(&format!(
            "\nreached by skipping {n} iterations (accelerated)"
        ));
        sub.push_str(&format!(" ×{}", short_count(n)));
    }
    model.edge_count += parents.len();
    model.nodes.push(ArgNode {
        id: s.id,
        parents,
        kind: kind_name(&s.kind),
        cls: cls.join(" "),
        label: s.id.to_string(),
        sub,
        title,
    });
    if let (Some(c), false) = (s.covered_by, removed) {
        model.covers.push((s.id, c));
    }
}

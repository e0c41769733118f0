//! Views derived from the state, computed once per (run, position, selection) and kept until
//! one of them changes ([`Derived::refresh`]): the ARG model, the selected state's details,
//! the lines and locations the views mark, the refinements and checks listed. The components
//! get them as `Rc`s, so an unchanged view compares equal by pointer and is not redrawn.

use crate::state::arg_model::{arg_model, ArgModel};
use crate::state::playground::Playground;
use crate::state::program::Program;
use crate::state::run::{Check, Refinement, Run, Ticket};
use crate::state::selectors::{edge_label, event_lines, event_locations, location_line};
use crate::state::view::{GraphKind, Selection, Tab, View};
use cpa_engine::events::{Event, StateKind};
use cpa_engine::verdict::Verdict;
use std::collections::BTreeSet;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeDetails {
    pub id: u32,
    pub location: u32,
    pub function: String,
    pub line: Option<u32>,
    pub kind: &'static str,
    pub status: String,
    pub depth: u32,
    /// The active calls, innermost first: (called function, line of the call).
    pub calls: Vec<(String, u32)>,
    /// The abstraction formula (abstraction states).
    pub abstraction: Option<String>,
    /// The block formula the abstraction was computed from, if it is in the events shown.
    pub block: Option<String>,
    pub covered_by: Option<u32>,
    pub precision: Vec<String>,
    /// What is known of the values at the location (formulas read without the
    /// wrap-arounds that cannot happen there).
    pub ranges: crate::present::formula::Ranges,
    /// (parent, CFA edge operation).
    pub parents: Vec<(u32, String)>,
    pub children: Vec<u32>,
    pub removed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictView {
    /// `TRUE`, `FALSE` or `UNKNOWN (reason)`.
    pub text: String,
    /// `true`, `false` or `unknown` (CSS class).
    pub kind: &'static str,
    /// A portfolio's deciding component.
    pub by: Option<String>,
}

/// What the derived views are a function of.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    run: Option<Ticket>,
    position: usize,
    at_verdict: bool,
    selection: Option<Selection>,
    graphs: Option<u64>,
    /// The counterexample step, while the counterexample tab is shown (it then picks the
    /// highlighted line).
    cex_step: Option<usize>,
}

#[derive(Debug, Default)]
pub struct Derived {
    key: Option<Key>,
    pub arg: Rc<ArgModel>,
    pub node: Option<Rc<NodeDetails>>,
    /// Source lines the ARG has reached.
    pub covered: Rc<Vec<u32>>,
    /// The current event's source lines.
    pub current_lines: Rc<Vec<u32>>,
    /// The CFA locations the current event is about.
    pub marked_nodes: Rc<Vec<u32>>,
    /// The CFA location selected (directly, or as the selected state's).
    pub selected_node: Option<u32>,
    /// The lines the editor highlights as selected.
    pub highlight: Option<(u32, u32)>,
    pub refinements: Rc<Vec<Refinement>>,
    pub checks: Rc<Vec<Check>>,
    pub verdict: Option<VerdictView>,
}

impl Derived {
    /// Computes the views again if what they depend on changed; true if it did.
    pub fn refresh(&mut self, pg: &Playground, program: &Program, view: &View) -> bool {
        let run = pg.run.as_ref();
        let key = Key {
            run: run.map(Run::ticket),
            position: run.map_or(0, |r| r.position),
            at_verdict: run.is_some_and(Run::at_verdict),
            selection: pg.selection,
            graphs: program.graphs.as_ref().map(|_| program.generation),
            cex_step: (view.tab == Tab::Counterexample).then_some(pg.cex_step),
        };
        if self.key.as_ref() == Some(&key) {
            return false;
        }
        self.key = Some(key);
        let linked = linked_states(pg, program);
        self.arg = Rc::new(
            run.map(|r| arg_model(r, pg.selection, &linked))
                .unwrap_or_default(),
        );
        self.node = node_details(pg).map(Rc::new);
        self.covered = Rc::new(
            run.map(|r| r.covered_lines().into_iter().collect())
                .unwrap_or_default(),
        );
        self.current_lines = Rc::new(run.map(event_lines).unwrap_or_default());
        self.marked_nodes = Rc::new(run.map(event_locations).unwrap_or_default());
        self.selected_node = match (pg.selection, run) {
            (Some(Selection::Location(l)), _) => Some(l),
            (Some(Selection::State(s)), Some(r)) => {
                r.cursor.frame.view.states.get(&s).map(|st| st.location)
            }
            _ => None,
        };
        self.highlight = highlight(pg, program, view.tab);
        self.refinements =
            Rc::new(run.map_or_else(Vec::new, |r| r.shown_refinements().cloned().collect()));
        self.checks = Rc::new(run.map_or_else(Vec::new, |r| r.shown_checks().cloned().collect()));
        self.verdict = run.and_then(verdict_view);
        true
    }
}

/// The lines the editor highlights as selected.
fn highlight(pg: &Playground, program: &Program, tab: Tab) -> Option<(u32, u32)> {
    if let Some(Selection::Edge(kind, id)) = pg.selection {
        return program.edge_lines(kind == GraphKind::Lbe, id);
    }
    let run = pg.run.as_ref()?;
    match pg.selection {
        Some(Selection::State(s)) => {
            let view = &run.cursor.frame.view;
            let st = view
                .states
                .get(&s)
                .or_else(|| run.cursor.removed_now.iter().find(|r| r.id == s))?;
            location_line(&run.cfa, st.location).map(|l| (l, l))
        }
        Some(Selection::Location(l)) => location_line(&run.cfa, l).map(|l| (l, l)),
        Some(Selection::Line(l)) => Some((l, l)),
        None if tab == Tab::Counterexample => match run.shown_verdict() {
            Some(Verdict::False { counterexample }) => counterexample
                .trace
                .get(
                    pg.cex_step
                        .min(counterexample.trace.len().saturating_sub(1)),
                )
                .map(|s| (s.line, s.line))
                .filter(|(l, _)| *l > 0),
            _ => None,
        },
        _ => None,
    }
}

/// ARG states linked to the selection (a location, a line or an edge picked elsewhere).
fn linked_states(pg: &Playground, program: &Program) -> BTreeSet<u32> {
    let Some(run) = &pg.run else {
        return BTreeSet::new();
    };
    let lines: BTreeSet<u32> = match pg.selection {
        Some(Selection::Edge(kind, id)) => match program.edge_lines(kind == GraphKind::Lbe, id) {
            Some((a, b)) => (a..=b).collect(),
            None => return BTreeSet::new(),
        },
        Some(Selection::Line(l)) => [l].into(),
        Some(Selection::Location(l)) => {
            return pg.states_at(l).into_iter().collect();
        }
        _ => return BTreeSet::new(),
    };
    run.cursor
        .frame
        .view
        .states
        .values()
        .filter(|s| location_line(&run.cfa, s.location).is_some_and(|l| lines.contains(&l)))
        .map(|s| s.id)
        .collect()
}

/// The details of the selected ARG state.
fn node_details(pg: &Playground) -> Option<NodeDetails> {
    let run = pg.run.as_ref()?;
    let Some(Selection::State(id)) = pg.selection else {
        return None;
    };
    let frame = &run.cursor.frame;
    let view = &frame.view;
    let (st, removed) = match view.states.get(&id) {
        Some(s) => (s, false),
        None => (run.cursor.removed_now.iter().find(|r| r.id == id)?, true),
    };
    let node = run.cfa.node(st.location);
    let block = run.events[..run.position]
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Abstraction { state, block, .. } if *state == id => Some(block.clone()),
            _ => None,
        });
    let status = if removed {
        "removed"
    } else if st.covered_by.is_some() {
        "covered"
    } else if st.target {
        "error state"
    } else if frame.waiting(st) {
        "in the waitlist"
    } else {
        "expanded"
    };
    Some(NodeDetails {
        id,
        calls: call_stack(run, st),
        location: st.location,
        ranges: node
            .map(|n| crate::present::formula::Ranges::new(&n.ranges))
            .unwrap_or_default(),
        function: node.map(|n| n.function.clone()).unwrap_or_default(),
        line: location_line(&run.cfa, st.location),
        kind: match st.kind {
            StateKind::Abstraction => "abstraction state",
            StateKind::Intermediate => "intermediate state",
            StateKind::Plain => "state",
        },
        status: status.to_string(),
        depth: st.depth,
        abstraction: (!st.label.is_empty()).then(|| st.label.clone()),
        block,
        covered_by: st.covered_by,
        precision: view
            .predicates
            .get(&st.location)
            .cloned()
            .unwrap_or_default(),
        parents: st
            .parents
            .iter()
            .map(|(p, e)| (*p, edge_label(&run.cfa, *e)))
            .collect(),
        children: view
            .states
            .values()
            .filter(|c| c.parents.iter().any(|(p, _)| *p == id))
            .map(|c| c.id)
            .collect(),
        removed,
    })
}

/// The call stack from the path to a state: going up through first parents, a return edge
/// hides the call it returns from, a call edge not hidden is an active call (innermost first).
fn call_stack(run: &Run, st: &cpa_engine::view::StateView) -> Vec<(String, u32)> {
    let view = &run.cursor.frame.view;
    let mut calls = Vec::new();
    let mut hidden = 0usize;
    let mut cur = Some(st);
    let mut guard = 0;
    while let Some(s) = cur {
        guard += 1;
        if guard > 100_000 {
            break;
        }
        let Some((p, e)) = s.parents.first() else {
            break;
        };
        if let Some(edge) = run.cfa.edges.iter().find(|x| x.id == *e) {
            match edge.kind.as_str() {
                "return" => hidden += 1,
                "call" if hidden > 0 => hidden -= 1,
                "call" => {
                    let callee = run
                        .cfa
                        .nodes
                        .iter()
                        .find(|n| n.id == edge.to)
                        .map(|n| n.function.clone())
                        .unwrap_or_default();
                    calls.push((callee, edge.lines[0]));
                }
                _ => {}
            }
        }
        cur = view.states.get(p);
    }
    calls
}

/// The verdict in the step bar, once the position reaches it.
fn verdict_view(run: &Run) -> Option<VerdictView> {
    let by = cpa_engine::events::decided_by(&run.events[..run.position]).map(str::to_string);
    let (text, kind) = match run.shown_verdict()? {
        Verdict::True => ("TRUE".into(), "true"),
        Verdict::False { .. } => ("FALSE".into(), "false"),
        Verdict::Unknown { reason } => (format!("UNKNOWN ({reason})"), "unknown"),
    };
    Some(VerdictView { text, kind, by })
}

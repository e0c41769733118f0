//! The program shown: its text (held here once; the run and the editor share it), the gallery
//! example it came from, its diagnostics, and the CFA and LBE graphs of the last text that
//! parsed, with the LBE replay's position.

use crate::present::dot::graph_dot;
use crate::present::examples::Example;
use crate::present::replay::{frame_at, Frame as LbeFrame};
use crate::protocol::{CfaReport, Diagnostic, Graph, LbeReplay};
use std::rc::Rc;

/// The file name of a program the user typed (or an example once edited).
pub const USER_FILE: &str = "program.c";

/// The graphs of the last program that parsed.
#[derive(Debug, PartialEq)]
pub struct Graphs {
    /// The file the graphs were built from (shown to tests as `data-file`).
    pub file: Rc<str>,
    pub cfa: Rc<Graph>,
    pub lbe: Graph,
    pub replay: LbeReplay,
    pub cfa_dot: Rc<str>,
}

/// A step of the LBE replay's controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LbeStep {
    Reset,
    Back,
    Forward,
    End,
}

impl LbeStep {
    /// The new position in `0..=total`.
    pub fn apply(self, position: usize, total: usize) -> usize {
        match self {
            LbeStep::Reset => 0,
            LbeStep::Back => position.saturating_sub(1),
            LbeStep::Forward => (position + 1).min(total),
            LbeStep::End => total,
        }
    }
}

/// The LBE summary as replayed to a position (the whole summary until the user steps).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LbeView {
    pub position: usize,
    /// The user is stepping: the current step's changes are highlighted.
    pub stepping: bool,
    pub frame: Option<LbeFrame>,
    pub dot: Rc<str>,
}

#[derive(Debug)]
pub struct Program {
    /// The gallery example shown (`None`: a program typed, from a link, or empty).
    pub example: Option<&'static Example>,
    pub file: String,
    /// The text in the editor.
    pub source: Rc<str>,
    /// Bumped when the editor must show `source` (a new program, not the user's own edit).
    pub editor_version: u64,
    /// Bumped with every CFA request: a report of an older one is dropped.
    pub generation: u64,
    /// A CFA request is out.
    pub building: bool,
    pub graphs: Option<Rc<Graphs>>,
    /// The graphs are of an older text (the current one does not parse).
    pub stale: bool,
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// The engine could not build the CFA (not a diagnostic of the program).
    pub engine_error: Option<Rc<str>>,
    pub lbe: LbeView,
}

impl Program {
    pub fn new(example: Option<&'static Example>, file: String, source: Rc<str>) -> Program {
        Program {
            example,
            file,
            source,
            editor_version: 0,
            generation: 0,
            building: false,
            graphs: None,
            stale: false,
            diagnostics: Rc::default(),
            engine_error: None,
            lbe: LbeView::default(),
        }
    }

    /// The example shown, if the text is still the example's.
    pub fn unedited_example(&self) -> Option<&'static Example> {
        self.example
            .filter(|e| e.file == self.file && e.source == &*self.source)
    }

    /// Shows a new program text (not an edit): the editor takes it.
    pub fn load(&mut self, example: Option<&'static Example>, file: String, source: Rc<str>) {
        self.example = example;
        self.file = file;
        self.source = source;
        self.editor_version += 1;
    }

    /// The user's edit. An edited example is the user's program: it loses the example's
    /// name and description (and a share link carries its text).
    pub fn edit(&mut self, text: String) {
        if self.example.is_some_and(|e| e.source != text) {
            self.example = None;
            self.file = USER_FILE.into();
        }
        self.source = Rc::from(text);
    }

    /// Takes a CFA report of the current text; returns the CFA when the text parses.
    pub fn accept(&mut self, report: CfaReport) -> Option<Rc<Graph>> {
        self.engine_error = None;
        self.diagnostics = Rc::new(report.diagnostics);
        match (report.ok, report.cfa, report.lbe, report.replay) {
            (true, Some(cfa), Some(lbe), Some(replay)) => {
                let nodes: Vec<_> = cfa.nodes.iter().collect();
                let edges: Vec<_> = cfa.edges.iter().collect();
                let cfa_dot =
                    graph_dot("CFA", &nodes, &edges, |_| String::new(), |_| String::new()).into();
                self.lbe.position = replay.steps.len();
                self.lbe.stepping = false;
                let cfa = Rc::new(cfa);
                self.graphs = Some(Rc::new(Graphs {
                    file: self.file.as_str().into(),
                    cfa: cfa.clone(),
                    lbe,
                    replay,
                    cfa_dot,
                }));
                self.stale = false;
                self.refresh_lbe();
                Some(cfa)
            }
            _ => {
                self.stale = self.graphs.is_some();
                None
            }
        }
    }

    /// Steps the LBE replay; false if nothing changed.
    pub fn step_lbe(&mut self, step: LbeStep) -> bool {
        let Some(g) = &self.graphs else {
            return false;
        };
        let pos = step.apply(self.lbe.position, g.replay.steps.len());
        if pos == self.lbe.position && self.lbe.stepping {
            return false;
        }
        self.lbe.position = pos;
        self.lbe.stepping = true;
        self.refresh_lbe();
        true
    }

    fn refresh_lbe(&mut self) {
        let Some(g) = &self.graphs else {
            return;
        };
        let mut frame = frame_at(&g.cfa, &g.replay, self.lbe.position);
        if !self.lbe.stepping {
            frame.step = None;
        }
        let drawn_nodes = frame.drawn_nodes();
        let drawn_edges = frame.drawn_edges();
        let nodes: Vec<_> = g
            .cfa
            .nodes
            .iter()
            .filter(|n| drawn_nodes.contains(&n.id))
            .collect();
        let edges: Vec<_> = drawn_edges
            .iter()
            .map(|&e| &g.replay.edges[e as usize])
            .collect();
        let focus = frame.step.as_ref().map(|s| (s.location, s.other));
        let dot = graph_dot(
            "LBE",
            &nodes,
            &edges,
            |id| {
                let mut c = Vec::new();
                if frame.is_eliminated_node(id) {
                    c.push("eliminated");
                }
                if focus.is_some_and(|(l, o)| l == id || o == Some(id)) {
                    c.push("focus");
                }
                c.join(" ")
            },
            |id| {
                if frame.is_added_edge(id) {
                    "added".into()
                } else if frame.is_removed_edge(id) {
                    "removed".into()
                } else {
                    String::new()
                }
            },
        );
        self.lbe.dot = dot.into();
        self.lbe.frame = Some(frame);
    }

    /// The CFA edges the current LBE step's new summary edges stand for.
    pub fn cfa_edges_in_step(&self) -> Vec<u32> {
        let (Some(g), Some(f)) = (&self.graphs, &self.lbe.frame) else {
            return Vec::new();
        };
        let Some(step) = &f.step else {
            return Vec::new();
        };
        let mut ids: Vec<u32> = step
            .added
            .iter()
            .filter_map(|&a| g.replay.edges.get(a as usize))
            .flat_map(|e| e.edges.clone().unwrap_or_default())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The source lines of edge `id` of the CFA or of the LBE summary (`[first, last]`).
    pub fn edge_lines(&self, lbe: bool, id: u32) -> Option<(u32, u32)> {
        let g = self.graphs.as_ref()?;
        let edge = if lbe {
            g.replay.edges.get(id as usize)
        } else {
            g.cfa.edges.iter().find(|e| e.id == id)
        }?;
        let [a, b] = edge.lines;
        (a > 0).then_some((a, b.max(a)))
    }
}

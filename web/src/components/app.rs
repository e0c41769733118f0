//! The playground page: owns the program text, the engine worker and what the views show.

use crate::components::diagnostics::Diagnostics;
use crate::components::editor::Editor;
use crate::components::example_select::ExampleSelect;
use crate::components::graph_view::GraphView;
use crate::components::lbe_stepper::{LbeStepper, StepCommand};
use crate::dot::graph_dot;
use crate::engine_client::{EngineClient, EngineStatus, PageReply};
use crate::examples::{self, Example, EXAMPLES};
use crate::model::{CfaReport, Diagnostic, Graph, LbeReplay};
use crate::protocol::{Reply, Request};
use crate::replay::{frame_at, step_label, Frame};
use crate::vendor::EditorDiagnostic;
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use yew::prelude::*;

/// Pause after the last keystroke before the CFA is rebuilt.
const DEBOUNCE_MS: u32 = 300;
const WORKER_SCRIPT: &str = "worker.js";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphKind {
    Cfa,
    Lbe,
}

pub enum Msg {
    Engine(EngineStatus),
    Edited(String),
    Rebuild,
    Report {
        generation: u64,
        result: Result<PageReply, String>,
    },
    SelectExample(String),
    Step(StepCommand),
    EdgeClicked(GraphKind, u32),
    LineSelected(u32),
}

/// The graphs of the last program that parsed.
struct Graphs {
    /// The file the graphs were built from (shown to tests as `data-file`).
    file: AttrValue,
    cfa: Graph,
    lbe: Graph,
    replay: LbeReplay,
    cfa_dot: AttrValue,
}

pub struct App {
    engine: EngineClient,
    status: EngineStatus,
    example: &'static Example,
    source: String,
    /// What the editor must show, bumped on each external replacement.
    editor_text: AttrValue,
    editor_version: u64,
    debounce: Option<Timeout>,
    /// Counts rebuild requests: only the newest one's reply is shown.
    generation: u64,
    building: bool,
    graphs: Option<Rc<Graphs>>,
    /// The graphs are from an earlier text (the current one does not parse).
    stale: bool,
    diagnostics: Rc<Vec<Diagnostic>>,
    editor_diagnostics: Rc<Vec<EditorDiagnostic>>,
    engine_error: Option<AttrValue>,
    position: usize,
    /// Whether the user has stepped since the report arrived: until then the summary is shown
    /// plainly, without the last step's highlights.
    stepping: bool,
    frame: Option<Frame>,
    lbe_dot: AttrValue,
    highlight: Option<(u32, u32)>,
    selected: Option<(GraphKind, u32)>,
    on_edit: Callback<String>,
}

impl App {
    fn request_report(&mut self, ctx: &Context<Self>) {
        self.debounce = None;
        self.generation += 1;
        self.building = true;
        let generation = self.generation;
        let link = ctx.link().clone();
        self.engine.request(
            Request::CfaReport {
                file: self.example.file.to_string(),
                source: self.source.clone(),
            },
            move |result| link.send_message(Msg::Report { generation, result }),
        );
    }

    fn accept_report(&mut self, report: CfaReport) {
        self.engine_error = None;
        self.editor_diagnostics = Rc::new(
            report
                .diagnostics
                .iter()
                .map(EditorDiagnostic::from)
                .collect(),
        );
        self.diagnostics = Rc::new(report.diagnostics);
        match (report.ok, report.cfa, report.lbe, report.replay) {
            (true, Some(cfa), Some(lbe), Some(replay)) => {
                let nodes: Vec<_> = cfa.nodes.iter().collect();
                let edges: Vec<_> = cfa.edges.iter().collect();
                let cfa_dot =
                    graph_dot("CFA", &nodes, &edges, |_| String::new(), |_| String::new()).into();
                self.position = replay.steps.len();
                self.stepping = false;
                self.graphs = Some(Rc::new(Graphs {
                    file: self.example.file.into(),
                    cfa,
                    lbe,
                    replay,
                    cfa_dot,
                }));
                self.stale = false;
                self.selected = None;
                self.refresh_replay();
            }
            _ => self.stale = self.graphs.is_some(),
        }
    }

    fn refresh_replay(&mut self) {
        let Some(g) = &self.graphs else {
            return;
        };
        let mut frame = frame_at(&g.cfa, &g.replay, self.position);
        if !self.stepping {
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
        self.lbe_dot = dot.into();
        self.frame = Some(frame);
    }

    /// The CFA edges the current step's new summary edges stand for.
    fn cfa_edges_in_step(&self) -> Rc<Vec<u32>> {
        let (Some(g), Some(f)) = (&self.graphs, &self.frame) else {
            return Rc::default();
        };
        let Some(step) = &f.step else {
            return Rc::default();
        };
        let mut ids: Vec<u32> = step
            .added
            .iter()
            .filter_map(|&a| g.replay.edges.get(a as usize))
            .flat_map(|e| e.edges.clone().unwrap_or_default())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        Rc::new(ids)
    }

    fn status_text(&self) -> (String, &'static str) {
        match &self.status {
            EngineStatus::Starting => ("Engine starting…".into(), "starting"),
            EngineStatus::Failed(e) => (format!("Engine failed: {e}"), "failed"),
            EngineStatus::Ready if self.building => ("Building CFA…".into(), "busy"),
            EngineStatus::Ready | EngineStatus::Z3 { .. } => ("Engine ready".into(), "ready"),
        }
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let engine = EngineClient::new(WORKER_SCRIPT, ctx.link().callback(Msg::Engine));
        crate::debug_hook::install(&engine);
        let example = &EXAMPLES[0];
        let mut app = App {
            engine,
            status: EngineStatus::Starting,
            example,
            source: example.source.to_string(),
            editor_text: example.source.into(),
            editor_version: 0,
            debounce: None,
            generation: 0,
            building: false,
            graphs: None,
            stale: false,
            diagnostics: Rc::default(),
            editor_diagnostics: Rc::default(),
            engine_error: None,
            position: 0,
            stepping: false,
            frame: None,
            lbe_dot: AttrValue::default(),
            highlight: None,
            selected: None,
            on_edit: ctx.link().callback(Msg::Edited),
        };
        app.request_report(ctx);
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Engine(status) => {
                if let EngineStatus::Failed(e) = &status {
                    self.engine_error = Some(e.clone().into());
                }
                self.status = status;
            }
            Msg::Edited(text) => {
                self.source = text;
                self.highlight = None;
                self.selected = None;
                let link = ctx.link().clone();
                self.debounce = Some(Timeout::new(DEBOUNCE_MS, move || {
                    link.send_message(Msg::Rebuild)
                }));
            }
            Msg::Rebuild => self.request_report(ctx),
            Msg::Report { generation, result } => {
                if generation != self.generation {
                    return false;
                }
                self.building = false;
                match result {
                    Ok(Reply::CfaReport { report }) => {
                        // A reply proves the (possibly restarted) worker works again.
                        if matches!(self.status, EngineStatus::Failed(_)) {
                            self.status = EngineStatus::Ready;
                        }
                        self.accept_report(report)
                    }
                    Ok(Reply::Error { message }) | Err(message) => {
                        self.engine_error = Some(message.into())
                    }
                    Ok(_) => self.engine_error = Some("unexpected engine reply".into()),
                }
            }
            Msg::SelectExample(key) => {
                let Some(example) = examples::by_key(&key) else {
                    return false;
                };
                self.example = example;
                self.source = example.source.to_string();
                self.editor_text = example.source.into();
                self.editor_version += 1;
                self.highlight = None;
                self.selected = None;
                self.request_report(ctx);
            }
            Msg::Step(cmd) => {
                let Some(g) = &self.graphs else {
                    return false;
                };
                let pos = cmd.apply(self.position, g.replay.steps.len());
                if pos == self.position && self.stepping {
                    return false;
                }
                self.position = pos;
                self.stepping = true;
                if self.selected.is_some_and(|(k, _)| k == GraphKind::Lbe) {
                    self.selected = None;
                }
                self.refresh_replay();
            }
            Msg::EdgeClicked(kind, id) => {
                let Some(g) = &self.graphs else {
                    return false;
                };
                let edge = match kind {
                    GraphKind::Cfa => g.cfa.edges.iter().find(|e| e.id == id),
                    GraphKind::Lbe => g.replay.edges.get(id as usize),
                };
                let Some(edge) = edge else {
                    return false;
                };
                self.selected = Some((kind, id));
                self.highlight = (edge.lines[0] > 0)
                    .then_some((edge.lines[0], edge.lines[1].max(edge.lines[0])));
            }
            Msg::LineSelected(line) => self.highlight = Some((line, line)),
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let (status, status_class) = self.status_text();
        let total = self.graphs.as_ref().map_or(0, |g| g.replay.steps.len());
        let label = step_label(
            self.frame.as_ref().and_then(|f| f.step.as_ref()),
            self.position,
            total,
        );
        let selected =
            |kind: GraphKind| self.selected.filter(|(k, _)| *k == kind).map(|(_, id)| id);
        let cfa_panel = self.graphs.as_ref().map(|g| {
            html! {
                <GraphView
                    testid="cfa-view" prefix="cfa" title="CFA" file={g.file.clone()}
                    dot={g.cfa_dot.clone()} nodes={g.cfa.nodes.len()} edges={g.cfa.edges.len()}
                    stale={self.stale} selected_edge={selected(GraphKind::Cfa)}
                    marked_edges={self.cfa_edges_in_step()}
                    on_edge_click={link.callback(|id| Msg::EdgeClicked(GraphKind::Cfa, id))}
                />
            }
        });
        let lbe_panel = self.graphs.as_ref().zip(self.frame.as_ref()).map(|(g, f)| {
            // At the end of the replay, the engine's own summary (the replay reaches the same
            // graph, see `replay::tests`); before it, what the replay has built so far.
            let (nodes, edges) = if f.position == total {
                (g.lbe.nodes.len(), g.lbe.edges.len())
            } else {
                (f.nodes.len(), f.edges.len())
            };
            html! {
            <GraphView
                testid="lbe-view" prefix="lbe" title="LBE summary" file={g.file.clone()}
                dot={self.lbe_dot.clone()} {nodes} {edges}
                stale={self.stale} selected_edge={selected(GraphKind::Lbe)}
                on_edge_click={link.callback(|id| Msg::EdgeClicked(GraphKind::Lbe, id))}
            >
                <LbeStepper position={self.position} total={g.replay.steps.len()} label={label.clone()}
                    on_command={link.callback(Msg::Step)} />
            </GraphView>
            }
        });
        html! {
            <div class="app">
                <header class="topbar">
                    <h1 class="brand">{ "CPA Playground" }</h1>
                    <ExampleSelect selected={self.example.key} on_select={link.callback(Msg::SelectExample)} />
                    <span class={classes!("engine-status", status_class)} data-testid="engine-status">{ status }</span>
                </header>
                <main class="workspace">
                    <div class="column source-column">
                        <section class="panel editor-panel" aria-label="Program">
                            <header class="panel-head">
                                <h2>{ self.example.file }</h2>
                            </header>
                            <Editor
                                text={self.editor_text.clone()} version={self.editor_version}
                                diagnostics={self.editor_diagnostics.clone()} highlight={self.highlight}
                                on_change={self.on_edit.clone()}
                            />
                        </section>
                        <Diagnostics diagnostics={self.diagnostics.clone()} engine_error={self.engine_error.clone()}
                            on_select_line={link.callback(Msg::LineSelected)} />
                    </div>
                    // Later views (ARG, interpolants, solver log, counterexample) join this column.
                    <div class="column views-column">
                        { cfa_panel.unwrap_or_else(|| {
                            let note = if self.building || self.generation == 0 {
                                "Building the CFA…"
                            } else {
                                "No CFA: the program does not parse yet."
                            };
                            html! { <section class="panel placeholder" data-testid="cfa-view"><p>{ note }</p></section> }
                        }) }
                        { lbe_panel.unwrap_or_default() }
                    </div>
                </main>
            </div>
        }
    }
}

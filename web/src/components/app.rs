//! The playground page: the layout, the program text and its CFA report, the [`Playground`]
//! state (changed only by its reducer) and the [`Driver`] that talks to the engine worker.
//! Every view is its own component and gets what it shows as props.

use crate::browser::js::EditorDiagnostic;
use crate::browser::url as page_url;
use crate::components::arg_view::{arg_model, ArgModel, ArgView};
use crate::components::controls::{Controls, VerdictView};
use crate::components::counterexample_panel::CounterexamplePanel;
use crate::components::diagnostics::Diagnostics;
use crate::components::editor::Editor;
use crate::components::example_select::ExampleSelect;
use crate::components::explain_panel::ExplainPanel;
use crate::components::graph_view::GraphView;
use crate::components::help_overlay::HelpOverlay;
use crate::components::interpolants_panel::InterpolantsPanel;
use crate::components::knobs_panel::KnobsPanel;
use crate::components::lbe_stepper::{LbeStepper, StepCommand};
use crate::components::node_panel::{NodeDetails, NodePanel};
use crate::components::share_dialog::ShareDialog;
use crate::components::solver_log::{SolverLog, SHOWN};
use crate::components::stats_panel::StatsPanel;
use crate::engine::client::{EngineClient, EngineStatus, PageReply, CANCELLED};
use crate::engine::driver::Driver;
use crate::explain::{explain, Context as ExplainContext};
use crate::present::dot::graph_dot;
use crate::present::examples::{self, Example, EXAMPLES};
use crate::present::knobs::{knobs, with_knob};
use crate::present::replay::{frame_at, step_label, Frame as LbeFrame};
use crate::protocol::{CfaReport, Diagnostic, Graph, LbeReplay};
use crate::protocol::{Reply, Request, RunConfig};
use crate::state::export::{arg_dot, run_json, ExportKind};
use crate::state::link::{Link, LinkError, Program};
use crate::state::{
    edge_label, event_lines, event_locations, location_line, Action, GraphKind, Phase, PhoneView,
    Playground, Run, Selection, Tab, Target,
};
use cpa_engine::config::{AlgorithmKind, Preset};
use cpa_engine::verdict::Verdict;
use gloo_timers::callback::Timeout;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

/// Pause after the last keystroke before the CFA is rebuilt.
const DEBOUNCE_MS: u32 = 300;
/// The address bar's entry is rewritten at most this often: Chromium's `replaceState` costs
/// 3-4 ms with a long fragment, which was a tenth of a step's time while stepping.
const URL_THROTTLE_MS: u32 = 250;
const WORKER_SCRIPT: &str = "worker.js";
/// The example and preset the page opens with.
const DEFAULT_EXAMPLE: &str = "unifying-fig2";
/// The file name of a program the user typed (or an example once edited).
const USER_FILE: &str = "program.c";

const TABS: [(Tab, &str, &str); 5] = [
    (Tab::Refinements, "Refinements", "tab-refinements"),
    (Tab::Log, "Solver log", "tab-log"),
    (Tab::Stats, "Statistics", "tab-stats"),
    (Tab::Counterexample, "Counterexample", "tab-counterexample"),
    (Tab::Node, "State", "tab-node"),
];

pub enum Msg {
    Engine(EngineStatus),
    Edited(String),
    Rebuild,
    Report {
        generation: u64,
        result: Result<PageReply, String>,
    },
    SelectExample(String),
    Act(Action),
    Lbe(StepCommand),
    EdgeClicked(GraphKind, u32),
    NodeClicked(u32),
    StateClicked(u32),
    LineSelected(u32),
    Tab(Tab),
    LeftTab(GraphKind),
    Help(Option<Option<&'static str>>),
    ToggleKnobs,
    Preset(String),
    SetKnob(String, String),
    ResetKnobs,
    Presentation,
    Theme,
    /// The throttled rewrite of the address bar's entry is due.
    FlushUrl,
    /// The share dialog opens or closes.
    Share,
    /// Back or forward in the browser's history: the fragment to open.
    OpenFragment(String),
    Export(ExportKind),
    Phone(PhoneView),
    LogSearch(String),
    LoadQuery(u64),
    QueryLoaded(u64, Result<(String, String), String>),
    Escape,
}

/// The graphs of the last program that parsed.
struct Graphs {
    /// The file the graphs were built from (shown to tests as `data-file`).
    file: AttrValue,
    cfa: Rc<Graph>,
    lbe: Graph,
    replay: LbeReplay,
    cfa_dot: AttrValue,
}

pub struct App {
    driver: Driver,
    status: EngineStatus,
    /// Z3's load: (loaded, total) bytes while loading.
    z3: Option<(u64, u64)>,
    z3_ready: bool,
    /// Shared with the console hook (`cpaDebug.events()`), which reads it between updates.
    pg: Rc<RefCell<Playground>>,
    /// The gallery example shown (`None`: a program from a link, or an empty playground).
    example: Option<&'static Example>,
    /// The program's file name.
    file: String,
    source: String,
    editor_text: AttrValue,
    editor_version: u64,
    debounce: Option<Timeout>,
    generation: u64,
    building: bool,
    graphs: Option<Rc<Graphs>>,
    stale: bool,
    diagnostics: Rc<Vec<Diagnostic>>,
    editor_diagnostics: Rc<Vec<EditorDiagnostic>>,
    engine_error: Option<AttrValue>,
    lbe_position: usize,
    lbe_stepping: bool,
    lbe_frame: Option<LbeFrame>,
    lbe_dot: AttrValue,
    /// Lines picked by a click on a CFA/LBE edge (until something else is selected).
    edge_highlight: Option<(GraphKind, u32, (u32, u32))>,
    tab: Tab,
    left: GraphKind,
    help: Option<Option<&'static str>>,
    knobs_open: bool,
    presentation: bool,
    log_search: String,
    /// Why the link the page was opened with (or went back to) does not open.
    link_error: Option<AttrValue>,
    /// A link's step and selection, shown once its program's CFA is there.
    pending_link: Option<(u64, Option<Selection>)>,
    share_open: bool,
    phone: PhoneView,
    /// `?embed`: read-only, for an iframe.
    embed: bool,
    /// The views `?embed=…` leaves out, as CSS classes.
    embed_hidden: Vec<&'static str>,
    /// The fragment in the address bar, and what makes a change of it a new history entry.
    url_fragment: String,
    url_key: Option<(String, String, RunConfig)>,
    /// The state `url_fragment` was last computed from.
    url_link: Option<Link>,
    /// A rewrite of the current entry not yet written, and its timer (armed while pending).
    url_pending: Option<String>,
    url_timer: Option<Timeout>,
    _popstate: Option<Closure<dyn FnMut(web_sys::Event)>>,
    full_queries: Rc<BTreeMap<u64, (String, String)>>,
    on_edit: Callback<String>,
    _keys: Option<Closure<dyn FnMut(web_sys::KeyboardEvent)>>,
}

impl App {
    fn request_report(&mut self, ctx: &Context<Self>) {
        self.debounce = None;
        self.generation += 1;
        self.building = true;
        self.act(Action::Building);
        let generation = self.generation;
        let link = ctx.link().clone();
        self.driver.engine().request(
            Request::CfaReport {
                file: self.file.clone(),
                source: self.source.clone(),
            },
            move |result| link.send_message(Msg::Report { generation, result }),
        );
    }

    fn act(&mut self, action: Action) {
        let cmds = self.pg.borrow_mut().reduce(action);
        self.driver.execute(cmds);
    }

    /// Shows a new program text (from the gallery, a link, or nothing) and builds its CFA.
    fn load_program(
        &mut self,
        ctx: &Context<Self>,
        example: Option<&'static Example>,
        file: String,
        source: String,
    ) {
        self.example = example;
        self.file = file;
        self.editor_text = source.clone().into();
        self.source = source;
        self.editor_version += 1;
        self.edge_highlight = None;
        self.request_report(ctx);
    }

    /// Opens a share link: its program, configuration and view now, its step and selection
    /// once the program's CFA is there.
    fn open_link(&mut self, ctx: &Context<Self>, link: Link) {
        self.link_error = None;
        let (example, file, source) = match link.program {
            Program::Example(e) => (Some(e), e.file.to_string(), e.source.to_string()),
            Program::Text { file, source } => (None, file, source),
        };
        self.tab = link.tab;
        self.left = link.graph;
        self.act(Action::Configure(link.config));
        if link.step > 0 {
            self.phone = PhoneView::Arg;
        }
        self.pending_link = Some((link.step, link.selection));
        let built = {
            let pg = self.pg.borrow();
            pg.cfa.is_some() && pg.file == file && *pg.source == *source
        };
        if built && self.file == file && self.source == source && !self.building {
            self.example = example;
            self.finish_link();
        } else {
            self.load_program(ctx, example, file, source);
        }
    }

    /// A link that does not open: say why, and start empty.
    fn refuse_link(&mut self, ctx: &Context<Self>, e: LinkError) {
        self.link_error = Some(
            format!(
                "This link does not open: {e}. The playground starts empty: pick an example or type a program."
            )
            .into(),
        );
        self.pending_link = None;
        self.load_program(ctx, None, USER_FILE.into(), String::new());
    }

    fn finish_link(&mut self) {
        let Some((step, selection)) = self.pending_link.take() else {
            return;
        };
        self.act(Action::Reset);
        if step > 0 {
            self.act(Action::Seek(usize::try_from(step).unwrap_or(usize::MAX)));
        }
        self.act(Action::Select(selection));
    }

    /// The state as a share link.
    fn link(&self) -> Link {
        let pg = self.pg.borrow();
        let program = match self.example {
            Some(e) if e.file == self.file && e.source == self.source => Program::Example(e),
            _ => Program::Text {
                file: self.file.clone(),
                source: self.source.clone(),
            },
        };
        Link {
            program,
            config: pg.config.clone(),
            step: pg.run.as_ref().map_or(0, |r| r.position as u64),
            tab: self.tab,
            graph: self.left,
            selection: pg.selection,
        }
    }

    /// Downloads the CFA, the LBE summary or the ARG at the step shown (DOT, or SVG laid out
    /// by Graphviz), or the run as JSON.
    fn export(&self, kind: ExportKind) {
        let (_, _, suffix, mime) = kind.describe();
        let stem = self
            .file
            .rsplit_once('.')
            .map_or(self.file.as_str(), |(s, _)| s);
        let name = format!("{stem}-{suffix}");
        let run = self.pg.borrow();
        let run = run.run.as_ref();
        let dot: Option<String> = match kind {
            ExportKind::CfaDot | ExportKind::CfaSvg => {
                self.graphs.as_ref().map(|g| g.cfa_dot.to_string())
            }
            ExportKind::LbeDot | ExportKind::LbeSvg => Some(self.lbe_dot.to_string()),
            ExportKind::ArgDot | ExportKind::ArgSvg => run.map(arg_dot),
            ExportKind::RunJson => {
                if let Some(r) = run {
                    page_url::download(&name, mime, &run_json(r));
                }
                return;
            }
            ExportKind::Witness => {
                // RFC 3339 without milliseconds, as the CLI writes it.
                let now = js_sys::Date::new_0()
                    .to_iso_string()
                    .as_string()
                    .unwrap_or_default();
                let now = match now.split_once('.') {
                    Some((s, _)) => format!("{s}Z"),
                    None => now,
                };
                self.driver.witness(now, move |r| match r {
                    Ok(yaml) => page_url::download(&name, mime, &yaml),
                    Err(e) => web_sys::console::error_1(&e.into()),
                });
                return;
            }
        };
        let Some(dot) = dot.filter(|d| !d.is_empty()) else {
            return;
        };
        if !kind.is_svg() {
            page_url::download(&name, mime, &dot);
            return;
        }
        let promise = crate::browser::js::render_dot(&dot);
        wasm_bindgen_futures::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(svg) => page_url::download(&name, mime, &svg.as_string().unwrap_or_default()),
                Err(e) => web_sys::console::error_1(&e),
            }
        });
    }

    /// Keeps the address bar on the state shown: a new history entry when the program or
    /// the configuration changed, the same entry otherwise (steps, edits, selection).
    fn sync_url(&mut self, ctx: &Context<Self>) {
        let settling = self.pending_link.is_some()
            || self.link_error.is_some()
            || self.building
            || self
                .pg
                .borrow()
                .run
                .as_ref()
                .is_some_and(|r| r.goal.is_some());
        if settling {
            return;
        }
        // Deflate only when the state changed (this runs after every render).
        let link = self.link();
        if self.url_link.as_ref() == Some(&link) {
            return;
        }
        let fragment = link.encode();
        self.url_link = Some(link);
        if fragment == self.url_fragment {
            return;
        }
        let key = (
            self.example.map_or_else(String::new, |e| e.key.to_string()),
            self.file.clone(),
            self.pg.borrow().config.clone(),
        );
        let push = self.url_key.as_ref().is_some_and(|k| *k != key);
        if push {
            // The entry being left keeps its last state; the new one is written at once.
            self.flush_url();
            page_url::set_fragment(&fragment, true);
        } else {
            if self.url_pending.is_none() {
                let link = ctx.link().clone();
                self.url_timer = Some(Timeout::new(URL_THROTTLE_MS, move || {
                    link.send_message(Msg::FlushUrl)
                }));
            }
            self.url_pending = Some(fragment.clone());
        }
        self.url_fragment = fragment;
        self.url_key = Some(key);
    }

    /// Writes a pending rewrite of the current entry.
    fn flush_url(&mut self) {
        if let Some(f) = self.url_pending.take() {
            page_url::set_fragment(&f, false);
        }
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
        let program_cfa = match (report.ok, report.cfa, report.lbe, report.replay) {
            (true, Some(cfa), Some(lbe), Some(replay)) => {
                let nodes: Vec<_> = cfa.nodes.iter().collect();
                let edges: Vec<_> = cfa.edges.iter().collect();
                let cfa_dot =
                    graph_dot("CFA", &nodes, &edges, |_| String::new(), |_| String::new()).into();
                self.lbe_position = replay.steps.len();
                self.lbe_stepping = false;
                let cfa = Rc::new(cfa);
                self.graphs = Some(Rc::new(Graphs {
                    file: self.file.clone().into(),
                    cfa: cfa.clone(),
                    lbe,
                    replay,
                    cfa_dot,
                }));
                self.stale = false;
                self.edge_highlight = None;
                self.refresh_lbe();
                Some(cfa)
            }
            _ => {
                self.stale = self.graphs.is_some();
                None
            }
        };
        self.full_queries = Rc::default();
        self.act(Action::Program {
            file: self.file.clone(),
            source: Rc::from(self.source.as_str()),
            cfa: program_cfa,
        });
        self.finish_link();
    }

    /// The CFA of the text shown could not be built (the engine failed): nothing can run.
    fn no_cfa(&mut self) {
        self.act(Action::Program {
            file: self.file.clone(),
            source: Rc::from(self.source.as_str()),
            cfa: None,
        });
    }

    fn refresh_lbe(&mut self) {
        let Some(g) = &self.graphs else {
            return;
        };
        let mut frame = frame_at(&g.cfa, &g.replay, self.lbe_position);
        if !self.lbe_stepping {
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
        self.lbe_frame = Some(frame);
    }

    /// The CFA edges the current LBE step's new summary edges stand for.
    fn cfa_edges_in_step(&self) -> Rc<Vec<u32>> {
        let (Some(g), Some(f)) = (&self.graphs, &self.lbe_frame) else {
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
            _ if self.building => ("Building the CFA…".into(), "busy"),
            _ => match self.z3 {
                Some((loaded, total)) if !self.z3_ready => {
                    let mb = |b: u64| b as f64 / 1_048_576.0;
                    let text = if total > 0 {
                        format!("Loading Z3… {:.0} of {:.0} MB", mb(loaded), mb(total))
                    } else {
                        format!("Loading Z3… {:.0} MB", mb(loaded))
                    };
                    (text, "loading")
                }
                _ => ("Engine ready".into(), "ready"),
            },
        }
    }

    /// The lines the editor highlights as selected.
    fn highlight(&self, pg: &Playground) -> Option<(u32, u32)> {
        if let Some((_, _, lines)) = self.edge_highlight {
            return Some(lines);
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
            None if self.tab == Tab::Counterexample => match run.shown_verdict() {
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
            None => None,
        }
    }

    /// ARG states linked to the selection (a location or line picked elsewhere).
    fn linked_states(&self, pg: &Playground) -> BTreeSet<u32> {
        let Some(run) = &pg.run else {
            return BTreeSet::new();
        };
        let lines: BTreeSet<u32> = match (pg.selection, self.edge_highlight) {
            (_, Some((_, _, (a, b)))) => (a..=b).collect(),
            (Some(Selection::Line(l)), _) => [l].into(),
            (Some(Selection::Location(l)), _) => {
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

    fn node_details(&self, pg: &Playground) -> Option<NodeDetails> {
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
        let node = run.cfa.nodes.iter().find(|n| n.id == st.location);
        let block = run.events[..run.position]
            .iter()
            .rev()
            .find_map(|e| match e {
                cpa_engine::events::Event::Abstraction { state, block, .. } if *state == id => {
                    Some(block.clone())
                }
                _ => None,
            });
        let status = if removed {
            "removed".to_string()
        } else if st.covered_by.is_some() {
            "covered".to_string()
        } else if st.target {
            "error state".to_string()
        } else if frame.waiting(st) {
            "in the waitlist".to_string()
        } else {
            "expanded".to_string()
        };
        // The call stack from the path to the state: going up through first parents, a return
        // edge hides the call it returns from, a call edge not hidden is an active call.
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
        Some(NodeDetails {
            id,
            calls,
            location: st.location,
            function: node.map(|n| n.function.clone()).unwrap_or_default(),
            line: location_line(&run.cfa, st.location),
            kind: match st.kind {
                cpa_engine::events::StateKind::Abstraction => "abstraction state",
                cpa_engine::events::StateKind::Intermediate => "intermediate state",
                cpa_engine::events::StateKind::Plain => "state",
            },
            status,
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

    fn install_popstate(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        let handler = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            link.send_message(Msg::OpenFragment(page_url::fragment()));
        });
        if let Some(w) = web_sys::window() {
            let _ =
                w.add_event_listener_with_callback("popstate", handler.as_ref().unchecked_ref());
        }
        self._popstate = Some(handler);
    }

    fn install_keys(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        let handler =
            Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                // Never while typing: the editor, inputs, selects.
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        el.closest(".cm-editor, input, textarea, select")
                            .ok()
                            .flatten()
                            .is_some()
                    });
                if typing || e.alt_key() {
                    return;
                }
                let ctrl = e.ctrl_key() || e.meta_key();
                let msg = match e.key().as_str() {
                    "ArrowRight" if ctrl => Msg::Act(Action::Step(Target::Refinement)),
                    "ArrowRight" if e.shift_key() => Msg::Act(Action::Step(Target::Abstraction)),
                    "ArrowRight" => Msg::Act(Action::Step(Target::Event)),
                    "ArrowLeft" if !ctrl => Msg::Act(Action::StepBack),
                    "End" => Msg::Act(Action::Step(Target::End)),
                    "Home" => Msg::Act(Action::Reset),
                    " " => Msg::Act(Action::Run),
                    "1" => Msg::Tab(Tab::Refinements),
                    "2" => Msg::Tab(Tab::Log),
                    "3" => Msg::Tab(Tab::Stats),
                    "4" => Msg::Tab(Tab::Counterexample),
                    "5" => Msg::Tab(Tab::Node),
                    "?" => Msg::Help(Some(None)),
                    "p" | "P" if !ctrl => Msg::Presentation,
                    "d" | "D" if !ctrl => Msg::Theme,
                    "s" | "S" if !ctrl => Msg::Share,
                    "Escape" => Msg::Escape,
                    _ => return,
                };
                e.prevent_default();
                link.send_message(msg);
            });
        if let Some(w) = web_sys::window() {
            let _ = w.add_event_listener_with_callback("keydown", handler.as_ref().unchecked_ref());
        }
        self._keys = Some(handler);
    }

    fn verdict_view(run: &Run) -> Option<VerdictView> {
        let by = cpa_engine::events::decided_by(&run.events[..run.position]).map(str::to_string);
        let (text, kind) = match run.shown_verdict()? {
            Verdict::True => ("TRUE".into(), "true"),
            Verdict::False { .. } => ("FALSE".into(), "false"),
            Verdict::Unknown { reason } => (format!("UNKNOWN ({reason})"), "unknown"),
        };
        Some(VerdictView { text, kind, by })
    }
}

fn svg_icon(path: &'static str) -> Html {
    html! {
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d={path} fill="currentColor" fill-rule="evenodd" /></svg>
    }
}

/// Toggles `data-theme` on the root element between light and dark (the first toggle
/// departs from the system's preference).
fn toggle_theme() {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let dark_now = match root.get_attribute("data-theme").as_deref() {
        Some("dark") => true,
        Some(_) => false,
        None => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    };
    let theme = if dark_now { "light" } else { "dark" };
    let _ = root.set_attribute("data-theme", theme);
    page_url::store_theme(theme);
}

/// Sets the value of the `<select>` with `data-testid` `testid`, if it differs.
fn set_select(testid: &str, value: &str) {
    let select = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("select[data-testid=\"{testid}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok());
    if let Some(select) = select {
        if select.value() != value {
            select.set_value(value);
        }
    }
}

/// The theme chosen on an earlier visit, if any (else the system's preference applies).
fn restore_theme() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let (Some(root), Some(theme)) = (root, page_url::stored_theme()) {
        let _ = root.set_attribute("data-theme", &theme);
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let engine = EngineClient::new(WORKER_SCRIPT, ctx.link().callback(Msg::Engine));
        let driver = Driver::new(engine, ctx.link().callback(Msg::Act));
        restore_theme();
        let example = examples::by_key(DEFAULT_EXAMPLE).unwrap_or(&EXAMPLES[0]);
        let opened = Link::decode(&page_url::fragment());
        let config = match &opened {
            Ok(Some(link)) => link.config.clone(),
            _ => RunConfig::preset(example.preset),
        };
        let mut app = App {
            driver,
            status: EngineStatus::Starting,
            z3: None,
            z3_ready: false,
            pg: Rc::new(RefCell::new(Playground::new(config))),
            example: Some(example),
            file: example.file.to_string(),
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
            lbe_position: 0,
            lbe_stepping: false,
            lbe_frame: None,
            lbe_dot: AttrValue::default(),
            edge_highlight: None,
            tab: Tab::Refinements,
            left: GraphKind::Cfa,
            help: None,
            knobs_open: false,
            presentation: page_url::has_param("present"),
            log_search: String::new(),
            link_error: None,
            pending_link: None,
            share_open: false,
            phone: PhoneView::default(),
            embed: page_url::has_param("embed"),
            embed_hidden: page_url::param("embed")
                .map(|v| page_url::embed_hidden(&v))
                .unwrap_or_default(),
            url_fragment: String::new(),
            url_key: None,
            url_link: None,
            url_pending: None,
            url_timer: None,
            _popstate: None,
            full_queries: Rc::default(),
            on_edit: ctx.link().callback(Msg::Edited),
            _keys: None,
        };
        app.install_keys(ctx);
        app.install_popstate(ctx);
        crate::browser::debug_hook::install(app.driver.engine(), &app.pg);
        match opened {
            Ok(Some(link)) => {
                app.url_fragment = page_url::fragment();
                app.open_link(ctx, link);
            }
            Ok(None) => app.request_report(ctx),
            Err(e) => app.refuse_link(ctx, e),
        }
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Engine(status) => match status {
                EngineStatus::Z3 {
                    loaded,
                    total,
                    done,
                } => {
                    self.z3 = Some((loaded, total));
                    self.z3_ready = done;
                }
                EngineStatus::Failed(e) => {
                    self.engine_error = Some(e.clone().into());
                    self.status = EngineStatus::Failed(e.clone());
                    self.z3_ready = false;
                    self.act(Action::WorkerLost(e));
                }
                EngineStatus::Starting => {
                    self.status = status;
                    self.z3_ready = false;
                }
                s => self.status = s,
            },
            Msg::Edited(text) => {
                if text != self.source {
                    self.act(Action::Building);
                }
                // An edited example is the user's program: it loses the example's name and
                // description (and a share link carries its text).
                if self.example.is_some_and(|e| e.source != text) {
                    self.example = None;
                    self.file = USER_FILE.into();
                }
                self.source = text;
                self.link_error = None;
                self.edge_highlight = None;
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
                        if matches!(self.status, EngineStatus::Failed(_)) {
                            self.status = EngineStatus::Ready;
                        }
                        self.accept_report(report)
                    }
                    // A run's pause or reset replaced the worker while it built the CFA:
                    // nothing failed, ask the fresh worker.
                    Err(message) if message == CANCELLED => {
                        self.request_report(ctx);
                        return false;
                    }
                    Ok(Reply::Error { message }) | Err(message) => {
                        self.engine_error = Some(message.into());
                        self.no_cfa();
                    }
                    Ok(_) => {
                        self.engine_error = Some("unexpected engine reply".into());
                        self.no_cfa();
                    }
                }
            }
            Msg::SelectExample(key) => {
                let Some(example) = examples::by_key(&key) else {
                    return false;
                };
                self.link_error = None;
                self.pending_link = None;
                // Each example opens with the analysis it was chosen for, at its start.
                self.act(Action::Configure(RunConfig::preset(example.preset)));
                self.act(Action::Reset);
                self.load_program(
                    ctx,
                    Some(example),
                    example.file.to_string(),
                    example.source.to_string(),
                );
            }
            Msg::Act(action) => {
                if matches!(action, Action::Select(_)) {
                    self.edge_highlight = None;
                }
                if matches!(action, Action::Run) && self.pg.borrow().running() {
                    // Space toggles.
                    self.act(Action::Pause);
                } else {
                    self.act(action);
                }
            }
            Msg::Lbe(cmd) => {
                let Some(g) = &self.graphs else {
                    return false;
                };
                let pos = cmd.apply(self.lbe_position, g.replay.steps.len());
                if pos == self.lbe_position && self.lbe_stepping {
                    return false;
                }
                self.lbe_position = pos;
                self.lbe_stepping = true;
                if self
                    .edge_highlight
                    .is_some_and(|(k, _, _)| k == GraphKind::Lbe)
                {
                    self.edge_highlight = None;
                }
                self.refresh_lbe();
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
                let lines = edge.lines;
                self.act(Action::Select(None));
                self.edge_highlight =
                    (lines[0] > 0).then_some((kind, id, (lines[0], lines[1].max(lines[0]))));
            }
            Msg::NodeClicked(l) => self.act(Action::Select(Some(Selection::Location(l)))),
            Msg::StateClicked(s) => {
                self.edge_highlight = None;
                self.act(Action::Select(Some(Selection::State(s))));
                self.tab = Tab::Node;
            }
            Msg::LineSelected(line) => {
                self.edge_highlight = None;
                self.act(Action::Select(Some(Selection::Line(line))));
            }
            Msg::Tab(t) => self.tab = t,
            Msg::LeftTab(k) => self.left = k,
            Msg::Help(h) => self.help = h,
            Msg::ToggleKnobs => self.knobs_open = !self.knobs_open,
            Msg::Preset(p) => self.act(Action::Configure(RunConfig::preset(&p))),
            Msg::SetKnob(k, v) => {
                let c = with_knob(&self.pg.borrow().config, &k, &v);
                self.act(Action::Configure(c));
            }
            Msg::ResetKnobs => {
                let c = RunConfig::preset(&self.pg.borrow().config.preset);
                self.act(Action::Configure(c));
            }
            Msg::Presentation => self.presentation = !self.presentation,
            Msg::Share => self.share_open = !self.share_open,
            Msg::Phone(v) => self.phone = v,
            Msg::Export(kind) => {
                self.export(kind);
                return false;
            }
            Msg::OpenFragment(fragment) => {
                // Back or forward: a rewrite pending for the entry left must not land on
                // the one opened.
                self.url_pending = None;
                if fragment == self.url_fragment {
                    return false;
                }
                self.url_fragment = fragment.clone();
                match Link::decode(&fragment) {
                    Ok(Some(link)) => self.open_link(ctx, link),
                    Ok(None) => return false,
                    Err(e) => self.refuse_link(ctx, e),
                }
            }
            Msg::FlushUrl => {
                self.flush_url();
                return false;
            }
            Msg::Theme => {
                toggle_theme();
                return false;
            }
            Msg::LogSearch(s) => self.log_search = s,
            Msg::LoadQuery(i) => {
                let link = ctx.link().clone();
                self.driver
                    .query_text(i, move |r| link.send_message(Msg::QueryLoaded(i, r)));
                return false;
            }
            Msg::QueryLoaded(i, r) => match r {
                Ok(t) => {
                    Rc::make_mut(&mut self.full_queries).insert(i, t);
                }
                Err(e) => web_sys::console::warn_1(&format!("query {i}: {e}").into()),
            },
            Msg::Escape => {
                if self.help.is_some() {
                    self.help = None;
                } else if self.share_open {
                    self.share_open = false;
                } else if self.knobs_open {
                    self.knobs_open = false;
                } else {
                    self.edge_highlight = None;
                    self.act(Action::Select(None));
                }
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let (status, status_class) = self.status_text();
        let pg_ref = self.pg.borrow();
        let pg: &Playground = &pg_ref;
        let run = pg.run.as_ref();
        let blocked = pg.blocked();
        let on_action = link.callback(Msg::Act);
        let on_state = link.callback(Msg::StateClicked);
        let on_line = link.callback(Msg::LineSelected);

        // The step bar.
        let activity: Option<AttrValue> = run.and_then(|r| match &r.phase {
            Phase::Starting if !self.z3_ready => Some("loading Z3…".into()),
            Phase::Starting => Some("starting the analysis…".into()),
            Phase::Busy => Some("computing…".into()),
            Phase::Replaying => Some("replaying the run in a fresh worker…".into()),
            _ => None,
        });
        let run_error: Option<String> = run.and_then(|r| match &r.phase {
            Phase::Failed(e) => Some(format!("The run cannot start: {e}")),
            Phase::Crashed(e) => Some(format!(
                "The engine stopped during the run: {e}. The events so far can still be stepped; Reset starts the run again."
            )),
            _ => None,
        });
        // Only predicate abstraction with CEGAR (alone or in a portfolio) computes
        // abstractions to step to.
        let config = pg.config.resolve().ok();
        let abstractions = config.as_ref().is_none_or(|c| {
            c.algorithm == AlgorithmKind::Portfolio
                || (matches!(
                    c.domain,
                    cpa_engine::config::Domain::Predicate
                        | cpa_engine::config::Domain::ValuePredicate
                ) && c.algorithm == AlgorithmKind::Cegar)
        });
        let controls = html! {
            <Controls {abstractions}
                position={run.map_or(0, |r| r.position)} total={run.map_or(0, |r| r.total())}
                finished={run.is_some_and(|r| r.finished())} running={pg.running()}
                speed={pg.speed} {activity}
                blocked={blocked.clone().map(AttrValue::from)}
                verdict={run.and_then(App::verdict_view)}
                on_action={on_action.clone()}
            />
        };

        // The explanation.
        let current = run.and_then(|r| {
            r.current_event().map(|(i, e)| {
                // A portfolio is explained by the component at work.
                let running = config
                    .as_ref()
                    .map(|c| c.running(r.cursor.frame.view.component.as_deref()));
                let cx = ExplainContext {
                    run: r,
                    config: running.as_ref(),
                };
                (i, explain(&cx, i, e))
            })
        });
        let hint: AttrValue = match (&blocked, run) {
            (Some(b), _) => b.clone().into(),
            (None, Some(r)) if r.position == 0 => "Press → (or the step button) for the first event, Ctrl+→ for the next refinement, End to run to the verdict. Every event is explained here.".into(),
            _ => "".into(),
        };

        // The ARG.
        let linked = self.linked_states(pg);
        let model: Rc<ArgModel> = Rc::new(
            run.map(|r| arg_model(r, pg.selection, &linked))
                .unwrap_or_default(),
        );
        let arg_states = run.map_or(0, |r| r.cursor.frame.view.states.len());
        let placeholder: Option<AttrValue> = match run {
            Some(r) if r.position == 0 => {
                Some("The ARG appears here as the analysis steps.".into())
            }
            None => blocked.clone().map(AttrValue::from),
            _ => None,
        };

        // Bottom tabs.
        let refinements =
            Rc::new(run.map_or_else(Vec::new, |r| r.shown_refinements().cloned().collect()));
        let checks = Rc::new(run.map_or_else(Vec::new, |r| r.shown_checks().cloned().collect()));
        let open = run.and_then(|r| r.refinement_in_progress().map(|x| x.number));
        let (entries, total_q, matching) = match run {
            Some(r) if self.tab == Tab::Log => {
                let shown = r.shown_queries();
                let needle = self.log_search.to_lowercase();
                let matches = |q: &&Rc<crate::protocol::QueryEntry>| {
                    needle.is_empty()
                        || q.query.to_lowercase().contains(&needle)
                        || q.reply.to_lowercase().contains(&needle)
                        || q.purpose.name().contains(&needle)
                };
                let matching = if needle.is_empty() {
                    shown.len()
                } else {
                    shown.iter().filter(matches).count()
                };
                let list: Vec<Rc<crate::protocol::QueryEntry>> = shown
                    .iter()
                    .rev()
                    .filter(matches)
                    .take(SHOWN)
                    .cloned()
                    .collect();
                (list, shown.len(), matching)
            }
            Some(r) => (Vec::new(), r.shown_queries().len(), r.shown_queries().len()),
            None => (Vec::new(), 0, 0),
        };
        let (stats, solver_ms) = run.map(|r| r.stats()).unwrap_or_default();
        let trace = run.and_then(|r| match r.shown_verdict() {
            Some(Verdict::False { counterexample }) => Some(Rc::new(counterexample.trace.clone())),
            _ => None,
        });
        let command: AttrValue = pg.config.command_line(&self.file).into();
        let encoding = run
            .and_then(|r| r.info.as_ref())
            .map(|i| AttrValue::from(format!("{:?}", i.encoding).to_lowercase()));
        let cfa_for_panels = run.map(|r| r.cfa.clone()).unwrap_or_else(|| {
            Rc::new(Graph {
                nodes: Vec::new(),
                edges: Vec::new(),
            })
        });
        let tabs = html! {
            <section class="panel bottom-tabs" aria-label="Details">
                <div class="tabs" role="tablist">
                    { for TABS.iter().enumerate().map(|(i, (t, name, id))| {
                        let t = *t;
                        // BMC and k-induction list their checks there.
                        let name: &str = match (t, config.as_ref().map(|c| c.algorithm)) {
                            (Tab::Refinements, Some(AlgorithmKind::Bmc | AlgorithmKind::KInduction)) => "Checks",
                            _ => name,
                        };
                        let badge = match t {
                            Tab::Refinements => refinements.len() + checks.len(),
                            Tab::Log => total_q,
                            _ => 0,
                        };
                        html! {
                            <button type="button" role="tab" data-testid={*id} aria-selected={(self.tab == t).to_string()}
                                class={classes!("tab", (self.tab == t).then_some("active"))}
                                title={format!("{name} ({})", i + 1)}
                                onclick={link.callback(move |_| Msg::Tab(t))}>
                                { name }
                                if badge > 0 { <span class="badge">{ badge }</span> }
                            </button>
                        }
                    }) }
                </div>
                <InterpolantsPanel refinements={refinements.clone()} checks={checks.clone()} cfa={cfa_for_panels}
                    values={config.as_ref().is_some_and(|c| c.domain != cpa_engine::config::Domain::Predicate)}
                    {open} hidden={self.tab != Tab::Refinements} on_state={on_state.clone()} on_line={on_line.clone()} />
                <SolverLog entries={Rc::new(entries)} total={total_q} {matching} search={AttrValue::from(self.log_search.clone())}
                    full={self.full_queries.clone()} hidden={self.tab != Tab::Log}
                    on_search={link.callback(Msg::LogSearch)} on_load={link.callback(Msg::LoadQuery)} />
                <StatsPanel {stats} {solver_ms} hidden={self.tab != Tab::Stats} command={command.clone()} {encoding} />
                <CounterexamplePanel {trace} step={pg.cex_step} hidden={self.tab != Tab::Counterexample}
                    on_step={link.callback(|i| Msg::Act(Action::CexStep(i)))} />
                <NodePanel details={self.node_details(pg)} hidden={self.tab != Tab::Node}
                    on_state={on_state.clone()} on_line={on_line.clone()} />
            </section>
        };

        // The editor's marks.
        let covered: Vec<u32> = run
            .map(|r| r.covered_lines().into_iter().collect())
            .unwrap_or_default();
        let coverage_json = serde_json::to_string(&covered).unwrap_or_default();
        let covered_count = covered.len();
        let current_lines: Rc<Vec<u32>> = Rc::new(run.map(event_lines).unwrap_or_default());

        // CFA and LBE views.
        let marked_nodes: Rc<Vec<u32>> = Rc::new(run.map(event_locations).unwrap_or_default());
        let selected_node = match (pg.selection, run) {
            (Some(Selection::Location(l)), _) => Some(l),
            (Some(Selection::State(s)), Some(r)) => {
                r.cursor.frame.view.states.get(&s).map(|st| st.location)
            }
            _ => None,
        };
        let lbe_total = self.graphs.as_ref().map_or(0, |g| g.replay.steps.len());
        let label = step_label(
            self.lbe_frame.as_ref().and_then(|f| f.step.as_ref()),
            self.lbe_position,
            lbe_total,
        );
        let edge_sel = |kind: GraphKind| {
            self.edge_highlight
                .filter(|(k, _, _)| *k == kind)
                .map(|(_, id, _)| id)
        };
        let cfa_panel = self.graphs.as_ref().map(|g| {
            html! {
                <GraphView
                    testid="cfa-view" prefix="cfa" title="CFA" file={g.file.clone()}
                    dot={g.cfa_dot.clone()} nodes={g.cfa.nodes.len()} edges={g.cfa.edges.len()}
                    stale={self.stale} selected_edge={edge_sel(GraphKind::Cfa)}
                    marked_edges={self.cfa_edges_in_step()} marked_nodes={marked_nodes.clone()} {selected_node}
                    on_edge_click={link.callback(|id| Msg::EdgeClicked(GraphKind::Cfa, id))}
                    on_node_click={link.callback(Msg::NodeClicked)}
                    new_layout_at_origin=true
                />
            }
        });
        let lbe_panel = self.graphs.as_ref().zip(self.lbe_frame.as_ref()).map(|(g, f)| {
            let (nodes, edges) = if f.position == lbe_total {
                (g.lbe.nodes.len(), g.lbe.edges.len())
            } else {
                (f.nodes.len(), f.edges.len())
            };
            html! {
                <GraphView
                    testid="lbe-view" prefix="lbe" title="LBE summary" file={g.file.clone()}
                    dot={self.lbe_dot.clone()} {nodes} {edges}
                    stale={self.stale} selected_edge={edge_sel(GraphKind::Lbe)}
                    marked_nodes={marked_nodes.clone()} {selected_node}
                    on_edge_click={link.callback(|id| Msg::EdgeClicked(GraphKind::Lbe, id))}
                    on_node_click={link.callback(Msg::NodeClicked)}
                >
                    <LbeStepper position={self.lbe_position} total={lbe_total} label={label.clone()}
                        on_command={link.callback(Msg::Lbe)} />
                </GraphView>
            }
        });
        let graph_placeholder = |testid: &'static str| {
            let note = if self.building || self.generation == 0 {
                "Building the CFA…"
            } else {
                "No CFA: the program does not parse yet."
            };
            html! { <section class="panel placeholder" data-testid={testid}><p>{ note }</p></section> }
        };
        let left_tab = |k: GraphKind, name: &'static str, id: &'static str| {
            html! {
                <button type="button" role="tab" data-testid={id} aria-selected={(self.left == k).to_string()}
                    class={classes!("tab", (self.left == k).then_some("active"))}
                    onclick={link.callback(move |_| Msg::LeftTab(k))}>{ name }</button>
            }
        };

        let on_preset = link.callback(|e: Event| {
            Msg::Preset(
                e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value(),
            )
        });
        // Deflated only where shown (the address bar has its own in `sync_url`).
        let fragment: Option<AttrValue> =
            (self.embed || self.share_open).then(|| self.link().encode().into());
        let has_witness = self.pg.borrow().run.as_ref().is_some_and(|r| {
            matches!(
                r.verdict,
                Some(
                    cpa_engine::verdict::Verdict::True | cpa_engine::verdict::Verdict::False { .. }
                )
            )
        });
        let open_full = fragment
            .as_ref()
            .filter(|_| self.embed)
            .map(|f| page_url::playground_link(f));
        html! {
            <div class={classes!("app", self.presentation.then_some("presentation"), self.embed.then_some("embed"), self.embed_hidden.clone(), self.phone.describe().2)}>
                <header class="topbar">
                    <h1 class="brand">{ "CPA Playground" }</h1>
                    if let Some(href) = open_full {
                        <a class="open-full" data-testid="open-in-playground" href={href} target="_blank" rel="noopener">{ "Open in playground ↗" }</a>
                        <span class="embed-config" data-testid="embed-config">{ format!("{} · {}", self.file, pg.config.preset) }</span>
                    }
                    <ExampleSelect selected={self.example.map_or("", |e| e.key)} on_select={link.callback(Msg::SelectExample)} />
                    <label class="config-select">
                        <span class="label">{ "Analysis" }</span>
                        <select data-testid="config-select" onchange={on_preset}>
                            { for Preset::names().iter().map(|p| html! {
                                <option value={*p} selected={pg.config.preset == *p}>{ *p }</option>
                            }) }
                        </select>
                    </label>
                    <button type="button" class={classes!("knobs-btn", (!pg.config.set.is_empty()).then_some("changed"))}
                        data-testid="btn-knobs" aria-expanded={self.knobs_open.to_string()}
                        title="Every knob of the configuration" onclick={link.callback(|_| Msg::ToggleKnobs)}>
                        { if pg.config.set.is_empty() { "knobs".to_string() } else { format!("knobs ({})", pg.config.set.len()) } }
                    </button>
                    <span class={classes!("engine-status", status_class)} data-testid="engine-status">{ status }
                        if let (Some((l, t)), false) = (self.z3, self.z3_ready) {
                            if t > 0 { <progress max={t.to_string()} value={l.to_string()}></progress> }
                        }
                    </span>
                    <span class="spacer"></span>
                    <button type="button" class="share-btn" data-testid="btn-share" title="Share a link to this state (S)"
                        aria-haspopup="dialog" onclick={link.callback(|_| Msg::Share)}>{ "Share" }</button>
                    <button type="button" class="icon-btn" title="Presentation mode (P)" aria-label="Presentation mode" aria-pressed={self.presentation.to_string()}
                        onclick={link.callback(|_| Msg::Presentation)}>{ svg_icon("M1 3h14v9H1zM3 5v5h10V5zM6 13h4v2H6z") }</button>
                    <button type="button" class="icon-btn" title="Dark / light (D)" aria-label="Dark or light" onclick={link.callback(|_| Msg::Theme)}>{ svg_icon("M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1zm0 2v10a5 5 0 0 1 0-10z") }</button>
                    <button type="button" class="icon-btn" data-testid="btn-help" title="Help and keyboard shortcuts (?)"
                        onclick={link.callback(|_| Msg::Help(Some(None)))}>{ "?" }</button>
                </header>
                if self.knobs_open {
                    <KnobsPanel knobs={knobs(&pg.config)} error={pg.config_error.clone().map(AttrValue::from)}
                        command={command.clone()}
                        on_set={link.callback(|(k, v)| Msg::SetKnob(k, v))}
                        on_reset={link.callback(|_| Msg::ResetKnobs)}
                        on_close={link.callback(|_| Msg::ToggleKnobs)} />
                }
                if let Some(e) = &self.link_error {
                    <p class="link-error" data-testid="link-error" role="alert">{ e.clone() }</p>
                }
                if let Some(e) = self.example {
                    <p class="about" data-testid="example-about">{ e.about }</p>
                }
                <p class="semantics" data-testid="semantics">{ crate::present::knobs::semantics_line(&pg.config) }</p>
                <nav class="phone-tabs tabs" role="tablist" aria-label="Views">
                    { for PhoneView::ALL.iter().map(|&v| {
                        let (name, testid, _) = v.describe();
                        html! {
                            <button type="button" role="tab" data-testid={testid} aria-selected={(self.phone == v).to_string()}
                                class={classes!("tab", (self.phone == v).then_some("active"))}
                                onclick={link.callback(move |_| Msg::Phone(v))}>{ name }</button>
                        }
                    }) }
                </nav>
                <main class="workspace">
                    <div class="column source-column">
                        <section class="panel editor-panel" aria-label="Program">
                            <header class="panel-head">
                                <h2>{ self.file.clone() }</h2>
                                <span class="coverage" data-testid="coverage" data-lines={coverage_json}
                                    title="Source lines the ARG has reached (green marks in the gutter)">
                                    { format!("{covered_count} line{} reached", if covered_count == 1 { "" } else { "s" }) }
                                </span>
                            </header>
                            <Editor
                                text={self.editor_text.clone()} version={self.editor_version}
                                diagnostics={self.editor_diagnostics.clone()} highlight={self.highlight(pg)}
                                covered={Rc::new(covered)} current={current_lines}
                                on_change={self.on_edit.clone()} read_only={self.embed}
                            />
                        </section>
                        <Diagnostics diagnostics={self.diagnostics.clone()} engine_error={self.engine_error.clone()}
                            on_select_line={on_line.clone()} />
                        <section class="panel graphs-panel">
                            <div class="tabs" role="tablist">
                                { left_tab(GraphKind::Cfa, "CFA", "tab-cfa") }
                                { left_tab(GraphKind::Lbe, "LBE summary", "tab-lbe") }
                            </div>
                            <div class="graph-tab" hidden={self.left != GraphKind::Cfa}>
                                { cfa_panel.unwrap_or_else(|| graph_placeholder("cfa-view")) }
                            </div>
                            <div class="graph-tab" hidden={self.left != GraphKind::Lbe}>
                                { lbe_panel.unwrap_or_else(|| graph_placeholder("lbe-view")) }
                            </div>
                        </section>
                    </div>
                    <div class="column stage-column">
                        { controls }
                        if let Some(e) = run_error {
                            <p class="run-error" data-testid="run-error" role="alert">{ e }</p>
                        }
                        <ExplainPanel {current} {hint} on_state={on_state.clone()} on_line={on_line.clone()}
                            on_glossary={link.callback(|k| Msg::Help(Some(Some(k))))} />
                        <ArgView model={model} states={arg_states} on_select={on_state.clone()} {placeholder} />
                        { tabs }
                    </div>
                </main>
                if let (true, Some(fragment)) = (self.share_open, fragment) {
                    <ShareDialog fragment={fragment} on_close={link.callback(|_| Msg::Share)}
                        on_export={link.callback(Msg::Export)} has_witness={has_witness} />
                }
                if let Some(focus) = self.help {
                    <HelpOverlay {focus} on_close={link.callback(|_| Msg::Help(None))} />
                }
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first_render: bool) {
        // A `<select>` the user has changed no longer follows its options' `selected`
        // attributes: set its value when the state changed it (a link, back and forward).
        let example = self.example.map_or("", |e| e.key).to_string();
        let preset = self.pg.borrow().config.preset.clone();
        set_select("example-select", &example);
        set_select("config-select", &preset);
        self.sync_url(ctx);
    }
}

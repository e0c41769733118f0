//! The page's state, one root ([`State`]: the program, the run, the view, the address bar and
//! the engine's status) changed only by [`State::update`], which takes a [`Msg`] (a user input,
//! a worker answer, a timer) and returns the [`Command`]s for the effects (the worker, timers,
//! the address bar, downloads). No browser API here: everything is tested natively.
//!
//! The run itself has its own reducer ([`playground`]), which `update` drives with
//! [`Action`]s; [`derived`] holds the views computed from the state once per (run, position,
//! selection), [`url`] keeps the address bar on the state shown.

pub mod arg_model;
pub mod author;
mod author_play;
pub mod compare;
mod compare_play;
pub mod derived;
pub mod exercise;
mod exercise_play;
pub mod export;
pub mod keys;
pub mod lesson;
mod lesson_play;
pub mod link;
pub mod msg;
pub mod playground;
pub mod program;
pub mod race;
mod race_play;
pub mod run;
pub mod selectors;
pub mod url;
pub mod view;

pub use msg::{Command, Engine, EngineStatus, Msg};
pub use playground::{Action, Playground};
pub use run::{
    Check, Cursor, Frame, Phase, Refinement, Run, Target, Ticket, DEFAULT_SPEED, SPEEDS, TICK_MS,
};
pub use selectors::{edge_label, event_lines, event_locations, kind_counts, location_line};
pub use view::{GraphKind, Overlay, PhoneView, Selection, Tab, View};

use crate::present::examples::{self, Example};
use crate::present::knobs::with_knob;
use crate::protocol::{CfaReport, RunConfig, CANCELLED};
use derived::Derived;
use export::ExportKind;
use link::{Link, LinkError};
use program::{Program, USER_FILE};
use std::collections::BTreeMap;
use std::rc::Rc;
use url::UrlSync;

/// The page's one state.
#[derive(Debug)]
pub struct State {
    pub program: Program,
    pub pg: Playground,
    pub view: View,
    pub url: UrlSync,
    pub engine: Engine,
    /// The whole texts of the solver queries loaded so far, by index.
    pub full_queries: Rc<BTreeMap<u64, (String, String)>>,
    pub derived: Derived,
    /// The lesson being played, if any.
    pub lesson: Option<lesson::LessonState>,
    /// The invariant exercise.
    pub exercise: exercise::Exercise,
    /// The lesson being written.
    pub author: author::Author,
    /// The race of every preset on the program.
    pub race: race::Race,
    /// Compare mode: the second run, beside the first.
    pub compare: Option<compare::Compare>,
    /// A link's step for the right side, taken once the program is built.
    pending_compare_step: Option<u64>,
}

/// What a render depends on besides the derived views: the page is drawn again only when it
/// changes (or the derived views do).
#[derive(Clone, Debug, PartialEq)]
struct Stamp {
    program: (u64, u64, bool, bool, usize, usize, bool),
    lbe: (usize, bool),
    example: Option<&'static str>,
    engine: Engine,
    config: (RunConfig, Option<String>, Option<u32>, usize),
    run: Option<RunStamp>,
    view: View,
    link_error: Option<Rc<str>>,
    queries: usize,
    lesson: Option<lesson::LessonState>,
    exercise: exercise::Exercise,
    author: author::Author,
    race: race::Race,
    compare: Option<(RunConfig, compare::Sync, bool, Option<RunStamp>)>,
}

/// What the page shows of a run besides the derived views.
#[derive(Clone, Debug, PartialEq)]
struct RunStamp {
    ticket: Ticket,
    position: usize,
    total: usize,
    phase: Phase,
    finished: bool,
    running: Option<Option<u32>>,
    queries: usize,
}

impl State {
    /// The state of a page opened with `opened` (the fragment's link, if any) and `view` (from
    /// the address's parameters), and the commands that start it.
    pub fn new(
        opened: Result<Option<Link>, LinkError>,
        view: View,
        default_example: &'static Example,
    ) -> (State, Vec<Command>) {
        let config = match &opened {
            Ok(Some(link)) => link.config.clone(),
            _ => default_example.config(),
        };
        let mut state = State {
            program: Program::new(
                Some(default_example),
                default_example.file.to_string(),
                Rc::from(default_example.source),
            ),
            pg: Playground::new(config),
            view,
            url: UrlSync::default(),
            engine: Engine {
                status: EngineStatus::Starting,
                z3: None,
                z3_ready: false,
            },
            full_queries: Rc::default(),
            derived: Derived::default(),
            lesson: None,
            exercise: exercise::Exercise::default(),
            author: author::Author::default(),
            race: race::Race::default(),
            compare: None,
            pending_compare_step: None,
        };
        let mut cmds = Vec::new();
        match opened {
            Ok(Some(link)) => {
                state.url.opened(link.encode());
                state.open_link(link, &mut cmds);
            }
            Ok(None) => state.build_cfa(&mut cmds),
            Err(e) => state.refuse_link(e, &mut cmds),
        }
        state.finish_update(&mut cmds);
        (state, cmds)
    }

    fn stamp(&self) -> Stamp {
        let p = &self.program;
        Stamp {
            program: (
                p.generation,
                p.editor_version,
                p.building,
                p.stale,
                p.diagnostics.len(),
                p.source.len(),
                p.engine_error.is_some(),
            ),
            lbe: (p.lbe.position, p.lbe.stepping),
            example: p.example.map(|e| e.key),
            engine: self.engine.clone(),
            config: (
                self.pg.config.clone(),
                self.pg.config_error.clone(),
                self.pg.speed,
                self.pg.cex_step,
            ),
            run: run_stamp(&self.pg),
            view: self.view.clone(),
            link_error: self.url.link_error.clone(),
            queries: self.full_queries.len(),
            lesson: self.lesson.clone(),
            exercise: self.exercise.clone(),
            author: self.author.clone(),
            race: self.race.clone(),
            compare: self
                .compare
                .as_ref()
                .map(|c| (c.pg.config.clone(), c.sync, c.phone_right, run_stamp(&c.pg))),
        }
    }

    /// Changes the state; returns the commands for the effects and whether anything shown
    /// changed (the page is drawn again only then).
    pub fn update(&mut self, msg: Msg) -> (Vec<Command>, bool) {
        let before = self.stamp();
        let mut cmds = Vec::new();
        self.apply(msg, &mut cmds);
        let derived = self.finish_update(&mut cmds);
        let changed = derived || self.stamp() != before;
        (cmds, changed)
    }

    /// After every change: the derived views and the address bar follow the state.
    fn finish_update(&mut self, cmds: &mut Vec<Command>) -> bool {
        self.lesson_follow(cmds);
        let mut changed = self.derived.refresh(&self.pg, &self.program, &self.view);
        if let Some(c) = &mut self.compare {
            if let Some(a) = c.follow_location(self.pg.run.as_ref()) {
                cmds.extend(c.pg.reduce(a).into_iter().map(Command::RunRight));
            }
            changed |= c.refresh();
        }
        let settling = self.url.pending_link.is_some()
            || self.url.link_error.is_some()
            || self.program.building
            || self.pg.run.as_ref().is_some_and(|r| r.goal.is_some());
        if !settling {
            let key = (
                self.program
                    .example
                    .map_or_else(String::new, |e| e.key.to_string()),
                self.program.file.clone(),
                self.pg.config.clone(),
            );
            let link = self.link();
            self.url.follow(link, key, cmds);
        }
        changed
    }

    fn act(&mut self, action: Action, cmds: &mut Vec<Command>) {
        if let Some(c) = &mut self.compare {
            if let Some(a) = c.follow(&action) {
                cmds.extend(c.pg.reduce(a).into_iter().map(Command::RunRight));
            }
        }
        cmds.extend(self.pg.reduce(action).into_iter().map(Command::Run));
    }

    fn build_cfa(&mut self, cmds: &mut Vec<Command>) {
        let p = &mut self.program;
        p.generation += 1;
        p.building = true;
        cmds.push(Command::BuildCfa {
            generation: p.generation,
            file: p.file.clone(),
            source: p.source.clone(),
        });
        self.act(Action::Building, cmds);
    }

    /// Shows a new program text (from the gallery, a link, or nothing) and builds its CFA.
    fn load_program(
        &mut self,
        example: Option<&'static Example>,
        file: String,
        source: Rc<str>,
        cmds: &mut Vec<Command>,
    ) {
        self.program.load(example, file, source);
        self.build_cfa(cmds);
    }

    /// Opens a share link: its program, configuration and view now, its step and selection
    /// once the program's CFA is there.
    fn open_link(&mut self, link: Link, cmds: &mut Vec<Command>) {
        self.url.link_error = None;
        if let Some((key, section)) = &link.lesson {
            // A lesson's section puts the run at its anchor.
            self.view.tab = link.tab;
            self.view.graph = link.graph;
            match &link.lesson_text {
                Some(text) => {
                    // Validated with the link: it reads and has the section.
                    let _ = self.open_written_lesson(
                        Rc::from(text.as_str()),
                        *section as usize,
                        Some(link.program.into_parts()),
                        cmds,
                    );
                }
                None => self.open_lesson(key, *section as usize, cmds),
            }
            return;
        }
        self.lesson = None;
        let (example, file, source) = link.program.into_parts();
        self.view.tab = link.tab;
        self.view.graph = link.graph;
        self.act(Action::Configure(link.config), cmds);
        match link.compare {
            Some(c) => {
                self.pending_compare_step = Some(c.step);
                self.open_compare(c.config, c.sync, cmds);
            }
            None => self.compare_msg(compare::CompareMsg::Close, cmds),
        }
        if link.step > 0 {
            self.view.phone = PhoneView::Arg;
        }
        self.url.pending_link = Some((link.step, link.selection));
        let built = self.pg.cfa.is_some()
            && self.pg.file == file
            && *self.pg.source == *source
            && !self.program.building;
        if built && self.program.file == file && *self.program.source == *source {
            self.program.example = example;
            self.finish_link(cmds);
        } else {
            self.load_program(example, file, source, cmds);
        }
        if link.race {
            self.race_msg(race::RaceMsg::Start, cmds);
        }
    }

    /// A link that does not open: say why, and start empty.
    fn refuse_link(&mut self, e: LinkError, cmds: &mut Vec<Command>) {
        self.url.link_error = Some(
            format!(
                "This link does not open: {e}. The playground starts empty: pick an example or type a program."
            )
            .into(),
        );
        self.url.pending_link = None;
        self.load_program(None, USER_FILE.into(), Rc::from(""), cmds);
    }

    fn finish_link(&mut self, cmds: &mut Vec<Command>) {
        let Some((step, selection)) = self.url.pending_link.take() else {
            return;
        };
        // The right side of a comparison goes to its own step, not the left one's.
        let compare = self.compare.take();
        self.act(Action::Reset, cmds);
        if step > 0 {
            self.act(
                Action::Seek(usize::try_from(step).unwrap_or(usize::MAX)),
                cmds,
            );
        }
        self.act(Action::Select(selection), cmds);
        self.compare = compare;
        if let (Some(c), Some(step)) = (&mut self.compare, self.pending_compare_step.take()) {
            let mut out = c.pg.reduce(Action::Reset);
            if step > 0 {
                out.extend(c.pg.reduce(Action::Seek(usize::try_from(step).unwrap_or(usize::MAX))));
            }
            cmds.extend(out.into_iter().map(Command::RunRight));
        }
    }

    /// The state as a share link (an edge selected in a graph is not part of it).
    pub fn link(&self) -> Link {
        let p = &self.program;
        let program = match p.unedited_example() {
            Some(e) => link::Program::Example(e),
            None => link::Program::Text {
                file: p.file.clone(),
                source: p.source.to_string(),
            },
        };
        Link {
            program,
            config: self.pg.config.clone(),
            step: self.pg.run.as_ref().map_or(0, |r| r.position as u64),
            tab: self.view.tab,
            graph: self.view.graph,
            selection: self
                .pg
                .selection
                .filter(|s| !matches!(s, Selection::Edge(..))),
            lesson: self
                .lesson
                .as_ref()
                .map(|l| (l.key.to_string(), l.section as u32)),
            lesson_text: self
                .lesson
                .as_ref()
                .and_then(|l| l.text.as_ref().map(|t| t.to_string())),
            compare: self.compare.as_ref().map(|c| link::CompareLink {
                config: c.pg.config.clone(),
                sync: c.sync,
                step: c.pg.run.as_ref().map_or(0, |r| r.position as u64),
            }),
            race: !self.race.rows.is_empty(),
        }
    }

    fn accept_report(&mut self, report: CfaReport, cmds: &mut Vec<Command>) {
        let cfa = self.program.accept(report);
        self.full_queries = Rc::default();
        self.act(
            Action::Program {
                file: self.program.file.clone(),
                source: self.program.source.clone(),
                cfa,
            },
            cmds,
        );
        self.finish_link(cmds);
    }

    /// The CFA of the text shown could not be built (the engine failed): nothing can run.
    fn no_cfa(&mut self, message: String, cmds: &mut Vec<Command>) {
        self.program.engine_error = Some(message.into());
        self.act(
            Action::Program {
                file: self.program.file.clone(),
                source: self.program.source.clone(),
                cfa: None,
            },
            cmds,
        );
    }

    /// What an export downloads: the CFA, the LBE summary or the ARG at the step shown (DOT,
    /// or SVG laid out by Graphviz), the run as JSON, or the witness.
    fn export(&self, kind: ExportKind, cmds: &mut Vec<Command>) {
        let (_, _, suffix, mime) = kind.describe();
        let file = &self.program.file;
        let stem = file.rsplit_once('.').map_or(file.as_str(), |(s, _)| s);
        let name = format!("{stem}-{suffix}");
        let run = self.pg.run.as_ref();
        let dot: Option<String> = match kind {
            ExportKind::CfaDot | ExportKind::CfaSvg => {
                self.program.graphs.as_ref().map(|g| g.cfa_dot.to_string())
            }
            ExportKind::LbeDot | ExportKind::LbeSvg => Some(self.program.lbe.dot.to_string()),
            ExportKind::ArgDot | ExportKind::ArgSvg => run.map(export::arg_dot),
            ExportKind::RunJson => {
                if let Some(r) = run {
                    cmds.push(Command::Download {
                        name,
                        mime,
                        text: export::run_json(r),
                    });
                }
                return;
            }
            ExportKind::Witness => {
                cmds.push(Command::DownloadWitness { name, mime });
                return;
            }
        };
        let Some(dot) = dot.filter(|d| !d.is_empty()) else {
            return;
        };
        cmds.push(if kind.is_svg() {
            Command::DownloadSvg { name, mime, dot }
        } else {
            Command::Download {
                name,
                mime,
                text: dot,
            }
        });
    }

    fn apply(&mut self, msg: Msg, cmds: &mut Vec<Command>) {
        match msg {
            Msg::Engine(status) => self.engine_status(status, cmds),
            Msg::Edited(text) => {
                if *text != *self.program.source {
                    self.act(Action::Building, cmds);
                }
                self.program.edit(text);
                self.url.link_error = None;
                if matches!(self.pg.selection, Some(Selection::Edge(..))) {
                    self.act(Action::Select(None), cmds);
                }
                cmds.push(Command::Debounce);
            }
            Msg::Rebuild => self.build_cfa(cmds),
            Msg::Report { generation, result } => {
                if generation != self.program.generation {
                    return;
                }
                self.program.building = false;
                match result {
                    Ok(report) => {
                        if matches!(self.engine.status, EngineStatus::Failed(_)) {
                            self.engine.status = EngineStatus::Ready;
                        }
                        self.accept_report(report, cmds)
                    }
                    // A run's pause or reset replaced the worker while it built the CFA:
                    // nothing failed, ask the fresh worker.
                    Err(message) if message == CANCELLED => self.build_cfa(cmds),
                    Err(message) => self.no_cfa(message, cmds),
                }
            }
            Msg::SelectExample(key) => {
                let Some(example) = examples::by_key(&key) else {
                    return;
                };
                self.lesson = None;
                self.url.link_error = None;
                self.url.pending_link = None;
                // Each example opens with the analysis it was chosen for, at its start.
                self.act(Action::Configure(example.config()), cmds);
                self.act(Action::Reset, cmds);
                self.load_program(
                    Some(example),
                    example.file.to_string(),
                    Rc::from(example.source),
                    cmds,
                );
            }
            // Space toggles.
            Msg::Act(Action::Run) if self.pg.running() => self.act(Action::Pause, cmds),
            Msg::Act(action) => self.act(action, cmds),
            Msg::Lbe(step) => {
                if self.program.step_lbe(step)
                    && matches!(self.pg.selection, Some(Selection::Edge(GraphKind::Lbe, _)))
                {
                    self.act(Action::Select(None), cmds);
                }
            }
            Msg::Select(selection) => self.act(Action::Select(selection), cmds),
            Msg::StateClicked(s) => {
                self.act(Action::Select(Some(Selection::State(s))), cmds);
                self.view.tab = Tab::Node;
            }
            Msg::Tab(t) => {
                if t == Tab::Race && self.race.rows.is_empty() {
                    // Its worker loads the engine and Z3 while the teacher reads the tab.
                    cmds.push(Command::Race(race::RaceCommand::Warm));
                }
                self.view.tab = t;
            }
            Msg::Graph(k) => self.view.graph = k,
            Msg::Overlay(o) => {
                self.view.overlay = if self.view.overlay == o {
                    Overlay::None
                } else {
                    o
                }
            }
            Msg::Lesson(m) => self.lesson_msg(m, cmds),
            Msg::Exercise(m) => self.exercise_msg(m, cmds),
            Msg::Author(m) => self.author_msg(m, cmds),
            Msg::Race(m) => self.race_msg(m, cmds),
            Msg::Compare(m) => self.compare_msg(m, cmds),
            Msg::Preset(p) => {
                self.lesson = None;
                self.act(Action::Configure(RunConfig::preset(&p)), cmds)
            }
            Msg::SetKnob(k, v) => {
                let c = with_knob(&self.pg.config, &k, &v);
                self.act(Action::Configure(c), cmds);
            }
            Msg::ResetKnobs => {
                let c = RunConfig::preset(&self.pg.config.preset);
                self.act(Action::Configure(c), cmds);
            }
            Msg::Presentation => self.view.presentation = !self.view.presentation,
            Msg::Phone(v) => self.view.phone = v,
            Msg::Export(kind) => self.export(kind, cmds),
            Msg::OpenFragment(fragment) => {
                if !self.url.back_or_forward(&fragment) {
                    return;
                }
                match Link::decode(&fragment) {
                    Ok(Some(link)) => self.open_link(link, cmds),
                    Ok(None) => {}
                    Err(e) => self.refuse_link(e, cmds),
                }
            }
            Msg::FlushUrl => self.url.flush(cmds),
            Msg::Theme => cmds.push(Command::ToggleTheme),
            Msg::LogSearch(s) => self.view.log_search = s,
            Msg::LoadQuery(i) => cmds.push(Command::LoadQuery(i)),
            Msg::QueryLoaded(i, r) => {
                if let Ok(t) = r {
                    Rc::make_mut(&mut self.full_queries).insert(i, t);
                }
            }
            Msg::Escape => {
                if self.view.overlay != Overlay::None {
                    self.view.overlay = Overlay::None;
                } else {
                    self.act(Action::Select(None), cmds);
                }
            }
        }
    }

    fn engine_status(&mut self, status: EngineStatus, cmds: &mut Vec<Command>) {
        match status {
            EngineStatus::Z3 {
                loaded,
                total,
                done,
            } => {
                self.engine.z3 = Some((loaded, total));
                self.engine.z3_ready = done;
                self.pg.solver_loading = !done;
            }
            EngineStatus::Failed(e) => {
                self.program.engine_error = Some(e.as_str().into());
                self.engine.status = EngineStatus::Failed(e.clone());
                self.engine.z3_ready = false;
                self.pg.solver_loading = false;
                self.act(Action::WorkerLost(e), cmds);
            }
            EngineStatus::Starting => {
                self.engine.status = status;
                self.engine.z3_ready = false;
                self.pg.solver_loading = true;
            }
            s => self.engine.status = s,
        }
    }
}

#[cfg(test)]
mod tests;

/// What a render depends on of a run besides the derived views.
fn run_stamp(pg: &Playground) -> Option<RunStamp> {
    pg.run.as_ref().map(|r| RunStamp {
        ticket: r.ticket(),
        position: r.position,
        total: r.total(),
        phase: r.phase.clone(),
        finished: r.finished(),
        running: r.running,
        queries: r.queries.len(),
    })
}

//! The messages that change the page's state ([`Msg`]) and the commands its update returns
//! for the effects ([`Command`]), with the engine's status as the page sees it.

use crate::protocol::CfaReport;
use crate::state::export::ExportKind;
use crate::state::playground::{self, Action};
use crate::state::program::LbeStep;
use crate::state::view::{GraphKind, Overlay, PhoneView, Selection, Tab};
use std::rc::Rc;

/// The engine worker's state as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineStatus {
    Starting,
    Ready,
    Failed(String),
    /// Z3 is loading in the worker: `loaded` of `total` bytes (`total` 0 if unknown), or
    /// it is done.
    Z3 {
        loaded: u64,
        total: u64,
        done: bool,
    },
}

/// The engine as the status line shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engine {
    pub status: EngineStatus,
    /// Z3's load: (loaded, total) bytes while loading.
    pub z3: Option<(u64, u64)>,
    pub z3_ready: bool,
}

impl Engine {
    /// The status line's text and CSS class.
    pub fn status_text(&self, building: bool) -> (String, &'static str) {
        match &self.status {
            EngineStatus::Starting => ("Engine starting…".into(), "starting"),
            EngineStatus::Failed(e) => (format!("Engine failed: {e}"), "failed"),
            _ if building => ("Building the CFA…".into(), "busy"),
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
}

/// Everything that can change the page's state.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    Engine(EngineStatus),
    /// The user's edit of the program text.
    Edited(String),
    /// The edit has settled: build its CFA.
    Rebuild,
    Report {
        generation: u64,
        result: Result<CfaReport, String>,
    },
    SelectExample(String),
    /// The lesson player.
    Lesson(crate::state::lesson::LessonMsg),
    /// The invariant exercise.
    Exercise(crate::state::exercise::ExerciseMsg),
    /// Writing a lesson.
    Author(crate::state::author::AuthorMsg),
    /// The race of every preset.
    Race(crate::state::race::RaceMsg),
    /// Compare mode.
    Compare(crate::state::compare::CompareMsg),
    /// An action of the run's reducer (the step bar, a selection, the worker's answers).
    Act(Action),
    Lbe(LbeStep),
    Select(Option<Selection>),
    /// A click on an ARG state: select it and show its details.
    StateClicked(u32),
    Tab(Tab),
    Graph(GraphKind),
    Overlay(Overlay),
    Preset(String),
    SetKnob(String, String),
    ResetKnobs,
    Presentation,
    Theme,
    /// The throttled rewrite of the address bar's entry is due.
    FlushUrl,
    /// Back or forward in the browser's history: the fragment to open.
    OpenFragment(String),
    Export(ExportKind),
    Phone(PhoneView),
    LogSearch(String),
    LoadQuery(u64),
    QueryLoaded(u64, Result<(String, String), String>),
    Escape,
}

/// What the effects must do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A command of the run's reducer, for the worker.
    Run(playground::Command),
    /// Build the CFA of `source` (answered with [`Msg::Report`]).
    BuildCfa {
        generation: u64,
        file: String,
        source: Rc<str>,
    },
    /// [`Msg::Rebuild`] after a pause in typing (replacing a timer already armed).
    Debounce,
    /// Show `fragment` in the address bar, as a new history entry if `push`.
    SetUrl {
        fragment: String,
        push: bool,
    },
    /// [`Msg::FlushUrl`] after the throttle's pause.
    ThrottleUrl,
    Download {
        name: String,
        mime: &'static str,
        text: String,
    },
    /// Lay `dot` out as SVG and download it.
    DownloadSvg {
        name: String,
        mime: &'static str,
        dot: String,
    },
    /// Download the run's witness (from the worker, with the page's clock).
    DownloadWitness {
        name: String,
        mime: &'static str,
    },
    ToggleTheme,
    /// The whole text of query `index` (answered with [`Msg::QueryLoaded`]).
    LoadQuery(u64),
    /// The race's worker.
    Race(crate::state::race::RaceCommand),
    /// A command of compare mode's right run, for its worker.
    RunRight(playground::Command),
    /// Judge the answer to a lesson's predicate question (answered with
    /// `LessonMsg::Judged(generation, ..)`).
    JudgePredicate {
        generation: u64,
        ask: crate::protocol::JudgePredicate,
    },
    /// Check a candidate invariant (answered with `ExerciseMsg::Checked(generation, ..)`).
    CheckInvariant {
        generation: u64,
        file: String,
        source: String,
        line: u32,
        invariant: String,
    },
}

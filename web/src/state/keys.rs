//! The keyboard shortcuts (never while typing in the editor, an input or a select: the
//! browser glue checks that): → step, Shift+→ next abstraction, Ctrl+→ next refinement, ←
//! back, End to the verdict, Home reset, Space run/pause, 1–8 the bottom tabs, ? help,
//! P presentation, D dark mode, S share, A adds a lesson section at the step shown,
//! Escape closes or deselects.

use crate::state::msg::Msg;
use crate::state::playground::Action;
use crate::state::run::Target;
use crate::state::view::{Overlay, Tab};

/// The message for a key press (`key` as `KeyboardEvent.key`), if it is a shortcut.
pub fn shortcut(key: &str, ctrl: bool, shift: bool) -> Option<Msg> {
    Some(match key {
        "ArrowRight" if ctrl => Msg::Act(Action::Step(Target::Refinement)),
        "ArrowRight" if shift => Msg::Act(Action::Step(Target::Abstraction)),
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
        "6" => Msg::Tab(Tab::Invariant),
        "7" => Msg::Tab(Tab::Race),
        "8" => Msg::Tab(Tab::Author),
        "a" | "A" if !ctrl => Msg::Author(crate::state::author::AuthorMsg::AddSection),
        "?" => Msg::Overlay(Overlay::Help(None)),
        "p" | "P" if !ctrl => Msg::Presentation,
        "d" | "D" if !ctrl => Msg::Theme,
        "s" | "S" if !ctrl => Msg::Overlay(Overlay::Share),
        "Escape" => Msg::Escape,
        _ => return None,
    })
}

//! Lessons: a teacher's text anchored to points of a run. A lesson is one Markdown file with a
//! small header (title, program, preset, knobs) and sections, each anchored to a position of
//! the run (`start`, `event N`, `refinement K`, `line L`: the first state at line L, `verdict`)
//! with claims about what the run shows there (`expect:` lines) and at most one question. The
//! format is documented in docs/lessons.md. Parsing ([`parse`]) and checking against a run's
//! events ([`check`]) are pure, so the page and `cpa lesson check` do the same.

mod check;
pub mod invariant;
mod parse;
pub mod predicate;

pub use check::{check, check_facts, resolve, Answer, Checked};
pub use parse::parse;

use crate::events::VerdictKind;

/// Largest lesson text accepted (bytes), and most sections: a lesson comes from a file or a
/// link, so both are bounded.
pub const MAX_LESSON_BYTES: usize = 64 * 1024;
pub const MAX_SECTIONS: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    pub title: String,
    /// The program: a path relative to the repository (`examples/gcd.c`), which the page maps
    /// to its gallery example.
    pub program: String,
    pub preset: String,
    /// Knob settings on top of the preset (`key=value`).
    pub knobs: Vec<(String, String)>,
    pub sections: Vec<Section>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub title: String,
    pub anchor: Anchor,
    /// The section's Markdown text (without its heading, claims and question).
    pub body: String,
    pub expects: Vec<Expect>,
    pub question: Option<Question>,
    /// The line of the section's heading in the lesson file (for messages).
    pub line: usize,
}

/// Where a section puts the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Before the first event.
    Start,
    /// After `n` events.
    Event(usize),
    /// Right after refinement `k` (from 1) finished.
    Refinement(u32),
    /// After the first state at a location of source line `l` entered the ARG.
    Line(u32),
    /// At the verdict (the end of the run).
    Verdict,
}

/// A claim about the run at a section's anchor, checked by `cpa lesson check` and the tests:
/// when the engine changes what the run does, the lesson fails instead of telling a story the
/// page no longer shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// State `n` is in the ARG.
    State(u32),
    /// The predicate (its text as the run shows it, spaces ignored) is in the precision.
    Predicate(String),
    /// The run's verdict.
    Verdict(VerdictKind),
    /// The number of refinements finished.
    Refinements(u32),
    /// The state added last is at this source line.
    Line(u32),
}

/// A question to the student at a section; the answer is computed from the run, so it never
/// goes stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Which verdict will the run give?
    Verdict,
    /// Which state is expanded next (of the states in the waitlist)?
    NextState,
    /// Which state is covered next?
    NextCovered,
    /// Type a loop invariant for the loop at this source line that proves the program; the
    /// answer is judged by [`invariant::check_invariant`] (initiation, consecution,
    /// sufficiency), not by comparing text.
    Invariant(u32),
    /// Type a predicate that the next refinement adds; judged by
    /// [`predicate::judge`] (equivalent to one it adds, or an interpolant of its path).
    Predicate,
}

impl Question {
    pub fn prompt(self) -> String {
        match self {
            Question::Verdict => "What will the verdict be?".into(),
            Question::NextState => "Which state is expanded next?".into(),
            Question::NextCovered => "Which state will be covered next?".into(),
            Question::Invariant(line) => format!(
                "Type a loop invariant for the loop at line {line} (a C expression) that proves \
                 the program."
            ),
            Question::Predicate => "Which predicate will the next refinement add? Type it as a C \
                                    expression."
                .into(),
        }
    }
}

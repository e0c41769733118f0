//! The invariant exercise in the page: the student picks a loop (by its line), types a
//! candidate invariant, and the worker checks it (initiation, consecution, sufficiency) with
//! the engine function `cpa check-invariant` uses.

use crate::protocol::InvariantReport;

/// What the exercise's panel does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExerciseMsg {
    Line(u32),
    Text(String),
    Check,
    /// The worker's answer to check number `generation`.
    Checked(u64, Result<InvariantReport, String>),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exercise {
    /// The loop's line (`None`: the first loop of the program).
    pub line: Option<u32>,
    pub text: String,
    /// Bumped with every check: an answer to an older one is dropped.
    pub generation: u64,
    pub busy: bool,
    /// The last answer, with the line and text it was for.
    pub result: Option<(u32, String, Result<InvariantReport, String>)>,
}

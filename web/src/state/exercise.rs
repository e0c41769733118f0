//! The exercises in the page. The invariant exercise: the student picks a loop (by its line),
//! types a candidate invariant, and the worker checks it (initiation, consecution,
//! sufficiency) with the engine function `cpa check-invariant` uses. The predicate exercise:
//! the student picks or types predicates at lines, and the run uses exactly that precision
//! (the knobs `predicates` and `max-refinements=0`), so the ARG shows whether they prove the
//! program or where the abstraction is too coarse.

use crate::protocol::InvariantReport;

/// What the exercise's panel does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExerciseMsg {
    Line(u32),
    Text(String),
    Check,
    /// The worker's answer to check number `generation`.
    Checked(u64, Result<InvariantReport, String>),
    /// The predicate exercise: the line the next predicate holds at.
    PredicateLine(u32),
    PredicateText(String),
    /// Adds the typed predicate at the chosen line.
    PredicateAdd,
    /// Adds a suggested predicate (line, C expression).
    PredicatePick(u32, String),
    PredicateRemove(usize),
    /// Runs predicate abstraction with exactly the predicates chosen, to its verdict.
    PredicateRun,
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
    pub predicates: PredicateExercise,
}

/// The predicates a student has chosen, before they become the run's configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PredicateExercise {
    /// The line of the next predicate (`None`: the first loop's, or the first line with a
    /// location).
    pub line: Option<u32>,
    pub text: String,
    /// (line, C expression), in the order added.
    pub chosen: Vec<(u32, String)>,
    /// Why the last Add was refused.
    pub error: Option<String>,
}

/// Most predicates the exercise holds (the knob's value stays under its 2,000 bytes).
pub const MAX_PREDICATES: usize = 24;

impl PredicateExercise {
    /// The value of the `predicates` knob for the chosen predicates.
    pub fn knob_value(&self) -> String {
        self.chosen
            .iter()
            .map(|(l, e)| format!("{l}: {e}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Adds `expr` at `line` (trimmed, not twice); why not, if it is refused.
    pub fn add(&mut self, line: u32, expr: &str) -> Result<(), String> {
        let e = expr.trim();
        if e.is_empty() {
            return Err("type a C expression first".into());
        }
        if e.contains(';') {
            return Err("one expression at a time (no ';')".into());
        }
        if self.chosen.iter().any(|(l, x)| *l == line && x == e) {
            return Err(format!("'{e}' is already chosen at line {line}"));
        }
        if self.chosen.len() >= MAX_PREDICATES {
            return Err(format!("at most {MAX_PREDICATES} predicates"));
        }
        let mut next = self.clone();
        next.chosen.push((line, e.to_string()));
        if next.knob_value().len() > 2_000 {
            return Err("the predicates are too long (at most 2,000 characters in all)".into());
        }
        self.chosen = next.chosen;
        Ok(())
    }
}

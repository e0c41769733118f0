//! The lesson being played: which lesson, which section, where its anchor put the run, and
//! the student's answer to the section's question.

use crate::protocol::Judgement;
use cpa_engine::events::{Event, VerdictKind};
use cpa_engine::lesson::{self, Anchor, Answer, Lesson};
use std::rc::Rc;

/// What the lesson player does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonMsg {
    /// Open a bundled lesson by its key (an empty key closes the lesson).
    Open(String),
    /// Show section `n` (from 0): the run moves to its anchor.
    Go(usize),
    Next,
    Back,
    /// The student's answer to the section's question (a verdict's name or a state's id).
    Answer(String),
    /// The text typed for an invariant question.
    Draft(String),
    /// Check the typed answer (an invariant as the invariant exercise does, a predicate
    /// against the next refinement), in the worker.
    CheckDraft,
    /// The worker's judgement of predicate answer number `generation`.
    Judged(u64, Result<Judgement, String>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct LessonState {
    /// A bundled lesson's key; empty for a lesson written in the page ([`LessonState::text`]).
    pub key: &'static str,
    /// The text of a lesson written in the page (it travels in the share link).
    pub text: Option<std::rc::Rc<str>>,
    pub lesson: Rc<Lesson>,
    pub section: usize,
    /// The anchor waits for the run to be computed to its end (refinement, line, verdict).
    pub pending: bool,
    /// The student's answer to the question shown and whether it was right.
    pub answer: Option<(String, bool)>,
    /// A question answered by typing: the text typed, and the check awaited for it (its
    /// generation and the text sent).
    pub draft: String,
    pub checking: Option<(u64, String)>,
    /// Answers to predicate questions sent so far (their generations).
    pub asked: u64,
    /// The judgement of the last predicate answer (why it is right or not).
    pub judged: Option<Result<Judgement, String>>,
}

impl LessonState {
    pub fn anchor(&self) -> Anchor {
        self.lesson.sections[self.section].anchor
    }

    /// The position of the section's anchor in `events` (a whole run), if it lands.
    pub fn position(
        &self,
        events: &[Event],
        line_of: &dyn Fn(u32) -> Option<u32>,
    ) -> Option<usize> {
        lesson::resolve(self.anchor(), events, line_of).ok()
    }

    /// The text of the typed answer whose check `generation` has come back (`None`: an answer
    /// to an older check, or none awaited; the awaited check stays awaited).
    pub fn settle(&mut self, generation: u64) -> Option<String> {
        match &self.checking {
            Some((g, _)) if *g == generation => self.checking.take().map(|(_, text)| text),
            _ => None,
        }
    }

    /// Whether `given` answers the section's question (asked at `position` of `events`).
    pub fn judge(&self, given: &str, events: &[Event], position: usize) -> Option<bool> {
        let q = self.lesson.sections[self.section].question?;
        Some(match Answer::of(q, events, position)? {
            Answer::Verdict(v) => verdict_name(v) == given,
            Answer::State { answer, .. } => given.parse::<u32>().ok() == Some(answer),
            // Judged by the solver in the worker ([`LessonMsg::CheckDraft`]).
            Answer::Invariant { .. } | Answer::Predicate { .. } => return None,
        })
    }
}

/// What a section's text names that the page can show: `state N` (an ARG state), `line N`
/// (a source line), `location N` (a CFA location, as the page labels them `N…`) and `edge N`
/// (a CFA edge), with their byte ranges in `text`, in order.
pub fn references(text: &str) -> Vec<(std::ops::Range<usize>, crate::state::view::Selection)> {
    use crate::state::view::{GraphKind, Selection};
    let mut out = Vec::new();
    for (word, make) in [
        ("state ", Selection::State as fn(u32) -> Selection),
        ("line ", Selection::Line as fn(u32) -> Selection),
        ("location ", Selection::Location as fn(u32) -> Selection),
        (
            "edge ",
            (|e| Selection::Edge(GraphKind::Cfa, e)) as fn(u32) -> Selection,
        ),
    ] {
        let mut from = 0;
        while let Some(i) = text[from..].find(word) {
            let start = from + i;
            let digits_at = start + word.len();
            let n: String = text[digits_at..]
                .chars()
                .take_while(char::is_ascii_digit)
                .take(9)
                .collect();
            // A whole word: not "restate 3", not "state 3a".
            let before_ok = start == 0 || !text[..start].ends_with(|c: char| c.is_alphanumeric());
            let end = digits_at + n.len();
            let after_ok = !text[end..].starts_with(|c: char| c.is_alphanumeric());
            if let (true, true, Ok(k)) = (before_ok, after_ok, n.parse::<u32>()) {
                out.push((start..end, make(k)));
            }
            from = digits_at;
        }
    }
    out.sort_by_key(|(r, _)| r.start);
    out
}

/// The formulas a section names: its `code` spans, as a person writes them (`x = y`), which
/// the Refinements tab marks where it shows the same text (an interpolant, a predicate).
pub fn named_formulas(body: &str) -> Vec<String> {
    body.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty())
        .collect()
}

/// What a section highlights when it is shown: the state its claims name, else the first
/// state or line its text names.
pub fn highlight(section: &cpa_engine::lesson::Section) -> Option<crate::state::view::Selection> {
    section
        .expects
        .iter()
        .find_map(|e| match e {
            cpa_engine::lesson::Expect::State(n) => Some(crate::state::view::Selection::State(*n)),
            cpa_engine::lesson::Expect::Line(l) => Some(crate::state::view::Selection::Line(*l)),
            _ => None,
        })
        .or_else(|| references(&section.body).first().map(|(_, s)| *s))
}

pub fn verdict_name(v: VerdictKind) -> &'static str {
    match v {
        VerdictKind::True => "TRUE",
        VerdictKind::False => "FALSE",
        VerdictKind::Unknown => "UNKNOWN",
    }
}

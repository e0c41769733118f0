//! A lesson against a run: where each section's anchor lands in the event log, whether its
//! claims hold there, and the answers of its questions.

use super::{Anchor, Expect, Lesson, Question};
use crate::cfa::Cfa;
use crate::events::{Event, VerdictKind};
use crate::session::view::ArgView;
use std::collections::BTreeSet;

/// The position (number of events) a section's anchor puts the run at, in `events` (the whole
/// run's log). `line_of` gives a CFA location's source line.
pub fn resolve(
    anchor: Anchor,
    events: &[Event],
    line_of: &dyn Fn(u32) -> Option<u32>,
) -> Result<usize, String> {
    match anchor {
        Anchor::Start => Ok(0),
        Anchor::Event(n) if n <= events.len() => Ok(n),
        Anchor::Event(n) => Err(format!("the run has {} events, not {n}", events.len())),
        Anchor::Verdict => match events.last() {
            Some(Event::Verdict { .. }) => Ok(events.len()),
            _ => Err("the run did not reach its verdict".into()),
        },
        Anchor::Refinement(k) => events
            .iter()
            .position(|e| matches!(e, Event::Refined { refinement, .. } if *refinement == k))
            .map(|i| i + 1)
            .ok_or_else(|| format!("the run has no refinement {k}")),
        Anchor::Line(l) => events
            .iter()
            .position(
                |e| matches!(e, Event::StateAdded { location, .. } if line_of(*location) == Some(l)),
            )
            .map(|i| i + 1)
            .ok_or_else(|| format!("no state of the run is at line {l}")),
    }
}

/// The answer to a question asked at `position`, computed from the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Verdict(VerdictKind),
    /// A state, and the states the student chooses from.
    State {
        answer: u32,
        choices: Vec<u32>,
    },
    /// Any invariant of the loop at this line that proves the program: judged by the solver
    /// ([`super::invariant::check_invariant`]), so there is no one answer to show.
    Invariant {
        line: u32,
    },
    /// A predicate the next refinement adds (judged by the solver,
    /// [`super::predicate::judge`]): the refinement's number.
    Predicate {
        refinement: u32,
    },
}

impl Answer {
    pub fn of(q: Question, events: &[Event], position: usize) -> Option<Answer> {
        match q {
            Question::Verdict => events.iter().rev().find_map(|e| match e {
                Event::Verdict { verdict, .. } => Some(Answer::Verdict(*verdict)),
                _ => None,
            }),
            Question::NextState => {
                let answer = events[position..].iter().find_map(|e| match e {
                    Event::StatePopped { state } => Some(*state),
                    _ => None,
                })?;
                Some(Answer::State {
                    answer,
                    choices: waiting(&events[..position], answer),
                })
            }
            Question::NextCovered => {
                let answer = events[position..].iter().find_map(|e| match e {
                    Event::Covered { state, .. } => Some(*state),
                    _ => None,
                })?;
                let view = ArgView::replay(&events[..position]);
                let mut choices: Vec<u32> = view
                    .states
                    .values()
                    .filter(|s| s.covered_by.is_none())
                    .map(|s| s.id)
                    .collect();
                if !choices.contains(&answer) {
                    choices.push(answer);
                }
                choices.sort_unstable();
                Some(Answer::State { answer, choices })
            }
            Question::Invariant(line) => Some(Answer::Invariant { line }),
            Question::Predicate => super::predicate::next_refinement(events, position)
                .filter(|p| !p.added.is_empty())
                .map(|p| Answer::Predicate {
                    refinement: p.refinement,
                }),
        }
    }
}

/// The states in the ARG at the end of `prefix` that were never expanded and are not covered:
/// the waitlist as the student sees it (with `answer` among them).
fn waiting(prefix: &[Event], answer: u32) -> Vec<u32> {
    let view = ArgView::replay(prefix);
    let popped: BTreeSet<u32> = prefix
        .iter()
        .filter_map(|e| match e {
            Event::StatePopped { state } => Some(*state),
            _ => None,
        })
        .collect();
    let mut out: Vec<u32> = view
        .states
        .values()
        .filter(|s| s.covered_by.is_none() && !popped.contains(&s.id))
        .map(|s| s.id)
        .collect();
    if !out.contains(&answer) {
        out.push(answer);
    }
    out.sort_unstable();
    out
}

/// One section checked: where it lands and what does not hold there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub section: usize,
    pub position: Option<usize>,
    pub failures: Vec<String>,
}

/// Every section of `lesson` against the run `events` of the program `cfa`.
pub fn check(lesson: &Lesson, events: &[Event], cfa: &Cfa) -> Vec<Checked> {
    let line_of = |n: u32| cfa.nodes.get(n as usize).map(|x| x.line).filter(|&l| l > 0);
    let loop_at = |line: u32| crate::proof::exercise::loop_head_at_line(cfa, line).is_some();
    check_facts(lesson, events, &line_of, &loop_at)
}

/// [`check`] with what it needs of the program as functions: a CFA location's source line,
/// and whether a loop starts at a line (the page has the CFA as a graph, not a [`Cfa`]).
pub fn check_facts(
    lesson: &Lesson,
    events: &[Event],
    line_of: &dyn Fn(u32) -> Option<u32>,
    loop_at: &dyn Fn(u32) -> bool,
) -> Vec<Checked> {
    let verdict = events.iter().rev().find_map(|e| match e {
        Event::Verdict { verdict, .. } => Some(*verdict),
        _ => None,
    });
    let mut last = 0;
    lesson
        .sections
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut failures = Vec::new();
            let position = match resolve(s.anchor, events, line_of) {
                Ok(p) => p,
                Err(e) => {
                    return Checked {
                        section: i,
                        position: None,
                        failures: vec![e],
                    }
                }
            };
            if position < last {
                failures.push(format!(
                    "its anchor (event {position}) comes before the previous section's \
                     (event {last})"
                ));
            }
            last = position;
            let view = ArgView::replay(&events[..position]);
            for e in &s.expects {
                if let Some(f) = claim(e, &view, verdict, &events[..position], line_of) {
                    failures.push(f);
                }
            }
            if let Some(Question::Invariant(line)) = s.question {
                if !loop_at(line) {
                    failures.push(format!("the question asks for an invariant, but no loop starts at line {line}"));
                }
                if verdict == Some(VerdictKind::False) {
                    failures.push("the question asks for an invariant that proves the program, but the program is unsafe (verdict false)".into());
                }
            }
            if let Some(q) = s.question {
                if Answer::of(q, events, position).is_none() {
                    failures.push(format!(
                        "the question '{}' has no answer after event {position}",
                        q.prompt()
                    ));
                }
            }
            Checked {
                section: i,
                position: Some(position),
                failures,
            }
        })
        .collect()
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// What is wrong with the claim `e` at the view `view`, if anything.
fn claim(
    e: &Expect,
    view: &ArgView,
    verdict: Option<VerdictKind>,
    prefix: &[Event],
    line_of: &dyn Fn(u32) -> Option<u32>,
) -> Option<String> {
    match e {
        Expect::State(n) => {
            (!view.states.contains_key(n)).then(|| format!("state {n} is not in the ARG"))
        }
        Expect::Predicate(p) => {
            let want = squash(p);
            let found = view
                .predicates
                .values()
                .flatten()
                .any(|q| squash(q) == want);
            (!found).then(|| {
                let known: Vec<&String> = view.predicates.values().flatten().collect();
                format!("no predicate '{p}' in the precision (it has: {known:?})")
            })
        }
        Expect::Verdict(v) => (verdict != Some(*v)).then(|| {
            format!(
                "the verdict is {}, not {}",
                verdict.map_or("none".into(), |x| format!("{x:?}").to_lowercase()),
                format!("{v:?}").to_lowercase()
            )
        }),
        Expect::Refinements(k) => (view.refinements != *k)
            .then(|| format!("{} refinements are done, not {k}", view.refinements)),
        Expect::Line(l) => {
            let state = prefix.iter().rev().find_map(|e| match e {
                Event::StateAdded { state, .. } => Some(*state),
                _ => None,
            });
            let at = state
                .and_then(|s| view.states.get(&s))
                .and_then(|s| line_of(s.location));
            (at != Some(*l)).then(|| format!("the state added last is at line {at:?}, not {l}"))
        }
    }
}

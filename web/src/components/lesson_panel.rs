//! The lesson player: the bundled lessons' select, and the panel with the current section's
//! text, its question and Back/Next (the run follows each section's anchor).

use crate::components::text_field;
use crate::present::lessons;
use crate::protocol::InvariantPart;
use crate::state::lesson::{verdict_name, LessonMsg};
use crate::state::{Msg, State};
use cpa_engine::lesson::{Answer, Question};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The select of the bundled lessons (in the top bar).
pub fn select(st: &State, send: &Callback<Msg>) -> Html {
    let selected = st.lesson.as_ref().map_or("", |l| l.key);
    let onchange = send.reform(|e: Event| {
        let key = e
            .target_dyn_into::<HtmlSelectElement>()
            .map(|s| s.value())
            .unwrap_or_default();
        Msg::Lesson(LessonMsg::Open(key))
    });
    html! {
        <label class="lesson-select" title="Lessons: a run told step by step">
            <select data-testid="lesson-select" aria-label="Lesson" {onchange}>
                <option value="" selected={selected.is_empty()}>{ "Lessons…" }</option>
                { for lessons::titles().into_iter().map(|(key, title)| html! {
                    <option value={key} selected={selected == key}>{ title }</option>
                }) }
            </select>
        </label>
    }
}

/// Plain text in which what the page can show (`state 11`, `line 12`) is a button that
/// selects it (the ARG, CFA and source follow).
fn plain(text: &str, send: &Callback<Msg>) -> Html {
    let mut out = Vec::new();
    let mut at = 0;
    for (r, sel) in crate::state::lesson::references(text) {
        if r.start < at {
            continue;
        }
        out.push(html! { { text[at..r.start].to_string() } });
        let label = text[r.clone()].to_string();
        out.push(html! {
            <button type="button" class="ref" data-testid="lesson-ref" data-ref={label.clone()}
                title={format!("Show {label}")}
                onclick={send.reform(move |_| Msg::Select(Some(sel)))}>{ label.clone() }</button>
        });
        at = r.end;
    }
    out.push(html! { { text[at..].to_string() } });
    out.into_iter().collect()
}

/// Inline Markdown as text: `code` and **bold**; nothing else is interpreted (a lesson may
/// come from a link, so no HTML is ever taken from it).
fn inline(text: &str, send: &Callback<Msg>) -> Html {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let next = [rest.find('`'), rest.find("**")]
            .into_iter()
            .flatten()
            .min();
        let Some(i) = next else {
            out.push(plain(rest, send));
            break;
        };
        out.push(plain(&rest[..i], send));
        let (mark, wrap): (&str, fn(String) -> Html) = if rest[i..].starts_with('`') {
            ("`", |s| html! { <code>{ s }</code> })
        } else {
            ("**", |s| html! { <strong>{ s }</strong> })
        };
        let after = &rest[i + mark.len()..];
        match after.find(mark) {
            Some(j) => {
                out.push(wrap(after[..j].to_string()));
                rest = &after[j + mark.len()..];
            }
            None => {
                out.push(html! { { rest[i..].to_string() } });
                break;
            }
        }
    }
    out.into_iter().collect()
}

/// A section's text: paragraphs separated by blank lines.
fn body(text: &str, send: &Callback<Msg>) -> Html {
    text.split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .map(|p| html! { <p>{ inline(&p.split_whitespace().collect::<Vec<_>>().join(" "), send) }</p> })
        .collect()
}

/// Why an invariant answer does not prove the program: the first part of the exercise's
/// report that fails, with its states.
fn invariant_why(st: &State, line: u32, given: &str) -> String {
    let report = st
        .exercise
        .result
        .as_ref()
        .filter(|(at, text, _)| *at == line && text == given);
    match report.map(|(_, _, r)| r) {
        Some(Ok(r)) => {
            let parts = [
                ("initiation", &r.initiation),
                ("consecution", &r.consecution),
                ("sufficiency", &r.sufficiency),
            ];
            parts
                .iter()
                .find_map(|(name, p)| match p {
                    InvariantPart::Holds => None,
                    InvariantPart::Unknown { why } => Some(format!("{name} is not decided: {why}")),
                    InvariantPart::Fails { why, before, after } => {
                        let vals = crate::components::invariant_panel::values;
                        let mut s = format!("{name} fails: {why}");
                        if !before.is_empty() {
                            s.push_str(&format!(" (before: {}", vals(before)));
                            if !after.is_empty() {
                                s.push_str(&format!("; after: {}", vals(after)));
                            }
                            s.push(')');
                        }
                        Some(s)
                    }
                })
                .unwrap_or_default()
        }
        Some(Err(e)) => e.clone(),
        None => String::new(),
    }
}

/// A question the student answers by typing a C expression: a loop invariant (checked as the
/// invariant exercise does: the feedback names the part that fails with its states) or the
/// predicate of the next refinement (judged by equivalence or as an interpolant).
fn typed_question(st: &State, q: Question, send: &Callback<Msg>) -> Html {
    let Some(l) = &st.lesson else {
        return html! {};
    };
    let (on_text, on_key) = text_field(
        send,
        |t| Msg::Lesson(LessonMsg::Draft(t)),
        Msg::Lesson(LessonMsg::CheckDraft),
    );
    let checking = l.checking.is_some();
    let feedback = l.answer.as_ref().map(|(given, right)| match q {
        Question::Invariant(_) if *right => format!(
            "Right: {given} holds when the loop is entered, carries over one iteration and \
             excludes the error: an inductive invariant that proves the program."
        ),
        Question::Invariant(line) => {
            format!("Not yet ({given}): {}.", invariant_why(st, line, given))
        }
        _ => match &l.judged {
            Some(Ok(j)) if j.accepted => format!("Right: {}.", j.why),
            Some(Ok(j)) => format!("Not yet ({given}): {}.", j.why),
            Some(Err(e)) => format!("Not yet ({given}): {e}."),
            None => String::new(),
        },
    });
    let (class, line, placeholder) = match q {
        Question::Invariant(line) => ("invariant", Some(line), "e.g. i <= n"),
        _ => ("predicate", None, "e.g. x <= y"),
    };
    html! {
        <div class={classes!("lesson-question", class)} data-testid="lesson-question" data-line={line.map(|l| l.to_string())}>
            <p class="prompt">{ q.prompt() }</p>
            <div class="invariant-form">
                <input type="text" data-testid="lesson-answer" {placeholder} spellcheck="false" maxlength="2000"
                    value={l.draft.clone()} oninput={on_text} onkeyup={on_key} />
                <button type="button" data-testid="lesson-check" disabled={checking || l.draft.trim().is_empty()}
                    onclick={send.reform(|_| Msg::Lesson(LessonMsg::CheckDraft))}>
                    { if checking { "checking…" } else { "Check" } }
                </button>
            </div>
            if let Some(f) = feedback {
                <p class={classes!("feedback", l.answer.as_ref().is_some_and(|a| a.1).then_some("right"))}
                    data-testid="lesson-feedback" data-right={l.answer.as_ref().is_some_and(|a| a.1).to_string()} role="status">{ f }</p>
            }
        </div>
    }
}

fn question_view(st: &State, q: Question, send: &Callback<Msg>) -> Html {
    if matches!(q, Question::Invariant(_) | Question::Predicate) {
        return typed_question(st, q, send);
    }
    let Some(l) = &st.lesson else {
        return html! {};
    };
    let run = st.pg.run.as_ref();
    let answer = run.and_then(|r| Answer::of(q, &r.events, r.position));
    let choices: Vec<(String, String)> = match &answer {
        Some(Answer::Verdict(_)) => ["TRUE", "FALSE", "UNKNOWN"]
            .iter()
            .map(|v| (v.to_string(), v.to_string()))
            .collect(),
        Some(Answer::State { choices, .. }) => choices
            .iter()
            .map(|s| (s.to_string(), format!("state {s}")))
            .collect(),
        // The run has not computed far enough yet: the choices come once it has.
        Some(Answer::Invariant { .. } | Answer::Predicate { .. }) | None => Vec::new(),
    };
    let answered = l.answer.clone();
    let feedback = answered.as_ref().map(|(given, right)| {
        let correct = match &answer {
            Some(Answer::Verdict(v)) => verdict_name(*v).to_string(),
            Some(Answer::State { answer, .. }) => format!("state {answer}"),
            Some(Answer::Invariant { .. } | Answer::Predicate { .. }) | None => String::new(),
        };
        let why = match q {
            Question::Verdict => "Step on to see the run reach it.",
            Question::NextState => "The waitlist's order (the search strategy of the preset) decides which waiting state is expanded next.",
            Question::NextCovered => "A state is covered when a state at the same location already says at least as much.",
            Question::Invariant(_) | Question::Predicate => "",
        };
        if *right {
            format!("Right: {correct}. {why}")
        } else {
            format!("Not quite ({given}): the answer is {correct}. {why}")
        }
    });
    html! {
        <div class="lesson-question" data-testid="lesson-question">
            <p class="prompt">{ q.prompt() }</p>
            <div class="choices">
                { for choices.into_iter().map(|(value, label)| {
                    let chosen = answered.as_ref().is_some_and(|(g, _)| *g == value);
                    let v = value.clone();
                    html! {
                        <button type="button" data-testid="lesson-answer" data-value={value}
                            class={classes!(chosen.then_some("chosen"))}
                            onclick={send.reform(move |_| Msg::Lesson(LessonMsg::Answer(v.clone())))}>{ label }</button>
                    }
                }) }
            </div>
            if let Some(f) = feedback {
                <p class={classes!("feedback", answered.as_ref().is_some_and(|a| a.1).then_some("right"))}
                    data-testid="lesson-feedback" role="status">{ f }</p>
            }
        </div>
    }
}

/// The panel of the lesson being played (nothing without one).
pub fn panel(st: &State, send: &Callback<Msg>) -> Html {
    let Some(l) = &st.lesson else {
        return html! {};
    };
    let n = l.lesson.sections.len();
    let s = &l.lesson.sections[l.section];
    html! {
        <section class="lesson-panel" data-testid="lesson-panel" data-section={l.section.to_string()}
            aria-busy={l.pending.to_string()}>
            <header>
                <span class="lesson-title">{ l.lesson.title.clone() }</span>
                <span class="lesson-count">{ format!("{} of {n}", l.section + 1) }</span>
                <button type="button" class="close" title="Close the lesson"
                    onclick={send.reform(|_| Msg::Lesson(LessonMsg::Open(String::new())))}>{ "×" }</button>
            </header>
            <h3>{ s.title.clone() }</h3>
            <div class="lesson-body">{ body(&s.body, send) }</div>
            if let Some(q) = s.question {
                { question_view(st, q, send) }
            }
            <nav class="lesson-nav">
                <button type="button" data-testid="lesson-back" disabled={l.section == 0}
                    onclick={send.reform(|_| Msg::Lesson(LessonMsg::Back))}>{ "◀ Back" }</button>
                <button type="button" data-testid="lesson-next" disabled={l.section + 1 >= n}
                    onclick={send.reform(|_| Msg::Lesson(LessonMsg::Next))}>{ "Next ▶" }</button>
            </nav>
        </section>
    }
}

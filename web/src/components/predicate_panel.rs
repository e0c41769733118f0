//! The predicate exercise: the student picks predicates (the program's conditions) or types
//! them (C expressions) at lines, and runs predicate abstraction with exactly those, without
//! refinement: the verdict says whether they prove the program, and an UNKNOWN names the path
//! to the error they do not rule out.

use crate::components::{selected_number, text_field};
use crate::state::exercise::ExerciseMsg;
use crate::state::{Msg, State};
use yew::prelude::*;

pub fn view(st: &State, send: &Callback<Msg>) -> Html {
    let p = &st.exercise.predicates;
    let lines = st.location_lines();
    let at = st.predicate_line();
    let on_line =
        send.reform(|e: Event| Msg::Exercise(ExerciseMsg::PredicateLine(selected_number(&e))));
    let (on_text, on_key) = text_field(
        send,
        |t| Msg::Exercise(ExerciseMsg::PredicateText(t)),
        Msg::Exercise(ExerciseMsg::PredicateAdd),
    );
    let suggestions = st.condition_suggestions();
    let ran = st.runs_chosen_predicates();
    let verdict = st.derived.verdict.as_ref().filter(|_| ran);
    html! {
        <div class="predicate-exercise" data-testid="predicate-panel">
            <h3>{ "Predicates by hand" }</h3>
            <p class="hint">{ "Give predicate abstraction its predicates: pick one of the program's conditions or type a C expression, at a line. The run uses exactly them, without refinement: it proves the program, or stops at the first path to the error they do not rule out." }</p>
            if lines.is_empty() {
                <p class="hint">{ "The program does not parse." }</p>
            } else {
                <div class="invariant-form">
                    <label>{ "at line " }
                        <select data-testid="predicate-line" onchange={on_line}>
                            { for lines.iter().map(|l| html! {
                                <option value={l.to_string()} selected={Some(*l) == at}>{ l.to_string() }</option>
                            }) }
                        </select>
                    </label>
                    <input type="text" data-testid="predicate-input" placeholder="e.g. x == y"
                        value={p.text.clone()} oninput={on_text} onkeyup={on_key} spellcheck="false" maxlength="200" />
                    <button type="button" data-testid="predicate-add" disabled={p.text.trim().is_empty()}
                        onclick={send.reform(|_| Msg::Exercise(ExerciseMsg::PredicateAdd))}>{ "Add" }</button>
                </div>
                if !suggestions.is_empty() {
                    <p class="suggestions">
                        <span class="label">{ "the program's conditions:" }</span>
                        { for suggestions.into_iter().map(|c| {
                            let line = at.unwrap_or(0);
                            let pick = c.clone();
                            html! {
                                <button type="button" class="chip" data-testid="predicate-suggestion"
                                    title={format!("Add {c} at line {line}")}
                                    onclick={send.reform(move |_| Msg::Exercise(ExerciseMsg::PredicatePick(line, pick.clone())))}>
                                    <code>{ c.clone() }</code>
                                </button>
                            }
                        }) }
                    </p>
                }
            }
            if let Some(e) = &p.error {
                <p class="error" role="alert">{ e.clone() }</p>
            }
            <ul class="chosen" data-testid="predicate-list" data-knob={p.knob_value()}>
                { for p.chosen.iter().enumerate().map(|(i, (l, e))| html! {
                    <li>
                        <span class="line">{ format!("line {l}") }</span>
                        <code>{ e.clone() }</code>
                        <button type="button" class="remove" data-testid="predicate-remove" aria-label={format!("Remove {e} at line {l}")}
                            onclick={send.reform(move |_| Msg::Exercise(ExerciseMsg::PredicateRemove(i)))}>{ "×" }</button>
                    </li>
                }) }
            </ul>
            <div class="invariant-form">
                <button type="button" data-testid="predicate-run" disabled={lines.is_empty()}
                    onclick={send.reform(|_| Msg::Exercise(ExerciseMsg::PredicateRun))}>
                    { if p.chosen.is_empty() { "Run without predicates" } else { "Run with exactly these" } }
                </button>
                if let Some(v) = verdict {
                    <span class={classes!("summary", v.kind)} data-testid="predicate-result" data-verdict={v.kind}>
                        { match v.kind {
                            "true" => "TRUE: your predicates prove the program (the ARG is a proof).".to_string(),
                            "false" => "FALSE: the path to the error is feasible, no predicates can prove this program.".to_string(),
                            _ => format!("{}: see the ARG for the path the abstraction lets through.", v.text),
                        } }
                    </span>
                }
            </div>
            <p class="command"><code>{ st.predicate_exercise_config().command_line(&st.program.file) }</code></p>
        </div>
    }
}

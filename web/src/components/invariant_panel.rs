//! The invariant exercise: pick a loop, type a candidate invariant, check it. The result
//! lists initiation, consecution and sufficiency, each with the state before and after a
//! path that breaks it (a counterexample to induction for consecution).

use crate::components::{selected_number, text_field};
use crate::protocol::{InvariantPart, InvariantReport};
use crate::state::exercise::ExerciseMsg;
use crate::state::{Msg, State};
use yew::prelude::*;

/// `x = 1, y = 2`: the values of a state before or after a path.
pub(crate) fn values(vals: &[(String, String)]) -> String {
    vals.iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn part(name: &str, holds: &str, p: &InvariantPart) -> Html {
    let (class, head, detail) = match p {
        InvariantPart::Holds => (
            "holds",
            format!("{name}: holds"),
            html! { <p>{ holds }</p> },
        ),
        InvariantPart::Unknown { why } => (
            "unknown",
            format!("{name}: not decided"),
            html! { <p>{ why.clone() }</p> },
        ),
        InvariantPart::Fails { why, before, after } => (
            "fails",
            format!("{name}: fails"),
            html! {
                <>
                    <p>{ why.clone() }</p>
                    if !before.is_empty() { <p class="cti"><span class="label">{ "before" }</span><code>{ values(before) }</code></p> }
                    if !after.is_empty() { <p class="cti"><span class="label">{ "after" }</span><code>{ values(after) }</code></p> }
                </>
            },
        ),
    };
    html! {
        <li class={classes!("part", class)} data-part={name.to_string()} data-status={class}>
            <strong>{ head }</strong>
            { detail }
        </li>
    }
}

fn report(r: &InvariantReport) -> Html {
    let proves = r.proves();
    html! {
        <>
            <ul class="parts">
                { part("initiation", "Every path from the start arrives at the loop satisfying it.", &r.initiation) }
                { part("consecution", "One iteration from a state satisfying it ends in a state satisfying it.", &r.consecution) }
                { part("sufficiency", "From a state satisfying it, no path reaches the error.", &r.sufficiency) }
            </ul>
            <p class={classes!("summary", proves.then_some("proves"))}>
                { if proves { "The invariant is inductive and proves the program safe." } else { "The invariant does not prove the program: see the part that fails." } }
            </p>
        </>
    }
}

pub fn view(st: &State, hidden: bool, send: &Callback<Msg>) -> Html {
    let ex = &st.exercise;
    let lines = st.loop_lines();
    let chosen = ex
        .line
        .filter(|l| lines.contains(l))
        .or(lines.first().copied());
    let on_line = send.reform(|e: Event| Msg::Exercise(ExerciseMsg::Line(selected_number(&e))));
    let (on_text, on_key) = text_field(
        send,
        |t| Msg::Exercise(ExerciseMsg::Text(t)),
        Msg::Exercise(ExerciseMsg::Check),
    );
    html! {
        <div class="tab-panel invariant-exercise" data-testid="invariant-panel" hidden={hidden}>
            <h3>{ "Loop invariant" }</h3>
            <p class="hint">{ "Propose a loop invariant: a C expression over the variables in scope. It is checked exactly (wrap-around included) for initiation, consecution and sufficiency." }</p>
            if lines.is_empty() {
                <p class="hint">{ "The program has no loop." }</p>
            } else {
                <div class="invariant-form">
                    <label>{ "loop at line " }
                        <select data-testid="invariant-line" onchange={on_line}>
                            { for lines.iter().map(|l| html! {
                                <option value={l.to_string()} selected={Some(*l) == chosen}>{ l.to_string() }</option>
                            }) }
                        </select>
                    </label>
                    <input type="text" data-testid="invariant-input" placeholder="e.g. x == y && i <= n"
                        value={ex.text.clone()} oninput={on_text} onkeyup={on_key} spellcheck="false" maxlength="2000" />
                    <button type="button" data-testid="invariant-check" disabled={ex.busy || ex.text.trim().is_empty()}
                        onclick={send.reform(|_| Msg::Exercise(ExerciseMsg::Check))}>
                        { if ex.busy { "checking…" } else { "Check" } }
                    </button>
                </div>
            }
            if let Some((line, text, result)) = &ex.result {
                <div class="invariant-result" data-testid="invariant-result" data-line={line.to_string()}
                    data-proves={result.as_ref().is_ok_and(|r| r.proves()).to_string()}>
                    <p class="for"><code>{ text.clone() }</code>{ format!(" at the loop at line {line}") }</p>
                    { match result {
                        Ok(r) => report(r),
                        Err(e) => html! { <p class="error" role="alert">{ e.clone() }</p> },
                    } }
                </div>
            }
            { crate::components::predicate_panel::view(st, send) }
        </div>
    }
}

//! The lesson-writing tab: the lesson's text beside the run, a section added at the step
//! shown (key A), Play (the lesson player takes it), Download, and what does not hold when
//! the played lesson is checked against its run.

use crate::state::author::AuthorMsg;
use crate::state::{location_line, Msg, State};
use cpa_engine::lesson;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// What is wrong with the text: why it does not read, or (when it is the lesson played and
/// its run is computed to the end) the claims and anchors that do not hold.
fn problems(st: &State) -> (Vec<String>, Option<String>) {
    let text = &st.author.text;
    let parsed = match lesson::parse(text) {
        Ok(l) => l,
        Err(e) => return (vec![e], None),
    };
    let played = st
        .lesson
        .as_ref()
        .is_some_and(|l| l.text.as_deref() == Some(text.as_str()));
    let Some(run) = st.pg.run.as_ref().filter(|r| played && r.finished()) else {
        return (Vec::new(), None);
    };
    let cfa = run.cfa.clone();
    let line_of = |n: u32| location_line(&cfa, n);
    let loop_at = |line: u32| cfa.nodes.iter().any(|n| n.loop_head && n.line == line);
    let checked = lesson::check_facts(&parsed, &run.events, &line_of, &loop_at);
    let mut out = Vec::new();
    for c in &checked {
        let s = &parsed.sections[c.section];
        for f in &c.failures {
            out.push(format!("line {}: section '{}': {f}", s.line, s.title));
        }
    }
    let ok = out.is_empty().then(|| {
        format!(
            "Checked against the run: all {} sections land and their claims hold.",
            checked.len()
        )
    });
    (out, ok)
}

pub fn view(st: &State, hidden: bool, send: &Callback<Msg>) -> Html {
    if hidden {
        return html! { <div class="tab-panel author" data-testid="author-panel" hidden=true></div> };
    }
    let on_text = send.reform(|e: InputEvent| {
        Msg::Author(AuthorMsg::Edit(
            e.target_dyn_into::<HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default(),
        ))
    });
    let (problems, ok) = problems(st);
    let text = if st.author.text.is_empty() {
        String::new()
    } else {
        st.author.text.clone()
    };
    html! {
        <div class="tab-panel author" data-testid="author-panel">
            <p class="hint">{ "Step the run, press A (+ Section here) to anchor a section there, write, Play. Download it for lessons/, or Play and Share." }</p>
            <div class="author-actions">
                <button type="button" data-testid="lesson-add-section" title="A section anchored at the step shown (key A)"
                    onclick={send.reform(|_| Msg::Author(AuthorMsg::AddSection))}>{ "+ Section here" }</button>
                <button type="button" data-testid="lesson-play" disabled={text.is_empty()}
                    onclick={send.reform(|_| Msg::Author(AuthorMsg::Play))}>{ "Play" }</button>
                <button type="button" data-testid="lesson-download" disabled={text.is_empty()}
                    onclick={send.reform(|_| Msg::Author(AuthorMsg::Download))}>{ "Download" }</button>
                <button type="button" data-testid="lesson-new" title="Start again from the template for the program and analysis shown"
                    onclick={send.reform(|_| Msg::Author(AuthorMsg::New))}>{ "New" }</button>
            </div>
            if let Some(e) = &st.author.error {
                <p class="error" role="alert">{ e.clone() }</p>
            }
            <textarea data-testid="lesson-text" aria-label="The lesson's text" spellcheck="true"
                placeholder="Press + Section here (or A) to start a lesson at the step shown."
                value={text} oninput={on_text}></textarea>
            if !problems.is_empty() {
                <ul class="problems" data-testid="lesson-problems">
                    { for problems.into_iter().map(|p| html! { <li>{ p }</li> }) }
                </ul>
            }
            if let Some(ok) = ok {
                <p class="ok" data-testid="lesson-checked">{ ok }</p>
            }
        </div>
    }
}

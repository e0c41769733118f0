//! The top bar (the example, the analysis and its knobs, compare mode, the engine's status, share,
//! presentation, theme, help) and the phone's view tabs.

use crate::components::example_select::ExampleSelect;
use crate::state::compare::CompareMsg;
use crate::state::{Msg, Overlay, PhoneView, State};
use cpa_engine::config::Preset;
use yew::prelude::*;

fn svg_icon(path: &'static str) -> Html {
    html! {
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d={path} fill="currentColor" fill-rule="evenodd" /></svg>
    }
}

/// `open_full`: in an embedded page, the link that opens the state in the playground.
pub fn view(st: &State, open_full: Option<AttrValue>, send: &Callback<Msg>) -> Html {
    let pg = &st.pg;
    let comparing = st.compare.is_some();
    let (status, status_class) = st.engine.status_text(st.program.building);
    let on_preset = send.reform(|e: Event| {
        Msg::Preset(
            e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        )
    });
    let knobs_open = st.view.overlay == Overlay::Knobs;
    let presentation = st.view.presentation;
    let knobs_text = match pg.config.set.len() {
        0 => "knobs".to_string(),
        n => format!("knobs ({n})"),
    };
    html! {
        <header class="topbar">
            <h1 class="brand">{ "CPA Playground" }</h1>
            if let Some(href) = open_full {
                <a class="open-full" data-testid="open-in-playground" href={href} target="_blank" rel="noopener">{ "Open in playground ↗" }</a>
                <span class="embed-config" data-testid="embed-config">{ format!("{} · {}", st.program.file, pg.config.preset) }</span>
            }
            <ExampleSelect selected={st.program.example.map_or("", |e| e.key)} on_select={send.reform(Msg::SelectExample)} />
            { crate::components::lesson_panel::select(st, send) }
            <label class="config-select">
                <span class="label">{ "Analysis" }</span>
                <select data-testid="config-select" onchange={on_preset}>
                    { for Preset::names().iter().map(|p| html! {
                        <option value={*p} selected={pg.config.preset == *p}>{ *p }</option>
                    }) }
                </select>
            </label>
            <button type="button" class={classes!("knobs-btn", (!pg.config.set.is_empty()).then_some("changed"))}
                data-testid="btn-knobs" aria-expanded={knobs_open.to_string()}
                title="Every knob of the configuration" onclick={send.reform(|_| Msg::Overlay(Overlay::Knobs))}>
                { knobs_text }
            </button>
            <button type="button" class={classes!("compare-btn", st.compare.is_some().then_some("on"))}
                data-testid="btn-compare" aria-pressed={st.compare.is_some().to_string()}
                title="Compare: a second analysis of this program beside the first"
                onclick={send.reform(move |_| Msg::Compare(if comparing { CompareMsg::Close } else { CompareMsg::Open(None) }))}>
                { if comparing { "Compare ✕" } else { "Compare" } }
            </button>
            <span class={classes!("engine-status", status_class)} data-testid="engine-status" title={status.clone()}>{ status }
                if let (Some((l, t)), false) = (st.engine.z3, st.engine.z3_ready) {
                    if t > 0 { <progress max={t.to_string()} value={l.to_string()}></progress> }
                }
            </span>
            <span class="spacer"></span>
            <button type="button" class="share-btn" data-testid="btn-share" title="Share a link to this state (S)"
                aria-haspopup="dialog" onclick={send.reform(|_| Msg::Overlay(Overlay::Share))}>{ "Share" }</button>
            <button type="button" class="icon-btn present-btn" title="Presentation mode (P)" aria-label="Presentation mode" aria-pressed={presentation.to_string()}
                onclick={send.reform(|_| Msg::Presentation)}>{ svg_icon("M1 3h14v9H1zM3 5v5h10V5zM6 13h4v2H6z") }</button>
            <button type="button" class="icon-btn" title="Dark / light (D)" aria-label="Dark or light" onclick={send.reform(|_| Msg::Theme)}>{ svg_icon("M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1zm0 2v10a5 5 0 0 1 0-10z") }</button>
            <button type="button" class="icon-btn" data-testid="btn-help" title="Help and keyboard shortcuts (?)"
                onclick={send.reform(|_| Msg::Overlay(Overlay::Help(None)))}>{ "?" }</button>
        </header>
    }
}

/// On a phone: one view at a time, chosen by these tabs.
pub fn phone_tabs(shown: PhoneView, send: &Callback<Msg>) -> Html {
    html! {
        <nav class="phone-tabs tabs" role="tablist" aria-label="Views">
            { for PhoneView::ALL.iter().map(|&v| {
                let (name, testid, _) = v.describe();
                html! {
                    <button type="button" role="tab" data-testid={testid} aria-selected={(shown == v).to_string()}
                        class={classes!("tab", (shown == v).then_some("active"))}
                        onclick={send.reform(move |_| Msg::Phone(v))}>{ name }</button>
                }
            }) }
        </nav>
    }
}

//! The configuration: preset and every knob of it, with the preset's values as defaults.

use crate::present::knobs::{Group, Input, Knob};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub knobs: Vec<Knob>,
    pub error: Option<AttrValue>,
    pub command: AttrValue,
    pub on_set: Callback<(String, String)>,
    pub on_reset: Callback<()>,
    pub on_close: Callback<()>,
}

#[function_component(KnobsPanel)]
pub fn knobs_panel(p: &Props) -> Html {
    let control = |k: &Knob| {
        let key = k.key.clone();
        let cb = p.on_set.clone();
        let changed = k.value != k.default;
        let on_change = Callback::from(move |e: Event| {
            let v = if let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                s.value()
            } else {
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value()
            };
            cb.emit((key.clone(), v.trim().to_string()));
        });
        let input = match k.input {
            Input::Choice(options) => html! {
                <select data-knob={k.key.clone()} onchange={on_change}>
                    { for options.iter().map(|o| html! { <option value={*o} selected={k.value == *o}>{ *o }</option> }) }
                </select>
            },
            Input::Bool => html! {
                <select data-knob={k.key.clone()} onchange={on_change}>
                    <option value="true" selected={k.value == "true"}>{ "on" }</option>
                    <option value="false" selected={k.value == "false"}>{ "off" }</option>
                </select>
            },
            Input::Number => html! {
                <input type="number" min="0" data-knob={k.key.clone()} value={k.value.clone()} onchange={on_change} />
            },
            Input::Text => html! {
                <input type="text" data-knob={k.key.clone()} value={k.value.clone()} onchange={on_change} />
            },
        };
        html! {
            <label class={classes!("knob", changed.then_some("changed"))} title={k.help}>
                <span class="knob-name">{ k.key.clone() }</span>
                { input }
                <span class="knob-help">{ k.help }{ if changed { format!(" (preset: {})", k.default) } else { String::new() } }</span>
            </label>
        }
    };
    let reset = {
        let cb = p.on_reset.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let close = {
        let cb = p.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    html! {
        <section class="knobs-panel" data-testid="knobs" aria-label="Configuration knobs">
            <header class="panel-head">
                <h2>{ "Knobs" }</h2>
                <button type="button" onclick={reset}>{ "preset values" }</button>
                <button type="button" class="close" aria-label="Close the knobs" onclick={close}>{ "×" }</button>
            </header>
            if let Some(e) = &p.error {
                <p class="error" data-testid="config-error" role="alert">{ e.clone() }</p>
            }
            <p class="command"><code>{ p.command.clone() }</code></p>
            { for Group::ALL.iter().map(|g| {
                let ks: Vec<&Knob> = p.knobs.iter().filter(|k| k.group == *g).collect();
                if ks.is_empty() { return html! {}; }
                html! {
                    <fieldset>
                        <legend>{ g.title() }</legend>
                        { for ks.into_iter().map(control) }
                    </fieldset>
                }
            }) }
        </section>
    }
}

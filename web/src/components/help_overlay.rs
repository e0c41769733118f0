//! The help overlay (`?`): keyboard shortcuts, the visual language, and the glossary.

use crate::explain::GLOSSARY;
use yew::prelude::*;

pub const SHORTCUTS: &[(&str, &str)] = &[
    ("→", "step forward one event"),
    ("←", "step back one event"),
    ("Shift+→", "to the next abstraction"),
    ("Ctrl+→", "to the end of the next refinement"),
    ("End", "run to the verdict"),
    ("Space", "run / pause"),
    ("Home", "back to the start"),
    (
        "1–8",
        "bottom tabs: refinements, solver log, statistics, counterexample, state, exercises, race, write a lesson",
    ),
    ("A", "add a lesson section at the step shown (tab Write)"),
    ("?", "this help"),
    ("P", "presentation mode (large fonts, fewer panels)"),
    ("D", "dark / light mode (remembered)"),
    ("S", "share: a link to this state, an embed link"),
    (
        "Esc",
        "close this help, the share dialog or the knobs; clear the selection",
    ),
];

#[derive(Properties, PartialEq)]
pub struct Props {
    /// A glossary entry to show first (from an explanation's "glossary" link).
    pub focus: Option<&'static str>,
    pub on_close: Callback<()>,
}

#[function_component(HelpOverlay)]
pub fn help_overlay(p: &Props) -> Html {
    let close = {
        let cb = p.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    let entries = GLOSSARY.iter().map(|(key, term, def)| {
        let focus = p.focus == Some(*key);
        html! {
            <div class={classes!("gloss", focus.then_some("focus"))} id={format!("gloss-{key}")}>
                <dt>{ *term }</dt><dd>{ *def }</dd>
            </div>
        }
    });
    html! {
        <div class="overlay" data-testid="help" onclick={close.clone()} role="dialog" aria-modal="true" aria-label="Help">
            <div class="overlay-body" onclick={stop}>
                <header class="panel-head">
                    <h2>{ if p.focus.is_some() { "Glossary" } else { "Help" } }</h2>
                    <button type="button" class="close" aria-label="Close" onclick={close}>{ "×" }</button>
                </header>
                if p.focus.is_none() {
                    <h3>{ "Keyboard (not while typing in the editor)" }</h3>
                    <table class="keys">
                        { for SHORTCUTS.iter().map(|(k, v)| html! { <tr><td><kbd>{ *k }</kbd></td><td>{ *v }</td></tr> }) }
                    </table>
                    <h3>{ "What the colours and shapes mean" }</h3>
                    <p>{ "Blue filled boxes are abstraction states (where a block ends), white boxes intermediate states. An orange border marks a state still in the waitlist; green states are covered (a dashed arrow points to the coverer); red is an error state; red thick edges are the abstract counterexample during a refinement; faded, struck-through states are removed by this step; the thick outline is the state being expanded. In the editor, a green mark in the gutter means the ARG has reached the line; yellow is the current event's line." }</p>
                }
                <h3>{ "Glossary" }</h3>
                <dl class="glossary">{ for entries }</dl>
            </div>
        </div>
    }
}

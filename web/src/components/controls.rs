//! The step bar: reset, back, step, next abstraction, next refinement, to the end, run/pause
//! with its speed, the step counter ("event k of n") and the verdict.

use crate::state::derived::VerdictView;
use crate::state::{Action, Target, SPEEDS};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub position: usize,
    pub total: usize,
    /// The run has no more events than `total`.
    pub finished: bool,
    pub running: bool,
    pub speed: Option<u32>,
    /// What the engine is doing (`computing…`, `replaying…`), if anything.
    pub activity: Option<AttrValue>,
    /// Why nothing can run (shown instead of the controls' effect).
    pub blocked: Option<AttrValue>,
    pub verdict: Option<VerdictView>,
    pub on_action: Callback<Action>,
    /// Whether the analysis computes abstractions (else "to the next abstraction" is off).
    #[prop_or(true)]
    pub abstractions: bool,
}

fn icon(path: &'static str) -> Html {
    html! {
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d={path} fill="currentColor" /></svg>
    }
}

const RESET: &str = "M3 2h2v12H3zM14 2v12L6 8z";
const BACK: &str = "M12 2v12L4 8z";
const STEP: &str = "M4 2v12l8-6z";
const END: &str = "M2 2v12l8-6zM11 2h2v12h-2z";
const RUN: &str = "M1 2v12l7-6zM8 2v12l7-6z";
const PAUSE: &str = "M3 2h4v12H3zM9 2h4v12H9z";

pub fn speed_name(s: Option<u32>) -> String {
    match s {
        Some(n) => format!("{n}/s"),
        None => "max".into(),
    }
}

#[function_component(Controls)]
pub fn controls(p: &Props) -> Html {
    let act = |a: Action| {
        let cb = p.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let blocked = p.blocked.is_some();
    let at_start = p.position == 0;
    let at_end = p.finished && p.position >= p.total;
    let button = |testid: &'static str,
                  title: &'static str,
                  key: &'static str,
                  body: Html,
                  disabled: bool,
                  onclick: Callback<MouseEvent>| {
        let full = format!("{title} ({key})");
        html! {
            <button type="button" class="step-btn" data-testid={testid} title={full.clone()} aria-label={full}
                {disabled} {onclick}>{ body }</button>
        }
    };
    let on_speed = {
        let cb = p.on_action.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let s = SPEEDS.iter().copied().find(|s| speed_name(*s) == v);
            if let Some(s) = s {
                cb.emit(Action::SetSpeed(s));
            }
        })
    };
    html! {
        <div class="stepbar" role="toolbar" aria-label="Stepping">
            <div class="step-buttons">
                { button("btn-reset", "Back to the start", "Home", icon(RESET), blocked || at_start, act(Action::Reset)) }
                { button("btn-step-back", "Step back one event", "←", icon(BACK), blocked || at_start, act(Action::StepBack)) }
                { button("btn-step", "Step forward one event", "→", icon(STEP), blocked || at_end, act(Action::Step(Target::Event))) }
                { button("btn-next-abstraction", "To the next abstraction", "Shift+→",
                    html! { <><span class="btn-text">{ "abs" }</span>{ icon(STEP) }</> }, blocked || at_end || !p.abstractions, act(Action::Step(Target::Abstraction))) }
                { button("btn-next-refinement", "To the end of the next refinement", "Ctrl+→",
                    html! { <><span class="btn-text">{ "ref" }</span>{ icon(STEP) }</> }, blocked || at_end, act(Action::Step(Target::Refinement))) }
                { button("btn-end", "Run to the verdict", "End", icon(END), blocked || at_end, act(Action::Step(Target::End))) }
                if p.running {
                    { button("btn-pause", "Pause", "Space", icon(PAUSE), false, act(Action::Pause)) }
                } else {
                    { button("btn-run", "Run (at the chosen speed)", "Space", icon(RUN), blocked, act(Action::Run)) }
                }
                <select class="speed" data-testid="speed-select" title="Run speed: events per second" aria-label="Run speed" onchange={on_speed}>
                    { for SPEEDS.iter().map(|s| {
                        let name = speed_name(*s);
                        html! { <option value={name.clone()} selected={*s == p.speed}>{ name }</option> }
                    }) }
                </select>
            </div>
            <div class="step-count" aria-live="polite">
                { "event " }<span data-testid="step-index">{ p.position }</span>{ " of " }<span data-testid="step-total">{ p.total }</span>
                if !p.finished && p.total > 0 { <span class="more" title="The run goes on: stepping past the end computes more.">{ "+" }</span> }
            </div>
            if let Some(a) = &p.activity {
                <span class="activity" data-testid="activity">{ a.clone() }</span>
            }
            <div class={classes!("verdict", p.verdict.as_ref().map(|v| v.kind))} data-testid="verdict"
                title={p.verdict.as_ref().map(|v| v.text.clone())}>
                { p.verdict.as_ref().map(|v| v.text.clone()).unwrap_or_default() }
            </div>
            if let Some(by) = p.verdict.as_ref().and_then(|v| v.by.clone()) {
                <span class="decided-by" data-testid="decided-by" title="The portfolio component that decided">{ format!("by {by}") }</span>
            }
            if let Some(b) = &p.blocked {
                <p class="blocked" data-testid="run-blocked" role="status">{ b.clone() }</p>
            }
        </div>
    }
}

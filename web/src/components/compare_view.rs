//! Compare mode's stage: the difference strip, and the two runs' ARGs side by side, the right
//! one with its own analysis, synchronisation and step buttons.

use crate::components::arg_view::ArgView;
use crate::state::compare::{first_difference, Compare, CompareMsg, Figures, Sync};
use crate::state::{Action, Msg, State, Target};
use cpa_engine::config::Preset;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

fn verdict_text(f: &Figures) -> String {
    f.verdict.map(str::to_uppercase).unwrap_or_default()
}

/// A column of the strip: its title and the figure.
type Column = (&'static str, fn(&Figures) -> String);

/// The strip: each side's figures at its position (a row each), and where the runs part.
fn strip(l: &Figures, r: &Figures, diverge: Option<usize>, exports: Html) -> Html {
    let cols: [Column; 6] = [
        ("event", |f| f.position.to_string()),
        ("states", |f| f.states.to_string()),
        ("refinements", |f| f.refinements.to_string()),
        ("queries", |f| f.queries.to_string()),
        ("abstractions", |f| f.abstractions.to_string()),
        ("solver time", |f| format!("{:.0} ms", f.solver_ms)),
    ];
    let row = |name: &str, f: &Figures, other: &Figures| {
        html! {
            <tr>
                <th scope="row">{ name.to_string() }</th>
                { for cols.iter().enumerate().map(|(i, (_, get))| {
                    // Solver time differs always; it is not a difference of the runs.
                    let differ = i < 5 && get(f) != get(other);
                    html! { <td class={classes!(differ.then_some("differ"))}>{ get(f) }</td> }
                }) }
            </tr>
        }
    };
    let diverge_text = match diverge {
        Some(k) => format!("The runs part at event {}.", k + 1),
        None => "The runs agree on every event both have so far.".to_string(),
    };
    html! {
        <div class="compare-diff" data-testid="compare-diff"
            data-diverge={diverge.map(|k| (k + 1).to_string()).unwrap_or_default()}>
            <table>
                <thead><tr><th></th>{ for cols.iter().map(|(n, _)| html! { <th scope="col">{ *n }</th> }) }</tr></thead>
                <tbody>{ row("left", l, r) }{ row("right", r, l) }</tbody>
            </table>
            <p class="diverge">{ diverge_text }</p>
            { exports }
        </div>
    }
}

fn side_attrs(f: &Figures) -> (String, String) {
    (f.position.to_string(), f.verdict.unwrap_or("").to_string())
}

pub fn view(st: &State, c: &Compare, send: &Callback<Msg>) -> Html {
    let left_run = st.pg.run.as_ref();
    let right_run = c.pg.run.as_ref();
    let (l, r) = (Figures::of(left_run), Figures::of(right_run));
    let diverge = first_difference(left_run, right_run);
    let (lpos, lverdict) = side_attrs(&l);
    let (rpos, rverdict) = side_attrs(&r);
    let on_preset = send.reform(|e: Event| {
        let s: HtmlSelectElement = e.target_unchecked_into();
        Msg::Compare(CompareMsg::Preset(s.value()))
    });
    let on_sync = send.reform(|e: Event| {
        let s: HtmlSelectElement = e.target_unchecked_into();
        Msg::Compare(CompareMsg::Sync(
            Sync::parse(&s.value()).unwrap_or_default(),
        ))
    });
    let step = |t: Target| send.reform(move |_| Msg::Compare(CompareMsg::Act(Action::Step(t))));
    let busy = c.pg.blocked().is_some();
    let on_state = send.reform(Msg::StateClicked);
    html! {
        <div class={classes!("compare", if c.phone_right { "show-right" } else { "show-left" })} data-testid="compare">
            { strip(&l, &r, diverge, html! {
                <span class="exports">
                    <button type="button" data-testid="compare-export-csv" title="The statistics of both sides, step by step, as CSV"
                        onclick={send.reform(|_| Msg::Compare(CompareMsg::Export { csv: true }))}>{ "CSV" }</button>
                    <button type="button" data-testid="compare-export-svg" title="States over events for both sides, as an SVG chart for slides"
                        onclick={send.reform(|_| Msg::Compare(CompareMsg::Export { csv: false }))}>{ "SVG" }</button>
                </span>
            }) }
            <div class="compare-phone-tabs" role="tablist">
                <button type="button" role="tab" class={classes!("tab", (!c.phone_right).then_some("active"))} aria-selected={(!c.phone_right).to_string()}
                    data-testid="compare-tab-left" onclick={send.reform(|_| Msg::Compare(CompareMsg::PhoneRight(false)))}>
                    { format!("left: {}", st.pg.config.preset) }
                </button>
                <button type="button" role="tab" class={classes!("tab", c.phone_right.then_some("active"))} aria-selected={c.phone_right.to_string()}
                    data-testid="compare-tab-right" onclick={send.reform(|_| Msg::Compare(CompareMsg::PhoneRight(true)))}>
                    { format!("right: {}", c.pg.config.preset) }
                </button>
            </div>
            <div class="compare-sides">
                <section class="compare-side left" data-testid="compare-left" data-preset={st.pg.config.preset.clone()}
                    data-position={lpos} data-verdict={lverdict}>
                    <header>
                        <strong class="preset">{ st.pg.config.preset.clone() }</strong>
                        <span class={classes!("side-verdict", l.verdict)}>{ verdict_text(&l) }</span>
                        <span class="where">{ format!("event {} of {}", l.position, left_run.map_or(0, |r| r.total())) }</span>
                    </header>
                    <ArgView model={st.derived.arg.clone()} states={left_run.map_or(0, |r| r.cursor.frame.view.states.len())}
                        on_select={on_state} placeholder={None::<AttrValue>} />
                </section>
                <section class="compare-side right" data-testid="compare-right" data-preset={c.pg.config.preset.clone()}
                    data-position={rpos} data-verdict={rverdict}>
                    <header>
                        <select data-testid="compare-preset" aria-label="Right analysis" onchange={on_preset}>
                            { for Preset::names().iter().map(|p| html! {
                                <option value={*p} selected={c.pg.config.preset == *p}>{ *p }</option>
                            }) }
                        </select>
                        <span class={classes!("side-verdict", r.verdict)}>{ verdict_text(&r) }</span>
                        <span class="where">{ format!("event {} of {}", r.position, right_run.map_or(0, |r| r.total())) }</span>
                        <span class="spacer"></span>
                        <select data-testid="compare-sync" aria-label="Synchronised stepping" title="How the step bar moves the right side: with the left one event by event, refinement by refinement, to the left side's CFA location, or not at all" onchange={on_sync}>
                            { for Sync::ALL.iter().map(|s| html! {
                                <option value={s.name()} selected={c.sync == *s}>{ s.title() }</option>
                            }) }
                        </select>
                        <button type="button" data-testid="compare-step" disabled={busy} title="The right side: next event"
                            onclick={step(Target::Event)}>{ "→" }</button>
                        <button type="button" data-testid="compare-refinement" disabled={busy} title="The right side: to its next refinement"
                            onclick={step(Target::Refinement)}>{ "⇥" }</button>
                        <button type="button" data-testid="compare-end" disabled={busy} title="The right side: to its verdict"
                            onclick={step(Target::End)}>{ "End" }</button>
                    </header>
                    <ArgView model={c.arg.clone()} states={right_run.map_or(0, |r| r.cursor.frame.view.states.len())}
                        on_select={Callback::from(|_| ())} placeholder={None::<AttrValue>} />
                </section>
            </div>
        </div>
    }
}

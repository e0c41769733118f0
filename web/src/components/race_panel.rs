//! The race tab: run every preset on the program, a sortable table of what each did; a row
//! opens that preset's run.

use crate::state::race::{RaceColumn, RaceMsg, RowState, ROW_BUDGET_MS};
use crate::state::{Msg, State};
use yew::prelude::*;

fn cells(state: &RowState) -> Html {
    match state {
        RowState::Done(d) => html! {
            <>
                <td class="num">{ d.steps }</td>
                <td class="num">{ d.states }</td>
                <td class="num">{ d.refinements }</td>
                <td class="num">{ d.queries }</td>
                <td class="num">{ format!("{:.2}", d.ms / 1000.0) }</td>
            </>
        },
        _ => html! { <td colspan="5"></td> },
    }
}

fn verdict_cell(state: &RowState) -> Html {
    let (text, title) = match state {
        RowState::Done(d) => (
            d.verdict.to_uppercase(),
            d.reason.clone().unwrap_or_default(),
        ),
        RowState::Waiting => ("waiting".into(), String::new()),
        RowState::Running => ("running…".into(), String::new()),
        RowState::Failed(e) => ("error".into(), e.clone()),
        RowState::Timeout => (
            format!("timeout ({} s)", ROW_BUDGET_MS / 1000),
            "the page's time budget per analysis ran out".into(),
        ),
        RowState::Cancelled => ("cancelled".into(), String::new()),
    };
    html! {
        <td class="race-verdict" title={title.clone()}>
            { text }
            if !title.is_empty() { <div class="reason">{ title.clone() }</div> }
        </td>
    }
}

pub fn view(st: &State, hidden: bool, send: &Callback<Msg>) -> Html {
    let race = &st.race;
    let running = race.running();
    let stale = !race.rows.is_empty() && race.program != st.program.generation;
    let done = race
        .rows
        .iter()
        .filter(|r| !matches!(r.state, RowState::Waiting | RowState::Running))
        .count();
    let header = |c: RaceColumn| {
        let mark = match race.sort {
            Some((s, false)) if s == c => " ▲",
            Some((s, true)) if s == c => " ▼",
            _ => "",
        };
        html! {
            <th scope="col">
                <button type="button" class="sort" onclick={send.reform(move |_| Msg::Race(RaceMsg::Sort(c)))}>
                    { c.title() }{ mark }
                </button>
            </th>
        }
    };
    html! {
        <div class="tab-panel race-panel" role="tabpanel" hidden={hidden} data-testid="race-panel">
            <div class="race-controls">
                <button type="button" class="primary" data-testid="btn-race" disabled={running}
                    onclick={send.reform(|_| Msg::Race(RaceMsg::Start))}>
                    { if race.rows.is_empty() { "Run every analysis" } else { "Run every analysis again" } }
                </button>
                if running {
                    <button type="button" data-testid="btn-race-cancel"
                        onclick={send.reform(|_| Msg::Race(RaceMsg::Cancel))}>{ "Cancel" }</button>
                    <span class="progress" data-testid="race-progress">
                        { format!("{done} of {} done", race.rows.len()) }
                    </span>
                }
            </div>
            if race.rows.is_empty() {
                <p class="hint">
                    { "Every preset runs on this program, one after another in a second engine worker, each to its verdict with its default limits (at most " }
                    { ROW_BUDGET_MS / 1000 }{ " s each). Click a row to open that run." }
                </p>
            } else {
                if stale {
                    <p class="hint stale">{ "The program has changed since this race: run it again for the new text." }</p>
                }
                <table class="race-table" data-testid="race-table" data-running={running.to_string()}>
                    <thead><tr>{ for RaceColumn::ALL.iter().map(|c| header(*c)) }</tr></thead>
                    <tbody>
                        { for race.order().into_iter().map(|i| {
                            let row = &race.rows[i];
                            let (steps, states, refinements, queries) = match &row.state {
                                RowState::Done(d) => (d.steps, d.states, d.refinements, d.queries),
                                _ => (0, 0, 0, 0),
                            };
                            html! {
                                <tr data-testid="race-row" data-preset={row.preset} data-verdict={row.verdict()}
                                    data-steps={steps.to_string()} data-states={states.to_string()}
                                    data-refinements={refinements.to_string()} data-queries={queries.to_string()}
                                    class={classes!("race-row", row.verdict())}
                                    title={format!("Open the run of {}", row.preset)}
                                    onclick={send.reform(move |_| Msg::Race(RaceMsg::Open(i)))}>
                                    <th scope="row">{ row.preset }</th>
                                    { verdict_cell(&row.state) }
                                    { cells(&row.state) }
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            }
        </div>
    }
}

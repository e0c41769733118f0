//! The stage: the step bar with the verdict, the explanation of the current event, and the
//! ARG.

use crate::components::arg_view::ArgView;
use crate::components::controls::Controls;
use crate::components::explain_panel::ExplainPanel;
use crate::explain::{explain, Context as ExplainContext};
use crate::state::{Msg, Overlay, Phase, Selection, State};
use cpa_engine::config::{AlgorithmKind, Domain};
use yew::prelude::*;

pub fn view(st: &State, send: &Callback<Msg>) -> Html {
    let pg = &st.pg;
    let run = pg.run.as_ref();
    let blocked = pg.blocked();
    let activity: Option<AttrValue> = run.and_then(|r| match &r.phase {
        Phase::Starting if !st.engine.z3_ready => Some("loading Z3…".into()),
        Phase::Starting => Some("starting the analysis…".into()),
        Phase::Busy => Some("computing…".into()),
        Phase::Replaying => Some("replaying the run in a fresh worker…".into()),
        _ => None,
    });
    let run_error: Option<String> = run.and_then(|r| match &r.phase {
        Phase::Failed(e) => Some(format!("The run cannot start: {e}")),
        Phase::Crashed(e) => Some(format!(
            "The engine stopped during the run: {e}. The events so far can still be stepped; Reset starts the run again."
        )),
        _ => None,
    });
    // Only predicate abstraction with CEGAR (alone or in a portfolio) computes abstractions
    // to step to.
    let config = pg.config.resolve().ok();
    let abstractions = config.as_ref().is_none_or(|c| {
        c.algorithm == AlgorithmKind::Portfolio
            || (matches!(c.domain, Domain::Predicate | Domain::ValuePredicate)
                && c.algorithm == AlgorithmKind::Cegar)
    });
    let current = run.and_then(|r| {
        r.current_event().map(|(i, e)| {
            // A portfolio is explained by the component at work.
            let running = config
                .as_ref()
                .map(|c| c.running(r.cursor.frame.view.component.as_deref()));
            let cx = ExplainContext {
                run: r,
                config: running.as_ref(),
            };
            (i, explain(&cx, i, e))
        })
    });
    let hint: AttrValue = match (&blocked, run) {
        (Some(b), _) => b.clone().into(),
        (None, Some(r)) if r.position == 0 => "Press → (or the step button) for the first event, Ctrl+→ for the next refinement, End to run to the verdict. Every event is explained here.".into(),
        _ => "".into(),
    };
    let placeholder: Option<AttrValue> = match run {
        Some(r) if r.position == 0 => Some("The ARG appears here as the analysis steps.".into()),
        None => blocked.clone().map(AttrValue::from),
        _ => None,
    };
    let on_state = send.reform(Msg::StateClicked);
    let on_line = send.reform(|l| Msg::Select(Some(Selection::Line(l))));
    html! {
        <>
            { crate::components::lesson_panel::panel(st, send) }
            <Controls {abstractions}
                position={run.map_or(0, |r| r.position)} total={run.map_or(0, |r| r.total())}
                finished={run.is_some_and(|r| r.finished())} running={pg.running()}
                speed={pg.speed} {activity}
                blocked={blocked.map(AttrValue::from)}
                verdict={st.derived.verdict.clone()}
                on_action={send.reform(Msg::Act)}
            />
            if let Some(e) = run_error {
                <p class="run-error" data-testid="run-error" role="alert">{ e }</p>
            }
            <ExplainPanel {current} {hint} on_state={on_state.clone()} {on_line}
                on_glossary={send.reform(|k| Msg::Overlay(Overlay::Help(Some(k))))} />
            if let Some(c) = &st.compare {
                { crate::components::compare_view::view(st, c, send) }
            } else {
                <ArgView model={st.derived.arg.clone()} states={run.map_or(0, |r| r.cursor.frame.view.states.len())}
                    on_select={on_state} {placeholder} />
            }
        </>
    }
}

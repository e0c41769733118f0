//! The bottom tabs under the ARG: refinements (or BMC's and k-induction's checks), the solver
//! log, the statistics, the counterexample, the selected state, the exercises (invariant, predicates), writing a lesson and
//! the race of every preset.

use crate::components::counterexample_panel::CounterexamplePanel;
use crate::components::interpolants_panel::InterpolantsPanel;
use crate::components::node_panel::NodePanel;
use crate::components::solver_log::{SolverLog, SHOWN};
use crate::components::stats_panel::StatsPanel;
use crate::protocol::{Graph, QueryEntry};
use crate::state::{Action, Msg, Run, Selection, State, Tab};
use cpa_engine::config::{AlgorithmKind, Domain};
use cpa_engine::verdict::Verdict;
use std::rc::Rc;
use yew::prelude::*;

const TABS: [(Tab, &str, &str); 8] = [
    (Tab::Refinements, "Refinements", "tab-refinements"),
    (Tab::Log, "Solver log", "tab-log"),
    (Tab::Stats, "Statistics", "tab-stats"),
    (Tab::Counterexample, "Counterexample", "tab-counterexample"),
    (Tab::Node, "State", "tab-node"),
    (Tab::Invariant, "Exercises", "tab-invariant"),
    (Tab::Race, "Race", "tab-race"),
    (Tab::Author, "Write", "tab-author"),
];

/// The solver log at the position: the newest [`SHOWN`] queries matching `search`, with the
/// number shown so far and the number matching.
fn log_entries(run: &Run, search: &str) -> (Vec<Rc<QueryEntry>>, usize, usize) {
    let shown = run.shown_queries();
    let needle = search.to_lowercase();
    let matches = |q: &&Rc<QueryEntry>| {
        needle.is_empty()
            || q.query.to_lowercase().contains(&needle)
            || q.reply.to_lowercase().contains(&needle)
            || q.purpose.name().contains(&needle)
    };
    let matching = if needle.is_empty() {
        shown.len()
    } else {
        shown.iter().filter(matches).count()
    };
    let list = shown
        .iter()
        .rev()
        .filter(matches)
        .take(SHOWN)
        .cloned()
        .collect();
    (list, shown.len(), matching)
}

pub fn view(st: &State, command: AttrValue, send: &Callback<Msg>) -> Html {
    let pg = &st.pg;
    let run = pg.run.as_ref();
    let tab = st.view.tab;
    let d = &st.derived;
    let config = pg.config.resolve().ok();
    let (entries, total_q, matching) = match run {
        Some(r) if tab == Tab::Log => log_entries(r, &st.view.log_search),
        Some(r) => (Vec::new(), r.shown_queries().len(), r.shown_queries().len()),
        None => (Vec::new(), 0, 0),
    };
    let (stats, solver_ms) = run.map(|r| r.stats()).unwrap_or_default();
    let trace = run.and_then(|r| match r.shown_verdict() {
        Some(Verdict::False { counterexample }) => Some(Rc::new(counterexample.trace.clone())),
        _ => None,
    });
    let encoding = run
        .and_then(|r| r.info.as_ref())
        .map(|i| AttrValue::from(format!("{:?}", i.encoding).to_lowercase()));
    let cfa = run.map(|r| r.cfa.clone()).unwrap_or_else(|| {
        Rc::new(Graph {
            nodes: Vec::new(),
            edges: Vec::new(),
            memory: None,
        })
    });
    let memory = cfa.memory.clone().map(Rc::new);
    let open = run.and_then(|r| r.refinement_in_progress().map(|x| x.number));
    let on_state = send.reform(Msg::StateClicked);
    let on_line = send.reform(|l| Msg::Select(Some(Selection::Line(l))));
    // BMC and k-induction list their checks under the first tab.
    let bounded = matches!(
        config.as_ref().map(|c| c.algorithm),
        Some(AlgorithmKind::Bmc | AlgorithmKind::KInduction)
    );
    let named = Rc::new(st.lesson.as_ref().map_or_else(Vec::new, |l| {
        crate::state::lesson::named_formulas(&l.lesson.sections[l.section].body)
    }));
    html! {
        <section class="panel bottom-tabs" aria-label="Details">
            <div class="tabs" role="tablist">
                { for TABS.iter().enumerate().map(|(i, (t, name, id))| {
                    let t = *t;
                    let name: &str = if t == Tab::Refinements && bounded { "Checks" } else { name };
                    let badge = match t {
                        Tab::Refinements => d.refinements.len() + d.checks.len(),
                        Tab::Log => total_q,
                        _ => 0,
                    };
                    html! {
                        <button type="button" role="tab" data-testid={*id} aria-selected={(tab == t).to_string()}
                            class={classes!("tab", (tab == t).then_some("active"))}
                            title={format!("{name} ({})", i + 1)}
                            onclick={send.reform(move |_| Msg::Tab(t))}>
                            { name }
                            if badge > 0 { <span class="badge">{ badge }</span> }
                        </button>
                    }
                }) }
            </div>
            <InterpolantsPanel refinements={d.refinements.clone()} checks={d.checks.clone()} {cfa}
                values={config.as_ref().is_some_and(|c| c.domain != Domain::Predicate)}
                {open} hidden={tab != Tab::Refinements} on_state={on_state.clone()} on_line={on_line.clone()} {named} />
            <SolverLog entries={Rc::new(entries)} total={total_q} {matching} search={AttrValue::from(st.view.log_search.clone())}
                full={st.full_queries.clone()} hidden={tab != Tab::Log}
                on_search={send.reform(Msg::LogSearch)} on_load={send.reform(Msg::LoadQuery)} />
            <StatsPanel {stats} {solver_ms} hidden={tab != Tab::Stats} {command} {encoding} />
            <CounterexamplePanel {trace} memory={memory.clone()} step={pg.cex_step} hidden={tab != Tab::Counterexample}
                on_step={send.reform(|i| Msg::Act(Action::CexStep(i)))} />
            <NodePanel details={d.node.clone()} memory={memory.clone()} hidden={tab != Tab::Node} {on_state} {on_line} />
            { crate::components::invariant_panel::view(st, tab != Tab::Invariant, send) }
            { crate::components::race_panel::view(st, tab != Tab::Race, send) }
            { crate::components::author_panel::view(st, tab != Tab::Author, send) }
        </section>
    }
}

//! Statistics at the position; `data-stats` is the machine-readable hook (the same keys as
//! `cpa verify --json`'s `stats`).

use cpa_engine::session::Stats;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub stats: Stats,
    pub solver_ms: f64,
    pub hidden: bool,
    /// The equivalent command line.
    pub command: AttrValue,
    pub encoding: Option<AttrValue>,
}

#[function_component(StatsPanel)]
pub fn stats_panel(p: &Props) -> Html {
    let s = &p.stats;
    let json = serde_json::json!({
        "steps": s.steps, "states": s.states, "refinements": s.refinements,
        "solver_queries": s.solver_queries, "cache_hits": s.cache_hits,
        "solver_work": s.solver_work, "abstractions": s.abstractions,
        "abstraction_states": s.abstraction_states, "predicates": s.predicates,
        "bound": s.bound, "solver_ms": (p.solver_ms * 1000.0).round() / 1000.0,
    })
    .to_string();
    let rows: [(&str, String, &str); 10] = [
        (
            "Steps",
            s.steps.to_string(),
            "algorithm steps: waitlist pops, refinements, checks",
        ),
        (
            "ARG states",
            s.states.to_string(),
            "states created (removed ones included)",
        ),
        (
            "Abstraction states",
            s.abstraction_states.to_string(),
            "in the current ARG, not covered",
        ),
        ("Refinements", s.refinements.to_string(), ""),
        (
            "Abstractions",
            s.abstractions.to_string(),
            "abstraction computations",
        ),
        ("Predicates", s.predicates.to_string(), ""),
        ("Bound k", s.bound.to_string(), "BMC and k-induction"),
        (
            "Solver queries",
            s.solver_queries.to_string(),
            "round trips to Z3",
        ),
        (
            "Answered from the cache",
            s.cache_hits.to_string(),
            "repeated queries answered without asking Z3 again (not in the solver queries)",
        ),
        (
            "Solver time",
            format!("{:.1} ms", p.solver_ms),
            "time in Z3 (this browser)",
        ),
    ];
    html! {
        <div class="tab-panel stats" data-testid="stats" data-stats={json} hidden={p.hidden}>
            <table>
                { for rows.iter().map(|(k, v, t)| html! {
                    <tr title={*t}><th scope="row">{ *k }</th><td>{ v.clone() }</td></tr>
                }) }
            </table>
            <p class="command">{ "Natively: " }<code data-testid="command-line">{ p.command.clone() }</code></p>
            if let Some(e) = &p.encoding {
                <p class="note">{ format!("Formula encoding: {e}. Signed overflow wraps around (two's complement, as gcc -fwrapv) in every encoding.") }</p>
            }
        </div>
    }
}

//! One entry per refinement: the spurious path, its block formulas, the interpolant at each
//! cut point, the predicates (value analysis: variables) added by location (IMPACT: the
//! strengthened states); for BMC and
//! k-induction one entry per check.

use crate::present::formula::{pretty, pretty_at, Ranges};
use crate::protocol::Graph;
use crate::state::{location_line, Check, Refinement};
use cpa_engine::events::CheckKind;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub refinements: Rc<Vec<Refinement>>,
    pub checks: Rc<Vec<Check>>,
    /// The run's CFA (lines of locations).
    pub cfa: Rc<Graph>,
    /// The refinement under way at the position (its entry is marked).
    pub open: Option<u32>,
    pub hidden: bool,
    /// Explicit-value analysis: edges instead of blocks, variables instead of predicates.
    #[prop_or_default]
    pub values: bool,
    pub on_state: Callback<u32>,
    pub on_line: Callback<u32>,
    /// Formulas the lesson's section names (`x = y`): marked where shown.
    #[prop_or_default]
    pub named: Rc<Vec<String>>,
}

fn check_name(c: CheckKind) -> &'static str {
    match c {
        CheckKind::Base => "base case",
        CheckKind::Forward => "forward condition",
        CheckKind::Step => "inductive step",
        CheckKind::Invariant => "octagon invariants",
        CheckKind::Summary => "function contracts",
        CheckKind::Candidates => "candidate invariants",
    }
}

#[function_component(InterpolantsPanel)]
pub fn interpolants_panel(p: &Props) -> Html {
    let lines_of = |l: u32| location_line(&p.cfa, l);
    let state = |s: u32| {
        let cb = p.on_state.clone();
        html! { <button type="button" class="ref state-ref" onclick={move |_| cb.emit(s)}>{ s }</button> }
    };
    let line = |l: Option<u32>| match l {
        Some(l) => {
            let cb = p.on_line.clone();
            html! { <button type="button" class="ref line-ref" onclick={move |_| cb.emit(l)}>{ format!("line {l}") }</button> }
        }
        None => html! {},
    };
    // What is known of the values at the location of the path's i-th state.
    let at_step = |r: &Refinement, i: Option<usize>| {
        i.and_then(|i| r.locations.get(i))
            .map(|l| Ranges::at(&p.cfa, *l))
            .unwrap_or_default()
    };
    // A formula as shown, marked when the lesson's section names it.
    let formula = |smt: &str, shown: String, class: Option<&'static str>| {
        let named = p.named.contains(&shown);
        html! {
            <code class={classes!(class, named.then_some("named"))} title={smt.to_string()}>{ shown }</code>
        }
    };
    let entry = |r: &Refinement| {
        let lines: Vec<Option<u32>> = r.locations.iter().map(|l| lines_of(*l)).collect();
        let block_label = if p.values {
            "edge into it"
        } else {
            "block formula into it"
        };
        let rows = r.states.iter().enumerate().map(|(i, s)| {
            let block = i.checked_sub(1).and_then(|j| r.blocks.get(j)).cloned();
            let itp = r.interpolants.get(i).cloned();
            let here = at_step(r, Some(i));
            html! {
                <tr>
                    <td>{ state(*s) }</td>
                    <td>{ format!("N{} ", r.locations.get(i).copied().unwrap_or(0)) }{ line(lines[i]) }</td>
                    // The labels head the cells where a narrow screen stacks them.
                    <td data-label={block_label}>if let Some(b) = block { <code class="formula" title={b.clone()}>{ pretty(&b) }</code> }</td>
                    <td data-label="interpolant">if let Some(t) = itp { { formula(&t, pretty_at(&t, &here), Some("formula itp")) } }</td>
                </tr>
            }
        });
        let verdict = if r.feasible {
            "feasible: a real counterexample"
        } else if r.end.is_some() {
            "spurious"
        } else {
            "spurious (refining…)"
        };
        html! {
            <li class={classes!("refinement", (p.open == Some(r.number)).then_some("open"))} data-testid="refinement"
                data-number={r.number.to_string()}>
                <h3>{ format!("Refinement {}", r.number) }<span class="tag">{ verdict }</span></h3>
                <table class="path">
                    <thead><tr><th>{ "state" }</th><th>{ "location" }</th><th>{ block_label }</th><th>{ "interpolant" }</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
                if !r.predicates.is_empty() {
                    <p class="preds">{ if p.values && r.predicates.iter().all(|(_, x)| crate::explain::is_variable(x)) { "Variables tracked: " } else { "Predicates added: " } }
                        { for r.predicates.iter().map(|(l, pr)| html! {
                            <span class="pred">{ formula(pr, pretty_at(pr, &Ranges::at(&p.cfa, *l)), None) }{ format!(" at N{l} ") }{ line(lines_of(*l)) }</span>
                        }) }
                    </p>
                }
                if !r.strengthened.is_empty() {
                    <p class="preds">{ "Strengthened (IMPACT): " }
                        { for r.strengthened.iter().map(|(s, f)| html! {
                            <span class="pred">{ state(*s) }{ ": " }<code title={f.clone()}>{ pretty_at(f, &at_step(r, r.states.iter().position(|x| x == s))) }</code></span>
                        }) }
                    </p>
                }
                if r.end.is_some() {
                    <p class="note">
                        { format!("{} state{} removed", r.removed, if r.removed == 1 { "" } else { "s" }) }
                        if let Some(pv) = r.pivot { { "; pivot " }{ state(pv) } }
                    </p>
                }
            </li>
        }
    };
    let check = |c: &Check| {
        let result = match c.satisfiable {
            Some(true) => "satisfiable",
            Some(false) => "unsatisfiable",
            None => "unknown",
        };
        html! {
            <li class="check" data-testid="check">
                <span class="what">{ check_name(c.what) }</span>
                <span>{ format!("k = {}", c.bound) }</span>
                <span class={classes!("result", result)}>{ result }</span>
                <span class="size">{ format!("{} terms", c.formula_size) }</span>
            </li>
        }
    };
    let empty = p.refinements.is_empty() && p.checks.is_empty();
    html! {
        <div class="tab-panel interpolants" data-testid="interpolants" hidden={p.hidden}>
            if empty {
                <p class="hint">{ "Each refinement appears here: the spurious path, its block formulas, the interpolants and the predicates they add. BMC and k-induction list their checks." }</p>
            }
            if !p.refinements.is_empty() {
                <ol class="refinements">{ for p.refinements.iter().rev().map(entry) }</ol>
            }
            if !p.checks.is_empty() {
                <ol class="checks">{ for p.checks.iter().rev().map(check) }</ol>
            }
        </div>
    }
}

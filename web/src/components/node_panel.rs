//! Details of the selected ARG state: location, call stack depth, abstraction formula, block
//! (path) formula, coverage, precision at its location, neighbours.

use crate::present::formula::{pretty, pretty_at};
use crate::present::memory::{group, known_values};
use crate::state::derived::NodeDetails;
use cpa_engine::report::MemoryLayout;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub details: Option<Rc<NodeDetails>>,
    /// The program's memory layout: a state's known values grouped by object.
    pub memory: Option<Rc<MemoryLayout>>,
    pub hidden: bool,
    pub on_state: Callback<u32>,
    pub on_line: Callback<u32>,
}

#[function_component(NodePanel)]
pub fn node_panel(p: &Props) -> Html {
    let Some(d) = &p.details else {
        return html! {
            <div class="tab-panel node" data-testid="node-details" hidden={p.hidden}>
                <p class="hint">{ "Click a state in the ARG (or a line in the editor) to see its location, call stack, formulas and the precision there." }</p>
            </div>
        };
    };
    let state = |s: u32| {
        let cb = p.on_state.clone();
        html! { <button type="button" class="ref state-ref" onclick={move |_| cb.emit(s)}>{ s }</button> }
    };
    let line = d.line.map(|l| {
        let cb = p.on_line.clone();
        html! { <button type="button" class="ref line-ref" onclick={move |_| cb.emit(l)}>{ format!("line {l}") }</button> }
    });
    html! {
        <div class="tab-panel node" data-testid="node-details" data-state={d.id.to_string()} hidden={p.hidden}>
            <h3>{ format!("State {}", d.id) }<span class="tag">{ d.kind }</span>
                if d.removed { <span class="tag removed">{ "removed at this step" }</span> }</h3>
            <table>
                <tr><th scope="row">{ "Location" }</th><td>{ format!("N{} in {} ", d.location, d.function) }{ line.unwrap_or_default() }</td></tr>
                <tr><th scope="row">{ "Call stack" }</th><td>
                    if d.calls.is_empty() { { "main" } }
                    { for d.calls.iter().map(|(f, l)| html! { <span class="nb"><code>{ f.clone() }</code>{ format!(" (called at line {l}) ← ") }</span> }) }
                    if !d.calls.is_empty() { { "main" } }
                    <span class="muted">{ format!(" · depth {}", d.depth) }</span>
                </td></tr>
                <tr><th scope="row">{ "Status" }</th><td>{ d.status.clone() }
                    if let Some(c) = d.covered_by { { " by " }{ state(c) } }</td></tr>
                if d.kind == "state" {
                    <tr><th scope="row">{ "Known values" }</th><td>
                        { match &d.abstraction {
                            Some(f) => known(f, p.memory.as_deref(), &d.ranges),
                            None => html! { <span class="muted">{ "none (⊤)" }</span> },
                        } }
                    </td></tr>
                } else {
                    <tr><th scope="row">{ "Abstraction formula ψ" }</th><td>
                        { match &d.abstraction {
                            // A value analysis' abstraction is the values it knows.
                            Some(f) if known_values(f).is_some() => known(f, p.memory.as_deref(), &d.ranges),
                            Some(f) => html! { <code class="formula" title={f.clone()}>{ pretty_at(f, &d.ranges) }</code> },
                            None => html! { <span class="muted">{ "an intermediate state keeps its block's abstraction formula; its path formula φ grows until the block ends" }</span> },
                        } }
                    </td></tr>
                    <tr><th scope="row">{ "Block formula φ" }</th><td>
                        { match &d.block {
                            Some(f) => html! { <code class="formula" title={f.clone()}>{ pretty(f) }</code> },
                            None => html! { <span class="muted">{ "shown when the block ends here (at an abstraction)" }</span> },
                        } }
                    </td></tr>
                }
                <tr><th scope="row">{ "Precision here" }</th><td>
                    if d.precision.is_empty() { <span class="muted">{ if d.kind == "state" { "no variables tracked" } else { "no predicates" } }</span> }
                    { for d.precision.iter().map(|pr| html! { <code class="pred" title={pr.clone()}>{ pretty_at(pr, &d.ranges) }</code> }) }
                </td></tr>
                <tr><th scope="row">{ "Parents" }</th><td>
                    { for d.parents.iter().map(|(s, op)| html! { <span class="nb">{ state(*s) }{ " via " }<code>{ op.clone() }</code></span> }) }
                </td></tr>
                <tr><th scope="row">{ "Children" }</th><td>{ for d.children.iter().map(|c| state(*c)) }</td></tr>
            </table>
        </div>
    }
}

/// A value-analysis state's known values as a student reads memory (an array as one row, a
/// struct's fields together, an address as `&a[1]`; the compiler's temporaries left out), then
/// the predicates of a combined analysis; the label as it is where it is no list of values.
fn known(
    label: &str,
    memory: Option<&MemoryLayout>,
    ranges: &crate::present::formula::Ranges,
) -> Html {
    let Some((mut values, rest)) = known_values(label) else {
        return html! { <code class="formula" title={label.to_string()}>{ label.to_string() }</code> };
    };
    // An object's own name holds its address (`c = 2097152` for a struct `c` whose address
    // is taken): its cells say what it holds.
    let is_base = |name: &str, v: i128| {
        memory.is_some_and(|m| {
            m.objects
                .iter()
                .any(|o| o.name == name && i128::from(o.base) == v)
        })
    };
    values.retain(|name, v| !name.contains("__tmp") && !is_base(name, *v));
    html! {
        <span class="known-values" data-testid="known-values" title={label.to_string()}>
            { for group(&values, None, memory).iter().map(|e| html! { <code class="value">{ e.text() }</code> }) }
            if let Some(r) = rest { <code class="formula">{ pretty_at(r, ranges) }</code> }
        </span>
    }
}

//! A FALSE verdict's concrete counterexample, stepped line by line with the values of the
//! variables after each step.

use crate::present::memory::group;
use cpa_engine::report::MemoryLayout;
use cpa_engine::verdict::TraceStep;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub trace: Option<Rc<Vec<TraceStep>>>,
    /// The program's memory layout: arrays as rows, structs as fields, addresses as `&a[2]`.
    pub memory: Option<Rc<MemoryLayout>>,
    pub step: usize,
    pub hidden: bool,
    pub on_step: Callback<usize>,
}

#[function_component(CounterexamplePanel)]
pub fn counterexample_panel(p: &Props) -> Html {
    let Some(trace) = &p.trace else {
        return html! {
            <div class="tab-panel cex" data-testid="counterexample" hidden={p.hidden}>
                <p class="hint">{ "A FALSE verdict shows its concrete counterexample here: the path to the error, line by line, with the values of the variables." }</p>
            </div>
        };
    };
    let n = trace.len();
    let cur = p.step.min(n.saturating_sub(1));
    let go = |i: usize| {
        let cb = p.on_step.clone();
        Callback::from(move |_: MouseEvent| cb.emit(i))
    };
    let values = |i: usize| {
        let prev = i.checked_sub(1).map(|j| &trace[j].values);
        group(&trace[i].values, prev, p.memory.as_deref())
            .into_iter()
            .map(|s| {
                let changed = s.changed();
                html! { <span class={classes!("val", changed.then_some("changed"))}>{ s.text() }</span> }
            })
            .collect::<Html>()
    };
    html! {
        <div class="tab-panel cex" data-testid="counterexample" hidden={p.hidden}>
            <div class="cex-nav">
                <button type="button" data-testid="cex-prev" disabled={cur == 0} onclick={go(cur.saturating_sub(1))}>{ "◀ previous" }</button>
                <span>{ format!("step {} of {}", cur + 1, n) }</span>
                <button type="button" data-testid="cex-next" disabled={cur + 1 >= n} onclick={go(cur + 1)}>{ "next ▶" }</button>
            </div>
            <ol class="cex-steps">
                { for trace.iter().enumerate().map(|(i, s)| html! {
                    <li data-testid="cex-step" data-line={s.line.to_string()} class={classes!((i == cur).then_some("current"))}
                        onclick={go(i)}>
                        <span class="line-no">{ if s.line > 0 { format!("line {}", s.line) } else { String::new() } }</span>
                        <code class="op">{ s.op.clone() }</code>
                        <span class="vals">{ values(i) }</span>
                    </li>
                }) }
            </ol>
        </div>
    }
}

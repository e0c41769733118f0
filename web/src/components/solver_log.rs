//! The solver log: each SMT-LIB query of the steps shown and Z3's reply, newest first, with
//! its purpose; collapsible, searchable. Only the newest entries that match are drawn.

use crate::protocol::QueryEntry;
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// Most entries drawn at once.
pub const SHOWN: usize = 200;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The entries to draw (newest first, at most [`SHOWN`]).
    pub entries: Rc<Vec<Rc<QueryEntry>>>,
    /// Queries made so far, and how many match the search.
    pub total: usize,
    pub matching: usize,
    pub search: AttrValue,
    /// Whole texts fetched from the worker, by index.
    pub full: Rc<BTreeMap<u64, (String, String)>>,
    pub hidden: bool,
    pub on_search: Callback<String>,
    pub on_load: Callback<u64>,
}

#[function_component(SolverLog)]
pub fn solver_log(p: &Props) -> Html {
    let on_input = {
        let cb = p.on_search.clone();
        Callback::from(move |e: InputEvent| {
            cb.emit(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let entry = |q: &Rc<QueryEntry>| {
        let full = p.full.get(&q.index);
        let cut = q.query_len as usize > q.query.chars().count();
        let (query, reply) = match full {
            Some((a, b)) => (a.clone(), b.clone()),
            None => (q.query.clone(), q.reply.clone()),
        };
        let first = reply.lines().next().unwrap_or("").to_string();
        let load = {
            let (cb, i) = (p.on_load.clone(), q.index);
            Callback::from(move |_: MouseEvent| cb.emit(i))
        };
        html! {
            <li data-testid="solver-query" data-index={q.index.to_string()} data-purpose={q.purpose.name()}>
                <details>
                    <summary>
                        <span class="qno">{ format!("#{}", q.index + 1) }</span>
                        <span class={classes!("purpose", q.purpose.name().replace(' ', "-"))}>{ q.purpose.name() }</span>
                        <span class="reply-head">{ first }</span>
                        <span class="ms">{ format!("{:.1} ms · {} chars", q.ms, q.query_len) }</span>
                    </summary>
                    <pre class="query">{ query }</pre>
                    if cut && full.is_none() {
                        <button type="button" class="ref" onclick={load}>{ "show the whole query" }</button>
                    }
                    <pre class="reply">{ reply }</pre>
                </details>
            </li>
        }
    };
    html! {
        <div class="tab-panel solver-log" data-testid="solver-log" data-total={p.total.to_string()} hidden={p.hidden}>
            <div class="log-head">
                <input type="search" placeholder="Search queries and replies" aria-label="Search the solver log"
                    value={p.search.clone()} oninput={on_input} data-testid="log-search" />
                <span class="count">
                    { if p.search.is_empty() { format!("{} queries", p.total) } else { format!("{} of {} match", p.matching, p.total) } }
                    if p.matching > p.entries.len() { { format!(" · newest {} shown", p.entries.len()) } }
                </span>
            </div>
            if p.total == 0 {
                <p class="hint">{ "Every query the analysis sends to Z3 appears here, with its purpose and Z3's reply." }</p>
            }
            <ol class="queries">{ for p.entries.iter().map(entry) }</ol>
        </div>
    }
}

//! The explanation of the current event (`explain.rs` writes the sentences).

use crate::explain::{Explanation, Piece};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The event's index (0-based) and its explanation; `None` before the first step.
    pub current: Option<(usize, Explanation)>,
    /// Shown when there is no event yet.
    pub hint: AttrValue,
    pub on_state: Callback<u32>,
    pub on_line: Callback<u32>,
    pub on_glossary: Callback<&'static str>,
}

#[function_component(ExplainPanel)]
pub fn explain_panel(p: &Props) -> Html {
    let Some((index, x)) = &p.current else {
        return html! {
            <section class="explain" data-testid="explain" aria-live="polite"><p class="hint">{ p.hint.clone() }</p></section>
        };
    };
    // A state named at the start of a sentence is "State 4".
    let mut starts = Vec::with_capacity(x.pieces.len());
    let mut start = true;
    for piece in &x.pieces {
        starts.push(start);
        start = match piece {
            Piece::Text(t) => t.trim_end().ends_with('.') || (start && t.is_empty()),
            _ => false,
        };
    }
    let pieces = x.pieces.iter().zip(starts).map(|(piece, start)| match piece {
        Piece::Text(t) => html! { <>{ t.clone() }</> },
        Piece::Code(c) => html! { <code>{ c.clone() }</code> },
        Piece::Formula(f) => {
            let math = crate::present::formula::pretty(f);
            let shown = if math.chars().count() > 240 {
                math.chars().take(239).collect::<String>() + "…"
            } else {
                math
            };
            html! { <code class="math" title={f.clone()}>{ shown }</code> }
        }
        Piece::State(s) => {
            let (cb, s) = (p.on_state.clone(), *s);
            let word = if start { "State" } else { "state" };
            html! { <button type="button" class="ref state-ref" title="Select this state" onclick={move |_| cb.emit(s)}>{ format!("{word} {s}") }</button> }
        }
        Piece::Line(l) => {
            let (cb, l) = (p.on_line.clone(), *l);
            html! { <button type="button" class="ref line-ref" title="Show this line" onclick={move |_| cb.emit(l)}>{ format!("line {l}") }</button> }
        }
    });
    let glossary = {
        let (cb, key) = (p.on_glossary.clone(), x.glossary);
        Callback::from(move |_: MouseEvent| cb.emit(key))
    };
    html! {
        <section class="explain" data-testid="explain" aria-live="polite">
            <p class="sentence"><span class="event-no">{ format!("#{} ", index + 1) }</span>{ for pieces }</p>
            <p class="source">
                { x.source }
                { " · " }
                <button type="button" class="ref" onclick={glossary}>{ "glossary" }</button>
            </p>
        </section>
    }
}

//! The list of diagnostics (`LINE:COL: error: MESSAGE`); clicking one selects its line.

use crate::protocol::Diagnostic;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// A problem outside the program (e.g. the engine worker failed).
    #[prop_or_default]
    pub engine_error: Option<AttrValue>,
    pub on_select_line: Callback<u32>,
}

#[function_component(Diagnostics)]
pub fn diagnostics(props: &Props) -> Html {
    let count = props.diagnostics.len();
    html! {
        <section class="panel diagnostics-panel" aria-label="Diagnostics">
            <header class="panel-head">
                <h2>{ "Diagnostics" }</h2>
                <span class="counts">{ if count == 0 { "no problems".to_string() } else { format!("{count}") } }</span>
            </header>
            <ul class="diagnostics" data-testid="diagnostics">
                if let Some(e) = &props.engine_error {
                    <li class="diag error engine">{ format!("engine: {e}") }</li>
                }
                { for props.diagnostics.iter().map(|d| {
                    let line = d.span.start_line;
                    let cb = props.on_select_line.clone();
                    html! {
                        <li class={classes!("diag", d.severity.name())} onclick={move |_| cb.emit(line)}>
                            { d.render_position() }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

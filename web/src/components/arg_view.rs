//! The ARG view: the model of what to draw ([`crate::state::arg_model`]) goes to the drawing
//! in `web/js/arg.js` (layout by d3-hierarchy's tidy tree, SVG updated in place, pan and zoom
//! by d3-zoom).

use crate::browser::js as vendor;
use crate::state::arg_model::ArgModel;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub model: Rc<ArgModel>,
    /// Total states in the ARG (drawn or not).
    pub states: usize,
    pub on_select: Callback<u32>,
    #[prop_or_default]
    pub placeholder: Option<AttrValue>,
}

pub struct ArgView {
    canvas: NodeRef,
    handle: Option<JsValue>,
    shown: Option<Rc<ArgModel>>,
    _on_click: Option<Closure<dyn FnMut(u32)>>,
}

impl Component for ArgView {
    type Message = ();
    type Properties = Props;

    fn create(_ctx: &Context<Self>) -> Self {
        ArgView {
            canvas: NodeRef::default(),
            handle: None,
            shown: None,
            _on_click: None,
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        let command = |c: &'static str| {
            let h = self.handle.clone();
            Callback::from(move |_: MouseEvent| {
                if let Some(h) = &h {
                    vendor::arg_view_command(h, c);
                }
            })
        };
        html! {
            <section class="panel arg-panel" data-testid="arg-view" aria-label="Abstract reachability graph">
                <header class="panel-head">
                    <h2>{ "ARG" }</h2>
                    <span class="counts">
                        <span data-testid="arg-node-count">{ p.model.nodes.len() }</span>{ " states · " }
                        <span data-testid="arg-edge-count">{ p.model.edge_count }</span>{ " edges" }
                        if p.model.hidden > 0 {
                            <span class="hidden-note" data-testid="arg-hidden">{ format!(" · {} of {} states hidden (showing those around the current state)", p.model.hidden, p.states) }</span>
                        }
                    </span>
                    <span class="arg-tools">
                        <button type="button" class="tool" title="Zoom in" aria-label="Zoom in" onclick={command("zoom-in")}>{ "+" }</button>
                        <button type="button" class="tool" title="Zoom out" aria-label="Zoom out" onclick={command("zoom-out")}>{ "−" }</button>
                        <button type="button" class="tool" title="Fit the graph (or follow the current state)" onclick={command("fit")}>{ "fit" }</button>
                    </span>
                </header>
                <div class="arg-canvas" ref={self.canvas.clone()}>
                    if let Some(t) = &p.placeholder {
                        <p class="arg-placeholder">{ t.clone() }</p>
                    }
                </div>
                <ul class="legend" aria-label="Legend">
                    if p.model.nodes.iter().any(|n| n.kind == "plain") {
                        <li title="an abstract state (value analysis: the known values; symbolic execution: values and path constraints)"><span class="sw intermediate"></span>{ "state" }</li>
                    } else {
                        <li title="abstraction state: a block ends here"><span class="sw abstraction"></span>{ "abstraction" }</li>
                        <li title="intermediate state inside a block"><span class="sw intermediate"></span>{ "intermediate" }</li>
                    }
                    <li title="in the waitlist: not expanded yet"><span class="sw waiting"></span>{ "waitlist" }</li>
                    <li title="covered: a dashed arrow points to the coverer"><span class="sw covered"></span>{ "covered" }</li>
                    <li title="at an error location"><span class="sw target"></span>{ "error" }</li>
                    <li title="the abstract counterexample during a refinement"><span class="sw cex"></span>{ "counterexample" }</li>
                    <li title="removed by this step"><span class="sw removed"></span>{ "removed" }</li>
                    <li title="the state being expanded"><span class="sw current"></span>{ "expanding" }</li>
                    if p.model.nodes.iter().any(|n| n.cls.split(' ').any(|c| c == "accelerated")) {
                        <li title="reached by skipping loop iterations (×n: how many)"><span class="sw accelerated"></span>{ "accelerated" }</li>
                    }
                </ul>
            </section>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first: bool) {
        if first {
            let Some(el) = self.canvas.cast::<web_sys::Element>() else {
                return;
            };
            let cb = ctx.props().on_select.clone();
            let on_click = Closure::<dyn FnMut(u32)>::new(move |id: u32| cb.emit(id));
            self.handle = Some(vendor::create_arg_view(&el, on_click.as_ref()));
            self._on_click = Some(on_click);
        }
        let model = ctx.props().model.clone();
        if self.shown.as_ref() == Some(&model) {
            return;
        }
        if let Some(h) = &self.handle {
            // One JSON text parsed by the browser: a model of a few hundred states has
            // thousands of strings, and handing them over one by one took 3 ms a step.
            match serde_json::to_string(model.as_ref())
                .map_err(|e| e.to_string())
                .and_then(|text| js_sys::JSON::parse(&text).map_err(|e| format!("{e:?}")))
            {
                Ok(js) => vendor::update_arg_view(h, &js),
                Err(e) => web_sys::console::error_1(&format!("ARG model: {e}").into()),
            }
        }
        self.shown = Some(model);
    }
}

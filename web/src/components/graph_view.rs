//! A graph panel: lays out DOT with Graphviz (in the vendor bundle), shows the SVG, reports
//! clicks on edges, and marks the selected edge.

use crate::browser::js as vendor;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// `data-testid` of the panel; the counts get `{prefix}-node-count`, `{prefix}-edge-count`.
    pub testid: AttrValue,
    pub prefix: AttrValue,
    pub title: AttrValue,
    /// The source file the graph comes from.
    pub file: AttrValue,
    pub dot: AttrValue,
    pub nodes: usize,
    pub edges: usize,
    /// Drawn greyed out: the program no longer parses and this is the last good graph.
    #[prop_or_default]
    pub stale: bool,
    #[prop_or_default]
    pub selected_edge: Option<u32>,
    /// Edges related to what another view shows (e.g. the CFA edges of the current LBE step).
    #[prop_or_default]
    pub marked_edges: Rc<Vec<u32>>,
    /// Locations the run is at (the current state, the states of the current event).
    #[prop_or_default]
    pub marked_nodes: Rc<Vec<u32>>,
    #[prop_or_default]
    pub selected_node: Option<u32>,
    pub on_edge_click: Callback<u32>,
    #[prop_or_default]
    pub on_node_click: Option<Callback<u32>>,
    #[prop_or_default]
    pub children: Html,
    /// A new layout is shown from its top left (the CFA's: a new layout is a new program; the
    /// LBE summary's changes with every replayed step and keeps its scroll position).
    #[prop_or_default]
    pub new_layout_at_origin: bool,
}

pub enum Msg {
    Rendered {
        generation: u64,
        result: Result<String, String>,
    },
}

pub struct GraphView {
    canvas: NodeRef,
    error: Option<String>,
    /// Counts layout requests so a slow, outdated layout never replaces a newer one.
    generation: u64,
    /// The DOT of the latest layout request, and of the layout on screen.
    requested_dot: Option<AttrValue>,
    shown_dot: Option<AttrValue>,
    /// The marks on the SVG: (selector, class).
    applied: Vec<(String, &'static str)>,
    /// Counts scroll requests: only the latest one scrolls at the next frame.
    scroll_request: Rc<std::cell::Cell<u64>>,
}

impl GraphView {
    fn start_layout(&mut self, ctx: &Context<Self>) {
        let dot = ctx.props().dot.clone();
        if self.requested_dot.as_ref() == Some(&dot) {
            return;
        }
        self.requested_dot = Some(dot.clone());
        self.generation += 1;
        let generation = self.generation;
        let link = ctx.link().clone();
        wasm_bindgen_futures::spawn_local(async move {
            let result = match JsFuture::from(vendor::render_dot(&dot)).await {
                Ok(svg) => svg
                    .as_string()
                    .ok_or_else(|| "Graphviz returned no text".into()),
                Err(e) => Err(e
                    .dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|| format!("{e:?}"))),
            };
            link.send_message(Msg::Rendered { generation, result });
        });
    }

    /// Marks are applied to the SVG directly so that selecting an edge needs no new layout.
    /// Only the marks that changed since the last call are touched (`fresh`: the SVG was just
    /// replaced and has none), and the check that the marked location is in sight waits for
    /// the next animation frame: reading positions right away forced a layout of the page in
    /// the middle of every step, before the other views had changed theirs.
    fn apply_marks(&mut self, ctx: &Context<Self>, fresh: bool) {
        let Some(canvas) = self.canvas.cast::<web_sys::Element>() else {
            return;
        };
        let p = ctx.props();
        let edges = p.marked_edges.iter().map(|&id| (id, "in-step"));
        let nodes = p.marked_nodes.iter().map(|&id| (id, "current"));
        let wanted: Vec<(String, &'static str)> = edges
            .chain(p.selected_edge.map(|id| (id, "selected")))
            .map(|(id, class)| (format!("g.edge#e{id}"), class))
            .chain(
                nodes
                    .chain(p.selected_node.map(|id| (id, "selected")))
                    .map(|(id, class)| (format!("g.node#n{id}"), class)),
            )
            .collect();
        if fresh {
            self.applied.clear();
        }
        let set = |(sel, class): &(String, &'static str), on: bool| {
            if let Ok(Some(el)) = canvas.query_selector(sel) {
                let list = el.class_list();
                let _ = if on {
                    list.add_1(class)
                } else {
                    list.remove_1(class)
                };
            }
        };
        for m in self.applied.iter().filter(|m| !wanted.contains(m)) {
            set(m, false);
        }
        for m in wanted.iter().filter(|m| !self.applied.contains(m)) {
            set(m, true);
        }
        // Keep the first marked location in sight (scrolling only this view, never the page),
        // when it is another than before.
        let first_location = |marks: &[(String, &'static str)]| {
            marks
                .iter()
                .find(|(sel, _)| sel.starts_with("g.node"))
                .map(|(sel, _)| sel.clone())
        };
        let first = first_location(&wanted);
        let before = first_location(&self.applied);
        self.applied = wanted;
        if first.is_none() || first == before {
            return;
        }
        self.scroll_request.set(self.scroll_request.get() + 1);
        let (request, latest) = (self.scroll_request.get(), self.scroll_request.clone());
        let scroll = Closure::once_into_js(move || {
            if latest.get() != request {
                return; // a later step asked for another location
            }
            if let Some(el) = first.and_then(|sel| canvas.query_selector(&sel).ok().flatten()) {
                scroll_into_view(&canvas, &el);
            }
        });
        if let Some(w) = web_sys::window() {
            let _ = w.request_animation_frame(scroll.unchecked_ref());
        }
    }
}

/// Scrolls `canvas` (only) so that `el` is in its middle, if it is not in sight.
fn scroll_into_view(canvas: &web_sys::Element, el: &web_sys::Element) {
    let (c, r) = (
        canvas.get_bounding_client_rect(),
        el.get_bounding_client_rect(),
    );
    if c.height() > 0.0 && (r.top() < c.top() || r.bottom() > c.bottom()) {
        let delta = (r.top() + r.height() / 2.0) - (c.top() + c.height() / 2.0);
        canvas.set_scroll_top(canvas.scroll_top() + delta as i32);
    }
    if c.width() > 0.0 && (r.left() < c.left() || r.right() > c.right()) {
        let delta = (r.left() + r.width() / 2.0) - (c.left() + c.width() / 2.0);
        canvas.set_scroll_left(canvas.scroll_left() + delta as i32);
    }
}

/// The edge id of the `<g class="edge" id="eN">` an event happened in.
fn clicked_edge(e: &MouseEvent) -> Option<u32> {
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let g = target.closest("g.edge").ok()??;
    g.id().strip_prefix('e')?.parse().ok()
}

/// The location id of the `<g class="node" id="nN">` an event happened in.
fn clicked_node(e: &MouseEvent) -> Option<u32> {
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let g = target.closest("g.node").ok()??;
    g.id().strip_prefix('n')?.parse().ok()
}

impl Component for GraphView {
    type Message = Msg;
    type Properties = Props;

    fn create(_ctx: &Context<Self>) -> Self {
        GraphView {
            canvas: NodeRef::default(),
            error: None,
            generation: 0,
            requested_dot: None,
            shown_dot: None,
            applied: Vec::new(),
            scroll_request: Rc::default(),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Rendered { generation, result } => {
                if generation != self.generation {
                    return false;
                }
                self.shown_dot = self.requested_dot.clone();
                let replaced = result.is_ok();
                match result {
                    Ok(svg) => {
                        // Set directly: the canvas has no children of Yew's, and a new SVG
                        // replaces the old one whole anyway.
                        if let Some(canvas) = self.canvas.cast::<web_sys::Element>() {
                            canvas.set_inner_html(&svg);
                            if ctx.props().new_layout_at_origin {
                                canvas.set_scroll_top(0);
                                canvas.set_scroll_left(0);
                            }
                        }
                        self.error = None;
                    }
                    Err(e) => self.error = Some(e),
                }
                self.apply_marks(ctx, replaced);
                true
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        let onclick = {
            let cb = p.on_edge_click.clone();
            let node_cb = p.on_node_click.clone();
            Callback::from(move |e: MouseEvent| {
                if let Some(id) = clicked_edge(&e) {
                    cb.emit(id);
                } else if let (Some(id), Some(ncb)) = (clicked_node(&e), &node_cb) {
                    ncb.emit(id);
                }
            })
        };
        let busy = self.shown_dot.as_ref() != Some(&p.dot);
        html! {
            <section class={classes!("panel", "graph-panel", p.stale.then_some("stale"))} data-testid={p.testid.clone()} data-file={p.file.clone()}>
                <header class="panel-head">
                    <h2>{ p.title.clone() }</h2>
                    if p.stale {
                        <span class="badge" title="The program does not parse: this is the last version that did.">{ "last valid program" }</span>
                    }
                    <span class="counts">
                        <span data-testid={format!("{}-node-count", p.prefix)}>{ p.nodes }</span>{ " nodes · " }
                        <span data-testid={format!("{}-edge-count", p.prefix)}>{ p.edges }</span>{ " edges" }
                    </span>
                </header>
                { p.children.clone() }
                if let Some(e) = &self.error {
                    <p class="graph-error">{ format!("Graphviz: {e}") }</p>
                }
                <div class="graph-canvas" ref={self.canvas.clone()} {onclick} aria-busy={busy.to_string()}></div>
            </section>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first_render: bool) {
        self.start_layout(ctx);
        self.apply_marks(ctx, false);
    }
}

//! The ARG view: the model of what to draw is computed here from the frame at the position;
//! the drawing (layout by d3-hierarchy's tidy tree, SVG updated in place) is `web/js/arg.js`.

use crate::browser::js as vendor;
use crate::state::{Frame, Run, Selection};
use cpa_engine::events::StateKind;
use cpa_engine::view::StateView;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

/// Beyond this many states, only the part around the current state is drawn.
pub const MAX_DRAWN: usize = 2000;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArgNode {
    pub id: u32,
    /// Parents in the drawing (the first one places the state in the tree).
    pub parents: Vec<u32>,
    pub kind: &'static str,
    /// Space-separated: waiting, covered, target, current, new, removed, cex, selected,
    /// linked.
    pub cls: String,
    pub label: String,
    /// Small text beside the state: its source line.
    pub sub: String,
    pub title: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArgModel {
    pub nodes: Vec<ArgNode>,
    /// (covered state, coverer).
    pub covers: Vec<(u32, u32)>,
    /// `"parent>child"` → the CFA edge's operation.
    pub edge_titles: BTreeMap<String, String>,
    pub focus: Option<u32>,
    /// States not drawn (large ARGs).
    #[serde(skip)]
    pub hidden: usize,
    #[serde(skip)]
    pub edge_count: usize,
}

/// `1023`, `2.7e8`: an iteration count for the small text beside a state.
fn short_count(n: u64) -> String {
    if n < 100_000 {
        n.to_string()
    } else {
        format!("{:.1e}", n as f64)
    }
}

fn kind_name(k: &StateKind) -> &'static str {
    match k {
        StateKind::Abstraction => "abstraction",
        StateKind::Intermediate => "intermediate",
        StateKind::Plain => "plain",
    }
}

/// The states to draw: all, or the `MAX_DRAWN` nearest to `focus` in the tree.
fn visible(frame: &Frame, focus: Option<u32>) -> BTreeSet<u32> {
    let states = &frame.view.states;
    if states.len() <= MAX_DRAWN {
        return states.keys().copied().collect();
    }
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for s in states.values() {
        for (p, _) in &s.parents {
            children.entry(*p).or_default().push(s.id);
        }
    }
    let start = focus
        .filter(|f| states.contains_key(f))
        .or_else(|| states.keys().next_back().copied());
    let mut seen = BTreeSet::new();
    let mut queue: VecDeque<u32> = start.into_iter().collect();
    while let Some(s) = queue.pop_front() {
        if seen.len() >= MAX_DRAWN || !seen.insert(s) {
            continue;
        }
        if let Some(st) = states.get(&s) {
            queue.extend(st.parents.iter().map(|(p, _)| *p));
        }
        if let Some(cs) = children.get(&s) {
            queue.extend(cs.iter().copied());
        }
    }
    seen
}

/// What the ARG view draws at the run's position.
pub fn arg_model(run: &Run, selection: Option<Selection>, linked: &BTreeSet<u32>) -> ArgModel {
    let frame = &run.cursor.frame;
    let view = &frame.view;
    let current_event = run.current_event();
    // States the current event is about, highlighted once.
    let mut fresh: BTreeSet<u32> = BTreeSet::new();
    if let Some((_, e)) = current_event {
        use cpa_engine::events::Event::*;
        match e {
            StateAdded { state, .. }
            | Covered { state, .. }
            | Uncovered { state }
            | Strengthened { state, .. }
            | Abstraction { state, .. }
            | TargetReached { state }
            | Cut { state, .. } => {
                fresh.insert(*state);
            }
            Merged { into, .. } => {
                fresh.insert(*into);
            }
            Readded { states } => fresh.extend(states.iter().copied()),
            _ => {}
        }
    }
    let cex: BTreeSet<u32> = match run.refinement_in_progress() {
        Some(r) => {
            // The whole ARG path to the target: from the last state of the abstract
            // counterexample up the first parents.
            let mut on_path = BTreeSet::new();
            let mut cur = r.states.last().copied();
            while let Some(s) = cur {
                if !on_path.insert(s) {
                    break;
                }
                cur = view
                    .states
                    .get(&s)
                    .and_then(|st| st.parents.first().map(|(p, _)| *p));
            }
            on_path
        }
        None => BTreeSet::new(),
    };
    // Keep in sight what the current event is about, else the state being expanded.
    let focus = fresh
        .iter()
        .copied()
        .find(|s| view.states.contains_key(s))
        .or(view.current);
    let shown = visible(frame, focus);
    // At the verdict, when every state is drawn: the newest target state if there is one (a
    // FALSE shows where the error was reached), else none, so that the view shows the whole
    // ARG if it fits at a legible scale.
    let focus = if run.at_verdict() && shown.len() == view.states.len() {
        view.states.values().rev().find(|s| s.target).map(|s| s.id)
    } else {
        focus
    };
    let selected = match selection {
        Some(Selection::State(s)) => Some(s),
        _ => None,
    };
    let mut model = ArgModel {
        focus,
        hidden: view.states.len() - shown.len(),
        ..ArgModel::default()
    };
    let edge_label = |id: u32| {
        run.cfa
            .edges
            .get(id as usize)
            .filter(|e| e.id == id)
            .map(|e| e.label.clone())
            .unwrap_or_default()
    };
    let push = |s: &StateView, removed: bool, model: &mut ArgModel| {
        let mut cls = Vec::new();
        if removed {
            cls.push("removed");
        } else {
            if s.covered_by.is_some() {
                cls.push("covered");
            } else if frame.waiting(s) {
                cls.push("waiting");
            }
            if s.target {
                cls.push("target");
            }
        }
        if Some(s.id) == view.current {
            cls.push("current");
        }
        if fresh.contains(&s.id) {
            cls.push("new");
        }
        if cex.contains(&s.id) {
            cls.push("cex");
        }
        if Some(s.id) == selected {
            cls.push("selected");
        }
        if linked.contains(&s.id) {
            cls.push("linked");
        }
        let line = crate::state::location_line(&run.cfa, s.location);
        let mut title = format!("state {} · location N{}", s.id, s.location);
        if let Some(l) = line {
            title.push_str(&format!(" · line {l}"));
        }
        title.push_str(&format!(" · {}", kind_name(&s.kind)));
        if !s.label.is_empty() {
            title.push_str(&format!("\n{}", crate::present::formula::pretty(&s.label)));
        }
        if let Some(c) = s.covered_by {
            title.push_str(&format!("\ncovered by state {c}"));
        }
        let parents: Vec<u32> = s.parents.iter().map(|(p, _)| *p).collect();
        let jump = view.accelerated.get(&s.id).copied();
        for (p, e) in &s.parents {
            let t = match jump {
                Some(n) => format!("{n} more iterations of the loop (accelerated)"),
                None => edge_label(*e),
            };
            model.edge_titles.insert(format!("{p}>{}", s.id), t);
        }
        let mut sub = line.map(|l| format!("l.{l}")).unwrap_or_default();
        if let Some(n) = jump {
            cls.push("accelerated");
            title.push_str(&format!(
                "\nreached by skipping {n} iterations (accelerated)"
            ));
            sub.push_str(&format!(" ×{}", short_count(n)));
        }
        model.edge_count += parents.len();
        model.nodes.push(ArgNode {
            id: s.id,
            parents,
            kind: kind_name(&s.kind),
            cls: cls.join(" "),
            label: s.id.to_string(),
            sub,
            title,
        });
        if let (Some(c), false) = (s.covered_by, removed) {
            model.covers.push((s.id, c));
        }
    };
    for s in view.states.values().filter(|s| shown.contains(&s.id)) {
        push(s, false, &mut model);
    }
    for s in &run.cursor.removed_now {
        if !view.states.contains_key(&s.id) {
            push(s, true, &mut model);
        }
    }
    model
        .covers
        .retain(|(a, b)| shown.contains(a) && shown.contains(b));
    model.edge_count += model.covers.len();
    model
}

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

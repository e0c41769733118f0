//! The source column: the editor with its coverage and the current event's lines, the
//! diagnostics, and the CFA and LBE summary under it.

use crate::components::diagnostics::Diagnostics;
use crate::components::editor::Editor;
use crate::components::graph_view::GraphView;
use crate::components::lbe_stepper::LbeStepper;
use crate::present::replay::step_label;
use crate::state::{GraphKind, Msg, Selection, State};
use std::rc::Rc;
use yew::prelude::*;

pub fn view(st: &State, send: &Callback<Msg>) -> Html {
    let d = &st.derived;
    let covered_count = d.covered.len();
    let coverage_json = serde_json::to_string(&*d.covered).unwrap_or_default();
    let on_line = send.reform(|l| Msg::Select(Some(Selection::Line(l))));
    let current = st.view.graph;
    let left_tab = |k: GraphKind, name: &'static str, id: &'static str| {
        html! {
            <button type="button" role="tab" data-testid={id} aria-selected={(current == k).to_string()}
                class={classes!("tab", (current == k).then_some("active"))}
                onclick={send.reform(move |_| Msg::Graph(k))}>{ name }</button>
        }
    };
    html! {
        <div class="column source-column">
            <section class="panel editor-panel" aria-label="Program">
                <header class="panel-head">
                    <h2>{ st.program.file.clone() }</h2>
                    <span class="coverage" data-testid="coverage" data-lines={coverage_json}
                        title="Source lines the ARG has reached (green marks in the gutter)">
                        { format!("{covered_count} line{} reached", if covered_count == 1 { "" } else { "s" }) }
                    </span>
                </header>
                <Editor
                    text={AttrValue::from(st.program.source.clone())} version={st.program.editor_version}
                    diagnostics={st.program.diagnostics.clone()} highlight={d.highlight}
                    covered={d.covered.clone()} current={d.current_lines.clone()}
                    on_change={send.reform(Msg::Edited)} read_only={st.view.embed}
                />
            </section>
            <Diagnostics diagnostics={st.program.diagnostics.clone()}
                engine_error={st.program.engine_error.clone().map(AttrValue::from)}
                on_select_line={on_line} />
            <section class="panel graphs-panel">
                <div class="tabs" role="tablist">
                    { left_tab(GraphKind::Cfa, "CFA", "tab-cfa") }
                    { left_tab(GraphKind::Lbe, "LBE summary", "tab-lbe") }
                </div>
                <div class="graph-tab" hidden={current != GraphKind::Cfa}>
                    { graph(st, GraphKind::Cfa, send) }
                </div>
                <div class="graph-tab" hidden={current != GraphKind::Lbe}>
                    { graph(st, GraphKind::Lbe, send) }
                </div>
            </section>
        </div>
    }
}

/// The CFA or the LBE summary (with the replay's controls), or why there is none.
fn graph(st: &State, kind: GraphKind, send: &Callback<Msg>) -> Html {
    let p = &st.program;
    let testid = match kind {
        GraphKind::Cfa => "cfa-view",
        GraphKind::Lbe => "lbe-view",
    };
    let (Some(g), Some(frame)) = (&p.graphs, &p.lbe.frame) else {
        let note = if p.building || p.generation == 0 {
            "Building the CFA…"
        } else {
            "No CFA: the program does not parse yet."
        };
        return html! { <section class="panel placeholder" data-testid={testid}><p>{ note }</p></section> };
    };
    let d = &st.derived;
    let selected_edge = match st.pg.selection {
        Some(Selection::Edge(k, id)) if k == kind => Some(id),
        _ => None,
    };
    let on_edge_click = send.reform(move |id| Msg::Select(Some(Selection::Edge(kind, id))));
    let on_node_click = send.reform(|l| Msg::Select(Some(Selection::Location(l))));
    match kind {
        GraphKind::Cfa => html! {
            <GraphView
                testid="cfa-view" prefix="cfa" title="CFA" file={AttrValue::from(g.file.clone())}
                dot={AttrValue::from(g.cfa_dot.clone())} nodes={g.cfa.nodes.len()} edges={g.cfa.edges.len()}
                stale={p.stale} {selected_edge}
                marked_edges={Rc::new(p.cfa_edges_in_step())} marked_nodes={d.marked_nodes.clone()}
                selected_node={d.selected_node} {on_edge_click} {on_node_click}
                new_layout_at_origin=true
            />
        },
        GraphKind::Lbe => {
            let total = g.replay.steps.len();
            let (nodes, edges) = if frame.position == total {
                (g.lbe.nodes.len(), g.lbe.edges.len())
            } else {
                (frame.nodes.len(), frame.edges.len())
            };
            let label = step_label(frame.step.as_ref(), p.lbe.position, total);
            html! {
                <GraphView
                    testid="lbe-view" prefix="lbe" title="LBE summary" file={AttrValue::from(g.file.clone())}
                    dot={AttrValue::from(p.lbe.dot.clone())} {nodes} {edges}
                    stale={p.stale} {selected_edge}
                    marked_nodes={d.marked_nodes.clone()} selected_node={d.selected_node}
                    {on_edge_click} {on_node_click}
                >
                    <LbeStepper position={p.lbe.position} total={total} label={label}
                        on_command={send.reform(Msg::Lbe)} />
                </GraphView>
            }
        }
    }
}

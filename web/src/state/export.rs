//! Exports of the state shown: the ARG at the current step as Graphviz DOT (the CFA and its
//! LBE summary reuse the views' DOT), and the run as JSON, built by the same
//! [`RunJson`](cpa_engine::report::RunJson) as `cpa verify --json --events`, so a browser run
//! and a native one can be compared field by field.

use crate::present::dot::escape;
use crate::state::run::Run;
use crate::state::selectors::{edge_label, location_line};
use cpa_engine::events::StateKind;
use cpa_engine::report::RunJson;
use std::fmt::Write;

/// At most `n` characters of a label.
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    s.chars().take(n - 1).collect::<String>() + "…"
}

/// The ARG at the run's position: states with their location, line and abstraction formula;
/// tree edges with the CFA edge they follow; dashed edges from covered states to their
/// coverers. Standalone colours (fill, border), so the DOT renders without the page's CSS.
pub fn arg_dot(run: &Run) -> String {
    let view = &run.cursor.frame.view;
    let mut s = String::new();
    s.push_str("digraph \"ARG\" {\n");
    s.push_str("  graph [fontname=\"Helvetica\" fontsize=11 nodesep=0.3 ranksep=0.4];\n");
    s.push_str("  node [shape=box style=\"rounded,filled\" fillcolor=\"white\" fontname=\"Courier\" fontsize=10];\n");
    s.push_str("  edge [fontname=\"Courier\" fontsize=9 arrowsize=0.7];\n");
    for st in view.states.values() {
        let line = location_line(&run.cfa, st.location)
            .map(|l| format!(" l.{l}"))
            .unwrap_or_default();
        let mut label = format!("{}\\nN{}{}", st.id, st.location, line);
        if st.kind == StateKind::Abstraction && !st.label.is_empty() {
            let _ = write!(label, "\\n{}", escape(&clip(&st.label, 60)));
        }
        let (fill, color, font) = if st.target {
            ("#d0343f", "#d0343f", "white")
        } else if st.kind == StateKind::Abstraction {
            ("#2f6fde", "#2f6fde", "white")
        } else {
            ("white", "#4a5361", "black")
        };
        let style = if st.covered_by.is_some() {
            "rounded,filled,dashed"
        } else {
            "rounded,filled"
        };
        let _ = writeln!(
            s,
            "  s{id} [id=\"s{id}\" label=\"{label}\" fillcolor=\"{fill}\" color=\"{color}\" fontcolor=\"{font}\" style=\"{style}\" tooltip=\"{}\"];",
            escape(&st.label),
            id = st.id,
        );
    }
    for st in view.states.values() {
        for (p, e) in &st.parents {
            if view.states.contains_key(p) {
                let _ = writeln!(
                    s,
                    "  s{p} -> s{} [label=\"{}\"];",
                    st.id,
                    escape(&clip(&edge_label(&run.cfa, *e), 40))
                );
            }
        }
        if let Some(c) = st.covered_by.filter(|c| view.states.contains_key(c)) {
            let _ = writeln!(
                s,
                "  s{} -> s{c} [style=dashed color=\"#1e8a4c\" constraint=false label=\"covered by\"];",
                st.id
            );
        }
    }
    s.push_str("}\n");
    s
}

/// The run up to its position as the JSON of `cpa verify --json --events` (the verdict once
/// the position is at it; times the browser does not measure are `null`).
pub fn run_json(run: &Run) -> String {
    let (stats, solver_ms) = run.stats();
    let value = RunJson {
        preset: &run.config.preset,
        verdict: run.shown_verdict(),
        stats: &stats,
        solver_ms,
        total_ms: None,
        certificate_ms: None,
        decided_by: cpa_engine::events::decided_by(&run.events[..run.position]),
        events: Some(&run.events[..run.position]),
    }
    .to_value();
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// What the share dialog can export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    CfaDot,
    CfaSvg,
    LbeDot,
    LbeSvg,
    ArgDot,
    ArgSvg,
    RunJson,
    /// The run's SV-COMP witness (from the worker, which holds the run's proof).
    Witness,
}

impl ExportKind {
    pub const ALL: [ExportKind; 8] = [
        ExportKind::CfaDot,
        ExportKind::CfaSvg,
        ExportKind::LbeDot,
        ExportKind::LbeSvg,
        ExportKind::ArgDot,
        ExportKind::ArgSvg,
        ExportKind::RunJson,
        ExportKind::Witness,
    ];

    /// Button text, `data-testid`, file name suffix and MIME type.
    pub fn describe(self) -> (&'static str, &'static str, &'static str, &'static str) {
        match self {
            ExportKind::CfaDot => (
                "CFA · DOT",
                "export-cfa-dot",
                "cfa.dot",
                "text/vnd.graphviz",
            ),
            ExportKind::CfaSvg => ("CFA · SVG", "export-cfa-svg", "cfa.svg", "image/svg+xml"),
            ExportKind::LbeDot => (
                "LBE · DOT",
                "export-lbe-dot",
                "lbe.dot",
                "text/vnd.graphviz",
            ),
            ExportKind::LbeSvg => ("LBE · SVG", "export-lbe-svg", "lbe.svg", "image/svg+xml"),
            ExportKind::ArgDot => (
                "ARG · DOT",
                "export-arg-dot",
                "arg.dot",
                "text/vnd.graphviz",
            ),
            ExportKind::ArgSvg => ("ARG · SVG", "export-arg-svg", "arg.svg", "image/svg+xml"),
            ExportKind::RunJson => (
                "Run · JSON",
                "export-run-json",
                "run.json",
                "application/json",
            ),
            ExportKind::Witness => (
                "Witness · YAML",
                "export-witness",
                "witness.yml",
                "application/yaml",
            ),
        }
    }

    pub fn is_svg(self) -> bool {
        matches!(
            self,
            ExportKind::CfaSvg | ExportKind::LbeSvg | ExportKind::ArgSvg
        )
    }
}

//! The page's view of the engine's `CfaReport` (engine/src/report.rs). The engine's types only
//! serialize (their `kind` fields are `&'static str`), so the page deserializes into these
//! mirrors; `tests::engine_report_round_trips` keeps the two in step.

use serde::Deserialize;

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Span {
    pub start_line: u32,
    pub start_col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Diagnostic {
    pub severity: String,
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    /// `LINE:COL: SEVERITY: MESSAGE`, the compiler format without the file name.
    pub fn render(&self) -> String {
        format!(
            "{}:{}: {}: {}",
            self.span.start_line, self.span.start_col, self.severity, self.message
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct GraphNode {
    pub id: u32,
    pub function: String,
    pub line: u32,
    pub loop_head: bool,
    pub error: bool,
    pub kind: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct GraphEdge {
    pub id: u32,
    pub from: u32,
    pub to: u32,
    pub label: String,
    pub lines: [u32; 2],
    pub kind: String,
    #[serde(default)]
    pub edges: Option<Vec<u32>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Graph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ReplayStep {
    pub rule: u8,
    pub location: u32,
    pub other: Option<u32>,
    pub removed: Vec<u32>,
    pub added: Vec<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct LbeReplay {
    pub edges: Vec<GraphEdge>,
    pub steps: Vec<ReplayStep>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct CfaReport {
    pub ok: bool,
    pub diagnostics: Vec<Diagnostic>,
    pub cfa: Option<Graph>,
    pub lbe: Option<Graph>,
    pub replay: Option<LbeReplay>,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn figure1() -> CfaReport {
        let src = include_str!("../../examples/lbe-figure1.c");
        let engine = cpa_engine::report::cfa_report("lbe-figure1.c", src);
        serde_json::from_str(&serde_json::to_string(&engine).unwrap()).unwrap()
    }

    #[test]
    fn engine_report_round_trips() {
        let r = figure1();
        assert!(r.ok);
        let cfa = r.cfa.as_ref().unwrap();
        let lbe = r.lbe.as_ref().unwrap();
        assert_eq!((cfa.nodes.len(), cfa.edges.len()), (32, 39));
        assert_eq!((lbe.nodes.len(), lbe.edges.len()), (3, 2));
        assert!(lbe.edges.iter().all(|e| e.edges.is_some()));
    }

    #[test]
    fn diagnostics_render_line_col() {
        let engine = cpa_engine::report::cfa_report("bad.c", "int main(void) {\n  int x = ;\n}\n");
        let r: CfaReport = serde_json::from_str(&serde_json::to_string(&engine).unwrap()).unwrap();
        assert!(!r.ok);
        let text = r.diagnostics[0].render();
        assert!(text.starts_with("2:"), "{text}");
        assert!(text.contains(": error: "), "{text}");
    }
}

//! The page's view of the engine's `CfaReport`: the engine's own report types
//! (engine/src/report.rs, cfa/export.rs, diag.rs), which the worker serializes and the page
//! deserializes; `tests::engine_report_round_trips` checks the round trip.

pub use cpa_engine::diag::{Diagnostic, Severity, Span};
pub use cpa_engine::report::{CfaReport, LbeReplay, ReplayStep};
pub use cpa_engine::report::{Graph, GraphEdge, GraphNode};

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
        let text = r.diagnostics[0].render_position();
        assert!(text.starts_with("2:"), "{text}");
        assert!(text.contains(": error: "), "{text}");
    }
}

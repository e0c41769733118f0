//! Serializable views for the CLI and the playground: the CFA, its LBE summary and the
//! summarization replay, or the diagnostics of a program that does not parse. The worker
//! serializes them and the page deserializes the same types.

use crate::cfa::export::{Graph, GraphEdge};
use crate::diag::Diagnostic;
use crate::frontend::{parse_program, Parsed};
use crate::lbe::{self, Rule};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayStep {
    /// 0 (error sink), 1 (sequence) or 2 (choice).
    pub rule: u8,
    pub location: u32,
    pub other: Option<u32>,
    pub removed: Vec<u32>,
    pub added: Vec<u32>,
}

/// Everything needed to replay the summarization: every edge that ever existed (indexed by
/// id; ids below the CFA's edge count are the CFA's edges) and the rule applications in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LbeReplay {
    pub edges: Vec<GraphEdge>,
    pub steps: Vec<ReplayStep>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CfaReport {
    pub ok: bool,
    /// Errors (when `ok` is false) or warnings.
    pub diagnostics: Vec<Diagnostic>,
    pub cfa: Option<Graph>,
    pub lbe: Option<Graph>,
    pub replay: Option<LbeReplay>,
}

pub fn replay(parsed: &Parsed, summary: &lbe::Summary) -> LbeReplay {
    let cfa = &parsed.cfa;
    LbeReplay {
        edges: (0..summary.edges.len() as u32)
            .map(|e| summary.graph_edge(cfa, e))
            .collect(),
        steps: summary
            .steps
            .iter()
            .map(|s| ReplayStep {
                rule: match s.rule {
                    Rule::ErrorSink => 0,
                    Rule::Sequence => 1,
                    Rule::Choice => 2,
                },
                location: s.location.0,
                other: s.other.map(|n| n.0),
                removed: s.removed.clone(),
                added: s.added.clone(),
            })
            .collect(),
    }
}

/// Parses `source` and reports its CFA, LBE summary and summarization replay.
pub fn cfa_report(file: &str, source: &str) -> CfaReport {
    match parse_program(file, source) {
        Ok(parsed) => {
            let summary = lbe::summarize(&parsed.cfa);
            CfaReport {
                ok: true,
                diagnostics: parsed.warnings.clone(),
                cfa: Some(parsed.cfa.graph()),
                lbe: Some(summary.graph(&parsed.cfa)),
                replay: Some(replay(&parsed, &summary)),
            }
        }
        Err(diagnostics) => CfaReport {
            ok: false,
            diagnostics,
            cfa: None,
            lbe: None,
            replay: None,
        },
    }
}

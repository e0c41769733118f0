//! Serializable views for the CLI and the playground: the CFA, its LBE summary and the
//! summarization replay, or the diagnostics of a program that does not parse. The worker
//! serializes them and the page deserializes the same types.

pub use crate::cfa::export::{Graph, GraphEdge, GraphNode, LayoutObject, MemoryLayout, Range};
use crate::cfa::lbe::{self, Rule};
use crate::diag::Diagnostic;
use crate::frontend::{parse_program, Parsed};
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

/// The CFA's graph with the value ranges of every location
/// ([`crate::invariants::octagon::ranges`]): what the playground knows where it shows a
/// formula.
fn graph_with_ranges(cfa: &crate::cfa::Cfa) -> Graph {
    let mut g = cfa.graph();
    let mut ranges = crate::invariants::octagon::ranges(cfa);
    for n in &mut g.nodes {
        n.ranges = ranges.remove(&crate::cfa::NodeId(n.id)).unwrap_or_default();
    }
    g
}

/// Parses `source` and reports its CFA, LBE summary and summarization replay.
pub fn cfa_report(file: &str, source: &str) -> CfaReport {
    match parse_program(file, source) {
        Ok(parsed) => {
            let summary = lbe::summarize(&parsed.cfa);
            CfaReport {
                ok: true,
                diagnostics: parsed.warnings.clone(),
                cfa: Some(graph_with_ranges(&parsed.cfa)),
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

/// A run as `cpa verify --json [--events]` prints it and the playground exports it (one
/// builder, so the two can be compared field by field): `verdict` (`"true"`, `"false"`,
/// `"unknown"`, or `null` while undecided), `reason`, `config`, `stats`, `counterexample` and,
/// with events, `events`. Times are `null` where they were not measured.
pub struct RunJson<'a> {
    pub preset: &'a str,
    pub verdict: Option<&'a crate::verdict::Verdict>,
    pub stats: &'a crate::session::Stats,
    pub solver_ms: f64,
    pub total_ms: Option<f64>,
    pub certificate_ms: Option<f64>,
    /// A portfolio's deciding component ([`crate::events::decided_by`]).
    pub decided_by: Option<&'a str>,
    pub events: Option<&'a [crate::events::Event]>,
}

impl RunJson<'_> {
    pub fn to_value(&self) -> serde_json::Value {
        use crate::verdict::Verdict;
        use serde_json::json;
        let ms = |m: f64| (m * 1000.0).round() / 1000.0;
        let cex = match self.verdict {
            Some(Verdict::False { counterexample }) => Some(
                counterexample
                    .trace
                    .iter()
                    .map(|t| json!({"line": t.line, "op": t.op, "values": t.values}))
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        };
        let s = self.stats;
        let mut v = json!({
            "verdict": self.verdict.map(|v| v.name()),
            "reason": self.verdict.and_then(|v| v.reason()),
            "config": self.preset,
            "stats": {
                "steps": s.steps, "states": s.states, "refinements": s.refinements,
                "solver_queries": s.solver_queries, "cache_hits": s.cache_hits,
                "solver_work": s.solver_work, "abstractions": s.abstractions,
                "abstraction_states": s.abstraction_states,
                "predicates": s.predicates, "bound": s.bound,
                "solver_ms": ms(self.solver_ms),
                "total_ms": self.total_ms.map(ms),
                "certificate_ms": self.certificate_ms.map(ms),
            },
            "counterexample": cex,
        });
        if let Some(verdict) = self.verdict {
            v["svcomp"] = json!(verdict.svcomp());
        }
        if let Some(d) = self.decided_by {
            v["decided_by"] = json!(d);
        }
        if let Some(events) = self.events {
            v["events"] = json!(events);
        }
        v
    }
}

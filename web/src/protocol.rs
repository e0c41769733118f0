//! The message protocol between the page and the engine worker. Every message is one JSON
//! string (`postMessage` of a string: no structured-clone surprises, and the same text can be
//! logged or replayed).
//!
//! Page → worker: [`RequestEnvelope`] `{"id": 7, "request": {"type": "cfa-report", ...}}`.
//! Worker → page: [`WorkerMessage`]: `{"type": "ready"}` once the worker's wasm is up,
//! `{"type": "reply", "id": 7, "reply": {"type": "cfa-report", "report": {...}}}` exactly once
//! per request, and `{"type": "fatal", "message": ...}` when the worker cannot go on (the page
//! then fails every open request and starts a fresh worker).
//!
//! New request kinds (verification runs, stepping) add a [`Request`] and a [`Reply`] variant;
//! a run that streams events will add a `{"type": "event", "id", "event"}` worker message.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Request {
    /// Parse `source`, build its CFA, LBE summary and summarization replay.
    CfaReport { file: String, source: String },
    /// Evaluate SMT-LIB text with Z3 (loaded on first use) and return Z3's reply.
    Z3Query { text: String },
    /// Sequence interpolants for the assertions of an SMT-LIB script (declarations and
    /// `(assert ...)`s), as `cpa itp FILE --strategy STRATEGY` computes them natively, on the
    /// worker's Z3. With `log`, the reply also lists every SMT-LIB text sent to Z3 and its
    /// reply (what `cpa itp --log` prints).
    SmtInterpolate {
        script: String,
        strategy: String,
        #[serde(default, skip_serializing_if = "is_false")]
        log: bool,
    },
    /// The solver bridge's query-mix micro-benchmark (`bench::timed_query_mix`: a warm-up,
    /// then `rounds` timed rounds) on the worker's Z3.
    SolverBench { rounds: u32 },
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The answer of an `smt-interpolate` request, tagged by `status`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum ItpAnswer {
    /// `tau_1..tau_(n-1)` as SMT-LIB text (the lines `cpa itp` prints after `unsat`).
    Unsat {
        interpolants: Vec<String>,
    },
    /// `(define-fun NAME () SORT VALUE)` for each declared symbol (the lines after `sat`).
    Sat {
        model: Vec<String>,
    },
    Unknown {
        reason: String,
    },
}

/// One round trip to Z3: the SMT-LIB text sent and the reply (`error: MESSAGE` if the bridge
/// got no reply).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedQuery {
    pub query: String,
    pub reply: String,
}

/// What a `solver-bench` run did and how long it took (by the worker's `performance.now()`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchResult {
    pub rounds: u64,
    /// `eval` calls, i.e. `Z3_eval_smtlib2_string` round trips.
    pub round_trips: u64,
    pub check_sats: u64,
    pub sat: u64,
    pub unsat: u64,
    /// Wall time of the timed rounds (without the warm-up and without loading Z3).
    pub ms: f64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestEnvelope {
    pub id: u64,
    pub request: Request,
}

/// `R` is the report type: the engine's `CfaReport`, borrowed in the worker (which
/// serializes it without a copy) and owned in the page (which deserializes it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Reply<R> {
    CfaReport {
        report: R,
    },
    Z3Reply {
        text: String,
    },
    /// `{"type": "smt-interpolate", "status": "unsat", "interpolants": [...]}` (or `"sat"` with
    /// `model`, `"unknown"` with `reason`), plus `log` when the request asked for it.
    SmtInterpolate {
        #[serde(flatten)]
        answer: ItpAnswer,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        log: Option<Vec<LoggedQuery>>,
    },
    SolverBench {
        #[serde(flatten)]
        result: BenchResult,
    },
    Error {
        message: String,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum WorkerMessage<R> {
    Ready,
    Reply { id: u64, reply: Reply<R> },
    Fatal { message: String },
}

/// The worker message as the page reads it.
pub type PageMessage = WorkerMessage<crate::model::CfaReport>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_have_a_stable_json_shape() {
        let r = RequestEnvelope {
            id: 3,
            request: Request::Z3Query {
                text: "(check-sat)".into(),
            },
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            json,
            r#"{"id":3,"request":{"type":"z3-query","text":"(check-sat)"}}"#
        );
        assert_eq!(serde_json::from_str::<RequestEnvelope>(&json).unwrap(), r);
        let c: RequestEnvelope = serde_json::from_str(
            r#"{"id":1,"request":{"type":"cfa-report","file":"a.c","source":"int main(){}"}}"#,
        )
        .unwrap();
        assert!(matches!(c.request, Request::CfaReport { .. }));
    }

    #[test]
    fn the_page_reads_what_the_worker_writes() {
        let src = include_str!("../../examples/lbe-figure1.c");
        let engine = cpa_engine::report::cfa_report("lbe-figure1.c", src);
        let sent = WorkerMessage::Reply {
            id: 9,
            reply: Reply::CfaReport { report: &engine },
        };
        let text = serde_json::to_string(&sent).unwrap();
        match serde_json::from_str::<PageMessage>(&text).unwrap() {
            WorkerMessage::Reply {
                id: 9,
                reply: Reply::CfaReport { report },
            } => assert_eq!(report.cfa.unwrap().edges.len(), 39),
            other => panic!("unexpected {other:?}"),
        }
        let ready: PageMessage = serde_json::from_str(r#"{"type":"ready"}"#).unwrap();
        assert_eq!(ready, WorkerMessage::Ready);
    }
}

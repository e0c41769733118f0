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
//! A verification run lives in the worker across messages: `start` creates it (a
//! [`cpa_engine::session::Session`] on the worker's Z3), each `advance` steps it and streams
//! what happened as `{"type": "events", "id", ...}` messages ([`Batch`]) before its reply,
//! and terminating the worker cancels it (the page replays the run to where it was in a fresh
//! worker). The engine's own types ([`Event`], [`Stats`], [`Verdict`], [`Granularity`]) are the
//! payload.

/// The page's view of the engine's `CfaReport` is the engine's own report types, which the
/// worker serializes and the page deserializes (`tests::engine_report_round_trips`).
pub use cpa_engine::diag::{Diagnostic, Severity, Span};
pub use cpa_engine::report::{CfaReport, LbeReplay, ReplayStep};
pub use cpa_engine::report::{Graph, GraphEdge, GraphNode};

use cpa_engine::config::Config;
use cpa_engine::events::Event;
use cpa_engine::session::{Granularity, Stats};
use cpa_engine::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// A request to the worker. Each variant's payload is a request type that names its answer
/// ([`Ask`]): requests and replies are typed as pairs, so the page's code never matches a
/// [`Reply`] by hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Request {
    CfaReport(BuildCfa),
    Z3Query(Z3Query),
    SmtInterpolate(SmtInterpolate),
    SolverBench(SolverBench),
    Start(Start),
    Advance(Advance),
    QueryText(QueryText),
    Witness(WitnessOf),
    CheckInvariant(CheckInvariant),
    JudgePredicate(JudgePredicate),
    /// Makes the worker panic in the next `advance` (tests of the page's recovery from an
    /// engine crash). No reply.
    DebugPanic,
}

/// The error every request in flight gets when the page replaces the worker on purpose (to
/// cancel a run): not a failure to show, a request to send again if still wanted.
pub const CANCELLED: &str = "cancelled";

/// A request type and the answer its reply carries.
pub trait Ask: Into<Request> {
    type Answer;
    /// The answer in `reply`, if it is this request's reply (an error reply is handled
    /// before: [`answer_of`]).
    fn answer(reply: Reply<CfaReport>) -> Option<Self::Answer>;
}

/// The answer to `A` in `reply`: the worker's error message, or a message naming a reply
/// that does not answer `A` (a protocol bug).
pub fn answer_of<A: Ask>(reply: Reply<CfaReport>) -> Result<A::Answer, String> {
    match reply {
        Reply::Error { message } => Err(message),
        r => {
            let kind = r.kind();
            A::answer(r).ok_or_else(|| format!("unexpected engine reply {kind}"))
        }
    }
}

macro_rules! ask {
    ($req:ident => $variant:ident, $answer:ty, |$r:ident| $pat:pat => $val:expr) => {
        impl From<$req> for Request {
            fn from(r: $req) -> Request {
                Request::$variant(r)
            }
        }
        impl Ask for $req {
            type Answer = $answer;
            fn answer($r: Reply<CfaReport>) -> Option<$answer> {
                match $r {
                    $pat => Some($val),
                    _ => None,
                }
            }
        }
    };
}

/// Parse `source`, build its CFA, LBE summary and summarization replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildCfa {
    pub file: String,
    pub source: String,
}
ask!(BuildCfa => CfaReport, CfaReport, |r| Reply::CfaReport { report } => report);

/// Evaluate SMT-LIB text with Z3 (loaded on first use) and return Z3's reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Z3Query {
    pub text: String,
}
ask!(Z3Query => Z3Query, String, |r| Reply::Z3Reply { text } => text);

/// Sequence interpolants for the assertions of an SMT-LIB script (declarations and
/// `(assert ...)`s), as `cpa itp FILE --strategy STRATEGY` computes them natively, on the
/// worker's Z3. With `log`, the reply also lists every SMT-LIB text sent to Z3 and its reply
/// (what `cpa itp --log` prints).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmtInterpolate {
    pub script: String,
    pub strategy: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub log: bool,
}
ask!(SmtInterpolate => SmtInterpolate, (ItpAnswer, Option<Vec<LoggedQuery>>),
    |r| Reply::SmtInterpolate { answer, log } => (answer, log));

/// The solver bridge's query-mix micro-benchmark (`bench::timed_query_mix`: a warm-up, then
/// `rounds` timed rounds) on the worker's Z3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolverBench {
    pub rounds: u32,
}
ask!(SolverBench => SolverBench, BenchResult, |r| Reply::SolverBench { result } => result);

/// Starts a verification run of `source` (replacing any earlier run): what
/// `cpa verify FILE --config PRESET --set KEY=VALUE...` runs natively.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    pub file: String,
    pub source: String,
    pub config: RunConfig,
}
ask!(Start => Start, RunInfo, |r| Reply::RunStarted { info } => info);

/// Steps the current run until `granularity` is reached, the run ends, or the run has `until`
/// events (whichever comes first). Unless `quiet`, the new events stream as `events` messages
/// ([`Batch`]) before the reply (`quiet` is for replaying a run the page has seen).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Advance {
    pub granularity: Granularity,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<u64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub quiet: bool,
}
ask!(Advance => Advance, Progress, |r| Reply::Advanced { progress } => progress);

/// The whole text of solver query `index` of the current run (batches carry excerpts): the
/// query and the reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueryText {
    pub index: u64,
}
ask!(QueryText => QueryText, (String, String), |r| Reply::QueryText { query, reply } => (query, reply));

/// The current run's witness (SV-COMP format 2.0): what `cpa verify --witness` writes, with
/// the page's `creation_time` (the engine reads no clock).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WitnessOf {
    pub creation_time: String,
}
ask!(WitnessOf => Witness, String, |r| Reply::Witness { yaml } => yaml);

/// The invariant exercise: `invariant` at the loop of `line` of `source`, checked for
/// initiation, consecution and sufficiency (what `cpa check-invariant` prints).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckInvariant {
    pub file: String,
    pub source: String,
    pub line: u32,
    pub invariant: String,
}
ask!(CheckInvariant => CheckInvariant, InvariantReport, |r| Reply::InvariantChecked { report } => report);

pub use cpa_engine::lesson::invariant::{Part as InvariantPart, Report as InvariantReport};

/// A lesson's predicate question: `answer` judged against the refinement `path` of the run of
/// `source` under `config` ([`cpa_engine::lesson::predicate::judge`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgePredicate {
    pub file: String,
    pub source: String,
    pub config: RunConfig,
    pub path: RefinementPath,
    pub answer: String,
}
ask!(JudgePredicate => JudgePredicate, Judgement, |r| Reply::PredicateJudged { judgement } => judgement);

pub use cpa_engine::lesson::predicate::{Judgement, RefinementPath};

/// A configuration as the CLI takes it: a preset and knob settings, applied in order with
/// [`Config::set`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunConfig {
    pub preset: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<(String, String)>,
}

impl RunConfig {
    pub fn preset(name: &str) -> RunConfig {
        RunConfig {
            preset: name.to_string(),
            set: Vec::new(),
        }
    }

    /// The engine configuration, or why there is none (unknown preset, bad knob value, a
    /// combination the engine rejects).
    pub fn resolve(&self) -> Result<Config, String> {
        Config::build(
            &self.preset,
            self.set.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        )
    }

    /// The equivalent command line (shown on the page, so a run can be repeated natively).
    pub fn command_line(&self, file: &str) -> String {
        let mut s = format!("cpa verify {file} --config {}", self.preset);
        for (k, v) in &self.set {
            let arg = format!("{k}={v}");
            let plain = arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.,=:+/*".contains(c));
            if plain {
                s.push_str(&format!(" --set {arg}"));
            } else {
                // Quoted for a POSIX shell (a predicate has spaces and operators).
                s.push_str(&format!(" --set '{}'", arg.replace('\'', "'\\''")));
            }
        }
        s
    }
}

/// Why a solver query was made, from the engine's call (AllSAT, interpolation, a model, a
/// satisfiability check) and what the step it belongs to did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QueryPurpose {
    /// Solver options before the analysis starts (the resource limit).
    Setup,
    /// Predicate abstraction of a block (AllSAT over the predicates).
    Abstraction,
    /// A satisfiability check while expanding a state: the block's satisfiability, a
    /// Cartesian abstraction or a coverage (implication) check.
    Expansion,
    /// Forced covering of IMPACT: does the state's path imply a coverer's formula?
    Coverage,
    /// Is the abstract counterexample feasible (its path formula satisfiable)?
    Feasibility,
    /// Sequence interpolants for a spurious counterexample.
    Interpolation,
    /// A model of a feasible path, for the concrete counterexample.
    Model,
    /// A check of BMC or k-induction (base case, forward condition, inductive step).
    BoundCheck,
}

impl QueryPurpose {
    pub fn name(self) -> &'static str {
        match self {
            QueryPurpose::Setup => "setup",
            QueryPurpose::Abstraction => "abstraction",
            QueryPurpose::Expansion => "expansion",
            QueryPurpose::Coverage => "coverage",
            QueryPurpose::Feasibility => "feasibility",
            QueryPurpose::Interpolation => "interpolation",
            QueryPurpose::Model => "model",
            QueryPurpose::BoundCheck => "bound check",
        }
    }
}

/// One round trip to Z3 during a run. `solver_queries` of the statistics counts exactly these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueryEntry {
    /// 0-based position in the run's query log.
    pub index: u64,
    /// The number of events before the step that made the query (a step's events and its
    /// queries appear together, once the step is done).
    pub at: u64,
    pub purpose: QueryPurpose,
    /// The SMT-LIB text sent, cut at [`QUERY_EXCERPT`] characters (`query_len` is the whole
    /// length; `query-text` fetches the rest).
    pub query: String,
    pub query_len: u64,
    /// Z3's reply, cut like the query.
    pub reply: String,
    /// Time in the solver (the worker's `performance.now()`; 0 natively in tests).
    pub ms: f64,
}

/// Excerpts of queries and replies in batches are at most this many characters.
pub const QUERY_EXCERPT: usize = 2000;

/// Where a step of the run ended, with the statistics at that point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitEnd {
    /// Events of the run after this step.
    pub events: u64,
    pub stats: Stats,
    pub solver_ms: f64,
}

/// What an `advance` did, streamed in pieces: events `from..from + events.len()`, the steps
/// that ended within them, and the solver queries they made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    pub from: u64,
    pub events: Vec<Event>,
    pub units: Vec<UnitEnd>,
    pub queries: Vec<QueryEntry>,
}

/// The state of the run after an `advance`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub events: u64,
    pub stats: Stats,
    pub solver_ms: f64,
    /// Set once the run is over (with the concrete counterexample for FALSE).
    #[serde(with = "via_value")]
    pub verdict: Option<Verdict>,
    /// After TRUE: the loop invariants the proof rests on, as the correctness witness states
    /// them (source line of the loop, C expression).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invariants: Vec<(u32, String)>,
}

/// The counterexample's values are `i128`, which serde cannot buffer, and the reply is an
/// internally tagged enum, which serde buffers: the verdict goes through a JSON value (whose
/// numbers hold every C value of the ILP32 model) and is read from there.
mod via_value {
    use cpa_engine::verdict::Verdict;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<Verdict>, s: S) -> Result<S::Ok, S::Error> {
        serde_json::to_value(v)
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }

    /// By hand: `Verdict` is internally tagged too, so its derived `Deserialize` buffers.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Verdict>, D::Error> {
        use serde::de::Error;
        let value = serde_json::Value::deserialize(d)?;
        if value.is_null() {
            return Ok(None);
        }
        Ok(Some(match value.get("verdict").and_then(|v| v.as_str()) {
            Some("true") => Verdict::True,
            Some("false") => Verdict::False {
                counterexample: serde_json::from_value(
                    value.get("counterexample").cloned().unwrap_or_default(),
                )
                .map_err(D::Error::custom)?,
            },
            Some("unknown") => Verdict::Unknown {
                reason: value
                    .get("reason")
                    .and_then(|r| r.as_str())
                    .unwrap_or_default()
                    .to_string(),
            },
            other => return Err(D::Error::custom(format!("unknown verdict {other:?}"))),
        }))
    }
}

/// What `start` reports about the run it created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The resolved configuration's knobs (`Config::knobs`), as the engine reads them.
    pub knobs: Vec<(String, String)>,
    /// The formula encoding the run uses (`auto` resolved for this program).
    pub encoding: cpa_engine::config::Encoding,
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
    RunStarted {
        #[serde(flatten)]
        info: RunInfo,
    },
    Advanced {
        #[serde(flatten)]
        progress: Progress,
    },
    QueryText {
        query: String,
        reply: String,
    },
    Witness {
        yaml: String,
    },
    InvariantChecked {
        report: InvariantReport,
    },
    PredicateJudged {
        judgement: Judgement,
    },
    Error {
        message: String,
    },
}

impl<R> Reply<R> {
    /// The reply's `type`, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Reply::CfaReport { .. } => "cfa-report",
            Reply::Z3Reply { .. } => "z3-reply",
            Reply::SmtInterpolate { .. } => "smt-interpolate",
            Reply::SolverBench { .. } => "solver-bench",
            Reply::RunStarted { .. } => "run-started",
            Reply::Advanced { .. } => "advanced",
            Reply::QueryText { .. } => "query-text",
            Reply::Witness { .. } => "witness",
            Reply::InvariantChecked { .. } => "invariant-checked",
            Reply::PredicateJudged { .. } => "predicate-judged",
            Reply::Error { .. } => "error",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum WorkerMessage<R> {
    Ready,
    Reply {
        id: u64,
        reply: Reply<R>,
    },
    /// Part of what request `id` (an `advance`) did, before its reply.
    Events {
        id: u64,
        #[serde(flatten)]
        batch: Batch,
    },
    /// Loading Z3: `loaded` of `total` bytes (`total` 0 if unknown), then `done`.
    Z3Progress {
        loaded: u64,
        total: u64,
        #[serde(default)]
        done: bool,
    },
    Fatal {
        message: String,
    },
}

/// The worker message as the page reads it.
pub type PageMessage = WorkerMessage<CfaReport>;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn the_command_line_quotes_values_a_shell_would_split() {
        let c = RunConfig {
            preset: "predicate-lbe".into(),
            set: vec![
                ("max-refinements".into(), "0".into()),
                ("predicates".into(), "8: x == y; 9: it's".into()),
            ],
        };
        assert_eq!(
            c.command_line("a.c"),
            "cpa verify a.c --config predicate-lbe --set max-refinements=0 \
             --set 'predicates=8: x == y; 9: it'\\''s'"
        );
    }

    #[test]
    fn requests_have_a_stable_json_shape() {
        let r = RequestEnvelope {
            id: 3,
            request: Z3Query {
                text: "(check-sat)".into(),
            }
            .into(),
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
        assert!(matches!(c.request, Request::CfaReport(_)));
        let a: Request = Advance {
            granularity: Granularity::Refinement,
            until: Some(7),
            quiet: false,
        }
        .into();
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"type":"advance","granularity":"refinement","until":7}"#
        );
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

    #[test]
    fn verdicts_with_counterexamples_cross_the_protocol() {
        use cpa_engine::verdict::Counterexample;
        use cpa_engine::verdict::TraceStep;
        let verdict = Verdict::False {
            counterexample: Counterexample {
                trace: vec![TraceStep {
                    edge: 3,
                    line: 7,
                    op: "x = x - 1;".into(),
                    values: [("x".to_string(), -5i128), ("u".to_string(), 4294967295i128)]
                        .into_iter()
                        .collect(),
                    input: Some(-5),
                }],
                states: vec![0, 4],
            },
        };
        let progress = Progress {
            events: 12,
            stats: Stats::default(),
            solver_ms: 1.5,
            verdict: Some(verdict),
            invariants: vec![(8, "x == y".into())],
        };
        let text = serde_json::to_string(&WorkerMessage::<&CfaReport>::Reply {
            id: 2,
            reply: Reply::Advanced {
                progress: progress.clone(),
            },
        })
        .unwrap();
        match serde_json::from_str::<PageMessage>(&text).unwrap() {
            WorkerMessage::Reply {
                reply: Reply::Advanced { progress: back },
                ..
            } => assert_eq!(back, progress),
            other => panic!("{other:?}"),
        }
    }

    pub(crate) fn figure1() -> CfaReport {
        let src = include_str!("../../examples/lbe-figure1.c");
        let engine = cpa_engine::report::cfa_report("lbe-figure1.c", src);
        serde_json::from_str(&serde_json::to_string(&engine).unwrap()).unwrap()
    }

    /// static/worker.js lets a CFA request overtake a run waiting for Z3 by this prefix of
    /// its text: only a CFA request has it.
    #[test]
    fn a_cfa_request_is_known_by_its_prefix() {
        let text =
            |request: Request| serde_json::to_string(&RequestEnvelope { id: 42, request }).unwrap();
        let cfa = text(Request::CfaReport(BuildCfa {
            file: "a.c".into(),
            source: "int main() {}".into(),
        }));
        assert!(
            cfa.starts_with(r#"{"id":42,"request":{"type":"cfa-report","#),
            "{cfa}"
        );
        let other = text(Request::DebugPanic);
        assert!(!other.contains("cfa-report"), "{other}");
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

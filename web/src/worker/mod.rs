//! The engine worker's request handling, independent of the browser so it can be tested
//! natively. `bin/cpa-worker.rs` wires it to `postMessage` and to Z3.

pub mod run_host;

use crate::protocol::{
    Advance, Batch, BenchResult, BuildCfa, CheckInvariant, ItpAnswer, JudgePredicate, LoggedQuery,
    QueryText, Reply, Request, RequestEnvelope, RunConfig, SmtInterpolate, SolverBench, Start,
    WitnessOf, WorkerMessage, Z3Query,
};
use crate::worker::run_host::{Clock, RunHost};
use cpa_engine::report::{cfa_report, CfaReport};
use cpa_engine::session::Granularity;
use solver_bridge::bench::timed_query_mix;
use solver_bridge::context::SmtContext;
use solver_bridge::itp::{solve_script, ScriptAnswer, Strategy};
use solver_bridge::parse::{parse_script, Script};
use solver_bridge::solver::{Recording, Solver};

/// What the worker must do for one incoming message.
#[derive(Debug)]
pub enum Work {
    /// Post this message (a complete `WorkerMessage` JSON text).
    Post(String),
    /// Load Z3 if needed, evaluate `text`, and answer request `id` with [`z3_reply`].
    Z3 { id: u64, text: String },
    /// Load Z3 if needed, then answer request `id` with [`interpolate_reply`].
    Interpolate { id: u64, job: ItpJob },
    /// Load Z3 if needed, then answer request `id` with [`bench_reply`].
    Bench { id: u64, rounds: usize },
    /// Load Z3 if needed, then start a run with [`Runs::start`].
    Start {
        id: u64,
        file: String,
        source: String,
        config: RunConfig,
    },
    /// Step the current run ([`Runs::advance`]).
    Advance {
        id: u64,
        granularity: Granularity,
        until: Option<u64>,
        quiet: bool,
    },
    /// Answer with [`Runs::query_text`].
    QueryText { id: u64, index: u64 },
    /// Answer with [`Runs::witness`].
    Witness { id: u64, creation_time: String },
    /// Load Z3 if needed, then answer with [`invariant_reply`].
    CheckInvariant { id: u64, ask: CheckInvariant },
    /// Load Z3 if needed, then answer with [`predicate_reply`].
    JudgePredicate { id: u64, ask: JudgePredicate },
    /// Panic (the page's crash recovery is tested with it).
    Panic,
}

/// The worker's verification run, held across messages.
#[derive(Default)]
pub struct Runs {
    current: Option<RunHost>,
}

impl Runs {
    /// Starts a run on `solver` (replacing the current one) and returns the reply.
    pub fn start(
        &mut self,
        id: u64,
        file: &str,
        source: &str,
        config: &RunConfig,
        solver: impl solver_bridge::solver::Solver + 'static,
        clock: Option<Clock>,
    ) -> String {
        self.current = None;
        match RunHost::new(file, source, config, solver, clock) {
            Ok((host, info)) => {
                self.current = Some(host);
                reply_json(id, Reply::RunStarted { info })
            }
            Err(message) => error_reply(id, message),
        }
    }

    /// Steps the current run; `post` gets each `events` message, the result is the reply.
    pub fn advance(
        &mut self,
        id: u64,
        granularity: Granularity,
        until: Option<u64>,
        quiet: bool,
        post: &mut dyn FnMut(&str),
    ) -> String {
        let Some(host) = &mut self.current else {
            return error_reply(id, "no run: start one first");
        };
        let progress = host.advance(granularity, until, quiet, &mut |batch: Batch| {
            post(&message_json(&WorkerMessage::Events { id, batch }))
        });
        reply_json(id, Reply::Advanced { progress })
    }

    pub fn witness(&self, id: u64, creation_time: &str) -> String {
        match self.current.as_ref().map(|h| h.witness(creation_time)) {
            Some(Ok(yaml)) => reply_json(id, Reply::Witness { yaml }),
            Some(Err(e)) => error_reply(id, e),
            None => error_reply(id, "no run: start one first"),
        }
    }

    pub fn query_text(&self, id: u64, index: u64) -> String {
        match self.current.as_ref().and_then(|h| h.query_text(index)) {
            Some((query, reply)) => reply_json(
                id,
                Reply::QueryText {
                    query: query.clone(),
                    reply: reply.clone(),
                },
            ),
            None => error_reply(id, format!("no solver query {index} in the current run")),
        }
    }
}

/// The largest `solver-bench` round count (7 round trips each; a minute or two of Z3): the
/// worker cannot be interrupted except by terminating it.
pub const MAX_BENCH_ROUNDS: u32 = 100_000;

/// A parsed `smt-interpolate` request (the script and the strategy are checked before Z3 is
/// loaded: bad input is answered at once).
#[derive(Debug)]
pub struct ItpJob {
    pub script: Script,
    pub strategy: Strategy,
    pub log: bool,
}

/// The deepest nesting of parentheses an `smt-interpolate` script may have. The parser, the
/// term functions and Z3 recurse on nesting; a worker's stack in Chromium (about 1 MB) ran out
/// at depth 1990 with some strategies and held at 1000 in every case tried
/// (`tests/browser/solver.test.mjs` runs the worst of them at this limit). A stack overflow
/// leaves the worker's wasm instance unusable, so deeper input is an error reply.
pub const MAX_SCRIPT_DEPTH: usize = 500;

impl ItpJob {
    pub fn new(script: &str, strategy: &str, log: bool) -> Result<ItpJob, String> {
        if let Err(e) = solver_bridge::sexp::split_limited(script, MAX_SCRIPT_DEPTH) {
            let (line, col) = solver_bridge::sexp::line_col(script, e.offset);
            return Err(format!("script:{line}:{col}: error: {}", e.message));
        }
        let strategy = Strategy::from_name(strategy).ok_or_else(|| {
            format!(
                "unknown strategy {strategy:?} (one of {})",
                Strategy::ALL.map(|s| s.name()).join(", ")
            )
        })?;
        let script = parse_script(script)
            .map_err(|e| format!("script:{}:{}: error: {}", e.line, e.col, e.message))?;
        Ok(ItpJob {
            script,
            strategy,
            log,
        })
    }
}

pub fn message_json(msg: &WorkerMessage<&CfaReport>) -> String {
    // Serializing these types cannot fail: no maps with non-string keys, no custom impls.
    serde_json::to_string(msg).unwrap_or_else(|e| {
        format!(r#"{{"type":"fatal","message":"cannot serialize a reply: {e}"}}"#)
    })
}

pub fn reply_json(id: u64, reply: Reply<&CfaReport>) -> String {
    message_json(&WorkerMessage::Reply { id, reply })
}

pub fn ready_json() -> String {
    message_json(&WorkerMessage::Ready)
}

pub fn fatal_json(message: impl Into<String>) -> String {
    message_json(&WorkerMessage::Fatal {
        message: message.into(),
    })
}

pub fn error_reply(id: u64, message: impl Into<String>) -> String {
    reply_json(
        id,
        Reply::Error {
            message: message.into(),
        },
    )
}

/// The invariant exercise on `solver`: what `cpa check-invariant` checks natively (the same
/// engine function, [`cpa_engine::lesson::invariant::check_invariant`]).
pub fn invariant_reply<S: Solver + 'static>(id: u64, ask: &CheckInvariant, solver: S) -> String {
    let mut smt = cpa_engine::smt::BridgeSmt::new(solver);
    // Per query, deterministic (Z3's rlimit): as `cpa check-invariant`.
    if let Err(e) = cpa_engine::smt::Smt::set_resource_limit(&mut smt, Some(20_000_000)) {
        return error_reply(id, e.to_string());
    }
    match cpa_engine::lesson::invariant::check_invariant(
        &ask.file,
        &ask.source,
        ask.line,
        &ask.invariant,
        &mut smt,
    ) {
        Ok(report) => reply_json(id, Reply::InvariantChecked { report }),
        Err(message) => error_reply(id, message),
    }
}

/// A lesson's predicate question on `solver`: the engine function `cpa lesson` tests use
/// ([`cpa_engine::lesson::predicate::judge_program`]).
pub fn predicate_reply<S: Solver + 'static>(id: u64, ask: &JudgePredicate, solver: S) -> String {
    let mut smt = cpa_engine::smt::BridgeSmt::new(solver);
    if let Err(e) = cpa_engine::smt::Smt::set_resource_limit(&mut smt, Some(20_000_000)) {
        return error_reply(id, e.to_string());
    }
    let config = match ask.config.resolve() {
        Ok(c) => c,
        Err(e) => return error_reply(id, e),
    };
    match cpa_engine::lesson::predicate::judge_program(
        &ask.file,
        &ask.source,
        &config,
        &ask.path,
        &ask.answer,
        &mut smt,
    ) {
        Ok(judgement) => reply_json(id, Reply::PredicateJudged { judgement }),
        Err(message) => error_reply(id, message),
    }
}

/// Solves `job` on `solver` with the code `cpa itp` runs natively
/// ([`solver_bridge::itp::solve_script`] over a fresh `SmtContext`), so both send the same
/// SMT-LIB text and print the same interpolants.
pub fn interpolate_reply<S: Solver>(id: u64, job: &ItpJob, solver: S) -> String {
    let recording = Recording::new(solver);
    let log = recording.log();
    let mut ctx = SmtContext::new(recording);
    let result = solve_script(&mut ctx, &job.script, job.strategy);
    let log = job.log.then(|| {
        log.entries()
            .into_iter()
            .map(|e| LoggedQuery {
                query: e.query,
                reply: e.reply.unwrap_or_else(|e| format!("error: {e}")),
            })
            .collect()
    });
    match result {
        Ok(answer) => reply_json(
            id,
            Reply::SmtInterpolate {
                answer: match &answer {
                    ScriptAnswer::Unsat { .. } => ItpAnswer::Unsat {
                        interpolants: answer.interpolant_lines(),
                    },
                    ScriptAnswer::Sat { .. } => ItpAnswer::Sat {
                        model: answer.model_lines(),
                    },
                    ScriptAnswer::Unknown { reason } => ItpAnswer::Unknown {
                        reason: reason.clone(),
                    },
                },
                log,
            },
        ),
        Err(e) => error_reply(id, e.to_string()),
    }
}

/// Runs the query-mix benchmark on `solver`, timed by `clock` (the worker passes
/// `performance.now()`).
pub fn bench_reply(
    id: u64,
    rounds: usize,
    solver: &mut dyn Solver,
    clock: &mut dyn solver_bridge::solver::Clock,
) -> String {
    match timed_query_mix(solver, rounds, clock) {
        Ok(m) => reply_json(
            id,
            Reply::SolverBench {
                result: BenchResult {
                    rounds: m.rounds as u64,
                    round_trips: m.report.round_trips,
                    check_sats: m.report.check_sats,
                    sat: m.report.sat,
                    unsat: m.report.unsat,
                    ms: m.micros as f64 / 1000.0,
                },
            },
        ),
        Err(e) => error_reply(id, format!("solver benchmark: {e}")),
    }
}

/// The reply to a Z3 query, from what `cpaZ3Eval` returned or threw.
pub fn z3_reply(id: u64, result: Result<String, String>) -> String {
    reply_json(
        id,
        match result {
            Ok(text) => Reply::Z3Reply { text },
            Err(message) => Reply::Error {
                message: format!("Z3: {message}"),
            },
        },
    )
}

pub fn handle(data: &str) -> Work {
    let envelope: RequestEnvelope = match serde_json::from_str(data) {
        Ok(e) => e,
        Err(e) => {
            // Without an id there is no request to answer; the page only sends well-formed
            // requests, so this is a protocol bug worth surfacing loudly.
            let id = serde_json::from_str::<serde_json::Value>(data)
                .ok()
                .and_then(|v| v.get("id").and_then(|i| i.as_u64()));
            return Work::Post(match id {
                Some(id) => reply_json(
                    id,
                    Reply::Error {
                        message: format!("malformed request: {e}"),
                    },
                ),
                None => fatal_json(format!("malformed request: {e}")),
            });
        }
    };
    match envelope.request {
        Request::CfaReport(BuildCfa { file, source }) => {
            let report = cfa_report(&file, &source);
            Work::Post(reply_json(
                envelope.id,
                Reply::CfaReport { report: &report },
            ))
        }
        Request::Z3Query(Z3Query { text }) => Work::Z3 {
            id: envelope.id,
            text,
        },
        Request::SmtInterpolate(SmtInterpolate {
            script,
            strategy,
            log,
        }) => match ItpJob::new(&script, &strategy, log) {
            Ok(job) => Work::Interpolate {
                id: envelope.id,
                job,
            },
            Err(message) => Work::Post(error_reply(envelope.id, message)),
        },
        Request::SolverBench(SolverBench { rounds }) if rounds > MAX_BENCH_ROUNDS => {
            Work::Post(error_reply(
                envelope.id,
                format!("solver benchmark: at most {MAX_BENCH_ROUNDS} rounds (asked for {rounds})"),
            ))
        }
        Request::SolverBench(SolverBench { rounds }) => Work::Bench {
            id: envelope.id,
            rounds: rounds as usize,
        },
        Request::Start(Start {
            file,
            source,
            config,
        }) => Work::Start {
            id: envelope.id,
            file,
            source,
            config,
        },
        Request::Advance(Advance {
            granularity,
            until,
            quiet,
        }) => Work::Advance {
            id: envelope.id,
            granularity,
            until,
            quiet,
        },
        Request::QueryText(QueryText { index }) => Work::QueryText {
            id: envelope.id,
            index,
        },
        Request::Witness(WitnessOf { creation_time }) => Work::Witness {
            id: envelope.id,
            creation_time,
        },
        Request::CheckInvariant(ask) => Work::CheckInvariant {
            id: envelope.id,
            ask,
        },
        Request::JudgePredicate(ask) => Work::JudgePredicate {
            id: envelope.id,
            ask,
        },
        Request::DebugPanic => Work::Panic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::PageMessage;

    fn post(w: Work) -> PageMessage {
        match w {
            Work::Post(text) => serde_json::from_str(&text).unwrap(),
            other => panic!("expected a post, got {other:?}"),
        }
    }

    #[test]
    fn answers_cfa_reports_with_diagnostics_or_graphs() {
        let req = r#"{"id":4,"request":{"type":"cfa-report","file":"a.c","source":"int main(void) { return 0 }"}}"#;
        match post(handle(req)) {
            WorkerMessage::Reply {
                id: 4,
                reply: Reply::CfaReport { report },
            } => {
                assert!(!report.ok);
                assert_eq!(
                    report.diagnostics[0].severity,
                    cpa_engine::diag::Severity::Error
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn z3_queries_are_deferred_and_errors_answered() {
        let req = r#"{"id":5,"request":{"type":"z3-query","text":"(check-sat)"}}"#;
        assert!(matches!(
            handle(req),
            Work::Z3 { id: 5, text } if text == "(check-sat)"
        ));
        let r: PageMessage = serde_json::from_str(&z3_reply(5, Err("boom".into()))).unwrap();
        assert!(matches!(
            r,
            WorkerMessage::Reply {
                id: 5,
                reply: Reply::Error { .. }
            }
        ));
        let r: PageMessage = serde_json::from_str(&z3_reply(5, Ok("sat\n".into()))).unwrap();
        assert!(matches!(
            r,
            WorkerMessage::Reply {
                id: 5,
                reply: Reply::Z3Reply { .. }
            }
        ));
    }

    #[test]
    fn malformed_requests_are_answered_when_possible() {
        assert!(matches!(
            post(handle(r#"{"id":6,"request":{"type":"nope"}}"#)),
            WorkerMessage::Reply {
                id: 6,
                reply: Reply::Error { .. }
            }
        ));
        assert!(matches!(
            post(handle("garbage")),
            WorkerMessage::Fatal { .. }
        ));
        assert_eq!(post(Work::Post(ready_json())), WorkerMessage::Ready);
    }

    fn itp_data(name: &str) -> String {
        let path = format!(
            "{}/../solver-bridge/tests/data/itp/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn itp_request(id: u64, script: &str, strategy: &str, log: bool) -> String {
        serde_json::to_string(&RequestEnvelope {
            id,
            request: Request::SmtInterpolate(SmtInterpolate {
                script: script.into(),
                strategy: strategy.into(),
                log,
            }),
        })
        .unwrap()
    }

    /// Runs an `smt-interpolate` request as the worker does, on the native z3.
    fn interpolate_natively(id: u64, script: &str, strategy: &str, log: bool) -> PageMessage {
        match handle(&itp_request(id, script, strategy, log)) {
            Work::Interpolate { id: got, job } => {
                assert_eq!(got, id);
                let z3 = solver_bridge::solver::NativeZ3::new().expect("the tests need z3");
                serde_json::from_str(&interpolate_reply(id, &job, z3)).unwrap()
            }
            Work::Post(text) => serde_json::from_str(&text).unwrap(),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn interpolation_requests_have_a_stable_json_shape() {
        let req = itp_request(2, "(assert false)", "farkas", false);
        assert_eq!(
            req,
            r#"{"id":2,"request":{"type":"smt-interpolate","script":"(assert false)","strategy":"farkas"}}"#
        );
        let with_log: RequestEnvelope = serde_json::from_str(
            r#"{"id":2,"request":{"type":"smt-interpolate","script":"","strategy":"auto","log":true}}"#,
        )
        .unwrap();
        assert!(matches!(
            with_log.request,
            Request::SmtInterpolate(SmtInterpolate { log: true, .. })
        ));
        let reply = reply_json(
            4,
            Reply::SmtInterpolate {
                answer: ItpAnswer::Unsat {
                    interpolants: vec!["(<= x 0)".into()],
                },
                log: None,
            },
        );
        assert_eq!(
            reply,
            r#"{"type":"reply","id":4,"reply":{"type":"smt-interpolate","status":"unsat","interpolants":["(<= x 0)"]}}"#
        );
        let back: PageMessage = serde_json::from_str(&reply).unwrap();
        assert!(matches!(
            back,
            WorkerMessage::Reply {
                id: 4,
                reply: Reply::SmtInterpolate {
                    answer: ItpAnswer::Unsat { .. },
                    log: None
                }
            }
        ));
        let bench: RequestEnvelope =
            serde_json::from_str(r#"{"id":5,"request":{"type":"solver-bench","rounds":20}}"#)
                .unwrap();
        assert_eq!(
            bench.request,
            Request::SolverBench(SolverBench { rounds: 20 })
        );
        assert!(matches!(
            handle(&serde_json::to_string(&bench).unwrap()),
            Work::Bench { id: 5, rounds: 20 }
        ));
        let too_many = r#"{"id":6,"request":{"type":"solver-bench","rounds":100001}}"#;
        assert!(matches!(
            post(handle(too_many)),
            WorkerMessage::Reply {
                id: 6,
                reply: Reply::Error { .. }
            }
        ));
        let negative = r#"{"id":7,"request":{"type":"solver-bench","rounds":-1}}"#;
        assert!(matches!(
            post(handle(negative)),
            WorkerMessage::Reply {
                id: 7,
                reply: Reply::Error { .. }
            }
        ));
    }

    #[test]
    fn interpolates_scripts_like_cpa_itp() {
        // The same lines as `cpa itp loop1.smt2 --strategy farkas` (see cli/src/cmd_itp.rs).
        match interpolate_natively(7, &itp_data("loop1.smt2"), "farkas", false) {
            WorkerMessage::Reply {
                id: 7,
                reply:
                    Reply::SmtInterpolate {
                        answer: ItpAnswer::Unsat { interpolants },
                        log: None,
                    },
            } => assert_eq!(interpolants, ["(<= x@0 0)", "(<= x@1 1)", "false"]),
            other => panic!("{other:?}"),
        }
        match interpolate_natively(8, &itp_data("ssa_simple.smt2"), "backward-qe", true) {
            WorkerMessage::Reply {
                id: 8,
                reply:
                    Reply::SmtInterpolate {
                        answer: ItpAnswer::Unsat { interpolants },
                        log: Some(log),
                    },
            } => {
                assert_eq!(interpolants, ["(< x0 5)", "(<= x1 5)"]);
                assert!(log[0].query.starts_with("(reset)\n"), "{log:?}");
                // (A solving round trip's reply is framed by the work probes' counts.)
                assert!(log
                    .iter()
                    .any(|q| q.query.contains("(check-sat)")
                        && q.reply.lines().any(|l| l == "unsat")));
            }
            other => panic!("{other:?}"),
        }
        match interpolate_natively(9, &itp_data("sat_path.smt2"), "auto", false) {
            WorkerMessage::Reply {
                reply:
                    Reply::SmtInterpolate {
                        answer: ItpAnswer::Sat { model },
                        ..
                    },
                ..
            } => assert_eq!(
                model,
                ["(define-fun x0 () Int 0)", "(define-fun x1 () Int 1)"]
            ),
            other => panic!("{other:?}"),
        }
        match interpolate_natively(10, &itp_data("disjunctive.smt2"), "farkas", false) {
            WorkerMessage::Reply {
                id: 10,
                reply: Reply::Error { message },
            } => assert!(
                message.starts_with("farkas: strategy not applicable"),
                "{message}"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_scripts_and_strategies_are_error_replies() {
        let deep = format!("(assert {}true{})", "(not ".repeat(5000), ")".repeat(5000));
        let bad = [
            "",
            "garbage",
            "(assert",
            "(assert x)",
            "(declare-fun x () Real)",
            "(declare-const x Int)(declare-const x Bool)",
            "(declare-const x Int)(assert (+ x true))",
            "(declare-fun f (Int) Int)",
            "(push 1)",
            "(assert (forall ((y Int)) (> y 0)))",
            "(assert \"unterminated)",
            "(declare-const |a Int)",
            "(declare-const x (_ BitVec 0))",
            deep.as_str(),
        ];
        for (i, script) in bad.iter().enumerate() {
            match interpolate_natively(i as u64, script, "auto", false) {
                WorkerMessage::Reply { id, reply } if id == i as u64 => match reply {
                    Reply::Error { message } => assert!(!message.is_empty()),
                    // Parsable after all: then it must be a real answer, not a crash.
                    Reply::SmtInterpolate { .. } => {}
                    other => panic!("{script:?}: {other:?}"),
                },
                other => panic!("{script:?}: {other:?}"),
            }
        }
        let nested = |n: usize| {
            format!(
                "(declare-const x Int)(assert (> {}1{} 0))",
                "(+ x ".repeat(n),
                ")".repeat(n)
            )
        };
        match interpolate_natively(97, &nested(MAX_SCRIPT_DEPTH - 2), "auto", false) {
            WorkerMessage::Reply {
                id: 97,
                reply:
                    Reply::SmtInterpolate {
                        answer: ItpAnswer::Sat { .. },
                        ..
                    },
            } => {}
            other => panic!("{other:?}"),
        }
        match interpolate_natively(96, &nested(MAX_SCRIPT_DEPTH - 1), "auto", false) {
            WorkerMessage::Reply {
                id: 96,
                reply: Reply::Error { message },
            } => assert_eq!(
                message,
                format!(
                    "script:1:{}: error: nesting too deep (limit {MAX_SCRIPT_DEPTH})",
                    33 + 5 * (MAX_SCRIPT_DEPTH - 2)
                )
            ),
            other => panic!("{other:?}"),
        }
        match interpolate_natively(99, "(assert false)", "magic", false) {
            WorkerMessage::Reply {
                id: 99,
                reply: Reply::Error { message },
            } => assert!(message.contains("unknown strategy"), "{message}"),
            other => panic!("{other:?}"),
        }
        match interpolate_natively(98, "(assert (> 1 2)))", "auto", false) {
            WorkerMessage::Reply {
                id: 98,
                reply: Reply::Error { message },
            } => assert!(message.starts_with("script:1:"), "{message}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_benchmark_counts_queries_and_uses_the_given_clock() {
        let mut z3 = solver_bridge::solver::NativeZ3::new().expect("the tests need z3");
        // A fake clock that advances 250 us per reading: the timed run is two readings.
        let mut t = 0;
        let mut clock = solver_bridge::solver::FnClock(|| {
            t += 250;
            t
        });
        let r: PageMessage = serde_json::from_str(&bench_reply(3, 4, &mut z3, &mut clock)).unwrap();
        match r {
            WorkerMessage::Reply {
                id: 3,
                reply: Reply::SolverBench { result },
            } => {
                assert_eq!(result.rounds, 4);
                assert_eq!(result.check_sats, 20);
                assert_eq!(result.sat + result.unsat, 20);
                assert!(result.round_trips >= 20, "{result:?}");
                assert_eq!(result.ms, 0.25);
            }
            other => panic!("{other:?}"),
        }
        let r: PageMessage = serde_json::from_str(&bench_reply(
            4,
            1,
            &mut z3,
            &mut solver_bridge::solver::NoClock,
        ))
        .unwrap();
        assert!(matches!(
            r,
            WorkerMessage::Reply {
                id: 4,
                reply: Reply::Error { .. }
            }
        ));
    }
}

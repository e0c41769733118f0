//! The campaign's classification of runs into bugs, on real runs.

use super::child::*;
use super::findings::*;
use super::totals::reason_class;
use cpa_engine::concrete;
use cpa_engine::fuzz::exec::CexStep;
use cpa_engine::fuzz::exec::SequenceOracle;
use cpa_engine::parse_program;

const PROG: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x > 0) { x = x + 1; if (x < 0) reach_error(); }\n  return 0;\n}\n";

fn run(preset: &str, verdict: &str, cex: Option<Vec<CexStep>>) -> RunResult {
    RunResult {
        preset: preset.into(),
        verdict: verdict.into(),
        reason: String::new(),
        seconds: 0.1,
        status: Status::Done,
        cex,
    }
}

fn real_cex(cfa: &cpa_engine::Cfa) -> Vec<CexStep> {
    let mut o = SequenceOracle::new(vec![2147483647]);
    let r = concrete::run(cfa, &mut o, 100);
    assert_eq!(r.outcome, concrete::Outcome::ReachedError);
    r.trace.iter().map(CexStep::from).collect()
}

#[test]
fn a_true_against_a_replaying_counterexample_is_a_wrong_true() {
    let cfa = parse_program("t.c", PROG).unwrap().cfa;
    let runs = vec![
        run("predicate-lbe", "true", None),
        run("bmc", "false", Some(real_cex(&cfa))),
        run("kinduction", "unknown", None),
    ];
    let (bugs, is_false) = classify(&cfa, &runs, None);
    assert!(is_false);
    assert_eq!(bugs.len(), 1);
    assert_eq!(bugs[0].kind, BugKind::WrongTrue);
    assert_eq!(bugs[0].presets, vec!["predicate-lbe".to_string()]);
    assert_eq!(bugs[0].witnesses, vec!["bmc".to_string()]);
    // A concrete run alone is evidence too.
    let (bugs, _) = classify(&cfa, &runs[..1], Some("a run".into()));
    assert_eq!(bugs[0].kind, BugKind::WrongTrue);
    // Agreement is no bug.
    let (bugs, is_false) = classify(
        &cfa,
        &[run("a", "true", None), run("b", "true", None)],
        None,
    );
    assert!(bugs.is_empty() && !is_false);
}

#[test]
fn a_counterexample_that_does_not_replay_is_a_bug_and_no_evidence() {
    let cfa = parse_program("t.c", PROG).unwrap().cfa;
    let mut cex = real_cex(&cfa);
    for s in &mut cex {
        if let Some(x) = s.values.get_mut("x") {
            *x = 5;
        }
    }
    let runs = vec![
        run("predicate-lbe", "true", None),
        run("bmc", "false", Some(cex)),
    ];
    let (bugs, is_false) = classify(&cfa, &runs, None);
    assert!(!is_false);
    assert_eq!(bugs.len(), 1);
    assert_eq!(bugs[0].kind, BugKind::BadCex);
    let (bugs, _) = classify(&cfa, &[run("bmc", "false", None)], None);
    assert_eq!(bugs[0].kind, BugKind::BadCex);
}

#[test]
fn certificate_failures_stuck_runs_and_crashes_are_bugs_slow_runs_are_not() {
    let cfa = parse_program("t.c", PROG).unwrap().cfa;
    let mut cert = run("impact", "unknown", None);
    cert.reason = "internal: certificate check failed".into();
    let mut stuck = run("predicate-lbe", "unknown", None);
    stuck.status = Status::Timeout { stuck: true };
    let mut slow = run("predicate-sbe", "unknown", None);
    slow.status = Status::Timeout { stuck: false };
    let mut crash = run("bmc", "unknown", None);
    crash.status = Status::Crash("signal 6".into());
    let (bugs, _) = classify(&cfa, &[cert, stuck, slow, crash], None);
    let kinds: Vec<BugKind> = bugs.iter().map(|b| b.kind).collect();
    assert_eq!(
        kinds,
        vec![BugKind::Crash, BugKind::Timeout, BugKind::Certificate]
    );
}

#[test]
fn reasons_are_grouped_without_numbers() {
    assert_eq!(
        reason_class("solver query limit of 1500 reached"),
        "solver query limit of N reached"
    );
    assert_eq!(
        reason_class("interpolation: unexpected solver reply (expected a goals answer)"),
        "interpolation: unexpected solver reply"
    );
}

//! `signed-overflow=check` (overflow checks in the CFA, signed operations encoded without
//! wrap-around): programs and the verdict each configuration must give with the real z3.
//! A run that can overflow ends UNKNOWN with the place (never a verdict the wrap-around
//! semantics contradicts); one that cannot is decided as with `wrap`, and its counterexamples
//! name only the original CFA's edges.

mod common;
use common::native_session;

use cpa_engine::config::Config;
use cpa_engine::parse_program;
use cpa_engine::verdict::Verdict;

const HEADER: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n";

/// (name, body of main, expected verdict with check: "true", "false" or "unknown").
const PROGRAMS: &[(&str, &str, &str)] = &[
    // The error needs the wrap-around: wrap finds it, check cannot follow it.
    (
        "overflow-to-error",
        "int x = __VERIFIER_nondet_int(); if (x > 0) { x = x + 1; if (x < 0) reach_error(); } return 0;",
        "unknown",
    ),
    // Bounded inputs: no overflow, so the ideal encoding proves it.
    (
        "bounded-safe",
        "int x = __VERIFIER_nondet_int(); if (x > 0 && x < 1000) { x = x + 1; if (x < 0) reach_error(); } return 0;",
        "true",
    ),
    // A loop whose counter stays below its bound: checks on the way, then the bug.
    (
        "bounded-loop-unsafe",
        "int n = __VERIFIER_nondet_int(); if (n > 100) return 0; int i = 0; int s = 0; while (i < n) { s = s + 2; i++; } if (n > 3 && s == 8) reach_error(); return 0;",
        "false",
    ),
    // Unary minus of INT_MIN is an overflow: unknown, while -x of a bounded x is exact.
    (
        "negation",
        "int x = __VERIFIER_nondet_int(); int y = -x; if (x < 0 && y < 0) reach_error(); return 0;",
        "unknown",
    ),
    (
        "negation-bounded-safe",
        "int x = __VERIFIER_nondet_int(); if (x < -5 && x > -100) { int y = -x; if (y <= 5) reach_error(); } return 0;",
        "true",
    ),
    // An overflow only where C does not evaluate: `x < 100 ? x + 1 : 0`.
    (
        "conditional-safe",
        "int x = __VERIFIER_nondet_int(); int y = x < 100 ? x + 1 : 0; if (y > 100) reach_error(); return 0;",
        "true",
    ),
];

fn run(body: &str, preset: &str, check: bool) -> Verdict {
    let src = format!("{HEADER}int main(void) {{ {body} }}\n");
    let settings: Vec<(&str, &str)> = if check {
        vec![("signed-overflow", "check")]
    } else {
        vec![]
    };
    let config = Config::build(preset, settings).unwrap();
    native_session(&src, config).run().clone()
}

#[test]
fn checked_runs_decide_what_cannot_overflow_and_give_up_where_it_can() {
    let mut failures = Vec::new();
    for (name, body, want) in PROGRAMS {
        for preset in ["predicate-lbe", "impact", "bmc", "kinduction"] {
            let v = run(body, preset, true);
            let got = v.name();
            // BMC cannot prove; k-induction need not.
            let ok =
                got == *want || (got == "unknown" && (preset == "bmc" || preset == "kinduction"));
            if !ok {
                failures.push(format!("{name} {preset}: {got} (want {want}) {v:?}"));
            }
            if let Verdict::Unknown { reason } = &v {
                if *want == "unknown" && preset == "predicate-lbe" {
                    assert!(
                        reason.contains("signed overflow at line"),
                        "{name}: {reason}"
                    );
                }
            }
            if let Verdict::False { counterexample } = &v {
                let src = format!("{HEADER}int main(void) {{ {body} }}\n");
                let cfa = parse_program("t.c", &src).unwrap().cfa;
                assert!(
                    counterexample
                        .trace
                        .iter()
                        .all(|s| (s.edge as usize) < cfa.edges.len()),
                    "{name} {preset}: the counterexample names a check's edge"
                );
                assert!(counterexample
                    .trace
                    .last()
                    .unwrap()
                    .op
                    .contains("reach_error"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The wrap-around semantics is unchanged by the knob's existence: the default finds the bug
/// that needs an overflow.
#[test]
fn wrap_is_the_default_and_follows_the_overflow() {
    let (_, body, _) = PROGRAMS[0];
    assert_eq!(run(body, "predicate-lbe", false).name(), "false");
    let c = Config::build("value", [("signed-overflow", "check")]);
    assert!(c.is_err_and(|e| e.contains("signed-overflow=check is for")));
}

//! The error locations of the three specifications (`Spec`): the playground's default, SV-COMP's
//! `unreach-call` and the older `unreach-label`, each program under each, with the real z3.

use cpa_engine::config::Config;
use cpa_engine::frontend::{parse_program_for, Spec};
use cpa_engine::session::Session;
use cpa_engine::smt::BridgeSmt;
use cpa_engine::verdict::Verdict;
use solver_bridge::solver::NativeZ3;
use std::rc::Rc;

fn verdict(src: &str, spec: Spec, preset: &str) -> &'static str {
    let parsed = parse_program_for("t.c", src, spec).expect("parses");
    let smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
    let mut session = Session::new(
        Rc::new(parsed.cfa),
        Config::preset(preset).unwrap(),
        Box::new(smt),
    );
    match session.run() {
        Verdict::True => "true",
        Verdict::False { .. } => "false",
        Verdict::Unknown { .. } => "unknown",
    }
}

/// Each program, and its verdict under (default, unreach-call, unreach-label).
const CASES: [(&str, &str, [&str; 3]); 5] = [
    (
        "only __assert_fail fails",
        "extern void __assert_fail(const char *, const char *, unsigned, const char *);
         extern int __VERIFIER_nondet_int(void);
         extern void reach_error(void);
         int main(void) { int x = __VERIFIER_nondet_int();
           if (x == 5) __assert_fail(\"x != 5\", \"t.c\", 3, \"main\");
           if (x == 5) reach_error();
           return 0; }",
        ["false", "true", "true"],
    ),
    (
        "assert() aborts under SV-COMP's properties",
        "extern int __VERIFIER_nondet_int(void);
         void assert(int);
         int main(void) { int x = __VERIFIER_nondet_int(); assert(x != 7); return 0; }",
        ["false", "true", "true"],
    ),
    (
        "reach_error() is the target of unreach-call",
        "extern int __VERIFIER_nondet_int(void);
         void reach_error(void) {}
         int main(void) { int x = __VERIFIER_nondet_int(); if (x > 3) reach_error(); return 0; }",
        ["false", "false", "true"],
    ),
    (
        "an ERROR label is the target of unreach-label",
        "extern int __VERIFIER_nondet_int(void);
         int main(void) { int x = __VERIFIER_nondet_int(); if (x > 3) { ERROR: return 1; }
           return 0; }",
        ["true", "true", "false"],
    ),
    (
        "reach_error's body with its ERROR label counts under unreach-label",
        "extern int __VERIFIER_nondet_int(void);
         void reach_error(void) { ERROR: ; }
         int main(void) { int x = __VERIFIER_nondet_int(); if (x == 0) reach_error(); return 0; }",
        ["false", "false", "false"],
    ),
];

#[test]
fn each_spec_has_its_own_error_locations() {
    let specs = [Spec::Errors, Spec::UnreachCall, Spec::UnreachLabel];
    for (name, src, want) in CASES {
        for (spec, want) in specs.iter().zip(want) {
            for preset in ["predicate-lbe", "value", "bmc"] {
                let got = verdict(src, *spec, preset);
                assert_eq!(got, want, "{name}: {spec:?} with {preset}");
            }
        }
    }
}

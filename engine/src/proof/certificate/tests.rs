//! The certificate check on real runs: batches under a lower resource limit, proofs of the
//! CEGAR presets, and tampered ARGs that must fail.

use super::*;
use crate::algorithm::cegar::Cegar;
use crate::cpa::algorithm::Algorithm;
use crate::cpa::arg::ArgId;
use crate::domains::predicate::Abs;
use crate::session::config::Config;
use crate::smt::BridgeSmt;
use crate::smt::Smt;
use solver_bridge::solver::NativeZ3;
use std::rc::Rc;

/// A batch is asked under at most [`CERTIFICATE_BATCH_RLIMIT`], and the session's limit
/// is in force again afterwards (real Z3: the limit is part of the context's state).
#[test]
fn batches_run_under_a_lower_resource_limit() {
    let mut smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
    let any = Term::bool(false);
    for session in [Some(5_000_000), None, Some(1_000)] {
        smt.set_resource_limit(session).unwrap();
        assert_eq!(check_batch(&mut smt, &any).unwrap(), Sat::Unsat);
        assert_eq!(smt.resource_limit(), session);
    }
    // Under the lower limit, a batch the session's limit decides can come back unknown
    // (the obligations are then checked one by one): 40 products, beyond 500,000 steps.
    let xs: Vec<Term> = (0..40)
        .map(|i| Term::new_var(format!("x{i}"), solver_bridge::term::Sort::BitVec(32)))
        .collect();
    let hard = Term::and(xs.windows(2).map(|w| {
        Term::eq(
            Term::apply(
                solver_bridge::term::Op::BvMul,
                vec![w[0].clone(), w[1].clone()],
            ),
            Term::bv(0xdead_beef, 32),
        )
    }));
    smt.set_resource_limit(Some(5_000_000_000)).unwrap();
    assert!(matches!(
        check_batch(&mut smt, &hard).unwrap(),
        Sat::Unknown(_)
    ));
    assert_eq!(smt.resource_limit(), Some(5_000_000_000));
}

/// A CEGAR run of `preset` to its TRUE (which the check passed): the gcd example for the
/// predicate presets, the unifying-view paper's Fig. 2 program for IMPACT (which cannot
/// interpolate gcd's paths yet).
fn proved(preset: &str) -> Cegar<PredicateCpa> {
    let src = if preset == "impact" {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/verdicts/unifying-fig2.c"
        ))
    } else {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/gcd.c"))
    };
    let cfa = Rc::new(crate::frontend::parse_program("t.c", src).unwrap().cfa);
    let config = Config::preset(preset).unwrap();
    let mut smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
    smt.set_interpolation(config.interpolation);
    smt.set_resource_limit(Some(config.limits.solver_rlimit))
        .unwrap();
    let mut c = crate::session::build::predicate_cegar(cfa, &config, Box::new(smt));
    let mut events = Vec::new();
    for _ in 0..10_000 {
        if let Some(v) = c.step(&mut events).unwrap() {
            assert_eq!(v, Verdict::True, "{preset}");
            let last = events.last().unwrap();
            assert!(
                matches!(last, Event::Certificate { valid: true, .. }),
                "{last:?}"
            );
            return c;
        }
    }
    panic!("{preset}: no verdict");
}

type Build<C> = fn(Rc<Cfa>, &Config, Box<dyn Smt>) -> Cegar<C>;

/// `build`'s analysis of `src` with the preset `value`, run to TRUE.
fn prove_with_values<C: Describe>(src: &str, build: Build<C>) -> Cegar<C> {
    prove_with("value", src, build)
}

/// `build`'s analysis of `src` with `preset`, run to TRUE.
fn prove_with<C: Describe>(preset: &str, src: &str, build: Build<C>) -> Cegar<C> {
    let cfa = Rc::new(crate::frontend::parse_program("t.c", src).unwrap().cfa);
    let config = Config::preset(preset).unwrap();
    let mut smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
    smt.set_interpolation(config.interpolation);
    let mut c = build(cfa, &config, Box::new(smt));
    let mut events = Vec::new();
    for _ in 0..10_000 {
        if let Some(v) = c.step(&mut events).unwrap() {
            assert_eq!(v, Verdict::True);
            return c;
        }
    }
    panic!("no verdict");
}

/// A value-analysis proof of the lock-style program.
fn proved_by_values() -> Cegar<ValueCpa> {
    prove_with_values(
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/verdicts/locks-value-safe.c"
        )),
        crate::session::build::value_cegar,
    )
}

/// A value ARG is a certificate, and a wrong value or a forgotten state breaks it.
#[test]
fn value_args_are_checked() {
    let mut c = proved_by_values();
    let (cpa, smt, algo) = c.parts();
    let r = check(cpa, smt, algo).unwrap();
    assert_eq!(r.failure, None);
    assert!(r.states >= 5 && r.queries >= 1, "{r:?}");
    let with_values: Vec<ArgId> = c
        .arg()
        .reached()
        .into_iter()
        .filter(|id| !c.arg().node(*id).data.values.is_empty())
        .collect();
    assert!(!with_values.is_empty());
    for &victim in with_values.iter().take(4) {
        // A wrong value at every reached state of the victim's control state.
        let mut c = proved_by_values();
        let place = c.arg().reached_at(&c.arg().node(victim).ctl);
        let (cpa, smt, algo) = c.parts();
        for s in place {
            for v in algo.arg.node_mut(s).data.values.values_mut() {
                *v += 1;
            }
        }
        assert!(
            check(cpa, smt, algo).unwrap().failure.is_some(),
            "value changed at {victim:?}"
        );
        // Forgotten.
        let mut c = proved_by_values();
        let place = c.arg().reached_at(&c.arg().node(victim).ctl);
        let (cpa, smt, algo) = c.parts();
        algo.arg.remove(&place);
        assert!(
            check(cpa, smt, algo).unwrap().failure.is_some(),
            "{victim:?} removed"
        );
    }
}

/// A symbolic-execution proof of a loop that tests `y % 2` in every iteration.
fn proved_symbolically() -> Cegar<crate::domains::symbolic::SymbolicCpa> {
    let src = "extern unsigned int __VERIFIER_nondet_uint(void);\n\
        extern void reach_error(void);\n\
        int main(void) { unsigned int x = 0; unsigned int y = __VERIFIER_nondet_uint();\n\
        while (x < 9) { if (y % 2 == 0) { x += 2; } else { x++; } }\n\
        if (!((x % 2) == (y % 2))) reach_error(); return 0; }";
    prove_with("symbolic", src, crate::session::build::symbolic_cegar)
}

/// Symbolic states' invariants quantify their identifiers; the claim about a successor
/// the ARG reached leaves the identifiers it shares with its predecessor free. A false
/// constraint at the states of one location (their invariant becomes false) breaks the
/// check at every location with a constraint.
#[test]
fn symbolic_args_are_checked() {
    let mut c = proved_symbolically();
    let (cpa, smt, algo) = c.parts();
    let r = check(cpa, smt, algo).unwrap();
    assert_eq!(r.failure, None);
    assert!(r.states >= 10, "{r:?}");
    let constrained: BTreeSet<ControlState> = c
        .arg()
        .reached()
        .into_iter()
        .filter(|id| !c.arg().node(*id).data.constraints.is_empty())
        .map(|id| c.arg().node(id).ctl.clone())
        .collect();
    assert!(constrained.len() >= 3, "{constrained:?}");
    for ctl in &constrained {
        let mut c = proved_symbolically();
        let place = c.arg().reached_at(ctl);
        let (cpa, smt, algo) = c.parts();
        for s in place {
            let d = &mut algo.arg.node_mut(s).data;
            d.constraints.insert(Term::ff(), BTreeSet::new());
        }
        assert!(
            check(cpa, smt, algo).unwrap().failure.is_some(),
            "false at {ctl:?}"
        );
    }
}

/// A proof of the combination of explicit values and predicate abstraction.
fn proved_by_values_and_predicates() -> Cegar<crate::domains::value_predicate::ValuePredicateCpa> {
    prove_with_values(
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/value/value-predicate-safe.c"
        )),
        crate::session::build::value_predicate_cegar,
    )
}

/// The combination's certificate conjoins the values and ψ of each abstraction state: a
/// wrong value, or ψ = false, at a reached loop-head state breaks it.
#[test]
fn value_predicate_args_are_checked() {
    let mut c = proved_by_values_and_predicates();
    let (cpa, smt, algo) = c.parts();
    let r = check(cpa, smt, algo).unwrap();
    assert_eq!(r.failure, None);
    let heads: Vec<ArgId> = c
        .arg()
        .reached()
        .into_iter()
        .filter(|id| {
            let n = c.arg().node(*id);
            id.0 != 0 && n.data.pred.is_abstraction() && !n.data.value.values.is_empty()
        })
        .collect();
    assert!(!heads.is_empty(), "no abstraction state knows a value");
    let (cpa, _, algo) = c.parts();
    assert!(
        algo.arg.reached().into_iter().any(|id| {
            let n = &algo.arg.node(id).data;
            n.pred.is_abstraction() && !cpa.pred.abs_term(&n.pred.abs).is_true()
        }),
        "no abstraction state has a predicate"
    );
    for &victim in heads.iter().take(3) {
        let mut c = proved_by_values_and_predicates();
        let place = c.arg().reached_at(&c.arg().node(victim).ctl);
        let (cpa, smt, algo) = c.parts();
        for s in &place {
            for v in algo.arg.node_mut(*s).data.value.values.values_mut() {
                *v += 1;
            }
        }
        assert!(
            check(cpa, smt, algo).unwrap().failure.is_some(),
            "value changed at {victim:?}"
        );
        let mut c = proved_by_values_and_predicates();
        let place = c.arg().reached_at(&c.arg().node(victim).ctl);
        let (cpa, smt, algo) = c.parts();
        for s in &place {
            algo.arg.node_mut(*s).data.pred.abs = Abs::Bdd(cpa.pred.table.bdd_false());
        }
        assert!(
            check(cpa, smt, algo).unwrap().failure.is_some(),
            "psi = false at {victim:?}"
        );
    }
}

/// Reached abstraction states other than the root, in id order.
fn inner_states(c: &Cegar<PredicateCpa>) -> Vec<ArgId> {
    c.arg()
        .reached()
        .into_iter()
        .filter(|id| id.0 != 0 && c.arg().node(*id).data.is_abstraction())
        .collect()
}

#[test]
fn a_final_arg_is_a_certificate() {
    for preset in ["predicate-lbe", "predicate-sbe", "impact"] {
        let mut c = proved(preset);
        let (cpa, smt, algo) = c.parts();
        let r = check(cpa, smt, algo).unwrap();
        assert_eq!(r.failure, None, "{preset}");
        assert!(
            r.states >= 2 && r.blocks >= r.states && r.queries >= 1,
            "{r:?}"
        );
    }
}

/// Each way of breaking the proof is caught: a reached state forgotten, an unsound
/// strengthening, the initial state not covered, an error state left in the ARG.
#[test]
fn a_tampered_arg_fails_the_check() {
    let strengthen_false = |c: &mut Cegar<PredicateCpa>, id: ArgId| {
        let (cpa, _, algo) = c.parts();
        let f = match &algo.arg.node(id).data.abs {
            Abs::Bdd(_) => Abs::Bdd(cpa.table.bdd_false()),
            Abs::Smt(_) => Abs::Smt(Term::ff()),
        };
        algo.arg.node_mut(id).data.abs = f;
    };
    // The check's verdict on a proof of `preset` after `tamper`.
    let failure_after = |preset: &str, tamper: &dyn Fn(&mut Cegar<PredicateCpa>)| {
        let mut c = proved(preset);
        tamper(&mut c);
        let (cpa, smt, algo) = c.parts();
        check(cpa, smt, algo).unwrap().failure
    };
    for preset in ["predicate-lbe", "impact"] {
        let inner = inner_states(&proved(preset));
        assert!(!inner.is_empty());
        for &victim in inner.iter().take(3) {
            // Forgotten: the state leaves the ARG (and the reached set), with every other
            // state at its place (one of them may subsume it, which leaves a valid proof).
            let forget = |c: &mut Cegar<PredicateCpa>| {
                let arg = &mut c.parts().2.arg;
                let place = arg.reached_at(&arg.node(victim).ctl);
                arg.remove(&place);
            };
            assert!(
                failure_after(preset, &forget).is_some(),
                "{preset}: removing {victim:?}"
            );
            // Unsoundly strengthened to `false` (as a wrong interpolant would), with every
            // other state at its place.
            let strengthen = |c: &mut Cegar<PredicateCpa>| {
                let arg = &c.arg();
                for s in arg.reached_at(&arg.node(victim).ctl) {
                    strengthen_false(c, s);
                }
            };
            assert!(
                failure_after(preset, &strengthen).is_some(),
                "{preset}: ψ({victim:?}) := false"
            );
        }
        // The initial state's ψ is no longer `true`.
        let root = |c: &mut Cegar<PredicateCpa>| strengthen_false(c, ArgId(0));
        assert_eq!(
            failure_after(preset, &root).as_deref(),
            Some("the initial state is not covered")
        );
    }
    // A reached state at an error location.
    let mut c = proved("predicate-lbe");
    let (cpa, smt, algo) = c.parts();
    let error = cpa.cfa.nodes.iter().find(|n| n.is_error()).unwrap().id;
    let mut ctl = algo.control.initial(&cpa.cfa);
    ctl.location = error;
    let data = cpa.initial_at(&ctl);
    let cfa = cpa.cfa.clone();
    let prec = algo.arg.node(ArgId(0)).prec.clone();
    algo.arg.add(
        &cfa,
        ctl,
        data,
        prec,
        vec![(ArgId(0), crate::cfa::EdgeId(0))],
        None,
    );
    let r = check(cpa, smt, algo).unwrap();
    assert!(r.failure.unwrap().contains("error location"));
}

//! Interpolation against the real native z3: data files, hand-written SSA paths, the loop
//! example, disjunctive blocks, and a few hundred seeded random problems. Every result goes
//! through the checker (`interpolate_checked`), and the checker itself is shown to reject bad
//! sequences.

mod common;

use common::{int_term, loop_path, show, z3, Rng};
use solver_bridge::context::{SatResult, SmtContext};
use solver_bridge::itp::{
    backward_binary, binary_interpolant, check_binary, check_sequence, forward_binary, interpolate,
    interpolate_checked, ItpError, Strategy,
};
use solver_bridge::parse::parse_script;
use solver_bridge::solver::{NativeZ3, Recording, Replay, Solver};
use solver_bridge::term::{Sort, Term};
use std::path::Path;

fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// `; key: value` lines at the top of a data file.
fn header(text: &str, key: &str) -> Option<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(';'))
        .filter_map(|l| l.trim().strip_prefix(&format!("{key}:")))
        .map(|v| v.trim().to_string())
        .next()
}

#[test]
fn data_files() {
    let mut ctx = z3();
    let mut files: Vec<_> = std::fs::read_dir(data_dir().join("itp"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "smt2"))
        .collect();
    files.sort();
    assert!(files.len() >= 8);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let status = header(&text, "status").expect("status header");
        let farkas_na = header(&text, "farkas").as_deref() == Some("not-applicable");
        let qe_may_fail = header(&text, "qe").as_deref() == Some("may-fail");
        let script = parse_script(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let phis: Vec<Term> = script.assertions.iter().map(|a| a.term.clone()).collect();
        for s in Strategy::ALL {
            let r = interpolate_checked(&mut ctx, &phis, s);
            println!(
                "{name} [{s}]: {}",
                match &r {
                    Ok(t) => show(t),
                    Err(e) => format!("error: {e}"),
                }
            );
            match (status.as_str(), r) {
                ("sat", Err(ItpError::Satisfiable)) => {}
                ("sat", Err(ItpError::NotApplicable(_))) if is_farkas(s) => {}
                ("sat", other) => panic!("{name} [{s}]: expected Satisfiable, got {other:?}"),
                ("unsat", Ok(_)) => {
                    // The header speaks of plain Farkas (case splitting may apply).
                    assert!(
                        !(s == Strategy::Farkas && farkas_na),
                        "{name}: farkas applied"
                    )
                }
                ("unsat", Err(ItpError::NotApplicable(_))) if is_farkas(s) && farkas_na => {}
                ("unsat", Err(ItpError::Solver(_) | ItpError::Unknown(_)))
                    if qe_may_fail && !is_farkas(s) =>
                {
                    ctx.reset().unwrap();
                }
                (st, other) => panic!("{name} [{s}] ({st}): {other:?}"),
            }
            assert!(ctx.assertion_count() == 0 || ctx.is_poisoned());
        }
    }
}

#[test]
fn hand_written_ssa_paths() {
    let mut ctx = z3();
    let v = ["x0", "x1", "x2", "y0", "y1"];
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        // (path, expected Farkas interpolants tau_1..tau_(n-1))
        (
            vec!["(= x0 0)", "(= x1 (+ x0 1))", "(> x1 5)"],
            vec!["(<= x0 0)", "(<= x1 1)"],
        ),
        (
            vec!["(and (= x0 0) (= y0 10))", "(= x1 (+ x0 y0))", "(< x1 5)"],
            vec!["(>= (+ x0 y0) 10)", "(>= x1 10)"],
        ),
        (
            vec![
                "(>= x0 3)",
                "(= x1 (* 2 x0))",
                "(= x2 (- x1 1))",
                "(<= x2 4)",
            ],
            vec!["(>= x0 3)", "(>= x1 6)", "(>= x2 5)"],
        ),
        (
            vec!["(< x0 y0)", "(= y1 (+ y0 1))", "(< y1 x0)"],
            vec![
                "(<= (+ x0 (* (- 1) y0)) (- 1))",
                "(<= (+ x0 (* (- 1) y1)) (- 2))",
            ],
        ),
    ];
    for (path, expected) in cases {
        let phis: Vec<Term> = path.iter().map(|p| int_term(p, &v)).collect();
        for s in Strategy::ALL {
            let taus = interpolate_checked(&mut ctx, &phis, s)
                .unwrap_or_else(|e| panic!("{path:?} [{s}]: {e}"));
            println!("{path:?} [{s}]: {}", show(&taus));
            if s == Strategy::Farkas {
                let got: Vec<String> = taus[1..phis.len()].iter().map(|t| t.to_string()).collect();
                assert_eq!(got, expected, "{path:?}");
            }
        }
    }
}

fn is_farkas(s: Strategy) -> bool {
    matches!(s, Strategy::Farkas | Strategy::FarkasCases)
}

#[test]
fn loop_paths_one_and_three_iterations() {
    let mut ctx = z3();
    let expected_farkas = [
        (1, "true | (<= x@0 0) | (<= x@1 1) | false | false"),
        (
            3,
            "true | (<= x@0 0) | (<= x@1 1) | (<= x@2 2) | (<= x@3 3) | false | false",
        ),
    ];
    for (iterations, farkas) in expected_farkas {
        let phis = loop_path(iterations);
        println!("loop, {iterations} iteration(s): {}", show(&phis));
        for s in Strategy::ALL {
            let taus = interpolate_checked(&mut ctx, &phis, s)
                .unwrap_or_else(|e| panic!("{iterations} [{s}]: {e}"));
            println!("  [{s}] {}", show(&taus));
            if matches!(s, Strategy::Farkas | Strategy::FarkasCases | Strategy::Auto) {
                assert_eq!(show(&taus), farkas);
            }
            // Deterministic: the same call gives the same interpolants.
            let again = interpolate_checked(&mut ctx, &phis, s).unwrap();
            assert_eq!(taus, again);
        }
    }
}

#[test]
fn disjunctive_blocks() {
    let mut ctx = z3();
    let v = ["x0", "x1", "x2", "y0", "y1"];
    let paths = [
        vec![
            "(= x0 0)",
            "(or (and (> y0 0) (= x1 (+ x0 1))) (and (<= y0 0) (= x1 (+ x0 2))))",
            "(or (and (> x1 1) (= x2 x1)) (and (<= x1 1) (= x2 (- x1 1))))",
            "(< x2 0)",
        ],
        vec![
            "(and (>= x0 0) (<= x0 3))",
            "(= x1 (ite (> x0 1) (- x0 2) (+ x0 2)))",
            "(or (< x1 0) (> x1 4))",
        ],
        vec![
            "(or (= x0 1) (= x0 3) (= x0 5))",
            "(= x1 (* 2 x0))",
            "(or (= x1 4) (> x1 10))",
        ],
    ];
    for path in paths {
        let phis: Vec<Term> = path.iter().map(|p| int_term(p, &v)).collect();
        for s in Strategy::ALL {
            let r = interpolate_checked(&mut ctx, &phis, s);
            println!(
                "{path:?} [{s}]: {}",
                match &r {
                    Ok(t) => show(t),
                    Err(e) => format!("error: {e}"),
                }
            );
            match r {
                Ok(_) => assert_ne!(s, Strategy::Farkas, "Farkas on a disjunction"),
                Err(ItpError::NotApplicable(_)) if s == Strategy::Farkas => {}
                Err(e) => panic!("{path:?} [{s}]: {e}"),
            }
        }
    }
}

#[test]
fn binary_interpolants_forward_and_backward() {
    let mut ctx = z3();
    let phis = loop_path(3);
    for s in [
        Strategy::Farkas,
        Strategy::ForwardQe,
        Strategy::BackwardQe,
        Strategy::Auto,
    ] {
        let fw = forward_binary(&mut ctx, &phis, s).unwrap();
        let bw = backward_binary(&mut ctx, &phis, s).unwrap();
        println!("forward binary [{s}]: k = {}, I = {}", fw.k, fw.interpolant);
        println!(
            "backward binary [{s}]: k = {}, I = {}",
            bw.k, bw.interpolant
        );
        // Longest feasible prefix: everything but the loop exit; shortest infeasible suffix
        // starts at the loop exit.
        assert_eq!(fw.k, 4);
        assert_eq!(bw.k, 4);
        for split in [fw, bw] {
            check_binary(
                &mut ctx,
                &phis[..split.k],
                &phis[split.k..],
                &split.interpolant,
            )
            .unwrap_or_else(|e| panic!("[{s}] {e}"));
        }
        let i = binary_interpolant(&mut ctx, &phis[..2], &phis[2..], s).unwrap();
        check_binary(&mut ctx, &phis[..2], &phis[2..], &i).unwrap();
    }
    let sat = vec![int_term("(> x0 0)", &["x0"])];
    assert_eq!(
        forward_binary(&mut ctx, &sat, Strategy::Auto),
        Err(ItpError::Satisfiable)
    );
}

#[test]
fn the_checker_rejects_wrong_sequences() {
    let mut ctx = z3();
    let phis = loop_path(1);
    let good = interpolate_checked(&mut ctx, &phis, Strategy::Farkas).unwrap();
    let v = ["x@0", "x@1"];
    let mut bad_cases: Vec<(String, Vec<Term>)> = Vec::new();
    let mut not_inductive = good.clone();
    not_inductive[2] = int_term("(<= x@1 0)", &v);
    bad_cases.push(("not inductive".into(), not_inductive));
    let mut too_weak = good.clone();
    too_weak[3] = Term::tt();
    bad_cases.push((
        "tau_3 = true cannot refute phi_4? (it can't be true)".into(),
        too_weak,
    ));
    let mut non_shared = good.clone();
    non_shared[2] = int_term("(and (<= x@1 1) (<= x@0 0))", &v);
    bad_cases.push(("non-shared variable".into(), non_shared));
    let mut first = good.clone();
    first[0] = int_term("(<= x@0 5)", &v);
    bad_cases.push(("tau_0 not true".into(), first));
    let mut last = good.clone();
    last[4] = int_term("(< x@1 0)", &v);
    bad_cases.push(("tau_n not false".into(), last));
    bad_cases.push(("too short".into(), good[..4].to_vec()));
    let mut quantified = good.clone();
    quantified[1] = int_term("(exists ((z Int)) (and (= x@0 z) (<= z 0)))", &v);
    bad_cases.push(("quantifier".into(), quantified));
    for (what, taus) in bad_cases {
        let r = check_sequence(&mut ctx, &phis, &taus);
        assert!(matches!(r, Err(ItpError::Invalid(_))), "{what}: {r:?}");
    }
    check_sequence(&mut ctx, &phis, &good).unwrap();
    // A context with assertions is refused rather than used.
    ctx.assert(&int_term("(> x@0 100)", &v)).unwrap();
    assert!(matches!(
        interpolate(&mut ctx, &phis, Strategy::Auto),
        Err(ItpError::BadInput(_))
    ));
    assert!(matches!(
        interpolate(&mut ctx, &[Term::new_var("x@0", Sort::Int)], Strategy::Auto),
        Err(ItpError::BadInput(_))
    ));
}

/// A linear atom over `vars` with small coefficients.
fn random_atom(rng: &mut Rng, vars: &[String]) -> String {
    let k = rng.range(1, 2.min(vars.len() as i64)) as usize;
    let mut sum = Vec::new();
    for _ in 0..k {
        let v = rng.pick(vars);
        let c = *rng.pick(&[-3i64, -2, -1, 1, 1, 2, 3]);
        sum.push(if c < 0 {
            format!("(* (- {}) {v})", -c)
        } else {
            format!("(* {c} {v})")
        });
    }
    let lhs = if sum.len() == 1 {
        sum.remove(0)
    } else {
        format!("(+ {})", sum.join(" "))
    };
    let c = rng.range(-8, 8);
    let rhs = if c < 0 {
        format!("(- {})", -c)
    } else {
        c.to_string()
    };
    let rel = rng.pick(&["<=", "<", ">=", ">", "=", "<=", ">="]);
    let atom = format!("({rel} {lhs} {rhs})");
    if rng.chance(15) && *rel != "=" {
        format!("(not {atom})")
    } else {
        atom
    }
}

/// A path-like sequence: block `i` talks about the SSA variables of steps `i` and `i+1`.
fn random_problem(rng: &mut Rng, disjunctive: bool) -> (Vec<String>, Vec<String>) {
    let n = rng.range(2, 5) as usize;
    let bases = ["a", "b"];
    let all: Vec<String> = (0..=n)
        .flat_map(|i| bases.iter().map(move |b| format!("{b}{i}")))
        .collect();
    let mut blocks = Vec::new();
    for i in 0..n {
        let local: Vec<String> = bases
            .iter()
            .flat_map(|b| [format!("{b}{i}"), format!("{b}{}", i + 1)])
            .collect();
        let conj = |rng: &mut Rng| {
            let m = rng.range(1, 3);
            let atoms: Vec<String> = (0..m).map(|_| random_atom(rng, &local)).collect();
            format!("(and {})", atoms.join(" "))
        };
        if disjunctive && rng.chance(60) {
            let k = rng.range(2, 3);
            let parts: Vec<String> = (0..k).map(|_| conj(rng)).collect();
            blocks.push(format!("(or {})", parts.join(" ")));
        } else {
            blocks.push(conj(rng));
        }
    }
    (all, blocks)
}

/// True if the formulas are satisfiable over the reals (a separate z3 process, raw text).
fn rationally_satisfiable(z: &mut NativeZ3, vars: &[String], blocks: &[Term]) -> bool {
    let mut q = String::from("(reset)\n");
    for v in vars {
        q.push_str(&format!("(declare-fun {v} () Real)\n"));
    }
    for b in blocks {
        q.push_str(&format!("(assert {b})\n"));
    }
    q.push_str("(check-sat)\n");
    let r = z.eval(&q).unwrap();
    assert!(r == "sat" || r == "unsat", "{r}");
    r == "sat"
}

fn random_suite(seed: u64, disjunctive: bool, wanted: usize) {
    let mut rng = Rng::new(seed);
    let mut ctx = z3();
    let mut reals = NativeZ3::new().unwrap();
    let (mut unsat, mut tries) = (0, 0);
    let mut farkas_ok = 0;
    let mut cases_ok = 0;
    while unsat < wanted {
        tries += 1;
        assert!(
            tries < 50 * wanted,
            "too few unsatisfiable problems generated"
        );
        let (vars, texts) = random_problem(&mut rng, disjunctive);
        let refs: Vec<&str> = vars.iter().map(|s| s.as_str()).collect();
        let phis: Vec<Term> = texts.iter().map(|t| int_term(t, &refs)).collect();
        let all = Term::and(phis.iter().cloned());
        match ctx.check_sat_of(&all).unwrap() {
            SatResult::Sat => {
                assert_eq!(
                    interpolate(&mut ctx, &phis, Strategy::Auto),
                    Err(ItpError::Satisfiable),
                    "{texts:?}"
                );
                continue;
            }
            SatResult::Unsat => unsat += 1,
            SatResult::Unknown(r) => panic!("unknown: {r}"),
        }
        for s in Strategy::ALL {
            match interpolate_checked(&mut ctx, &phis, s) {
                Ok(taus) => {
                    cases_ok += usize::from(s == Strategy::FarkasCases);
                    if s == Strategy::Farkas {
                        farkas_ok += 1;
                        assert!(!disjunctive || phis.iter().all(|p| p.disjuncts().len() < 2));
                    }
                    assert_eq!(taus.len(), phis.len() + 1);
                }
                // Some case is rationally satisfiable, or too many cases.
                Err(ItpError::NotApplicable(_)) if s == Strategy::FarkasCases => {}
                Err(ItpError::NotApplicable(why)) if s == Strategy::Farkas => {
                    // Only if there is no certificate: a disjunction, or rationally satisfiable.
                    if !disjunctive {
                        assert!(
                            rationally_satisfiable(&mut reals, &vars, &phis),
                            "Farkas missed a certificate ({why}): {texts:?}"
                        );
                    }
                }
                Err(e) => panic!("[{s}] {e}: {texts:?}"),
            }
        }
    }
    println!(
        "seed {seed}, disjunctive {disjunctive}: {unsat} unsatisfiable problems ({tries} generated), Farkas applied to {farkas_ok}, with cases to {cases_ok}"
    );
    // Splitting only adds cases: wherever plain Farkas applies, so does the split one.
    assert!(cases_ok >= farkas_ok);
    if disjunctive {
        assert!(cases_ok > farkas_ok, "case splitting never helped");
    }
    assert!(
        disjunctive || farkas_ok * 2 > unsat,
        "Farkas applied too rarely"
    );
}

#[test]
fn random_conjunctions() {
    random_suite(2026, false, 200);
}

#[test]
fn random_disjunctions() {
    random_suite(4242, true, 100);
}

/// The query text and the interpolants are deterministic: a stored log replays exactly, with
/// no solver. Set `CPA_UPDATE_REPLAY=1` to rewrite the log after an intended change.
#[test]
fn replayed_interpolation_is_deterministic() {
    let path = data_dir().join("replay/loop3-forward-qe-min.json");
    let phis = loop_path(3);
    let mut live = SmtContext::new(Recording::new(NativeZ3::new().unwrap()));
    let taus = interpolate_checked(&mut live, &phis, Strategy::ForwardQeMin).unwrap();
    let json = live.solver().log().to_json();
    if std::env::var_os("CPA_UPDATE_REPLAY").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &json).unwrap();
    }
    let stored = std::fs::read_to_string(&path).unwrap();
    let mut replay = SmtContext::new(Replay::from_json(&stored).unwrap());
    let replayed =
        interpolate_checked(&mut replay, &phis, Strategy::ForwardQeMin).unwrap_or_else(|e| {
            panic!("replay diverged (rerun with CPA_UPDATE_REPLAY=1 if intended): {e}")
        });
    assert_eq!(taus, replayed);
    assert_eq!(replay.solver().remaining(), 0);
    let _ = replay.solver_mut().eval("(check-sat)").unwrap_err();
}

/// Farkas interpolation asks the solver nothing, but its simplex is work: the context counts
/// its tableau cells into the same budget as the solver's (`SmtContext::charge`), so that a
/// run of many interpolations ends at its work limit like a run of many queries.
#[test]
fn the_farkas_simplex_counts_as_work() {
    let path = loop_path(12);
    let mut ctx = z3();
    ctx.set_work_limit(Some(1));
    let trips = ctx.round_trips();
    // In debug builds the sequence's check would query the solver: refused by the limit that
    // the simplex's charge reached, so nothing reaches the solver in either build.
    let _ = interpolate(&mut ctx, &path, Strategy::Farkas);
    assert_eq!(ctx.round_trips(), trips, "Farkas needs no query");
    assert!(ctx.work() >= 1, "the simplex was not charged");
    assert!(matches!(
        ctx.check_sat(),
        Err(solver_bridge::solver::SolverError::WorkLimit { limit: 1 })
    ));
}

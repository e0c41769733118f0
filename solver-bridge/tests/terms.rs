//! Terms: construction, simplification, printing, parsing, traversals; constant folding
//! checked against Z3.

mod common;

use common::{int_term, z3, Rng, BV_BINARY};
use solver_bridge::context::SatResult;
use solver_bridge::parse::{parse_script, parse_sort, parse_term, Declarations};
use solver_bridge::term::{Literal, Op, Sort, Term, Var};
use std::collections::BTreeMap;

fn decls() -> Declarations {
    let mut d = Declarations::new();
    for (n, s) in [
        ("x", Sort::Int),
        ("y", Sort::Int),
        ("p", Sort::Bool),
        ("q", Sort::Bool),
        ("b", Sort::BitVec(8)),
        ("w", Sort::BitVec(32)),
    ] {
        d.declare(n, s).unwrap();
    }
    d
}

/// (input, printed after parsing with simplification)
const PRINT_CASES: &[(&str, &str)] = &[
    ("(+ x 1 2)", "(+ x 3)"),
    ("(+ 1 2)", "3"),
    ("(- 3 5)", "(- 2)"),
    ("(* 2 (* 3 x))", "(* 6 x)"),
    ("(* 0 x)", "0"),
    ("(* 1 x)", "x"),
    ("(and p true (and q p))", "(and p q)"),
    ("(and p false)", "false"),
    ("(or p (not p))", "true"),
    ("(and p)", "p"),
    ("(or q)", "q"),
    ("(not (not p))", "p"),
    ("(not (<= x 3))", "(> x 3)"),
    ("(=> false p)", "true"),
    ("(=> p false)", "(not p)"),
    ("(= x x)", "true"),
    ("(= 3 4)", "false"),
    ("(= p true)", "p"),
    ("(ite true x y)", "x"),
    ("(ite p x x)", "x"),
    ("(ite p true q)", "(or p q)"),
    ("(ite (not p) x y)", "(ite p y x)"),
    ("(< 1 2 3)", "true"),
    ("(<= x y 3)", "(and (<= x y) (<= y 3))"),
    ("(div (- 7) 2)", "(- 4)"),
    ("(mod (- 7) 2)", "1"),
    ("(div 7 (- 2))", "(- 3)"),
    ("(mod 7 (- 2))", "1"),
    ("(div x 0)", "(div x 0)"),
    ("(abs (- 5))", "5"),
    ("((_ divisible 3) 9)", "true"),
    ("(distinct 1 2 3)", "true"),
    ("(distinct x y)", "(not (= x y))"),
    ("(bvadd #xff #x02)", "#x01"),
    ("(bvudiv #x07 #x00)", "#xff"),
    ("(bvurem #x07 #x00)", "#x07"),
    ("(bvsdiv #xf9 #x02)", "#xfd"),
    ("((_ extract 3 0) #xab)", "#xb"),
    ("((_ sign_extend 4) #xf)", "#xff"),
    ("(concat #b1 #b01)", "#b101"),
    ("(bvadd b #x00)", "(bvadd b #x00)"),
    (
        "(exists ((z Int)) (= x (* 2 z)))",
        "(exists ((z Int)) (= x (* 2 z)))",
    ),
    ("(exists ((z Int)) (> x 0))", "(> x 0)"),
    ("(let ((a (+ x 1)) (x 5)) (> a x))", "(> (+ x 1) 5)"),
    ("|x|", "x"),
    ("(and (<= x 5) (>= x 5))", "(= x 5)"),
    ("(and (<= x 5) (> x 5))", "false"),
    ("(and (<= x 1) p (<= x 10))", "(and (<= x 1) p)"),
    ("(and (< 2 x) (<= x 9) (> x 0))", "(and (>= x 3) (<= x 9))"),
    ("(or (>= x 1) (>= x 2))", "(>= x 1)"),
    ("(or (< x 1) (>= x 1))", "true"),
    ("(or (<= x 3) (>= x 5))", "(or (>= x 5) (<= x 3))"),
    ("(or (= x 0) (>= x 1))", "(or (= x 0) (>= x 1))"),
    (
        "123456789012345678901234567890",
        "123456789012345678901234567890",
    ),
];

#[test]
fn simplification_and_printing() {
    let d = decls();
    let mut failures = Vec::new();
    for (input, expected) in PRINT_CASES {
        match parse_term(input, &d) {
            Ok(t) if t.to_string() == *expected => {}
            Ok(t) => failures.push(format!("{input}: got {t}, expected {expected}")),
            Err(e) => failures.push(format!("{input}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Z3's internal divisions (in quantifier elimination's results) are read as the SMT-LIB
/// operators where the divisor is a non-zero literal, and refused where it may be zero.
#[test]
fn internal_divisions_by_non_zero_literals_are_read() {
    let d = decls();
    for (op, plain) in [
        ("bvudiv_i", "bvudiv"),
        ("bvsrem_i", "bvsrem"),
        ("bvsmod_i", "bvsmod"),
    ] {
        let t = parse_term(&format!("({op} w #xfffffffd)"), &d).unwrap();
        assert_eq!(t.to_string(), format!("({plain} w #xfffffffd)"));
        for divisor in ["w", "#x00000000"] {
            let e = parse_term(&format!("({op} w {divisor})"), &d).unwrap_err();
            assert!(e.to_string().contains("non-zero literal divisor"), "{e}");
        }
    }
}

#[test]
fn printing_round_trips_and_is_deterministic() {
    let mut d = decls();
    d.declare("main::i@3", Sort::Int).unwrap();
    d.declare("|odd name|", Sort::Int).ok();
    for text in [
        "(and (<= (+ x (* (- 2) y)) 7) (or p (not q)))",
        "(= |main::i@3| (+ x 1))",
        "(bvslt ((_ zero_extend 24) b) w)",
        "(forall ((z Int) (u Bool)) (or u (> z x)))",
        "(ite (> x 0) (bvadd w #x00000001) ((_ extract 31 0) (concat w w)))",
    ] {
        let t = parse_term(text, &d).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = t.to_string();
        let again = parse_term(&printed, &d).unwrap_or_else(|e| panic!("{printed}: {e}"));
        assert_eq!(t, again, "{text}");
        assert_eq!(printed, again.to_string());
        assert_eq!(t.cmp(&again), std::cmp::Ordering::Equal);
    }
    assert_eq!(
        Term::new_var("main::i@3", Sort::Int).to_string(),
        "|main::i@3|"
    );
    assert_eq!(Term::new_var("assert", Sort::Int).to_string(), "|assert|");
}

#[test]
fn parse_errors_are_reported_not_panicked() {
    let d = decls();
    for bad in [
        "",
        "(+ x",
        "x)",
        "(+ x p)",
        "(foo x)",
        "(+ x 1) y",
        "1.5",
        "\"s\"",
        "(_ bv5 0)",
        "((_ extract 9 0) b)",
        "(match x ((y 1)))",
        "(as x Int)",
        "(let ((a 1)) )",
        "#x",
        &"(not ".repeat(5000),
    ] {
        assert!(parse_term(bad, &d).is_err(), "accepted {bad:?}");
    }
    assert!(parse_sort("(_ BitVec 8)").is_ok());
    assert!(parse_sort("Real").is_err());
}

#[test]
fn scripts() {
    let s = parse_script(
        "(set-logic QF_LIA)\n(declare-fun x () Int)\n(declare-const p Bool)\n(define-fun two () Int 2)\n(assert (! (> x two) :named a1))\n(assert p)\n(check-sat)\n",
    )
    .unwrap();
    assert_eq!(s.declared.len(), 2);
    assert_eq!(s.assertions.len(), 2);
    assert_eq!(s.assertions[0].term.to_string(), "(> x 2)");
    assert_eq!(s.assertions[0].name.as_deref(), Some("a1"));
    assert_eq!(s.assertions[1].line, 6);
    for (bad, line) in [
        ("(declare-fun x () Int)\n(assert (> x 0)) junk", 2),
        ("(declare-fun f (Int) Int)", 1),
        ("(declare-fun x () Int)\n(declare-fun x () Int)", 2),
        ("(assert (> x 0))", 1),
        ("(declare-fun x () Int)\n(assert x)", 2),
        ("(push 1)", 1),
        ("(declare-fun x () Real)", 1),
    ] {
        let e = parse_script(bad).expect_err(bad);
        assert_eq!(e.line, line, "{bad}: {e}");
    }
}

#[test]
fn free_vars_substitution_renaming_size() {
    let t = int_term(
        "(and (= x@1 (+ x@0 1)) (exists ((z Int)) (> z x@1)))",
        &["x@0", "x@1"],
    );
    let fv: Vec<String> = t.free_vars().iter().map(|v| v.name.to_string()).collect();
    assert_eq!(fv, vec!["x@0", "x@1"]);
    // SSA index shifting.
    let shifted = t.rename(&|v| {
        let (base, idx) = v.name.split_once('@')?;
        Some(format!("{base}@{}", idx.parse::<u32>().ok()? + 5))
    });
    assert_eq!(
        shifted.to_string(),
        "(and (= x@6 (+ x@5 1)) (exists ((z Int)) (> z x@6)))"
    );
    // Substituting literals folds.
    let mut m = BTreeMap::new();
    m.insert(Var::new("x@0", Sort::Int), Term::int(4));
    m.insert(Var::new("x@1", Sort::Int), Term::int(5));
    assert_eq!(t.substitute(&m).to_string(), "(exists ((z Int)) (> z 5))");
    // Capture avoidance: substituting z for x@1 under a binder of z renames the binder.
    let mut m = BTreeMap::new();
    m.insert(Var::new("x@1", Sort::Int), Term::new_var("z", Sort::Int));
    let s = t.substitute(&m);
    assert_eq!(
        s.to_string(),
        "(and (= z (+ x@0 1)) (exists ((z!b0 Int)) (> z!b0 z)))"
    );
    assert_eq!(t.size(), 10);
    let shared = Term::add2(t.args()[0].args()[1].clone(), t.args()[0].args()[1].clone());
    assert!(shared.dag_size() < shared.size() as usize);
    // The bounded count agrees with the full one at every bound.
    for t in [&t, &shared] {
        let d = t.dag_size() as u64;
        for bound in 0..=d + 2 {
            assert_eq!(
                t.dag_size_below(bound),
                d < bound,
                "bound {bound}, dag size {d}"
            );
        }
    }
}

#[test]
fn literals_and_symbols_print_as_smtlib() {
    let big = Term::int(num_bigint::BigInt::from(i64::MIN) * 4);
    let t = Term::and(vec![
        Term::eq(Term::new_var("main::x#1", Sort::Int), Term::int(i64::MIN)),
        Term::eq(Term::new_var("y", Sort::Int), big),
        Term::le(Term::int(-7), Term::new_var("z", Sort::Int)),
        Term::le(Term::new_var("z", Sort::Int), Term::int(i64::MAX)),
    ]);
    assert_eq!(
        t.to_string(),
        "(and (= |main::x#1| (- 9223372036854775808)) (= y (- 36893488147419103232)) \
         (>= z (- 7)) (<= z 9223372036854775807))"
    );
}

#[test]
fn deep_terms_do_not_overflow() {
    let mut t = Term::new_var("x", Sort::Int);
    for i in 0..200_000 {
        t = Term::apply(
            Op::Ite,
            vec![
                Term::new_var(format!("c{}", i % 7), Sort::Bool),
                t,
                Term::int(i),
            ],
        );
    }
    assert!(t.size() > 200_000);
    drop(t);
}

/// Random literal applications folded by the smart constructors must equal the unsimplified
/// application according to Z3.
#[test]
fn constant_folding_agrees_with_z3() {
    let mut rng = Rng::new(7);
    let mut ctx = z3();
    let bv_ops: Vec<Op> = BV_BINARY
        .into_iter()
        .chain([Op::BvUlt, Op::BvSle, Op::BvSgt, Op::BvUge])
        .collect();
    let mut checks = Vec::new();
    for i in 0..400 {
        let w = *rng.pick(&[1u32, 3, 8, 16, 32, 64]);
        let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let special = [0, 1, mask, mask >> 1, (mask >> 1) + 1];
        let val = |rng: &mut Rng| {
            if rng.chance(40) {
                *rng.pick(&special) as u128
            } else {
                (rng.next_u64() & mask) as u128
            }
        };
        let (a, b) = (Term::bv(val(&mut rng), w), Term::bv(val(&mut rng), w));
        let (op, args) = match i % 5 {
            0 => (
                Op::Extract(w - 1, rng.range(0, w as i64 - 1) as u32),
                vec![a],
            ),
            1 => (Op::SignExtend(rng.range(0, 8) as u32), vec![a]),
            2 => (Op::Concat, vec![a, b]),
            _ => (rng.pick(&bv_ops).clone(), vec![a, b]),
        };
        let raw = Term::app_raw(op.clone(), args.clone()).unwrap();
        let folded = Term::app(op, args).unwrap();
        assert!(folded.is_literal(), "not folded: {raw}");
        checks.push((raw, folded));
    }
    for _ in 0..200 {
        let a = Term::int(rng.range(-50, 50));
        let b = Term::int(*rng.pick(&[-7, -3, -1, 1, 2, 5, 13]));
        let op = rng
            .pick(&[Op::Div, Op::Mod, Op::Add, Op::Sub, Op::Mul, Op::Le, Op::Gt])
            .clone();
        let raw = Term::app_raw(op.clone(), vec![a.clone(), b.clone()]).unwrap();
        let folded = Term::app(op, vec![a, b]).unwrap();
        assert!(folded.is_literal(), "not folded: {raw}");
        checks.push((raw, folded));
    }
    // One query for all: the disjunction of disagreements must be unsatisfiable.
    let disagreements: Vec<Term> = checks
        .iter()
        .map(|(r, f)| Term::app_raw(Op::Distinct, vec![r.clone(), f.clone()]).unwrap())
        .collect();
    let any = Term::app_raw(Op::Or, disagreements).unwrap();
    assert_eq!(ctx.check_sat_of(&any).unwrap(), SatResult::Unsat);
    // And each folding individually, in batches, to name the culprit if one is wrong.
    for (r, f) in &checks {
        let d = Term::app_raw(Op::Distinct, vec![r.clone(), f.clone()]).unwrap();
        assert_eq!(
            ctx.check_sat_of(&d).unwrap(),
            SatResult::Unsat,
            "{r} folded to {f}"
        );
    }
}

/// `x rem x` simplifies to 0 (the case x = 0 included: SMT-LIB's remainder by 0 is the
/// dividend); Z3 must agree for every x.
#[test]
fn remainder_of_a_term_by_itself_is_zero() {
    let mut ctx = z3();
    for w in [1u32, 8, 16] {
        let x = Term::new_var(format!("x{w}"), Sort::BitVec(w));
        for op in [Op::BvUrem, Op::BvSrem, Op::BvSmod] {
            let simplified = Term::app(op.clone(), vec![x.clone(), x.clone()]).unwrap();
            assert_eq!(simplified, Term::bv(0, w), "{op:?} at width {w}");
            let raw = Term::app_raw(op.clone(), vec![x.clone(), x.clone()]).unwrap();
            let d = Term::app_raw(Op::Distinct, vec![raw.clone(), simplified]).unwrap();
            assert_eq!(ctx.check_sat_of(&d).unwrap(), SatResult::Unsat, "{raw}");
        }
    }
    // Different operands are left alone.
    let (x, y) = (
        Term::new_var("x", Sort::BitVec(8)),
        Term::new_var("y", Sort::BitVec(8)),
    );
    assert!(!Term::app(Op::BvSrem, vec![x, y]).unwrap().is_literal());
}

/// A random element of `xs`.
fn pick<T: Clone>(r: &mut Rng, xs: &[T]) -> T {
    r.pick(xs).clone()
}

fn random_int(r: &mut Rng, depth: u32, vars: &[Term]) -> Term {
    if depth == 0 || r.chance(25) {
        return match r.next_u64() % 3 {
            0 => Term::int((r.next_u64() % 11) as i64 - 5),
            1 => Term::int(pick(r, &[i64::MAX, -(1i64 << 40), 1 << 31, 2147483648, -7])),
            _ => pick(r, vars),
        };
    }
    let a = random_int(r, depth - 1, vars);
    let b = random_int(r, depth - 1, vars);
    let op = pick(
        r,
        &[
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Div,
            Op::Mod,
            Op::Neg,
            Op::Abs,
            Op::Ite,
            Op::Bv2Nat,
        ],
    );
    match op {
        Op::Neg | Op::Abs => Term::apply(op, vec![a]),
        Op::Ite => Term::apply(op, vec![random_bool(r, depth - 1, vars), a, b]),
        Op::Bv2Nat => Term::apply(op, vec![random_bv(r, depth - 1, 8)]),
        _ => Term::apply(op, vec![a, b]),
    }
}

fn random_bool(r: &mut Rng, depth: u32, vars: &[Term]) -> Term {
    if depth == 0 {
        return Term::bool(r.chance(50));
    }
    let op = pick(
        r,
        &[
            Op::Lt,
            Op::Le,
            Op::Eq,
            Op::Distinct,
            Op::Not,
            Op::And,
            Op::Or,
            Op::Implies,
            Op::Xor,
            Op::BvSlt,
            Op::BvUle,
            Op::Divisible(3u32.into()),
        ],
    );
    match op {
        Op::Not => Term::apply(op, vec![random_bool(r, depth - 1, vars)]),
        Op::And | Op::Or | Op::Implies | Op::Xor => Term::apply(
            op,
            (0..2 + (r.next_u64() % 2))
                .map(|_| random_bool(r, depth - 1, vars))
                .collect(),
        ),
        Op::BvSlt | Op::BvUle => {
            let w = pick(r, &[8, 32]);
            Term::apply(
                op,
                vec![random_bv(r, depth - 1, w), random_bv(r, depth - 1, w)],
            )
        }
        Op::Divisible(_) => Term::apply(op, vec![random_int(r, depth - 1, vars)]),
        _ => Term::apply(
            op,
            vec![
                random_int(r, depth - 1, vars),
                random_int(r, depth - 1, vars),
            ],
        ),
    }
}

fn random_bv(r: &mut Rng, depth: u32, w: u32) -> Term {
    if depth == 0 || r.chance(25) {
        return match r.next_u64() % 3 {
            0 => Term::bv(u128::from(r.next_u64()), w),
            1 => Term::bv(pick(r, &[0, 1, 0x7f, 0x80, 0xff, 0x8000_0000]), w),
            _ => Var::new(format!("b{w}"), Sort::BitVec(w)).term(),
        };
    }
    let a = random_bv(r, depth - 1, w);
    let b = random_bv(r, depth - 1, w);
    let op = pick(
        r,
        &BV_BINARY
            .into_iter()
            .chain([Op::BvNot, Op::BvNeg, Op::Extract(w - 1, 0), Op::Int2Bv(w)])
            .collect::<Vec<_>>(),
    );
    match op {
        Op::BvNot | Op::BvNeg | Op::Extract(..) => Term::apply(op, vec![a]),
        Op::Int2Bv(_) => {
            let vars = [Var::new("x", Sort::Int).term()];
            Term::apply(op, vec![random_int(r, depth - 1, &vars)])
        }
        _ => Term::apply(op, vec![a, b]),
    }
}

fn same(l: Literal, t: &Term) -> bool {
    match l {
        Literal::Bool(b) => t.as_bool() == Some(b),
        Literal::Int(n) => t.as_int() == Some(&num_bigint::BigInt::from(n)),
        Literal::Bv(v, w) => t.as_bv() == Some((v, w)),
    }
}

/// Wherever evaluation gives a value, substitution (the simplifier's folding) gives the
/// same literal: 20,000 random terms over integers, Booleans and bit-vectors of 8 and 32
/// bits, each under random values; most of them evaluate.
#[test]
fn evaluation_agrees_with_substitution() {
    let mut r = Rng::new(7);
    let x = Var::new("x", Sort::Int);
    let y = Var::new("y", Sort::Int);
    let vars = [x.term(), y.term()];
    let mut evaluated = 0;
    for i in 0..20_000 {
        let t = match i % 3 {
            0 => random_int(&mut r, 4, &vars),
            1 => random_bool(&mut r, 4, &vars),
            _ => {
                let w = pick(&mut r, &[8, 32]);
                random_bv(&mut r, 4, w)
            }
        };
        let xv = pick(
            &mut r,
            &[0i128, 1, -1, 7, -8, 1 << 31, i128::from(i64::MIN)],
        );
        let yv = (r.next_u64() % 7) as i128 - 3;
        let (b8, b32) = (
            u128::from(r.next_u64()) & 0xff,
            u128::from(r.next_u64()) & 0xffff_ffff,
        );
        let value_of = |v: &Var| match &*v.name {
            "x" => Some(Literal::Int(xv)),
            "y" => Some(Literal::Int(yv)),
            "b8" => Some(Literal::Bv(b8, 8)),
            "b32" => Some(Literal::Bv(b32, 32)),
            _ => None,
        };
        let map: BTreeMap<Var, Term> = [
            (x.clone(), Term::int(xv)),
            (y.clone(), Term::int(yv)),
            (Var::new("b8", Sort::BitVec(8)), Term::bv(b8, 8)),
            (Var::new("b32", Sort::BitVec(32)), Term::bv(b32, 32)),
        ]
        .into_iter()
        .collect();
        if let Some(l) = t.eval(&value_of) {
            evaluated += 1;
            let s = t.substitute(&map);
            assert!(
                same(l, &s),
                "{t} under x={xv} y={yv} b8={b8} b32={b32}: {l:?} vs {s}"
            );
        }
    }
    assert!(evaluated > 15_000, "{evaluated}");
}

/// Division by zero is unspecified for the integers (no value), a constant without a
/// value has none, and `and` is false by one false argument whatever the others.
#[test]
fn what_has_no_value() {
    let x = Var::new("x", Sort::Int);
    let none = |_: &Var| None;
    assert_eq!(
        Term::div(x.term(), Term::int(0)).eval(&|_| Some(Literal::Int(3))),
        None
    );
    assert_eq!(Term::gt(x.term(), Term::int(0)).eval(&none), None);
    let three = |_: &Var| Some(Literal::Int(3));
    let by_zero = Term::gt(Term::div(x.term(), Term::int(0)), Term::int(0));
    let f = Term::apply(
        Op::And,
        vec![by_zero.clone(), Term::lt(x.term(), Term::int(0))],
    );
    assert_eq!(f.eval(&three), Some(Literal::Bool(false)));
    let g = Term::apply(Op::Or, vec![by_zero, Term::lt(x.term(), Term::int(0))]);
    assert_eq!(g.eval(&three), None);
    assert_eq!(
        Term::apply(Op::BvUdiv, vec![Term::bv(5, 8), Term::bv(0, 8)]).eval(&none),
        Some(Literal::Bv(0xff, 8))
    );
}

//! Helpers shared by the integration tests (which need the native `z3` on PATH).
#![allow(dead_code)]

use solver_bridge::context::SmtContext;
use solver_bridge::parse::{parse_term, Declarations};
use solver_bridge::solver::NativeZ3;
use solver_bridge::term::{Op, Sort, Term};

/// A small deterministic generator (SplitMix64), so the random tests are reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next_u64() % xs.len() as u64) as usize]
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// The bit-vector operations of two arguments that random terms apply.
pub const BV_BINARY: [Op; 14] = [
    Op::BvAdd,
    Op::BvSub,
    Op::BvMul,
    Op::BvUdiv,
    Op::BvUrem,
    Op::BvSdiv,
    Op::BvSrem,
    Op::BvSmod,
    Op::BvShl,
    Op::BvLshr,
    Op::BvAshr,
    Op::BvAnd,
    Op::BvOr,
    Op::BvXor,
];

pub fn z3() -> SmtContext<NativeZ3> {
    SmtContext::new(NativeZ3::new().expect("the tests need z3 on PATH"))
}

/// Parses `text` with the given Int variables declared.
pub fn int_term(text: &str, vars: &[&str]) -> Term {
    let mut d = Declarations::new();
    for v in vars {
        d.declare(v, Sort::Int).expect("declare");
    }
    parse_term(text, &d).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The SSA path of `x = 0; while (x < 10) x++; assert(x <= 10);` that leaves the loop after
/// `iterations` iterations and violates the assertion.
pub fn loop_path(iterations: usize) -> Vec<Term> {
    let names: Vec<String> = (0..=iterations).map(|i| format!("x@{i}")).collect();
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let mut phis = vec![int_term("(= x@0 0)", &refs)];
    for i in 0..iterations {
        phis.push(int_term(
            &format!("(and (< x@{i} 10) (= x@{} (+ x@{i} 1)))", i + 1),
            &refs,
        ));
    }
    phis.push(int_term(&format!("(not (< x@{iterations} 10))"), &refs));
    phis.push(int_term(&format!("(not (<= x@{iterations} 10))"), &refs));
    phis
}

pub fn show(terms: &[Term]) -> String {
    terms
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" | ")
}

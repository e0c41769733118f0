//! Linear integer constraints read off terms, for the Farkas strategy.
//!
//! A formula qualifies when it is a conjunction of linear atoms over Int (`<=`, `<`, `>=`, `>`,
//! `=`, possibly negated, except negated `=`, which is a disjunction). Every atom becomes
//! `e <= 0` or `e = 0` with integer coefficients, tightened in a way that is exact over the
//! integers: strict `e < 0` becomes `e + 1 <= 0`, and `sum c_i x_i + k <= 0` is divided by
//! `g = gcd(c_i)` with the constant rounded up (`2x <= 3` becomes `x <= 1`); an equation whose
//! constant is not a multiple of `g` is unsatisfiable (`2x = 1`). These are cheap cutting planes:
//! they keep the integer solutions and remove rational-only ones, so more integer-unsatisfiable
//! conjunctions get a rational Farkas certificate.

use crate::term::{Op, Sort, Term, TermKind, Var};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// `sum coeffs[x] * x + constant`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinExpr {
    pub coeffs: BTreeMap<Var, BigInt>,
    pub constant: BigInt,
}

impl LinExpr {
    fn constant(k: BigInt) -> LinExpr {
        LinExpr {
            coeffs: BTreeMap::new(),
            constant: k,
        }
    }

    fn add_scaled(&mut self, other: &LinExpr, factor: &BigInt) {
        for (v, c) in &other.coeffs {
            let e = self.coeffs.entry(v.clone()).or_insert_with(BigInt::zero);
            *e += c * factor;
            if e.is_zero() {
                self.coeffs.remove(v);
            }
        }
        self.constant += &other.constant * factor;
    }

    fn scale(&mut self, factor: &BigInt) {
        if factor.is_zero() {
            *self = LinExpr::default();
            return;
        }
        for c in self.coeffs.values_mut() {
            *c *= factor;
        }
        self.constant *= factor;
    }
}

/// `expr <= 0` or `expr = 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Le,
    Eq,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub expr: LinExpr,
    pub rel: Rel,
}

/// The linear integer expression a term denotes, or `None` if it is not linear.
pub fn linearize(t: &Term) -> Option<LinExpr> {
    if t.sort() != Sort::Int {
        return None;
    }
    match t.kind() {
        TermKind::Int(n) => Some(LinExpr::constant(n.clone())),
        TermKind::Var(v) => {
            let mut e = LinExpr::default();
            e.coeffs.insert(v.clone(), BigInt::one());
            Some(e)
        }
        TermKind::App(op, args) => match op {
            Op::Add => {
                let mut e = LinExpr::default();
                for a in args.iter() {
                    e.add_scaled(&linearize(a)?, &BigInt::one());
                }
                Some(e)
            }
            Op::Sub => {
                let mut e = linearize(args.first()?)?;
                for a in &args[1..] {
                    e.add_scaled(&linearize(a)?, &-BigInt::one());
                }
                Some(e)
            }
            Op::Neg => {
                let mut e = linearize(args.first()?)?;
                e.scale(&-BigInt::one());
                Some(e)
            }
            Op::Mul => {
                let mut factor = BigInt::one();
                let mut var_part: Option<LinExpr> = None;
                for a in args.iter() {
                    let e = linearize(a)?;
                    if e.coeffs.is_empty() {
                        factor *= &e.constant;
                    } else if var_part.is_none() {
                        var_part = Some(e);
                    } else {
                        return None;
                    }
                }
                let mut e = var_part.unwrap_or_else(|| LinExpr::constant(BigInt::one()));
                e.scale(&factor);
                Some(e)
            }
            _ => None,
        },
        _ => None,
    }
}

/// `a - b`, or `a - b + 1` when `strict` (integers: `a < b` iff `a - b + 1 <= 0`).
fn difference(a: &Term, b: &Term, strict: bool) -> Option<LinExpr> {
    let mut e = linearize(a)?;
    e.add_scaled(&linearize(b)?, &-BigInt::one());
    if strict {
        e.constant += 1;
    }
    Some(e)
}

/// Normalises `e <= 0` / `e = 0` by the gcd of the coefficients (exact over the integers).
fn tighten(mut c: Constraint) -> Constraint {
    let g = c.expr.coeffs.values().fold(BigInt::zero(), |g, x| g.gcd(x));
    if g.is_zero() {
        // A constant constraint: keep it as `k <= 0` / `k = 0`, both decided by the constant.
        let holds = match c.rel {
            Rel::Le => !c.expr.constant.is_positive(),
            Rel::Eq => c.expr.constant.is_zero(),
        };
        return if holds {
            Constraint {
                expr: LinExpr::default(),
                rel: Rel::Le,
            }
        } else {
            falsum()
        };
    }
    if g.is_one() {
        return c;
    }
    match c.rel {
        Rel::Le => {
            for v in c.expr.coeffs.values_mut() {
                *v /= &g;
            }
            c.expr.constant = c.expr.constant.div_ceil(&g);
            c
        }
        Rel::Eq => {
            if !c.expr.constant.is_multiple_of(&g) {
                return falsum();
            }
            for v in c.expr.coeffs.values_mut() {
                *v /= &g;
            }
            c.expr.constant /= &g;
            c
        }
    }
}

/// `1 <= 0`.
fn falsum() -> Constraint {
    Constraint {
        expr: LinExpr::constant(BigInt::one()),
        rel: Rel::Le,
    }
}

/// The constraints of a conjunction of linear integer atoms, or why the formula does not
/// qualify.
pub fn constraints_of(formula: &Term) -> Result<Vec<Constraint>, String> {
    let mut out = Vec::new();
    for part in formula.conjuncts() {
        atom(&part, &mut out)?;
    }
    Ok(out)
}

fn atom(t: &Term, out: &mut Vec<Constraint>) -> Result<(), String> {
    let not_linear = || format!("not a conjunction of linear integer atoms: {t}");
    if let Some(b) = t.as_bool() {
        if !b {
            out.push(falsum());
        }
        return Ok(());
    }
    let (negated, inner) = match t.as_app() {
        Some((Op::Not, args)) => (true, &args[0]),
        _ => (false, t),
    };
    let Some((op, args)) = inner.as_app() else {
        return Err(not_linear());
    };
    if args.len() != 2 || args[0].sort() != Sort::Int {
        return Err(not_linear());
    }
    let (a, b) = (&args[0], &args[1]);
    // (not (<= a b)) is (> a b), and so on.
    let op = match (op, negated) {
        (Op::Le, false) | (Op::Gt, true) => Op::Le,
        (Op::Lt, false) | (Op::Ge, true) => Op::Lt,
        (Op::Ge, false) | (Op::Lt, true) => Op::Ge,
        (Op::Gt, false) | (Op::Le, true) => Op::Gt,
        (Op::Eq, false) => Op::Eq,
        _ => return Err(not_linear()),
    };
    let c = match op {
        Op::Le => Constraint {
            expr: difference(a, b, false).ok_or_else(not_linear)?,
            rel: Rel::Le,
        },
        Op::Lt => Constraint {
            expr: difference(a, b, true).ok_or_else(not_linear)?,
            rel: Rel::Le,
        },
        Op::Ge => Constraint {
            expr: difference(b, a, false).ok_or_else(not_linear)?,
            rel: Rel::Le,
        },
        Op::Gt => Constraint {
            expr: difference(b, a, true).ok_or_else(not_linear)?,
            rel: Rel::Le,
        },
        _ => Constraint {
            expr: difference(a, b, false).ok_or_else(not_linear)?,
            rel: Rel::Eq,
        },
    };
    out.push(tighten(c));
    Ok(())
}

/// The term `sum c_i x_i + k <= 0` (integer coefficients), normalised by the gcd (exact over the
/// integers) and written readably: `x <= 5`, `x >= 3`, `(<= (+ x (* 2 y)) 7)`.
pub fn le_zero_term(e: &LinExpr) -> Term {
    let c = tighten(Constraint {
        expr: e.clone(),
        rel: Rel::Le,
    });
    let e = c.expr;
    if e.coeffs.is_empty() {
        return Term::bool(!e.constant.is_positive());
    }
    // Flip so that the first coefficient is positive: sum >= -k reads better than -sum <= k.
    let flip = e.coeffs.values().next().is_some_and(|c| c.is_negative());
    let sign = if flip { -BigInt::one() } else { BigInt::one() };
    let summands: Vec<Term> = e
        .coeffs
        .iter()
        .map(|(v, c)| {
            let c = c * &sign;
            if c.is_one() {
                v.term()
            } else {
                Term::mul(Term::int(c), v.term())
            }
        })
        .collect();
    let lhs = Term::add(summands);
    let rhs = Term::int(-&e.constant * &sign);
    if flip {
        Term::ge(lhs, rhs)
    } else {
        Term::le(lhs, rhs)
    }
}

//! Evaluation of a term under literal values of its free constants, without building terms.
//!
//! [`Term::substitute`] with literals folds a term to a literal too, but it builds (and
//! hash-conses) every node on the way: checking whether a candidate model satisfies a path
//! condition that way was a seventh of symbolic execution's engine time. [`Term::eval`]
//! computes the value directly, with SMT-LIB's semantics: integers exactly (`None` past
//! `i128`), `div` and `mod` Euclidean (`None` for a division by zero, which SMT-LIB leaves
//! unspecified), bit-vectors as the simplifier folds them ([`super::fold::fold_bv_values`],
//! SMT-LIB 2.6, division by zero included). `None` also for a quantifier, a constant without
//! a value, or an operation it does not know: the caller falls back to substitution.

use super::fold::{bv_mask, fold_bv_values};
use super::{AddrMap, Op, Term, TermKind, Var};

/// The value of a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Literal {
    Bool(bool),
    Int(i128),
    /// `(value, width)`, `value < 2^width`.
    Bv(u128, u32),
}

impl Literal {
    /// The `width`-bit value of `value` modulo `2^width` (two's complement).
    pub fn bv_wrapping(value: i128, width: u32) -> Literal {
        Literal::Bv(value as u128 & bv_mask(width), width)
    }

    /// The literal term of this value.
    pub fn term(self) -> Term {
        match self {
            Literal::Bool(b) => Term::bool(b),
            Literal::Int(n) => Term::int(n),
            Literal::Bv(v, w) => Term::bv(v, w),
        }
    }
}

impl Term {
    /// The value of a literal term (an integer only within `i128`).
    pub fn literal(&self) -> Option<Literal> {
        match self.kind() {
            TermKind::Bool(b) => Some(Literal::Bool(*b)),
            TermKind::Int(n) => i128::try_from(n).ok().map(Literal::Int),
            TermKind::BitVec { value, width } => Some(Literal::Bv(*value, *width)),
            _ => None,
        }
    }

    /// The value of `self` when every free constant `v` has the value `value_of(v)` (see the
    /// module's documentation for when it is `None`).
    pub fn eval(&self, value_of: &dyn Fn(&Var) -> Option<Literal>) -> Option<Literal> {
        let mut memo: AddrMap<Option<Literal>> = AddrMap::default();
        eval_node(self, value_of, &mut memo)
    }
}

fn eval_node(
    t: &Term,
    value_of: &dyn Fn(&Var) -> Option<Literal>,
    memo: &mut AddrMap<Option<Literal>>,
) -> Option<Literal> {
    match t.kind() {
        TermKind::Var(v) => return value_of(v),
        TermKind::Quant(..) => return None,
        TermKind::App(..) => {}
        _ => return t.literal(),
    }
    if let Some(v) = memo.get(&t.addr()) {
        return *v;
    }
    let v = eval_app(t, value_of, memo);
    memo.insert(t.addr(), v);
    v
}

fn eval_app(
    t: &Term,
    value_of: &dyn Fn(&Var) -> Option<Literal>,
    memo: &mut AddrMap<Option<Literal>>,
) -> Option<Literal> {
    let (op, args) = t.as_app()?;
    let mut eval = |a: &Term| eval_node(a, value_of, memo);
    // `ite` evaluates only the branch taken.
    if *op == Op::Ite {
        return match eval(&args[0])? {
            Literal::Bool(true) => eval(&args[1]),
            Literal::Bool(false) => eval(&args[2]),
            _ => None,
        };
    }
    // `and` and `or` are decided by one argument of the deciding value, whatever the others.
    if matches!(op, Op::And | Op::Or) {
        let decisive = *op == Op::Or;
        let mut undecided = false;
        for a in args {
            match eval(a) {
                Some(Literal::Bool(b)) if b == decisive => return Some(Literal::Bool(decisive)),
                Some(Literal::Bool(_)) => {}
                _ => undecided = true,
            }
        }
        return (!undecided).then_some(Literal::Bool(!decisive));
    }
    let values: Vec<Literal> = args.iter().map(&mut eval).collect::<Option<_>>()?;
    apply(op, &values)
}

fn bools(values: &[Literal]) -> Option<Vec<bool>> {
    every(values, |v| match v {
        Literal::Bool(b) => Some(*b),
        _ => None,
    })
}

fn ints(values: &[Literal]) -> Option<Vec<i128>> {
    every(values, |v| match v {
        Literal::Int(n) => Some(*n),
        _ => None,
    })
}

/// `f` of every value, if it has one for each.
fn every<T>(values: &[Literal], f: impl Fn(&Literal) -> Option<T>) -> Option<Vec<T>> {
    values.iter().map(f).collect()
}

/// `op` on the values of its arguments (`ite`, `and` and `or` are evaluated lazily by
/// [`eval_app`] and do not come here).
fn apply(op: &Op, values: &[Literal]) -> Option<Literal> {
    use Op::*;
    let bool = |b: bool| Some(Literal::Bool(b));
    let int = |n: Option<i128>| n.map(Literal::Int);
    match op {
        Not => bool(!*bools(values)?.first()?),
        // Right-associative: (=> a b c) is (=> a (=> b c)).
        Implies => {
            let bs = bools(values)?;
            let (last, rest) = bs.split_last()?;
            bool(rest.iter().rev().fold(*last, |acc, b| !b || acc))
        }
        Xor => bool(bools(values)?.iter().fold(false, |acc, b| acc ^ b)),
        Eq => bool(values.windows(2).all(|w| w[0] == w[1])),
        Distinct => bool(
            values
                .iter()
                .enumerate()
                .all(|(i, a)| values[i + 1..].iter().all(|b| a != b)),
        ),
        Neg => int(ints(values)?.first()?.checked_neg()),
        Add => int(ints(values)?
            .iter()
            .try_fold(0i128, |acc, n| acc.checked_add(*n))),
        Sub => {
            let ns = ints(values)?;
            match ns.split_first()? {
                (first, []) => int(first.checked_neg()),
                (first, rest) => int(rest.iter().try_fold(*first, |acc, n| acc.checked_sub(*n))),
            }
        }
        Mul => int(ints(values)?
            .iter()
            .try_fold(1i128, |acc, n| acc.checked_mul(*n))),
        Div | Mod => {
            let ns = ints(values)?;
            let (a, b) = (*ns.first()?, *ns.get(1)?);
            if b == 0 || ns.len() != 2 {
                return None;
            }
            // Euclidean: 0 <= r < |b| (Rust's `rem_euclid` and `div_euclid`).
            int(if *op == Div {
                a.checked_div_euclid(b)
            } else {
                a.checked_rem_euclid(b)
            })
        }
        Abs => int(ints(values)?.first()?.checked_abs()),
        Le | Lt | Ge | Gt => {
            let ns = ints(values)?;
            bool(ns.windows(2).all(|w| match op {
                Le => w[0] <= w[1],
                Lt => w[0] < w[1],
                Ge => w[0] >= w[1],
                _ => w[0] > w[1],
            }))
        }
        Divisible(n) => {
            let v = *ints(values)?.first()?;
            let n = i128::try_from(n).ok().filter(|n| *n > 0)?;
            bool(v.rem_euclid(n) == 0)
        }
        Int2Bv(w) => {
            let v = *ints(values)?.first()?;
            if *w == 0 || *w > super::MAX_BV_LITERAL_WIDTH {
                return None;
            }
            // Modulo 2^w: the two's complement bits of v, masked.
            Some(Literal::Bv((v as u128) & bv_mask(*w), *w))
        }
        _ => {
            let lits = every(values, |v| match v {
                Literal::Bv(value, width) => Some((*value, *width)),
                _ => None,
            })?;
            fold_bv_values(op, &lits)
        }
    }
}

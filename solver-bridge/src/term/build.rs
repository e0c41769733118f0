//! Smart constructors: sort checking plus light, sound simplification (constant folding,
//! true/false absorption, flattening of `and`/`or`/`+`/`*`).
//!
//! Every rewrite here must be an equivalence under SMT-LIB semantics (for example `div` and `mod`
//! by a literal zero are left alone, since SMT-LIB leaves them unspecified; bit-vector division by
//! zero follows the SMT-LIB 2.6 definitions). The folding is checked against Z3 by the tests.

use super::{AddrHash, Literal, Op, Quantifier, Sort, Term, TermKind, Var, MAX_BV_LITERAL_WIDTH};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;

use super::fold::{bv_mask, fold_bv, fold_int2bv};

/// A set of terms for membership tests (hashed by their structural hash, no SipHash).
type TermSet = HashSet<Term, AddrHash>;

/// An ill-sorted or malformed application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermError {
    pub message: String,
}

impl TermError {
    pub fn new(message: impl Into<String>) -> TermError {
        TermError {
            message: message.into(),
        }
    }
}

impl fmt::Display for TermError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TermError {}

impl Term {
    pub fn bool(b: bool) -> Term {
        Term::mk(TermKind::Bool(b), Sort::Bool)
    }

    pub fn tt() -> Term {
        Term::bool(true)
    }

    pub fn ff() -> Term {
        Term::bool(false)
    }

    pub fn int(n: impl Into<BigInt>) -> Term {
        Term::mk(TermKind::Int(n.into()), Sort::Int)
    }

    /// A bit-vector literal (the value is reduced modulo `2^width`). `width` must be in
    /// `1..=MAX_BV_LITERAL_WIDTH`; see [`Term::try_bv`] for a checked version.
    pub fn bv(value: u128, width: u32) -> Term {
        debug_assert!((1..=MAX_BV_LITERAL_WIDTH).contains(&width));
        let width = width.clamp(1, MAX_BV_LITERAL_WIDTH);
        Term::mk(
            TermKind::BitVec {
                value: value & bv_mask(width),
                width,
            },
            Sort::BitVec(width),
        )
    }

    /// The `width`-bit literal of `value` modulo `2^width` (two's complement).
    pub fn bv_wrapping(value: i128, width: u32) -> Term {
        Literal::bv_wrapping(value, width).term()
    }

    pub fn try_bv(value: u128, width: u32) -> Result<Term, TermError> {
        if !(1..=MAX_BV_LITERAL_WIDTH).contains(&width) {
            return Err(TermError::new(format!(
                "bit-vector literal of width {width} (supported: 1..={MAX_BV_LITERAL_WIDTH})"
            )));
        }
        Ok(Term::bv(value, width))
    }

    pub fn var(v: Var) -> Term {
        let sort = v.sort;
        Term::mk(TermKind::Var(v), sort)
    }

    pub fn new_var(name: impl AsRef<str>, sort: Sort) -> Term {
        Term::var(Var::new(name, sort))
    }

    /// Checked, simplifying application.
    pub fn app(op: Op, args: Vec<Term>) -> Result<Term, TermError> {
        let sort = result_sort(&op, &args)?;
        Ok(simplify_app(op, args, sort))
    }

    /// Checked application without any simplification (the term prints as written).
    pub fn app_raw(op: Op, args: Vec<Term>) -> Result<Term, TermError> {
        let sort = result_sort(&op, &args)?;
        Ok(Term::mk(TermKind::App(op, args.into()), sort))
    }

    /// Simplifying application for callers that know the sorts are right (the engine's
    /// formula builders). An ill-sorted call is a programming error: it fails a debug
    /// assertion, and in release builds yields an unsimplified node that the solver rejects
    /// with an error reply (never a wrong answer).
    pub fn apply(op: Op, args: Vec<Term>) -> Term {
        match result_sort(&op, &args) {
            Ok(sort) => simplify_app(op, args, sort),
            Err(e) => {
                debug_assert!(false, "ill-sorted term: {e}");
                let sort = fallback_sort(&op, &args);
                Term::mk(TermKind::App(op, args.into()), sort)
            }
        }
    }

    /// A quantified formula; the body must be Bool and the bound names distinct. Bound
    /// variables that do not occur free in the body are dropped; no variables left gives the
    /// body itself.
    pub fn quant(q: Quantifier, vars: Vec<Var>, body: Term) -> Result<Term, TermError> {
        if body.sort() != Sort::Bool {
            return Err(TermError::new("quantifier body is not Bool"));
        }
        let mut names = BTreeSet::new();
        for v in &vars {
            if !names.insert(v.name.clone()) {
                return Err(TermError::new(format!(
                    "variable {} bound twice in one quantifier",
                    v.name
                )));
            }
        }
        let free = body.free_vars();
        let vars: Vec<Var> = vars.into_iter().filter(|v| free.contains(v)).collect();
        if vars.is_empty() || body.is_literal() {
            return Ok(body);
        }
        Ok(Term::mk(TermKind::Quant(q, vars.into(), body), Sort::Bool))
    }

    pub fn exists(vars: Vec<Var>, body: Term) -> Result<Term, TermError> {
        Term::quant(Quantifier::Exists, vars, body)
    }

    pub fn forall(vars: Vec<Var>, body: Term) -> Result<Term, TermError> {
        Term::quant(Quantifier::Forall, vars, body)
    }
}

/// Convenience constructors (sorts are the caller's responsibility, see `Term::apply`). They
/// are associated functions named after the SMT-LIB operators, not operator-trait methods.
#[allow(clippy::should_implement_trait)]
impl Term {
    pub fn not(t: Term) -> Term {
        Term::apply(Op::Not, vec![t])
    }
    pub fn and(ts: impl IntoIterator<Item = Term>) -> Term {
        Term::apply(Op::And, ts.into_iter().collect())
    }
    pub fn or(ts: impl IntoIterator<Item = Term>) -> Term {
        Term::apply(Op::Or, ts.into_iter().collect())
    }
    /// `or(ts)` with the conjuncts common to every disjunct taken out (distributivity:
    /// `(a & b) | (a & c)` is `a & (b | c)`). Equivalent to [`Term::or`]; the solver's
    /// preprocessing sees the common equalities at the top level, where it can solve them
    /// (k-induction's step case is a disjunction of paths that share their prefix).
    pub fn or_factored(ts: impl IntoIterator<Item = Term>) -> Term {
        let ts: Vec<Term> = ts.into_iter().collect();
        let conjuncts = |t: &Term| -> Vec<Term> {
            match t.as_app() {
                Some((Op::And, args)) => args.to_vec(),
                _ => vec![t.clone()],
            }
        };
        if ts.len() < 2 {
            return Term::or(ts);
        }
        let parts: Vec<Vec<Term>> = ts.iter().map(conjuncts).collect();
        let sets: Vec<std::collections::HashSet<&Term>> =
            parts.iter().map(|p| p.iter().collect()).collect();
        let common: Vec<Term> = parts[0]
            .iter()
            .filter(|c| sets.iter().all(|s| s.contains(c)))
            .cloned()
            .collect();
        if common.is_empty() {
            return Term::or(ts);
        }
        let shared: std::collections::HashSet<&Term> = common.iter().collect();
        let rest = parts
            .iter()
            .map(|p| Term::and(p.iter().filter(|c| !shared.contains(c)).cloned()));
        let mut out = common.clone();
        out.push(Term::or(rest));
        Term::and(out)
    }
    pub fn and2(a: Term, b: Term) -> Term {
        Term::apply(Op::And, vec![a, b])
    }
    pub fn or2(a: Term, b: Term) -> Term {
        Term::apply(Op::Or, vec![a, b])
    }
    pub fn implies(a: Term, b: Term) -> Term {
        Term::apply(Op::Implies, vec![a, b])
    }
    pub fn eq(a: Term, b: Term) -> Term {
        Term::apply(Op::Eq, vec![a, b])
    }
    pub fn distinct(ts: Vec<Term>) -> Term {
        Term::apply(Op::Distinct, ts)
    }
    pub fn ite(c: Term, t: Term, e: Term) -> Term {
        Term::apply(Op::Ite, vec![c, t, e])
    }
    pub fn neg(t: Term) -> Term {
        Term::apply(Op::Neg, vec![t])
    }
    pub fn add(ts: impl IntoIterator<Item = Term>) -> Term {
        Term::apply(Op::Add, ts.into_iter().collect())
    }
    pub fn add2(a: Term, b: Term) -> Term {
        Term::apply(Op::Add, vec![a, b])
    }
    pub fn sub(a: Term, b: Term) -> Term {
        Term::apply(Op::Sub, vec![a, b])
    }
    pub fn mul(a: Term, b: Term) -> Term {
        Term::apply(Op::Mul, vec![a, b])
    }
    pub fn div(a: Term, b: Term) -> Term {
        Term::apply(Op::Div, vec![a, b])
    }
    pub fn modulo(a: Term, b: Term) -> Term {
        Term::apply(Op::Mod, vec![a, b])
    }
    pub fn abs(a: Term) -> Term {
        Term::apply(Op::Abs, vec![a])
    }
    pub fn le(a: Term, b: Term) -> Term {
        Term::apply(Op::Le, vec![a, b])
    }
    pub fn lt(a: Term, b: Term) -> Term {
        Term::apply(Op::Lt, vec![a, b])
    }
    pub fn ge(a: Term, b: Term) -> Term {
        Term::apply(Op::Ge, vec![a, b])
    }
    pub fn gt(a: Term, b: Term) -> Term {
        Term::apply(Op::Gt, vec![a, b])
    }
    /// A bit-vector operation with two arguments (e.g. `Op::BvAdd`, `Op::BvSlt`).
    pub fn bv2(op: Op, a: Term, b: Term) -> Term {
        Term::apply(op, vec![a, b])
    }
}

fn fallback_sort(op: &Op, args: &[Term]) -> Sort {
    use Op::*;
    match op {
        Not | And | Or | Implies | Xor | Eq | Distinct | Le | Lt | Ge | Gt | Divisible(_)
        | BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge => Sort::Bool,
        Neg | Add | Sub | Mul | Div | Mod | Abs | Bv2Nat => Sort::Int,
        Ite => args.get(1).map(|a| a.sort()).unwrap_or(Sort::Bool),
        Int2Bv(w) => Sort::BitVec((*w).max(1)),
        _ => args.first().map(|a| a.sort()).unwrap_or(Sort::Bool),
    }
}

fn op_name(op: &Op) -> String {
    super::print::op_symbol(op).into_owned()
}

fn arity(op: &Op, args: &[Term], min: usize, max: Option<usize>) -> Result<(), TermError> {
    let n = args.len();
    if n < min || max.is_some_and(|m| n > m) {
        let expected = match max {
            Some(m) if m == min => format!("{min}"),
            Some(m) => format!("{min}..{m}"),
            None => format!("at least {min}"),
        };
        return Err(TermError::new(format!(
            "{} expects {expected} arguments, got {n}",
            op_name(op)
        )));
    }
    Ok(())
}

fn all_sort(op: &Op, args: &[Term], sort: Sort) -> Result<(), TermError> {
    for a in args {
        if a.sort() != sort {
            return Err(TermError::new(format!(
                "{} expects arguments of sort {sort}, got {} of sort {}",
                op_name(op),
                a,
                a.sort()
            )));
        }
    }
    Ok(())
}

fn same_bv(op: &Op, args: &[Term]) -> Result<u32, TermError> {
    let Some(Sort::BitVec(w)) = args.first().map(|a| a.sort()) else {
        return Err(TermError::new(format!(
            "{} expects bit-vector arguments",
            op_name(op)
        )));
    };
    all_sort(op, args, Sort::BitVec(w))?;
    Ok(w)
}

/// The sort of `op(args)`, or why it is ill-sorted.
pub(crate) fn result_sort(op: &Op, args: &[Term]) -> Result<Sort, TermError> {
    use Op::*;
    match op {
        Not => {
            arity(op, args, 1, Some(1))?;
            all_sort(op, args, Sort::Bool)?;
            Ok(Sort::Bool)
        }
        And | Or => {
            all_sort(op, args, Sort::Bool)?;
            Ok(Sort::Bool)
        }
        Implies | Xor => {
            arity(op, args, 2, None)?;
            all_sort(op, args, Sort::Bool)?;
            Ok(Sort::Bool)
        }
        Eq | Distinct => {
            arity(op, args, 2, None)?;
            all_sort(op, args, args[0].sort())?;
            Ok(Sort::Bool)
        }
        Ite => {
            arity(op, args, 3, Some(3))?;
            all_sort(op, &args[..1], Sort::Bool)?;
            all_sort(op, &args[2..], args[1].sort())?;
            Ok(args[1].sort())
        }
        Neg | Abs => {
            arity(op, args, 1, Some(1))?;
            all_sort(op, args, Sort::Int)?;
            Ok(Sort::Int)
        }
        Add | Mul | Sub => {
            arity(op, args, 1, None)?;
            all_sort(op, args, Sort::Int)?;
            Ok(Sort::Int)
        }
        Div | Mod => {
            arity(op, args, 2, Some(2))?;
            all_sort(op, args, Sort::Int)?;
            Ok(Sort::Int)
        }
        Le | Lt | Ge | Gt => {
            arity(op, args, 2, None)?;
            all_sort(op, args, Sort::Int)?;
            Ok(Sort::Bool)
        }
        Divisible(n) => {
            if n.is_zero() {
                return Err(TermError::new("(_ divisible 0) is not defined"));
            }
            arity(op, args, 1, Some(1))?;
            all_sort(op, args, Sort::Int)?;
            Ok(Sort::Bool)
        }
        BvNot | BvNeg => {
            arity(op, args, 1, Some(1))?;
            Ok(Sort::BitVec(same_bv(op, args)?))
        }
        BvAnd | BvOr | BvXor | BvAdd | BvMul => {
            arity(op, args, 2, None)?;
            Ok(Sort::BitVec(same_bv(op, args)?))
        }
        BvSub | BvUdiv | BvUrem | BvSdiv | BvSrem | BvSmod | BvShl | BvLshr | BvAshr => {
            arity(op, args, 2, Some(2))?;
            Ok(Sort::BitVec(same_bv(op, args)?))
        }
        BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge => {
            arity(op, args, 2, Some(2))?;
            same_bv(op, args)?;
            Ok(Sort::Bool)
        }
        Concat => {
            arity(op, args, 2, None)?;
            let mut total: u32 = 0;
            for a in args {
                let Sort::BitVec(w) = a.sort() else {
                    return Err(TermError::new("concat expects bit-vector arguments"));
                };
                total = total
                    .checked_add(w)
                    .ok_or_else(|| TermError::new("concat: width overflow"))?;
            }
            Ok(Sort::BitVec(total))
        }
        Extract(hi, lo) => {
            arity(op, args, 1, Some(1))?;
            let w = same_bv(op, args)?;
            if lo > hi || *hi >= w {
                return Err(TermError::new(format!(
                    "(_ extract {hi} {lo}) applied to a bit-vector of width {w}"
                )));
            }
            Ok(Sort::BitVec(hi - lo + 1))
        }
        ZeroExtend(n) | SignExtend(n) => {
            arity(op, args, 1, Some(1))?;
            let w = same_bv(op, args)?;
            let total = w
                .checked_add(*n)
                .ok_or_else(|| TermError::new("extension: width overflow"))?;
            Ok(Sort::BitVec(total))
        }
        Bv2Nat => {
            arity(op, args, 1, Some(1))?;
            same_bv(op, args)?;
            Ok(Sort::Int)
        }
        Int2Bv(w) => {
            if *w == 0 {
                return Err(TermError::new("(_ int2bv 0) is not defined"));
            }
            arity(op, args, 1, Some(1))?;
            all_sort(op, args, Sort::Int)?;
            Ok(Sort::BitVec(*w))
        }
    }
}

fn raw(op: Op, args: Vec<Term>, sort: Sort) -> Term {
    Term::mk(TermKind::App(op, args.into()), sort)
}

/// Applies the simplification rules of `op` to well-sorted `args`.
fn simplify_app(op: Op, args: Vec<Term>, sort: Sort) -> Term {
    use Op::*;
    match op {
        Not => mk_not(args.into_iter().next().unwrap_or_else(Term::tt)),
        And => mk_and(args),
        Or => mk_or(args),
        Implies => {
            // Right-associative: a => b => c is a => (b => c).
            let mut it = args.into_iter().rev();
            let mut acc = it.next().unwrap_or_else(Term::tt);
            for a in it {
                acc = mk_implies(a, acc);
            }
            acc
        }
        Xor => {
            let mut it = args.into_iter();
            let mut acc = it.next().unwrap_or_else(Term::ff);
            for b in it {
                acc = mk_xor(acc, b);
            }
            acc
        }
        Eq => {
            if args.len() == 2 {
                let mut it = args.into_iter();
                let (a, b) = (
                    it.next().unwrap_or_else(Term::tt),
                    it.next().unwrap_or_else(Term::tt),
                );
                mk_eq(a, b)
            } else {
                // (= a b c) is (and (= a b) (= b c)).
                mk_and(
                    args.windows(2)
                        .map(|w| mk_eq(w[0].clone(), w[1].clone()))
                        .collect(),
                )
            }
        }
        Distinct => mk_distinct(args),
        Ite => {
            let mut it = args.into_iter();
            match (it.next(), it.next(), it.next()) {
                (Some(c), Some(t), Some(e)) => mk_ite(c, t, e),
                _ => Term::tt(),
            }
        }
        Neg => mk_neg(args.into_iter().next().unwrap_or_else(|| Term::int(0))),
        Add => mk_add(args),
        Sub => mk_sub(args),
        Mul => mk_mul(args),
        Div | Mod => {
            if let (Some(a), Some(b)) = (args[0].as_int(), args[1].as_int()) {
                if !b.is_zero() {
                    let (q, r) = euclid_div_mod(a, b);
                    return Term::int(if op == Div { q } else { r });
                }
            }
            if args[1].as_int().is_some_and(|b| b.is_one()) {
                return if op == Div {
                    args[0].clone()
                } else {
                    Term::int(0)
                };
            }
            raw(op, args, sort)
        }
        Abs => match args[0].as_int() {
            Some(n) => Term::int(n.abs()),
            None => raw(op, args, sort),
        },
        Le | Lt | Ge | Gt => {
            if args.len() > 2 {
                let pairs = args
                    .windows(2)
                    .map(|w| mk_cmp(op.clone(), w[0].clone(), w[1].clone()))
                    .collect();
                return mk_and(pairs);
            }
            let mut it = args.into_iter();
            match (it.next(), it.next()) {
                (Some(a), Some(b)) => mk_cmp(op, a, b),
                _ => Term::tt(),
            }
        }
        Divisible(ref n) => {
            if n.is_one() {
                return Term::tt();
            }
            match args[0].as_int() {
                Some(v) => {
                    let n = BigInt::from(n.clone());
                    Term::bool(v.mod_floor(&n).is_zero())
                }
                None => raw(op, args, sort),
            }
        }
        Int2Bv(w) => match args[0].as_int().and_then(|n| fold_int2bv(n, w)) {
            Some(t) => t,
            None => raw(op, args, sort),
        },
        // `x rem x` is 0 for every x, 0 included (SMT-LIB 2.6: a remainder by 0 is the
        // dividend). Bit-blasting the remainder of two unknown 64-bit operands costs Z3 its
        // whole resource limit; C's `x % x` reaches the solver this way.
        BvUrem | BvSrem | BvSmod if args.len() == 2 && args[0] == args[1] => match sort {
            Sort::BitVec(w) => Term::bv(0, w),
            _ => raw(op, args, sort),
        },
        _ => fold_bv(&op, &args).unwrap_or_else(|| raw(op, args, sort)),
    }
}

/// SMT-LIB integer division: `a = b*q + r` with `0 <= r < |b|`.
pub(crate) fn euclid_div_mod(a: &BigInt, b: &BigInt) -> (BigInt, BigInt) {
    let r = a.mod_floor(&b.abs());
    let q = (a - &r) / b;
    (q, r)
}

fn mk_not(t: Term) -> Term {
    if let Some(b) = t.as_bool() {
        return Term::bool(!b);
    }
    match t.as_app() {
        Some((Op::Not, args)) => return args[0].clone(),
        // Over the integers (total order): (not (< a b)) is (>= a b), and so on.
        Some((op @ (Op::Le | Op::Lt | Op::Ge | Op::Gt), args)) if args.len() == 2 => {
            let flipped = match op {
                Op::Le => Op::Gt,
                Op::Lt => Op::Ge,
                Op::Ge => Op::Lt,
                _ => Op::Le,
            };
            return raw(flipped, args.to_vec(), Sort::Bool);
        }
        _ => {}
    }
    raw(Op::Not, vec![t], Sort::Bool)
}

/// Flattens nested `and` (or `or`, if `is_and` is false), drops the neutral literal, absorbs the
/// dominant one, removes duplicates (first occurrence kept) and detects `x` next to `(not x)`.
fn mk_junction(args: Vec<Term>, is_and: bool) -> Term {
    let (op, neutral) = if is_and {
        (Op::And, true)
    } else {
        (Op::Or, false)
    };
    let mut flat: Vec<Term> = Vec::with_capacity(args.len());
    let mut stack: Vec<Term> = args.into_iter().rev().collect();
    let mut seen = TermSet::with_capacity_and_hasher(stack.len(), AddrHash::default());
    while let Some(t) = stack.pop() {
        if let Some(b) = t.as_bool() {
            if b == neutral {
                continue;
            }
            return Term::bool(!neutral);
        }
        if let Some((o, inner)) = t.as_app() {
            if *o == op {
                stack.extend(inner.iter().rev().cloned());
                continue;
            }
        }
        if seen.insert(t.clone()) {
            flat.push(t);
        }
    }
    for t in &flat {
        if let Some((Op::Not, inner)) = t.as_app() {
            if seen.contains(&inner[0]) {
                return Term::bool(!neutral);
            }
        }
    }
    let flat = match merge_bounds(flat, is_and) {
        Ok(f) => f,
        Err(dominant) => return Term::bool(dominant),
    };
    let mut flat = flat;
    match flat.len() {
        0 => Term::bool(neutral),
        1 => flat.pop().unwrap_or_else(|| Term::bool(neutral)),
        _ => raw(op, flat, Sort::Bool),
    }
}

/// An integer bound `lo <= t <= hi` read off an atom comparing `t` with a literal.
struct Bound {
    t: Term,
    lo: Option<BigInt>,
    hi: Option<BigInt>,
}

fn as_bound(a: &Term) -> Option<Bound> {
    let (op, args) = a.as_app()?;
    if args.len() != 2 || args[0].sort() != Sort::Int {
        return None;
    }
    // Put the literal on the right: (<= c t) is (>= t c).
    let (op, t, c) = match (args[0].as_int(), args[1].as_int()) {
        (None, Some(c)) => (op.clone(), &args[0], c.clone()),
        (Some(c), None) => (
            match op {
                Op::Le => Op::Ge,
                Op::Lt => Op::Gt,
                Op::Ge => Op::Le,
                Op::Gt => Op::Lt,
                other => other.clone(),
            },
            &args[1],
            c.clone(),
        ),
        _ => return None,
    };
    let one = BigInt::one();
    let (lo, hi) = match op {
        Op::Le => (None, Some(c)),
        Op::Lt => (None, Some(c - one)),
        Op::Ge => (Some(c), None),
        Op::Gt => (Some(c + one), None),
        Op::Eq => (Some(c.clone()), Some(c)),
        _ => return None,
    };
    Some(Bound {
        t: t.clone(),
        lo,
        hi,
    })
}

/// Merges several integer bounds on the same term within one `and` (intersection: the
/// tightest bounds, `false` if empty, `=` if a single value) or one `or` (union of one-sided
/// bounds: the loosest, `true` if they cover every integer). Terms with a single bound atom are
/// left as written. Exact over the integers. `Err(b)` means the junction is the literal `b`.
fn merge_bounds(flat: Vec<Term>, is_and: bool) -> Result<Vec<Term>, bool> {
    let bounds: Vec<Option<Bound>> = flat.iter().map(as_bound).collect();
    if bounds.iter().flatten().nth(1).is_none() {
        return Ok(flat);
    }
    let mut count: HashMap<Term, usize, AddrHash> = HashMap::default();
    for b in bounds.iter().flatten() {
        *count.entry(b.t.clone()).or_default() += 1;
    }
    if count.values().all(|&c| c < 2) {
        return Ok(flat);
    }
    // Per term with several bounds: the merged lo/hi (for `or`: only one-sided bounds merge).
    let mut merged: HashMap<Term, (Option<BigInt>, Option<BigInt>, bool), AddrHash> =
        HashMap::default();
    let mut out = Vec::with_capacity(flat.len());
    for (atom, b) in flat.into_iter().zip(bounds) {
        let Some(b) = b.filter(|b| count.get(&b.t).copied().unwrap_or(0) >= 2) else {
            out.push(atom);
            continue;
        };
        if !is_and && b.lo.is_some() && b.hi.is_some() {
            // An equation inside `or`: not merged.
            out.push(atom);
            continue;
        }
        let first = !merged.contains_key(&b.t);
        let e = merged.entry(b.t.clone()).or_insert((None, None, false));
        e.0 = match (e.0.take(), b.lo) {
            (Some(x), Some(y)) => Some(if is_and { x.max(y) } else { x.min(y) }),
            (x, y) => x.or(y),
        };
        e.1 = match (e.1.take(), b.hi) {
            (Some(x), Some(y)) => Some(if is_and { x.min(y) } else { x.max(y) }),
            (x, y) => x.or(y),
        };
        if first {
            // Placeholder at the first bound's position, filled in below.
            out.push(b.t.clone());
            e.2 = true;
        }
    }
    let mut result = Vec::with_capacity(out.len());
    for t in out {
        let Some((lo, hi, true)) = merged.remove(&t) else {
            result.push(t);
            continue;
        };
        if is_and {
            match (lo, hi) {
                (Some(l), Some(h)) if l > h => return Err(false),
                (Some(l), Some(h)) if l == h => result.push(mk_eq(t, Term::int(l))),
                (lo, hi) => {
                    if let Some(l) = lo {
                        result.push(raw(Op::Ge, vec![t.clone(), Term::int(l)], Sort::Bool));
                    }
                    if let Some(h) = hi {
                        result.push(raw(Op::Le, vec![t, Term::int(h)], Sort::Bool));
                    }
                }
            }
        } else {
            match (lo, hi) {
                // t >= l or t <= h covers every integer when l <= h + 1.
                (Some(l), Some(h)) if l <= h.clone() + BigInt::one() => return Err(true),
                (lo, hi) => {
                    if let Some(l) = lo {
                        result.push(raw(Op::Ge, vec![t.clone(), Term::int(l)], Sort::Bool));
                    }
                    if let Some(h) = hi {
                        result.push(raw(Op::Le, vec![t, Term::int(h)], Sort::Bool));
                    }
                }
            }
        }
    }
    Ok(result)
}

fn mk_and(args: Vec<Term>) -> Term {
    mk_junction(args, true)
}

fn mk_or(args: Vec<Term>) -> Term {
    mk_junction(args, false)
}

fn mk_implies(a: Term, b: Term) -> Term {
    match (a.as_bool(), b.as_bool()) {
        (Some(false), _) | (_, Some(true)) => Term::tt(),
        (Some(true), _) => b,
        (_, Some(false)) => mk_not(a),
        _ if a == b => Term::tt(),
        _ => raw(Op::Implies, vec![a, b], Sort::Bool),
    }
}

fn mk_xor(a: Term, b: Term) -> Term {
    match (a.as_bool(), b.as_bool()) {
        (Some(x), Some(y)) => Term::bool(x != y),
        (Some(false), _) => b,
        (_, Some(false)) => a,
        (Some(true), _) => mk_not(b),
        (_, Some(true)) => mk_not(a),
        _ if a == b => Term::ff(),
        _ => raw(Op::Xor, vec![a, b], Sort::Bool),
    }
}

fn mk_eq(a: Term, b: Term) -> Term {
    if a == b {
        return Term::tt();
    }
    // Literals are canonical (integers exact, bit-vectors masked), so two different literals
    // of one sort denote different values.
    if a.is_literal() && b.is_literal() {
        return Term::ff();
    }
    if a.sort() == Sort::Bool {
        match (a.as_bool(), b.as_bool()) {
            (Some(true), _) => return b,
            (_, Some(true)) => return a,
            (Some(false), _) => return mk_not(b),
            (_, Some(false)) => return mk_not(a),
            _ => {}
        }
    }
    raw(Op::Eq, vec![a, b], Sort::Bool)
}

fn mk_distinct(args: Vec<Term>) -> Term {
    if args.len() == 2 {
        let mut it = args.into_iter();
        let (a, b) = (
            it.next().unwrap_or_else(Term::tt),
            it.next().unwrap_or_else(Term::tt),
        );
        return mk_not(mk_eq(a, b));
    }
    let mut seen = TermSet::with_capacity_and_hasher(args.len(), AddrHash::default());
    for a in &args {
        if !seen.insert(a.clone()) {
            return Term::ff();
        }
    }
    if args.iter().all(|a| a.is_literal()) {
        return Term::tt();
    }
    let sort = Sort::Bool;
    raw(Op::Distinct, args, sort)
}

fn mk_ite(c: Term, t: Term, e: Term) -> Term {
    if let Some(b) = c.as_bool() {
        return if b { t } else { e };
    }
    if t == e {
        return t;
    }
    if let Some((Op::Not, inner)) = c.as_app() {
        return mk_ite(inner[0].clone(), e, t);
    }
    if t.sort() == Sort::Bool {
        match (t.as_bool(), e.as_bool()) {
            (Some(true), Some(false)) => return c,
            (Some(false), Some(true)) => return mk_not(c),
            (Some(true), None) => return mk_or(vec![c, e]),
            (Some(false), None) => return mk_and(vec![mk_not(c), e]),
            (None, Some(true)) => return mk_or(vec![mk_not(c), t]),
            (None, Some(false)) => return mk_and(vec![c, t]),
            _ => {}
        }
    }
    let sort = t.sort();
    raw(Op::Ite, vec![c, t, e], sort)
}

fn mk_neg(t: Term) -> Term {
    if let Some(n) = t.as_int() {
        return Term::int(-n);
    }
    if let Some((Op::Neg, inner)) = t.as_app() {
        return inner[0].clone();
    }
    raw(Op::Neg, vec![t], Sort::Int)
}

fn mk_add(args: Vec<Term>) -> Term {
    let mut constant = BigInt::zero();
    let mut rest = Vec::with_capacity(args.len());
    let mut stack: Vec<Term> = args.into_iter().rev().collect();
    while let Some(t) = stack.pop() {
        if let Some(n) = t.as_int() {
            constant += n;
        } else if let Some((Op::Add, inner)) = t.as_app() {
            stack.extend(inner.iter().rev().cloned());
        } else {
            rest.push(t);
        }
    }
    if !constant.is_zero() {
        rest.push(Term::int(constant));
    }
    match rest.len() {
        0 => Term::int(0),
        1 => rest.pop().unwrap_or_else(|| Term::int(0)),
        _ => raw(Op::Add, rest, Sort::Int),
    }
}

fn mk_sub(args: Vec<Term>) -> Term {
    if args.len() == 1 {
        return mk_neg(args.into_iter().next().unwrap_or_else(|| Term::int(0)));
    }
    if args.iter().all(|a| a.as_int().is_some()) {
        let mut it = args.iter().filter_map(|a| a.as_int());
        let first = it.next().cloned().unwrap_or_default();
        return Term::int(it.fold(first, |acc, n| acc - n));
    }
    // Drop subtracted zeros: (- a 0 b) is (- a b).
    let mut kept: Vec<Term> = Vec::with_capacity(args.len());
    for (i, a) in args.into_iter().enumerate() {
        if i > 0 && a.as_int().is_some_and(|n| n.is_zero()) {
            continue;
        }
        kept.push(a);
    }
    if kept.len() == 1 {
        return kept.pop().unwrap_or_else(|| Term::int(0));
    }
    if kept.len() == 2 && kept[0] == kept[1] {
        return Term::int(0);
    }
    raw(Op::Sub, kept, Sort::Int)
}

fn mk_mul(args: Vec<Term>) -> Term {
    let mut constant = BigInt::one();
    let mut rest = Vec::with_capacity(args.len());
    let mut stack: Vec<Term> = args.into_iter().rev().collect();
    while let Some(t) = stack.pop() {
        if let Some(n) = t.as_int() {
            constant *= n;
        } else if let Some((Op::Mul, inner)) = t.as_app() {
            stack.extend(inner.iter().rev().cloned());
        } else {
            rest.push(t);
        }
    }
    if constant.is_zero() {
        return Term::int(0);
    }
    if rest.is_empty() {
        return Term::int(constant);
    }
    if !constant.is_one() {
        rest.insert(0, Term::int(constant));
    }
    match rest.len() {
        1 => rest.pop().unwrap_or_else(|| Term::int(0)),
        _ => raw(Op::Mul, rest, Sort::Int),
    }
}

fn mk_cmp(op: Op, a: Term, b: Term) -> Term {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        return Term::bool(match op {
            Op::Le => x <= y,
            Op::Lt => x < y,
            Op::Ge => x >= y,
            _ => x > y,
        });
    }
    if a == b {
        return Term::bool(matches!(op, Op::Le | Op::Ge));
    }
    raw(op, vec![a, b], Sort::Bool)
}

//! Constant folding of bit-vector operations on literals, as SMT-LIB 2.6 defines them
//! (division by zero included): shared by the simplifier ([`super::build`]) and the evaluator
//! ([`super::eval`]).

use super::{Literal, Op, Term, MAX_BV_LITERAL_WIDTH};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, ToPrimitive};

pub(crate) fn bv_mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

fn msb(v: u128, w: u32) -> bool {
    (v >> (w - 1)) & 1 == 1
}

/// Two's complement reading of a `w`-bit value.
pub(crate) fn to_signed(v: u128, w: u32) -> i128 {
    if w >= 128 {
        v as i128
    } else if msb(v, w) {
        (v as i128) - (1i128 << w)
    } else {
        v as i128
    }
}

/// Folds a bit-vector operation whose arguments are all literals (`None` otherwise).
pub(crate) fn fold_bv(op: &Op, args: &[Term]) -> Option<Term> {
    let lits: Vec<(u128, u32)> = args.iter().map(|a| a.as_bv()).collect::<Option<_>>()?;
    if let (Op::Bv2Nat, Some((a, _))) = (op, lits.first()) {
        return Some(Term::int(BigInt::from(*a)));
    }
    fold_bv_values(op, &lits).map(Literal::term)
}

/// The value of a bit-vector operation on the literals `lits` (value, width), as SMT-LIB
/// 2.6 defines it (division by zero included); `None` for another operation, a result
/// wider than [`MAX_BV_LITERAL_WIDTH`], or `bv2nat` of a value beyond `i128`. Shared by
/// the simplifier ([`fold_bv`]) and the evaluator ([`super::eval`]).
pub(crate) fn fold_bv_values(op: &Op, lits: &[(u128, u32)]) -> Option<Literal> {
    use Op::*;
    let (a, w) = *lits.first()?;
    let m = bv_mask(w);
    let b = lits.get(1).map(|l| l.0).unwrap_or(0);
    let bv = |v: u128| Some(Literal::Bv(v & m, w));
    match op {
        BvNot => bv(!a),
        BvNeg => bv(a.wrapping_neg()),
        BvAnd => bv(lits.iter().fold(m, |acc, l| acc & l.0)),
        BvOr => bv(lits.iter().fold(0, |acc, l| acc | l.0)),
        BvXor => bv(lits.iter().fold(0, |acc, l| acc ^ l.0)),
        BvAdd => bv(lits.iter().fold(0u128, |acc, l| acc.wrapping_add(l.0))),
        BvMul => bv(lits.iter().fold(1u128, |acc, l| acc.wrapping_mul(l.0))),
        BvSub => bv(a.wrapping_sub(b)),
        BvUdiv => bv(udiv(a, b, w)),
        BvUrem => bv(urem(a, b)),
        BvSdiv => bv(sdiv(a, b, w)),
        BvSrem => bv(srem(a, b, w)),
        BvSmod => bv(smod(a, b, w)),
        BvShl => bv(if b >= w as u128 { 0 } else { a << b }),
        BvLshr => bv(if b >= w as u128 { 0 } else { a >> b }),
        BvAshr => {
            if b >= w as u128 {
                bv(if msb(a, w) { m } else { 0 })
            } else {
                let shifted = a >> b;
                let fill = if msb(a, w) && b > 0 { m & !(m >> b) } else { 0 };
                bv(shifted | fill)
            }
        }
        BvUlt => Some(Literal::Bool(a < b)),
        BvUle => Some(Literal::Bool(a <= b)),
        BvUgt => Some(Literal::Bool(a > b)),
        BvUge => Some(Literal::Bool(a >= b)),
        BvSlt => Some(Literal::Bool(to_signed(a, w) < to_signed(b, w))),
        BvSle => Some(Literal::Bool(to_signed(a, w) <= to_signed(b, w))),
        BvSgt => Some(Literal::Bool(to_signed(a, w) > to_signed(b, w))),
        BvSge => Some(Literal::Bool(to_signed(a, w) >= to_signed(b, w))),
        Concat => {
            let total: u32 = lits.iter().map(|l| l.1).sum();
            if total > MAX_BV_LITERAL_WIDTH {
                return None;
            }
            // total <= 128 with at least two parts, so every shift is below 128.
            let v = lits.iter().fold(0u128, |acc, l| (acc << l.1) | l.0);
            Some(Literal::Bv(v, total))
        }
        Extract(hi, lo) => {
            let width = hi.checked_sub(*lo)? + 1;
            Some(Literal::Bv((a >> lo) & bv_mask(width), width))
        }
        ZeroExtend(n) => {
            let total = w.checked_add(*n)?;
            (total <= MAX_BV_LITERAL_WIDTH).then_some(Literal::Bv(a, total))
        }
        SignExtend(n) => {
            let total = w.checked_add(*n)?;
            if total > MAX_BV_LITERAL_WIDTH {
                return None;
            }
            let v = if msb(a, w) {
                a | (bv_mask(total) & !m)
            } else {
                a
            };
            Some(Literal::Bv(v, total))
        }
        Bv2Nat => i128::try_from(a).ok().map(Literal::Int),
        _ => None,
    }
}

/// The value of `(_ int2bv w)` applied to the integer `n` (`n` modulo `2^w`).
fn int2bv_value(n: &BigInt, w: u32) -> Option<u128> {
    let modulus = BigInt::one() << w;
    n.mod_floor(&modulus).to_u128()
}

fn udiv(a: u128, b: u128, w: u32) -> u128 {
    a.checked_div(b).unwrap_or(bv_mask(w))
}

fn urem(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        a % b
    }
}

fn bvneg(a: u128, w: u32) -> u128 {
    a.wrapping_neg() & bv_mask(w)
}

/// SMT-LIB 2.6 `bvsdiv`, transcribed from the standard's definition.
fn sdiv(s: u128, t: u128, w: u32) -> u128 {
    match (msb(s, w), msb(t, w)) {
        (false, false) => udiv(s, t, w),
        (true, false) => bvneg(udiv(bvneg(s, w), t, w), w),
        (false, true) => bvneg(udiv(s, bvneg(t, w), w), w),
        (true, true) => udiv(bvneg(s, w), bvneg(t, w), w),
    }
}

/// SMT-LIB 2.6 `bvsrem`.
fn srem(s: u128, t: u128, w: u32) -> u128 {
    match (msb(s, w), msb(t, w)) {
        (false, false) => urem(s, t),
        (true, false) => bvneg(urem(bvneg(s, w), t), w),
        (false, true) => urem(s, bvneg(t, w)),
        (true, true) => bvneg(urem(bvneg(s, w), bvneg(t, w)), w),
    }
}

/// SMT-LIB 2.6 `bvsmod`.
fn smod(s: u128, t: u128, w: u32) -> u128 {
    let m = bv_mask(w);
    let abs_s = if msb(s, w) { bvneg(s, w) } else { s };
    let abs_t = if msb(t, w) { bvneg(t, w) } else { t };
    let u = urem(abs_s, abs_t);
    if u == 0 {
        return u;
    }
    match (msb(s, w), msb(t, w)) {
        (false, false) => u,
        (true, false) => bvneg(u, w).wrapping_add(t) & m,
        (false, true) => u.wrapping_add(t) & m,
        (true, true) => bvneg(u, w),
    }
}

/// Folds `(_ int2bv w)` applied to an integer literal, for widths that have literals.
pub(crate) fn fold_int2bv(n: &BigInt, w: u32) -> Option<Term> {
    if w > MAX_BV_LITERAL_WIDTH {
        return None;
    }
    int2bv_value(n, w).map(|v| Term::bv(v, w))
}

//! Value ranges of expressions from their structure alone: the Int encoding wraps an
//! arithmetic result only where its range can leave its type, and the overflow checks
//! (`signed-overflow=check`) are placed only where a signed operation can overflow.

use crate::ir::{BinOp, Expr, ExprKind, UnOp};

/// The range of the mathematical result of `a op b` for operands in the ranges `a` and `b`
/// (`+`, `-`, `*`), before any wrap-around; `None` when it does not fit in `i128`.
pub fn raw_range(op: BinOp, a: (i128, i128), b: (i128, i128)) -> Option<(i128, i128)> {
    match op {
        BinOp::Add => Some((a.0.checked_add(b.0)?, a.1.checked_add(b.1)?)),
        BinOp::Sub => Some((a.0.checked_sub(b.1)?, a.1.checked_sub(b.0)?)),
        BinOp::Mul => {
            let ps = [
                a.0.checked_mul(b.0)?,
                a.0.checked_mul(b.1)?,
                a.1.checked_mul(b.0)?,
                a.1.checked_mul(b.1)?,
            ];
            Some((*ps.iter().min()?, *ps.iter().max()?))
        }
        _ => None,
    }
}

/// The values `e` can have, from its structure alone (constants, conversions from narrower
/// types, arithmetic on those), always within `e.ty`'s range. The Int encoding wraps an
/// arithmetic result only when this range says it can leave its type: `(int)c + 1` for a
/// `char c` needs no wrap, `x + 1` for an `int x` does.
pub fn value_range(e: &Expr) -> (i128, i128) {
    let ty = e.ty;
    let full = (ty.min_value(), ty.max_value());
    let fit = |r: (i128, i128)| {
        if ty.contains_range(r) {
            r
        } else {
            full
        }
    };
    match &e.kind {
        ExprKind::Const(v) => (ty.wrap(*v), ty.wrap(*v)),
        ExprKind::Var(_) => full,
        ExprKind::Cast { operand, .. } => fit(value_range(operand)),
        ExprKind::Ite(_, a, b) => {
            let (ra, rb) = (value_range(a), value_range(b));
            fit((ra.0.min(rb.0), ra.1.max(rb.1)))
        }
        ExprKind::Unary(UnOp::Neg, a) => {
            let r = value_range(a);
            fit((-r.1, -r.0))
        }
        ExprKind::Unary(UnOp::BitNot, a) if ty.signed => {
            let r = value_range(a);
            fit((-r.1 - 1, -r.0 - 1))
        }
        ExprKind::Unary(UnOp::LogNot, _) => fit((0, 1)),
        ExprKind::Binary(op, _, _) if op.is_comparison() || op.is_logical() => fit((0, 1)),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
            raw_range(*op, value_range(a), value_range(b)).map_or(full, fit)
        }
        _ => full,
    }
}

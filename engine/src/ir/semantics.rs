//! Exact concrete semantics of [`Expr`] in the ILP32 model: the reference the formula encodings
//! are tested against, the constant folder of the front end, and the interpreter that validates
//! counterexamples before the engine answers FALSE.
//!
//! Decisions (documented in ARCHITECTURE.md): unsigned arithmetic wraps modulo 2^n; signed
//! overflow, undefined in C, wraps like gcc's `-fwrapv`; conversion to a narrower signed type
//! wraps (gcc's implementation-defined choice). Division or remainder by zero, and shifts by a
//! negative amount or by at least the width of the promoted left operand, are undefined
//! behaviour and reported as [`EvalError`].

use crate::ir::{BinOp, Expr, ExprKind, IntType, UnOp, VarId};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    DivisionByZero,
    ShiftOutOfRange(i128),
    /// A variable without a value (only for partial environments such as constant folding).
    Unknown(VarId),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::DivisionByZero => f.write_str("division by zero"),
            EvalError::ShiftOutOfRange(n) => write!(f, "shift by {n} is out of range"),
            EvalError::Unknown(_) => f.write_str("expression is not constant"),
        }
    }
}

/// Applies a binary arithmetic or bitwise operator to operands already converted to `ty`.
pub fn arith(op: BinOp, ty: IntType, a: i128, b: i128) -> Result<i128, EvalError> {
    let r = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a.wrapping_mul(b), // |a|,|b| < 2^64: the product fits in i128
        BinOp::Div => {
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            a / b // Rust's `/` truncates toward zero, as C does
        }
        BinOp::Rem => {
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            a % b // sign of the dividend, as C
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        _ => unreachable!("not an arithmetic operator: {op:?}"),
    };
    Ok(ty.wrap(r))
}

/// `a << b` or `a >> b` where `a` has the (promoted) type `ty` and `b` is the promoted right
/// operand's value.
pub fn shift(op: BinOp, ty: IntType, a: i128, b: i128) -> Result<i128, EvalError> {
    if b < 0 || b >= i128::from(ty.bits()) {
        return Err(EvalError::ShiftOutOfRange(b));
    }
    Ok(match op {
        // For a negative signed left operand C leaves `<<` undefined; like gcc we shift the
        // two's-complement pattern and wrap.
        BinOp::Shl => ty.wrap(a << b),
        // `>>` of a negative value is implementation-defined; gcc shifts arithmetically.
        BinOp::Shr => a >> b,
        _ => unreachable!("not a shift: {op:?}"),
    })
}

pub fn compare(op: BinOp, a: i128, b: i128) -> bool {
    match op {
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        BinOp::Ge => a >= b,
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        _ => unreachable!("not a comparison: {op:?}"),
    }
}

/// Evaluates `e` in the environment `env` (the value of each variable, within its type's range).
pub fn eval(e: &Expr, env: &impl Fn(VarId) -> Option<i128>) -> Result<i128, EvalError> {
    match &e.kind {
        ExprKind::Const(v) => Ok(*v),
        ExprKind::Var(v) => env(*v).ok_or(EvalError::Unknown(*v)),
        ExprKind::Unary(op, a) => {
            let x = eval(a, env)?;
            Ok(match op {
                UnOp::Neg => e.ty.wrap(-x),
                UnOp::BitNot => e.ty.wrap(!x),
                UnOp::LogNot => i128::from(x == 0),
            })
        }
        ExprKind::Binary(op, a, b) => match op {
            BinOp::LogAnd => {
                if eval(a, env)? == 0 {
                    Ok(0)
                } else {
                    Ok(i128::from(eval(b, env)? != 0))
                }
            }
            BinOp::LogOr => {
                if eval(a, env)? != 0 {
                    Ok(1)
                } else {
                    Ok(i128::from(eval(b, env)? != 0))
                }
            }
            op if op.is_comparison() => Ok(i128::from(compare(*op, eval(a, env)?, eval(b, env)?))),
            BinOp::Shl | BinOp::Shr => shift(*op, e.ty, eval(a, env)?, eval(b, env)?),
            op => arith(*op, e.ty, eval(a, env)?, eval(b, env)?),
        },
        ExprKind::Cast { operand, .. } => Ok(e.ty.wrap(eval(operand, env)?)),
        ExprKind::Ite(c, a, b) => {
            if eval(c, env)? != 0 {
                eval(a, env)
            } else {
                eval(b, env)
            }
        }
    }
}

/// The value of a variable-free expression.
pub fn eval_const(e: &Expr) -> Result<i128, EvalError> {
    eval(e, &|_| None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(ty: IntType, v: i128) -> Expr {
        Expr::constant(ty, v)
    }

    fn bin(op: BinOp, ty: IntType, a: Expr, b: Expr) -> Expr {
        Expr {
            ty,
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        }
    }

    #[test]
    fn c_division_truncates() {
        let t = IntType::INT;
        assert_eq!(eval_const(&bin(BinOp::Div, t, c(t, -7), c(t, 2))), Ok(-3));
        assert_eq!(eval_const(&bin(BinOp::Rem, t, c(t, -7), c(t, 2))), Ok(-1));
        assert_eq!(eval_const(&bin(BinOp::Rem, t, c(t, 7), c(t, -2))), Ok(1));
        assert_eq!(
            eval_const(&bin(BinOp::Div, t, c(t, 1), c(t, 0))),
            Err(EvalError::DivisionByZero)
        );
    }

    #[test]
    fn unsigned_wraps() {
        let u = IntType::UINT;
        assert_eq!(
            eval_const(&bin(BinOp::Sub, u, c(u, 0), c(u, 1))),
            Ok(4294967295)
        );
        assert_eq!(
            eval_const(&bin(BinOp::Mul, u, c(u, 65536), c(u, 65536))),
            Ok(0)
        );
        let ull = IntType::ULLONG;
        assert_eq!(
            eval_const(&bin(
                BinOp::Mul,
                ull,
                c(ull, u64::MAX as i128),
                c(ull, u64::MAX as i128)
            )),
            Ok(1)
        );
    }

    #[test]
    fn shifts() {
        let t = IntType::INT;
        assert_eq!(eval_const(&bin(BinOp::Shr, t, c(t, -8), c(t, 1))), Ok(-4));
        assert_eq!(
            eval_const(&bin(BinOp::Shl, t, c(t, 1), c(t, 31))),
            Ok(-2147483648)
        );
        assert_eq!(
            eval_const(&bin(BinOp::Shl, t, c(t, 1), c(t, 32))),
            Err(EvalError::ShiftOutOfRange(32))
        );
    }
}

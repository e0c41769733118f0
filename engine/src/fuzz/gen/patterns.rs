//! Shapes of statements that hinge on wrap-around, truncation, bit tricks or several loop
//! iterations: where verifiers most often disagree with the C semantics.

use super::Gen;
use crate::fuzz::ast::{AssumeFn, BOp, Check, Expr, Stmt, Ty};

impl Gen {
    /// One of the shapes (bit tricks only where the program is not arithmetic only).
    pub(super) fn pattern(&mut self) -> Vec<Stmt> {
        let x = self.fresh("v");
        let n = if self.arith_only { 4 } else { 5 };
        if self.memory && self.rng.chance(80) {
            return self.memory_shape(x);
        }
        match self.rng.below(n) {
            0 => self.signed_overflow(x),
            1 => self.unsigned_wrap(x),
            2 => self.truncation(x),
            3 => self.late_accumulator(x),
            _ => self.bit_tricks(x),
        }
    }

    /// Signed overflow: `x > 0 && x + c < 0` only by wrapping.
    fn signed_overflow(&mut self, x: String) -> Vec<Stmt> {
        let ty = *self
            .rng
            .pick(&[Ty::Int, Ty::Long, Ty::LLong, Ty::Char, Ty::Short]);
        let c = self.rng.range(1, 3);
        self.declare(&x, ty, true);
        let xv = Expr::var(&x, ty);
        vec![
            Stmt::Decl {
                name: x.clone(),
                ty,
                init: None,
            },
            Stmt::If {
                cond: Expr::bin(BOp::Gt, xv.clone(), Expr::int(0)),
                then: vec![
                    Stmt::Assign {
                        name: x.clone(),
                        ty,
                        op: None,
                        e: Expr::bin(BOp::Add, xv.clone(), Expr::Const(c, ty)),
                    },
                    Stmt::Check(Check::ReachUnless, Expr::bin(BOp::Gt, xv, Expr::int(0))),
                ],
                els: Vec::new(),
            },
        ]
    }

    /// Unsigned wrap: `u + k < u` exactly when `u` is near the maximum.
    fn unsigned_wrap(&mut self, x: String) -> Vec<Stmt> {
        let ty = *self.rng.pick(&[Ty::UInt, Ty::ULong, Ty::ULLong]);
        let k = self.rng.range(1, 9);
        self.declare(&x, ty, true);
        let xv = Expr::var(&x, ty);
        let guard = if self.rng.chance(50) {
            vec![Stmt::Assume(
                AssumeFn::Verifier,
                Expr::bin(BOp::Lt, xv.clone(), Expr::Const(ty.max() - k + 1, ty)),
            )]
        } else {
            Vec::new()
        };
        let mut out = vec![Stmt::Decl {
            name: x.clone(),
            ty,
            init: None,
        }];
        out.extend(guard);
        out.push(Stmt::Check(
            Check::Assert,
            Expr::bin(
                BOp::Ge,
                Expr::bin(BOp::Add, xv.clone(), Expr::Const(k, ty)),
                xv,
            ),
        ));
        out
    }

    /// Truncation: a narrow copy differs from the wide value unless it fits.
    fn truncation(&mut self, x: String) -> Vec<Stmt> {
        let narrow = *self.rng.pick(&[Ty::Char, Ty::UChar, Ty::Short, Ty::UShort]);
        let y = self.fresh("v");
        self.declare(&x, Ty::Int, true);
        self.declare(&y, narrow, true);
        let bound = if self.rng.chance(50) {
            narrow.max()
        } else {
            narrow.max() + self.rng.range(1, 3)
        };
        vec![
            Stmt::Decl {
                name: x.clone(),
                ty: Ty::Int,
                init: None,
            },
            Stmt::Assume(
                AssumeFn::AbortIfNot,
                Expr::bin(
                    BOp::LogAnd,
                    Expr::bin(BOp::Ge, Expr::var(&x, Ty::Int), Expr::int(0)),
                    Expr::bin(BOp::Le, Expr::var(&x, Ty::Int), Expr::int(bound)),
                ),
            ),
            Stmt::Decl {
                name: y.clone(),
                ty: narrow,
                init: Some(Expr::var(&x, Ty::Int)),
            },
            Stmt::Check(
                Check::Assert,
                Expr::bin(BOp::Eq, Expr::var(&y, narrow), Expr::var(&x, Ty::Int)),
            ),
        ]
    }

    /// Several iterations: an accumulator reaches a value only late.
    fn late_accumulator(&mut self, x: String) -> Vec<Stmt> {
        let ty = *self.rng.pick(&[Ty::Int, Ty::UInt, Ty::UChar, Ty::Short]);
        let step = self.rng.range(1, 40);
        let n = self.rng.range(2, 6) as u32;
        let i = self.fresh("i");
        self.declare(&x, ty, true);
        let target = ty.wrap(step * i128::from(n) + self.rng.range(-1, 1) * step);
        vec![
            Stmt::Decl {
                name: x.clone(),
                ty,
                init: Some(Expr::Const(0, ty)),
            },
            Stmt::For {
                var: i,
                bound: n,
                down: false,
                body: vec![Stmt::Assign {
                    name: x.clone(),
                    ty,
                    op: Some(BOp::Add),
                    e: Expr::int(step),
                }],
            },
            Stmt::Check(
                Check::ReachUnless,
                Expr::bin(BOp::Ne, Expr::var(&x, ty), Expr::Const(target, ty)),
            ),
        ]
    }

    /// Bit tricks: `x & (x - 1)` clears the lowest set bit; `x ^ x` is 0.
    fn bit_tricks(&mut self, x: String) -> Vec<Stmt> {
        let ty = *self.rng.pick(&[Ty::UInt, Ty::Int, Ty::UChar, Ty::ULLong]);
        self.declare(&x, ty, true);
        let xv = Expr::var(&x, ty);
        let e = Expr::bin(
            BOp::BitAnd,
            xv.clone(),
            Expr::bin(BOp::Sub, xv.clone(), Expr::int(1)),
        );
        let cond = match self.rng.below(3) {
            0 => Expr::bin(BOp::Le, e, Expr::Cast(ty.promote(), Box::new(xv))),
            1 => Expr::bin(BOp::Ne, e, Expr::Const(self.interesting(ty), ty)),
            _ => Expr::bin(
                BOp::Eq,
                Expr::bin(BOp::BitXor, xv.clone(), xv),
                Expr::int(0),
            ),
        };
        vec![
            Stmt::Decl {
                name: x.clone(),
                ty,
                init: None,
            },
            Stmt::Check(Check::Assert, cond),
        ]
    }
}

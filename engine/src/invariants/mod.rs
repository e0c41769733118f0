//! Invariants: what a proof states at a location, and the abstract interpreters that
//! propose them (intervals, octagons) on one chaotic iteration.

pub mod affine;
pub mod fixpoint;
pub mod intervals;
pub mod octagon;

use crate::cfa::{Edge, EdgeKind, NodeId, Rhs};
use crate::ir::{Expr, VarId};
use solver_bridge::term::Term;

/// An invariant an analysis found at a location.
#[derive(Clone, Debug)]
pub enum Formula {
    /// Over unindexed program variables (`main::x`), in the analysis' encoding.
    Smt(Term),
    /// A C expression of the program's intermediate representation.
    C(Expr),
}

/// An invariant at a location of the CFA.
#[derive(Clone, Debug)]
pub struct LocationInvariant {
    pub location: NodeId,
    pub formula: Formula,
}

impl LocationInvariant {
    /// A C condition at `location`.
    pub fn c(location: NodeId, e: Expr) -> LocationInvariant {
        LocationInvariant {
            location,
            formula: Formula::C(e),
        }
    }
}

/// What a call may change besides its result: every global, and every variable that lives in
/// memory (a cell of an object of the memory model: the callee may write it through a pointer,
/// as `count(&c)` writes `c.even`). The analyses forget these at a call.
pub(crate) struct CallEffects {
    cells: std::collections::BTreeSet<VarId>,
}

impl CallEffects {
    pub(crate) fn of(cfa: &crate::cfa::Cfa) -> CallEffects {
        CallEffects {
            cells: cfa
                .objects
                .iter()
                .flat_map(|o| o.cells.iter().map(|(_, v)| *v))
                .collect(),
        }
    }

    pub(crate) fn may_write(&self, cfa: &crate::cfa::Cfa, v: VarId) -> bool {
        cfa.var(v).function.is_none() || self.cells.contains(&v)
    }
}

/// The expressions an edge evaluates, and the variable it writes.
fn edge_parts(e: &Edge) -> (Vec<&Expr>, Option<VarId>) {
    match &e.kind {
        EdgeKind::Assume { cond, .. } => (vec![cond], None),
        EdgeKind::Assign { lhs, rhs }
        | EdgeKind::Declare {
            var: lhs,
            init: Some(rhs),
        } => match rhs {
            Rhs::Expr(x) => (vec![x], Some(*lhs)),
            Rhs::Nondet { .. } => (vec![], Some(*lhs)),
        },
        EdgeKind::Declare { var, init: None } => (vec![], Some(*var)),
        EdgeKind::Call { args, .. } => (args.iter().collect(), None),
        EdgeKind::ReturnValue { value: Some(x), .. } => (vec![x], None),
        EdgeKind::Return { assign, .. } => (vec![], *assign),
        _ => (vec![], None),
    }
}

/// The expressions an edge evaluates.
pub(crate) fn edge_exprs(e: &Edge, f: &mut impl FnMut(&Expr)) {
    for x in edge_parts(e).0 {
        f(x);
    }
}

/// The variables an edge reads or writes.
pub(crate) fn edge_vars(e: &Edge, f: &mut impl FnMut(VarId)) {
    let (exprs, written) = edge_parts(e);
    for x in exprs {
        x.for_each_var(&mut *f);
    }
    if let Some(v) = written {
        f(v);
    }
}

/// The bound `a*x + b*y op c` (`a`, `b` nonzero) as a C condition that means what it says
/// over the integers. Where both variables are `int` and `ranges` (their bounds, from a sound
/// analysis at the location: [`octagon::loop_head_bounds`]) show that neither a product nor
/// the sum nor `c` leaves `int`'s range, it is stated in `int` as a student writes it
/// (`i - 2 * n <= 0`); else in `long long`, where operands of at most 32 bits cannot wrap
/// around (`(long long)i - 2 * (long long)n <= 0`). The two agree at every state within the
/// ranges.
pub fn linear_bound(
    cfa: &crate::cfa::Cfa,
    (a, x): (i128, VarId),
    (b, y): (i128, VarId),
    op: crate::ir::BinOp,
    c: i128,
    ranges: Option<((i128, i128), (i128, i128))>,
) -> Expr {
    use crate::ir::{BinOp, ExprKind, IntType, UnOp};
    // A positive term first where there is one (`n - i`, not `-i + n`).
    let ((a, x), (b, y), ranges) = if a < 0 && b > 0 {
        ((b, y), (a, x), ranges.map(|(rx, ry)| (ry, rx)))
    } else {
        ((a, x), (b, y), ranges)
    };
    let int = IntType::INT;
    let magnitude = |(lo, hi): (i128, i128)| lo.abs().max(hi.abs());
    let narrow = cfa.var(x).ty == int
        && cfa.var(y).ty == int
        && int.contains(c)
        && ranges.is_some_and(|(rx, ry)| {
            a.abs() * magnitude(rx) + b.abs() * magnitude(ry) <= int.max_value()
        });
    let ty = if narrow { int } else { IntType::LLONG };
    let operand = |v: VarId| {
        let var = Expr::var(v, cfa.var(v).ty);
        if narrow {
            var
        } else {
            Expr {
                ty,
                kind: ExprKind::Cast {
                    explicit: true,
                    operand: Box::new(var),
                },
            }
        }
    };
    let scaled = |k: i128, v: VarId| {
        if k.abs() == 1 {
            operand(v)
        } else {
            Expr {
                ty,
                kind: ExprKind::Binary(
                    BinOp::Mul,
                    Box::new(Expr::constant(ty, k.abs())),
                    Box::new(operand(v)),
                ),
            }
        }
    };
    let first = if a > 0 {
        scaled(a, x)
    } else {
        Expr {
            ty,
            kind: ExprKind::Unary(UnOp::Neg, Box::new(scaled(a, x))),
        }
    };
    let sum = Expr {
        ty,
        kind: ExprKind::Binary(
            if b > 0 { BinOp::Add } else { BinOp::Sub },
            Box::new(first),
            Box::new(scaled(b, y)),
        ),
    };
    intervals::cmp(op, sum, Expr::constant(ty, c))
}

#[cfg(test)]
mod tests {
    use crate::frontend::parse_program;
    use crate::ir::BinOp;

    /// `linear_bound` in `int` only where both variables are `int` and their bounds keep every
    /// part of the sum within `int`; else in `long long`.
    #[test]
    fn a_bound_is_widened_only_where_int_could_wrap() {
        let cfa = parse_program(
            "t.c",
            "int main(void) { int i = 0; int n = 0; unsigned u = 0; return i + n + u; }",
        )
        .unwrap()
        .cfa;
        let var = |name: &str| {
            let k = cfa.vars.iter().position(|v| v.name == name).unwrap();
            crate::ir::VarId(k as u32)
        };
        let (i, n, u) = (var("i"), var("n"), var("u"));
        let small = (0, 1_000_000);
        let shown = |a, x, b, y, c, ranges| {
            super::linear_bound(&cfa, (a, x), (b, y), BinOp::Le, c, ranges)
                .display(&cfa)
                .to_string()
        };
        for (got, want) in [
            (
                shown(1, i, -2, n, 0, Some((small, small))),
                "i - 2 * n <= 0",
            ),
            // The positive term first.
            (shown(-1, i, 1, n, 3, Some((small, small))), "n - i <= 3"),
            (shown(-1, i, -1, n, 3, Some((small, small))), "-i - n <= 3"),
            // No bounds, bounds that let 2 * n wrap, an unsigned variable, a constant
            // beyond int: in long long.
            (
                shown(1, i, -2, n, 0, None),
                "(long long)i - 2 * (long long)n <= 0",
            ),
            (
                shown(1, i, -2, n, 0, Some((small, (0, 1 << 30)))),
                "(long long)i - 2 * (long long)n <= 0",
            ),
            (
                shown(1, i, 1, u, 0, Some((small, small))),
                "(long long)i + (long long)u <= 0",
            ),
            (
                shown(1, i, 1, n, 1 << 40, Some((small, small))),
                "(long long)i + (long long)n <= 1099511627776",
            ),
        ] {
            assert_eq!(got, want);
        }
    }
}

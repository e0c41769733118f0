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
/// over the integers: in `long long`, where operands of at most 32 bits cannot wrap around
/// (`(long long)i - 2 * (long long)n <= 0`), a positive term first where there is one. Stated
/// in `int`, the same relation would need the variables' bounds to mean it, and its encoding
/// would carry the wrap-around of every operation (measured: each `-` and `*` becomes a
/// nested `ite`), in every query that assumes it.
pub fn linear_bound(
    cfa: &crate::cfa::Cfa,
    (a, x): (i128, VarId),
    (b, y): (i128, VarId),
    op: crate::ir::BinOp,
    c: i128,
) -> Expr {
    use crate::ir::{BinOp, ExprKind, IntType, UnOp};
    // A positive term first where there is one (`n - i`, not `-i + n`).
    let ((a, x), (b, y)) = if a < 0 && b > 0 {
        ((b, y), (a, x))
    } else {
        ((a, x), (b, y))
    };
    let ty = IntType::LLONG;
    let operand = |v: VarId| Expr {
        ty,
        kind: ExprKind::Cast {
            explicit: true,
            operand: Box::new(Expr::var(v, cfa.var(v).ty)),
        },
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
    use crate::ir::{BinOp, VarId};

    #[test]
    fn a_linear_bound_is_stated_in_long_long_with_a_positive_term_first() {
        let cfa = parse_program(
            "t.c",
            "int main(void) { int i = 0; int n = 0; return i + n; }",
        )
        .unwrap()
        .cfa;
        let var = |name: &str| VarId(cfa.vars.iter().position(|v| v.name == name).unwrap() as u32);
        let (i, n) = (var("i"), var("n"));
        let shown = |a, b, c| {
            super::linear_bound(&cfa, (a, i), (b, n), BinOp::Le, c)
                .display(&cfa)
                .to_string()
        };
        assert_eq!(shown(1, -2, 0), "(long long)i - 2 * (long long)n <= 0");
        assert_eq!(shown(-1, 1, 3), "(long long)n - (long long)i <= 3");
        assert_eq!(shown(-1, -1, 3), "-(long long)i - (long long)n <= 3");
    }
}

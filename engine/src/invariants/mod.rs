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

//! Invariants: what a proof states at a location, and the abstract interpreters that
//! propose them (intervals, octagons) on one chaotic iteration.

pub mod fixpoint;
pub mod intervals;
pub mod octagon;

use crate::cfa::NodeId;
use crate::ir::Expr;
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

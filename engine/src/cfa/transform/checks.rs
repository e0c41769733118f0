//! Assertions at locations: a copy of the CFA in which a condition is checked at each given
//! location before any of its edges is taken. The edges leaving such a location `n` move
//! behind the check,
//!
//! ```text
//! n --[c]--> m --(the edges of n)-->      n --[!(c)]--> o   (o: a new error location)
//! ```
//!
//! so a run that is at `n` with `c` false reaches `o`, and any analysis of the copy that proves
//! no error location reachable proves `c` at every visit of `n` as well. The witness validator
//! checks a correctness witness's invariants this way by running every run of the program
//! ([`crate::witness::correctness`]).
//!
//! Existing node and edge ids are kept (new ones are appended, as for the overflow checks of
//! [`crate::cfa::transform::overflow`]), so a location at or above the original node count is a check's.

use crate::cfa::transform::overflow::insert_check;
use crate::cfa::{Cfa, NodeId, NodeKind};
use crate::ir::Expr;
use std::collections::BTreeMap;

/// A copy of `cfa` with `checks[n]` asserted at each location `n` that has edges leaving it
/// (a location without, an end of the program, is left as it is). With `errors` false, the
/// program's own error locations become ends of a run (as `abort()` is), so only the checks are
/// targets.
pub fn with_checks(cfa: &Cfa, checks: &BTreeMap<NodeId, Expr>, errors: bool) -> Cfa {
    let mut out = cfa.clone();
    if !errors {
        for node in out.nodes.iter_mut() {
            if node.is_error() {
                node.kind = NodeKind::Termination;
            }
        }
    }
    for (&n, c) in checks {
        let edges = out.node(n).outgoing.clone();
        if !edges.is_empty() && !cfa.node(n).is_error() {
            insert_check(&mut out, n, &edges, c.clone(), NodeKind::Error);
        }
    }
    crate::cfa::normalize::order(&mut out);
    out
}

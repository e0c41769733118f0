//! Everything a verdict rests on: the certificate check of a TRUE, the induction check of
//! invariants over blocks, every run executed, function contracts, Houdini's reduction of
//! candidate invariants, and the concrete replay of a FALSE's counterexample.

pub mod certificate;
pub mod contracts;
pub mod counterexample;
pub mod exercise;
pub mod houdini;
pub mod induction;
pub mod runs;
pub mod samples;

use crate::cfa::{Cfa, NodeId};
use crate::ir::Expr;
use crate::text::short;
use std::collections::BTreeMap;

/// What the check of invariants (a witness's or an analysis' own) found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Confirmed,
    Refuted(String),
    /// Neither (a resource limit, a recursion too deep for the check), with the reason.
    Undecided(String),
}

/// `the invariant 'TEXT' at line N` for the invariants at `l` (their texts joined by `&&`).
pub fn described(
    cfa: &Cfa,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
    l: NodeId,
) -> String {
    let value = invariants
        .get(&l)
        .map(|v| {
            v.iter()
                .map(|(_, t)| t.as_str())
                .collect::<Vec<_>>()
                .join(" && ")
        })
        .unwrap_or_default();
    format!(
        "the invariant '{}' at line {}",
        short(&value),
        cfa.node(l).line
    )
}

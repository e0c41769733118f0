//! The Predicate CPA with adjustable-block encoding, as defined in Beyer, Dangl, Wendler, "A
//! Unifying View on SMT-Based Software Verification" (JAR 2018), Sect. 3: states (ψ, l^ψ, φ), a purely syntactic transfer relation (strongest
//! postcondition with SSA indices), merge inside a block, stop on abstraction states only, and
//! precision adjustment that computes a Boolean or Cartesian predicate abstraction at block ends
//! chosen by the block operator blk.

mod abstraction;
pub mod cpa;
mod table;

pub use cpa::PredicateCpa;
pub use table::PredicateTable;

use crate::cfa::NodeId;
use crate::formula::{PathFormula, SsaMap};
use biodivine_lib_bdd::Bdd;
use serde::{Deserialize, Serialize};
use solver_bridge::term::Term;

/// The block operator blk: where blocks end and an abstraction is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockOperator {
    /// Single-block encoding: every location ends a block.
    Sbe,
    /// blk^l: loop heads and error locations.
    LoopHeads,
    /// blk^lf: loop heads, function entries and return sites, error locations (LBE).
    LoopHeadsAndFunctions,
    /// blk^never: no abstraction at all (BMC, k-induction).
    Never,
}

/// How the abstraction of a block is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbstractionKind {
    /// The strongest Boolean combination of the predicates (AllSAT), LBE's choice.
    Boolean,
    /// The strongest conjunction of predicates and negated predicates (one query each), SBE's.
    Cartesian,
}

/// How abstraction formulas ψ are represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Representation {
    /// Binary decision diagrams over the predicates: coverage is a BDD implication.
    Bdd,
    /// SMT formulas: coverage needs a solver query (IMPACT).
    Smt,
}

/// An abstraction formula over unindexed program variables.
#[derive(Clone, Debug)]
pub enum Abs {
    Bdd(Bdd),
    Smt(Term),
}

impl PartialEq for Abs {
    fn eq(&self, other: &Abs) -> bool {
        match (self, other) {
            (Abs::Bdd(a), Abs::Bdd(b)) => a == b,
            (Abs::Smt(a), Abs::Smt(b)) => a == b,
            _ => false,
        }
    }
}

/// Identifies a block: an abstraction state starts one, the intermediate states after it
/// belong to it. Numbered by the CPA in creation order (deterministic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BlockId(pub u64);

/// A state (ψ, l^ψ, φ) of the Predicate CPA.
#[derive(Clone, Debug)]
pub struct PredicateState {
    /// ψ
    pub abs: Abs,
    /// l^ψ
    pub abs_location: NodeId,
    /// The block the state is in (the one it starts, for an abstraction state). Merge requires
    /// the same block (the paper's ψ1 = ψ2 ∧ l1 = l2, made exact: same SSA start too).
    pub block_id: BlockId,
    /// An intermediate state (inside a block), not an abstraction state.
    pub intermediate: bool,
    /// φ, with the SSA map after it. `true` for abstraction states.
    pub pf: PathFormula,
    /// The SSA map at the block start, where ψ is instantiated.
    pub start_ssa: SsaMap,
    /// For abstraction states: the block formula the abstraction was computed from.
    pub block: Option<PathFormula>,
}

impl PredicateState {
    pub fn is_abstraction(&self) -> bool {
        !self.intermediate
    }
}

/// A state with a Predicate CPA component (the Predicate CPA's own, or a composite's): what
/// counterexample checks over block formulas and concrete replay read.
pub trait HasPredicateState: Clone {
    fn predicate_state(&self) -> &PredicateState;
}

impl HasPredicateState for PredicateState {
    fn predicate_state(&self) -> &PredicateState {
        self
    }
}

/// The precision π: predicate ids per location (lazy abstraction).
pub type PredicatePrecision = crate::cpa::LocationPrecision<usize>;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PredicateConfig {
    pub block: BlockOperator,
    pub abstraction: AbstractionKind,
    pub representation: Representation,
    /// Check satisfiability of a block even when the precision is empty, so infeasible blocks
    /// produce no abstraction state (LBE paper, digest S8). Without it an empty precision gives
    /// `true` without a query (Predicate CPA paper).
    pub sat_check_empty: bool,
    /// At most this many cubes per Boolean abstraction; beyond, the Cartesian abstraction.
    pub allsat_limit: usize,
}

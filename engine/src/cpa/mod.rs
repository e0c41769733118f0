//! The configurable program analysis: the CPA operators as a trait, the control CPAs, the ARG
//! and the reached set, and the CPA++ reachability algorithm.
//!
//! Every analysis is a composite of the control CPAs ([`control`]: Location, Callstack,
//! optionally Loop-Bound) and one data CPA ([`Cpa`]: predicate, value, symbolic execution), so
//! the composite operators are written once ([`cpa_plus`]): the data CPA sees the control
//! successor (the strengthening the Predicate CPA needs to know its location), and merge and
//! stop only combine states with equal control parts (CPAchecker's merge-agree).
//!
//! The operators borrow the solver (`&mut dyn Smt`) instead of owning it: the algorithm owns
//! it and lends it to the CPA, the refiner and the certificate check in turn. What a state
//! looks like in the playground ([`Describe`]) is kept apart from the operators.

pub mod algorithm;
pub mod arg;
pub mod control;
pub mod cover_index;
pub mod cpa_plus;
pub mod waitlist;

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;

use crate::cfa::{Edge, NodeId};
use crate::events::StateKind;
use crate::smt::{Result, Smt};
use control::ControlState;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A state of the ARG (an index into its arena, [`arg::Arg`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct ArgId(pub u32);

/// The merge operator of a CPA (the papers' `merge`), as the playground names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MergeKind {
    /// merge^sep: a new state never changes a reached one.
    Sep,
    /// Merge of intermediate states inside one block (ABE: the disjunction of path formulas).
    Block,
    /// merge^join: the join of the two states.
    Join,
}

/// The stop operator of a CPA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopKind {
    /// stop^sep: a new state is covered by one reached state (same control state).
    Sep,
    /// Never stop (BMC and k-induction unroll everything up to the bound).
    Never,
}

/// A precision: per location what the analysis tracks; precisions only grow, by join.
pub trait Precision: Clone + Default + PartialEq {
    fn join(&self, other: &Self) -> Self;
    /// How much is tracked at `l` (a refinement makes progress where this grows).
    fn count_at(&self, l: NodeId) -> usize;
}

/// A precision that is a set of items per location (the predicates of predicate abstraction,
/// the tracked variables of value analysis); lazy abstraction grows it where refinement
/// needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocationPrecision<T: Ord> {
    pub by_location: BTreeMap<NodeId, BTreeSet<T>>,
}

impl<T: Ord> Default for LocationPrecision<T> {
    fn default() -> Self {
        LocationPrecision {
            by_location: BTreeMap::new(),
        }
    }
}

impl<T: Ord + Clone> LocationPrecision<T> {
    /// The items at `l`.
    pub fn at(&self, l: NodeId) -> BTreeSet<T> {
        self.by_location.get(&l).cloned().unwrap_or_default()
    }

    pub fn contains(&self, l: NodeId, x: &T) -> bool {
        self.by_location.get(&l).is_some_and(|s| s.contains(x))
    }

    /// How many (location, item) pairs there are.
    pub fn size(&self) -> usize {
        self.by_location.values().map(BTreeSet::len).sum()
    }
}

impl<T: Ord + Clone + PartialEq> Precision for LocationPrecision<T> {
    fn join(&self, other: &Self) -> Self {
        let mut by_location = self.by_location.clone();
        for (l, xs) in &other.by_location {
            by_location
                .entry(*l)
                .or_default()
                .extend(xs.iter().cloned());
        }
        LocationPrecision { by_location }
    }

    fn count_at(&self, l: NodeId) -> usize {
        self.by_location.get(&l).map_or(0, BTreeSet::len)
    }
}

/// The result of precision adjustment for a new state.
pub struct Adjusted<S> {
    pub state: S,
    /// Set when an abstraction was computed: its formula, the predicates used, the block
    /// formula it was computed from, and the solver queries it took.
    pub abstraction: Option<AbstractionInfo>,
}

#[derive(Clone, Debug, Default)]
pub struct AbstractionInfo {
    pub formula: String,
    pub predicates: Vec<String>,
    pub block: String,
    pub queries: u32,
}

/// What a transfer found besides its successors (shown as an event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransferNote {
    /// A nondeterministic or unknown value was enumerated with the solver: the assignments
    /// of the successors, as text (the efficient-CEGAR paper's bounded enumeration).
    Enumerated { values: Vec<String> },
    /// More than the bound of values: the successor keeps the value unknown.
    EnumerationExceeded { bound: u32 },
    /// A satisfiability check of path constraints (symbolic execution).
    SatCheck { satisfiable: bool },
}

/// The successors of one transfer.
pub struct Successors<S> {
    pub states: Vec<S>,
    pub note: Option<TransferNote>,
}

impl<S> Successors<S> {
    pub fn one(s: S) -> Successors<S> {
        Successors {
            states: vec![s],
            note: None,
        }
    }

    pub fn none() -> Successors<S> {
        Successors {
            states: Vec::new(),
            note: None,
        }
    }
}

/// The data component of a composite analysis, with the operators of a CPA+ (Beyer, Henzinger,
/// Théoduloz 2008) as the Predicate CPA paper uses them. The control part (location, call
/// stack, loop counters) is the composite's; every operator receives it where it matters.
pub trait Cpa {
    type State: Clone;
    type Prec: Precision;

    /// The initial state at the control state `ctl` (the program entry, or k-induction's
    /// arbitrary loop-head state).
    fn initial_state(&mut self, ctl: &ControlState) -> Self::State;

    /// The transfer relation along `edge` from `s` (with control state `from`) to the control
    /// successor `to`, under the precision `prec` of the state being expanded: every
    /// successor (none when the edge is infeasible; several when values are enumerated).
    fn transfer(
        &mut self,
        smt: &mut dyn Smt,
        s: &Self::State,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
        prec: &Self::Prec,
    ) -> Result<Successors<Self::State>>;

    /// `prec`, applied to every new successor before merge and stop (CPA++ line 7). `None`:
    /// the state denotes no concrete state (an abstraction computed `false`).
    fn adjust(
        &mut self,
        smt: &mut dyn Smt,
        s: Self::State,
        ctl: &ControlState,
        prec: &Self::Prec,
    ) -> Result<Option<Adjusted<Self::State>>>;

    fn merge_kind(&self) -> MergeKind;

    /// `merge(new, reached)`: the combination (which must cover `reached`), or `None` to keep
    /// them separate. Called only when [`Cpa::merge_kind`] is not `Sep`.
    fn merge(
        &mut self,
        smt: &mut dyn Smt,
        new: &Self::State,
        reached: &Self::State,
    ) -> Result<Option<Self::State>>;

    fn stop_kind(&self) -> StopKind;

    /// Whether `s` may be covered, or cover, at all (the Predicate CPA covers abstraction
    /// states only).
    fn may_cover(&self, s: &Self::State) -> bool;

    /// `s ⊑ by` (both may cover; equal control parts are guaranteed by the caller).
    fn covered_by(&mut self, smt: &mut dyn Smt, s: &Self::State, by: &Self::State) -> Result<bool>;

    /// A necessary condition for [`Cpa::covered_by`], which lets the stop operator look its
    /// candidates up ([`cover_index`]): `covered_by(s, by)` only if every entry of `by`'s key
    /// is an entry of `s`'s. A key is a list of (component, value) pairs sorted by component,
    /// each component once; equal values must give equal numbers (unequal ones may collide).
    /// `None`, the default: no condition, every reached state at the location is a candidate.
    fn cover_key(&self, _s: &Self::State) -> Option<CoverKey> {
        None
    }

    /// A second necessary condition for [`Cpa::covered_by`], for what a key cannot say (a
    /// subset, not equal entries): `covered_by(s, by)` only if `by`'s set is a subset of
    /// `s`'s. A set is sorted, each number once; equal elements must give equal numbers.
    /// Empty, the default: no condition. The index checks it on the candidates its key
    /// finds, a comparison of two short lists instead of a [`Cpa::covered_by`] call.
    fn cover_set(&self, _s: &Self::State) -> CoverSet {
        CoverSet::new()
    }

    /// A necessary condition for [`Cpa::merge`] returning a state, as [`Cpa::cover_key`] is
    /// for coverage: `merge(new, reached)` is `Some` only if every entry of `reached`'s key
    /// is an entry of `new`'s. `None`, the default: every reached state at the location is a
    /// candidate. Without a key, a location that every loop iteration reaches makes the merge
    /// scan quadratic in the iterations.
    fn merge_key(&self, _s: &Self::State) -> Option<CoverKey> {
        None
    }

    /// Counters for the statistics.
    fn counters(&self) -> Counters {
        Counters::default()
    }
}

/// See [`Cpa::cover_key`].
pub type CoverKey = Vec<(u64, u64)>;

/// See [`Cpa::cover_set`].
pub type CoverSet = Vec<u64>;

/// A cover-key component for a program-variable slot (ordered as the slots are).
pub fn slot_component(slot: crate::formula::ssa::Slot) -> u64 {
    (u64::from(slot.var.0) << 32) | u64::from(slot.instance)
}

/// A cover-key value: a hash of `v` (equal values, equal hashes; deterministic).
pub fn key_value(v: &impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// What a CPA counts for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Abstractions computed.
    pub abstractions: u64,
    /// The size of the precision vocabulary (predicates discovered, variables tracked).
    pub precision: u64,
}

/// How the playground shows a state: its kind and a one-line label (an abstraction formula,
/// the known values, the path constraints).
pub trait Describe: Cpa {
    fn describe(&self, s: &Self::State) -> (StateKind, String);

    /// The kind alone (cheaper than the label).
    fn kind(&self, s: &Self::State) -> StateKind {
        self.describe(s).0
    }
}

//! The configurable program analysis: composite CPAs, the ARG and the reached set, and the
//! CPA++ reachability algorithm.
//!
//! Every analysis is a composite of the control CPAs ([`control`]: Location, Callstack,
//! optionally Loop-Bound) and one data CPA (predicate, value, symbolic), so the composite
//! operators are written once: the data CPA sees the control successor (the strengthening the
//! Predicate CPA needs to know its location), merge and stop only combine states with equal
//! control parts.

pub mod arg;
pub mod control;
pub mod cpa_plus;
pub mod waitlist;

use crate::cfa::Edge;
use crate::smt::Result;
use arg::ArgId;
use control::ControlState;

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

/// The data component of a composite analysis, with the operators of a CPA+ (Beyer, Henzinger,
/// Théoduloz 2008) as the Predicate CPA paper uses them.
pub trait DataCpa {
    type State: Clone;
    type Prec;

    /// The transfer relation along `edge` from `parent` (with control state `from`) to the
    /// control successor `to`. `None`: no successor.
    fn transfer(
        &mut self,
        s: &Self::State,
        parent: ArgId,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
    ) -> Result<Option<Self::State>>;

    /// `prec`, applied to every new successor before merge and stop (CPA++ line 7). `None`:
    /// the state denotes no concrete state (an abstraction computed `false`).
    fn adjust(
        &mut self,
        s: Self::State,
        ctl: &ControlState,
        prec: &Self::Prec,
    ) -> Result<Option<Adjusted<Self::State>>>;

    /// `merge`: the combination of a new state with a reached one, or `None` to keep them
    /// separate (merge^sep).
    fn merge(&mut self, new: &Self::State, reached: &Self::State) -> Result<Option<Self::State>>;

    /// Whether `s` may be covered at all (the Predicate CPA covers abstraction states only).
    fn may_cover(&self, s: &Self::State) -> bool;

    /// `s ⊑ by` (both may cover; equal control parts are guaranteed by the caller).
    fn covered_by(&mut self, s: &Self::State, by: &Self::State) -> Result<bool>;

    /// A short description of the state for the ARG view.
    fn label(&self, s: &Self::State) -> (crate::events::StateKind, String);
}

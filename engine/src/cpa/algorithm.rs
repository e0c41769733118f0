//! The interface of a verification algorithm: a stepping machine (CPAchecker's `Algorithm`,
//! next to the CPA interfaces in the core). Each [`Algorithm::step`] does one unit of work
//! (one waitlist pop with its expansion, one refinement, one satisfiability check) and appends
//! the events it caused, so a session can pause after any of them.

use crate::events::Event;
use crate::smt::Result;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// The counts of a run: the session's steps and what the algorithm reports. An algorithm
/// leaves `steps` and `abstraction_states` to the session (it counts the steps and walks the
/// ARG for the abstraction states only when a report asks).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub steps: u64,
    pub states: u64,
    pub refinements: u64,
    pub solver_queries: u64,
    /// Queries answered from the query cache ([`crate::smt::cache`]), not in
    /// `solver_queries`.
    #[serde(default)]
    pub cache_hits: u64,
    /// The solver's work in resource units ([`crate::smt::Smt::work`]).
    #[serde(default)]
    pub solver_work: u64,
    pub abstractions: u64,
    pub abstraction_states: u64,
    pub predicates: u64,
    pub bound: u64,
}

pub trait Algorithm {
    /// One unit of work. `Some(verdict)` ends the run.
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>>;
    /// Counters, read before every step (the session's limits): constant time.
    fn stats(&self) -> Stats;
    /// Abstraction states in the current ARG (not covered, not removed): the ARG size the LBE
    /// paper reports, since states inside a block are only intermediate. Walks the ARG, so it
    /// is for reports, not for every step.
    fn abstraction_states(&self) -> u64 {
        0
    }
    /// After TRUE: invariants by location that the proof rests on (for correctness
    /// witnesses); empty where the algorithm has none to give.
    fn invariants(&self) -> Vec<crate::invariants::LocationInvariant> {
        Vec::new()
    }
}

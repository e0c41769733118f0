//! Verification algorithms as stepping machines: each [`Algorithm::step`] does one unit of work
//! (one waitlist pop with its expansion, one refinement, one satisfiability check) and appends
//! the events it caused, so a session can pause after any of them.

pub mod bmc;
pub mod cegar;
pub mod kinduction;
pub mod overflow;
pub mod unroll;

use crate::events::Event;
use crate::events::VerdictKind;
use crate::proof::counterexample::Counterexample;
use crate::smt::Result;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    True,
    False { counterexample: Counterexample },
    Unknown { reason: String },
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::True => "true",
            Verdict::False { .. } => "false",
            Verdict::Unknown { .. } => "unknown",
        }
    }

    /// The verdict in SV-COMP's form for the one supported property, `unreach-call`.
    pub fn svcomp(&self) -> &'static str {
        match self {
            Verdict::True => "TRUE",
            Verdict::False { .. } => "FALSE(unreach-call)",
            Verdict::Unknown { .. } => "UNKNOWN",
        }
    }

    pub fn kind(&self) -> VerdictKind {
        match self {
            Verdict::True => VerdictKind::True,
            Verdict::False { .. } => VerdictKind::False,
            Verdict::Unknown { .. } => VerdictKind::Unknown,
        }
    }

    pub fn reason(&self) -> Option<&str> {
        match self {
            Verdict::Unknown { reason } => Some(reason),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AlgoStats {
    pub states: u64,
    pub refinements: u64,
    pub solver_queries: u64,
    /// Queries answered from the query cache, without a round trip.
    pub cache_hits: u64,
    pub abstractions: u64,
    pub predicates: u64,
    pub bound: u64,
}

pub trait Algorithm {
    /// One unit of work. `Some(verdict)` ends the run.
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>>;
    /// Counters, read before every step (the session's limits): constant time.
    fn stats(&self) -> AlgoStats;
    /// Abstraction states in the current ARG (not covered, not removed): the ARG size the LBE
    /// paper reports, since states inside a block are only intermediate. Walks the ARG, so it
    /// is for reports, not for every step.
    fn abstraction_states(&self) -> u64 {
        0
    }
    /// After TRUE: invariants by location that the proof rests on (for correctness
    /// witnesses); empty where the algorithm has none to give.
    fn invariants(&self) -> Vec<crate::witness::correctness::LocationInvariant> {
        Vec::new()
    }
}

//! Invariants: what a proof states at a location, and the abstract interpreters that
//! propose them (intervals, octagons) on one chaotic iteration.

pub mod fixpoint;
pub mod intervals;
pub mod octagon;

//! The CPA Playground engine: C front end, control-flow automaton, large-block encoding and
//! the configurable program analysis. The engine does no I/O and reads no clock.

pub mod accel;
pub mod algorithm;
pub mod analysis;
pub mod certificate;
pub mod cfa;
pub mod concrete;
pub mod config;
pub mod counterexample;
pub mod cpa;
pub mod diag;
pub mod events;
pub mod fixpoint;
pub mod formula;
pub mod frontend;
pub mod fuzz;
pub mod generators;
pub mod houdini;
pub mod intervals;
pub mod ir;
pub mod lbe;
pub mod octagon;
pub mod predicate;
pub mod query_cache;
pub mod refinement;
pub mod report;
pub mod semantics;
pub mod session;
pub mod smt;
pub mod summary;
pub mod symbolic;
pub mod value;
pub mod value_predicate;
pub mod view;
pub mod witness;

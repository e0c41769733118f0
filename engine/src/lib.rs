//! The CPA Playground engine: C front end, control-flow automaton, large-block encoding and
//! (later) the configurable program analysis. The engine does no I/O and reads no clock.

pub mod cfa;
pub mod diag;
pub mod frontend;
pub mod ir;
pub mod lbe;
pub mod report;
pub mod semantics;

//! The CPA Playground engine: C front end, control-flow automaton, large-block encoding and
//! the configurable program analysis. The engine does no I/O and reads no clock.
//!
//! **The public boundary** is what the page and the CLI's verification commands use:
//! [`config`] (presets, knobs and every typed setting), [`session`] (a run as a stepping
//! machine, its statistics and limits), [`view`] (the ARG replayed from the events),
//! [`events`], [`verdict`], [`report`] (the CFA, the LBE summary and the run as JSON),
//! [`witness`], [`diag`], [`smt`] (the solver door the host provides), [`text`] (bounded
//! texts), [`lesson`] (lessons checked against runs), [`parse_program`] and [`Cfa`]. The layers below are public for the CLI's developer
//! commands, the fuzzer and the integration tests; ARCHITECTURE.md lists them in their order
//! (each imports only those before it, checked by `scripts/import-cycles.py`).

pub use cfa::Cfa;
pub use frontend::parse_program;
pub use session::{config, report, view};

pub mod algorithm;
pub mod cfa;
pub mod concrete;
pub mod cpa;
pub mod diag;
pub mod domains;
pub mod events;
pub mod formula;
pub mod frontend;
pub mod fuzz;
pub mod invariants;
pub mod ir;
pub mod lesson;
pub mod memo;
pub mod proof;
pub mod refinement;
pub mod session;
pub mod smt;
pub mod text;
pub mod verdict;
pub mod witness;

/// Shared by the unit tests that run on a program of `tests/verdicts/` with the real z3.
#[cfg(test)]
pub(crate) mod test_util {
    use crate::cfa::Cfa;
    use crate::frontend::parse_program;
    use crate::smt::BridgeSmt;
    use solver_bridge::solver::NativeZ3;

    /// The CFA of `tests/verdicts/NAME.c` and a solver.
    pub fn verdict_program(name: &str) -> (Cfa, BridgeSmt<NativeZ3>) {
        let path = format!("{}/../tests/verdicts/{name}.c", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(path).unwrap();
        let cfa = parse_program("t.c", &src).expect("parses").cfa;
        (
            cfa,
            BridgeSmt::new(NativeZ3::new().expect("the tests need z3")),
        )
    }
}

//! Shared by the engine's integration tests that run sessions with the real native z3.

use cpa_engine::config::Config;
use cpa_engine::frontend::parse_program;
use cpa_engine::session::Session;
use cpa_engine::smt::BridgeSmt;
use solver_bridge::solver::NativeZ3;
use std::rc::Rc;

/// A session on `src` with `config`, solving with a fresh `z3 -in`.
pub fn native_session(src: &str, config: Config) -> Session {
    let parsed = parse_program("t.c", src).expect("parses");
    let smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
    Session::new(Rc::new(parsed.cfa), config, Box::new(smt))
}

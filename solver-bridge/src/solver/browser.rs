//! The browser backend: the engine's Web Worker provides the synchronous JavaScript functions
//! `cpaZ3Eval(text)`, which runs `Z3_eval_smtlib2_string` on the worker's single Z3 context,
//! and `cpaZ3Reset()`, which replaces that context with a new one. Because the context is
//! shared, solvers are handed out as [`SharedSolver`] handles on one per-thread [`SharedPool`],
//! which keeps their assertions apart.
//!
//! `(reset)` is implemented with `cpaZ3Reset()`, not sent to Z3: in the API build, `(reset)`
//! keeps the context's term manager, so term ids keep growing and Z3's answers (the order of
//! the disjuncts quantifier elimination produces, for example) depend on everything the worker
//! did before. `z3 -in` gets a fresh manager on `(reset)`; a fresh context does the same here,
//! so the same queries get the same answers, request after request.

use super::{split_at_resets, Segment, SharedPool, SharedSolver, Solver, SolverError};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = cpaZ3Eval, catch)]
    fn cpa_z3_eval(text: &str) -> Result<String, JsValue>;
    #[wasm_bindgen(js_name = cpaZ3Reset, catch)]
    fn cpa_z3_reset() -> Result<(), JsValue>;
}

/// The raw transport to the worker's Z3 context (use [`browser_solver`] for an isolated
/// solver).
#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserZ3;

fn js_error(e: JsValue, what: &str) -> SolverError {
    SolverError::Io {
        message: e
            .as_string()
            .unwrap_or_else(|| format!("{what} threw {e:?}")),
    }
}

impl Solver for BrowserZ3 {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        let mut reply = String::new();
        for segment in split_at_resets(text)? {
            match segment {
                Segment::Reset => cpa_z3_reset().map_err(|e| js_error(e, "cpaZ3Reset"))?,
                Segment::Text(t) => {
                    reply.push_str(&cpa_z3_eval(t).map_err(|e| js_error(e, "cpaZ3Eval"))?)
                }
            }
        }
        Ok(reply.trim_end().to_string())
    }
}

thread_local! {
    static POOL: SharedPool<BrowserZ3> = SharedPool::new(BrowserZ3);
}

/// A new solver with its own (empty) context on the worker's Z3.
pub fn browser_solver() -> SharedSolver<BrowserZ3> {
    POOL.with(|p| p.handle())
}

/// Evaluates `text` directly on the worker's Z3 context (no isolation: declarations and
/// assertions stay for the next raw query), for the console and tests. Every
/// [`browser_solver`] handle restores its own state before its next query.
pub fn browser_eval_raw(text: &str) -> Result<String, SolverError> {
    POOL.with(|p| p.invalidate());
    BrowserZ3.eval(text)
}

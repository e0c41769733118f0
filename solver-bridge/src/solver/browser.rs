//! The browser backend: the engine's Web Worker provides the synchronous JavaScript function
//! `cpaZ3Eval(text)`, which runs `Z3_eval_smtlib2_string` on the worker's single Z3 context.
//! Because that context is shared, solvers are handed out as [`SharedSolver`] handles on one
//! per-thread [`SharedPool`], which keeps their assertions apart.

use super::{validate_query, SharedPool, SharedSolver, Solver, SolverError};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = cpaZ3Eval, catch)]
    fn cpa_z3_eval(text: &str) -> Result<String, JsValue>;
}

/// The raw transport to the worker's Z3 context (use [`browser_solver`] for an isolated
/// solver).
#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserZ3;

impl Solver for BrowserZ3 {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        validate_query(text)?;
        cpa_z3_eval(text)
            .map(|s| s.trim_end().to_string())
            .map_err(|e| SolverError::Io {
                message: e
                    .as_string()
                    .unwrap_or_else(|| format!("cpaZ3Eval threw {e:?}")),
            })
    }
}

thread_local! {
    static POOL: SharedPool<BrowserZ3> = SharedPool::new(BrowserZ3);
}

/// A new solver with its own (empty) context on the worker's Z3.
pub fn browser_solver() -> SharedSolver<BrowserZ3> {
    POOL.with(|p| p.handle())
}

//! Several logical solvers over one physical SMT-LIB context.
//!
//! The browser build has one Z3 context per Web Worker, but the engine may want more than one
//! solver (for example one for abstraction and one for interpolation). Each [`SharedSolver`]
//! handle keeps a journal of the commands that make up its state (declarations, assertions,
//! options, push levels, and the last `check-sat`, so that `get-model` still works after a
//! switch). When a handle uses the context after another one did, it first sends `(reset)` and
//! replays its journal, so two handles never see each other's assertions. The same code runs
//! natively over [`super::NativeZ3`], which is how it is tested.

use super::{Solver, SolverError};
use crate::sexp;
use std::cell::RefCell;
use std::rc::Rc;

struct Inner<S> {
    solver: S,
    /// The handle whose state the physical context holds, if known.
    owner: Option<u64>,
    next_id: u64,
}

/// Owns the physical solver and hands out isolated handles.
pub struct SharedPool<S: Solver> {
    inner: Rc<RefCell<Inner<S>>>,
}

impl<S: Solver> SharedPool<S> {
    pub fn new(solver: S) -> SharedPool<S> {
        SharedPool {
            inner: Rc::new(RefCell::new(Inner {
                solver,
                owner: None,
                next_id: 0,
            })),
        }
    }

    /// Forgets whose state the physical context holds, so that every handle restores its own
    /// before its next query. For callers that used the physical solver directly (the
    /// worker's raw `z3-query` request).
    pub fn invalidate(&self) {
        if let Ok(mut inner) = self.inner.try_borrow_mut() {
            inner.owner = None;
        }
    }

    /// A new logical solver with an empty context.
    pub fn handle(&self) -> SharedSolver<S> {
        let id = {
            let mut inner = self.inner.borrow_mut();
            inner.next_id += 1;
            inner.next_id
        };
        SharedSolver {
            inner: self.inner.clone(),
            id,
            journal: Journal::default(),
        }
    }
}

impl<S: Solver> Clone for SharedPool<S> {
    fn clone(&self) -> Self {
        SharedPool {
            inner: self.inner.clone(),
        }
    }
}

/// What a handle's context consists of, as the commands that built it.
#[derive(Default, Clone, Debug)]
struct Journal {
    /// `frames[0]` is the base level; each `(push 1)` opens another.
    frames: Vec<Vec<String>>,
    /// `check-sat` commands issued since the last change of state.
    checks: Vec<String>,
}

impl Journal {
    fn frame(&mut self) -> &mut Vec<String> {
        if self.frames.is_empty() {
            self.frames.push(Vec::new());
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn record(&mut self, command: &str, head: Option<&str>) {
        match head {
            Some("push") => {
                let n = level_count(command);
                self.frame();
                for _ in 0..n {
                    self.frames.push(Vec::new());
                }
                self.checks.clear();
            }
            Some("pop") => {
                let n = level_count(command);
                for _ in 0..n {
                    if self.frames.len() > 1 {
                        self.frames.pop();
                    }
                }
                self.checks.clear();
            }
            Some("reset") => {
                self.frames.clear();
                self.checks.clear();
            }
            Some("reset-assertions") => {
                // Keeps options and the logic, drops assertions and declarations.
                let kept: Vec<String> = self
                    .frames
                    .first()
                    .map(|f| {
                        f.iter()
                            .filter(|c| {
                                let h = sexp::split(c).ok().and_then(|i| {
                                    i.first().and_then(|i| i.head().map(str::to_string))
                                });
                                matches!(
                                    h.as_deref(),
                                    Some("set-option" | "set-logic" | "set-info")
                                )
                            })
                            .cloned()
                            .collect()
                    })
                    .unwrap_or_default();
                self.frames = vec![kept];
                self.checks.clear();
            }
            Some("check-sat" | "check-sat-assuming") => {
                self.checks.clear();
                self.checks.push(command.to_string());
            }
            // Queries that do not change the state.
            Some(
                "get-model"
                | "get-value"
                | "get-unsat-core"
                | "get-info"
                | "get-option"
                | "get-assertions"
                | "get-assignment"
                | "get-proof"
                | "get-unsat-assumptions"
                | "echo"
                | "simplify"
                | "apply"
                | "eval",
            ) => {}
            _ => {
                self.frame().push(command.to_string());
                self.checks.clear();
            }
        }
    }

    /// The text that rebuilds this state in a fresh context.
    fn replay_text(&self) -> String {
        let mut out = String::from("(reset)\n");
        for (i, f) in self.frames.iter().enumerate() {
            if i > 0 {
                out.push_str("(push 1)\n");
            }
            for c in f {
                out.push_str(c);
                out.push('\n');
            }
        }
        for c in &self.checks {
            out.push_str(c);
            out.push('\n');
        }
        out
    }
}

fn level_count(command: &str) -> usize {
    sexp::list(command)
        .ok()
        .and_then(|items| items.get(1).and_then(|i| i.text.parse::<usize>().ok()))
        .unwrap_or(1)
}

/// One logical solver; see the module documentation.
pub struct SharedSolver<S: Solver> {
    inner: Rc<RefCell<Inner<S>>>,
    id: u64,
    journal: Journal,
}

impl<S: Solver> Solver for SharedSolver<S> {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        let items = sexp::split(text).map_err(|e| SolverError::MalformedQuery {
            message: e.to_string(),
        })?;
        let mut inner = self.inner.borrow_mut();
        if inner.owner != Some(self.id) {
            inner.owner = None;
            let replay = self.journal.replay_text();
            let reply = inner.solver.eval(&replay)?;
            if let Some(e) = first_error(&reply) {
                return Err(SolverError::Reported {
                    message: format!("while restoring the context: {e}"),
                });
            }
            inner.owner = Some(self.id);
        }
        for item in &items {
            self.journal.record(item.text, item.head());
        }
        let result = inner.solver.eval(text);
        if result.is_err() {
            // The physical state is unknown now: rebuild it before the next use.
            inner.owner = None;
        }
        result
    }
}

impl<S: Solver> Drop for SharedSolver<S> {
    fn drop(&mut self) {
        if let Ok(mut inner) = self.inner.try_borrow_mut() {
            if inner.owner == Some(self.id) {
                inner.owner = None;
            }
        }
    }
}

/// The message of the first `(error ...)` item of a reply.
fn first_error(reply: &str) -> Option<String> {
    let items = sexp::split(reply).ok()?;
    items.iter().find_map(|i| {
        if i.head() == Some("error") {
            Some(i.text.to_string())
        } else {
            None
        }
    })
}

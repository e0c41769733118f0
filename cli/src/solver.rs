//! The native solver stack of the CLI: a `z3 -in` process with the time spent in it measured
//! here (the engine reads no clock).

use solver_bridge::solver::{NativeZ3, Solver, SolverError};
use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

/// Adds up the wall time of every query.
pub struct Timed<S> {
    inner: S,
    pub nanos: Rc<Cell<u128>>,
}

impl<S: Solver> Solver for Timed<S> {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        let start = Instant::now();
        let r = self.inner.eval(text);
        self.nanos
            .set(self.nanos.get() + start.elapsed().as_nanos());
        r
    }
}

/// A fresh native Z3 and the counter of nanoseconds spent in it.
pub fn native() -> Result<(Timed<NativeZ3>, Rc<Cell<u128>>), SolverError> {
    let nanos = Rc::new(Cell::new(0));
    Ok((
        Timed {
            inner: NativeZ3::new()?,
            nanos: nanos.clone(),
        },
        nanos,
    ))
}

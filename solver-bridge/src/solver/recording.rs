//! Recording every query (for the playground's solver log) and replaying a recorded log
//! without a solver (for fast, deterministic tests).
//!
//! The engine reads no clock: durations come from an injected [`Clock`]. Natively that may be
//! [`StdClock`] (`std::time::Instant`); in the browser the worker can pass `performance.now()`
//! through [`FnClock`]; [`NoClock`] records no durations, which keeps logs byte-identical
//! between runs.

use super::{Solver, SolverError};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;

/// A source of timestamps in microseconds.
pub trait Clock {
    /// The current time, or `None` if this clock measures nothing.
    fn now_micros(&mut self) -> Option<u64>;
}

/// Measures nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoClock;

impl Clock for NoClock {
    fn now_micros(&mut self) -> Option<u64> {
        None
    }
}

/// A caller-supplied clock, e.g. one that calls `performance.now()`.
pub struct FnClock<F: FnMut() -> u64>(pub F);

impl<F: FnMut() -> u64> Clock for FnClock<F> {
    fn now_micros(&mut self) -> Option<u64> {
        Some((self.0)())
    }
}

/// Wall-clock time from `std::time::Instant` (native only).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug)]
pub struct StdClock(std::time::Instant);

#[cfg(not(target_arch = "wasm32"))]
impl Default for StdClock {
    fn default() -> Self {
        StdClock(std::time::Instant::now())
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Clock for StdClock {
    fn now_micros(&mut self) -> Option<u64> {
        Some(self.0.elapsed().as_micros() as u64)
    }
}

/// One query and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// 0-based position in the log.
    pub index: usize,
    pub query: String,
    pub reply: Result<String, SolverError>,
    /// How long the query took, if a clock was supplied.
    pub micros: Option<u64>,
}

/// A shared, growing solver log (cheap to clone; the UI can hold one while the engine owns the
/// solver).
#[derive(Clone, Debug, Default)]
pub struct SolverLog {
    entries: Rc<RefCell<Vec<LogEntry>>>,
}

impl SolverLog {
    pub fn new() -> SolverLog {
        SolverLog::default()
    }

    pub fn len(&self) -> usize {
        self.entries.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A copy of the entries.
    pub fn entries(&self) -> Vec<LogEntry> {
        self.entries.borrow().clone()
    }

    /// A copy of the entries from `start` on (for incremental display).
    pub fn entries_from(&self, start: usize) -> Vec<LogEntry> {
        self.entries
            .borrow()
            .get(start..)
            .map(|s| s.to_vec())
            .unwrap_or_default()
    }

    /// The log as JSON (an array of entries), for files and replay.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&*self.entries.borrow()).unwrap_or_else(|_| "[]".into())
    }

    fn push(&self, e: LogEntry) {
        self.entries.borrow_mut().push(e);
    }
}

/// A solver wrapper that logs every query.
pub struct Recording<S: Solver, C: Clock = NoClock> {
    inner: S,
    clock: C,
    log: SolverLog,
}

impl<S: Solver> Recording<S, NoClock> {
    /// Records without durations.
    pub fn new(inner: S) -> Recording<S, NoClock> {
        Recording::with_clock(inner, NoClock)
    }
}

impl<S: Solver, C: Clock> Recording<S, C> {
    pub fn with_clock(inner: S, clock: C) -> Recording<S, C> {
        Recording {
            inner,
            clock,
            log: SolverLog::new(),
        }
    }

    /// The log (shared: it keeps growing as the solver is used).
    pub fn log(&self) -> SolverLog {
        self.log.clone()
    }

    pub fn inner(&self) -> &S {
        &self.inner
    }

    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: Solver, C: Clock> Solver for Recording<S, C> {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        let start = self.clock.now_micros();
        let reply = self.inner.eval(text);
        let micros = match (start, self.clock.now_micros()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        self.log.push(LogEntry {
            index: self.log.len(),
            query: text.to_string(),
            reply: reply.clone(),
            micros,
        });
        reply
    }
}

/// Answers queries from a recorded log; a query that differs from the recorded one is an
/// error.
#[derive(Clone, Debug)]
pub struct Replay {
    entries: Vec<LogEntry>,
    next: usize,
}

impl Replay {
    pub fn new(entries: Vec<LogEntry>) -> Replay {
        Replay { entries, next: 0 }
    }

    /// Reads a log written by [`SolverLog::to_json`].
    pub fn from_json(json: &str) -> Result<Replay, String> {
        serde_json::from_str(json)
            .map(Replay::new)
            .map_err(|e| format!("bad solver log: {e}"))
    }

    /// Entries not yet replayed.
    pub fn remaining(&self) -> usize {
        self.entries.len() - self.next
    }
}

impl Solver for Replay {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        let index = self.next;
        let Some(entry) = self.entries.get(index) else {
            return Err(SolverError::ReplayExhausted {
                index,
                actual: text.to_string(),
            });
        };
        if entry.query != text {
            return Err(SolverError::ReplayMismatch {
                index,
                expected: entry.query.clone(),
                actual: text.to_string(),
            });
        }
        self.next += 1;
        entry.reply.clone()
    }
}

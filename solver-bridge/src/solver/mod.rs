//! The lowest layer: a synchronous door that takes SMT-LIB text and returns the solver's reply.
//!
//! `eval(text)` sends any number of commands and returns everything the solver printed for
//! them, as Z3's `Z3_eval_smtlib2_string` does in the browser. Backends:
//! - [`NativeZ3`] (not on wasm32): a long-lived `z3 -in` process;
//! - [`BrowserZ3`] (wasm32 only): the engine worker's synchronous `cpaZ3Eval`;
//! - [`SharedPool`]/[`SharedSolver`]: several logical solvers over one physical context, kept
//!   apart by `(reset)` and replay (the browser has one Z3 context per worker);
//! - [`Recording`] logs every query, reply and duration; [`Replay`] answers from such a log.

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(not(target_arch = "wasm32"))]
mod native;
mod recording;
mod shared;

#[cfg(target_arch = "wasm32")]
pub use browser::{browser_eval_raw, browser_solver, BrowserZ3};
#[cfg(not(target_arch = "wasm32"))]
pub use native::{default_program, NativeZ3, PINNED_Z3_VERSION};
#[cfg(not(target_arch = "wasm32"))]
pub use recording::StdClock;
pub use recording::{Clock, FnClock, LogEntry, NoClock, Recording, Replay, SolverLog};
pub use shared::{SharedPool, SharedSolver};

use serde::{Deserialize, Serialize};
use std::fmt;

/// A synchronous SMT-LIB solver.
pub trait Solver {
    /// Sends SMT-LIB commands; returns everything the solver printed for them (possibly
    /// empty). A reply that contains `(error ...)` is still `Ok` here: the typed layer
    /// ([`crate::context::SmtContext`]) interprets replies.
    fn eval(&mut self, text: &str) -> Result<String, SolverError>;
}

impl<S: Solver + ?Sized> Solver for &mut S {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        (**self).eval(text)
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        (**self).eval(text)
    }
}

/// Everything that can go wrong below the interpolation layer. Serializable, so recorded logs
/// can replay failures too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SolverError {
    /// The solver program could not be started (for example `z3` is not installed).
    NotFound { program: String, message: String },
    /// The solver process died while answering. It was restarted (`restarted`), but every
    /// assertion and declaration is gone.
    Died { message: String, restarted: bool },
    /// Talking to the solver failed (pipe I/O, a JavaScript exception).
    Io { message: String },
    /// The query is malformed and was not sent (unbalanced parentheses, `(exit)`).
    MalformedQuery { message: String },
    /// The solver answered `(error "...")`.
    Reported { message: String },
    /// The solver answered `unsupported`.
    Unsupported { query: String },
    /// The reply could not be understood.
    UnexpectedReply { expected: String, reply: String },
    /// Misuse of the typed layer (pop below the base level, a sort clash, ...).
    Usage { message: String },
    /// An earlier error left the context in an unknown state; call `reset`.
    Poisoned { cause: String },
    /// Replay: the query differs from the recorded one.
    ReplayMismatch {
        index: usize,
        expected: String,
        actual: String,
    },
    /// Replay: the log has no more entries.
    ReplayExhausted { index: usize, actual: String },
    /// The context's round-trip limit was reached ([`crate::context::SmtContext::set_round_trip_limit`]);
    /// nothing was sent.
    RoundTripLimit { limit: u64 },
    /// The context's work limit was reached ([`crate::context::SmtContext::set_work_limit`]);
    /// nothing was sent.
    WorkLimit { limit: u64 },
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SolverError::*;
        match self {
            NotFound { program, message } => {
                write!(f, "cannot start the solver `{program}`: {message}")
            }
            Died { message, restarted } => write!(
                f,
                "the solver died ({message}){}",
                if *restarted {
                    "; it was restarted with an empty context"
                } else {
                    "; restarting it failed"
                }
            ),
            Io { message } => write!(f, "solver I/O error: {message}"),
            MalformedQuery { message } => write!(f, "malformed query (not sent): {message}"),
            // Z3 reports an exhausted resource limit (`rlimit`) inside a command as an error
            // ("max. resource limit exceeded", "push canceled"): name the cause.
            Reported { message } if reports_resource_limit(message) => {
                write!(f, "the solver reached its resource limit ({message})")
            }
            Reported { message } => write!(f, "the solver reported an error: {message}"),
            Unsupported { query } => write!(f, "the solver does not support: {query}"),
            UnexpectedReply { expected, reply } => {
                write!(f, "unexpected solver reply (expected {expected}): {reply}")
            }
            Usage { message } => write!(f, "{message}"),
            RoundTripLimit { limit } => write!(f, "solver query limit of {limit} reached"),
            WorkLimit { limit } => write!(f, "work limit of {limit} units reached"),
            Poisoned { cause } => write!(
                f,
                "the solver context is in an unknown state after an earlier error ({cause}); reset it"
            ),
            ReplayMismatch {
                index,
                expected,
                actual,
            } => write!(
                f,
                "replay: query #{index} differs from the log\n  recorded: {expected}\n  sent:     {actual}"
            ),
            ReplayExhausted { index, actual } => {
                write!(f, "replay: no recorded answer for query #{index}: {actual}")
            }
        }
    }
}

impl std::error::Error for SolverError {}

/// Whether an error the solver reported is its resource limit running out (Z3 says "max.
/// resource limit exceeded", or "canceled" for the command it stopped, e.g. `push`).
pub fn reports_resource_limit(message: &str) -> bool {
    message.contains("resource limit") || message.contains("canceled")
}

/// Checks that `text` is well-formed enough to send: balanced, and without `(exit)`, which would
/// end a long-lived solver process.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) fn validate_query(text: &str) -> Result<(), SolverError> {
    checked_items(text).map(|_| ())
}

fn checked_items(text: &str) -> Result<Vec<crate::sexp::Item<'_>>, SolverError> {
    let items = crate::sexp::split(text).map_err(|e| SolverError::MalformedQuery {
        message: e.to_string(),
    })?;
    if items.iter().any(|i| i.head() == Some("exit")) {
        return Err(SolverError::MalformedQuery {
            message: "(exit) would end the solver session".into(),
        });
    }
    Ok(items)
}

/// A piece of a query, for backends that implement `(reset)` themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) enum Segment<'a> {
    /// A top-level `(reset)` command.
    Reset,
    /// Consecutive other commands, as a slice of the query (comments between them kept).
    Text(&'a str),
}

/// Validates `text` ([`validate_query`]) and splits it at its top-level `(reset)` commands.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn split_at_resets(text: &str) -> Result<Vec<Segment<'_>>, SolverError> {
    let items = checked_items(text)?;
    let mut segments = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    for item in items {
        if item.head() == Some("reset") && crate::sexp::list(item.text).is_ok_and(|l| l.len() == 1)
        {
            if let Some((start, end)) = run.take() {
                segments.push(Segment::Text(&text[start..end]));
            }
            segments.push(Segment::Reset);
        } else {
            let end = item.offset + item.text.len();
            run = Some((run.map_or(item.offset, |(start, _)| start), end));
        }
    }
    if let Some((start, end)) = run {
        segments.push(Segment::Text(&text[start..end]));
    }
    Ok(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_split_at_top_level_resets() {
        use Segment::*;
        assert_eq!(
            split_at_resets("(reset)\n(set-option :x 1)\n(check-sat)\n").unwrap(),
            [Reset, Text("(set-option :x 1)\n(check-sat)")]
        );
        assert_eq!(
            split_at_resets("(push 1) ; (reset)\n(echo \"(reset)\")( reset )(pop 1)(reset)")
                .unwrap(),
            [
                Text("(push 1) ; (reset)\n(echo \"(reset)\")"),
                Reset,
                Text("(pop 1)"),
                Reset
            ]
        );
        assert_eq!(split_at_resets("  ").unwrap(), []);
        // `(reset-assertions)` and a malformed `(reset x)` go to the solver as they are.
        assert_eq!(
            split_at_resets("(reset-assertions)(reset x)").unwrap(),
            [Text("(reset-assertions)(reset x)")]
        );
        assert!(split_at_resets("(reset").is_err());
        assert!(split_at_resets("(reset)(exit)").is_err());
    }
}

//! Interpolation problems given as SMT-LIB scripts: the declarations and the `(assert ...)`
//! sequence of a [`Script`] (from [`crate::parse::parse_script`]). One function for every
//! front end, so `cpa itp FILE` natively and the worker's `smt-interpolate` request in the
//! browser send the same SMT-LIB text to Z3 and print the same answer.
//!
//! The script is first checked as a whole: `sat` gives a model of the declared symbols,
//! `unknown` its reason; `unsat` gives the interpolants `tau_1..tau_(n-1)` of the assertion
//! sequence from [`interpolate_checked`] (the checker runs in every build).

use super::{interpolate_checked, ItpError, Strategy};
use crate::context::{SatResult, SmtContext};
use crate::parse::Script;
use crate::solver::{Solver, SolverError};
use crate::term::{quote_symbol, Term, Var};
use std::fmt;

/// The answer for a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptAnswer {
    /// The inner interpolants `tau_1..tau_(n-1)` (`tau_0 = true` and `tau_n = false` are left
    /// out), checked against the definition.
    Unsat { interpolants: Vec<Term> },
    /// Values of the declared symbols, in name order.
    Sat { model: Vec<(Var, Term)> },
    /// The solver's `:reason-unknown`.
    Unknown { reason: String },
}

impl ScriptAnswer {
    /// The interpolants as SMT-LIB text, one per element.
    pub fn interpolant_lines(&self) -> Vec<String> {
        match self {
            ScriptAnswer::Unsat { interpolants } => {
                interpolants.iter().map(|t| t.to_string()).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The model as `(define-fun NAME () SORT VALUE)` lines.
    pub fn model_lines(&self) -> Vec<String> {
        match self {
            ScriptAnswer::Sat { model } => model
                .iter()
                .map(|(v, value)| {
                    format!(
                        "(define-fun {} () {} {value})",
                        quote_symbol(&v.name),
                        v.sort
                    )
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// What `cpa itp` prints: `unsat` and one interpolant per line, `sat` and the model, or
    /// `unknown (REASON)`.
    pub fn lines(&self) -> Vec<String> {
        match self {
            ScriptAnswer::Unsat { .. } => std::iter::once("unsat".to_string())
                .chain(self.interpolant_lines())
                .collect(),
            ScriptAnswer::Sat { .. } => std::iter::once("sat".to_string())
                .chain(self.model_lines())
                .collect(),
            ScriptAnswer::Unknown { reason } => vec![format!("unknown ({reason})")],
        }
    }
}

/// Why a script has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptError {
    /// The satisfiability check or the model failed.
    Solver(SolverError),
    /// The script is unsatisfiable, but the strategy produced no (valid) interpolants.
    Interpolation { strategy: Strategy, error: ItpError },
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Solver(e) => write!(f, "{e}"),
            ScriptError::Interpolation { strategy, error } => write!(f, "{strategy}: {error}"),
        }
    }
}

impl std::error::Error for ScriptError {}

impl From<SolverError> for ScriptError {
    fn from(e: SolverError) -> Self {
        ScriptError::Solver(e)
    }
}

/// Checks the script's assertions together, then interpolates the sequence if they are
/// unsatisfiable. `ctx` must have no assertions in force; it is left at the level it had.
pub fn solve_script<S: Solver>(
    ctx: &mut SmtContext<S>,
    script: &Script,
    strategy: Strategy,
) -> Result<ScriptAnswer, ScriptError> {
    let formulas: Vec<Term> = script.assertions.iter().map(|a| a.term.clone()).collect();
    ctx.push()?;
    let answer = check(ctx, &script.declared, &formulas);
    if !ctx.is_poisoned() {
        ctx.pop()?;
    }
    if let Some(answer) = answer? {
        return Ok(answer);
    }
    let taus = interpolate_checked(ctx, &formulas, strategy)
        .map_err(|error| ScriptError::Interpolation { strategy, error })?;
    let n = formulas.len();
    Ok(ScriptAnswer::Unsat {
        interpolants: taus.into_iter().take(n).skip(1).collect(),
    })
}

/// `Some(answer)` for sat and unknown, `None` for unsat.
fn check<S: Solver>(
    ctx: &mut SmtContext<S>,
    declared: &[Var],
    formulas: &[Term],
) -> Result<Option<ScriptAnswer>, ScriptError> {
    for v in declared {
        ctx.declare(v)?;
    }
    for f in formulas {
        ctx.assert(f)?;
    }
    Ok(match ctx.check_sat()? {
        SatResult::Sat => {
            let model = ctx.model(declared)?;
            Some(ScriptAnswer::Sat {
                model: model.values.into_iter().collect(),
            })
        }
        SatResult::Unknown(reason) => Some(ScriptAnswer::Unknown { reason }),
        SatResult::Unsat => None,
    })
}

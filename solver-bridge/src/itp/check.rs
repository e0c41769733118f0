//! The checker: verifies interpolants against the definition, with the solver for the
//! implications and syntactically for the variables.

use super::{shared_vars, ItpError};
use crate::context::{SatResult, SmtContext};
use crate::solver::Solver;
use crate::term::{Sort, Term, Var};
use std::collections::BTreeSet;

/// Checks that `taus` (`tau_0..tau_n`) is an inductive sequence of interpolants for `formulas`:
/// `tau_0` is `true`, `tau_n` is `false` (both syntactically), every `tau_i` is a quantifier-free
/// Bool term over the variables shared by `phi_1..phi_i` and `phi_(i+1)..phi_n`, and
/// `tau_(i-1) /\ phi_i /\ not tau_i` is unsatisfiable for every `i` (an `unknown` answer fails
/// the check). The context must have no assertions in force; it is left as found.
pub fn check_sequence<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    taus: &[Term],
) -> Result<(), ItpError> {
    let n = formulas.len();
    check_syntax(formulas, taus)?;
    if ctx.assertion_count() > 0 {
        return Err(ItpError::BadInput(
            "the solver context has assertions in force".into(),
        ));
    }
    for i in 1..=n {
        let q = Term::and(vec![
            taus[i - 1].clone(),
            formulas[i - 1].clone(),
            Term::not(taus[i].clone()),
        ]);
        match ctx.check_sat_of(&q)? {
            SatResult::Unsat => {}
            SatResult::Sat => {
                return Err(ItpError::Invalid(format!(
                    "tau_{} /\\ phi_{i} does not imply tau_{i}: tau_{} = {}, tau_{i} = {}",
                    i - 1,
                    i - 1,
                    taus[i - 1],
                    taus[i]
                )))
            }
            SatResult::Unknown(r) => {
                return Err(ItpError::Invalid(format!(
                    "could not decide tau_{} /\\ phi_{i} => tau_{i}: unknown ({r})",
                    i - 1
                )))
            }
        }
    }
    Ok(())
}

/// The solver-free part of [`check_sequence`]: length, `tau_0 = true`, `tau_n = false`, and
/// every `tau_i` a quantifier-free Bool term over the shared variables.
pub fn check_syntax(formulas: &[Term], taus: &[Term]) -> Result<(), ItpError> {
    let n = formulas.len();
    if taus.len() != n + 1 {
        return Err(ItpError::Invalid(format!(
            "{} interpolants for {n} formulas (expected {})",
            taus.len(),
            n + 1
        )));
    }
    if !taus[0].is_true() {
        return Err(ItpError::Invalid(format!("tau_0 is {}, not true", taus[0])));
    }
    if !taus[n].is_false() {
        return Err(ItpError::Invalid(format!(
            "tau_{n} is {}, not false",
            taus[n]
        )));
    }
    let shared = shared_vars(formulas);
    for (i, t) in taus.iter().enumerate() {
        check_shape(t, &shared[i], &format!("tau_{i}"))?;
    }
    Ok(())
}

fn check_shape(t: &Term, allowed: &BTreeSet<Var>, what: &str) -> Result<(), ItpError> {
    if t.sort() != Sort::Bool {
        return Err(ItpError::Invalid(format!("{what} is not Bool: {t}")));
    }
    if !t.is_quantifier_free() {
        return Err(ItpError::Invalid(format!("{what} has a quantifier: {t}")));
    }
    let bad: Vec<String> = t
        .free_vars()
        .into_iter()
        .filter(|v| !allowed.contains(v))
        .map(|v| v.name.to_string())
        .collect();
    if !bad.is_empty() {
        return Err(ItpError::Invalid(format!(
            "{what} mentions non-shared variables {}: {t}",
            bad.join(", ")
        )));
    }
    Ok(())
}

/// Checks a binary interpolant: `A => I`, `I /\ B` unsatisfiable, `vars(I) ⊆ vars(A) ∩ vars(B)`.
pub fn check_binary<S: Solver>(
    ctx: &mut SmtContext<S>,
    a: &[Term],
    b: &[Term],
    itp: &Term,
) -> Result<(), ItpError> {
    let a = Term::and(a.iter().cloned());
    let b = Term::and(b.iter().cloned());
    let shared: BTreeSet<Var> = a
        .free_vars()
        .intersection(&b.free_vars())
        .cloned()
        .collect();
    check_shape(itp, &shared, "the interpolant")?;
    for (what, q) in [
        ("A does not imply I", Term::and2(a, Term::not(itp.clone()))),
        ("I /\\ B is satisfiable", Term::and2(itp.clone(), b)),
    ] {
        match ctx.check_sat_of(&q)? {
            SatResult::Unsat => {}
            SatResult::Sat => return Err(ItpError::Invalid(format!("{what}: I = {itp}"))),
            SatResult::Unknown(r) => {
                return Err(ItpError::Invalid(format!("{what}? unknown ({r})")))
            }
        }
    }
    Ok(())
}

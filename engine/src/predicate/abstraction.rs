//! Predicate abstraction of a block formula.
//!
//! * Boolean abstraction (Lahiri, Nieuwenhuis, Oliveras 2006; the Predicate CPA paper's
//!   `(φ)^ρ_B`): fresh Boolean constants v_p, AllSAT of `φ ∧ ⋀ (v_p ⇔ p)` projected onto the
//!   v_p; each model is a full cube (p or ¬p for every predicate, digest S6), the result is
//!   their disjunction, built directly as a BDD.
//! * Cartesian abstraction (Ball, Podelski, Rajamani 2001): the conjunction of the predicates
//!   (and negated predicates) that φ implies, one entailment query each.

use super::table::PredicateTable;
use crate::smt::{Result, Sat, Smt};
use biodivine_lib_bdd::Bdd;
use solver_bridge::term::{Sort, Term};

pub struct AbstractionResult {
    /// `None` when the formula is unsatisfiable (the abstraction is `false`).
    pub bdd: Option<Bdd>,
}

fn sat(smt: &mut dyn Smt, f: &[Term]) -> Result<bool> {
    match smt.check(f)? {
        Sat::Sat => Ok(true),
        Sat::Unsat => Ok(false),
        // Unknown: assume satisfiable (keeps the abstraction an over-approximation).
        Sat::Unknown(_) => Ok(true),
    }
}

/// `formula` is the instantiated block formula (with ψ), `preds` pairs each predicate id with
/// its instantiation at the block end.
pub fn boolean(
    smt: &mut dyn Smt,
    table: &PredicateTable,
    formula: &Term,
    preds: &[(usize, Term)],
    limit: usize,
) -> Result<AbstractionResult> {
    let bools: Vec<Term> = preds
        .iter()
        .map(|(i, _)| Term::new_var(format!("__pred{i}"), Sort::Bool))
        .collect();
    let mut parts = vec![formula.clone()];
    for ((_, p), v) in preds.iter().zip(&bools) {
        parts.push(Term::eq(v.clone(), p.clone()));
    }
    let query = Term::and(parts);
    let models = smt.all_sat(&query, &bools, limit)?;
    // An enumeration stopped by the limit says nothing about satisfiability: only a complete
    // one (fewer models than the limit) may conclude "unsatisfiable" from no model at all.
    // (With a limit of 0, reading the empty list as "unsatisfiable" made every block end with
    // a predicate `false`, and the analysis answered TRUE for unsafe programs.)
    if models.len() >= limit {
        // Too many cubes to enumerate (independent predicates, say one per recursion depth,
        // give 2^n): the Cartesian abstraction is a sound over-approximation of the Boolean one
        // and costs two queries per predicate.
        return cartesian(smt, table, formula, preds);
    }
    if models.is_empty() {
        return Ok(AbstractionResult { bdd: None });
    }
    let mut result = table.bdd_false();
    for m in &models {
        let mut cube = table.bdd_true();
        for ((i, _), value) in preds.iter().zip(m) {
            cube = cube.and(&table.literal(*i, *value));
        }
        result = result.or(&cube);
    }
    Ok(AbstractionResult { bdd: Some(result) })
}

pub fn cartesian(
    smt: &mut dyn Smt,
    table: &PredicateTable,
    formula: &Term,
    preds: &[(usize, Term)],
) -> Result<AbstractionResult> {
    if !sat(smt, std::slice::from_ref(formula))? {
        return Ok(AbstractionResult { bdd: None });
    }
    let mut result = table.bdd_true();
    for (i, p) in preds {
        if !sat(smt, &[formula.clone(), Term::not(p.clone())])? {
            result = result.and(&table.literal(*i, true));
        } else if !sat(smt, &[formula.clone(), p.clone()])? {
            result = result.and(&table.literal(*i, false));
        }
    }
    Ok(AbstractionResult { bdd: Some(result) })
}

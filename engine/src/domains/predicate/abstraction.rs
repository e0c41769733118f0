//! Predicate abstraction of a block formula.
//!
//! * Boolean abstraction (Lahiri, Nieuwenhuis, Oliveras 2006; the Predicate CPA paper's
//!   `(φ)^ρ_B`): fresh Boolean constants v_p, AllSAT of `φ ∧ ⋀ (v_p ⇔ p)` projected onto the
//!   v_p; each model is a full cube (p or ¬p for every predicate, digest S6), the result is
//!   their disjunction, built directly as a BDD.
//! * Cartesian abstraction (Ball, Podelski, Rajamani 2001): the conjunction of the predicates
//!   (and negated predicates) that φ implies, one entailment query each.

use crate::domains::predicate::table::PredicateTable;
use crate::smt::{EngineError, Result, Sat, Smt};
use biodivine_lib_bdd::Bdd;
use solver_bridge::term::{Sort, Term};

pub struct AbstractionResult {
    /// `None` when the formula is unsatisfiable (the abstraction is `false`).
    pub bdd: Option<Bdd>,
}

/// Whether `f` is satisfiable; `None` when the solver gave up (its resource limit).
fn sat(smt: &mut dyn Smt, f: &[Term]) -> Result<Option<bool>> {
    match smt.check(f)? {
        Sat::Sat => Ok(Some(true)),
        Sat::Unsat => Ok(Some(false)),
        Sat::Unknown(_) => Ok(None),
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
    let models = match smt.all_sat(&query, &bools, limit) {
        Ok(models) => models,
        // The solver gave up at its resource limit: the Cartesian abstraction (which reads
        // an undecided check as satisfiable) is a sound over-approximation.
        Err(EngineError::GaveUp(_)) => return cartesian(smt, table, formula, preds),
        Err(e) => return Err(e),
    };
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
        let cube = table.cube(preds.iter().map(|(i, _)| *i).zip(m.iter().copied()));
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
    // An undecided check keeps the abstraction an over-approximation when read as
    // "satisfiable"; after the first one the remaining predicates are left out (each further
    // check would likely spend the whole resource limit again), which only weakens it.
    if sat(smt, std::slice::from_ref(formula))? == Some(false) {
        return Ok(AbstractionResult { bdd: None });
    }
    // The result is one cube, built at once (a conjunction per literal copied the growing
    // cube each time: a tenth of predicate-sbe's engine time on phases_1-1).
    let mut literals = Vec::new();
    for (i, p) in preds {
        match sat(smt, &[formula.clone(), Term::not(p.clone())])? {
            Some(false) => {
                literals.push((*i, true));
                continue;
            }
            None => break,
            Some(true) => {}
        }
        match sat(smt, &[formula.clone(), p.clone()])? {
            Some(false) => literals.push((*i, false)),
            None => break,
            Some(true) => {}
        }
    }
    Ok(AbstractionResult {
        bdd: Some(table.cube(literals)),
    })
}

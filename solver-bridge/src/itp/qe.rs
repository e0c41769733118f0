//! Interpolants by quantifier elimination (Z3's `(apply qe)`), for any quantifier-free
//! formulas Z3 can eliminate quantifiers from (linear integer arithmetic with and/or/ite, and
//! more):
//! - forward (strongest postconditions): `tau_i = QE(exists L. tau_(i-1) /\ phi_i)`, where `L`
//!   are the variables not shared between `phi_1..phi_i` and `phi_(i+1)..phi_n`;
//! - backward (weakest preconditions): `psi_(i-1) = QE(exists L. phi_i /\ psi_i)` from
//!   `psi_n = true`, and `tau_i = not psi_i` (the states from which the rest can still
//!   succeed, negated);
//! - generalisation: keeps only the conjuncts of each `tau_i` that are needed for
//!   `tau_i /\ phi_(i+1) => tau_(i+1)` (one deletion pass in a fixed order, so that the
//!   result depends on satisfiability alone; an unsat core first only above
//!   `MAX_MINIMIZE` conjuncts), walking from the end
//!   so that weakened later interpolants let earlier ones shrink too.

use super::{sat_to_err, ItpError};
use crate::context::{SatResult, SmtContext};
use crate::solver::Solver;
use crate::term::{Op, Sort, Term, Var};
use std::collections::BTreeSet;

/// Deletion-based minimisation is skipped above this many conjuncts (a query each).
const MAX_MINIMIZE: usize = 24;

/// A backward sequence whose projections bring more distinct atoms than this is given up
/// (`NotApplicable`, so another strategy may answer). Weakest preconditions over wrap-around
/// encodings can grow a case split per step, each feeding the next projection
/// (`loops/sum03-1.i`: 23 MB of SMT-LIB after three steps); no abstraction could use such
/// predicates anyway. (Forward projections start from the concrete initial values and stay
/// small where the backward ones grow.)
const MAX_QE_ATOMS: usize = 64;

/// A projection whose query or result has more nodes than this, read as a tree, is given up
/// (`NotApplicable`) before the presolve, which reads atoms as text: forward projections over
/// bit-vector wrap-around encodings can grow a case split per step as well, each feeding the
/// next (`cpa fuzz`, seed 1, program 585: a query of 15.3 million tree nodes in 1,837 shared
/// ones, 116 MB of SMT-LIB, and no answer for minutes). The largest projection of the verdict
/// tests has 3.3 million (`nested-safe.c` with predicate-sbe, 45,278 shared).
const MAX_QE_NODES: u64 = 10_000_000;

/// Counts the distinct atoms of the projections made so far.
#[derive(Default)]
struct AtomBudget(BTreeSet<Term>);

impl AtomBudget {
    fn spend(&mut self, t: &Term) -> Result<(), ItpError> {
        self.0.extend(t.atoms());
        if self.0.len() > MAX_QE_ATOMS {
            return Err(ItpError::NotApplicable(format!(
                "quantifier elimination brought more than {MAX_QE_ATOMS} distinct atoms"
            )));
        }
        Ok(())
    }
}

fn project<S: Solver>(
    ctx: &mut SmtContext<S>,
    body: Term,
    keep: &BTreeSet<Var>,
) -> Result<Term, ItpError> {
    // Before the presolve, which reads the formula's atoms as text.
    if body.size() > MAX_QE_NODES {
        return Err(ItpError::NotApplicable(format!(
            "a quantifier elimination query of more than {MAX_QE_NODES} nodes"
        )));
    }
    let body = super::presolve::presolve(&body, keep);
    let local: Vec<Var> = body
        .free_vars()
        .into_iter()
        .filter(|v| !keep.contains(v))
        .collect();
    if local.is_empty() {
        return Ok(body);
    }
    // Nonlinear integer arithmetic has no quantifier elimination, and Z3's `qe` tactic does
    // not check the resource limit on it (a projection of `v * v` ran for minutes at
    // `:rlimit 300000`, found by `cpa fuzz`): give way to another strategy instead.
    // (Also where the nonlinear term mentions only kept variables: `exists a, b. v * v + c =
    // 2^32 * a + b /\ ...` hung as well.)
    if !body.nonlinear_subterms().is_empty() {
        return Err(ItpError::NotApplicable(
            "quantifier elimination over nonlinear integer arithmetic".into(),
        ));
    }
    let q = Term::exists(local, body).map_err(|e| ItpError::BadInput(e.message))?;
    if q.is_quantifier_free() {
        return Ok(q);
    }
    if q.size() > MAX_QE_NODES {
        return Err(ItpError::NotApplicable(format!(
            "a quantifier elimination query of more than {MAX_QE_NODES} nodes"
        )));
    }
    match ctx.qe(&q) {
        Ok(t) if t.size() > MAX_QE_NODES => Err(ItpError::NotApplicable(format!(
            "quantifier elimination gave a formula of more than {MAX_QE_NODES} nodes"
        ))),
        Ok(t) => Ok(t),
        // Z3 gave up on this quantifier: another strategy may still succeed.
        Err(crate::solver::SolverError::Unsupported { query }) => {
            Err(ItpError::NotApplicable(query))
        }
        Err(e) => Err(e.into()),
    }
}

/// Strongest-postcondition interpolants `tau_0..tau_n`.
pub fn forward<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    shared: &[BTreeSet<Var>],
) -> Result<Vec<Term>, ItpError> {
    let n = formulas.len();
    let mut taus = vec![Term::tt()];
    for i in 1..=n {
        let prev = taus[i - 1].clone();
        if prev.is_false() {
            taus.push(Term::ff());
            continue;
        }
        let body = Term::and2(prev, formulas[i - 1].clone());
        if i == n {
            match ctx.check_sat_of(&body)? {
                SatResult::Unsat => taus.push(Term::ff()),
                other => return Err(sat_to_err(other)),
            }
        } else {
            taus.push(project(ctx, body, &shared[i])?);
        }
    }
    Ok(taus)
}

/// Weakest-precondition interpolants `tau_0..tau_n`.
pub fn backward<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    shared: &[BTreeSet<Var>],
) -> Result<Vec<Term>, ItpError> {
    let n = formulas.len();
    // psi[i]: the states at position i from which phi_(i+1)..phi_n is satisfiable.
    let mut psi = vec![Term::tt(); n + 1];
    let mut budget = AtomBudget::default();
    for i in (1..=n).rev() {
        if psi[i].is_false() {
            psi[i - 1] = Term::ff();
            continue;
        }
        let body = Term::and2(formulas[i - 1].clone(), psi[i].clone());
        psi[i - 1] = project(ctx, body, &shared[i - 1])?;
        budget.spend(&psi[i - 1])?;
    }
    // psi_0 is closed: the whole conjunction is unsatisfiable iff it is false.
    if !psi[0].is_false() {
        match ctx.check_sat_of(&psi[0])? {
            SatResult::Unsat => {}
            other => return Err(sat_to_err(other)),
        }
    }
    let mut taus: Vec<Term> = psi.into_iter().map(Term::not).collect();
    taus[0] = Term::tt();
    taus[n] = Term::ff();
    Ok(taus)
}

/// The top-level disjuncts of `t`, with a negated conjunction read as the disjunction of the
/// negated conjuncts (weakest preconditions are negated projections, `not (and a b)`).
fn disjuncts_of(t: &Term) -> Vec<Term> {
    match t.as_app() {
        Some((Op::Not, [inner])) if matches!(inner.as_app(), Some((Op::And, _))) => {
            inner.conjuncts().into_iter().map(Term::not).collect()
        }
        _ => t.disjuncts(),
    }
}

/// Strengthens backward interpolants `taus` (a valid sequence) by dropping the disjuncts that
/// the path before them does not need: walking forward, a disjunct `d` of `tau_i` goes when
/// `tau_(i-1) /\ phi_i` implies the others (checked: `tau_(i-1) /\ phi_i /\ not(rest)` is
/// unsatisfiable). A weakest precondition names every way the rest of the path could still
/// fail; the prefix rules most of them out. On the unifying-view paper's running example
/// (Fig. 2) the loop head's `x = y \/ x >= 2` becomes the paper's `x = y`. The result is
/// again a valid sequence: each kept `tau_i` is implied by the kept `tau_(i-1)` and `phi_i`
/// (checked), and implies the old `tau_i` (a subset of its disjuncts), so `tau_(n-1) /\
/// phi_n` stays unsatisfiable. One deletion pass in a fixed order (from the last disjunct
/// back), so that the result depends on satisfiability alone; a disjunct goes only on
/// `unsat`.
pub fn specialize<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    taus: &mut [Term],
) -> Result<(), ItpError> {
    let n = formulas.len();
    for i in 1..n {
        let parts = disjuncts_of(&taus[i]);
        if parts.len() < 2 || parts.len() > MAX_MINIMIZE {
            continue;
        }
        let before = Term::and2(taus[i - 1].clone(), formulas[i - 1].clone());
        let mut kept: Vec<usize> = (0..parts.len()).collect();
        for j in (0..parts.len()).rev() {
            if kept.len() == 1 {
                break;
            }
            let candidate: Vec<usize> = kept.iter().copied().filter(|&k| k != j).collect();
            let q = Term::and2(
                before.clone(),
                Term::not(Term::or(candidate.iter().map(|&k| parts[k].clone()))),
            );
            if ctx.check_sat_of(&q)? == SatResult::Unsat {
                kept = candidate;
            }
        }
        if kept.len() < parts.len() {
            taus[i] = Term::or(kept.iter().map(|&k| parts[k].clone()));
        }
    }
    Ok(())
}

/// Weakens `taus` (a valid sequence) by dropping conjuncts, keeping it valid.
pub fn generalize<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    taus: &mut [Term],
) -> Result<(), ItpError> {
    let n = formulas.len();
    for i in (1..n).rev() {
        // Integer equations count as two inequalities, so that one side can be dropped; each
        // part remembers the conjunct it comes from, to rejoin equations kept whole.
        // Smallest first (a stable sort: equal sizes keep their order, the structural one of
        // `Term::sorted_junctions`), so that the passes below, which walk from the last part
        // back, try to drop the largest conjuncts first and keep the simple ones: in the
        // structural order alone, gcd.c with predicate-sbe learned predicates until the
        // projections exceeded `MAX_QE_ATOMS`; in this order it is proved in 4 s.
        let mut conjuncts = taus[i].conjuncts();
        conjuncts.sort_by_key(Term::size);
        let mut parts: Vec<(Term, usize)> = Vec::new();
        for (ci, c) in conjuncts.iter().enumerate() {
            match c.as_app() {
                Some((Op::Eq, args)) if args.len() == 2 && args[0].sort() == Sort::Int => {
                    parts.push((Term::le(args[0].clone(), args[1].clone()), ci));
                    parts.push((Term::ge(args[0].clone(), args[1].clone()), ci));
                }
                _ => parts.push((c.clone(), ci)),
            }
        }
        if parts.is_empty() {
            continue;
        }
        // Everything that must stay unsatisfiable together with the kept parts.
        let rest = Term::and2(formulas[i].clone(), Term::not(taus[i + 1].clone()));
        ctx.push()?;
        ctx.assert(&rest)?;
        for (j, (p, _)) in parts.iter().enumerate() {
            ctx.assert_named(&format!("itp_part_{j}"), p)?;
        }
        let r = ctx.check_sat()?;
        if r != SatResult::Unsat {
            ctx.pop()?;
            return Err(ItpError::Invalid(format!(
                "generalisation: tau_{i} /\\ phi_{} does not imply tau_{} ({r:?})",
                i + 1,
                i + 1
            )));
        }
        // The deletion pass alone depends only on satisfiability, which every Z3 version
        // answers alike; an unsat core does not (Z3 4.8 natively and Z3 5.1 in the browser
        // picked different cores, so the same run learned `x = 0` in one and `y = 0` in the
        // other). The core only narrows a long conjunction before the pass.
        let mut kept: Vec<usize> = if parts.len() <= MAX_MINIMIZE {
            ctx.pop()?;
            (0..parts.len()).collect()
        } else {
            let core = ctx.unsat_core()?;
            ctx.pop()?;
            (0..parts.len())
                .filter(|j| core.iter().any(|c| *c == format!("itp_part_{j}")))
                .collect()
        };
        if kept.len() <= MAX_MINIMIZE {
            // Whole conjuncts first (an equation's two halves together), then single halves,
            // so that an equation needed as a whole stays one; each pass from the last part
            // back (the conjuncts nearest the end of the path are the likeliest to be needed
            // by the rest: dropping the first ones first made gcd.c with predicate-sbe learn
            // predicates without end, where this order proves it in 5 s as the core did).
            let mut drop = |kept: &mut Vec<usize>, group: &dyn Fn(usize) -> Vec<usize>| {
                let mut j = kept.len();
                while j > 0 && kept.len() > 1 {
                    j -= 1;
                    if j >= kept.len() {
                        continue;
                    }
                    let gone = group(kept[j]);
                    let candidate: Vec<usize> =
                        kept.iter().copied().filter(|k| !gone.contains(k)).collect();
                    if candidate.is_empty() {
                        continue;
                    }
                    let q = Term::and2(
                        Term::and(candidate.iter().map(|&k| parts[k].0.clone())),
                        rest.clone(),
                    );
                    if ctx.check_sat_of(&q)? == SatResult::Unsat {
                        *kept = candidate;
                    }
                }
                Ok::<(), ItpError>(())
            };
            drop(&mut kept, &|k| {
                (0..parts.len())
                    .filter(|&m| parts[m].1 == parts[k].1)
                    .collect()
            })?;
            drop(&mut kept, &|k| vec![k])?;
        }
        // Rebuild in the original order; both halves of an equation kept give the equation.
        let mut out = Vec::new();
        for (ci, c) in conjuncts.iter().enumerate() {
            let halves: Vec<usize> = kept.iter().copied().filter(|&k| parts[k].1 == ci).collect();
            let whole = parts.iter().filter(|p| p.1 == ci).count();
            if halves.len() == whole && whole > 0 {
                out.push(c.clone());
            } else {
                out.extend(halves.iter().map(|&k| parts[k].0.clone()));
            }
        }
        taus[i] = Term::and(out);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::NativeZ3;

    /// A formula whose tree has over ten million nodes, in fewer than 200 shared ones:
    /// given up before the presolve or the solver sees it (`cpa fuzz`, seed 1, program 585
    /// spent minutes on such a projection).
    #[test]
    fn a_projection_too_large_to_print_is_given_up_at_once() {
        let x = Term::new_var("x0", Sort::Int);
        let mut t = x.clone();
        for i in 0..24 {
            let c = Term::gt(x.clone(), Term::int(i));
            t = Term::ite(c, t.clone(), Term::add2(t, Term::int(1)));
        }
        assert!(
            t.size() > 1_000_000 && t.dag_size() < 200,
            "{} {}",
            t.size(),
            t.dag_size()
        );
        let y = Term::new_var("y1", Sort::Int);
        let body = Term::eq(y.clone(), t);
        let keep: BTreeSet<Var> = y.free_vars().into_iter().collect();
        let mut ctx = SmtContext::new(NativeZ3::new().unwrap());
        match project(&mut ctx, body, &keep) {
            Err(ItpError::NotApplicable(m)) => assert!(m.contains("10000000 nodes"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}

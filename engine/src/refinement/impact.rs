//! IMPACT refinement (McMillan 2006, as the unifying-view paper configures it): the
//! interpolants of an infeasible counterexample strengthen the abstraction formulas along it,
//! ψi := ψi ∧ τi where that strengthens; coverage is rechecked in both directions and states
//! whose ψ became false are removed with their subtrees. With forced covering (fcover^IMPACT)
//! before each expansion.

use crate::cfa::Cfa;
use crate::cpa::arg::ArgId;
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::Cpa;
use crate::domains::predicate::{Abs, PredicateCpa};
use crate::events::Event;
use crate::formula::deindex;
use crate::refinement::predicate::{abstract_counterexample, PredicateTraceChecker};
use crate::refinement::{check_trace, Goal, Outcome, Refiner, Refutation};
use crate::smt::{EngineError, Result, Sat, Smt};
use solver_bridge::term::Term;
use std::collections::BTreeSet;

/// The IMPACT refiner: the predicate trace checker, then strengthening instead of precision.
pub struct ImpactRefiner {
    pub checker: PredicateTraceChecker,
    /// Forced covering before each expansion.
    pub fcover: bool,
}

impl Refiner<PredicateCpa> for ImpactRefiner {
    fn refine(
        &mut self,
        cfa: &Cfa,
        cpa: &mut PredicateCpa,
        smt: &mut dyn Smt,
        algo: &mut CpaPlus<PredicateCpa>,
        target: ArgId,
        goal: Goal,
        events: &mut Vec<Event>,
    ) -> Result<Outcome> {
        let (trace, refutation) =
            match check_trace(&mut self.checker, cpa, smt, &algo.arg, target, goal, events)? {
                Ok(t) => t,
                Err(outcome) => return Ok(outcome),
            };
        let Refutation::Interpolants(itps) = refutation else {
            return Err(EngineError::Unsupported(
                "IMPACT refinement needs interpolants".into(),
            ));
        };
        impact_refinement(cfa, cpa, smt, algo, &trace.states, &itps, events)
    }

    fn force_cover(
        &mut self,
        cfa: &Cfa,
        cpa: &mut PredicateCpa,
        smt: &mut dyn Smt,
        algo: &mut CpaPlus<PredicateCpa>,
        e: ArgId,
        events: &mut Vec<Event>,
    ) -> Result<bool> {
        if !self.fcover {
            return Ok(false);
        }
        force_cover(cfa, cpa, smt, algo, e, events)
    }
}

/// `id` or one of its ancestors is covered.
fn in_covered_subtree(algo: &CpaPlus<PredicateCpa>, id: ArgId) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        let node = algo.arg.node(n);
        if node.covered_by.is_some() {
            return true;
        }
        stack.extend(node.parents.iter().map(|(p, _)| *p));
    }
    false
}

/// IMPACT's strengthening of one state, `psi := psi /\ tau`, unless `psi` implies `tau`
/// already. Returns whether the state changed.
fn strengthen(
    cpa: &mut PredicateCpa,
    smt: &mut dyn Smt,
    algo: &mut CpaPlus<PredicateCpa>,
    id: ArgId,
    tau: Term,
    events: &mut Vec<Event>,
) -> Result<bool> {
    let psi = cpa.abs_term(&algo.arg.node(id).data.abs);
    if cpa.implies(smt, &psi, &tau)? {
        return Ok(false);
    }
    set_abstraction(algo, id, Term::and2(psi, tau), events);
    Ok(true)
}

/// Replaces a state's abstraction formula (a strengthening) and records the event.
fn set_abstraction(
    algo: &mut CpaPlus<PredicateCpa>,
    id: ArgId,
    formula: Term,
    events: &mut Vec<Event>,
) {
    events.push(Event::Strengthened {
        state: id.0,
        formula: crate::text::clip(&formula),
    });
    algo.arg.node_mut(id).data.abs = Abs::Smt(formula);
}

fn impact_refinement(
    cfa: &Cfa,
    cpa: &mut PredicateCpa,
    smt: &mut dyn Smt,
    algo: &mut CpaPlus<PredicateCpa>,
    path: &[ArgId],
    itps: &[Term],
    events: &mut Vec<Event>,
) -> Result<Outcome> {
    let mut strengthened = Vec::new();
    for (i, id) in path.iter().enumerate().skip(1) {
        let tau = if itps[i].is_false() {
            Term::ff()
        } else {
            deindex(&itps[i]).ok_or_else(|| {
                EngineError::Interpolation("an interpolant mentions auxiliary values".into())
            })?
        };
        if strengthen(cpa, smt, algo, *id, tau, events)? {
            strengthened.push(*id);
        }
    }
    if strengthened.is_empty() {
        return Ok(Outcome::Unknown(
            "refinement made no progress: no state was strengthened".into(),
        ));
    }
    // Remove states whose abstraction became false, with their subtrees.
    let mut removed = Vec::new();
    for id in &strengthened {
        if algo.arg.node(*id).is_alive() && cpa.abs_is_false(&algo.arg.node(*id).data.abs) {
            removed.extend(algo.arg.subtree(*id));
        }
    }
    removed.sort();
    removed.dedup();
    let uncovered = algo.arg.remove(&removed);
    if !removed.is_empty() {
        events.push(Event::Removed {
            states: removed.iter().map(|r| r.0).collect(),
        });
    }
    let mut readd = BTreeSet::new();
    for u in uncovered {
        events.push(Event::Uncovered { state: u.0 });
        readd.extend(algo.arg.rejoin_subtree(cfa, u));
    }
    // Recheck coverage of and by the strengthened states, root side first.
    for id in strengthened {
        if !algo.arg.node(id).is_alive() {
            continue;
        }
        let covered: Vec<ArgId> = algo.arg.node(id).covering.iter().copied().collect();
        for c in covered {
            let (cd, idd) = (
                algo.arg.node(c).data.clone(),
                algo.arg.node(id).data.clone(),
            );
            if !cpa.covered_by(smt, &cd, &idd)? {
                algo.arg.uncover(c);
                events.push(Event::Uncovered { state: c.0 });
                readd.extend(algo.arg.rejoin_subtree(cfa, c));
            }
        }
        if in_covered_subtree(algo, id) {
            continue;
        }
        let ctl = algo.arg.node(id).ctl.clone();
        for other in algo.arg.reached_at(&ctl) {
            if other >= id || algo.arg.is_ancestor(id, other) || in_covered_subtree(algo, other) {
                continue;
            }
            let (sd, od) = (
                algo.arg.node(id).data.clone(),
                algo.arg.node(other).data.clone(),
            );
            if cpa.may_cover(&od) && cpa.covered_by(smt, &sd, &od)? {
                let left = algo.arg.cover_subtree(id, other);
                for l in left {
                    readd.remove(&l);
                }
                events.push(Event::Covered {
                    state: id.0,
                    by: other.0,
                });
                break;
            }
        }
    }
    let readd: Vec<ArgId> = readd
        .into_iter()
        .filter(|r| algo.arg.in_waitlist(*r))
        .collect();
    if !readd.is_empty() {
        events.push(Event::Readded {
            states: readd.iter().map(|r| r.0).collect(),
        });
    }
    events.push(Event::Refined {
        refinement: 0,
        pivot: None,
    });
    Ok(Outcome::Refined)
}

/// The abstraction states from the root to `id` (first parents), root first.
fn abstraction_ancestors(algo: &CpaPlus<PredicateCpa>, id: ArgId) -> Vec<ArgId> {
    abstract_counterexample(&algo.arg, id)
}

/// Forced covering fcover^IMPACT (McMillan 2006, extended to ABE by the Predicate CPA paper):
/// before `e` is expanded, try every abstraction state e' at the same control state, created
/// earlier and not covered, with nearest common abstraction ancestor ê: if ψ̂ ∧ φ(ê→e) ⇒ ψ',
/// then ψ(e) := ψ(e) ∧ ψ', e is covered by e', and the abstraction states strictly between ê and
/// e are strengthened with the interpolants of that query (keeping the ARG well-labelled).
/// Returns whether `e` was covered.
pub fn force_cover(
    cfa: &Cfa,
    cpa: &mut PredicateCpa,
    smt: &mut dyn Smt,
    algo: &mut CpaPlus<PredicateCpa>,
    e: ArgId,
    events: &mut Vec<Event>,
) -> Result<bool> {
    if !algo.arg.node(e).data.is_abstraction() || in_covered_subtree(algo, e) {
        return Ok(false);
    }
    let ctl = algo.arg.node(e).ctl.clone();
    let path_e = abstraction_ancestors(algo, e);
    for cand in algo.arg.reached_at(&ctl) {
        if cand >= e || !cpa.may_cover(&algo.arg.node(cand).data) || in_covered_subtree(algo, cand)
        {
            continue;
        }
        let path_c = abstraction_ancestors(algo, cand);
        // Nearest common ancestor: the longest common prefix of the two root paths.
        let common = path_e
            .iter()
            .zip(&path_c)
            .take_while(|(a, b)| a == b)
            .count();
        if common == 0 || common >= path_e.len() {
            continue;
        }
        let hat = path_e[common - 1];
        let between = &path_e[common..]; // abstraction states after ê, ending with e
        let psi_hat = cpa.abs_term(&algo.arg.node(hat).data.abs);
        let psi_c = cpa.abs_term(&algo.arg.node(cand).data.abs);
        if psi_c.is_true() {
            // Covering by `true` needs no strengthening; the ordinary stop check handles it.
            continue;
        }
        let enc = cpa.encoder();
        let (psi_hat_i, mut extra) =
            enc.instantiate(&cpa.names, &psi_hat, &algo.arg.node(hat).data.pf.ssa);
        let (psi_c_i, extra_c) = enc.instantiate(&cpa.names, &psi_c, &algo.arg.node(e).data.pf.ssa);
        extra.extend(extra_c);
        let mut seq = Vec::new();
        let mut ok = true;
        for (i, id) in between.iter().enumerate() {
            let Some(block) = algo.arg.node(*id).data.block.clone() else {
                ok = false;
                break;
            };
            let mut f = block.formula;
            if i == 0 {
                f = Term::and(
                    [psi_hat_i.clone(), f]
                        .into_iter()
                        .chain(extra.iter().cloned()),
                );
            }
            if i + 1 == between.len() {
                f = Term::and2(f, Term::not(psi_c_i.clone()));
            }
            seq.push(f);
        }
        if !ok {
            continue;
        }
        if smt.check(&[Term::and(seq.iter().cloned())])? != Sat::Unsat {
            continue;
        }
        // Forced covering is an attempt: where no interpolants can be computed (a strategy
        // that does not apply, say), `e` is simply not covered by this candidate and is
        // expanded as usual; only solver failures end the run.
        let itps = if seq.len() > 1 {
            match smt.interpolate(&seq) {
                Ok(itps) => itps,
                Err(EngineError::Interpolation(_)) => {
                    // The context may be left in an unknown state: start a fresh one.
                    smt.reset()?;
                    continue;
                }
                Err(e) => return Err(e),
            }
        } else {
            Vec::new()
        };
        // Strengthen the states strictly between ê and e.
        for (tau, id) in itps.iter().zip(between.iter()) {
            let Some(t) = deindex(tau) else { continue };
            if !strengthen(cpa, smt, algo, *id, t, events)? {
                continue;
            }
            // States covered by a strengthened state may not be covered any more.
            let covered: Vec<ArgId> = algo.arg.node(*id).covering.iter().copied().collect();
            for c in covered {
                let (cd, idd) = (
                    algo.arg.node(c).data.clone(),
                    algo.arg.node(*id).data.clone(),
                );
                if !cpa.covered_by(smt, &cd, &idd)? {
                    algo.arg.uncover(c);
                    events.push(Event::Uncovered { state: c.0 });
                    let readd = algo.arg.rejoin_subtree(cfa, c);
                    if !readd.is_empty() {
                        events.push(Event::Readded {
                            states: readd.iter().map(|r| r.0).collect(),
                        });
                    }
                }
            }
        }
        let psi_e = cpa.abs_term(&algo.arg.node(e).data.abs);
        set_abstraction(algo, e, Term::and2(psi_e, psi_c), events);
        algo.arg.cover_subtree(e, cand);
        events.push(Event::Covered {
            state: e.0,
            by: cand.0,
        });
        return Ok(true);
    }
    Ok(false)
}

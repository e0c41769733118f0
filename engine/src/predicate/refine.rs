//! The refinement operator refine_P of the Predicate CPA paper (Beyer, Dangl, Wendler): abstract
//! counterexample through the abstraction states, one feasibility query over the block
//! formulas, inductive sequence interpolants, then either
//! * **predicate refinement** (lazy predicate abstraction): the atoms of τi go to π(li), the
//!   ARG is pruned from the pivot (the first state whose abstraction would use more predicates),
//!   the remaining parents of removed states are re-added with the joined precision; or
//! * **IMPACT refinement**: ψi := ψi ∧ τi where that strengthens, coverage rechecked in both
//!   directions, states whose ψ is false removed with their subtrees.

use super::{Abs, PredicateCpa, PredicatePrecision};
use crate::cfa::Cfa;
use crate::counterexample::{self, Counterexample};
use crate::cpa::arg::ArgId;
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::DataCpa;
use crate::events::Event;
use crate::formula::deindex;
use crate::smt::{EngineError, Result, Sat};
use serde::{Deserialize, Serialize};
use solver_bridge::term::Term;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefinementStrategy {
    Predicate,
    Impact,
}

/// What the path being refined leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// An error state (a target): a feasible path is a bug, once validated concretely.
    Error,
    /// A state beyond the recursion bound: a feasible path means that deeper recursion must be
    /// explored; an infeasible one is refined away like a spurious counterexample.
    Cut,
}

pub enum Outcome {
    /// The counterexample is real (validated by concrete execution).
    Feasible(Counterexample),
    /// The path to a cut state is feasible (the recursion bound really cuts it).
    CutFeasible,
    /// The ARG was refined; exploration continues.
    Refined,
    /// Refinement cannot continue (no progress, or a feasible path that does not validate).
    Unknown(String),
}

/// Longest concrete run accepted when validating a counterexample.
pub const MAX_TRACE: usize = 100_000;

/// The abstraction states e0..en on one ARG path from the root to `target`.
pub fn abstract_counterexample(algo: &CpaPlus<PredicateCpa>, target: ArgId) -> Vec<ArgId> {
    algo.arg
        .path_to(target)
        .into_iter()
        .filter(|id| algo.arg.node(*id).data.is_abstraction())
        .collect()
}

/// Checks the ARG path to `target` (through merged states: one formula, all paths) for
/// feasibility; a satisfying model is validated by concrete execution.
pub fn check_feasibility(
    cpa: &mut PredicateCpa,
    algo: &CpaPlus<PredicateCpa>,
    cfa: &Cfa,
    states: &[ArgId],
    formulas: &[Term],
    approximated: bool,
) -> Result<Option<std::result::Result<Counterexample, String>>> {
    let conj = Term::and(formulas.iter().cloned());
    match cpa.smt.check(std::slice::from_ref(&conj))? {
        Sat::Unsat => Ok(None),
        Sat::Unknown(r) => Err(EngineError::Solver(format!("feasibility check: {r}"))),
        Sat::Sat => {
            let vars: Vec<Term> = conj.free_vars().into_iter().map(|v| v.term()).collect();
            let values = cpa
                .smt
                .model(std::slice::from_ref(&conj), &vars)?
                .ok_or_else(|| EngineError::Solver("no model for a satisfiable formula".into()))?;
            let model: BTreeMap<String, Term> = vars
                .iter()
                .zip(values)
                .filter_map(|(v, val)| Some((v.as_var()?.name.to_string(), val)))
                .collect();
            let root = states[0];
            Ok(Some(match counterexample::validate(cfa, &algo.arg, root, &model, MAX_TRACE) {
                Ok(trace) => Ok(Counterexample { trace, states: states.iter().map(|s| s.0).collect() }),
                Err(why) if approximated => Err(format!(
                    "the error path is feasible only under the over-approximation of bit operations of the int encoding ({why}); try --set encoding=bv"
                )),
                Err(why) => Err(format!("the error path could not be confirmed by concrete execution: {why}")),
            }))
        }
    }
}

pub fn refine(
    cpa: &mut PredicateCpa,
    algo: &mut CpaPlus<PredicateCpa>,
    target: ArgId,
    goal: Goal,
    strategy: RefinementStrategy,
    events: &mut Vec<Event>,
) -> Result<Outcome> {
    let cfa = cpa.cfa.clone();
    let path = abstract_counterexample(algo, target);
    if path.len() < 2 || !algo.arg.node(target).data.is_abstraction() {
        return Err(EngineError::Unsupported(
            "refinement needs a block end at the error location".into(),
        ));
    }
    let mut blocks = Vec::new();
    let mut approximated = false;
    for id in &path[1..] {
        let pf = algo.arg.node(*id).data.block.clone().ok_or_else(|| {
            EngineError::Unsupported("abstraction state without block formula".into())
        })?;
        approximated |= pf.approximated;
        blocks.push(pf.formula);
    }
    let states: Vec<u32> = path.iter().map(|s| s.0).collect();
    let shown_blocks = || {
        blocks
            .iter()
            .map(|b| super::cpa::clip(b.to_string()))
            .collect()
    };
    if goal == Goal::Cut {
        let conj = Term::and(blocks.iter().cloned());
        let sat = cpa.smt.check(std::slice::from_ref(&conj))?;
        events.push(Event::Counterexample {
            states: states.clone(),
            blocks: shown_blocks(),
            feasible: sat != Sat::Unsat,
            cut: true,
        });
        if sat != Sat::Unsat {
            // Feasible, or the solver gave up: either way the cut stays.
            return Ok(Outcome::CutFeasible);
        }
    } else {
        let feasible = check_feasibility(cpa, algo, &cfa, &path, &blocks, approximated)?;
        events.push(Event::Counterexample {
            states: states.clone(),
            blocks: shown_blocks(),
            feasible: matches!(feasible, Some(Ok(_))),
            cut: false,
        });
        match feasible {
            Some(Ok(cex)) => return Ok(Outcome::Feasible(cex)),
            Some(Err(why)) => return Ok(Outcome::Unknown(why)),
            None => {}
        }
    }
    let inner = cpa.smt.interpolate(&blocks)?;
    if inner.len() + 1 != blocks.len() {
        return Err(EngineError::Interpolation(format!(
            "{} interpolants for {} blocks",
            inner.len(),
            blocks.len()
        )));
    }
    let mut itps = vec![Term::tt()];
    itps.extend(inner);
    itps.push(Term::ff());
    events.push(Event::Interpolants {
        states,
        interpolants: itps
            .iter()
            .map(|t| super::cpa::clip(t.to_string()))
            .collect(),
    });
    match strategy {
        RefinementStrategy::Predicate => predicate_refinement(cpa, algo, &path, &itps, events),
        RefinementStrategy::Impact => impact_refinement(cpa, algo, &path, &itps, events),
    }
}

fn predicate_refinement(
    cpa: &mut PredicateCpa,
    algo: &mut CpaPlus<PredicateCpa>,
    path: &[ArgId],
    itps: &[Term],
    events: &mut Vec<Event>,
) -> Result<Outcome> {
    let cfa = cpa.cfa.clone();
    let mut added = PredicatePrecision::default();
    let mut shown = Vec::new();
    for (i, id) in path.iter().enumerate().skip(1) {
        let loc = algo.arg.node(*id).ctl.location;
        let mut preds = Vec::new();
        if itps[i].is_false() {
            preds.push(Term::ff());
        } else if let Some(t) = deindex(&itps[i]) {
            preds.extend(t.atoms());
        } else {
            // An interpolant over auxiliary values: only its program-variable atoms are usable.
            preds.extend(itps[i].atoms().into_iter().filter_map(|a| deindex(&a)));
        }
        for p in preds {
            let pid = cpa.table.intern(p.clone())?;
            if added.by_location.entry(loc).or_default().insert(pid) {
                shown.push((loc.0, p.to_string()));
            }
        }
    }
    let target = *path.last().unwrap_or(&ArgId(0));
    let joined = Rc::new(algo.arg.node(target).prec.join(&added));
    // The pivot: the first state of the counterexample whose abstraction would now use more
    // predicates than the ones it was computed with.
    let pivot = path.iter().skip(1).copied().find(|id| {
        let n = algo.arg.node(*id);
        joined.count_at(n.ctl.location) > n.prec.count_at(n.ctl.location)
    });
    let Some(pivot) = pivot else {
        return Ok(Outcome::Unknown(
            "refinement made no progress: the interpolants add no new predicate".into(),
        ));
    };
    events.push(Event::PrecisionRefined { added: shown });
    let mut removed = algo.arg.subtree(pivot);
    // States covered by removed states are removed too (their coverer is gone).
    let mut extra = algo.arg.remove(&removed);
    while !extra.is_empty() {
        let more: Vec<ArgId> = extra.iter().flat_map(|c| algo.arg.subtree(*c)).collect();
        removed.extend(more.iter().copied());
        extra = algo.arg.remove(&more);
    }
    removed.sort();
    removed.dedup();
    let removed_set: BTreeSet<ArgId> = removed.iter().copied().collect();
    let mut parents: BTreeSet<ArgId> = BTreeSet::new();
    for r in &removed {
        for (p, _) in &algo.arg.node(*r).parents {
            if !removed_set.contains(p) && algo.arg.node(*p).is_alive() {
                parents.insert(*p);
            }
        }
    }
    for p in &parents {
        // Joined, not replaced: a parent may hold predicates from other branches.
        let prec = algo.arg.node(*p).prec.join(&joined);
        algo.arg.node_mut(*p).prec = Rc::new(prec);
        algo.arg.enqueue(&cfa, *p);
    }
    events.push(Event::Removed {
        states: removed.iter().map(|r| r.0).collect(),
    });
    events.push(Event::Readded {
        states: parents.iter().map(|p| p.0).collect(),
    });
    events.push(Event::Refined {
        refinement: 0,
        pivot: Some(pivot.0),
    });
    Ok(Outcome::Refined)
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
    algo: &mut CpaPlus<PredicateCpa>,
    id: ArgId,
    tau: Term,
    events: &mut Vec<Event>,
) -> Result<bool> {
    let psi = cpa.abs_term(&algo.arg.node(id).data.abs);
    if cpa.implies(&psi, &tau)? {
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
        formula: formula.to_string(),
    });
    algo.arg.node_mut(id).data.abs = Abs::Smt(formula);
}

fn impact_refinement(
    cpa: &mut PredicateCpa,
    algo: &mut CpaPlus<PredicateCpa>,
    path: &[ArgId],
    itps: &[Term],
    events: &mut Vec<Event>,
) -> Result<Outcome> {
    let cfa = cpa.cfa.clone();
    let mut strengthened = Vec::new();
    for (i, id) in path.iter().enumerate().skip(1) {
        let tau = if itps[i].is_false() {
            Term::ff()
        } else {
            deindex(&itps[i]).ok_or_else(|| {
                EngineError::Interpolation("an interpolant mentions auxiliary values".into())
            })?
        };
        if strengthen(cpa, algo, *id, tau, events)? {
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
        readd.extend(algo.arg.rejoin_subtree(&cfa, u));
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
            if !cpa.covered_by(&cd, &idd)? {
                algo.arg.uncover(c);
                events.push(Event::Uncovered { state: c.0 });
                readd.extend(algo.arg.rejoin_subtree(&cfa, c));
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
            if cpa.may_cover(&od) && cpa.covered_by(&sd, &od)? {
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
    abstract_counterexample(algo, id)
}

/// Forced covering fcover^IMPACT (McMillan 2006, extended to ABE by the Predicate CPA paper):
/// before `e` is expanded, try every abstraction state e' at the same control state, created
/// earlier and not covered, with nearest common abstraction ancestor ê: if ψ̂ ∧ φ(ê→e) ⇒ ψ',
/// then ψ(e) := ψ(e) ∧ ψ', e is covered by e', and the abstraction states strictly between ê and
/// e are strengthened with the interpolants of that query (keeping the ARG well-labelled).
/// Returns whether `e` was covered.
pub fn force_cover(
    cpa: &mut PredicateCpa,
    algo: &mut CpaPlus<PredicateCpa>,
    e: ArgId,
    events: &mut Vec<Event>,
) -> Result<bool> {
    if !algo.arg.node(e).data.is_abstraction() || in_covered_subtree(algo, e) {
        return Ok(false);
    }
    let cfa = cpa.cfa.clone();
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
        if cpa.smt.check(&[Term::and(seq.iter().cloned())])? != Sat::Unsat {
            continue;
        }
        let itps = if seq.len() > 1 {
            cpa.smt.interpolate(&seq)?
        } else {
            Vec::new()
        };
        // Strengthen the states strictly between ê and e.
        for (tau, id) in itps.iter().zip(between.iter()) {
            let Some(t) = deindex(tau) else { continue };
            if !strengthen(cpa, algo, *id, t, events)? {
                continue;
            }
            // States covered by a strengthened state may not be covered any more.
            let covered: Vec<ArgId> = algo.arg.node(*id).covering.iter().copied().collect();
            for c in covered {
                let (cd, idd) = (
                    algo.arg.node(c).data.clone(),
                    algo.arg.node(*id).data.clone(),
                );
                if !cpa.covered_by(&cd, &idd)? {
                    algo.arg.uncover(c);
                    events.push(Event::Uncovered { state: c.0 });
                    let readd = algo.arg.rejoin_subtree(&cfa, c);
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

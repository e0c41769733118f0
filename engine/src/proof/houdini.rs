//! Candidate invariants from the program's own atoms, kept where they are inductive: the
//! Houdini scheme (Flanagan and Leino, "Houdini, an Annotation Assistant for ESC/Java": start
//! from every candidate, drop each one some step violates, repeat until none is dropped), as
//! an auxiliary-invariant generator for k-induction ("A Unifying View on SMT-Based Software
//! Verification", k-induction with auxiliary invariants).
//!
//! The candidates at a loop head are the affine equalities Karr's analysis finds there
//! ([`crate::invariants::affine`]) and the relations the program itself states: its conditions
//! (a strict comparison also relaxed to the non-strict one, an equality also as its two
//! halves) and, for each assignment `v = e` whose right-hand side does not read `v`, `v <= e`
//! and `v >= e`; each over variables visible at the loop head, at most [`MAX_CANDIDATES`].
//! With the octagon invariants ([`crate::invariants::octagon`]) they form the first set; each round asks
//! which conjuncts fail 1-induction on their own, assuming the whole set at the block's start
//! ([`crate::proof::induction::failing_conjuncts`]), and drops them. What survives is inductive as a
//! whole, so candidates that only hold together (`j >= 2*i` at the two inner loop heads of
//! nested6, each preserved because the other holds) are kept. It is a proof only when the
//! final check with `sufficient` confirms that no block from it reaches the error.
//!
//! The candidates are C expressions evaluated with the program's semantics (wrap-around
//! included), so a kept candidate holds in the concrete program.

use crate::cfa::{Cfa, EdgeKind, NodeId, Rhs};
use crate::invariants::intervals::{cmp, conj};
use crate::ir::{BinOp, Expr, ExprKind, VarId};
use crate::proof::samples::Samples;
use crate::proof::Outcome;
use crate::smt::{Result, Smt};
use std::collections::{BTreeMap, BTreeSet};

/// Most candidates (over all loop heads): each costs one query per block per round.
pub const MAX_CANDIDATES: usize = 48;

/// Most candidates (over all loop heads) suggested by concrete runs.
pub const MAX_SAMPLED: usize = 40;

/// What [`prove`] found.
pub struct Proof {
    /// The invariants at the loop heads (the octagon's and the candidates kept), a proof.
    pub invariants: BTreeMap<NodeId, Expr>,
    /// How many candidates were kept.
    pub kept: usize,
}

fn vars(e: &Expr) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    e.for_each_var(&mut |v| {
        out.insert(v);
    });
    out
}

/// The relations a condition states, as candidates.
fn from_condition(e: &Expr, out: &mut Vec<Expr>) {
    let ExprKind::Binary(op, a, b) = &e.kind else {
        return;
    };
    let (a, b) = ((**a).clone(), (**b).clone());
    match op {
        BinOp::LogAnd | BinOp::LogOr => {
            from_condition(&a, out);
            from_condition(&b, out);
        }
        BinOp::Lt => {
            out.push(e.clone());
            out.push(cmp(BinOp::Le, a, b));
        }
        BinOp::Gt => {
            out.push(e.clone());
            out.push(cmp(BinOp::Ge, a, b));
        }
        BinOp::Le | BinOp::Ge => out.push(e.clone()),
        BinOp::Eq => {
            out.push(e.clone());
            out.push(cmp(BinOp::Le, a.clone(), b.clone()));
            out.push(cmp(BinOp::Ge, a, b));
        }
        _ => {}
    }
}

/// The candidates at the loop heads, in two tiers: the program's own (Karr's equalities and
/// the relations the program states, those no concrete run refutes), and those the runs
/// suggest ([`crate::proof::samples`]). Houdini tries the first tier alone, then both.
pub struct Candidates {
    pub own: BTreeMap<NodeId, Vec<Expr>>,
    pub sampled: BTreeMap<NodeId, Vec<Expr>>,
}

impl Candidates {
    /// Both tiers, each location's own candidates first ([`candidates`] keeps the second
    /// tier free of the first's).
    pub fn all(&self) -> BTreeMap<NodeId, Vec<Expr>> {
        let mut out = self.own.clone();
        for (l, es) in &self.sampled {
            out.entry(*l).or_default().extend(es.iter().cloned());
        }
        out
    }
}

/// The candidates at every loop head, in a fixed order (the program's edges in order), at
/// most [`MAX_CANDIDATES`] of the program's own and [`MAX_SAMPLED`] suggested by runs.
pub fn candidates(cfa: &Cfa) -> Candidates {
    let mut atoms: Vec<Expr> = Vec::new();
    for e in &cfa.edges {
        match &e.kind {
            EdgeKind::Assume { cond, .. } => from_condition(cond, &mut atoms),
            // An assertion's condition passed to `__VERIFIER_assert`.
            EdgeKind::Call { args, .. } => {
                for a in args {
                    from_condition(a, &mut atoms);
                }
            }
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Expr(x),
            } => {
                let v = &cfa.vars[lhs.0 as usize];
                if x.ty == v.ty && x.as_const().is_none() && !vars(x).contains(lhs) {
                    let var = Expr::var(*lhs, v.ty);
                    atoms.push(cmp(BinOp::Le, var.clone(), x.clone()));
                    atoms.push(cmp(BinOp::Ge, var, x.clone()));
                }
            }
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    atoms.retain(|a| {
        let vs = vars(a);
        !vs.is_empty()
            && vs.iter().all(|v| !cfa.vars[v.0 as usize].synthetic)
            && seen.insert(format!("{a:?}"))
    });
    let samples = Samples::collect(cfa);
    let mut out: BTreeMap<NodeId, Vec<Expr>> = BTreeMap::new();
    let mut count = 0;
    let mut push = |l: NodeId, e: Expr, out: &mut BTreeMap<NodeId, Vec<Expr>>| {
        let es = out.entry(l).or_default();
        if count < MAX_CANDIDATES && !es.contains(&e) {
            es.push(e);
            count += 1;
        }
    };
    // Karr's equalities first: they hold in every run that ignores the conditions, so they
    // usually survive, and the program's own atoms rarely state them.
    for (l, es) in crate::invariants::affine::loop_invariants(cfa) {
        for e in es {
            push(l, e, &mut out);
        }
    }
    // Then the program's own relations that no run refutes.
    for n in cfa.nodes.iter().filter(|n| n.loop_head) {
        for a in &atoms {
            let visible = vars(a).iter().all(|v| {
                let f = cfa.vars[v.0 as usize].function;
                f.is_none() || f == Some(n.function)
            });
            if visible && samples.refuted_nowhere(n.id, a) {
                push(n.id, a.clone(), &mut out);
            }
        }
    }
    let mut sampled = BTreeMap::new();
    let mut count = 0;
    for (l, es) in samples.candidates(cfa) {
        let own = out.get(&l);
        let es: Vec<Expr> = es
            .into_iter()
            .filter(|e| own.is_none_or(|o| !o.contains(e)))
            .take(MAX_SAMPLED.saturating_sub(count))
            .collect();
        count += es.len();
        if !es.is_empty() {
            sampled.insert(l, es);
        }
    }
    Candidates { own: out, sampled }
}

/// Houdini's elimination: the largest subset of the octagon invariants and `candidates` that
/// is inductive as a whole, as conjuncts (with their texts) per loop head, the octagon's first.
/// `None`: the solver could not decide, or the program's blocks cannot be followed
/// ([`crate::proof::induction::failing_conjuncts`]). What survives holds at every visit of its
/// location, whether or not it proves the program.
pub fn inductive(
    cfa: &Cfa,
    candidates: BTreeMap<NodeId, Vec<Expr>>,
    octagon: &BTreeMap<NodeId, Expr>,
    smt: &mut dyn Smt,
) -> Result<Option<Conjuncts>> {
    let mut set: Conjuncts = BTreeMap::new();
    for (l, e) in octagon {
        set.entry(*l)
            .or_default()
            .push((e.clone(), e.display(cfa).to_string()));
    }
    for (l, es) in candidates {
        for e in es {
            let text = e.display(cfa).to_string();
            set.entry(l).or_default().push((e, text));
        }
    }
    // Each round removes at least one conjunct, so there are at most as many rounds.
    let total: usize = set.values().map(Vec::len).sum();
    for _ in 0..=total {
        let Some(failing) = crate::proof::induction::failing_conjuncts(cfa, smt, &set)? else {
            return Ok(None);
        };
        if failing.is_empty() {
            break;
        }
        for (l, conjuncts) in set.iter_mut() {
            let mut i = 0;
            conjuncts.retain(|_| {
                i += 1;
                !failing.contains(&(*l, i - 1))
            });
        }
        set.retain(|_, v| !v.is_empty());
    }
    Ok(Some(set))
}

/// Conjuncts per location, each with its text.
pub type Conjuncts = BTreeMap<NodeId, Vec<(Expr, String)>>;

/// The octagon invariants and those of `candidates` ([`candidates`]) that survive Houdini's
/// elimination ([`inductive`]), if together they prove that no error location is reachable.
pub fn prove(
    cfa: &Cfa,
    candidates: BTreeMap<NodeId, Vec<Expr>>,
    octagon: &BTreeMap<NodeId, Expr>,
    smt: &mut dyn Smt,
    minimize: bool,
) -> Result<Option<Proof>> {
    let Some(mut set) = inductive(cfa, candidates, octagon, smt)? else {
        return Ok(None);
    };
    let proves = |set: &Conjuncts, smt: &mut dyn Smt| {
        let joined: BTreeMap<NodeId, Expr> = set
            .iter()
            .filter_map(|(l, es)| conj(es.iter().map(|(e, _)| e.clone())).map(|e| (*l, e)))
            .collect();
        let invariants = crate::proof::induction::with_texts(cfa, &joined);
        let ok = crate::proof::induction::check_up_to(cfa, smt, &invariants, true, 1)?
            == Outcome::Confirmed;
        Ok::<_, crate::smt::EngineError>((ok, joined))
    };
    let (ok, mut joined) = proves(&set, smt)?;
    if !ok {
        return Ok(None);
    }
    // What survives Houdini is the largest inductive subset: it keeps every candidate that
    // happens to be inductive, needed or not. With `minimize`, the proof shown and written
    // into witnesses is a part that is needed: groups of candidates (halves, then their
    // halves; disjunctions first) are dropped where the rest still proves the program, so
    // a proof that needs few of many candidates costs few checks.
    if minimize {
        let mut order: Vec<(NodeId, Expr)> = set
            .iter()
            .flat_map(|(l, es)| {
                es.iter()
                    .filter(move |(e, _)| octagon.get(l) != Some(e))
                    .map(move |(e, _)| (*l, e.clone()))
            })
            .collect();
        order.sort_by_key(|(_, e)| !matches!(e.kind, ExprKind::Binary(BinOp::LogOr, ..)));
        let mut groups = vec![order];
        while let Some(group) = groups.pop() {
            if group.is_empty() {
                continue;
            }
            let mut smaller = set.clone();
            for (l, e) in &group {
                if let Some(es) = smaller.get_mut(l) {
                    es.retain(|(x, _)| x != e);
                }
            }
            smaller.retain(|_, v| !v.is_empty());
            let (ok, j) = proves(&smaller, smt)?;
            if ok {
                set = smaller;
                joined = j;
            } else if group.len() > 1 {
                let mut first = group;
                let second = first.split_off(first.len() / 2);
                // The first half is tried first: pushed last.
                groups.push(second);
                groups.push(first);
            }
        }
    }
    let kept = set
        .iter()
        .flat_map(|(l, es)| es.iter().filter(move |(e, _)| octagon.get(l) != Some(e)))
        .count();
    Ok(Some(Proof {
        invariants: joined,
        kept,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::verdict_program;

    fn proof(name: &str) -> (Cfa, Option<Proof>) {
        let (cfa, mut smt) = verdict_program(name);
        let octagon = crate::invariants::octagon::loop_invariants(&cfa);
        let p = prove(&cfa, candidates(&cfa).all(), &octagon, &mut smt, true).unwrap();
        (cfa, p)
    }

    #[test]
    fn the_programs_own_relations_prove_a_non_octagonal_invariant() {
        let (cfa, p) = proof("candidates-nested-safe");
        let p = p.expect("a proof");
        let shown: Vec<String> = p
            .invariants
            .values()
            .map(|e| e.display(&cfa).to_string())
            .collect();
        assert!(shown.iter().any(|s| s.contains("j >= 2 * i")), "{shown:?}");
    }

    #[test]
    fn no_candidate_set_proves_the_unsafe_twin() {
        assert!(proof("candidates-nested-unsafe").1.is_none());
    }

    #[test]
    fn concrete_runs_suggest_what_the_program_does_not_state() {
        // The program's own candidates do not prove half's pattern; with those the runs
        // suggest, the (minimised) proof states 2*n - i and the disjunction.
        let (cfa, mut smt) = verdict_program("samples-half-safe");
        let octagon = crate::invariants::octagon::loop_invariants(&cfa);
        let c = candidates(&cfa);
        assert!(prove(&cfa, c.own.clone(), &octagon, &mut smt, false)
            .unwrap()
            .is_none());
        let p = prove(&cfa, c.all(), &octagon, &mut smt, true)
            .unwrap()
            .expect("a proof");
        let shown: String = p
            .invariants
            .values()
            .map(|e| e.display(&cfa).to_string())
            .collect();
        assert!(
            shown.contains("(long long)i - 2 * (long long)n >= -1"),
            "{shown}"
        );
        assert!(shown.contains("|| i == 0"), "{shown}");
    }
}

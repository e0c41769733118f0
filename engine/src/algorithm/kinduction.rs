//! Iterative-deepening k-induction with auxiliary invariants: Algorithm 3 of the unifying-view
//! paper (Beyer, Dangl, Wendler). For k = k_init, k_init + 1, ...:
//! * base case: BMC with bound k from the initial state; a satisfiable error formula is a bug;
//! * forward condition: if no path is cut by the bound, the program is safe;
//! * inductive step: from an arbitrary state at the loop head l_LH (counter 0), unroll with bound
//!   k + 1; if no error state whose l_LH counter is k (a violation in iteration k + 1 after k
//!   safe iterations) is satisfiable together with the invariant, the program is safe.
//!
//! The invariant comes from an interval analysis ([`crate::invariants::intervals`]) computed once, before
//! the first step case, and is asserted at every loop-head state of the step case (sound: it
//! holds at every reachable loop-head visit; the digest's implementation note).
//!
//! The paper presents the algorithm for a single loop whose head is not reachable from the error
//! location. The step case here is only used when the program has exactly one loop, in `main`,
//! and no recursion; otherwise the run is BMC with the forward condition, and the reason is
//! reported if it ends inconclusively.
//!
//! Once, after the first bound's checks fail, the loop-head invariants of an octagon analysis
//! ([`crate::invariants::octagon`]) are checked as a proof of their own (hold on arrival, 1-inductive,
//! exclude the error: the correctness-witness check). This strengthening of the auxiliary
//! invariants is ours, not the paper's: it proves programs with several loops, where the
//! step case does not apply, when their relations are octagonal (`j <= k`, `l <= i`).

use crate::algorithm::unroll::{check_event, disjunction, Unrolling};
use crate::cfa::{Cfa, NodeId};
use crate::cpa::algorithm::Algorithm;
use crate::cpa::algorithm::Stats;
use crate::events::{CheckKind, Event};
use crate::formula::encode::{Builder, AUX};
use crate::formula::Frames;
use crate::invariants::intervals::IntervalAnalysis;
use crate::ir::Expr;
use crate::proof::Outcome;
use crate::smt::{Result, Sat};
use crate::verdict::Verdict;
use solver_bridge::term::Term;
use std::collections::BTreeMap;

enum Phase {
    Base,
    BaseUnroll,
    BaseCheck,
    Forward,
    Invariant,
    Step,
    StepUnroll,
    StepCheck,
}

pub struct KInduction {
    core: Unrolling,
    k: u32,
    k_max: u32,
    /// The single loop head, or why the inductive step does not apply.
    head: std::result::Result<NodeId, String>,
    use_invariants: bool,
    invariant: Option<Option<Expr>>,
    /// The octagon invariants were checked (once, after the first forward condition).
    octagon_checked: bool,
    /// The octagon invariants that proved the program.
    proof: Option<BTreeMap<NodeId, Expr>>,
    phase: Phase,
}

/// The loop head of a program with exactly one loop, in `main`, without recursion.
pub fn single_loop_head(cfa: &Cfa) -> std::result::Result<NodeId, String> {
    let heads: Vec<NodeId> = cfa
        .nodes
        .iter()
        .filter(|n| n.loop_head)
        .map(|n| n.id)
        .collect();
    // Recursion: a cycle in the call graph.
    if !crate::cfa::transform::contracts::recursive(cfa).is_empty() {
        return Err("the program is recursive".into());
    }
    match heads.as_slice() {
        [h] if cfa.node(*h).function == cfa.main => Ok(*h),
        [h] => Err(format!(
            "the loop is in function '{}', not in main",
            cfa.function(cfa.node(*h).function).name
        )),
        [] => Err("the program has no loop".into()),
        hs => Err(format!("the program has {} loops", hs.len())),
    }
}

impl KInduction {
    /// k-induction from bound `k_init` to `k_max`; `use_invariants`: the step case is
    /// strengthened with interval invariants.
    pub fn new(core: Unrolling, k_init: u32, k_max: u32, use_invariants: bool) -> KInduction {
        let head = single_loop_head(&core.cfa);
        KInduction {
            core,
            k: k_init,
            k_max,
            head,
            use_invariants,
            invariant: None,
            octagon_checked: false,
            proof: None,
            phase: Phase::Base,
        }
    }

    /// The checks of bound k failed: the octagon invariants are tried once (after the first
    /// bound's), then the bound grows.
    fn after_bound(&mut self, events: &mut Vec<Event>) -> Option<Verdict> {
        if self.use_invariants && !self.octagon_checked {
            self.phase = Phase::Invariant;
            return None;
        }
        self.next_bound(events)
    }

    fn next_bound(&mut self, events: &mut Vec<Event>) -> Option<Verdict> {
        if self.k >= self.k_max {
            let why = match &self.head {
                Ok(_) => "the property is not k-inductive for the bounds tried".to_string(),
                Err(e) => format!(
                    "the inductive step needs exactly one loop in main without recursion ({e})"
                ),
            };
            return Some(Verdict::Unknown {
                reason: format!("no bug up to bound {}; {why}", self.k),
            });
        }
        self.k += 1;
        events.push(Event::BoundIncreased { bound: self.k });
        self.phase = Phase::Base;
        None
    }

    /// The octagon invariants at the loop heads ([`crate::invariants::octagon`]) as a proof of their own:
    /// checked by the correctness-witness check (hold on arrival, 1-inductive over the blocks
    /// between loop heads, no block reaches the error; exact encoding), which then is the
    /// certificate. Unlike the step case this needs no single loop: it covers programs with
    /// several loops and calls (the invariants of a function's loop hold in every context).
    fn octagon_proof(
        &mut self,
        invariants: &BTreeMap<NodeId, Expr>,
        events: &mut Vec<Event>,
    ) -> Result<bool> {
        let cfa = self.core.cfa.clone();
        if invariants.is_empty() {
            return Ok(false);
        }
        let texts = crate::proof::induction::with_texts(&cfa, invariants);
        let outcome =
            crate::proof::induction::check_up_to(&cfa, self.core.smt.as_mut(), &texts, true, 1)?;
        let satisfiable = match outcome {
            Outcome::Confirmed => Some(false),
            Outcome::Refuted(_) => Some(true),
            Outcome::Undecided(_) => None,
        };
        events.push(Event::Check {
            what: CheckKind::Invariant,
            bound: self.k,
            satisfiable,
            formula_size: invariants.len() as u64,
        });
        if satisfiable == Some(false) {
            self.proof = Some(invariants.clone());
            return Ok(true);
        }
        Ok(false)
    }

    /// Function contracts as a proof of their own, for recursive programs
    /// ([`crate::proof::contracts`]): the recursive functions' return intervals, checked with the
    /// correctness-witness check on the program with calls replaced by contracts and on each
    /// function's body. Unlike the unrolling, no recursion depth bound limits it.
    fn summary_proof(&mut self, events: &mut Vec<Event>) -> Result<bool> {
        let cfa = self.core.cfa.clone();
        let contracts = crate::proof::contracts::contracts(&cfa);
        if contracts.is_empty() {
            return Ok(false);
        }
        let n = contracts.len() as u64;
        let proof = crate::proof::contracts::prove(&cfa, contracts, self.core.smt.as_mut())?;
        events.push(Event::Check {
            what: CheckKind::Summary,
            bound: self.k,
            satisfiable: if proof.is_some() { Some(false) } else { None },
            formula_size: n,
        });
        match proof {
            Some(p) => {
                // The contracts are invariants at the functions' exits (a correctness
                // witness writes them as function contracts).
                let mut invariants = p.invariants;
                for (f, post) in p.posts {
                    invariants.insert(cfa.function(f).exit, post);
                }
                self.proof = Some(invariants);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Candidate invariants from the program's conditions and assignments, kept where they
    /// are inductive together with the octagon invariants ([`crate::proof::houdini`]), as a proof of
    /// their own: `j >= 2*i` is not octagonal, but the program writes `j = 2*i`.
    fn candidate_proof(
        &mut self,
        octagon: &BTreeMap<NodeId, Expr>,
        events: &mut Vec<Event>,
    ) -> Result<bool> {
        let cfa = self.core.cfa.clone();
        let candidates = crate::proof::houdini::candidates(&cfa);
        if candidates.own.is_empty() && candidates.sampled.is_empty() {
            return Ok(false);
        }
        // The program's own candidates first; those concrete runs suggest only where they
        // do not suffice (they cost more queries, and that proof is minimised).
        let mut proof = None;
        if !candidates.own.is_empty() {
            proof = crate::proof::houdini::prove(
                &cfa,
                candidates.own.clone(),
                octagon,
                self.core.smt.as_mut(),
                false,
            )?;
        }
        if proof.is_none() && !candidates.sampled.is_empty() {
            proof = crate::proof::houdini::prove(
                &cfa,
                candidates.all(),
                octagon,
                self.core.smt.as_mut(),
                true,
            )?;
        }
        events.push(Event::Check {
            what: CheckKind::Candidates,
            bound: self.k,
            satisfiable: if proof.is_some() { Some(false) } else { None },
            formula_size: proof.as_ref().map_or(0, |p| p.kept as u64),
        });
        match proof {
            Some(p) => {
                self.proof = Some(p.invariants);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The auxiliary invariant at the loop-head states of the step case. It holds at the
    /// start state (every reachable loop-head visit satisfies it) and, being a post-fixpoint
    /// of the interval transformer, after every iteration. The ARG's branches share SSA
    /// constants (a state on the path to the error and a cut state beside it both name the
    /// value after the same assignment), so at any state but the start the invariant is
    /// asserted only under its path formula: `pf(h) => inv(h)`. Asserted unconditionally, the
    /// invariant at a cut head state `n#2 <= 14` refuted the error path's `n#2 == 17`, and
    /// k-induction proved an unsafe loop.
    fn invariant_terms(&mut self, head: NodeId) -> Vec<Term> {
        if !self.use_invariants {
            return Vec::new();
        }
        let cfa = self.core.cfa.clone();
        let inv = self
            .invariant
            .get_or_insert_with(|| IntervalAnalysis::run(&cfa, cfa.main).invariant(head))
            .clone();
        let Some(inv) = inv else { return Vec::new() };
        let enc = self.core.cpa.encoder();
        let mut out = Vec::new();
        for n in self
            .core
            .algo
            .arg
            .alive()
            .filter(|n| n.ctl.location == head)
        {
            let mut b = Builder::new(n.data.pf.ssa.clone(), Frames::of(&cfa, &n.ctl));
            let c = enc.cond(&mut b, &inv);
            if b.ssa.get(AUX) != n.data.pf.ssa.get(AUX) {
                // The condition needed auxiliary values, whose names could clash with the
                // path's; the invariant is only a help, so this instance is left out.
                continue;
            }
            let fact = Term::and(std::iter::once(c).chain(b.constraints));
            out.push(if n.parents.is_empty() {
                fact
            } else {
                Term::or2(Term::not(n.data.pf.formula.clone()), fact)
            });
        }
        out
    }
}

impl Algorithm for KInduction {
    /// The invariants of the proof (with function contracts: also each contract, at its
    /// function's exit), else the interval invariants at every loop head of `main` (they
    /// hold; whether they prove the program alone, without induction over k steps, the
    /// witness check decides).
    fn invariants(&self) -> Vec<crate::invariants::LocationInvariant> {
        match &self.proof {
            Some(p) => p
                .iter()
                .map(|(l, e)| crate::invariants::LocationInvariant::c(*l, e.clone()))
                .collect(),
            None => crate::invariants::intervals::loop_invariants(&self.core.cfa),
        }
    }

    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        match self.phase {
            Phase::Base => {
                self.core
                    .restart(self.k, None, "k-induction: base case", events);
                self.phase = Phase::BaseUnroll;
            }
            Phase::BaseUnroll => {
                if self.core.step(events)? {
                    self.phase = Phase::BaseCheck;
                }
            }
            Phase::BaseCheck => {
                let verdict = self.core.base_check(self.k, events)?;
                if verdict.is_some() {
                    return Ok(verdict);
                }
                self.phase = Phase::Forward;
            }
            Phase::Forward => {
                if self.core.forward_check(self.k, events)? == Sat::Unsat {
                    return Ok(Some(Verdict::True));
                }
                if self.head.is_ok() {
                    self.phase = Phase::Step;
                } else {
                    return Ok(self.after_bound(events));
                }
            }
            Phase::Invariant => {
                self.octagon_checked = true;
                // The octagon invariants are a proof of their own, and Houdini's first set.
                let octagon = crate::invariants::octagon::loop_invariants(&self.core.cfa);
                if self.octagon_proof(&octagon, events)?
                    || self.summary_proof(events)?
                    || self.candidate_proof(&octagon, events)?
                {
                    return Ok(Some(Verdict::True));
                }
                return Ok(self.next_bound(events));
            }
            Phase::Step => {
                let head = self.head.clone().unwrap_or(self.core.cfa.entry());
                self.core.restart(
                    self.k + 1,
                    Some(head),
                    "k-induction: inductive step",
                    events,
                );
                self.phase = Phase::StepUnroll;
            }
            Phase::StepUnroll => {
                if self.core.step(events)? {
                    self.phase = Phase::StepCheck;
                }
            }
            Phase::StepCheck => {
                // The step case: an error state reached in iteration k + 1 after k iterations
                // from an arbitrary loop-head state (satisfying the invariant). Unsatisfiable
                // proves the property; that query is the proof, no separate certificate.
                let head = self.head.clone().unwrap_or(self.core.cfa.entry());
                let k = i64::from(self.k);
                let errors = self.core.errors(|n| n.ctl.counter(head) == k);
                let step_case = disjunction(&self.core.algo.arg, &errors);
                let mut parts = vec![step_case.clone()];
                parts.extend(self.invariant_terms(head));
                // With the solver's preprocessing where the incremental search gives up: it
                // decides ps2-ll's step case.
                let sat = crate::proof::certificate::check_or_preprocessed(
                    self.core.smt.as_mut(),
                    &parts,
                )?;
                events.push(check_event(CheckKind::Step, self.k, &sat, step_case.size()));
                if sat == Sat::Unsat {
                    return Ok(Some(Verdict::True));
                }
                return Ok(self.after_bound(events));
            }
        }
        Ok(None)
    }

    fn stats(&self) -> Stats {
        Stats {
            states: self.core.states(),
            refinements: 0,
            solver_queries: self.core.smt.queries(),
            cache_hits: self.core.smt.cache_hits(),
            solver_work: self.core.smt.work(),
            abstractions: 0,
            predicates: 0,
            bound: u64::from(self.k),
            ..Stats::default()
        }
    }
}

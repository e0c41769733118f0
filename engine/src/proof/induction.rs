//! The induction check of invariants over blocks, for a witness's invariants and for the
//! analyses' own proofs (octagon invariants, Houdini's candidates, function contracts).
//!
//! [`check`]: The invariants cut the program into blocks: every loop head and
//! every location with an invariant ends a block (a loop head without one has the invariant
//! `1`). Over the blocks re-derived from the CFA, with the block formulas of the certificate
//! check, and exactly encoded (the program's wrap-around semantics):
//!
//! 1. **holds on arrival**: from the program's start, every path to a location with an
//!    invariant satisfies it;
//! 2. **inductive**: from every reachable block start, assuming its invariant, every path to
//!    a location with an invariant satisfies that one;
//! 3. **sufficient** (only when the witness's specification is `unreach-call`): no block
//!    reaches an error location.
//!
//! An obligation from the program's start that is satisfiable refutes the witness (the path is
//! exact). When only consecution or sufficiency fails, the invariants may still be
//! k-inductive (k-induction's and BMC's proofs are): k-induction over the same blocks, for k up
//! to 10 (base case: every chain of at most k blocks from the start; step case: every chain of
//! k blocks from any reachable block start, the property assumed at its first k starts)
//! confirms them or the witness is refuted with the first failure. A recursion deeper than the
//! depth bound, too many chains or a solver `unknown` leave it undecided.
//!
//! Before the blocks, a program that reads no input is run: its one run decides the witness
//! (an invariant false at a visit of its location, or an error reached, refutes it; a run
//! that ends confirms it), also where the blocks would follow a recursion past the depth
//! bound (`fibo(10)`). When 1-induction over the blocks does not confirm the invariants,
//! every run of the program is executed with the invariants asserted ([`crate::proof::runs`]) before
//! k-induction, where execution with input splitting can follow the runs. Function contracts
//! (format 2.1: [`read_contracts`]) are checked by assume-guarantee
//! ([`crate::proof::contracts::assume_guarantee`]), each function's body with its contract at its exit.

use crate::cfa::{Cfa, NodeId};
use crate::cpa::control::{ControlCpa, ControlState};
use crate::formula::encode::Builder;
use crate::formula::{Encoder, Encoding, EncodingChoice, Frames, PathFormula, SsaMap};
use crate::ir::Expr;
use crate::proof::certificate::blocks_from;
use crate::proof::{described, Outcome};
use crate::smt::{Result, Sat, Smt};
use crate::text::short;
use solver_bridge::term::Term;
use std::collections::{BTreeMap, BTreeSet};

/// C conditions by location in the form [`check`] reads, each with its text.
pub fn with_texts(
    cfa: &Cfa,
    invariants: &BTreeMap<NodeId, Expr>,
) -> BTreeMap<NodeId, Vec<(Expr, String)>> {
    invariants
        .iter()
        .map(|(l, e)| (*l, vec![(e.clone(), e.display(cfa).to_string())]))
        .collect()
}

/// Most block starts the check visits (call stacks multiply loop heads).
pub const MAX_BLOCK_STARTS: usize = 5_000;

/// Depth of calls the check follows before it gives up on a recursion.
const MAX_DEPTH: usize = 16;

/// Checks invariants (see the module documentation); `sufficient`: also that they prove that
/// no error location is reachable. A program that reads no input is decided by its one run
/// ([`only_run`]) first. Where 1-induction over the blocks finds the invariants not
/// inductive (or cannot decide), executing every run ([`crate::proof::runs::all_runs`]) decides them
/// when it can, and k-induction over the blocks when it cannot.
pub fn check(
    cfa: &Cfa,
    smt: &mut dyn Smt,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
    sufficient: bool,
) -> Result<Outcome> {
    if let Some(outcome) = only_run(cfa, invariants, sufficient) {
        return Ok(outcome);
    }
    // 1-induction over the blocks, then every run (k-induction over the blocks can take the
    // solver's whole resource limit: diamond_2-2's interval invariants took 34 s to
    // `unknown`, and its runs 0.1 s to TRUE), then k-induction.
    let undecided = match blocks(cfa, smt, invariants, sufficient, 1)? {
        Blocks::Decided(Outcome::Undecided(why)) => Some(why),
        Blocks::Decided(outcome) => return Ok(outcome),
        Blocks::NotInductive(_) => None,
    };
    if let Some(outcome) = crate::proof::runs::all_runs(cfa, invariants, sufficient) {
        return Ok(outcome);
    }
    match undecided {
        // k-induction would meet the same limit in its first step.
        Some(why) => Ok(Outcome::Undecided(why)),
        None => check_up_to(cfa, smt, invariants, sufficient, MAX_K),
    }
}

/// [`check`] over the blocks alone (the analyses' own proofs use it: they rest on the
/// invariants, not on a run), with k-induction up to `max_k` after a failed 1-induction (1:
/// none).
pub fn check_up_to(
    cfa: &Cfa,
    smt: &mut dyn Smt,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
    sufficient: bool,
    max_k: usize,
) -> Result<Outcome> {
    Ok(match blocks(cfa, smt, invariants, sufficient, max_k)? {
        Blocks::Decided(outcome) => outcome,
        Blocks::NotInductive(why) => Outcome::Refuted(why),
    })
}

/// What the check over the blocks found: an outcome that holds whatever else is tried (a
/// violation on a path from the program's start, a confirmation, a resource limit), or
/// invariants that are not k-inductive for k up to the bound (they may still hold and
/// suffice).
enum Blocks {
    Decided(Outcome),
    NotInductive(String),
}

/// [`check_up_to`], with the invariants that are not k-inductive told apart.
fn blocks(
    cfa: &Cfa,
    smt: &mut dyn Smt,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
    sufficient: bool,
    max_k: usize,
) -> Result<Blocks> {
    let (encoding, enc, control) = setup(cfa, invariants);
    let at = |ctl: &ControlState, ssa: &SsaMap| invariant_at(cfa, &enc, invariants, ctl, ssa);
    let text = |l: NodeId| described(cfa, invariants, l);
    let is_end = |c: &ControlState| is_block_end(cfa, invariants, c);
    let initial = control.initial(cfa);
    // The invariant at the program's start must hold for every initial state.
    if let Some((t, extra, _)) = at(&initial, &SsaMap::default()) {
        let mut q = vec![Term::not(t)];
        q.extend(extra);
        match smt.check(&q)? {
            Sat::Unsat => {}
            Sat::Sat => {
                return Ok(Blocks::Decided(Outcome::Refuted(format!(
                    "{} does not hold at the program's start",
                    text(initial.location)
                ))))
            }
            Sat::Unknown(r) => {
                return Ok(Blocks::Decided(Outcome::Undecided(format!("solver: {r}"))))
            }
        }
    }
    let chains = Chains {
        cfa,
        encoding,
        control: &control,
        is_end: &is_end,
        at: &at,
        sufficient,
    };
    let mut seen: BTreeSet<ControlState> = BTreeSet::from([initial.clone()]);
    let mut todo = vec![initial.clone()];
    let mut first_failure: Option<String> = None;
    while let Some(start) = todo.pop() {
        let (assumed, extra, ssa) =
            at(&start, &SsaMap::default()).unwrap_or((Term::bool(true), vec![], SsaMap::default()));
        let from = if start == initial {
            "the program's start".to_string()
        } else if invariants.contains_key(&start.location) {
            format!(
                "line {} (assuming its invariant)",
                cfa.node(start.location).line
            )
        } else {
            format!(
                "the loop at line {} (with any values)",
                cfa.node(start.location).line
            )
        };
        let empty = PathFormula::empty(ssa);
        let blocks = match blocks_from(cfa, encoding, &is_end, &control, &start, empty) {
            Ok(b) => b,
            Err(e) => return Ok(Blocks::Decided(Outcome::Undecided(e.to_string()))),
        };
        for (end, pf) in blocks {
            let node = cfa.node(end.location);
            let mut q = vec![assumed.clone(), pf.formula.clone()];
            q.extend(extra.iter().cloned());
            if !end.beyond && !node.is_error() && seen.insert(end.clone()) {
                if seen.len() > MAX_BLOCK_STARTS {
                    return Ok(Blocks::Decided(Outcome::Undecided(format!(
                        "more than {MAX_BLOCK_STARTS} loop heads and invariant locations \
                         (with their call stacks) are reachable"
                    ))));
                }
                todo.push(end.clone());
            }
            let failure = if end.beyond {
                return Ok(Blocks::Decided(Outcome::Undecided(format!(
                    "a recursion deeper than {MAX_DEPTH} calls is reachable from {from}"
                ))));
            } else {
                let Some(goal) = chains.violation(&end, &pf) else {
                    continue;
                };
                q.extend(goal);
                if node.is_error() {
                    format!(
                        "the invariants do not suffice: a path from {from} reaches the error at line {}",
                        node.line
                    )
                } else if start == initial {
                    format!(
                        "{} does not hold: a path from the program's start violates it",
                        text(end.location)
                    )
                } else {
                    format!(
                        "{} is not inductive: a path from {from} violates it",
                        text(end.location)
                    )
                }
            };
            match smt.check(&q)? {
                Sat::Unsat => {}
                // From the start, the path is exact: a real violation.
                Sat::Sat if start == initial => {
                    return Ok(Blocks::Decided(Outcome::Refuted(failure)))
                }
                // Otherwise not 1-inductive; k-induction may still prove it (below, once
                // every reachable block start is known).
                Sat::Sat => {
                    first_failure.get_or_insert(failure);
                }
                Sat::Unknown(r) => {
                    return Ok(Blocks::Decided(Outcome::Undecided(format!(
                        "solver: {r} ({failure}?)"
                    ))))
                }
            }
        }
    }
    let Some(failure) = first_failure else {
        return Ok(Blocks::Decided(Outcome::Confirmed));
    };
    k_inductive(&chains, smt, &initial, &seen, failure, max_k)
}

/// k-induction over the blocks, for `k` from 2 to `max_k`, after 1-induction failed with
/// `failure`: the property is "every invariant holds at its location and (for unreach-call)
/// no error location is reached"; `seen` are the reachable block starts.
fn k_inductive(
    chains: &Chains,
    smt: &mut dyn Smt,
    initial: &ControlState,
    seen: &BTreeSet<ControlState>,
    failure: String,
    max_k: usize,
) -> Result<Blocks> {
    for k in 2..=max_k {
        let mut budget = MAX_CHAIN_BLOCKS;
        // Base case: every chain of k blocks from the start is exact (shorter ones were
        // checked for smaller k, one block by the 1-induction above).
        let empty = PathFormula::empty(SsaMap::default());
        match chains.walk(smt, initial, empty, Vec::new(), 0, k, true, &mut budget)? {
            Walk::Holds => {}
            Walk::Violated(why) => return Ok(Blocks::Decided(Outcome::Refuted(why))),
            Walk::Undecided(why) => return Ok(Blocks::Decided(Outcome::Undecided(why))),
        }
        // Step case: from every reachable block start, assuming the property at the first k
        // block starts of a chain, it holds at the next.
        let mut step = true;
        for start in seen {
            let (assumed, ssa) = match (chains.at)(start, &SsaMap::default()) {
                Some((t, extra, ssa)) => (std::iter::once(t).chain(extra).collect(), ssa),
                None => (Vec::new(), SsaMap::default()),
            };
            let empty = PathFormula::empty(ssa);
            match chains.walk(smt, start, empty, assumed, 0, k, false, &mut budget)? {
                Walk::Holds => {}
                Walk::Violated(_) => {
                    step = false;
                    break;
                }
                Walk::Undecided(why) => return Ok(Blocks::Decided(Outcome::Undecided(why))),
            }
        }
        if step {
            return Ok(Blocks::Decided(Outcome::Confirmed));
        }
    }
    Ok(Blocks::NotInductive(format!(
        "{failure} (and the invariants are not k-inductive for k up to {max_k})"
    )))
}

/// Steps of [`only_run`]'s concrete run.
const MAX_RUN_STEPS: usize = 200_000;

/// The check of a program that reads no input (no `__VERIFIER_nondet_*` value, no parameter
/// of `main`, no uninitialised variable on its run): its run from the start is its only run,
/// so executing it decides the witness. Every invariant is evaluated at each visit of its
/// location; one that is false there does not hold, an error reached means they do not
/// suffice, and a run that ends (within [`MAX_RUN_STEPS`] edges, without undefined
/// behaviour) confirms them. This decides what the blocks cannot where a recursion has no
/// loop head to cut at (`fibo(10)`: the blocks follow calls whatever the argument, past any
/// depth bound). `None`: the program needs an input, or the run did not end in time.
fn only_run(
    cfa: &Cfa,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
    sufficient: bool,
) -> Option<Outcome> {
    use crate::concrete::{Machine, NoInput};
    let mut m = Machine::new(cfa);
    let first = cfa.successors(cfa.entry()).next()?;
    m.init_main_params(cfa, &mut NoInput, first).ok()?;
    for step in 0..=MAX_RUN_STEPS {
        let here = cfa.node(m.location);
        for (e, text) in invariants.get(&m.location).into_iter().flatten() {
            if !m.holds(cfa, e)? {
                return Some(Outcome::Refuted(format!(
                    "the invariant '{}' at line {} does not hold: the program reads no input, \
                     and its only run violates it (after {step} steps)",
                    short(text),
                    here.line
                )));
            }
        }
        if here.is_error() {
            return Some(if sufficient {
                Outcome::Refuted(format!(
                    "the invariants do not suffice: the program reads no input, and its only \
                     run reaches the error at line {} (after {step} steps)",
                    here.line
                ))
            } else {
                Outcome::Confirmed
            });
        }
        let Some(edge) = m.enabled_edge(cfa).ok()? else {
            return Some(Outcome::Confirmed);
        };
        m.execute(cfa, edge, &mut NoInput).ok()?;
    }
    None
}

/// The encoding (exact linear integers unless the program or an invariant needs bits), its
/// encoder and the control CPA of the checks.
pub(crate) fn setup<'c>(
    cfa: &'c Cfa,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
) -> (Encoding, Encoder<'c>, ControlCpa) {
    let mut encoding = EncodingChoice::Auto.resolve(cfa);
    if encoding == Encoding::Int {
        let enc = Encoder::new(cfa, Encoding::Int);
        for (loc, exprs) in invariants {
            let ctl = ControlState::at(*loc);
            for (e, _) in exprs {
                let mut b = Builder::new(SsaMap::default(), Frames::of(cfa, &ctl));
                enc.cond(&mut b, e);
                if b.approximated {
                    encoding = Encoding::Bv;
                }
            }
        }
    }
    let control = ControlCpa {
        loop_bound: None,
        max_depth: MAX_DEPTH,
        cut_states: true,
    };
    (encoding, Encoder::new(cfa, encoding), control)
}

/// Where the blocks of the checks end: loop heads, invariant locations, and cuts.
fn is_block_end(
    cfa: &Cfa,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
    c: &ControlState,
) -> bool {
    c.beyond || cfa.node(c.location).loop_head || invariants.contains_key(&c.location)
}

/// The invariant at a control state, at the SSA indices of `ssa`: the term, its side
/// constraints (ranges of variables read first there, auxiliary definitions) and the SSA
/// indices after it. A block that follows an assumed invariant must start from those: its
/// own auxiliary values (`y % 2` computed by the program) would otherwise get the names of
/// the invariant's, and their definitions together can be contradictory. (They were:
/// `y % 2U >= 0U` at a loop head made every path from it infeasible, and an unsafe program's
/// invariants were confirmed as sufficient.)
pub(crate) fn invariant_at(
    cfa: &Cfa,
    enc: &Encoder,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
    ctl: &ControlState,
    ssa: &SsaMap,
) -> Option<(Term, Vec<Term>, SsaMap)> {
    let exprs = invariants.get(&ctl.location)?;
    let (conjuncts, constraints, after) = conjuncts_at(cfa, enc, exprs, ctl, ssa);
    Some((Term::and(conjuncts), constraints, after))
}

/// The conjuncts `exprs` at a control state, each encoded in turn from the SSA indices of
/// `ssa`: their terms, their side constraints, and the SSA indices after them.
fn conjuncts_at(
    cfa: &Cfa,
    enc: &Encoder,
    exprs: &[(Expr, String)],
    ctl: &ControlState,
    ssa: &SsaMap,
) -> (Vec<Term>, Vec<Term>, SsaMap) {
    let mut b = Builder::new(ssa.clone(), Frames::of(cfa, ctl));
    let terms = exprs.iter().map(|(e, _)| enc.cond(&mut b, e)).collect();
    (terms, b.constraints, b.ssa)
}

/// Houdini's question ([`crate::proof::houdini`]): which conjuncts of the invariants fail
/// 1-induction, each on its own: does not hold on arrival from the program's start, or is
/// not preserved by a block from a loop head or invariant location (assuming every invariant
/// there). The indices are into each location's list. `None`: the solver could not decide,
/// or the program's blocks cannot be followed (recursion deeper than the bound, too many
/// block starts).
pub fn failing_conjuncts(
    cfa: &Cfa,
    smt: &mut dyn Smt,
    invariants: &BTreeMap<NodeId, Vec<(Expr, String)>>,
) -> Result<Option<BTreeSet<(NodeId, usize)>>> {
    let (encoding, enc, control) = setup(cfa, invariants);
    let is_end = |c: &ControlState| is_block_end(cfa, invariants, c);
    // All conjuncts at a block start, assumed together (each its own assertion), and the SSA
    // indices after them (the block starts there, so that its auxiliary values do not take
    // their names; see [`invariant_at`]).
    let assumed_at = |ctl: &ControlState| -> (Vec<Term>, SsaMap) {
        let exprs = invariants.get(&ctl.location).map_or(&[][..], Vec::as_slice);
        let (mut out, constraints, after) = conjuncts_at(cfa, &enc, exprs, ctl, &SsaMap::default());
        out.extend(constraints);
        (out, after)
    };
    // Each conjunct at a control state at the SSA indices of `ssa`, with its side constraints
    // (each on its own, from `ssa`: they go into separate queries).
    let parts = |ctl: &ControlState, ssa: &SsaMap| -> Vec<(Term, Vec<Term>)> {
        let Some(exprs) = invariants.get(&ctl.location) else {
            return Vec::new();
        };
        exprs
            .iter()
            .map(|x| {
                let (mut t, constraints, _) =
                    conjuncts_at(cfa, &enc, std::slice::from_ref(x), ctl, ssa);
                (t.remove(0), constraints)
            })
            .collect()
    };
    let mut failing = BTreeSet::new();
    let initial = control.initial(cfa);
    let mut seen: BTreeSet<ControlState> = BTreeSet::from([initial.clone()]);
    let mut todo = vec![initial.clone()];
    while let Some(start) = todo.pop() {
        let (assumed, ssa) = assumed_at(&start);
        let empty = PathFormula::empty(ssa);
        let Ok(blocks) = blocks_from(cfa, encoding, &is_end, &control, &start, empty) else {
            return Ok(None);
        };
        for (end, pf) in blocks {
            if end.beyond {
                return Ok(None);
            }
            if cfa.node(end.location).is_error() {
                continue;
            }
            if seen.insert(end.clone()) {
                if seen.len() > MAX_BLOCK_STARTS {
                    return Ok(None);
                }
                todo.push(end.clone());
            }
            for (i, (t, extra)) in parts(&end, &pf.ssa).into_iter().enumerate() {
                if failing.contains(&(end.location, i)) {
                    continue;
                }
                let mut q = assumed.clone();
                q.push(pf.formula.clone());
                q.push(Term::not(t));
                q.extend(extra);
                match smt.check(&q)? {
                    Sat::Unsat => {}
                    Sat::Sat => {
                        failing.insert((end.location, i));
                    }
                    Sat::Unknown(_) => return Ok(None),
                }
            }
        }
    }
    Ok(Some(failing))
}

/// The largest k of the k-induction that follows a failed 1-induction. BMC and k-induction
/// prove bitvector/num_conversion_1 at k = 9 (its loop runs eight times), and their interval
/// invariants are confirmed at k = 9 here; at 8 they were refuted. Each k costs a walk over
/// chains of k blocks: on loop-acceleration/diamond_2-2 (not confirmed either way) the check
/// takes 30 s up to k = 8 and 34 s up to k = 10.
const MAX_K: usize = 10;

/// Most blocks the k-induction follows for one k (chains multiply).
const MAX_CHAIN_BLOCKS: usize = 4_000;

/// What a walk over chains of blocks found.
enum Walk {
    Holds,
    Violated(String),
    Undecided(String),
}

/// The invariant at a control state at SSA indices, with its side constraints.
type InvariantAt<'c> = dyn Fn(&ControlState, &SsaMap) -> Option<(Term, Vec<Term>, SsaMap)> + 'c;

/// Chains of blocks for k-induction.
struct Chains<'c> {
    cfa: &'c Cfa,
    encoding: Encoding,
    control: &'c ControlCpa,
    is_end: &'c dyn Fn(&ControlState) -> bool,
    at: &'c InvariantAt<'c>,
    sufficient: bool,
}

impl Chains<'_> {
    /// What, added to a path formula `pf` to the block end `end`, says the property fails
    /// there: nothing more at an error location (when sufficiency is checked), the negated
    /// invariant with its side constraints at a location with one; `None`: nothing to check.
    fn violation(&self, end: &ControlState, pf: &PathFormula) -> Option<Vec<Term>> {
        if self.cfa.node(end.location).is_error() {
            return self.sufficient.then(Vec::new);
        }
        let (t, more, _) = (self.at)(end, &pf.ssa)?;
        Some(std::iter::once(Term::not(t)).chain(more).collect())
    }

    /// Follows the blocks from `state` (reached by `pf` under `assumed`, `depth` blocks into
    /// the chain) up to `k` blocks and checks the property at the k-th block end. The step
    /// case assumes it at the ends before; the base case (`base`, from the program's start)
    /// assumes nothing.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        smt: &mut dyn Smt,
        state: &ControlState,
        pf: PathFormula,
        assumed: Vec<Term>,
        depth: usize,
        k: usize,
        base: bool,
        budget: &mut usize,
    ) -> Result<Walk> {
        let blocks = match blocks_from(
            self.cfa,
            self.encoding,
            self.is_end,
            self.control,
            state,
            pf,
        ) {
            Ok(b) => b,
            Err(e) => return Ok(Walk::Undecided(e.to_string())),
        };
        for (end, pf) in blocks {
            if *budget == 0 {
                return Ok(Walk::Undecided(format!(
                    "the invariants are not 1-inductive, and k-induction would follow more than \
                     {MAX_CHAIN_BLOCKS} blocks"
                )));
            }
            *budget -= 1;
            if end.beyond {
                return Ok(Walk::Undecided(format!(
                    "a recursion deeper than {MAX_DEPTH} calls is reachable"
                )));
            }
            let node = self.cfa.node(end.location);
            if depth + 1 == k {
                if let Some(goal) = self.violation(&end, &pf) {
                    let mut q = assumed.clone();
                    q.push(pf.formula.clone());
                    q.extend(goal);
                    let what = if node.is_error() {
                        format!("the error at line {} is reachable", node.line)
                    } else {
                        format!("the invariant at line {} is violated", node.line)
                    };
                    match crate::proof::certificate::check_or_preprocessed(smt, &q)? {
                        Sat::Unsat => {}
                        Sat::Sat => {
                            return Ok(Walk::Violated(format!("{what} within {k} loop iterations")))
                        }
                        Sat::Unknown(r) => return Ok(Walk::Undecided(format!("solver: {r}"))),
                    }
                }
                continue;
            }
            if node.is_error() {
                continue;
            }
            let mut next = assumed.clone();
            let mut pf = pf;
            if !base {
                if let Some((t, more, ssa)) = (self.at)(&end, &pf.ssa) {
                    next.push(t);
                    next.extend(more);
                    pf.ssa = ssa;
                }
            }
            match self.walk(smt, &end, pf, next, depth + 1, k, base, budget)? {
                Walk::Holds => {}
                other => return Ok(other),
            }
        }
        Ok(Walk::Holds)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{only_run, Outcome};
    use crate::cfa::{Cfa, NodeId};
    use crate::frontend::{invariant::parse_invariant, parse_program};
    use crate::ir::Expr;
    use std::collections::BTreeMap;

    /// The CFA of `src` and `invariant` at its (only) loop head, as a witness gives them.
    #[allow(clippy::type_complexity)]
    pub(crate) fn at_loop_head(
        src: &str,
        invariant: &str,
    ) -> (Cfa, BTreeMap<NodeId, Vec<(Expr, String)>>) {
        let cfa = parse_program("t.c", src).unwrap().cfa;
        let head = cfa.nodes.iter().find(|n| n.loop_head).unwrap();
        let e = parse_invariant(&cfa, head.function, invariant).unwrap();
        let invs = BTreeMap::from([(head.id, vec![(e, invariant.into())])]);
        (cfa, invs)
    }

    /// `only_run` on `src` with `invariant` at its (only) loop head.
    fn run(src: &str, invariant: &str, sufficient: bool) -> Option<Outcome> {
        let (cfa, invs) = at_loop_head(src, invariant);
        only_run(&cfa, &invs, sufficient)
    }

    const SUM: &str = "extern void reach_error(void);\nint sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }\nint main(void) {\n  int i = 0; int s = 0;\n  while (i < 4) { s = s + sum(i); i++; }\n  if (s != 10) reach_error();\n  return 0;\n}\n";

    /// A program without inputs is decided by its one run: an invariant true at every visit
    /// of its location is confirmed, one false at some visit refuted, and an error reached
    /// refutes sufficiency.
    #[test]
    fn a_program_without_inputs_is_decided_by_its_run() {
        assert_eq!(run(SUM, "0 <= i && i <= 4", true), Some(Outcome::Confirmed));
        match run(SUM, "i <= 2", true) {
            Some(Outcome::Refuted(why)) => assert!(why.contains("only run violates"), "{why}"),
            other => panic!("{other:?}"),
        }
        let unsafe_sum = SUM.replace("s != 10", "s == 10");
        match run(&unsafe_sum, "1", true) {
            Some(Outcome::Refuted(why)) => assert!(why.contains("reaches the error"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(run(&unsafe_sum, "1", false), Some(Outcome::Confirmed));
    }

    /// With an input, or a run longer than the bound, the run decides nothing.
    #[test]
    fn a_program_with_inputs_is_left_to_the_blocks() {
        let input = SUM
            .replace("int i = 0;", "int i = __VERIFIER_nondet_int();")
            .replace(
                "extern void",
                "extern int __VERIFIER_nondet_int(void);\nextern void",
            );
        assert_eq!(run(&input, "1", true), None);
        let endless = "int main(void) { int i = 0; while (1) { i = 1 - i; } return 0; }";
        assert_eq!(run(endless, "i == 0 || i == 1", true), None);
    }
}

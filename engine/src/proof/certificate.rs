//! The safety certificate check every CEGAR proof passes before it is answered TRUE.
//!
//! A final ARG of predicate abstraction is a proof when the abstraction formulas of its
//! reached abstraction states form an inductive invariant over the blocks of the program
//! (the Predicate CPA paper's soundness argument for CPA++ with ABE, made checkable): with
//! `Inv(c)` the disjunction of `ψ(t)` over the reached abstraction states `t` at control state
//! `c` (location and call stack),
//!
//! 1. **initiation**: the initial control state has a reached abstraction state with `ψ = true`
//!    (or `Inv` at it is valid);
//! 2. **consecution**: for every reached abstraction state `r` and every block end `c` that a
//!    block from `r` reaches through the CFA, `ψ(r) ∧ φ(r → c) ⇒ Inv(c)`, where `φ` is the
//!    block formula (all paths of the block, merged);
//! 3. **safety**: for every block end at an error location, and every call beyond the
//!    recursion bound, `ψ(r) ∧ φ(r → c)` is unsatisfiable.
//!
//! Each block end is one formula that must be unsatisfiable; they are checked
//! [`CERTIFICATE_BATCH`] at a time as one disjunction, and one by one only when a batch is
//! not unsatisfiable (to name the failing block end).
//!
//! The blocks are re-derived here from the CFA, the block operator and the control CPA, not
//! read from the ARG's edges, so a state the analysis forgot to expand, a wrong merge, a lost
//! coverage or an unsound strengthening (IMPACT) makes the check fail. A failure is a bug of
//! the engine: the run answers UNKNOWN ("internal: certificate check failed"), never TRUE.
//!
//! BMC's TRUE rests on the forward condition and k-induction's on the step case: each is a
//! solver query of its own over the whole unrolling, already a check of the claim, so they
//! need no separate certificate.

use crate::cfa::Cfa;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::control::{ControlCpa, ControlState};
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::Describe;
use crate::domains::predicate::PredicateCpa;
use crate::domains::value::ValueCpa;
use crate::events::Event;
use crate::formula::{Encoder, Encoding, Names, PathFormula, SsaMap};
use crate::invariants::Formula;
use crate::invariants::LocationInvariant;
use crate::smt::{EngineError, Result, Sat, Smt};
use crate::verdict::Verdict;
use solver_bridge::term::Term;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The most control states one block may have before the check gives up (UNKNOWN).
pub const MAX_BLOCK_STATES: usize = 200_000;

/// What the check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Reached abstraction states (the invariant's disjuncts).
    pub states: u32,
    /// Block ends checked (one query each, unless trivially true).
    pub blocks: u32,
    /// Solver queries the check took.
    pub queries: u32,
    /// Why the certificate is not valid.
    pub failure: Option<String>,
    /// The failure is the solver's "unknown" (a resource limit), not a counterexample to the
    /// certificate: the run answers UNKNOWN without calling it a bug.
    pub inconclusive: bool,
}

/// The blocks leaving one control state: every block end (a control state where `is_end`
/// holds, or an error location) with the merged path formula of all paths to it, each
/// continuing `init` (the formula of a path to `start`, or the empty one).
pub(crate) fn blocks_from(
    cfa: &Cfa,
    encoding: Encoding,
    is_end: &dyn Fn(&ControlState) -> bool,
    control: &ControlCpa,
    start: &ControlState,
    init: PathFormula,
) -> Result<Vec<(ControlState, PathFormula)>> {
    // 1. The block's control states and edges (a DAG: every cycle of the CFA passes a loop
    //    head, and every recursive call a state beyond the bound, both block ends).
    let mut succs: BTreeMap<ControlState, Vec<(ControlState, usize)>> = BTreeMap::new();
    let mut ends: BTreeSet<ControlState> = BTreeSet::new();
    let mut stack = vec![start.clone()];
    let mut seen: BTreeSet<ControlState> = BTreeSet::new();
    seen.insert(start.clone());
    while let Some(c) = stack.pop() {
        let mut out = Vec::new();
        for edge in cfa.successors(c.location) {
            let next = match control.successor(cfa, &c, edge) {
                Ok(Some(n)) => n,
                Ok(None) => continue,
                Err(cut) => {
                    return Err(EngineError::Unsupported(format!(
                        "certificate check: a path is cut ({cut:?}) without a cut state"
                    )))
                }
            };
            out.push((next.clone(), edge.id.0 as usize));
            if is_end(&next) || cfa.node(next.location).is_error() {
                ends.insert(next);
            } else if seen.insert(next.clone()) {
                if seen.len() > MAX_BLOCK_STATES {
                    return Err(EngineError::Limit(format!(
                        "certificate check: a block has more than {MAX_BLOCK_STATES} control states"
                    )));
                }
                stack.push(next);
            }
        }
        succs.insert(c, out);
    }
    // 2. Path formulas in topological order (Kahn), merged where paths meet.
    let mut indegree: BTreeMap<&ControlState, usize> = BTreeMap::new();
    for outs in succs.values() {
        for (n, _) in outs {
            if !ends.contains(n) {
                *indegree.entry(n).or_default() += 1;
            }
        }
    }
    let mut pf: BTreeMap<ControlState, PathFormula> = BTreeMap::new();
    pf.insert(start.clone(), init);
    let mut at_end: BTreeMap<ControlState, PathFormula> = BTreeMap::new();
    let mut ready = vec![start.clone()];
    let enc = Encoder::new(cfa, encoding);
    let mut done = 0;
    while let Some(c) = ready.pop() {
        done += 1;
        let here = pf
            .get(&c)
            .cloned()
            .unwrap_or_else(|| PathFormula::empty(SsaMap::default()));
        for (next, edge) in succs.get(&c).map(Vec::as_slice).unwrap_or_default() {
            let f = enc.sp(&here, &cfa.edges[*edge], &c, next);
            let slot = if ends.contains(next) {
                &mut at_end
            } else {
                &mut pf
            };
            let merged = match slot.remove(next) {
                Some(old) => enc.merge(&old, &f),
                None => f,
            };
            slot.insert(next.clone(), merged);
            if !ends.contains(next) {
                let d = indegree.get_mut(next).expect("counted above");
                *d -= 1;
                if *d == 0 {
                    ready.push(next.clone());
                }
            }
        }
    }
    if done != succs.len() {
        return Err(EngineError::Unsupported(
            "certificate check: a block has a cycle without a block end".into(),
        ));
    }
    Ok(at_end.into_iter().collect())
}

/// The certificate check of an analysis' final ARG.
pub trait Certifier<C: Describe> {
    fn check(&mut self, cpa: &mut C, smt: &mut dyn Smt, algo: &CpaPlus<C>) -> Result<Report>;
    /// The invariants of the ARG's reached states by location (after a passed check, a proof;
    /// for correctness witnesses).
    fn invariants(&self, _cpa: &C, _algo: &CpaPlus<C>) -> Vec<LocationInvariant> {
        Vec::new()
    }
}

/// What the check needs from an analysis whose reached states carry invariants.
pub trait Certified: Describe {
    fn cfa(&self) -> Rc<Cfa>;
    fn encoding(&self) -> Encoding;
    fn names(&self) -> &Names;
    /// Whether a block ends at `ctl` (value analysis: at every control state).
    fn is_block_end(&self, ctl: &ControlState) -> bool;
    /// The invariant a reached state contributes, over unindexed program variables (`ψ` of an
    /// abstraction state, the known values of a value state); `None` inside a block.
    fn invariant(&self, s: &Self::State) -> Option<Term>;
    /// For invariants with quantified identifiers (symbolic execution): `s`'s invariant with
    /// the identifiers it shares with `with` free, so that `open(with) ∧ block ⇒
    /// invariant_sharing(s, with)`, where `open(with) = invariant_sharing(with, with)`,
    /// implies `invariant(with) ∧ block ⇒ invariant(s)` without a universal quantifier in
    /// the query. `None` (the default): the invariant has no such identifiers.
    fn invariant_sharing(&self, _s: &Self::State, _with: &Self::State) -> Option<Term> {
        None
    }
}

impl Certified for PredicateCpa {
    fn cfa(&self) -> Rc<Cfa> {
        self.cfa.clone()
    }

    fn encoding(&self) -> Encoding {
        self.encoding
    }

    fn names(&self) -> &Names {
        &self.names
    }

    fn is_block_end(&self, ctl: &ControlState) -> bool {
        PredicateCpa::is_block_end(self, ctl)
    }

    fn invariant(&self, s: &Self::State) -> Option<Term> {
        s.is_abstraction().then(|| self.abs_term(&s.abs))
    }
}

impl Certified for ValueCpa {
    fn cfa(&self) -> Rc<Cfa> {
        self.cfa.clone()
    }

    fn encoding(&self) -> Encoding {
        self.encoding
    }

    fn names(&self) -> &Names {
        &self.names
    }

    fn is_block_end(&self, _ctl: &ControlState) -> bool {
        true
    }

    fn invariant(&self, s: &Self::State) -> Option<Term> {
        Some(self.formula(s))
    }
}

impl Certified for crate::domains::symbolic::SymbolicCpa {
    fn cfa(&self) -> Rc<Cfa> {
        self.cfa.clone()
    }

    fn encoding(&self) -> Encoding {
        self.encoding
    }

    fn names(&self) -> &Names {
        &self.names
    }

    fn is_block_end(&self, _ctl: &ControlState) -> bool {
        true
    }

    fn invariant(&self, s: &Self::State) -> Option<Term> {
        Some(self.formula(s))
    }

    fn invariant_sharing(&self, s: &Self::State, with: &Self::State) -> Option<Term> {
        Some(self.formula_sharing(s, with))
    }
}

impl Certified for crate::domains::value_predicate::ValuePredicateCpa {
    fn cfa(&self) -> Rc<Cfa> {
        self.value.cfa.clone()
    }

    fn encoding(&self) -> Encoding {
        self.value.encoding
    }

    fn names(&self) -> &Names {
        &self.value.names
    }

    fn is_block_end(&self, ctl: &ControlState) -> bool {
        self.pred.is_block_end(ctl)
    }

    /// The values and ψ of an abstraction state.
    fn invariant(&self, s: &Self::State) -> Option<Term> {
        s.pred.is_abstraction().then(|| self.formula(s))
    }
}

/// The check of any analysis with [`Certified`] states (see the module documentation).
pub struct ArgCertifier;

impl<C: Certified> Certifier<C> for ArgCertifier {
    fn check(&mut self, cpa: &mut C, smt: &mut dyn Smt, algo: &CpaPlus<C>) -> Result<Report> {
        check(cpa, smt, algo)
    }

    fn invariants(&self, cpa: &C, algo: &CpaPlus<C>) -> Vec<LocationInvariant> {
        let mut by_location: BTreeMap<crate::cfa::NodeId, Vec<Term>> = BTreeMap::new();
        for id in algo.arg.reached() {
            let n = algo.arg.node(id);
            if let Some(psi) = cpa.invariant(&n.data) {
                by_location.entry(n.ctl.location).or_default().push(psi);
            }
        }
        by_location
            .into_iter()
            .map(|(location, psis)| LocationInvariant {
                location,
                formula: Formula::Smt(Term::or(psis)),
            })
            .collect()
    }
}

/// The reached states' invariants, as the check needs them.
struct Reached {
    /// ψ of every reached abstraction state, by control state.
    inv: BTreeMap<ControlState, Vec<Term>>,
    /// (control state, ψ, state) of every reached state whose ψ is not false.
    states: Vec<(ControlState, Term, ArgId)>,
    /// ψ of every reached block-end state, by state.
    psi_of: BTreeMap<ArgId, Term>,
}

impl Reached {
    /// The invariants of the reached states, or why there is no certificate (a reached
    /// error or cut state whose invariant is not false).
    fn of<C: Certified>(
        cpa: &C,
        algo: &CpaPlus<C>,
        cfa: &Cfa,
    ) -> std::result::Result<Reached, String> {
        let mut inv: BTreeMap<ControlState, Vec<Term>> = BTreeMap::new();
        let mut states = Vec::new();
        let mut psi_of: BTreeMap<ArgId, Term> = BTreeMap::new();
        for id in algo.arg.reached() {
            let n = algo.arg.node(id);
            let Some(psi) = cpa.invariant(&n.data) else {
                continue;
            };
            psi_of.insert(id, psi.clone());
            if psi.is_false() {
                continue;
            }
            if n.ctl.beyond || cfa.node(n.ctl.location).is_error() {
                return Err(format!(
                    "state {} ({}) is reached",
                    id.0,
                    if n.ctl.beyond {
                        "beyond the recursion bound"
                    } else {
                        "an error location"
                    }
                ));
            }
            inv.entry(n.ctl.clone()).or_default().push(psi.clone());
            states.push((n.ctl.clone(), psi, id));
        }
        Ok(Reached {
            inv,
            states,
            psi_of,
        })
    }
}

/// Checks the final ARG of a CEGAR run (see the module documentation).
pub fn check<C: Certified>(cpa: &mut C, smt: &mut dyn Smt, algo: &CpaPlus<C>) -> Result<Report> {
    let cfa = cpa.cfa();
    let before = smt.queries();
    let mut report = Report::default();
    let reached = match Reached::of(cpa, algo, &cfa) {
        Ok(r) => r,
        Err(failure) => {
            report.failure = Some(failure);
            return Ok(report);
        }
    };
    report.states = reached.states.len() as u32;
    let enc = Encoder::new(&cfa, cpa.encoding());
    // Each location's invariant as one disjunction, built once (every block ending there
    // needs it: building it per block is quadratic where a loop head holds many states).
    let inv_or: BTreeMap<ControlState, Term> = reached
        .inv
        .iter()
        .map(|(c, ts)| (c.clone(), Term::or(ts.iter().cloned())))
        .collect();
    // 1. Initiation.
    let init = algo.control.initial(&cfa);
    let covers_init = reached
        .inv
        .get(&init)
        .is_some_and(|ps| ps.iter().any(Term::is_true));
    if !covers_init {
        let disj = disjunction(&inv_or, &init);
        let (d, extra) = enc.instantiate(cpa.names(), &disj, &SsaMap::default());
        let query: Vec<Term> = std::iter::once(Term::not(d)).chain(extra).collect();
        if smt.check(&query)? != Sat::Unsat {
            report.failure = Some("the initial state is not covered".into());
            report.queries = (smt.queries() - before) as u32;
            return Ok(report);
        }
    }
    // 2. and 3. Consecution and safety, block by block: one obligation per block end, each
    // a formula that must be unsatisfiable.
    let obligations = obligations(cpa, algo, &cfa, &enc, &reached, &inv_or, &mut report)?;
    if let Some((failure, inconclusive)) = discharge(cpa, smt, &enc, &obligations, &inv_or)? {
        report.failure = Some(failure);
        report.inconclusive = inconclusive;
    }
    report.queries = (smt.queries() - before) as u32;
    Ok(report)
}

/// The obligations of consecution and safety: one per block leaving a reached state.
fn obligations<C: Certified>(
    cpa: &C,
    algo: &CpaPlus<C>,
    cfa: &Cfa,
    enc: &Encoder,
    reached: &Reached,
    inv_or: &BTreeMap<ControlState, Term>,
    report: &mut Report,
) -> Result<Vec<Obligation>> {
    let Reached {
        inv,
        states,
        psi_of,
    } = reached;
    let mut blocks: BTreeMap<ControlState, Vec<(ControlState, PathFormula)>> = BTreeMap::new();
    let mut obligations: Vec<Obligation> = Vec::new();
    for (ctl, psi, id) in states {
        if !blocks.contains_key(ctl) {
            let is_end = |c: &ControlState| cpa.is_block_end(c);
            let empty = PathFormula::empty(SsaMap::default());
            let b = blocks_from(cfa, cpa.encoding(), &is_end, &algo.control, ctl, empty)?;
            blocks.insert(ctl.clone(), b);
        }
        let (start, extra) = enc.instantiate(cpa.names(), psi, &SsaMap::default());
        // The state's invariant with its identifiers free, for the claims below.
        let own = &algo.arg.node(*id).data;
        let open = cpa
            .invariant_sharing(own, own)
            .map(|o| enc.instantiate(cpa.names(), &o, &SsaMap::default()));
        for (end, pf) in &blocks[ctl] {
            report.blocks += 1;
            let bad = end.beyond || cfa.node(end.location).is_error();
            let mut query = vec![start.clone(), pf.formula.clone()];
            query.extend(extra.iter().cloned());
            let mut quick = None;
            if !bad {
                if disjunction(inv_or, end).is_true() {
                    continue;
                }
                // First against the states the ARG itself reached from this one at `end`
                // (fewer disjuncts; a stronger claim, so enough when it holds), with the
                // identifiers they share with this one free where the invariants have them.
                let near = successors_at(&algo.arg, psi_of, *id, end);
                let sharing: Option<Vec<Term>> = near
                    .iter()
                    .map(|t| cpa.invariant_sharing(&algo.arg.node(*t).data, own))
                    .collect();
                // Where the ARG reached no state at `end` from this one (the block was found
                // infeasible), the claim is that the block is infeasible: `¬ or() = true`.
                let claim = match (sharing, &open) {
                    (Some(ts), Some((o, more))) => {
                        let mut q = vec![o.clone(), pf.formula.clone()];
                        q.extend(more.iter().cloned());
                        Some((q, ts))
                    }
                    _ if near.len() < inv.get(end).map_or(0, Vec::len) => {
                        let ts = near.iter().map(|t| psi_of[t].clone()).collect();
                        Some((query.clone(), ts))
                    }
                    _ => None,
                };
                if let Some((mut q, ts)) = claim {
                    let (d, more) = enc.instantiate(cpa.names(), &Term::or(ts), &pf.ssa);
                    q.push(Term::not(d));
                    q.extend(more);
                    quick = Some(Term::and(q));
                }
            }
            let what = if end.beyond {
                "a call beyond the recursion bound is reachable".to_string()
            } else if bad {
                "an error location is reachable".to_string()
            } else {
                format!(
                    "the block to location {} does not preserve the invariant",
                    end.location.0
                )
            };
            obligations.push(Obligation {
                quick,
                base: query,
                ssa: pf.ssa.clone(),
                covered_at: (!bad).then(|| end.clone()),
                failure: format!("from state {} at location {}: {what}", id.0, ctl.location.0),
            });
        }
    }
    Ok(obligations)
}

/// Checks the obligations in batches (their disjunction is unsatisfiable iff each is: the SSA
/// names of different obligations never need to agree); a batch that is not unsatisfiable is
/// checked one by one, so that the first failing obligation is reported: its failure and
/// whether it is the solver's unknown.
fn discharge<C: Certified>(
    cpa: &C,
    smt: &mut dyn Smt,
    enc: &Encoder,
    obligations: &[Obligation],
    inv_or: &BTreeMap<ControlState, Term>,
) -> Result<Option<(String, bool)>> {
    for batch in obligations.chunks(CERTIFICATE_BATCH) {
        if batch.len() > 1 {
            let any = Term::or(batch.iter().map(|o| match &o.quick {
                Some(q) => q.clone(),
                None => o.full(enc, cpa.names(), inv_or),
            }));
            if check_batch(smt, &any)? == Sat::Unsat {
                continue;
            }
        }
        for o in batch {
            if let Some(q) = &o.quick {
                if check_or_preprocessed(smt, std::slice::from_ref(q))? == Sat::Unsat {
                    continue;
                }
            }
            let full = o.full(enc, cpa.names(), inv_or);
            match check_or_preprocessed(smt, std::slice::from_ref(&full))? {
                Sat::Unsat => {}
                other => {
                    let unknown = match &other {
                        Sat::Unknown(r) => format!(" (solver: {r})"),
                        _ => String::new(),
                    };
                    let inconclusive = matches!(other, Sat::Unknown(_));
                    return Ok(Some((format!("{}{unknown}", o.failure), inconclusive)));
                }
            }
        }
    }
    Ok(None)
}

/// How many block ends one query of the check covers.
pub const CERTIFICATE_BATCH: usize = 32;

/// The resource limit of a batch query (at most the session's): a batch only saves round
/// trips, and a disjunction of easy obligations can be hard for the solver (fuzz program
/// 2730: 32 obligations over `<< 26` wrapped at 2^32, each decided in under 130 ms alone,
/// took Z3 46 s together), so a batch that needs more is checked one obligation at a time.
pub const CERTIFICATE_BATCH_RLIMIT: u64 = 500_000;

/// `any` (a batch's disjunction) under [`CERTIFICATE_BATCH_RLIMIT`].
fn check_batch(smt: &mut dyn Smt, any: &Term) -> Result<Sat> {
    under_lower_limit(smt, |smt| smt.check(std::slice::from_ref(any)))
}

/// `ask` under at most [`CERTIFICATE_BATCH_RLIMIT`] (the session's limit where lower).
fn under_lower_limit(
    smt: &mut dyn Smt,
    ask: impl FnOnce(&mut dyn Smt) -> Result<Sat>,
) -> Result<Sat> {
    let limit = smt.resource_limit();
    let lower = limit.map_or(CERTIFICATE_BATCH_RLIMIT, |l| {
        l.min(CERTIFICATE_BATCH_RLIMIT)
    });
    if limit == Some(lower) {
        return ask(smt);
    }
    smt.set_resource_limit(Some(lower))?;
    let answer = ask(smt);
    smt.set_resource_limit(limit)?;
    answer
}

/// A query asked again with the solver's preprocessing when the answer is unknown: proof
/// obligations are often trivial once the equations of the state and the block are solved,
/// which Z3's incremental core does not do (fuzz program 6999: a claim that `solve-eqs`
/// makes `false` ran out of the resource limit after 48,884 conflicts; preprocessed, it
/// takes 695 resource units; k-induction's step case of ps2-ll, `y*y - 2*x + y == 0` after
/// `y++; x += y` over 64-bit words). The second try runs under the batches' lower limit: it
/// is for queries that preprocessing makes easy, and a hard one (fuzz program 2109's
/// `x^32 = 2^63 - 1` over 64 bits) must not cost the session's limit twice. An unknown
/// keeps the first try's reason.
pub(crate) fn check_or_preprocessed(smt: &mut dyn Smt, formulas: &[Term]) -> Result<Sat> {
    match smt.check(formulas)? {
        Sat::Unknown(why) => {
            match under_lower_limit(smt, |smt| smt.check_preprocessed(formulas))? {
                Sat::Unknown(_) => Ok(Sat::Unknown(why)),
                answer => Ok(answer),
            }
        }
        answer => Ok(answer),
    }
}

/// The block ends the ARG reached from `from` at control state `end` (a covered one stands
/// for its coverer); `psi_of` holds the reached block-end states.
fn successors_at<D: Clone, P>(
    arg: &Arg<D, P>,
    psi_of: &BTreeMap<ArgId, Term>,
    from: ArgId,
    end: &ControlState,
) -> Vec<ArgId> {
    let mut found = BTreeSet::new();
    let mut stack: Vec<_> = arg.node(from).children.clone();
    let mut seen = BTreeSet::new();
    while let Some(c) = stack.pop() {
        if !seen.insert(c) || seen.len() > MAX_BLOCK_STATES {
            continue;
        }
        let n = arg.node(c);
        if !n.is_alive() {
            continue;
        }
        let target = n.covered_by.unwrap_or(c);
        if psi_of.contains_key(&target) {
            if arg.node(target).ctl == *end {
                found.insert(target);
            }
        } else {
            stack.extend(n.children.iter().copied());
        }
    }
    found.into_iter().collect()
}

/// One block end of the check: a formula that must be unsatisfiable, and what it means if not.
struct Obligation {
    /// The same claim against the block ends the ARG reached (stronger, smaller).
    quick: Option<Term>,
    /// ψ(r), the block formula and the range constraints.
    base: Vec<Term>,
    /// The SSA map at the block end.
    ssa: SsaMap,
    /// The block end whose invariant must hold there (`None`: an error or a cut, unreachable).
    covered_at: Option<ControlState>,
    failure: String,
}

impl Obligation {
    /// The claim against the whole invariant at the block end (built only when needed: the
    /// invariant may have many disjuncts).
    fn full(&self, enc: &Encoder, names: &Names, inv_or: &BTreeMap<ControlState, Term>) -> Term {
        let mut full = self.base.clone();
        if let Some(end) = &self.covered_at {
            let disj = disjunction(inv_or, end);
            let (d, more) = enc.instantiate(names, &disj, &self.ssa);
            full.push(Term::not(d));
            full.extend(more);
        }
        Term::and(full)
    }
}

/// The certificate check as the last step of a CEGAR run: TRUE if the ARG is a proof,
/// otherwise UNKNOWN with the reason. Records a [`Event::Certificate`].
pub fn check_arg<C: Describe>(
    certifier: &mut dyn Certifier<C>,
    cpa: &mut C,
    smt: &mut dyn Smt,
    algo: &CpaPlus<C>,
    events: &mut Vec<Event>,
) -> Result<Option<Verdict>> {
    let r = certifier.check(cpa, smt, algo)?;
    events.push(Event::Certificate {
        states: r.states,
        blocks: r.blocks,
        queries: r.queries,
        valid: r.failure.is_none(),
        failure: r.failure.clone(),
    });
    Ok(Some(match r.failure {
        None => Verdict::True,
        Some(why) if r.inconclusive => Verdict::Unknown {
            reason: format!("the certificate check could not decide: {why}"),
        },
        Some(why) => Verdict::Unknown {
            reason: format!("internal: certificate check failed: {why}"),
        },
    }))
}

/// The invariant at `ctl`: the disjunction of its reached states' formulas (`false` without).
fn disjunction(inv_or: &BTreeMap<ControlState, Term>, ctl: &ControlState) -> Term {
    inv_or.get(ctl).cloned().unwrap_or_else(Term::ff)
}

#[cfg(test)]
mod tests;

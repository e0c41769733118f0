//! The operators of the symbolic execution CPA (the data component of the composite): transfer
//! by [`Poster::post`] with the satisfiability check where [`SatCheckAt`] puts it; precision
//! adjustment to the tracked variables (and the constraints that came from them) at the
//! successor's location, then dropping constraints no value depends on; merge `sep` or the
//! constraints' `join`; stop `sep` with SUBSET, ALIASED_SUBSET or IMPLICATION.

use crate::cfa::{Cfa, Edge, EdgeKind};
use crate::cpa::control::ControlState;
use crate::cpa::{
    Adjusted, Counters, CoverKey, CoverSet, Cpa, Describe, MergeKind, StopKind, Successors,
    TransferNote,
};
use crate::domains::symbolic::check::{
    canonical_key, guesses, independent_parts, number_of, sat_query, satisfied_by,
    satisfied_by_guesses, satisfied_by_simple_values, CanonicalKey,
};
use crate::domains::symbolic::post::{Encodings, Poster};
use crate::domains::symbolic::{
    ident_index, Idents, SatCheckAt, SymState, SymbolicConfig, SymbolicMerge, SymbolicStop,
    MAX_IDENTS,
};
use crate::domains::value::{PrecisionScope, ValuePrecision};
use crate::events::StateKind;
use crate::formula::literal_value;
use crate::formula::{Encoder, Encoding, Names, Slot};
use crate::smt::{EngineError, Result, Sat, Smt};
use solver_bridge::term::{StructHash, Term, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// Longest state label put into an event.
const MAX_LABEL: usize = 400;

/// Structural matches one ALIASED_SUBSET check may try.
pub const ALIAS_BUDGET: usize = 10_000;

#[derive(Clone, Debug, Default)]
pub struct SymbolicStats {
    /// Satisfiability checks of path constraints.
    pub sat_checks: u64,
    /// The largest precision seen (tracked location-variable pairs).
    pub tracked: u64,
    /// Parts of satisfiability checks answered from [`SymbolicCpa::check`]'s own memory.
    pub remembered: u64,
    /// Parts of satisfiability checks that a literal of their own satisfied ([`guesses`]).
    pub guessed: u64,
    /// Parts of satisfiability checks that the values last found for their identifiers
    /// satisfied ([`SymbolicCpa::check`]).
    pub reused: u64,
}

pub struct SymbolicCpa {
    pub cfa: Rc<Cfa>,
    pub cfg: SymbolicConfig,
    pub scope: PrecisionScope,
    pub encoding: Encoding,
    pub names: Names,
    pub idents: Idents,
    pub stats: SymbolicStats,
    /// Answers of [`SymbolicCpa::check`]'s parts by their canonical form (see there) and the
    /// resource limit in force.
    answers: HashMap<(Option<u64>, CanonicalKey), Sat, StructHash>,
    /// The edges' expressions encoded for the post (see [`Encodings`]).
    encodings: Encodings,
    /// The skeletons of parts whose last [`guesses`] failed, with the tries skipped since.
    unguessed: HashMap<u64, u32>,
    /// By identifier number: its value in the last model found for a part over it (by the
    /// simple values, the guesses or the solver; always within the identifier's range), and
    /// whether the solver found it.
    values: HashMap<usize, (i128, bool)>,
    /// Models of parts over several identifiers asked of the solver, and such parts that a
    /// value of a solver's model then satisfied (see [`SymbolicCpa::worth_asking`]).
    asked: u64,
    paid: u64,
    /// Such parts the solver checked since it was last asked for a model.
    unasked: u64,
}

/// A part whose skeleton's guesses failed is guessed again every this many times.
const RETRY_GUESSES: u32 = 16;

/// Most answers [`SymbolicCpa::check`] keeps; past this it starts afresh.
const MAX_ANSWERS: usize = 20_000;

/// Models [`SymbolicCpa::worth_asking`] asks for before it weighs what they saved, and
/// every how many checks it asks again when they saved too little.
const ASK_FREELY: u64 = 4;
const ASK_AGAIN: u64 = 32;

/// Most identifiers' last values [`SymbolicCpa::check`] keeps; past this it starts afresh.
const MAX_VALUES: usize = 100_000;

impl SymbolicCpa {
    pub fn new(
        cfa: Rc<Cfa>,
        cfg: SymbolicConfig,
        scope: PrecisionScope,
        encoding: Encoding,
    ) -> SymbolicCpa {
        let names = Names::new(&cfa);
        SymbolicCpa {
            cfa,
            cfg,
            scope,
            encoding,
            names,
            idents: Idents::default(),
            stats: SymbolicStats::default(),
            answers: HashMap::default(),
            encodings: Encodings::default(),
            unguessed: HashMap::new(),
            values: HashMap::new(),
            asked: 0,
            paid: 0,
            unasked: 0,
        }
    }

    pub fn encoder(&self) -> Encoder<'_> {
        Encoder::new(&self.cfa, self.encoding)
    }

    /// The symbolic post along one edge (with this analysis' identifiers).
    pub fn post(
        &mut self,
        s: &SymState,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
    ) -> Result<crate::domains::symbolic::post::SymPost> {
        self.post_owned(s.clone(), edge, from, to)
    }

    /// [`SymbolicCpa::post`] of a state the caller gives up (no copy per edge of a replay).
    pub fn post_owned(
        &mut self,
        s: SymState,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
    ) -> Result<crate::domains::symbolic::post::SymPost> {
        if self.idents.count() > MAX_IDENTS {
            return Err(EngineError::Limit(format!(
                "more than {MAX_IDENTS} symbolic identifiers"
            )));
        }
        let cfa = self.cfa.clone();
        let mut p = Poster {
            cfa: &cfa,
            enc: Encoder::new(&cfa, self.encoding),
            idents: &mut self.idents,
            encodings: &mut self.encodings,
        };
        Ok(p.post(s, edge, from, to))
    }

    /// Whether `constraints` are satisfiable (`Unknown` counts as satisfiable: the state
    /// is kept, an over-approximation).
    pub fn satisfiable(&mut self, smt: &mut dyn Smt, constraints: &[Term]) -> Result<bool> {
        Ok(self.check(smt, constraints)? != Sat::Unsat)
    }

    /// The solver's answer on `constraints` (identifiers as free constants in their ranges).
    pub fn check(&mut self, smt: &mut dyn Smt, constraints: &[Term]) -> Result<Sat> {
        if constraints.is_empty() {
            return Ok(Sat::Sat);
        }
        self.stats.sat_checks += 1;
        // Part by part: an unsatisfiable part that every later path carries is found once.
        // Each part's answer is remembered by its canonical form (identifiers renamed in
        // structural order), which is the same when a path is explored again with fresh
        // identifiers (after every refinement); the query sent keeps the identifiers' own
        // names (Z3's search depends on the names: canonical ones sent instead turned one
        // fuzz finding's FALSE in 39 s into no verdict within 60 s).
        let mut answer = Sat::Sat;
        for part in independent_parts(constraints) {
            let ids: BTreeSet<Var> = part
                .iter()
                .flat_map(|c| crate::domains::symbolic::idents_in(c).to_vec())
                .collect();
            // First the values last found for these identifiers: a loop's path condition
            // grows by one bound per iteration (`29 < 2 * k`, then `30 < 2 * k`), and the
            // value that satisfied the last one (`k = 1000000`) usually satisfies the next.
            // Each value is within its identifier's range, so the part needs no ranges.
            if let Some(from_solver) = self.satisfied_by_last_values(&part, &ids) {
                self.stats.reused += 1;
                // A solver's model paid when the guesses fail on the part's skeleton.
                if from_solver
                    && ids.len() > 1
                    && self.unguessed.contains_key(&Self::part_skeleton(&part))
                {
                    self.paid += 1;
                }
                continue;
            }
            // Without the identifiers' ranges when the types of all of them hold 0 and 1
            // (every type but a signed one-bit one): the ranges hold for the simple values.
            let ranges_hold = ids.iter().all(|id| {
                self.idents
                    .ty(id)
                    .is_none_or(|ty| ty.contains(0) && ty.contains(1))
            });
            let mut query = None;
            let simple = if ranges_hold {
                satisfied_by_simple_values(&part)
            } else {
                let q = sat_query(&self.encoder(), &self.idents, &part);
                let simple = satisfied_by_simple_values(&q);
                query = Some(q);
                simple
            };
            if let Some(value) = simple {
                self.found(&ids, value);
                continue;
            }
            // Then each literal of its constraints and their neighbours, given to every
            // identifier (with the ranges now: such a value may be outside an identifier's
            // type), unless they failed on the part's skeleton. One value for all rarely
            // satisfies what links several identifiers (`n = 2 * q + r` on half_2), but it
            // does a pinned pair (`s = t`, `990 < t <= 991` on nested6).
            let skeleton = Self::part_skeleton(&part);
            if self.worth_guessing(skeleton) {
                let tried = guesses(&part);
                if !tried.is_empty() {
                    let q = query
                        .get_or_insert_with(|| sat_query(&self.encoder(), &self.idents, &part));
                    let satisfying = satisfied_by_guesses(q, &tried);
                    self.guessing_went(skeleton, satisfying.is_some());
                    if let Some(value) = satisfying {
                        self.stats.guessed += 1;
                        self.found(&ids, value);
                        continue;
                    }
                }
            }
            let key = (
                smt.resource_limit(),
                canonical_key(&self.encoder(), &self.idents, &part),
            );
            let sat = match self.answers.get(&key) {
                Some(a) => {
                    self.stats.remembered += 1;
                    a.clone()
                }
                None => {
                    // Built only now when the simple values did not need it: a part the
                    // memo answers needs no query.
                    let q = query
                        .take()
                        .unwrap_or_else(|| sat_query(&self.encoder(), &self.idents, &part));
                    // With the model's values of the identifiers of a part over several,
                    // for the next parts over them (see above) while they save checks.
                    let (a, values) = if ids.len() > 1 && self.worth_asking() {
                        let terms: Vec<Term> = ids.iter().map(Var::term).collect();
                        smt.check_uncached_values(&q, &terms)?
                    } else {
                        (smt.check_uncached(&q)?, None)
                    };
                    if let Some(values) = values {
                        self.asked += 1;
                        let values: Vec<Option<i128>> = values.iter().map(number_of).collect();
                        self.found_values(ids.iter().zip(values), true);
                    }
                    if self.answers.len() >= MAX_ANSWERS {
                        self.answers.clear();
                    }
                    self.answers.insert(key, a.clone());
                    a
                }
            };
            match sat {
                Sat::Unsat => return Ok(Sat::Unsat),
                Sat::Unknown(why) => {
                    if answer == Sat::Sat {
                        answer = Sat::Unknown(why);
                    }
                }
                Sat::Sat => {}
            }
        }
        Ok(answer)
    }

    /// Whether the values last found for `ids` (every one has one) satisfy `part`; if so,
    /// whether one of them is from a solver's model.
    fn satisfied_by_last_values(&self, part: &[Term], ids: &BTreeSet<Var>) -> Option<bool> {
        let mut from_solver = false;
        let mut known: Vec<(&Var, i128)> = Vec::with_capacity(ids.len());
        for id in ids {
            let (value, solver) = self.values.get(&ident_index(id)?)?;
            from_solver |= solver;
            known.push((id, *value));
        }
        let value = |v: &Var| known.iter().find(|(id, _)| *id == v).map(|(_, x)| *x);
        satisfied_by(part, &value).then_some(from_solver)
    }

    /// Records that `value`, given to every identifier of `ids`, satisfied their part.
    fn found(&mut self, ids: &BTreeSet<Var>, value: i128) {
        self.found_values(ids.iter().map(|id| (id, Some(value))), false);
    }

    /// Records the identifiers' values in a model of their part (`None`: not known).
    fn found_values<'a>(
        &mut self,
        values: impl ExactSizeIterator<Item = (&'a Var, Option<i128>)>,
        from_solver: bool,
    ) {
        if self.values.len() + values.len() > MAX_VALUES {
            self.values.clear();
        }
        for (id, value) in values {
            if let (Some(i), Some(value)) = (ident_index(id), value) {
                self.values.insert(i, (value, from_solver));
            }
        }
    }

    /// Whether to ask the solver for a model of a satisfiable part over several identifiers
    /// (another round trip, about half a check's time): while at least one in eight such
    /// models lets a later part skip the solver, and every [`ASK_AGAIN`]-th check otherwise.
    /// On half_2 they halve the checks: `j < n / 2` over `n = 2 * q + r` gets one bound per
    /// iteration, and the model of the first holds for the next ones. A part over one
    /// identifier that the guesses did not satisfy is pinned (a loop's exit, `2 * k <= 38 < 2
    /// * k + 2`), so its model is not asked for.
    fn worth_asking(&mut self) -> bool {
        let ask =
            self.asked < ASK_FREELY || self.paid * 8 >= self.asked || self.unasked + 1 >= ASK_AGAIN;
        if ask {
            self.unasked = 0;
        } else {
            self.unasked += 1;
        }
        ask
    }

    /// The skeleton of a part ([`crate::domains::symbolic::skeleton`] of each constraint, in order).
    fn part_skeleton(part: &[Term]) -> u64 {
        let mut skeletons: Vec<u64> = part
            .iter()
            .map(crate::domains::symbolic::skeleton)
            .collect();
        skeletons.sort_unstable();
        crate::cpa::key_value(&skeletons)
    }

    /// Whether to try [`guesses`] on a part of skeleton `skeleton`: not when the last try on
    /// a part of that skeleton failed, except every [`RETRY_GUESSES`]-th time. A loop's exit
    /// pins the counter's bound between two constants (`2 * k <= 38 < 2 * k + 2`), which no
    /// literal satisfies: on half, failed guesses were a sixth of the engine's time.
    fn worth_guessing(&mut self, skeleton: u64) -> bool {
        match self.unguessed.get_mut(&skeleton) {
            None => true,
            Some(skipped) => {
                *skipped += 1;
                *skipped % RETRY_GUESSES == 0
            }
        }
    }

    /// Records how guessing went on a part of skeleton `key` (see
    /// [`SymbolicCpa::worth_guessing`]).
    fn guessing_went(&mut self, key: u64, satisfied: bool) {
        if satisfied {
            self.unguessed.remove(&key);
        } else if !self.unguessed.contains_key(&key) {
            if self.unguessed.len() >= MAX_ANSWERS {
                self.unguessed.clear();
            }
            self.unguessed.insert(key, 0);
        }
    }

    /// The state as text: `a = $s0, b = (+ $s0 1) | (>= $s0 0)`, clipped to [`MAX_LABEL`]
    /// bytes (the writing stops there: every added state gets its label).
    pub fn text(&self, s: &SymState) -> String {
        if s.values.is_empty() && s.constraints.is_empty() {
            return "⊤".into();
        }
        crate::text::clip_display(&StateText { cpa: self, s }, MAX_LABEL)
    }

    pub fn slot_text(&self, slot: Slot) -> String {
        crate::domains::value::cpa::slot_text(&self.cfa, slot)
    }

    /// The meaning of a state over unindexed program variables:
    /// `∃ identifiers. ⋀ x = v(x) ∧ ⋀ a` with the identifiers' ranges. An identifier that is
    /// the whole value of a variable is replaced by that variable (one-point rule), so most
    /// states need no quantifier.
    pub fn formula(&self, s: &SymState) -> Term {
        let (body, bound) = self.open_formula(s);
        if bound.is_empty() {
            return body;
        }
        Term::exists(bound.into_iter().collect(), body)
            .expect("identifiers are constants of a sort")
    }

    /// [`Self::formula`] with the identifiers `s` shares with `with` left free (not
    /// quantified, not replaced by a variable); the others quantified as there. With `with =
    /// s` it is the formula's body. For the certificate check's claim about a successor
    /// reached from `with`: `body(with) ∧ block ⇒ formula_sharing(s, with)` (identifiers
    /// free) implies `formula(with) ∧ block ⇒ formula(s)` (the shared identifiers are a
    /// witness for the successor's quantifier) and needs no universal quantifier.
    pub fn formula_sharing(&self, s: &SymState, with: &SymState) -> Term {
        let keep = with.idents();
        let (body, bound) = self.open_formula_keeping(s, &keep);
        let bound: Vec<Var> = bound.difference(&keep).cloned().collect();
        if bound.is_empty() {
            return body;
        }
        Term::exists(bound, body).expect("identifiers are constants of a sort")
    }

    /// [`Self::formula`] without its quantifier, each identifier renamed apart with `tag`
    /// (`$s3` becomes `$s3.tag`): a formula that can stand for the state in a conjunction with
    /// other states' (a trace formula), where the same identifier in two states must not be
    /// one value.
    pub fn skolem_formula(&self, s: &SymState, tag: usize) -> Term {
        let (body, bound) = self.open_formula(s);
        let map: BTreeMap<Var, Term> = bound
            .into_iter()
            .map(|id| {
                let renamed = Var::new(format!("{}.{tag}", id.name), id.sort);
                (id, renamed.term())
            })
            .collect();
        body.substitute(&map)
    }

    /// The body of [`Self::formula`] (with the identifiers' ranges) and its bound identifiers.
    fn open_formula(&self, s: &SymState) -> (Term, BTreeSet<Var>) {
        self.open_formula_keeping(s, &BTreeSet::new())
    }

    /// [`Self::open_formula`] where the identifiers in `keep` are never replaced by the
    /// variable whose value they are.
    fn open_formula_keeping(&self, s: &SymState, keep: &BTreeSet<Var>) -> (Term, BTreeSet<Var>) {
        let enc = self.encoder();
        let mut map: BTreeMap<Var, Term> = BTreeMap::new();
        let mut parts = Vec::new();
        // The ranges of identifiers replaced by a variable of a wider type (an `unsigned
        // char` identifier as the value of an `int`): the variable's own range does not
        // imply them.
        let mut narrowed = Vec::new();
        for (slot, t) in &s.values {
            let x = enc.unindexed(*slot);
            match t.as_var() {
                Some(id)
                    if ident_index(id).is_some() && !keep.contains(id) && !map.contains_key(id) =>
                {
                    match self.idents.ty(id) {
                        Some(ty) if ty != self.cfa.var(slot.var).ty => {
                            narrowed.push(enc.range(&x, ty))
                        }
                        _ => {}
                    }
                    map.insert(id.clone(), x);
                }
                _ => parts.push((x, t.clone())),
            }
        }
        let mut body: Vec<Term> = parts
            .into_iter()
            .map(|(x, t)| Term::eq(x, t.substitute(&map)))
            .collect();
        body.extend(narrowed);
        let cs: Vec<Term> = s.constraints.keys().cloned().collect();
        body.extend(cs.iter().map(|c| c.substitute(&map)));
        let body = Term::and(body);
        let bound: BTreeSet<Var> = crate::domains::symbolic::idents_of(&body);
        if bound.is_empty() {
            return (body, bound);
        }
        let mut with_ranges = vec![body];
        for id in &bound {
            if let Some(ty) = self.idents.ty(id) {
                with_ranges.push(enc.range(&id.term(), ty));
            }
        }
        (Term::and(with_ranges), bound)
    }
}

impl Cpa for SymbolicCpa {
    type State = SymState;
    type Prec = ValuePrecision;

    fn initial_state(&mut self, _ctl: &ControlState) -> SymState {
        SymState::default()
    }

    fn transfer(
        &mut self,
        smt: &mut dyn Smt,
        s: &SymState,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
        _prec: &ValuePrecision,
    ) -> Result<Successors<SymState>> {
        let p = self.post(s, edge, from, to)?;
        let Some(next) = p.state else {
            return Ok(Successors::none());
        };
        let check = match self.cfg.sat_check {
            SatCheckAt::Assume if !p.added.is_empty() => Some(next.connected(&p.added)),
            SatCheckAt::Target if matches!(edge.kind, EdgeKind::ReachError(_)) => {
                Some(next.constraints.keys().cloned().collect())
            }
            _ => None,
        };
        let Some(constraints) = check.filter(|c: &Vec<Term>| !c.is_empty()) else {
            return Ok(Successors::one(next));
        };
        let satisfiable = self.satisfiable(smt, &constraints)?;
        Ok(Successors {
            states: if satisfiable { vec![next] } else { Vec::new() },
            note: Some(TransferNote::SatCheck { satisfiable }),
        })
    }

    fn adjust(
        &mut self,
        _smt: &mut dyn Smt,
        s: SymState,
        ctl: &ControlState,
        prec: &ValuePrecision,
    ) -> Result<Option<Adjusted<SymState>>> {
        self.stats.tracked = self.stats.tracked.max(prec.size() as u64);
        let mut state = s.restrict(|v| prec.contains(ctl.location, &v));
        // Only satisfiable constraints may be dropped without changing the state's meaning.
        if self.cfg.sat_check == SatCheckAt::Assume {
            state.prune_unconnected();
        }
        Ok(Some(Adjusted {
            state,
            abstraction: None,
        }))
    }

    fn merge_kind(&self) -> MergeKind {
        match self.cfg.merge {
            SymbolicMerge::Sep => MergeKind::Sep,
            SymbolicMerge::Join => MergeKind::Join,
        }
    }

    fn merge(
        &mut self,
        _smt: &mut dyn Smt,
        new: &SymState,
        reached: &SymState,
    ) -> Result<Option<SymState>> {
        Ok(match self.cfg.merge {
            SymbolicMerge::Sep => None,
            SymbolicMerge::Join => SymState::negation_join(new, reached),
        })
    }

    /// The join needs `reached`'s values among `new`'s (`values_subset`): its literal values
    /// too, so the cover key is a necessary condition.
    fn merge_key(&self, s: &SymState) -> Option<CoverKey> {
        self.cover_key(s)
    }

    fn stop_kind(&self) -> StopKind {
        StopKind::Sep
    }

    fn may_cover(&self, _s: &SymState) -> bool {
        true
    }

    fn covered_by(&mut self, smt: &mut dyn Smt, s: &SymState, by: &SymState) -> Result<bool> {
        Ok(match self.cfg.stop {
            SymbolicStop::Subset => s.subset(by),
            // The identity is one of the renamings: no separate SUBSET test.
            SymbolicStop::AliasedSubset => s.aliased_subset(by, &self.idents, ALIAS_BUDGET),
            SymbolicStop::Implication => {
                if !s.values_subset(by) {
                    false
                } else if s.subset(by) {
                    true
                } else {
                    // φ_s ⇒ φ_by: φ_s ∧ ¬φ_by unsatisfiable (identifiers as free constants).
                    let mine: Vec<Term> = s.constraints.keys().cloned().collect();
                    let theirs = Term::and(by.constraints.keys().cloned());
                    let mut q = sat_query(&self.encoder(), &self.idents, &mine);
                    let enc = self.encoder();
                    for id in crate::domains::symbolic::idents_of(&theirs) {
                        if let Some(ty) = self.idents.ty(&id) {
                            q.push(enc.range(&id.term(), ty));
                        }
                    }
                    q.push(Term::not(theirs));
                    self.stats.sat_checks += 1;
                    smt.check(&q)? == Sat::Unsat
                }
            }
        })
    }

    /// Every stop (SUBSET, ALIASED_SUBSET, implication) needs `by`'s values in `s`, equal or
    /// renamed: their shapes are the key.
    fn cover_key(&self, s: &SymState) -> Option<CoverKey> {
        Some(s.shape_key())
    }

    /// SUBSET and ALIASED_SUBSET need each of `by`'s constraints, renamed, among `s`'s: the
    /// constraints' shapes are the set. An implication needs no constraint of `by` in `s`.
    fn cover_set(&self, s: &SymState) -> CoverSet {
        match self.cfg.stop {
            SymbolicStop::Subset | SymbolicStop::AliasedSubset => s.constraint_shapes(),
            SymbolicStop::Implication => CoverSet::new(),
        }
    }

    fn counters(&self) -> Counters {
        Counters {
            abstractions: 0,
            precision: self.stats.tracked,
        }
    }
}

/// Most term texts [`term_text`] keeps (each at most [`MAX_LABEL`] bytes and `…`).
const MAX_TEXTS: usize = 1 << 14;

thread_local! {
    static TEXTS: crate::memo::Memo<Term, Rc<str>, solver_bridge::term::AddrHash> =
        crate::memo::Memo::new(MAX_TEXTS);
}

/// A term's text clipped to [`MAX_LABEL`] bytes, remembered per term: a constraint is in the
/// label of every state along the path it came from. A clipped text is longer than what a
/// label can still take after its prefix (`x = `, ` | `), so the label cuts where it would
/// have without the memo.
fn term_text(t: &Term) -> Rc<str> {
    TEXTS.with(|m| m.get_or(t, || crate::text::clip_display(t, MAX_LABEL).into()))
}

/// [`SymbolicCpa::text`] unclipped.
struct StateText<'a> {
    cpa: &'a SymbolicCpa,
    s: &'a SymState,
}

impl std::fmt::Display for StateText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (slot, t)) in self.s.values.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} = ", self.cpa.slot_text(*slot))?;
            match literal_value(t, self.cpa.cfa.var(slot.var).ty) {
                Some(v) => write!(f, "{v}")?,
                None => f.write_str(&term_text(t))?,
            }
        }
        if !self.s.constraints.is_empty() {
            f.write_str(" | ")?;
            for (i, c) in self.s.constraints.keys().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(&term_text(c))?;
            }
        }
        Ok(())
    }
}

impl Describe for SymbolicCpa {
    fn describe(&self, s: &SymState) -> (StateKind, String) {
        (StateKind::Plain, self.text(s))
    }

    fn kind(&self, _s: &SymState) -> StateKind {
        StateKind::Plain
    }
}

#[cfg(test)]
mod tests {
    use super::{term_text, SymbolicCpa, MAX_LABEL, RETRY_GUESSES};
    use crate::domains::value::PrecisionScope;
    use crate::formula::Encoding;
    use crate::ir::IntType;
    use crate::smt::{BridgeSmt, Sat, Smt};
    use crate::text::clip_display;
    use solver_bridge::solver::NativeZ3;
    use solver_bridge::term::{Sort, Term};
    use std::rc::Rc;

    /// An analysis of an empty program in the Int encoding, with Z3.
    fn cpa_and_z3() -> (SymbolicCpa, BridgeSmt<NativeZ3>) {
        let cfa = crate::frontend::parse_program("t.c", "int main(void) { return 0; }")
            .unwrap()
            .cfa;
        let cpa = SymbolicCpa::new(
            Rc::new(cfa),
            Default::default(),
            PrecisionScope::Location,
            Encoding::Int,
        );
        (
            cpa,
            BridgeSmt::new(NativeZ3::new().expect("the tests need z3")),
        )
    }

    /// half_2's second loop: `j < n / 2` over `n = 2 * q + r` gets one bound per iteration,
    /// which no value given to every identifier satisfies. The solver's model of the first
    /// (asked for: the part has several identifiers) satisfies the next ones without the
    /// solver, until a bound beyond it; the model of a part over one identifier is not asked
    /// for.
    #[test]
    fn a_models_values_decide_the_next_bounds() {
        let (mut cpa, mut smt) = cpa_and_z3();
        let n = cpa.idents.fresh(Sort::Int, Some(IntType::INT));
        let (q, r) = (
            cpa.idents.fresh(Sort::Int, None),
            cpa.idents.fresh(Sort::Int, None),
        );
        let part = |j: i64| {
            vec![
                Term::eq(
                    n.clone(),
                    Term::add2(Term::mul(Term::int(2), q.clone()), r.clone()),
                ),
                Term::le(Term::int(0), r.clone()),
                Term::le(r.clone(), Term::int(1)),
                Term::lt(Term::int(48), n.clone()),
                Term::le(n.clone(), Term::int(50)),
                Term::lt(Term::int(j), q.clone()),
            ]
        };
        assert_eq!(cpa.check(&mut smt, &part(3)).unwrap(), Sat::Sat);
        assert_eq!(cpa.stats.guessed, 0);
        assert_eq!(smt.queries(), 2, "a check and the model's values");
        for j in 4..20 {
            assert_eq!(cpa.check(&mut smt, &part(j)).unwrap(), Sat::Sat);
        }
        assert_eq!((cpa.stats.reused, smt.queries()), (16, 2));
        assert_eq!((cpa.asked, cpa.paid), (1, 16));
        // q is 24 or 25: 30 < q is the solver's again (unsatisfiable, no model).
        assert_eq!(cpa.check(&mut smt, &part(30)).unwrap(), Sat::Unsat);
        assert_eq!(smt.queries(), 3);
        // One identifier: `2 * k <= 8 < 2 * k + 2` is checked without asking for k.
        let k = cpa.idents.fresh(Sort::Int, Some(IntType::INT));
        let twice = Term::mul(Term::int(2), k);
        let pinned = [
            Term::le(twice.clone(), Term::int(8)),
            Term::lt(Term::int(8), Term::add2(twice, Term::int(2))),
        ];
        assert_eq!(cpa.check(&mut smt, &pinned).unwrap(), Sat::Sat);
        assert_eq!((smt.queries(), cpa.asked), (4, 1));
    }

    /// A part that no literal of its own satisfies (`2 * k <= 8 < 2 * k + 2`) makes the
    /// next parts of its skeleton skip the guesses, even one that a literal satisfies (`2 * k
    /// <= 4 < 2 * k + 2`, `k = 2`), until every [`RETRY_GUESSES`]-th; a try that succeeds
    /// makes the skeleton worth guessing again.
    #[test]
    fn guesses_skip_a_skeleton_they_failed_on() {
        let (mut cpa, mut smt) = cpa_and_z3();
        let mut pinned = |cpa: &mut SymbolicCpa, c: i64| {
            let k = cpa.idents.fresh(Sort::Int, Some(IntType::INT));
            let twice = Term::mul(Term::int(2), k);
            let part = [
                Term::le(twice.clone(), Term::int(c)),
                Term::lt(Term::int(c), Term::add2(twice, Term::int(2))),
            ];
            assert_eq!(cpa.check(&mut smt, &part).unwrap(), Sat::Sat);
        };
        pinned(&mut cpa, 8);
        assert_eq!((cpa.stats.guessed, cpa.unguessed.len()), (0, 1));
        for _ in 1..RETRY_GUESSES {
            pinned(&mut cpa, 4);
        }
        assert_eq!(cpa.stats.guessed, 0, "skipped");
        pinned(&mut cpa, 4);
        assert_eq!(
            (cpa.stats.guessed, cpa.unguessed.len()),
            (1, 0),
            "tried again"
        );
        pinned(&mut cpa, 4);
        assert_eq!(cpa.stats.guessed, 2);
    }

    /// A label built from remembered (clipped) term texts is the label built from the whole
    /// texts, for short and for long terms, with any prefix a label puts before a term.
    #[test]
    fn remembered_texts_clip_like_whole_texts() {
        let x = Term::new_var("$s0", Sort::Int);
        let mut long = x.clone();
        for i in 0..300 {
            long = Term::add2(Term::mul(long, Term::int(i + 2)), x.clone());
        }
        assert!(format!("{long}").len() > 2 * MAX_LABEL);
        let short = Term::gt(x, Term::int(3));
        for t in [&short, &long] {
            for prefix in ["x = ", "a = 1, b = 2, c = ", " | "] {
                let whole = clip_display(&format!("{prefix}{t}"), MAX_LABEL);
                // Twice: computed, then remembered.
                for _ in 0..2 {
                    let remembered = format!("{prefix}{}", term_text(t));
                    assert_eq!(clip_display(&remembered, MAX_LABEL), whole);
                }
            }
        }
    }
}

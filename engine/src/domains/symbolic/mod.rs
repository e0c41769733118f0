//! Symbolic execution with CEGAR: the symbolic value analysis CPA and the constraints CPA of
//! Lemberger's thesis "Effective Symbolic Execution in CPAchecker with compositional CEGAR"
//! (Sect. 2.5–2.7 and 4 of its digest), composed into one data CPA so that one alias mapping
//! serves both components (the digest's pitfall 8).
//!
//! A state `(v, a)` maps variable slots to values, each a term: a literal (a concrete value)
//! or a term over *symbolic identifiers* (`$s0`, `$s1`, …, SMT constants of the variable's
//! type), and holds a set `a` of constraints over identifiers only (never over program
//! variables: the strengthening `↓` substitutes them at once, pitfall 7). Its meaning is
//! `∃ identifiers. ⋀ x = v(x) ∧ ⋀ a` (with the identifiers in their types' ranges).
//!
//! The operators (see [`cpa`]): transfer by [`post`]; precision = the tracked variables per
//! location, which also decides which constraints are kept (the variable-based constraints
//! precision Π_ℂS: a constraint stays when every variable it came from is tracked,
//! pitfall 14); merge `sep` or `join` (a pair `p`/`¬p` of sibling branches is dropped,
//! Sect. 3.1); less-or-equal `subset`, `aliased-subset` or `implication` (Sect. 3.2).

pub mod check;
pub mod cpa;
pub mod post;

pub use cpa::SymbolicCpa;

use crate::formula::Slot;
use crate::ir::{IntType, VarId};
use crate::memo::Memo;
use serde::{Deserialize, Serialize};
use solver_bridge::term::{AddrHash, Term, TermKind, Var};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The prefix of symbolic identifiers' names (never a C identifier).
pub const IDENT_PREFIX: &str = "$s";

/// The number of a symbolic identifier, `None` for any other constant.
pub fn ident_index(v: &Var) -> Option<usize> {
    v.name.strip_prefix(IDENT_PREFIX)?.parse().ok()
}

/// Most terms whose identifiers [`idents_in`] (or [`shape`]) remembers; past this it starts
/// afresh.
const MAX_REMEMBERED: usize = 1 << 17;

thread_local! {
    static IDENTS: Memo<Term, Rc<[Var]>, AddrHash> = Memo::new(MAX_REMEMBERED);
    static SHAPES: Memo<Term, u64, AddrHash> = Memo::new(MAX_REMEMBERED);
    static SKELETONS: Memo<Term, u64, AddrHash> = Memo::new(MAX_REMEMBERED);
}

/// The symbolic identifiers of a term, in order, remembered per term: every transfer, stop
/// and precision adjustment asks for those of each constraint and value of a state, and the
/// same terms recur from state to state (a walk of the term each time was a tenth of the
/// engine's time of symbolic execution).
pub fn idents_in(t: &Term) -> Rc<[Var]> {
    IDENTS.with(|m| {
        m.get_or(t, || {
            t.free_vars()
                .into_iter()
                .filter(|v| ident_index(v).is_some())
                .collect()
        })
    })
}

/// A hash of `t` with every identifier replaced by one placeholder of its sort: terms equal
/// up to a renaming of identifiers have the same shape (remembered per term, like
/// [`idents_in`]). Computed over the term's nodes, without building the renamed term (that
/// was 6 % of the engine's time on half, where every iteration's bound is a new term).
pub fn shape(t: &Term) -> u64 {
    SHAPES.with(|m| {
        m.get_or(t, || {
            use std::hash::{Hash, Hasher};
            let mut h = solver_bridge::term::StructHasher::default();
            match t.kind() {
                TermKind::Var(v) if ident_index(v).is_some() => (0u8, v.sort).hash(&mut h),
                TermKind::App(op, args) => {
                    (1u8, op, args.len() as u64).hash(&mut h);
                    for a in args.iter() {
                        shape(a).hash(&mut h);
                    }
                }
                // A quantified term renamed as a whole (its bound variables stay).
                TermKind::Quant(..) => {
                    let map: BTreeMap<Var, Term> = idents_in(t)
                        .iter()
                        .map(|v| (v.clone(), Var::new(IDENT_PREFIX, v.sort).term()))
                        .collect();
                    (2u8, crate::cpa::key_value(&t.substitute(&map))).hash(&mut h)
                }
                // Literals and other variables are their own shape.
                _ => (3u8, t).hash(&mut h),
            }
            h.finish()
        })
    })
}

/// A hash of `t` with every variable and every integer or bit-vector literal replaced by a
/// placeholder of its sort (remembered per term, like [`shape`]): the constraints a loop
/// adds in each iteration (`38 < 2 * $s4`, then `40 < 2 * $s4`) have one skeleton.
pub fn skeleton(t: &Term) -> u64 {
    SKELETONS.with(|m| {
        m.get_or(t, || {
            use std::hash::{Hash, Hasher};
            let mut h = solver_bridge::term::StructHasher::default();
            t.sort().hash(&mut h);
            match t.kind() {
                TermKind::Var(_) | TermKind::Int(_) | TermKind::BitVec { .. } => 0u8.hash(&mut h),
                TermKind::Bool(b) => (1u8, b).hash(&mut h),
                TermKind::App(op, args) => {
                    // The length as `u64`: the same hash natively and in the browser.
                    (2u8, op, args.len() as u64).hash(&mut h);
                    for a in args.iter() {
                        skeleton(a).hash(&mut h);
                    }
                }
                TermKind::Quant(..) => (3u8, crate::cpa::key_value(t)).hash(&mut h),
            }
            h.finish()
        })
    })
}

/// The symbolic identifiers of a term.
pub fn idents_of(t: &Term) -> BTreeSet<Var> {
    idents_in(t).iter().cloned().collect()
}

/// A symbolic execution state `(v, a)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymState {
    /// The known values (literals or terms over identifiers); every other slot is unknown.
    pub values: BTreeMap<Slot, Term>,
    /// The path constraints over identifiers, each with the program variables it came from.
    pub constraints: BTreeMap<Term, BTreeSet<VarId>>,
}

impl SymState {
    /// The identifiers the state mentions.
    pub fn idents(&self) -> BTreeSet<Var> {
        let mut out = BTreeSet::new();
        for t in self.values.values().chain(self.constraints.keys()) {
            out.extend(idents_in(t).iter().cloned());
        }
        out
    }

    /// The values' shapes as a key ([`crate::cpa::Cpa::cover_key`]): each of the stop
    /// operators and the join needs every value of the other state among this one's, equal
    /// or equal up to a renaming of identifiers (ALIASED_SUBSET), so with the same
    /// [`shape`]: a literal is its own shape.
    pub fn shape_key(&self) -> crate::cpa::CoverKey {
        self.values
            .iter()
            .map(|(slot, t)| (crate::cpa::slot_component(*slot), shape(t)))
            .collect()
    }

    /// The constraints' shapes, sorted, each once ([`crate::cpa::Cpa::cover_set`]): a
    /// constraint renamed has its shape.
    pub fn constraint_shapes(&self) -> crate::cpa::CoverSet {
        let mut out: Vec<u64> = self.constraints.keys().map(shape).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// SUBSET: `self ⊑ other` when every value of `other` is a value of `self` and every
    /// constraint of `other` a constraint of `self` (identical identifiers).
    pub fn subset(&self, other: &SymState) -> bool {
        other.values.len() <= self.values.len()
            && other.constraints.len() <= self.constraints.len()
            && self.values_subset(other)
            && other
                .constraints
                .keys()
                .all(|c| self.constraints.contains_key(c))
    }

    /// The values `other` knows, `self` knows equally (the value half of SUBSET).
    pub fn values_subset(&self, other: &SymState) -> bool {
        if other.values.len() == self.values.len() {
            // The common case (same variables tracked): one pass over both.
            return self.values.iter().eq(other.values.iter());
        }
        other
            .values
            .iter()
            .all(|(s, t)| self.values.get(s) == Some(t))
    }

    /// ALIASED_SUBSET: `self ⊑ other` under one injective renaming `alias` of `other`'s
    /// identifiers to `self`'s (of the same type), shared by values and constraints
    /// (pitfall 8): `v(x) = alias(v'(x))` for every `x` that `other` knows (a concrete value
    /// must be equal), and `alias(a') ⊆ a`. The search for the constraints' part is bounded
    /// by `budget` structural matches; when it runs out the answer is "not covered" (sound).
    pub fn aliased_subset(&self, other: &SymState, types: &Idents, budget: usize) -> bool {
        if other.values.len() > self.values.len()
            || other.constraints.len() > self.constraints.len()
        {
            return false;
        }
        // Concrete values first (no renaming applies to them): most candidates differ there.
        for (slot, t) in &other.values {
            if t.is_literal() && self.values.get(slot) != Some(t) {
                return false;
            }
        }
        let mut m = Matcher {
            alias: BTreeMap::new(),
            used: BTreeSet::new(),
            trail: Vec::new(),
            types,
            budget,
        };
        for (s, t) in &other.values {
            let Some(mine) = self.values.get(s) else {
                return false;
            };
            if !m.unify(t, mine) {
                return false;
            }
        }
        let theirs: Vec<&Term> = other.constraints.keys().collect();
        let mine: Vec<&Term> = self.constraints.keys().collect();
        m.constraints(&theirs, &mine)
    }

    /// The restriction to the tracked slots, keeping the constraints whose variables are all
    /// tracked (the variable-based constraints precision).
    pub fn restrict(mut self, keep: impl Fn(VarId) -> bool) -> SymState {
        self.values.retain(|s, _| keep(s.var));
        self.constraints
            .retain(|_, origins| origins.iter().all(|v| keep(*v)));
        self
    }

    /// Drops the constraints not connected (through shared identifiers, transitively) to an
    /// identifier of a value: their identifiers can never be read again (identifiers are
    /// fresh), so when the constraints are satisfiable the state means the same without them
    /// (the digest's pitfall 16, by connectivity).
    pub fn prune_unconnected(&mut self) {
        if self.constraints.is_empty() {
            return;
        }
        let mut live: BTreeSet<Var> = BTreeSet::new();
        for t in self.values.values() {
            live.extend(idents_in(t).iter().cloned());
        }
        let mut pending: Vec<(Term, Rc<[Var]>)> = self
            .constraints
            .keys()
            .map(|c| (c.clone(), idents_in(c)))
            .collect();
        loop {
            let before = pending.len();
            pending.retain(|(_, ids)| {
                if ids.iter().any(|i| live.contains(i)) {
                    live.extend(ids.iter().cloned());
                    false
                } else {
                    true
                }
            });
            if pending.is_empty() || pending.len() == before {
                break;
            }
        }
        // What is still pending is unconnected (usually nothing).
        for (c, _) in pending {
            self.constraints.remove(&c);
        }
    }

    /// The constraints connected (transitively, through identifiers) to `start`'s.
    pub fn connected(&self, start: &[Term]) -> Vec<Term> {
        let live: BTreeSet<Var> = start.iter().flat_map(|t| idents_in(t).to_vec()).collect();
        let out: BTreeSet<Term> = start.iter().cloned().collect();
        self.connected_from(live, out).into_iter().collect()
    }

    /// The constraints connected (transitively, through identifiers) to the identifiers
    /// `ids`.
    pub fn connected_to(&self, ids: BTreeSet<Var>) -> BTreeSet<Term> {
        self.connected_from(ids, BTreeSet::new())
    }

    fn connected_from(&self, mut live: BTreeSet<Var>, mut out: BTreeSet<Term>) -> BTreeSet<Term> {
        loop {
            let before = out.len();
            for c in self.constraints.keys() {
                if out.contains(c) {
                    continue;
                }
                let ids = idents_in(c);
                if ids.iter().any(|i| live.contains(i)) {
                    live.extend(ids.iter().cloned());
                    out.insert(c.clone());
                }
            }
            if out.len() == before {
                break;
            }
        }
        out
    }

    /// The JOIN merge of the constraints component (Sect. 3.1): `reached` without every
    /// constraint whose negation `new` holds, when the values agree and the result covers
    /// `new` (SUBSET); `None` when nothing would be dropped or it would not cover `new`.
    pub fn negation_join(new: &SymState, reached: &SymState) -> Option<SymState> {
        if !new.values_subset(reached) {
            return None;
        }
        let dropped: Vec<&Term> = reached
            .constraints
            .keys()
            .filter(|q| new.constraints.keys().any(|p| is_negation(p, q)))
            .collect();
        if dropped.is_empty() {
            return None;
        }
        let mut merged = reached.clone();
        for q in dropped {
            merged.constraints.remove(q);
        }
        merged
            .constraints
            .keys()
            .all(|c| new.constraints.contains_key(c))
            .then_some(merged)
    }
}

/// `q` is `¬p` (or `p` is `¬q`), structurally: sibling branches of one assumption build the
/// very same term and its negation (pitfall 10).
pub fn is_negation(p: &Term, q: &Term) -> bool {
    *q == Term::not(p.clone()) || *p == Term::not(q.clone())
}

/// The types of the identifiers handed out so far, and the next fresh one. Identifiers are
/// globally fresh: never reused, across refinements and interpolation (pitfall 4), except
/// the exact auxiliaries of the encoding, which are functions of their definition.
#[derive(Clone, Debug, Default)]
pub struct Idents {
    /// `None`: an auxiliary integer of the encoding (a quotient), unbounded.
    types: Vec<Option<IntType>>,
    /// Exact auxiliaries by their definition (the encoder's constraints over identifiers
    /// and the auxiliaries' names): the identifiers they were given.
    definitions: BTreeMap<Vec<Term>, BTreeMap<Var, Term>>,
    /// By identifier number: whether it was given to an exact auxiliary (is in
    /// `definitions`).
    defined: Vec<bool>,
}

/// The most identifiers one analysis hands out (each state stores only a few; this bounds
/// the table a run can grow).
pub const MAX_IDENTS: usize = 10_000_000;

impl Idents {
    /// A fresh identifier of `sort` for a value of type `ty`.
    pub fn fresh(&mut self, sort: solver_bridge::term::Sort, ty: Option<IntType>) -> Term {
        let n = self.types.len();
        self.types.push(ty);
        Term::new_var(format!("{IDENT_PREFIX}{n}"), sort)
    }

    pub fn count(&self) -> usize {
        self.types.len()
    }

    /// The identifiers of exact auxiliaries with this definition, if they have been given.
    pub fn defined(&self, definition: &[Term]) -> Option<&BTreeMap<Var, Term>> {
        self.definitions.get(definition)
    }

    /// Whether `v` was given to an exact auxiliary (it may be handed out again).
    pub fn is_defined(&self, v: &Var) -> bool {
        ident_index(v).is_some_and(|i| self.defined.get(i).copied().unwrap_or(false))
    }

    /// Records the identifiers given to the exact auxiliaries of `definition`.
    pub fn define(&mut self, definition: Vec<Term>, ids: BTreeMap<Var, Term>) {
        for i in ids
            .values()
            .filter_map(|t| t.as_var().and_then(ident_index))
        {
            if self.defined.len() <= i {
                self.defined.resize(i + 1, false);
            }
            self.defined[i] = true;
        }
        self.definitions.insert(definition, ids);
    }

    /// The type of identifier `v` (`None`: unbounded, or not an identifier).
    pub fn ty(&self, v: &Var) -> Option<IntType> {
        ident_index(v).and_then(|i| self.types.get(i).copied().flatten())
    }

    fn same_type(&self, a: &Var, b: &Var) -> bool {
        a.sort == b.sort
            && match (ident_index(a), ident_index(b)) {
                (Some(i), Some(j)) => self.types.get(i) == self.types.get(j),
                _ => false,
            }
    }
}

/// The structural matcher of ALIASED_SUBSET.
struct Matcher<'a> {
    /// Identifier of the bigger state to identifier of the smaller one.
    alias: BTreeMap<Var, Var>,
    used: BTreeSet<Var>,
    /// The bindings in the order they were made, so that backtracking undoes the newest
    /// ones instead of copying the maps at every choice point.
    trail: Vec<(Var, Var)>,
    types: &'a Idents,
    budget: usize,
}

impl Matcher<'_> {
    /// Undoes the bindings made after the trail had length `mark`.
    fn undo(&mut self, mark: usize) {
        for (p, t) in self.trail.drain(mark..) {
            self.alias.remove(&p);
            self.used.remove(&t);
        }
    }

    /// Extends the alias so that `pattern` renamed is `target`; on failure the alias may
    /// hold partial bindings (callers that backtrack undo them to a trail mark).
    fn unify(&mut self, pattern: &Term, target: &Term) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        match (pattern.kind(), target.kind()) {
            (TermKind::Var(p), TermKind::Var(t)) if ident_index(p).is_some() => {
                match self.alias.get(p) {
                    Some(bound) => bound == t,
                    None => {
                        if ident_index(t).is_none()
                            || self.used.contains(t)
                            || !self.types.same_type(p, t)
                        {
                            return false;
                        }
                        self.alias.insert(p.clone(), t.clone());
                        self.used.insert(t.clone());
                        self.trail.push((p.clone(), t.clone()));
                        true
                    }
                }
            }
            (TermKind::App(op, xs), TermKind::App(op2, ys)) => {
                op == op2
                    && xs.len() == ys.len()
                    && xs.iter().zip(ys.iter()).all(|(x, y)| self.unify(x, y))
            }
            _ => pattern == target,
        }
    }

    /// Every constraint of `theirs` renamed is one of `mine` (backtracking over the choices
    /// of identifiers not bound yet).
    fn constraints(&mut self, theirs: &[&Term], mine: &[&Term]) -> bool {
        let Some((first, rest)) = theirs.split_first() else {
            return true;
        };
        for cand in mine {
            let mark = self.trail.len();
            if self.unify(first, cand) && self.constraints(rest, mine) {
                return true;
            }
            self.undo(mark);
            if self.budget == 0 {
                return false;
            }
        }
        false
    }
}

/// Where the path constraints are checked for satisfiability (Sect. 3.3 of the digest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SatCheckAt {
    /// After every assumption that adds a constraint (the strengthening's definition).
    #[default]
    Assume,
    /// Only on the edge into an error location: infeasible paths are explored further.
    Target,
}

/// The merge operator of the constraints component.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SymbolicMerge {
    #[default]
    Sep,
    /// Drop `p`/`¬p` pairs of sibling branches where they meet (Sect. 3.1).
    Join,
}

/// The less-or-equal operator of stop (Sect. 3.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SymbolicStop {
    /// Identical values and a superset of the constraints.
    Subset,
    /// SUBSET modulo one renaming of identifiers shared by values and constraints.
    #[default]
    AliasedSubset,
    /// Identical values, and the constraints imply the other's (a solver query).
    Implication,
}

/// How an infeasible symbolic path is refuted (Sect. 3.4.3 and 3.4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SymbolicRefutation {
    /// Interpolation for symbolic states (constraints first, then variables).
    #[default]
    Interpolation,
    /// Delegated to predicate refinement: the variables of the sequence interpolants.
    Predicate,
}

/// The configuration of symbolic execution.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolicConfig {
    #[serde(default)]
    pub merge: SymbolicMerge,
    #[serde(default)]
    pub stop: SymbolicStop,
    #[serde(default)]
    pub sat_check: SatCheckAt,
    #[serde(default)]
    pub refutation: SymbolicRefutation,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntType;
    use solver_bridge::term::Sort;

    fn slot(v: u32) -> Slot {
        Slot {
            var: VarId(v),
            instance: 0,
        }
    }

    fn st(values: &[(u32, Term)], constraints: &[Term]) -> SymState {
        SymState {
            values: values.iter().map(|(v, t)| (slot(*v), t.clone())).collect(),
            constraints: constraints
                .iter()
                .map(|c| (c.clone(), BTreeSet::new()))
                .collect(),
        }
    }

    fn idents(n: usize) -> (Idents, Vec<Term>) {
        let mut ids = Idents::default();
        let ts = (0..n)
            .map(|_| ids.fresh(Sort::Int, Some(IntType::INT)))
            .collect();
        (ids, ts)
    }

    /// The thesis' Fig. 4a: a nondeterministic value assigned in a loop is covered by
    /// renaming; Fig. 4b: a variable read and written in the loop is not.
    #[test]
    fn aliased_subset_renames_identifiers() {
        let (ids, s) = idents(4);
        let a = st(&[(0, s[0].clone())], &[]);
        let b = st(&[(0, s[1].clone())], &[]);
        assert!(b.aliased_subset(&a, &ids, 1000));
        assert!(!b.subset(&a));
        let one = Term::int(1);
        let two = Term::int(2);
        let a = st(
            &[(0, s[0].clone()), (1, Term::add2(s[1].clone(), one))],
            &[],
        );
        let b = st(
            &[(0, s[2].clone()), (1, Term::add2(s[1].clone(), two))],
            &[],
        );
        assert!(!b.aliased_subset(&a, &ids, 1000));
    }

    /// Pitfall 8: one renaming for values and constraints. `{a↦s1, b↦s2}, {s1 > 0}` is not
    /// covered by `{a↦s3, b↦s4}, {s4 > 0}` (the constraint is on the other variable).
    #[test]
    fn aliased_subset_shares_one_renaming() {
        let (ids, s) = idents(4);
        let zero = Term::int(0);
        let small = st(
            &[(0, s[0].clone()), (1, s[1].clone())],
            &[Term::gt(s[0].clone(), zero.clone())],
        );
        let big = st(
            &[(0, s[2].clone()), (1, s[3].clone())],
            &[Term::gt(s[3].clone(), zero.clone())],
        );
        assert!(!small.aliased_subset(&big, &ids, 1000));
        let big = st(
            &[(0, s[2].clone()), (1, s[3].clone())],
            &[Term::gt(s[2].clone(), zero.clone())],
        );
        assert!(small.aliased_subset(&big, &ids, 1000));
        // The necessary conditions of the cover index hold for the renaming: the values'
        // shapes (key) and the constraints' shapes (set).
        assert_eq!(small.shape_key(), big.shape_key());
        assert_eq!(small.constraint_shapes(), big.constraint_shapes());
        // A constraint with another constant has another shape.
        let other = st(
            &[(0, s[2].clone()), (1, s[3].clone())],
            &[Term::gt(s[2].clone(), Term::int(1))],
        );
        assert_ne!(small.constraint_shapes(), other.constraint_shapes());
    }

    /// A concrete value of the bigger state must be the smaller state's value too (the
    /// digest's fix of the thesis' definition).
    #[test]
    fn concrete_values_are_matched_exactly() {
        let (ids, s) = idents(1);
        let concrete = st(&[(0, Term::int(5))], &[]);
        let symbolic = st(&[(0, s[0].clone())], &[]);
        assert!(!symbolic.aliased_subset(&concrete, &ids, 1000));
        assert!(!symbolic.subset(&concrete));
        assert!(concrete.subset(&st(&[], &[])));
    }

    /// Sect. 3.1: where the branches of `p` meet, `p`/`¬p` go; the values must agree.
    #[test]
    fn join_drops_negated_pairs_only() {
        let (_, s) = idents(2);
        let p = Term::gt(s[0].clone(), Term::int(0));
        let q = Term::gt(s[1].clone(), Term::int(0));
        let then = st(&[(0, s[0].clone())], &[q.clone(), p.clone()]);
        let other = st(&[(0, s[0].clone())], &[q.clone(), Term::not(p.clone())]);
        let merged = SymState::negation_join(&then, &other).unwrap();
        assert_eq!(merged, st(&[(0, s[0].clone())], std::slice::from_ref(&q)));
        let differs = st(&[(0, s[1].clone())], &[q.clone(), p.clone()]);
        assert_eq!(SymState::negation_join(&differs, &other), None);
        // The merge index's condition: a join has the reached state's value shapes in the
        // new one's key; a different literal value rules the pair out and does not join.
        let sub_map = |a: &SymState, b: &SymState| {
            let kb = b.shape_key();
            a.shape_key().iter().all(|e| kb.contains(e))
        };
        let five = |c: &Term| {
            st(
                &[(0, s[0].clone()), (1, Term::int(5))],
                &[q.clone(), c.clone()],
            )
        };
        let (then5, other5) = (five(&p), five(&Term::not(p.clone())));
        assert!(SymState::negation_join(&then5, &other5).is_some());
        assert!(sub_map(&other5, &then5));
        let six = st(&[(0, s[0].clone()), (1, Term::int(6))], &[q, p]);
        assert!(!sub_map(&other5, &six));
        assert_eq!(SymState::negation_join(&six, &other5), None);
        // Values equal up to renaming have one shape (ALIASED_SUBSET may cover); other
        // structures do not.
        let plus = |i: usize| Term::add2(s[i].clone(), Term::int(1));
        assert_eq!(shape(&plus(0)), shape(&plus(1)));
        assert_ne!(
            shape(&plus(0)),
            shape(&Term::add2(s[0].clone(), Term::int(2)))
        );
        assert_ne!(shape(&plus(0)), shape(&s[0]));
        // A skeleton forgets the literals too: one per loop iteration's bound.
        assert_eq!(
            skeleton(&plus(0)),
            skeleton(&Term::add2(s[1].clone(), Term::int(2)))
        );
        let below = |k: i64| Term::lt(Term::int(k), Term::mul(Term::int(2), s[0].clone()));
        assert_eq!(skeleton(&below(38)), skeleton(&below(40)));
        assert_ne!(
            skeleton(&below(38)),
            skeleton(&Term::le(
                Term::int(38),
                Term::mul(Term::int(2), s[0].clone())
            ))
        );
        assert_ne!(skeleton(&plus(0)), skeleton(&s[0]));
        assert!(sub_map(
            &st(&[(0, plus(1))], &[]),
            &st(&[(0, plus(0))], &[])
        ));
    }

    #[test]
    fn unconnected_constraints_are_pruned() {
        let (_, s) = idents(3);
        let mut x = st(
            &[(0, s[0].clone())],
            &[
                Term::gt(s[0].clone(), s[1].clone()),
                Term::gt(s[1].clone(), Term::int(0)),
                Term::gt(s[2].clone(), Term::int(0)),
            ],
        );
        x.prune_unconnected();
        assert_eq!(x.constraints.len(), 2);
        assert!(!x
            .constraints
            .keys()
            .any(|c| idents_of(c).contains(s[2].as_var().unwrap())));
    }
}

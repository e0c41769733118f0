//! The predicates of a run: unindexed atoms, numbered in discovery order. Predicate i is BDD
//! variable i, so abstraction formulas of all states share one BDD vocabulary.

use crate::memo::Memo;
use crate::smt::{EngineError, Result};
use biodivine_lib_bdd::{Bdd, BddPartialValuation, BddPointer, BddVariable, BddVariableSet};
use solver_bridge::term::Term;
use std::collections::BTreeMap;
use std::fmt;

/// BDD variables reserved up front (biodivine-lib-bdd fixes the variable count of a set).
pub const MAX_PREDICATES: u16 = 4096;

/// Abstraction formulas with more cubes than this are not shown as a DNF.
pub const MAX_DNF_CUBES: u64 = 32;

/// The most predicates a BDD may depend on for its text to be an optimized DNF.
pub const MAX_OPTIMIZED_SUPPORT: usize = 16;

/// The most BDD texts [`PredicateTable::bdd_text`] (and terms, [`PredicateTable::bdd_to_term`])
/// remembers (past it, it starts afresh).
const MAX_TEXTS: usize = 4096;

/// What was computed for each BDD, at most [`MAX_TEXTS`] entries. A predicate's index never
/// changes, so what a BDD stands for does not either.
type BddMemo<V> = Memo<Bdd, V>;

pub struct PredicateTable {
    terms: Vec<Term>,
    index: BTreeMap<Term, usize>,
    vars: BddVariableSet,
    /// The text of each BDD written so far: an abstraction's text is written for its event and
    /// for its state's label, and the same abstraction recurs at many states (the optimized
    /// DNF took 12 % of a predicate-sbe run, phases_1-1).
    texts: BddMemo<String>,
    /// The term of each BDD built so far: every successor of an abstraction state instantiates
    /// the state's formula, and rebuilding it from the BDD took about a sixth of
    /// predicate-lbe's engine time on loop-lit/gsv2008. Returning the same term also lets the
    /// printer and the query cache meet shared nodes again.
    terms_of: BddMemo<Term>,
}

impl Default for PredicateTable {
    fn default() -> Self {
        PredicateTable::new()
    }
}

impl PredicateTable {
    pub fn new() -> PredicateTable {
        PredicateTable {
            terms: Vec::new(),
            index: BTreeMap::new(),
            vars: BddVariableSet::new_anonymous(MAX_PREDICATES),
            texts: Memo::new(MAX_TEXTS),
            terms_of: Memo::new(MAX_TEXTS),
        }
    }

    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn get(&self, i: usize) -> &Term {
        &self.terms[i]
    }

    /// The id of `p`, adding it if new.
    pub fn intern(&mut self, p: Term) -> Result<usize> {
        if let Some(i) = self.index.get(&p) {
            return Ok(*i);
        }
        if self.terms.len() >= MAX_PREDICATES as usize {
            return Err(EngineError::Limit(format!(
                "more than {MAX_PREDICATES} predicates"
            )));
        }
        self.terms.push(p.clone());
        self.index.insert(p, self.terms.len() - 1);
        Ok(self.terms.len() - 1)
    }

    pub fn bdd_true(&self) -> Bdd {
        self.vars.mk_true()
    }

    pub fn bdd_false(&self) -> Bdd {
        self.vars.mk_false()
    }

    pub fn literal(&self, i: usize, value: bool) -> Bdd {
        self.vars.mk_literal(BddVariable::from_index(i), value)
    }

    /// The conjunction of the literals (predicate index, value), built node by node (a
    /// conjunction of literals one `and` at a time cost a fifth of predicate-lbe's engine time
    /// on loop-lit/gsv2008, whose AllSAT enumerations return many cubes).
    pub fn cube(&self, literals: impl IntoIterator<Item = (usize, bool)>) -> Bdd {
        let values = literals
            .into_iter()
            .map(|(i, v)| (BddVariable::from_index(i), v));
        self.vars
            .mk_conjunctive_clause(&BddPartialValuation::from_values_iter(values))
    }

    /// The BDD as a term over the predicates (Shannon expansion, shared subterms).
    pub fn bdd_to_term(&self, b: &Bdd) -> Term {
        self.terms_of.get_or(b, || self.build_term(b))
    }

    /// [`PredicateTable::bdd_to_term`] without the memo.
    fn build_term(&self, b: &Bdd) -> Term {
        if b.is_true() {
            return Term::tt();
        }
        if b.is_false() {
            return Term::ff();
        }
        let mut memo: Vec<Option<Term>> = vec![None; b.size()];
        memo[0] = Some(Term::ff());
        memo[1] = Some(Term::tt());
        for p in b.pointers() {
            if p.is_terminal() {
                continue;
            }
            let get = |q: BddPointer, memo: &Vec<Option<Term>>| {
                memo[q.to_index()].clone().unwrap_or_else(Term::ff)
            };
            let hi = get(b.high_link_of(p), &memo);
            let lo = get(b.low_link_of(p), &memo);
            let v = self.terms[b.var_of(p).to_index()].clone();
            let t = match (hi.as_bool(), lo.as_bool()) {
                (Some(true), Some(false)) => v,
                (Some(false), Some(true)) => Term::not(v),
                (Some(true), _) => Term::or2(v, lo),
                (Some(false), _) => Term::and2(Term::not(v), lo),
                (_, Some(true)) => Term::or2(Term::not(v), hi),
                (_, Some(false)) => Term::and2(v, hi),
                _ => Term::ite(v, hi, lo),
            };
            memo[p.to_index()] = Some(t);
        }
        memo[b.root_pointer().to_index()]
            .clone()
            .unwrap_or_else(Term::ff)
    }

    /// The number of paths from the root to `true` (the cubes of the unoptimised DNF),
    /// saturating: a BDD of n nodes can have 2^n of them.
    pub fn path_count(b: &Bdd) -> u64 {
        let mut count = vec![0u64; b.size()];
        if b.is_true() {
            return 1;
        }
        if b.is_false() {
            return 0;
        }
        count[1] = 1;
        // `pointers()` lists children before parents.
        for p in b.pointers() {
            if p.is_terminal() {
                continue;
            }
            let (hi, lo) = (b.high_link_of(p), b.low_link_of(p));
            count[p.to_index()] = count[hi.to_index()].saturating_add(count[lo.to_index()]);
        }
        count[b.root_pointer().to_index()]
    }

    /// A readable text of the BDD: a DNF (`p1 && !p2 || p3`) when it has at most
    /// [`MAX_DNF_CUBES`] cubes, otherwise its Shannon expansion with shared subterms, whose
    /// size is linear in the BDD's (a DNF can be exponential), clipped like every formula text.
    pub fn bdd_text(&self, b: &Bdd) -> String {
        self.texts.get_or(b, || self.write_bdd(b))
    }

    /// [`PredicateTable::bdd_text`] without the memo.
    fn write_bdd(&self, b: &Bdd) -> String {
        if b.is_true() {
            return "true".into();
        }
        if b.is_false() {
            return "false".into();
        }
        if Self::path_count(b) > MAX_DNF_CUBES {
            return crate::text::clip(self.bdd_to_term(b));
        }
        // The optimized DNF (fewer, shorter cubes) restricts the BDD by each variable of its
        // support at every step: over many predicates it took 44 % of a theta-pred-bw run
        // (232 predicates), so above MAX_OPTIMIZED_SUPPORT the cubes are the BDD's paths.
        let dnf = if b.support_set().len() <= MAX_OPTIMIZED_SUPPORT {
            b.to_optimized_dnf()
        } else {
            b.to_dnf()
        };
        let cubes = dnf
            .iter()
            .map(|c| {
                c.to_values()
                    .into_iter()
                    .map(|(v, val)| (&self.terms[v.to_index()], val))
                    .collect()
            })
            .collect();
        crate::text::clip(Dnf(cubes))
    }
}

/// A DNF over predicates as SMT-LIB text: `(or (and p (not q)) r)`, a single cube or literal
/// without its connective.
struct Dnf<'a>(Vec<Vec<(&'a Term, bool)>>);

impl fmt::Display for Dnf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn wrap(
            f: &mut fmt::Formatter<'_>,
            op: &str,
            n: usize,
            mut item: impl FnMut(&mut fmt::Formatter<'_>, usize) -> fmt::Result,
        ) -> fmt::Result {
            if n != 1 {
                write!(f, "({op}")?;
            }
            for i in 0..n {
                if n != 1 {
                    f.write_str(" ")?;
                }
                item(f, i)?;
            }
            if n != 1 {
                f.write_str(")")?;
            }
            Ok(())
        }
        wrap(f, "or", self.0.len(), |f, i| {
            let cube = &self.0[i];
            wrap(f, "and", cube.len(), |f, j| match cube[j] {
                (t, true) => write!(f, "{t}"),
                (t, false) => write!(f, "(not {t})"),
            })
        })
    }
}

/// `a ⇒ b` (`a ∧ ¬b` is empty), by a depth-first walk over pairs of nodes that stops at the
/// first pair of a `1` of `a` and a `0` of `b`. `a.and_not(b).is_false()` builds the whole
/// difference first: the stop operator asks this of every candidate, most of which do not
/// cover, and building the differences was a sixth of the engine's time of predicate-sbe.
pub fn implies(a: &Bdd, b: &Bdd) -> bool {
    if a.is_false() || b.is_true() {
        return true;
    }
    let mut stack: Vec<(BddPointer, BddPointer)> = vec![(a.root_pointer(), b.root_pointer())];
    let mut seen: std::collections::HashSet<(BddPointer, BddPointer)> =
        std::collections::HashSet::with_capacity(a.size().max(b.size()));
    while let Some((l, r)) = stack.pop() {
        if l.is_zero() || r.is_one() {
            continue;
        }
        if l.is_one() && r.is_zero() {
            return false;
        }
        if !seen.insert((l, r)) {
            continue;
        }
        // Terminals' variable is past every variable: the smaller one decides.
        let (lv, rv) = (a.var_of(l), b.var_of(r));
        let v = lv.min(rv);
        let (l0, l1) = if lv == v {
            (a.low_link_of(l), a.high_link_of(l))
        } else {
            (l, l)
        };
        let (r0, r1) = if rv == v {
            (b.low_link_of(r), b.high_link_of(r))
        } else {
            (r, r)
        };
        stack.push((l1, r1));
        stack.push((l0, r0));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`implies`] agrees with `and_not(..).is_false()` on every pair of a family of BDDs
    /// over four predicates (literals, junctions, parities, constants).
    #[test]
    fn implication_agrees_with_the_difference() {
        let mut t = PredicateTable::new();
        for i in 0..4 {
            t.intern(Term::new_var(
                format!("q{i}"),
                solver_bridge::term::Sort::Bool,
            ))
            .unwrap();
        }
        let mut family = vec![t.bdd_true(), t.bdd_false()];
        for i in 0..4 {
            for v in [true, false] {
                family.push(t.literal(i, v));
            }
        }
        let n = family.len();
        for i in 0..n {
            for j in 0..n {
                let (a, b) = (family[i].clone(), family[j].clone());
                family.push(a.and(&b));
                family.push(a.or(&b.not()));
                family.push(a.xor(&b));
            }
        }
        let mut checked = 0;
        for a in family.iter().step_by(7) {
            for b in family.iter().step_by(5) {
                assert_eq!(implies(a, b), a.and_not(b).is_false(), "{a:?} => {b:?}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// The parity of n predicates has 2^(n-1) cubes: its text stays bounded.
    #[test]
    fn labels_of_large_bdds_are_bounded() {
        let mut t = PredicateTable::new();
        let mut parity = t.bdd_false();
        for i in 0..40 {
            let p = t
                .intern(Term::new_var(
                    format!("p{i}"),
                    solver_bridge::term::Sort::Bool,
                ))
                .unwrap();
            let l = t.literal(p, true);
            parity = parity.xor(&l);
        }
        assert!(PredicateTable::path_count(&parity) >= 1 << 39);
        let text = t.bdd_text(&parity);
        assert!(text.len() <= crate::text::MAX_TEXT + 4, "{}", text.len());
        // Small ones stay a DNF.
        let small = t.literal(0, true).or(&t.literal(1, false));
        assert_eq!(PredicateTable::path_count(&small), 2);
        assert_eq!(t.bdd_text(&small), "(or (not p1) p0)");
    }

    /// A DNF of few cubes over long predicates (a divergent refinement's whole interpolants)
    /// is clipped too, and a cube of one literal is written without its `and`.
    #[test]
    fn dnf_labels_over_long_predicates_are_bounded() {
        use solver_bridge::term::Sort;
        let mut t = PredicateTable::new();
        let x = Term::new_var("x", Sort::Int);
        let long =
            |k: i64| Term::or((0..500).map(|i| Term::eq(x.clone(), Term::int(k * 1000 + i))));
        let (p, q) = (t.intern(long(1)).unwrap(), t.intern(long(2)).unwrap());
        let two = t.literal(p, true).and(&t.literal(q, false));
        let text = t.bdd_text(&two);
        assert!(text.starts_with("(and (or (= x 1000)"), "{text}");
        assert!(text.ends_with('…') && text.len() <= crate::text::MAX_TEXT + 4);
        let r = t.intern(Term::new_var("r", Sort::Bool)).unwrap();
        let cubes = t
            .literal(r, true)
            .or(&t.literal(p, false).and(&t.literal(r, false)));
        assert!(
            t.bdd_text(&cubes).starts_with("(or r (not (or (= x 1000)"),
            "{}",
            t.bdd_text(&cubes)
        );
    }

    /// A cube built node by node is the conjunction of its literals, in any order.
    #[test]
    fn a_cube_is_the_conjunction_of_its_literals() {
        use solver_bridge::term::Sort;
        let mut t = PredicateTable::new();
        for i in 0..6 {
            t.intern(Term::new_var(format!("c{i}"), Sort::Bool))
                .unwrap();
        }
        let lits = [(4, true), (0, false), (5, false), (2, true)];
        let and = lits
            .iter()
            .fold(t.bdd_true(), |c, &(i, v)| c.and(&t.literal(i, v)));
        assert_eq!(t.cube(lits), and);
        assert_eq!(t.cube([]), t.bdd_true());
    }

    /// A remembered text is the one written afresh, also after the memo started afresh and
    /// after predicates were added.
    #[test]
    fn remembered_texts_are_the_written_ones() {
        use solver_bridge::term::Sort;
        let mut t = PredicateTable::new();
        let mut bdds = Vec::new();
        for i in 0..20 {
            let p = t
                .intern(Term::new_var(format!("q{i}"), Sort::Bool))
                .unwrap();
            let l = t.literal(p, i % 2 == 0);
            bdds.push(bdds.last().map_or(l.clone(), |b: &Bdd| b.or(&l)));
            for b in &bdds {
                assert_eq!(t.bdd_text(b), t.write_bdd(b));
                assert_eq!(t.bdd_to_term(b), t.build_term(b));
            }
        }
        // More distinct BDDs than the memo holds: the cubes over 13 predicates.
        let mut most = 0;
        for i in 0..MAX_TEXTS + 10 {
            let cube = (0..13).fold(t.bdd_true(), |c, v| c.and(&t.literal(v, i >> v & 1 == 1)));
            let _ = t.bdd_text(&cube);
            let _ = t.bdd_to_term(&cube);
            most = most.max(t.texts.len()).max(t.terms_of.len());
        }
        assert_eq!(most, MAX_TEXTS);
        assert!(t.texts.len() < MAX_TEXTS && t.terms_of.len() < MAX_TEXTS);
        for b in &bdds {
            assert_eq!(t.bdd_text(b), t.write_bdd(b));
            assert_eq!(t.bdd_to_term(b), t.build_term(b));
        }
    }
}

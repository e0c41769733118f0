//! Answers to repeated solver queries, without a round trip: a [`Smt`] layer that remembers
//! the answers of `check`, `model`, `all_sat` and `interpolate` by their arguments. Lazy
//! abstraction asks the same questions again and again (after a refinement it rebuilds the
//! ARG below the pivot and abstracts the same block formulas over the same predicates; BMC
//! and k-induction repeat their checks per bound), and every answer is a function of the
//! query: the formulas are closed (each call pushes and pops its own level), an answer that
//! depends on the resource limit is used only under the limit it was given under, and a
//! change of interpolation strategy clears the interpolants.
//!
//! Deterministic like the rest of the engine (no clock, and the same hits natively and in
//! the browser), so share links replay the same events. Bounded: past [`MAX_ENTRIES`]
//! answers, or when the terms it holds exceed [`MAX_NODES`] nodes, the cache starts afresh
//! (a divergent refinement's queries grow with every refinement: on a parity program the
//! cache held 14 GB after 10 minutes before this bound). Keys compare terms as DAGs
//! ([`Term::dag_eq`]): in O(1) for equal terms, which hash-consing makes one node, and at
//! worst in time linear in their size, so a hit never costs more than building the query did.

use crate::smt::{Result, Sat, Smt};
use solver_bridge::term::{DagTerm, Term};
use std::collections::HashMap;

/// Most answers kept (all kinds together).
pub const MAX_ENTRIES: usize = 20_000;

/// Most term nodes kept, over all queries and answers (each term's DAG counted apart; a node
/// takes about 100 bytes).
pub const MAX_NODES: usize = 2_000_000;

/// A query's terms as a key: hashed by the terms' structural hashes, compared as DAGs.
type Key = Vec<DagTerm>;

/// What a query asked, with its arguments (the separator between formulas and terms is part
/// of the kind, so `model([a, b], [c])` and `model([a], [b, c])` differ).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Query {
    Check(Key),
    /// [`Smt::check_preprocessed`]: the same truth, but an `unknown` of `check` must not
    /// answer it.
    CheckPreprocessed(Key),
    Model(Key, Key),
    AllSat(Key, Key, usize),
    Interpolate(Key),
}

#[derive(Clone)]
enum Answer {
    Check(Sat),
    Model(Option<Vec<Term>>),
    AllSat(Vec<Vec<bool>>),
    Interpolate(Vec<Term>),
}

pub struct CachedSmt {
    inner: Box<dyn Smt>,
    /// Each answer with the nodes of its query and answer (see [`MAX_NODES`]) and the
    /// resource limit it was given under.
    answers: HashMap<Query, (Answer, usize, Option<u64>)>,
    /// The sum of the answers' nodes.
    nodes: usize,
    /// The resource limit set through this layer (the inner one's at the start).
    limit: Option<u64>,
    hits: u64,
}

impl CachedSmt {
    pub fn new(inner: Box<dyn Smt>) -> CachedSmt {
        CachedSmt {
            limit: inner.resource_limit(),
            inner,
            answers: HashMap::new(),
            nodes: 0,
            hits: 0,
        }
    }

    /// The cached answer to `q`, or `ask`'s (remembered when it succeeds: errors and limits
    /// are not answers).
    fn answer(
        &mut self,
        q: Query,
        ask: impl FnOnce(&mut dyn Smt) -> Result<Answer>,
    ) -> Result<Answer> {
        let limit = self.limit;
        if let Some((a, _, under)) = self.answers.get(&q) {
            // `sat` and `unsat` hold under every limit; an `unknown` (and which model,
            // cubes or interpolants were found before a limit) only under its own.
            if *under == limit || matches!(a, Answer::Check(Sat::Sat | Sat::Unsat)) {
                self.hits += 1;
                return Ok(a.clone());
            }
        }
        let a = ask(self.inner.as_mut())?;
        // The answer under the other limit makes way first, so that its nodes do not count
        // towards the bound that decides whether the cache starts afresh.
        if let Some((_, old, _)) = self.answers.remove(&q) {
            self.nodes -= old;
        }
        let nodes = q.nodes() + a.nodes();
        if self.answers.len() >= MAX_ENTRIES || self.nodes + nodes > MAX_NODES {
            self.answers.clear();
            self.nodes = 0;
        }
        if nodes <= MAX_NODES {
            self.nodes += nodes;
            self.answers.insert(q, (a.clone(), nodes, limit));
        }
        Ok(a)
    }

    /// Keeps the answers `keep` accepts (and the node count in step).
    fn retain(&mut self, mut keep: impl FnMut(&Query, &Answer) -> bool) {
        self.answers.retain(|q, (a, _, _)| keep(q, a));
        self.nodes = self.answers.values().map(|(_, n, _)| n).sum();
    }

    /// [`CachedSmt::answer`] for a satisfiability query (`check`, `check_preprocessed`).
    fn sat_answer(
        &mut self,
        q: Query,
        ask: impl FnOnce(&mut dyn Smt) -> Result<Sat>,
    ) -> Result<Sat> {
        match self.answer(q, |s| ask(s).map(Answer::Check))? {
            Answer::Check(a) => Ok(a),
            _ => unreachable!("a check's answer"),
        }
    }
}

fn key(terms: &[Term]) -> Key {
    terms.iter().cloned().map(DagTerm).collect()
}

/// The nodes of `terms`, each term's DAG counted apart.
fn nodes<'a>(terms: impl IntoIterator<Item = &'a Term>) -> usize {
    terms.into_iter().map(Term::dag_size).sum()
}

impl Query {
    fn nodes(&self) -> usize {
        let of = |k: &Key| nodes(k.iter().map(|d| &d.0));
        match self {
            Query::Check(k) | Query::CheckPreprocessed(k) | Query::Interpolate(k) => of(k),
            Query::Model(a, b) | Query::AllSat(a, b, _) => of(a) + of(b),
        }
    }
}

impl Answer {
    fn nodes(&self) -> usize {
        match self {
            Answer::Check(_) => 1,
            Answer::Model(m) => m.as_deref().map_or(1, nodes),
            Answer::AllSat(cubes) => cubes.iter().map(Vec::len).sum::<usize>().max(1),
            Answer::Interpolate(ts) => nodes(ts),
        }
    }
}

impl Smt for CachedSmt {
    fn check(&mut self, formulas: &[Term]) -> Result<Sat> {
        self.sat_answer(Query::Check(key(formulas)), |s| s.check(formulas))
    }

    fn check_uncached(&mut self, formulas: &[Term]) -> Result<Sat> {
        self.inner.check_uncached(formulas)
    }

    fn check_uncached_values(
        &mut self,
        formulas: &[Term],
        terms: &[Term],
    ) -> Result<(Sat, Option<Vec<Term>>)> {
        self.inner.check_uncached_values(formulas, terms)
    }

    fn check_preprocessed(&mut self, formulas: &[Term]) -> Result<Sat> {
        self.sat_answer(Query::CheckPreprocessed(key(formulas)), |s| {
            s.check_preprocessed(formulas)
        })
    }

    fn model(&mut self, formulas: &[Term], terms: &[Term]) -> Result<Option<Vec<Term>>> {
        match self.answer(Query::Model(key(formulas), key(terms)), |s| {
            s.model(formulas, terms).map(Answer::Model)
        })? {
            Answer::Model(a) => Ok(a),
            _ => unreachable!("a model's answer"),
        }
    }

    fn all_sat(&mut self, formula: &Term, bools: &[Term], limit: usize) -> Result<Vec<Vec<bool>>> {
        let q = Query::AllSat(key(std::slice::from_ref(formula)), key(bools), limit);
        match self.answer(q, |s| s.all_sat(formula, bools, limit).map(Answer::AllSat))? {
            Answer::AllSat(a) => Ok(a),
            _ => unreachable!("an AllSAT answer"),
        }
    }

    fn interpolate(&mut self, sequence: &[Term]) -> Result<Vec<Term>> {
        match self.answer(Query::Interpolate(key(sequence)), |s| {
            s.interpolate(sequence).map(Answer::Interpolate)
        })? {
            Answer::Interpolate(a) => Ok(a),
            _ => unreachable!("interpolants"),
        }
    }

    fn queries(&self) -> u64 {
        self.inner.queries()
    }

    fn cache_hits(&self) -> u64 {
        self.hits
    }

    fn set_resource_limit(&mut self, limit: Option<u64>) -> Result<()> {
        // The answers that depend on it are kept with it (see `answer`): a check that lowers
        // the limit for one query and restores it keeps what was learnt under both.
        self.inner.set_resource_limit(limit)?;
        self.limit = limit;
        Ok(())
    }

    fn resource_limit(&self) -> Option<u64> {
        self.inner.resource_limit()
    }

    fn set_interpolation(&mut self, strategy: solver_bridge::itp::Strategy) {
        self.retain(|q, _| !matches!(q, Query::Interpolate(_)));
        self.inner.set_interpolation(strategy)
    }

    fn set_query_limit(&mut self, limit: Option<u64>) {
        self.inner.set_query_limit(limit)
    }

    fn work(&self) -> u64 {
        self.inner.work()
    }

    fn set_work_limit(&mut self, limit: Option<u64>) {
        self.inner.set_work_limit(limit)
    }

    fn reset(&mut self) -> Result<()> {
        self.inner.reset()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::EngineError;
    use solver_bridge::term::{Sort, Var};

    /// Counts the calls that reach it; `x > 0`-style answers: Sat unless the formula is
    /// the literal false.
    #[derive(Default)]
    struct Counting {
        calls: u64,
        fail: bool,
    }

    impl Smt for Counting {
        fn check(&mut self, formulas: &[Term]) -> Result<Sat> {
            self.calls += 1;
            if self.fail {
                return Err(EngineError::Limit("limit".into()));
            }
            Ok(if formulas.iter().any(|f| *f == Term::bool(false)) {
                Sat::Unsat
            } else {
                Sat::Sat
            })
        }
        fn model(&mut self, _: &[Term], _: &[Term]) -> Result<Option<Vec<Term>>> {
            self.calls += 1;
            Ok(None)
        }
        fn all_sat(&mut self, _: &Term, bools: &[Term], _: usize) -> Result<Vec<Vec<bool>>> {
            self.calls += 1;
            Ok(vec![vec![true; bools.len()]])
        }
        fn interpolate(&mut self, s: &[Term]) -> Result<Vec<Term>> {
            self.calls += 1;
            Ok(vec![Term::bool(true); s.len().saturating_sub(1)])
        }
        fn queries(&self) -> u64 {
            self.calls
        }
        fn set_resource_limit(&mut self, _: Option<u64>) -> Result<()> {
            Ok(())
        }
        fn set_interpolation(&mut self, _: solver_bridge::itp::Strategy) {}
        fn set_query_limit(&mut self, _: Option<u64>) {}
        fn work(&self) -> u64 {
            0
        }
        fn set_work_limit(&mut self, _: Option<u64>) {}
        fn reset(&mut self) -> Result<()> {
            Ok(())
        }
    }

    fn var(name: &str) -> Term {
        Term::var(Var::new(name, Sort::Int))
    }

    /// `x_n` where `x_{i+1} = x_i div x_i` (not simplified): a DAG of n+1 nodes whose tree
    /// has 2^n leaves.
    fn doubling(n: usize) -> Term {
        let mut t = var("x");
        for _ in 0..n {
            t = Term::div(t.clone(), t);
        }
        t
    }

    #[test]
    fn a_repeated_query_is_answered_without_the_solver() {
        let mut c = CachedSmt::new(Box::new(Counting::default()));
        let f = Term::gt(var("x"), Term::int(0));
        assert_eq!(c.check(std::slice::from_ref(&f)).unwrap(), Sat::Sat);
        assert_eq!(c.check(std::slice::from_ref(&f)).unwrap(), Sat::Sat);
        assert_eq!(c.queries(), 1);
        assert_eq!(c.cache_hits(), 1);
        // Other arguments, other answers.
        assert_eq!(
            c.check(&[f.clone(), Term::bool(false)]).unwrap(),
            Sat::Unsat
        );
        assert_eq!(c.queries(), 2);
        // The same terms asked as another kind of query go to the solver.
        c.interpolate(&[f.clone(), Term::bool(false)]).unwrap();
        c.all_sat(&f, &[], 4).unwrap();
        c.all_sat(&f, &[], 5).unwrap();
        c.model(std::slice::from_ref(&f), &[]).unwrap();
        c.model(&[], std::slice::from_ref(&f)).unwrap();
        assert_eq!(c.queries(), 7);
        // Under another resource limit the decided checks still answer, the rest (an
        // unknown, a model, cubes and interpolants depend on it) is asked again.
        c.set_resource_limit(Some(10)).unwrap();
        c.check(std::slice::from_ref(&f)).unwrap();
        assert_eq!(c.queries(), 7);
        c.model(&[], std::slice::from_ref(&f)).unwrap();
        c.all_sat(&f, &[], 4).unwrap();
        assert_eq!(c.queries(), 9);
        c.model(&[], std::slice::from_ref(&f)).unwrap();
        assert_eq!(c.queries(), 9);
        // Back under the first limit, its answers hold again: a caller that lowers the
        // limit for one query and restores it (the certificate check) loses nothing.
        c.set_resource_limit(None).unwrap();
        c.interpolate(&[f.clone(), Term::bool(false)]).unwrap();
        c.all_sat(&f, &[], 5).unwrap();
        assert_eq!(c.queries(), 9);
        // An answer asked again replaces the one of the other limit, nodes counted once.
        let nodes = c.nodes;
        c.set_resource_limit(Some(10)).unwrap();
        c.all_sat(&f, &[], 5).unwrap();
        assert_eq!((c.queries(), c.nodes), (10, nodes));
    }

    #[test]
    fn errors_are_not_remembered() {
        let mut c = CachedSmt::new(Box::new(Counting {
            fail: true,
            ..Counting::default()
        }));
        let f = Term::bool(true);
        assert!(c.check(std::slice::from_ref(&f)).is_err());
        assert!(c.check(&[f]).is_err());
        assert_eq!(c.queries(), 2);
    }

    #[test]
    fn terms_built_apart_hit_and_compare_as_dags() {
        let mut c = CachedSmt::new(Box::new(Counting::default()));
        // Trees of 2^200 leaves: compared as trees, equality would never end (hash-consing
        // makes the two one node; the cache does not rely on it).
        let (a, b) = (doubling(200), doubling(200));
        assert!(a.ptr_eq(&b));
        assert!(a.dag_eq(&b));
        assert!(!a.dag_eq(&doubling(199)));
        let f = |t: Term| Term::gt(t, Term::int(0));
        c.check(&[f(a)]).unwrap();
        c.check(&[f(b)]).unwrap();
        assert_eq!((c.queries(), c.cache_hits()), (1, 1));
    }

    /// The terms kept stay under MAX_NODES: a query over it is not remembered, and one that
    /// would pass it starts the cache afresh.
    #[test]
    fn the_terms_kept_are_bounded() {
        let mut c = CachedSmt::new(Box::new(Counting::default()));
        let f = |t: Term| Term::gt(t, Term::int(0));
        let huge = f(doubling(MAX_NODES));
        c.check(std::slice::from_ref(&huge)).unwrap();
        c.check(std::slice::from_ref(&huge)).unwrap();
        assert_eq!((c.queries(), c.cache_hits(), c.nodes), (2, 0, 0));
        // Two queries of 60 % each: the second one clears the first.
        let (a, b) = (
            doubling(MAX_NODES * 6 / 10),
            doubling(MAX_NODES * 6 / 10 + 1),
        );
        c.check(&[f(a.clone())]).unwrap();
        c.check(&[f(a.clone())]).unwrap();
        assert_eq!((c.queries(), c.cache_hits()), (3, 1));
        c.check(&[f(b.clone())]).unwrap();
        assert!(c.nodes <= MAX_NODES);
        c.check(&[f(b)]).unwrap();
        c.check(&[f(a)]).unwrap();
        assert_eq!((c.queries(), c.cache_hits()), (5, 2));
    }
}

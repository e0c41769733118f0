//! Deciding path constraints cheaply: the satisfiability query of a set of constraints, the
//! values tried before the solver (simple values, guesses from the constraints' own
//! constants, the last values found), the split into independent parts, and the canonical key
//! the check's memo uses (symbolic execution with CEGAR, the constraints CPA's satisfiability
//! check).

use crate::domains::symbolic::{idents_in, Idents};
use crate::formula::{Encoder, Encoding};
use crate::ir::IntType;
use solver_bridge::term::{AddrHash, Literal, Op, Sort, StructHash, Term, TermKind, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The satisfiability query of constraints: their conjunction and the range of every
/// identifier they mention (the Int encoding; bit-vectors are in range by their width).
pub fn sat_query(enc: &Encoder, idents: &Idents, constraints: &[Term]) -> Vec<Term> {
    let mut out: Vec<Term> = constraints.to_vec();
    let ids: BTreeSet<Var> = constraints
        .iter()
        .flat_map(|c| idents_in(c).to_vec())
        .collect();
    for id in ids {
        if let Some(ty) = idents.ty(&id) {
            let r = enc.range(&id.term(), ty);
            if !r.is_true() {
                out.push(r);
            }
        }
    }
    out
}

/// Whether simple values (every free constant 0, or every one 1) satisfy every formula of
/// `query`, found by substituting them (the term constructors fold literals): then the query
/// is satisfiable, without the solver. Path conditions usually are (`x > 0`, `x != y`), and
/// Z3 can fail on some that are: `x^32 != 2^63 - 1` over 64 bits came back `unknown` at the
/// resource limit after 3 s (`cpa fuzz`, seed 1, program 2109).
pub fn satisfied_by_simple_values(query: &[Term]) -> Option<i128> {
    satisfied_by_guesses(query, &[0, 1])
}

/// Most values [`guesses`] proposes.
pub const MAX_GUESSES: usize = 12;

/// Values worth trying for every free constant of `constraints` at once, after 0 and 1: each
/// integer literal of them and its two neighbours, the smallest constraints' first, at most
/// [`MAX_GUESSES`]. A loop that counts a variable against an input adds one bound
/// per iteration (`38 <= n`, then `n < 39`, then the assertion's `74 = 2 * n`), which neither
/// 0 nor 1 satisfies but the bound's own constant does: each such check was a solver call,
/// three of the four per iteration on sum01-2 (the model guessing of symbolic execution
/// tools, here from the query's own constants).
pub fn guesses(constraints: &[Term]) -> Vec<i128> {
    // The smallest constraints first: the bounds (`38 <= n`), whose constants are the values
    // to try, before an assertion's wrap-around terms with `2^31` and `2^32`.
    let mut by_size: Vec<&Term> = constraints.iter().collect();
    by_size.sort_by_key(|c| c.size());
    let mut out: Vec<i128> = Vec::new();
    for c in by_size {
        for value in c.literals_in_structural_order() {
            for g in [value, value.saturating_sub(1), value.saturating_add(1)] {
                if g != 0 && g != 1 && !out.contains(&g) {
                    if out.len() == MAX_GUESSES {
                        return out;
                    }
                    out.push(g);
                }
            }
        }
    }
    out
}

/// `value` as a literal of `v`'s sort: a bit-vector takes it modulo `2^width`, a Boolean
/// `value != 0`.
pub fn literal_of(v: &Var, value: i128) -> Term {
    value_of(v, value).term()
}

/// The value of a literal as [`literal_of`] takes it (a bit-vector unsigned), if it fits.
pub fn number_of(t: &Term) -> Option<i128> {
    match t.literal()? {
        Literal::Bool(b) => Some(i128::from(b)),
        Literal::Int(n) => Some(n),
        Literal::Bv(u, _) => i128::try_from(u).ok(),
    }
}

/// [`literal_of`] as a value ([`Term::eval`]).
fn value_of(v: &Var, value: i128) -> Literal {
    match v.sort {
        Sort::Bool => Literal::Bool(value != 0),
        Sort::Int => Literal::Int(value),
        Sort::BitVec(w) => Literal::bv_wrapping(value, w),
    }
}

/// Whether every formula of `query` is true when each free constant `v` has the value
/// `value(v)` (see [`literal_of`]). Exact: such values are a model. Evaluated without
/// building terms ([`Term::eval`]); a formula evaluation cannot decide (an integer past
/// `i128`, a division by zero) is decided by substitution (the term constructors fold
/// literals).
pub fn satisfied_by(query: &[Term], value: &dyn Fn(&Var) -> Option<i128>) -> bool {
    query.iter().all(
        |f| match f.eval(&|v: &Var| value(v).map(|x| value_of(v, x))) {
            Some(Literal::Bool(b)) => b,
            _ => {
                let map: BTreeMap<Var, Term> = f
                    .free_vars()
                    .into_iter()
                    .filter_map(|v| value(&v).map(|x| (v.clone(), literal_of(&v, x))))
                    .collect();
                f.substitute(&map).is_true()
            }
        },
    )
}

/// The first of `values` that, given to every free constant at once (see [`literal_of`]),
/// satisfies every formula of `query` ([`satisfied_by`]).
pub fn satisfied_by_guesses(query: &[Term], values: &[i128]) -> Option<i128> {
    values
        .iter()
        .copied()
        .find(|&value| satisfied_by(query, &|_| Some(value)))
}

/// `constraints` split into independent parts: groups that share no identifier (connected
/// through shared identifiers), each in the order of `constraints`, the groups in the order
/// of their first constraint. The conjunction is satisfiable iff every part is (their free
/// constants are disjoint), so each part can be checked, and its answer cached, on its own
/// (the constraint independence of symbolic execution tools such as KLEE).
pub fn independent_parts(constraints: &[Term]) -> Vec<Vec<Term>> {
    let n = constraints.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut owner: BTreeMap<Var, usize> = BTreeMap::new();
    for (i, c) in constraints.iter().enumerate() {
        for id in idents_in(c).iter() {
            match owner.get(id) {
                Some(&j) => {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    // The smaller index stays the root: groups keep their first constraint's
                    // position.
                    parent[a.max(b)] = a.min(b);
                }
                None => {
                    owner.insert(id.clone(), i);
                }
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<Term>> = BTreeMap::new();
    for (i, c) in constraints.iter().enumerate() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(c.clone());
    }
    groups.into_values().collect()
}

/// One token of a [`CanonicalKey`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Token {
    /// A leaf that is not an identifier: a literal or another variable.
    Leaf(Term),
    /// An identifier, numbered by its first occurrence, with its sort and, where the encoding
    /// gives identifiers ranges (Int), its type.
    Ident(u32, Sort, Option<IntType>),
    /// An application and its number of arguments (they follow).
    App(Op, u64),
    /// A quantified term, whole.
    Whole(Term),
    /// A node written before (a shared subterm), by its number.
    Again(u32),
}

/// The canonical form of a part of a satisfiability check: its constraints written out in
/// preorder, every node once (a node met again is referred to), identifiers numbered in the
/// order they occur. Two parts have the same key exactly when one is the other with its
/// identifiers renamed one to one, keeping sorts and types: then their queries, ranges
/// included, are equally satisfiable. [`crate::domains::symbolic::cpa::SymbolicCpa::check`] remembers answers
/// by it (the query sent keeps the identifiers' own names: Z3's search depends on them).
/// Symbolic execution asks the same questions about fresh identifiers each time it explores
/// a path again (after every refinement; `cpa fuzz`, seed 1, program 2109: a path condition
/// `x^32 = 2^63 - 1` over 64 bits, 2-3 s of bit-blasting per query, asked again for every
/// refinement until the run stopped after 60 s without a verdict). Written out without
/// building terms: renaming the part to canonical names was 7 % of the engine's time on half.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CanonicalKey(Vec<Token>);

pub fn canonical_key(enc: &Encoder, idents: &Idents, constraints: &[Term]) -> CanonicalKey {
    let with_types = enc.encoding == Encoding::Int;
    let mut tokens = Vec::new();
    let mut nodes: HashMap<Term, u32, AddrHash> = HashMap::default();
    let mut ids: HashMap<Var, u32, StructHash> = HashMap::default();
    let mut stack: Vec<&Term> = constraints.iter().rev().collect();
    while let Some(t) = stack.pop() {
        if let Some(&n) = nodes.get(t) {
            tokens.push(Token::Again(n));
            continue;
        }
        let n = nodes.len() as u32;
        nodes.insert(t.clone(), n);
        tokens.push(match t.kind() {
            TermKind::Var(v) if crate::domains::symbolic::ident_index(v).is_some() => {
                let next = ids.len() as u32;
                let i = *ids.entry(v.clone()).or_insert(next);
                Token::Ident(i, v.sort, idents.ty(v).filter(|_| with_types))
            }
            TermKind::App(op, args) => {
                stack.extend(args.iter().rev());
                Token::App(op.clone(), args.len() as u64)
            }
            TermKind::Quant(..) => Token::Whole(t.clone()),
            _ => Token::Leaf(t.clone()),
        });
    }
    CanonicalKey(tokens)
}

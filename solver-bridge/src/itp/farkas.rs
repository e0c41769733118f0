//! Farkas interpolants for sequences of conjunctions of linear integer constraints.
//!
//! Each `phi_i` is read as constraints `e_j <= 0` / `e_j = 0` (see [`super::linear`]). A Farkas
//! certificate is a vector of multipliers, non-negative for inequalities, with
//! `sum_j l_j e_j = c` a positive constant: the variables cancel and `0 < c <= 0` is absurd.
//! Then `tau_k` is `sum_{j in phi_1..phi_k} l_j e_j <= 0`:
//! - `phi_1..phi_k` imply it (a non-negative combination of their constraints);
//! - `tau_(k-1) /\ phi_k` implies it (it is `tau_(k-1)`'s sum plus `phi_k`'s part);
//! - a variable local to `phi_1..phi_k` cancels within the prefix, and one that occurs only
//!   later has coefficient zero there, so only shared variables remain;
//! - `tau_0` is `0 <= 0` (true) and `tau_n` is `c <= 0` (false).
//!
//! The multipliers come from the exact simplex in [`super::simplex`]. If the constraints are
//! satisfiable over the rationals there is no certificate, and the strategy reports that it
//! does not apply (the integer problem may still be unsatisfiable).

use super::linear::{constraints_of, le_zero_term, Constraint, LinExpr, Rel};
use super::simplex::feasible_point;
use super::ItpError;
use crate::term::{Op, Sort, Term, Var};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Pivot budget of the simplex (a count, not time).
const MAX_PIVOTS: usize = 20_000;

/// A conjunct splits into at most this many cases (else `NotApplicable`).
const MAX_CASES: usize = 64;

/// The case search stops (`NotApplicable`) after this many simplex runs.
const MAX_NODES: usize = 2_000;

/// Tableau cells all simplex runs of one interpolation may update together (a count, not
/// time): with up to `MAX_NODES` runs of up to `MAX_PIVOTS` pivots over a tableau of any
/// size, the other bounds alone let one interpolation run for minutes (found on
/// loop-acceleration/diamond_1-2.c: one step of predicate-lbe spent over 100 s in here; with
/// this budget each call ends within about 2 s there). The largest successful call seen over
/// the verdict programs and examples with every predicate preset updated 849,051 cells.
const MAX_WORK: u64 = 2_000_000;

/// `tau_0 .. tau_n` for `formulas`, or `NotApplicable`.
///
/// Without `split`, every conjunct must be a linear atom. With it, disjunctions (LBE's merged branches, `a != b` read as `a < b \/ a > b`, an atom over an
/// Int `ite`) are split into cases, each a sequence of conjunctions with its own Farkas
/// sequence `tau^c`. For a case `c`, let `c|i` be its choices in `phi_1..phi_i`. The
/// combination `tau_i = OR_p AND_{c : c|i = p} tau^c_i` is a valid sequence: `phi_1..phi_i` in
/// case `p` imply every `tau^c_i` whose prefix is `p`, and from such a conjunction, `phi_(i+1)`
/// in its choice `d` implies every `tau^c_(i+1)` with prefix `p.d`, the disjunct of `tau_(i+1)`
/// for `p.d` (a disjunction on the A side becomes a disjunction, on the B side a conjunction).
///
/// Cases are searched depth first, choice by choice in formula order; a prefix of choices
/// whose constraints are already infeasible ends the search below it: its certificate uses
/// only `phi_1..phi_j`, so its `tau^c_i` is false for `i > j` and the completions need no case
/// of their own (their disjuncts would all be false).
///
/// `cells` grows by the tableau cells the simplex runs updated (also when no sequence is
/// found), the work the caller charges to its budget.
pub fn farkas_sequence(
    formulas: &[Term],
    split: bool,
    cells: &mut u64,
) -> Result<Vec<Term>, ItpError> {
    // Choice points: (formula index, the cases of one conjunct).
    let mut points: Vec<(usize, Vec<Term>)> = Vec::new();
    for (i, f) in formulas.iter().enumerate() {
        for c in f.conjuncts() {
            let options = if split {
                cases(&c).ok_or_else(too_many)?
            } else {
                vec![c]
            };
            points.push((i, options));
        }
    }
    let n = formulas.len();
    let mut search = Search {
        points: &points,
        n,
        nodes: 0,
        work: MAX_WORK,
        found: Vec::new(),
    };
    let searched = search.dfs(0, &mut Vec::new(), &mut Vec::new());
    *cells += MAX_WORK - search.work;
    searched?;
    if let [(_, taus)] = search.found.as_slice() {
        return Ok(taus.clone());
    }
    let mut taus = Vec::with_capacity(n + 1);
    for i in 0..=n {
        // The choices made in phi_1..phi_i: the points of formulas before i.
        let width = points.iter().take_while(|(f, _)| *f < i).count();
        let mut groups: BTreeMap<&[usize], Vec<Term>> = BTreeMap::new();
        for (c, t) in &search.found {
            if c.len() >= width {
                groups.entry(&c[..width]).or_default().push(t[i].clone());
            }
            // Shorter: a case infeasible before phi_i, whose tau_i is false.
        }
        taus.push(Term::or(
            groups.into_values().map(|ts| Term::and(dedup(ts))),
        ));
    }
    taus[0] = Term::tt();
    taus[n] = Term::ff();
    Ok(taus)
}

struct Search<'a> {
    points: &'a [(usize, Vec<Term>)],
    n: usize,
    nodes: usize,
    /// What is left of `MAX_WORK`.
    work: u64,
    /// Cases (choices made) with their sequences.
    found: Vec<(Vec<usize>, Vec<Term>)>,
}

impl Search<'_> {
    fn dfs(
        &mut self,
        depth: usize,
        choices: &mut Vec<usize>,
        cons: &mut Vec<(usize, Constraint)>,
    ) -> Result<(), ItpError> {
        if depth == self.points.len() {
            let lambda = certificate(cons, &mut self.work)?;
            self.found
                .push((choices.clone(), sequence(cons, &lambda, self.n)));
            return Ok(());
        }
        let (formula, options) = &self.points[depth];
        for (k, opt) in options.iter().enumerate() {
            let before = cons.len();
            let cs = constraints_of(opt).map_err(ItpError::NotApplicable)?;
            cons.extend(cs.into_iter().map(|c| (*formula, c)));
            choices.push(k);
            // Only a real choice can make a prefix infeasible worth cutting at; single
            // options are checked with the next choice (or at the end).
            let cut = if options.len() > 1 || depth + 1 == self.points.len() {
                self.nodes += 1;
                if self.nodes > MAX_NODES {
                    return Err(ItpError::NotApplicable(format!(
                        "more than {MAX_NODES} disjunctive cases searched"
                    )));
                }
                match certificate(cons, &mut self.work) {
                    Ok(l) => Some(l),
                    // The shared budget is used up: no further case can be searched.
                    Err(e) if self.work == 0 => return Err(e),
                    Err(_) => None,
                }
            } else {
                None
            };
            match cut {
                Some(lambda) => self
                    .found
                    .push((choices.clone(), sequence(cons, &lambda, self.n))),
                None => self.dfs(depth + 1, choices, cons)?,
            }
            choices.pop();
            cons.truncate(before);
        }
        Ok(())
    }
}

fn too_many() -> ItpError {
    ItpError::NotApplicable(format!("more than {MAX_CASES} disjunctive cases"))
}

fn dedup(ts: Vec<Term>) -> Vec<Term> {
    let mut seen = std::collections::BTreeSet::new();
    ts.into_iter().filter(|t| seen.insert(t.clone())).collect()
}

/// The cases of `f` as conjunctions: `or`, `a != b` over Int and Int-sorted `ite` are split
/// (negations pushed inwards first), everything else is kept as an atom (and rejected later if
/// it is not linear). `None`: more than `MAX_CASES`.
fn alternatives(f: &Term) -> Option<Vec<Term>> {
    let mut out: Vec<Vec<Term>> = vec![Vec::new()];
    for c in f.conjuncts() {
        let split = cases(&c)?;
        if split.is_empty() {
            // An empty disjunction is false: one case, false.
            return Some(vec![Term::ff()]);
        }
        if out.len() * split.len() > MAX_CASES {
            return None;
        }
        out = out
            .into_iter()
            .flat_map(|prefix| {
                split.iter().map(move |s| {
                    let mut p = prefix.clone();
                    p.push(s.clone());
                    p
                })
            })
            .collect();
    }
    Some(out.into_iter().map(Term::and).collect())
}

/// The cases of one conjunct.
fn cases(c: &Term) -> Option<Vec<Term>> {
    // a != b: a < b, or a > b.
    let differ = |v: &mut Vec<Term>, a: &Term, b: &Term| -> Option<()> {
        v.extend(alternatives(&Term::lt(a.clone(), b.clone()))?);
        v.extend(alternatives(&Term::gt(a.clone(), b.clone()))?);
        (v.len() <= MAX_CASES).then_some(())
    };
    let mut v = Vec::new();
    match c.as_app() {
        Some((Op::Or, args)) => {
            for a in args {
                v.extend(alternatives(a)?);
                if v.len() > MAX_CASES {
                    return None;
                }
            }
        }
        Some((Op::And, _)) => v = alternatives(c)?,
        Some((Op::Not, [inner])) => match inner.as_app() {
            Some((Op::Not | Op::And | Op::Or, _)) => v = alternatives(&negate(inner))?,
            Some((Op::Eq, [a, b])) if a.sort() == Sort::Int => differ(&mut v, a, b)?,
            _ => return lift_ite(c),
        },
        Some((Op::Distinct, [a, b])) if a.sort() == Sort::Int => differ(&mut v, a, b)?,
        _ => return lift_ite(c),
    }
    Some(v)
}

/// An atom with an Int-sorted `ite(k, t, e)` inside is `(k /\ atom[t]) \/ (not k /\ atom[e])`.
fn lift_ite(c: &Term) -> Option<Vec<Term>> {
    let Some(ite) = int_ite(c) else {
        return Some(vec![c.clone()]);
    };
    let (k, t, e) = (&ite.args()[0], &ite.args()[1], &ite.args()[2]);
    let mut v = alternatives(&Term::and2(k.clone(), replace(c, &ite, t)))?;
    v.extend(alternatives(&Term::and2(negate(k), replace(c, &ite, e)))?);
    (v.len() <= MAX_CASES).then_some(v)
}

/// An `ite` of sort Int inside the atom `t` (the outermost one found first).
fn int_ite(t: &Term) -> Option<Term> {
    let (op, args) = t.as_app()?;
    if *op == Op::Ite && t.sort() == Sort::Int {
        return Some(t.clone());
    }
    args.iter().find_map(int_ite)
}

/// `t` with every occurrence of `what` replaced by `with`.
fn replace(t: &Term, what: &Term, with: &Term) -> Term {
    if t == what {
        return with.clone();
    }
    match t.as_app() {
        Some((op, args)) => Term::apply(
            op.clone(),
            args.iter().map(|a| replace(a, what, with)).collect(),
        ),
        None => t.clone(),
    }
}

/// `not t` with the negation pushed through `and`, `or` and `not`.
fn negate(t: &Term) -> Term {
    match t.as_app() {
        Some((Op::Not, [a])) => a.clone(),
        Some((Op::And, args)) => Term::or(args.iter().map(negate)),
        Some((Op::Or, args)) => Term::and(args.iter().map(negate)),
        _ => Term::not(t.clone()),
    }
}

/// `tau_0..tau_n` from a certificate `lambda` of `cons` (constraints tagged with the index of
/// their formula, in formula order): `tau_k` sums the constraints of `phi_1..phi_k`.
fn sequence(cons: &[(usize, Constraint)], lambda: &[BigRational], n: usize) -> Vec<Term> {
    let mut taus = Vec::with_capacity(n + 1);
    taus.push(Term::tt());
    // Integer multipliers: scale the rational ones by the lcm of their denominators.
    let denom_lcm = lambda
        .iter()
        .fold(BigInt::one(), |acc, l| acc.lcm(l.denom()));
    let scaled: Vec<BigInt> = lambda
        .iter()
        .map(|l| (l * BigRational::from_integer(denom_lcm.clone())).to_integer())
        .collect();
    let mut sum = LinExpr::default();
    let mut next = 0;
    for k in 1..n {
        while next < cons.len() && cons[next].0 < k {
            add_scaled(&mut sum, &cons[next].1.expr, &scaled[next]);
            next += 1;
        }
        taus.push(le_zero_term(&sum));
    }
    taus.push(Term::ff());
    taus
}

fn add_scaled(sum: &mut LinExpr, e: &LinExpr, f: &BigInt) {
    if f.is_zero() {
        return;
    }
    for (v, c) in &e.coeffs {
        let x = sum.coeffs.entry(v.clone()).or_insert_with(BigInt::zero);
        *x += c * f;
        if x.is_zero() {
            sum.coeffs.remove(v);
        }
    }
    sum.constant += &e.constant * f;
}

/// Multipliers (one per constraint; equations may get negative ones) whose combination is a
/// positive constant, or `NotApplicable` when the constraints are rationally satisfiable.
fn certificate(cons: &[(usize, Constraint)], work: &mut u64) -> Result<Vec<BigRational>, ItpError> {
    // Columns: one per inequality, two (plus and minus) per equation.
    let mut columns: Vec<(usize, BigInt)> = Vec::new(); // (constraint index, sign)
    for (j, (_, c)) in cons.iter().enumerate() {
        columns.push((j, BigInt::one()));
        if c.rel == Rel::Eq {
            columns.push((j, -BigInt::one()));
        }
    }
    let vars: Vec<Var> = {
        let mut vs: BTreeMap<Var, ()> = BTreeMap::new();
        for (_, c) in cons {
            for v in c.expr.coeffs.keys() {
                vs.insert(v.clone(), ());
            }
        }
        vs.into_keys().collect()
    };
    // Rows: one per variable (its combined coefficient is 0), and the constant row (= 1).
    let mut a: Vec<Vec<BigInt>> = vec![vec![BigInt::zero(); columns.len()]; vars.len() + 1];
    for (col, (j, sign)) in columns.iter().enumerate() {
        let e = &cons[*j].1.expr;
        for (row, v) in vars.iter().enumerate() {
            if let Some(c) = e.coeffs.get(v) {
                a[row][col] = c * sign;
            }
        }
        a[vars.len()][col] = &e.constant * sign;
    }
    let mut b = vec![BigInt::zero(); vars.len() + 1];
    b[vars.len()] = BigInt::one();
    let y = feasible_point(&a, &b, columns.len(), MAX_PIVOTS, work)
        .map_err(ItpError::NotApplicable)?
        .ok_or_else(|| {
            ItpError::NotApplicable(
                "no Farkas certificate: the constraints are satisfiable over the rationals".into(),
            )
        })?;
    let mut lambda = vec![BigRational::zero(); cons.len()];
    for ((j, sign), yv) in columns.iter().zip(y) {
        lambda[*j] += BigRational::from_integer(sign.clone()) * yv;
    }
    Ok(lambda)
}

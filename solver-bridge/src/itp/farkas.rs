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
use crate::term::{Term, Var};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Pivot budget of the simplex (a count, not time).
const MAX_PIVOTS: usize = 20_000;

/// `tau_0 .. tau_n` for `formulas`, or `NotApplicable`.
pub fn farkas_sequence(formulas: &[Term]) -> Result<Vec<Term>, ItpError> {
    // Constraints with the index of the formula they come from.
    let mut cons: Vec<(usize, Constraint)> = Vec::new();
    for (i, f) in formulas.iter().enumerate() {
        let cs = constraints_of(f).map_err(ItpError::NotApplicable)?;
        cons.extend(cs.into_iter().map(|c| (i, c)));
    }
    let lambda = certificate(&cons)?;
    let n = formulas.len();
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
    Ok(taus)
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
fn certificate(cons: &[(usize, Constraint)]) -> Result<Vec<BigRational>, ItpError> {
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
    let y = feasible_point(&a, &b, columns.len(), MAX_PIVOTS)
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

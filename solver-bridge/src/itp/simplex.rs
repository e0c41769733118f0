//! Exact rational Phase-I simplex: finds `y >= 0` with `A y = b` (`b >= 0`), or proves there is
//! none. Used to find Farkas multipliers without a solver query, so Farkas interpolants are the
//! same whichever Z3 (native or browser) is attached.
//!
//! Dense tableau over `BigRational`, Bland's rule (smallest index enters and leaves), which
//! cannot cycle; so the search always ends, and the answer is exact.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// A solution of `A y = b, y >= 0`, or `None` if there is none. `a` is row-major (`rows x
/// cols`), `b` has one entry per row and must be non-negative. `max_pivots` bounds the
/// pivots and `work` the tableau cells the pivots update, the caller's budget shared by
/// several calls (exceeding either gives `Err`): a pivot costs rows times columns, so a
/// pivot count alone does not bound the time.
pub fn feasible_point(
    a: &[Vec<BigInt>],
    b: &[BigInt],
    cols: usize,
    max_pivots: usize,
    work: &mut u64,
) -> Result<Option<Vec<BigRational>>, String> {
    let rows = a.len();
    if b.len() != rows || a.iter().any(|r| r.len() != cols) {
        return Err("simplex: dimension mismatch".into());
    }
    if b.iter().any(|x| x.is_negative()) {
        return Err("simplex: negative right-hand side".into());
    }
    // Columns: the `cols` variables, then one artificial variable per row, then the rhs.
    let width = cols + rows + 1;
    let rhs = width - 1;
    let mut t: Vec<Vec<BigRational>> = (0..rows)
        .map(|i| {
            let mut row = vec![BigRational::zero(); width];
            for (j, x) in a[i].iter().enumerate() {
                row[j] = BigRational::from_integer(x.clone());
            }
            row[cols + i] = BigRational::from_integer(1.into());
            row[rhs] = BigRational::from_integer(b[i].clone());
            row
        })
        .collect();
    let mut basis: Vec<usize> = (0..rows).map(|i| cols + i).collect();
    // Phase-I objective: minimise the sum of the artificials. Reduced costs of the original
    // columns start as minus the column sums; artificial columns start at zero.
    let mut cost = vec![BigRational::zero(); width];
    for row in &t {
        for j in 0..cols {
            cost[j] -= &row[j];
        }
        cost[rhs] -= &row[rhs];
    }
    for _ in 0..max_pivots {
        // Bland: the first column with a negative reduced cost enters.
        let Some(enter) = (0..cols + rows).find(|&j| cost[j].is_negative()) else {
            // Optimal: feasible iff the artificial sum (-cost[rhs]) is zero.
            if !cost[rhs].is_zero() {
                return Ok(None);
            }
            let mut y = vec![BigRational::zero(); cols];
            for (i, &bv) in basis.iter().enumerate() {
                if bv < cols {
                    y[bv] = t[i][rhs].clone();
                }
            }
            return Ok(Some(y));
        };
        // Ratio test; ties go to the smallest basic variable index (Bland).
        let mut leave: Option<(usize, BigRational)> = None;
        for i in 0..rows {
            if t[i][enter].is_positive() {
                let ratio = &t[i][rhs] / &t[i][enter];
                let better = match &leave {
                    None => true,
                    Some((li, lr)) => ratio < *lr || (ratio == *lr && basis[i] < basis[*li]),
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        let Some((pr, _)) = leave else {
            // Cannot happen in Phase I (the objective is bounded below by zero).
            return Err("simplex: unbounded Phase-I problem".into());
        };
        let cells = pivot(&mut t, &mut cost, pr, enter);
        // An exhausted budget is left at zero, so callers sharing it can tell.
        let Some(left) = work.checked_sub(cells) else {
            *work = 0;
            return Err("simplex: work budget exhausted".to_string());
        };
        *work = left;
        basis[pr] = enter;
    }
    Err(format!("simplex: more than {max_pivots} pivots"))
}

/// One pivot; returns the number of cells it updated.
fn pivot(t: &mut [Vec<BigRational>], cost: &mut [BigRational], pr: usize, pc: usize) -> u64 {
    let mut cells = 0u64;
    let p = t[pr][pc].clone();
    for x in t[pr].iter_mut() {
        *x /= &p;
    }
    let prow = t[pr].clone();
    for (i, row) in t.iter_mut().enumerate() {
        if i == pr || row[pc].is_zero() {
            continue;
        }
        let f = row[pc].clone();
        for (x, y) in row.iter_mut().zip(prow.iter()) {
            if !y.is_zero() {
                *x -= &f * y;
                cells += 1;
            }
        }
    }
    if !cost[pc].is_zero() {
        let f = cost[pc].clone();
        for (x, y) in cost.iter_mut().zip(prow.iter()) {
            if !y.is_zero() {
                *x -= &f * y;
                cells += 1;
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<BigInt> {
        v.iter().map(|&x| BigInt::from(x)).collect()
    }

    #[test]
    fn finds_a_point_and_checks_it() {
        // y0 + y1 = 2, y1 - y2 = 1
        let a = vec![ints(&[1, 1, 0]), ints(&[0, 1, -1])];
        let b = ints(&[2, 1]);
        let y = feasible_point(&a, &b, 3, 100, &mut u64::MAX.clone())
            .unwrap()
            .unwrap();
        for (row, bi) in a.iter().zip(&b) {
            let s: BigRational = row
                .iter()
                .zip(&y)
                .map(|(x, yi)| BigRational::from_integer(x.clone()) * yi)
                .sum();
            assert_eq!(s, BigRational::from_integer(bi.clone()));
        }
        assert!(y.iter().all(|v| !v.is_negative()));
    }

    #[test]
    fn the_work_budget_ends_a_search_that_would_succeed() {
        let a = vec![ints(&[1, 1, 0]), ints(&[0, 1, -1])];
        let b = ints(&[2, 1]);
        let mut work = 1;
        assert!(feasible_point(&a, &b, 3, 100, &mut work)
            .unwrap_err()
            .contains("work budget"));
        assert_eq!(work, 0, "an exhausted budget is left at zero");
        let mut work = 1_000;
        assert!(feasible_point(&a, &b, 3, 100, &mut work).unwrap().is_some());
        assert!(work < 1_000, "the cells updated are charged");
    }

    #[test]
    fn detects_infeasibility() {
        // y0 + y1 = 1 and y0 + y1 = 2
        let a = vec![ints(&[1, 1]), ints(&[1, 1])];
        assert_eq!(
            feasible_point(&a, &ints(&[1, 2]), 2, 100, &mut u64::MAX.clone()).unwrap(),
            None
        );
        // -y0 = 1
        assert_eq!(
            feasible_point(&[ints(&[-1])], &ints(&[1]), 1, 100, &mut u64::MAX.clone()).unwrap(),
            None
        );
    }
}

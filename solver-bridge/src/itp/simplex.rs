//! Exact rational Phase-I simplex: finds `y >= 0` with `A y = b` (`b >= 0`), or proves there is
//! none. Used to find Farkas multipliers without a solver query, so Farkas interpolants are the
//! same whichever Z3 (native or browser) is attached.
//!
//! Dense tableau over `BigRational`, Bland's rule (smallest index enters and leaves), which
//! cannot cycle; so the search always ends, and the answer is exact.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// A number of the tableau. Operations answer `Err(Overflow)` where the representation cannot
/// hold the exact result; the search is then repeated over `BigRational`.
trait Field: Clone + PartialEq {
    fn zero() -> Self;
    fn one() -> Self;
    fn from_int(x: &BigInt) -> Result<Self, Overflow>;
    fn sign(&self) -> Ordering;
    /// `self -= f * y`.
    fn sub_mul(&mut self, f: &Self, y: &Self) -> Result<(), Overflow>;
    /// `self /= p` for a nonzero `p`.
    fn div_by(&mut self, p: &Self) -> Result<(), Overflow>;
    fn less(&self, other: &Self) -> bool;
    fn to_big(&self) -> BigRational;
}

/// An exact result did not fit the representation.
struct Overflow;

impl Field for BigRational {
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    fn from_int(x: &BigInt) -> Result<Self, Overflow> {
        Ok(BigRational::from_integer(x.clone()))
    }
    fn sign(&self) -> Ordering {
        self.numer().sign().cmp(&num_bigint::Sign::NoSign)
    }
    fn sub_mul(&mut self, f: &Self, y: &Self) -> Result<(), Overflow> {
        *self -= f * y;
        Ok(())
    }
    fn div_by(&mut self, p: &Self) -> Result<(), Overflow> {
        *self /= p;
        Ok(())
    }
    fn less(&self, other: &Self) -> bool {
        self < other
    }
    fn to_big(&self) -> BigRational {
        self.clone()
    }
}

/// The operations of [`Field`] that [`SmallQ`] and [`MidQ`] (fields `n`, `d` and an exact
/// `mul`) share.
macro_rules! machine_rational {
    () => {
        fn zero() -> Self {
            Self { n: 0, d: 1 }
        }
        fn one() -> Self {
            Self { n: 1, d: 1 }
        }
        fn sign(&self) -> Ordering {
            self.n.cmp(&0)
        }
        fn div_by(&mut self, p: &Self) -> Result<(), Overflow> {
            let inv = if p.n < 0 {
                Self { n: -p.d, d: -p.n }
            } else {
                Self { n: p.d, d: p.n }
            };
            *self = self.mul(&inv)?;
            Ok(())
        }
        fn to_big(&self) -> BigRational {
            BigRational::new(BigInt::from(self.n), BigInt::from(self.d))
        }
    };
}

/// A rational `n / d` in lowest terms with `d > 0`, in machine integers: the tableaux of
/// Farkas certificates hold small numbers, and `BigRational`'s normalisation after every
/// operation cost 90 % of a run (`examples/bmc-deep-bug.c` with `predicate-lbe`: 18.8 s of
/// 20.9 s). 64-bit parts, 128-bit intermediate results; every operation is exact or reports
/// `Overflow`, so the search takes the same pivots and gives the same answer as over
/// `BigRational`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct SmallQ {
    n: i64,
    d: i64,
}

/// `v` as a part of a [`SmallQ`] (`i64::MIN` is refused, so that negating never overflows).
fn part(v: i128) -> Result<i64, Overflow> {
    match i64::try_from(v) {
        Ok(x) if x != i64::MIN => Ok(x),
        _ => Err(Overflow),
    }
}

impl SmallQ {
    /// `n / d` in lowest terms; `d > 0`.
    fn reduce(n: i128, d: i128) -> Result<SmallQ, Overflow> {
        debug_assert!(d > 0);
        if let (Ok(n), Ok(d)) = (part(n), part(d)) {
            let g = n.gcd(&d);
            return Ok(SmallQ { n: n / g, d: d / g });
        }
        // Callers pass |n| < 2^127 (a difference of two products of 64-bit parts), so the
        // gcd does not overflow; it is positive since d > 0.
        let g = n.gcd(&d);
        Ok(SmallQ {
            n: part(n / g)?,
            d: part(d / g)?,
        })
    }

    fn mul(&self, o: &SmallQ) -> Result<SmallQ, Overflow> {
        if self.d == 1 && o.d == 1 {
            let n = part(i128::from(self.n) * i128::from(o.n))?;
            return Ok(SmallQ { n, d: 1 });
        }
        // Cross-cancelled factors of numbers in lowest terms: the result is in lowest terms.
        let g1 = self.n.gcd(&o.d).max(1);
        let g2 = o.n.gcd(&self.d).max(1);
        let n = part(i128::from(self.n / g1) * i128::from(o.n / g2))?;
        let d = part(i128::from(self.d / g2) * i128::from(o.d / g1))?;
        Ok(SmallQ { n, d })
    }
}

impl Field for SmallQ {
    machine_rational!();
    fn from_int(x: &BigInt) -> Result<Self, Overflow> {
        Ok(SmallQ {
            n: part(x.to_i128().ok_or(Overflow)?)?,
            d: 1,
        })
    }
    fn sub_mul(&mut self, f: &Self, y: &Self) -> Result<(), Overflow> {
        let p = f.mul(y)?;
        if p.n == 0 {
            return Ok(());
        }
        if self.d == 1 && p.d == 1 {
            self.n = part(i128::from(self.n) - i128::from(p.n))?;
            return Ok(());
        }
        let g = self.d.gcd(&p.d);
        let (a, b) = (self.d / g, p.d / g);
        let n = i128::from(self.n) * i128::from(b) - i128::from(p.n) * i128::from(a);
        let d = i128::from(a) * i128::from(p.d);
        *self = SmallQ::reduce(n, d)?;
        Ok(())
    }
    fn less(&self, other: &Self) -> bool {
        // Products of 64-bit parts fit 128 bits.
        i128::from(self.n) * i128::from(other.d) < i128::from(other.n) * i128::from(self.d)
    }
}

/// A rational `n / d` in lowest terms with `d > 0`, in 128-bit parts with checked operations:
/// the second try when a [`SmallQ`] overflows. The wrap-around ranges of the `int` encoding
/// put constants like 2^32 into the tableau, whose products outgrow 64 bits but rarely 128;
/// over `BigRational` such a search cost 40 % of a `predicate-lbe` run on gsv2008 (its
/// normalisation after every operation: `gcd` and shifts). Exact or `Overflow`, as
/// [`SmallQ`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct MidQ {
    n: i128,
    d: i128,
}

/// `v` if it is a part of a [`MidQ`] (`i128::MIN` is refused, so that negating never
/// overflows).
fn mid_part(v: Option<i128>) -> Result<i128, Overflow> {
    match v {
        Some(x) if x != i128::MIN => Ok(x),
        _ => Err(Overflow),
    }
}

impl MidQ {
    /// `n / d` in lowest terms; `d > 0`.
    fn reduce(n: i128, d: i128) -> MidQ {
        let g = n.gcd(&d);
        MidQ { n: n / g, d: d / g }
    }

    fn mul(&self, o: &MidQ) -> Result<MidQ, Overflow> {
        // Cross-cancelled factors of numbers in lowest terms: the result is in lowest terms.
        let g1 = self.n.gcd(&o.d).max(1);
        let g2 = o.n.gcd(&self.d).max(1);
        let n = mid_part((self.n / g1).checked_mul(o.n / g2))?;
        let d = mid_part((self.d / g2).checked_mul(o.d / g1))?;
        Ok(MidQ { n, d })
    }
}

impl Field for MidQ {
    machine_rational!();
    fn from_int(x: &BigInt) -> Result<Self, Overflow> {
        Ok(MidQ {
            n: mid_part(x.to_i128())?,
            d: 1,
        })
    }
    fn sub_mul(&mut self, f: &Self, y: &Self) -> Result<(), Overflow> {
        let p = f.mul(y)?;
        if p.n == 0 {
            return Ok(());
        }
        let g = self.d.gcd(&p.d);
        let (a, b) = (self.d / g, p.d / g);
        let left = mid_part(self.n.checked_mul(b))?;
        let right = mid_part(p.n.checked_mul(a))?;
        let n = mid_part(left.checked_sub(right))?;
        let d = mid_part(a.checked_mul(p.d))?;
        *self = MidQ::reduce(n, d);
        Ok(())
    }
    fn less(&self, other: &Self) -> bool {
        match (self.n.checked_mul(other.d), other.n.checked_mul(self.d)) {
            (Some(l), Some(r)) => l < r,
            _ => self.to_big() < other.to_big(),
        }
    }
}

/// A solution of `A y = b, y >= 0`, or `None` if there is none. `a` is row-major (`rows x
/// cols`), `b` has one entry per row and must be non-negative. `max_pivots` bounds the
/// pivots and `work` the tableau cells the pivots update, the caller's budget shared by
/// several calls (exceeding either gives `Err`): a pivot costs rows times columns, so a
/// pivot count alone does not bound the time.
///
/// The search runs over machine rationals first and, if a number outgrows them, again over
/// 128-bit rationals and then `BigRational`, each from the start (with the budget as it
/// was): all take the same pivots, so the answer and the work charged do not depend on
/// which one finished.
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
    let before = *work;
    if let Ok(r) = solve::<SmallQ>(a, b, cols, max_pivots, work) {
        return r;
    }
    *work = before;
    if let Ok(r) = solve::<MidQ>(a, b, cols, max_pivots, work) {
        return r;
    }
    *work = before;
    match solve::<BigRational>(a, b, cols, max_pivots, work) {
        Ok(r) => r,
        Err(Overflow) => unreachable!("BigRational does not overflow"),
    }
}

type Answer = Result<Option<Vec<BigRational>>, String>;

fn solve<F: Field>(
    a: &[Vec<BigInt>],
    b: &[BigInt],
    cols: usize,
    max_pivots: usize,
    work: &mut u64,
) -> Result<Answer, Overflow> {
    let rows = a.len();
    // Columns: the `cols` variables, then one artificial variable per row, then the rhs.
    let width = cols + rows + 1;
    let rhs = width - 1;
    let mut t: Vec<Vec<F>> = Vec::with_capacity(rows);
    for i in 0..rows {
        let mut row = vec![F::zero(); width];
        for (j, x) in a[i].iter().enumerate() {
            row[j] = F::from_int(x)?;
        }
        row[cols + i] = F::one();
        row[rhs] = F::from_int(&b[i])?;
        t.push(row);
    }
    let mut basis: Vec<usize> = (0..rows).map(|i| cols + i).collect();
    // Phase-I objective: minimise the sum of the artificials. Reduced costs of the original
    // columns start as minus the column sums; artificial columns start at zero.
    let mut cost = vec![F::zero(); width];
    let one = F::one();
    for row in &t {
        for j in 0..cols {
            cost[j].sub_mul(&one, &row[j])?;
        }
        cost[rhs].sub_mul(&one, &row[rhs])?;
    }
    for _ in 0..max_pivots {
        // Bland: the first column with a negative reduced cost enters.
        let Some(enter) = (0..cols + rows).find(|&j| cost[j].sign() == Ordering::Less) else {
            // Optimal: feasible iff the artificial sum (-cost[rhs]) is zero.
            if cost[rhs].sign() != Ordering::Equal {
                return Ok(Ok(None));
            }
            let mut y = vec![<BigRational as Zero>::zero(); cols];
            for (i, &bv) in basis.iter().enumerate() {
                if bv < cols {
                    y[bv] = t[i][rhs].to_big();
                }
            }
            return Ok(Ok(Some(y)));
        };
        // Ratio test; ties go to the smallest basic variable index (Bland).
        let mut leave: Option<(usize, F)> = None;
        for i in 0..rows {
            if t[i][enter].sign() == Ordering::Greater {
                let mut ratio = t[i][rhs].clone();
                ratio.div_by(&t[i][enter])?;
                let better = match &leave {
                    None => true,
                    Some((li, lr)) => ratio.less(lr) || (ratio == *lr && basis[i] < basis[*li]),
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        let Some((pr, _)) = leave else {
            // Cannot happen in Phase I (the objective is bounded below by zero).
            return Ok(Err("simplex: unbounded Phase-I problem".into()));
        };
        let cells = pivot(&mut t, &mut cost, pr, enter)?;
        // An exhausted budget is left at zero, so callers sharing it can tell.
        let Some(left) = work.checked_sub(cells) else {
            *work = 0;
            return Ok(Err("simplex: work budget exhausted".to_string()));
        };
        *work = left;
        basis[pr] = enter;
    }
    Ok(Err(format!("simplex: more than {max_pivots} pivots")))
}

/// One pivot; returns the number of cells it updated.
fn pivot<F: Field>(
    t: &mut [Vec<F>],
    cost: &mut [F],
    pr: usize,
    pc: usize,
) -> Result<u64, Overflow> {
    let mut cells = 0u64;
    let p = t[pr][pc].clone();
    for x in t[pr].iter_mut() {
        x.div_by(&p)?;
    }
    let prow = t[pr].clone();
    for (i, row) in t.iter_mut().enumerate() {
        if i == pr || row[pc].sign() == Ordering::Equal {
            continue;
        }
        let f = row[pc].clone();
        for (x, y) in row.iter_mut().zip(prow.iter()) {
            if y.sign() != Ordering::Equal {
                x.sub_mul(&f, y)?;
                cells += 1;
            }
        }
    }
    if cost[pc].sign() != Ordering::Equal {
        let f = cost[pc].clone();
        for (x, y) in cost.iter_mut().zip(prow.iter()) {
            if y.sign() != Ordering::Equal {
                x.sub_mul(&f, y)?;
                cells += 1;
            }
        }
    }
    Ok(cells)
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

    /// A deterministic generator of small and large entries.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
        fn entry(&mut self, big: bool) -> BigInt {
            let r = self.next();
            let v = (r % 11) as i64 - 5;
            if big && r.is_multiple_of(7) {
                // Products of these outgrow 64 bits.
                BigInt::from(v) * BigInt::from(3_000_000_019i64) * BigInt::from(1_000_003i64)
            } else {
                BigInt::from(v)
            }
        }
    }

    #[test]
    fn machine_rationals_take_the_same_pivots_as_bigrational() {
        let mut g = Lcg(7);
        let (mut small, mut fell_back, mut mid) = (0, 0, 0);
        for case in 0..600 {
            let rows = 1 + (g.next() % 8) as usize;
            let cols = 1 + (g.next() % 12) as usize;
            let big = case % 3 == 0;
            let a: Vec<Vec<BigInt>> = (0..rows)
                .map(|_| (0..cols).map(|_| g.entry(big)).collect())
                .collect();
            let b: Vec<BigInt> = (0..rows).map(|_| g.entry(big).abs()).collect();
            let budget = 40 + g.next() % 4000;
            let mut w_big = budget;
            let want = solve::<BigRational>(&a, &b, cols, 200, &mut w_big)
                .ok()
                .unwrap();
            let mut w_small = budget;
            match solve::<SmallQ>(&a, &b, cols, 200, &mut w_small) {
                Ok(got) => {
                    small += 1;
                    assert_eq!(got, want, "case {case}");
                    assert_eq!(w_small, w_big, "case {case}: the work charged");
                }
                Err(Overflow) => fell_back += 1,
            }
            let mut w_mid = budget;
            if let Ok(got) = solve::<MidQ>(&a, &b, cols, 200, &mut w_mid) {
                mid += 1;
                assert_eq!(got, want, "case {case}: 128-bit rationals");
                assert_eq!(w_mid, w_big, "case {case}: the work charged (128 bits)");
            }
            // The entry point answers as BigRational does, whichever finished.
            let mut w = budget;
            assert_eq!(
                feasible_point(&a, &b, cols, 200, &mut w),
                want,
                "case {case}"
            );
            assert_eq!(w, w_big, "case {case}");
        }
        assert!(
            small > 400 && fell_back > 10 && mid > small,
            "{small} in machine rationals, {fell_back} fell back, {mid} in 128-bit rationals"
        );
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

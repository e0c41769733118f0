//! Exact, syntactic quantifier elimination steps run before Z3's `(apply qe)`.
//!
//! The C encodings define auxiliary variables functionally: an assignment gives `x@2 = t`,
//! and the `int` encoding of wrap-around and of division by a constant writes
//! `e = M*q + r /\ 0 <= r <= M-1` with fresh `q`, `r`. When such variables are projected away
//! and nothing else mentions them, their conjuncts are valid under the quantifier and can be
//! dropped. Z3 4.8's `qe` gets lost in exactly these divisibility constraints (on
//! `exists q r y2. 2*y1 = 4294967296*q + r /\ 0 <= r <= 4294967295 /\ y2 = r` it ran for
//! minutes, ignoring the rlimit), so they never reach it.
//!
//! Rules, for a conjunction `C` and variables `L` to eliminate (each keeps the formula
//! equivalent to the original under `exists L`):
//! - one point, unused: `exists v. v = t /\ R` is `R` when `v` occurs neither in `t` nor in `R`;
//! - Euclidean division: `exists q r. e + a*q + b*r = 0 /\ lo <= r <= hi /\ R` is `R` when
//!   `|b| = 1`, `hi - lo + 1 >= |a|`, `e` is an integer expression, and `q`, `r` occur nowhere
//!   else (for every value of `e` one of `|a|` consecutive values of `r` solves it).

use super::linear::{constraints_of, Constraint, Rel};
use crate::term::{Op, Sort, Term, Var};
use num_bigint::BigInt;
use num_traits::{One, Signed};
use std::collections::{BTreeMap, BTreeSet};

/// The conjunction `body` with the conjuncts that only define eliminated variables dropped.
pub fn presolve(body: &Term, keep: &BTreeSet<Var>) -> Term {
    let mut parts = body.conjuncts();
    if parts.len() < 2 {
        return body.clone();
    }
    let mut vars: Vec<BTreeSet<Var>> = parts.iter().map(|c| c.free_vars()).collect();
    loop {
        let mut count: BTreeMap<&Var, usize> = BTreeMap::new();
        for vs in &vars {
            for v in vs.iter().filter(|v| !keep.contains(*v)) {
                *count.entry(v).or_default() += 1;
            }
        }
        let once = |v: &Var| !keep.contains(v) && count.get(v) == Some(&1);
        let drop: Vec<usize> = match (0..parts.len()).find(|&i| unused_definition(&parts[i], &once))
        {
            Some(i) => vec![i],
            None => match euclid(&parts, &vars, keep, &count) {
                Some(d) => d,
                None => break,
            },
        };
        for i in drop.into_iter().rev() {
            parts.remove(i);
            vars.remove(i);
        }
    }
    Term::and(parts)
}

/// `v = t` (either side) where `v` is eliminated, occurs in no other conjunct and not in `t`.
fn unused_definition(c: &Term, once: &dyn Fn(&Var) -> bool) -> bool {
    let Some((Op::Eq, [a, b])) = c.as_app() else {
        return false;
    };
    let defines = |x: &Term, t: &Term| {
        x.as_var()
            .is_some_and(|v| once(v) && !t.free_vars().contains(v))
    };
    defines(a, b) || defines(b, a)
}

/// The indices of an equation `e + a*q + b*r = 0` and of the bounds on `r` that together are
/// valid under `exists q r` (see the module documentation), if any.
fn euclid(
    parts: &[Term],
    vars: &[BTreeSet<Var>],
    keep: &BTreeSet<Var>,
    count: &BTreeMap<&Var, usize>,
) -> Option<Vec<usize>> {
    let local = |v: &Var| v.sort == Sort::Int && !keep.contains(v);
    for (i, part) in parts.iter().enumerate() {
        let Some(Constraint { expr, rel: Rel::Eq }) = single(part) else {
            continue;
        };
        let quotients = expr
            .coeffs
            .iter()
            .filter(|(v, a)| local(v) && a.abs() > BigInt::one() && count.get(v) == Some(&1));
        for (q, a) in quotients {
            let remainders = expr
                .coeffs
                .iter()
                .filter(|(r, b)| *r != q && local(r) && b.abs() == BigInt::one());
            for (r, _) in remainders {
                let bounds: Vec<usize> = (0..parts.len())
                    .filter(|&j| j != i && vars[j].len() == 1 && vars[j].contains(r))
                    .collect();
                if count.get(r) != Some(&(bounds.len() + 1)) {
                    continue;
                }
                let (mut lo, mut hi): (Option<BigInt>, Option<BigInt>) = (None, None);
                let mut all_bounds = true;
                for &j in &bounds {
                    match single(&parts[j]) {
                        // c*r + k <= 0 with c = 1 (r <= -k) or c = -1 (r >= k), after tightening.
                        Some(Constraint {
                            expr: b,
                            rel: Rel::Le,
                        }) if b.coeffs.len() == 1 => {
                            let c = &b.coeffs[r];
                            if c.is_one() {
                                let h = -b.constant.clone();
                                hi = Some(hi.map_or(h.clone(), |x| x.min(h)));
                            } else if *c == -BigInt::one() {
                                let l = b.constant.clone();
                                lo = Some(lo.map_or(l.clone(), |x| x.max(l)));
                            } else {
                                all_bounds = false;
                            }
                        }
                        _ => all_bounds = false,
                    }
                }
                if let (true, Some(lo), Some(hi)) = (all_bounds, lo, hi) {
                    if hi - lo + 1 >= a.abs() {
                        let mut drop = bounds;
                        drop.push(i);
                        drop.sort_unstable();
                        return Some(drop);
                    }
                }
            }
        }
    }
    None
}

/// The one linear constraint a conjunct denotes, if it is one.
fn single(c: &Term) -> Option<Constraint> {
    let mut cs = constraints_of(c).ok()?;
    (cs.len() == 1).then(|| cs.remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(name: &str) -> Term {
        Term::new_var(name, Sort::Int)
    }

    fn keep(names: &[&str]) -> BTreeSet<Var> {
        names.iter().map(|n| Var::new(n, Sort::Int)).collect()
    }

    /// `2*y1 = 4294967296*q + r /\ 0 <= r <= 4294967295 /\ y2 = r` (unsigned `y *= 2`).
    fn wrap(y1: &Term, q: &Term, r: &Term, y2: &Term) -> Vec<Term> {
        vec![
            Term::eq(
                Term::mul(Term::int(2), y1.clone()),
                Term::add2(Term::mul(Term::int(4294967296u64), q.clone()), r.clone()),
            ),
            Term::ge(r.clone(), Term::int(0)),
            Term::le(r.clone(), Term::int(4294967295u64)),
            Term::eq(y2.clone(), r.clone()),
        ]
    }

    #[test]
    fn drops_a_wrap_around_definition_nobody_reads() {
        let (x1, x2, y1, q, r, y2) = (
            int("x1"),
            int("x2"),
            int("y1"),
            int("q"),
            int("r"),
            int("y2"),
        );
        let mut parts = vec![
            Term::lt(x1.clone(), Term::int(6)),
            Term::eq(x2.clone(), Term::add2(x1.clone(), Term::int(1))),
        ];
        parts.extend(wrap(&y1, &q, &r, &y2));
        parts.push(Term::eq(x2.clone(), Term::int(6)));
        let out = presolve(&Term::and(parts.clone()), &keep(&["x1", "y1"]));
        // The x part stays for Z3 (x2 is read twice); the y part is gone.
        assert_eq!(
            out,
            Term::and(vec![parts[0].clone(), parts[1].clone(), parts[6].clone()])
        );
    }

    #[test]
    fn keeps_definitions_that_are_read_or_kept() {
        let (y1, q, r, y2) = (int("y1"), int("q"), int("r"), int("y2"));
        let mut parts = wrap(&y1, &q, &r, &y2);
        parts.push(Term::eq(y2.clone(), Term::int(6)));
        let body = Term::and(parts.clone());
        // y2 is read: nothing may go.
        assert_eq!(presolve(&body, &keep(&["y1"])), body);
        // r is kept (shared with a later formula): only the quotient would go, which is
        // not a valid step on its own.
        let body = Term::and(wrap(&y1, &q, &r, &y2));
        let out = presolve(&body, &keep(&["y1", "r"]));
        assert_eq!(out.conjuncts().len(), 3);
    }

    #[test]
    fn a_narrow_remainder_range_is_not_valid() {
        // 2*y1 + 2 = 4*q + r /\ 0 <= r <= 1 has no solution for even y1: it must stay.
        let (y1, q, r) = (int("y1"), int("q"), int("r"));
        let body = Term::and(vec![
            Term::eq(
                Term::add2(Term::mul(Term::int(2), y1.clone()), Term::int(2)),
                Term::add2(Term::mul(Term::int(4), q.clone()), r.clone()),
            ),
            Term::ge(r.clone(), Term::int(0)),
            Term::le(r.clone(), Term::int(1)),
        ]);
        assert_eq!(presolve(&body, &keep(&["y1"])), body);
    }
}

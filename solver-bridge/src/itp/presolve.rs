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
//!   else (for every value of `e` one of `|a|` consecutive values of `r` solves it);
//! - bounds only: `exists v. lo <= v <= hi /\ R` is `R` when `lo <= hi` and `v` occurs nowhere
//!   else (the range constraints of a nondeterministic value nobody reads);
//! - disjunctions: `exists L. (D1 \/ D2) /\ R` is `exists L. ((exists V. D1) \/ (exists V. D2))
//!   /\ R` for the variables `V` of `L` that occur in no other conjunct, so each disjunct is
//!   presolved on its own with `V` to eliminate. (Large-block encoding makes a loop body one
//!   disjunction with the havocs of every branch inside.)

use super::linear::{constraints_of, Constraint, Rel};
use crate::term::{Op, Sort, Term, Var};
use num_bigint::BigInt;
use num_traits::{One, Signed};
use std::collections::{BTreeMap, BTreeSet};

/// The conjunction `body` with the conjuncts that only define eliminated variables dropped.
pub fn presolve(body: &Term, keep: &BTreeSet<Var>) -> Term {
    let mut parts = body.conjuncts();
    let mut vars: Vec<BTreeSet<Var>> = parts.iter().map(|c| c.free_vars()).collect();
    descend(&mut parts, &mut vars, keep);
    loop {
        let count = occurrences(&vars, keep);
        let once = |v: &Var| !keep.contains(v) && count.get(v) == Some(&1);
        let drop: Vec<usize> = match (0..parts.len()).find(|&i| unused_definition(&parts[i], &once))
        {
            Some(i) => vec![i],
            None => match euclid(&parts, &vars, keep, &count)
                .or_else(|| bounds_only(&parts, &vars, &count))
            {
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

/// For each eliminated variable, the number of conjuncts it occurs in.
fn occurrences<'a>(vars: &'a [BTreeSet<Var>], keep: &BTreeSet<Var>) -> BTreeMap<&'a Var, usize> {
    let mut count: BTreeMap<&Var, usize> = BTreeMap::new();
    for vs in vars {
        for v in vs.iter().filter(|v| !keep.contains(*v)) {
            *count.entry(v).or_default() += 1;
        }
    }
    count
}

/// The disjunction rule: presolves every disjunct of a disjunctive conjunct with the variables
/// only it mentions to eliminate.
fn descend(parts: &mut [Term], vars: &mut [BTreeSet<Var>], keep: &BTreeSet<Var>) {
    let count = occurrences(vars, keep);
    let mut updates = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if !matches!(part.as_app(), Some((Op::Or, _))) {
            continue;
        }
        let inner_keep: BTreeSet<Var> = vars[i]
            .iter()
            .filter(|v| keep.contains(*v) || count.get(*v) != Some(&1))
            .cloned()
            .collect();
        if inner_keep.len() == vars[i].len() {
            continue;
        }
        let out = Term::or(part.disjuncts().iter().map(|d| presolve(d, &inner_keep)));
        if out != *part {
            updates.push((i, out));
        }
    }
    for (i, out) in updates {
        vars[i] = out.free_vars();
        parts[i] = out;
    }
}

/// The indices of the conjuncts of a variable that occurs only in constant bounds
/// `lo <= v <= hi` with `lo <= hi` (see the module documentation), if there is one.
/// `count` is [`occurrences`]: it has the eliminated variables only.
fn bounds_only(
    parts: &[Term],
    vars: &[BTreeSet<Var>],
    count: &BTreeMap<&Var, usize>,
) -> Option<Vec<usize>> {
    for v in count.keys().filter(|v| v.sort == Sort::Int) {
        let at: Vec<usize> = (0..parts.len()).filter(|&j| vars[j].contains(*v)).collect();
        if at.iter().any(|&j| vars[j].len() != 1) {
            continue;
        }
        if let Some((lo, hi)) = unary_bounds(parts, &at, v) {
            if lo.zip(hi).is_none_or(|(lo, hi)| lo <= hi) {
                return Some(at);
            }
        }
    }
    None
}

/// The bounds `lo <= v <= hi` that the conjuncts `at` (each a linear constraint over `v` alone)
/// state together, or `None` if one of them is something else.
#[allow(clippy::type_complexity)]
fn unary_bounds(parts: &[Term], at: &[usize], v: &Var) -> Option<(Option<BigInt>, Option<BigInt>)> {
    let (mut lo, mut hi): (Option<BigInt>, Option<BigInt>) = (None, None);
    for &j in at {
        let Constraint { expr: b, rel } = single(&parts[j])?;
        if b.coeffs.len() != 1 {
            return None;
        }
        // c*v + k <= 0 (or = 0) with c = 1 (v <= -k) or c = -1 (v >= k), after tightening.
        let c = b.coeffs.get(v)?;
        let (upper, lower) = if c.is_one() {
            (Some(-b.constant.clone()), None)
        } else if *c == -BigInt::one() {
            (None, Some(b.constant.clone()))
        } else {
            return None;
        };
        let (upper, lower) = match rel {
            Rel::Le => (upper, lower),
            // An equation bounds both ways.
            Rel::Eq => {
                let k = upper.clone().or(lower.clone())?;
                (Some(k.clone()), Some(k))
            }
        };
        if let Some(h) = upper {
            hi = Some(hi.map_or(h.clone(), |x| x.min(h)));
        }
        if let Some(l) = lower {
            lo = Some(lo.map_or(l.clone(), |x| x.max(l)));
        }
    }
    Some((lo, hi))
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
                if let Some((Some(lo), Some(hi))) = unary_bounds(parts, &bounds, r) {
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

    fn range(v: &Term, lo: i64, hi: i64) -> Vec<Term> {
        vec![
            Term::ge(v.clone(), Term::int(lo)),
            Term::le(v.clone(), Term::int(hi)),
        ]
    }

    #[test]
    fn drops_the_range_of_a_value_nobody_reads() {
        let (x, h) = (int("x"), int("h"));
        let mut parts = range(&h, -128, 127);
        parts.push(Term::lt(x.clone(), Term::int(6)));
        let out = presolve(&Term::and(parts.clone()), &keep(&["x"]));
        assert_eq!(out, parts[2]);
        // An empty range is false under the quantifier: it stays.
        let mut parts = range(&h, 5, 4);
        parts.push(Term::lt(x.clone(), Term::int(6)));
        let body = Term::and(parts);
        assert_eq!(presolve(&body, &keep(&["x"])), body);
    }

    #[test]
    fn presolves_each_disjunct_with_the_variables_only_it_mentions() {
        // (h1 in range /\ x2 = x1 + 1 \/ h2 in range /\ x2 = x1) /\ x2 < h3 /\ h3 = 7:
        // h1 and h2 go inside the disjuncts; h3 is read by two conjuncts and stays.
        let (x1, x2, h1, h2, h3) = (int("x1"), int("x2"), int("h1"), int("h2"), int("h3"));
        let step = Term::eq(x2.clone(), Term::add2(x1.clone(), Term::int(1)));
        let stay = Term::eq(x2.clone(), x1.clone());
        let mut d1 = range(&h1, 0, 255);
        d1.push(step.clone());
        let mut d2 = range(&h2, 0, 255);
        d2.push(stay.clone());
        let rest = [
            Term::lt(x2.clone(), h3.clone()),
            Term::eq(h3.clone(), Term::int(7)),
        ];
        let mut parts = vec![Term::or([Term::and(d1), Term::and(d2)])];
        parts.extend(rest.iter().cloned());
        let out = presolve(&Term::and(parts), &keep(&["x1"]));
        let mut expected = vec![Term::or([step, stay])];
        expected.extend(rest.iter().cloned());
        assert_eq!(out, Term::and(expected));
    }

    #[test]
    fn a_variable_shared_by_two_disjunctive_conjuncts_stays() {
        // (h >= 0 \/ x = 1) /\ (h <= -1 \/ x = 2) is x = 1 \/ x = 2 under exists h, not true:
        // h occurs in two conjuncts, so neither disjunction may drop it.
        let (x, h) = (int("x"), int("h"));
        let body = Term::and(vec![
            Term::or([
                Term::ge(h.clone(), Term::int(0)),
                Term::eq(x.clone(), Term::int(1)),
            ]),
            Term::or([
                Term::le(h.clone(), Term::int(-1)),
                Term::eq(x.clone(), Term::int(2)),
            ]),
        ]);
        assert_eq!(presolve(&body, &keep(&["x"])), body);
    }
}

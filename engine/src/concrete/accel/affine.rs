//! Affine forms over iteration counters, and the atoms (`a < 0`, `a ≤ 0`, `a = 0`, `a ≠ 0`) that
//! say when a loop body takes the same path again.
//!
//! A counter (a [`Param`]) counts iterations of one accelerated loop from 0, the iteration the
//! recorded path was taken in. Every value of a re-executed path is an affine form in the
//! counters with exact integer coefficients; arithmetic that would overflow `i128` gives up
//! (`None`) instead of wrapping. The base point, where every counter is 0, is the recorded
//! concrete execution, so a form's constant is its value there.

use crate::ir::BinOp;
use std::fmt;

/// An iteration counter.
pub type Param = u32;

/// `c + Σ coeff·param` (terms sorted by parameter, no zero coefficient).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aff {
    pub c: i128,
    terms: Vec<(Param, i128)>,
}

impl Aff {
    pub fn constant(c: i128) -> Aff {
        Aff {
            c,
            terms: Vec::new(),
        }
    }

    /// `k · p`.
    pub fn param(p: Param, k: i128) -> Aff {
        let terms = if k == 0 { Vec::new() } else { vec![(p, k)] };
        Aff { c: 0, terms }
    }

    /// The value when the form does not depend on any counter.
    pub fn as_const(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.c)
    }

    pub fn coeff(&self, p: Param) -> i128 {
        self.terms
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(0, |(_, k)| *k)
    }

    pub fn mentions(&self, p: Param) -> bool {
        self.coeff(p) != 0
    }

    /// The form without the term of `p`.
    pub fn without(&self, p: Param) -> Aff {
        Aff {
            c: self.c,
            terms: self
                .terms
                .iter()
                .filter(|(q, _)| *q != p)
                .copied()
                .collect(),
        }
    }

    pub fn add(&self, o: &Aff) -> Option<Aff> {
        let mut terms = Vec::with_capacity(self.terms.len() + o.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < o.terms.len() {
            let a = self.terms.get(i);
            let b = o.terms.get(j);
            match (a, b) {
                (Some(&(p, x)), Some(&(q, y))) if p == q => {
                    let s = x.checked_add(y)?;
                    if s != 0 {
                        terms.push((p, s));
                    }
                    i += 1;
                    j += 1;
                }
                (Some(&(p, x)), Some(&(q, _))) if p < q => {
                    terms.push((p, x));
                    i += 1;
                }
                (Some(&(p, x)), None) => {
                    terms.push((p, x));
                    i += 1;
                }
                (_, Some(&(q, y))) => {
                    terms.push((q, y));
                    j += 1;
                }
                (None, None) => unreachable!(),
            }
        }
        Some(Aff {
            c: self.c.checked_add(o.c)?,
            terms,
        })
    }

    pub fn scale(&self, k: i128) -> Option<Aff> {
        if k == 0 {
            return Some(Aff::constant(0));
        }
        let terms = self
            .terms
            .iter()
            .map(|(p, x)| x.checked_mul(k).map(|y| (*p, y)))
            .collect::<Option<Vec<_>>>()?;
        Some(Aff {
            c: self.c.checked_mul(k)?,
            terms,
        })
    }

    pub fn neg(&self) -> Option<Aff> {
        self.scale(-1)
    }

    pub fn sub(&self, o: &Aff) -> Option<Aff> {
        self.add(&o.neg()?)
    }

    pub fn add_const(&self, k: i128) -> Option<Aff> {
        self.add(&Aff::constant(k))
    }

    /// The form with `p` replaced by `by`.
    pub fn subst(&self, p: Param, by: &Aff) -> Option<Aff> {
        let k = self.coeff(p);
        if k == 0 {
            return Some(self.clone());
        }
        self.without(p).add(&by.scale(k)?)
    }

    /// The value where `p` is `v` and every other counter 0.
    pub fn at(&self, p: Param, v: i128) -> Option<i128> {
        self.c.checked_add(self.coeff(p).checked_mul(v)?)
    }
}

impl fmt::Display for Aff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.c)?;
        for (p, k) in &self.terms {
            write!(f, " + {k}·i{p}")?;
        }
        Ok(())
    }
}

/// The relation of an atom's form to 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Lt,
    Le,
    Eq,
    Ne,
}

/// `a ⋈ 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub a: Aff,
    pub rel: Rel,
}

impl Atom {
    /// The atom saying that `d op 0` has the truth value `truth` (`op` a comparison).
    pub fn of(d: Aff, op: BinOp, truth: bool) -> Option<Atom> {
        let (a, rel) = match (op, truth) {
            (BinOp::Lt, true) | (BinOp::Ge, false) => (d, Rel::Lt),
            (BinOp::Lt, false) | (BinOp::Ge, true) => (d.neg()?, Rel::Le),
            (BinOp::Le, true) | (BinOp::Gt, false) => (d, Rel::Le),
            (BinOp::Le, false) | (BinOp::Gt, true) => (d.neg()?, Rel::Lt),
            (BinOp::Eq, true) | (BinOp::Ne, false) => (d, Rel::Eq),
            (BinOp::Eq, false) | (BinOp::Ne, true) => (d, Rel::Ne),
            _ => return None,
        };
        Some(Atom { a, rel })
    }

    /// `lo ≤ v ≤ hi` as two atoms.
    pub fn range(v: &Aff, lo: i128, hi: i128) -> Option<[Atom; 2]> {
        Some([
            Atom {
                a: v.add_const(hi.checked_neg()?)?,
                rel: Rel::Le,
            },
            Atom {
                a: v.neg()?.add_const(lo)?,
                rel: Rel::Le,
            },
        ])
    }

    pub fn holds_for(&self, value: i128) -> bool {
        match self.rel {
            Rel::Lt => value < 0,
            Rel::Le => value <= 0,
            Rel::Eq => value == 0,
            Rel::Ne => value != 0,
        }
    }

    /// Whether the atom holds at the base point (every counter 0).
    pub fn holds_at_base(&self) -> bool {
        self.holds_for(self.a.c)
    }

    pub fn subst(&self, p: Param, by: &Aff) -> Option<Atom> {
        Some(Atom {
            a: self.a.subst(p, by)?,
            rel: self.rel,
        })
    }
}

/// The first `n ≥ 0` where `alpha + beta·n ⋈ 0` fails, for an atom that holds at `n = 0`
/// (`None`: it holds for every `n ≥ 0`).
pub fn first_failure(alpha: i128, beta: i128, rel: Rel) -> Option<i128> {
    debug_assert!(Atom {
        a: Aff::constant(alpha),
        rel
    }
    .holds_at_base());
    match rel {
        Rel::Lt if beta > 0 => Some(div_ceil(alpha.checked_neg()?, beta)),
        Rel::Le if beta > 0 => Some(div_floor(alpha.checked_neg()?, beta) + 1),
        Rel::Lt | Rel::Le => None,
        Rel::Eq => (beta != 0).then_some(1),
        Rel::Ne => {
            if beta == 0 || alpha % beta != 0 {
                return None;
            }
            let root = -alpha / beta;
            (root > 0).then_some(root)
        }
    }
}

fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aff(c: i128, terms: &[(Param, i128)]) -> Aff {
        let mut a = Aff::constant(c);
        for (p, k) in terms {
            a = a.add(&Aff::param(*p, *k)).unwrap();
        }
        a
    }

    #[test]
    fn forms_add_scale_and_substitute() {
        let a = aff(3, &[(0, 2), (2, -1)]);
        let b = aff(-3, &[(1, 5), (2, 1)]);
        let s = a.add(&b).unwrap();
        assert_eq!(s, aff(0, &[(0, 2), (1, 5)]));
        assert_eq!(s.coeff(2), 0);
        assert_eq!(a.scale(0).unwrap(), Aff::constant(0));
        // p0 := 4 - p1
        let r = a.subst(0, &aff(4, &[(1, -1)])).unwrap();
        assert_eq!(r, aff(11, &[(1, -2), (2, -1)]));
        assert!(Aff::constant(i128::MAX).add_const(1).is_none());
    }

    /// `first_failure` agrees with counting for every small case.
    #[test]
    fn first_failure_is_the_first_failing_index() {
        for rel in [Rel::Lt, Rel::Le, Rel::Eq, Rel::Ne] {
            for alpha in -20i128..=20 {
                for beta in -7i128..=7 {
                    let atom = |n: i128| {
                        Atom {
                            a: Aff::constant(alpha + beta * n),
                            rel,
                        }
                        .holds_at_base()
                    };
                    if !atom(0) {
                        continue;
                    }
                    let counted = (0..200).find(|n| !atom(*n));
                    assert_eq!(
                        first_failure(alpha, beta, rel),
                        counted,
                        "{alpha} + {beta}·n {rel:?} 0"
                    );
                }
            }
        }
    }

    #[test]
    fn atoms_normalise_every_comparison() {
        let d = aff(0, &[(0, 1)]); // d = p0
        for op in [
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
        ] {
            for truth in [false, true] {
                let atom = Atom::of(d.clone(), op, truth).unwrap();
                for v in -3i128..=3 {
                    let expect = crate::ir::semantics::compare(op, v, 0) == truth;
                    assert_eq!(
                        atom.holds_for(atom.a.at(0, v).unwrap()),
                        expect,
                        "{op:?} {truth} {v}"
                    );
                }
            }
        }
    }
}

//! Affine equalities between variables (Karr, "Affine relationships among variables of a
//! program", Acta Informatica 6, 1976): at each location of one function, the smallest affine
//! subspace that contains every reachable valuation, so relations such as `j == 2 * i` or
//! `2 * k + i == 2 * n` that neither intervals nor octagons can state.
//!
//! The subspace is kept in generator form, a point and a basis of directions in reduced row
//! echelon form (Müller-Olm and Seidl, "A note on Karr's algorithm", ICALP 2004, use the same
//! form): an affine assignment maps the point and the directions, a nondeterministic one adds
//! the variable's unit direction, the join adds the other side's directions and the difference
//! of the points. A chain of subspaces grows in dimension at most `n + 1` times, so the
//! iteration ends without widening. Conditions are not used (the analysis over-approximates
//! them by "both branches are possible"), and neither is any operation that is not affine in
//! the C value: a conversion between widths, a division, a bitwise operator, a product of two
//! variables make the assigned variable arbitrary.
//!
//! Wrap-around: every operation that is used is a ring operation with integer coefficients, so
//! the map from the mathematical integers to the integers modulo `2^w` commutes with it. A
//! relation with integer coefficients that holds over the integers in every run that ignores
//! the conditions therefore holds modulo `2^w` in every run of the C program; the relations are
//! stated in C over variables of one width, where the equality is exactly that congruence.
//! They are candidates all the same: every user checks them with the solver and the program's
//! exact semantics ([`crate::proof::houdini`]) before a proof rests on them.

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId, Rhs};
use crate::invariants::fixpoint::{self, Domain};
use crate::ir::{BinOp, Expr, ExprKind, FuncId, IntKind, IntType, UnOp, VarId};
use std::cell::Cell;
use std::collections::BTreeMap;

/// Most variables tracked in one function (the elimination is cubic in their number).
pub const MAX_VARS: usize = 24;

/// A rational with `i128` parts, normalized (`d > 0`, lowest terms). Every operation checks
/// overflow: the analysis then gives up on the state (keeps no relation), which is sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Q {
    n: i128,
    d: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a).unwrap_or(1)
}

impl Q {
    const ZERO: Q = Q { n: 0, d: 1 };
    const ONE: Q = Q { n: 1, d: 1 };

    fn int(n: i128) -> Q {
        Q { n, d: 1 }
    }

    fn new(n: i128, d: i128) -> Option<Q> {
        if d == 0 {
            return None;
        }
        let g = gcd(n, d).max(1);
        let (n, d) = (n / g, d / g);
        if d < 0 {
            Some(Q {
                n: n.checked_neg()?,
                d: d.checked_neg()?,
            })
        } else {
            Some(Q { n, d })
        }
    }

    fn is_zero(self) -> bool {
        self.n == 0
    }

    fn add(self, o: Q) -> Option<Q> {
        let g = gcd(self.d, o.d);
        let l = (self.d / g).checked_mul(o.d)?;
        let a = self.n.checked_mul(l / self.d)?;
        let b = o.n.checked_mul(l / o.d)?;
        Q::new(a.checked_add(b)?, l)
    }

    fn neg(self) -> Option<Q> {
        Some(Q {
            n: self.n.checked_neg()?,
            d: self.d,
        })
    }

    fn sub(self, o: Q) -> Option<Q> {
        self.add(o.neg()?)
    }

    fn mul(self, o: Q) -> Option<Q> {
        let g1 = gcd(self.n, o.d).max(1);
        let g2 = gcd(o.n, self.d).max(1);
        Q::new(
            (self.n / g1).checked_mul(o.n / g2)?,
            (self.d / g2).checked_mul(o.d / g1)?,
        )
    }

    fn div(self, o: Q) -> Option<Q> {
        if o.is_zero() {
            return None;
        }
        self.mul(Q::new(o.d, o.n)?)
    }
}

/// `Σ a_k·x_k + b` over the tracked variables.
#[derive(Clone, Debug)]
struct Affine {
    a: Vec<Q>,
    b: Q,
}

/// An affine subspace: `point + span(dirs)`, the directions in reduced row echelon form and
/// the point zero at their pivots, so that equal subspaces are equal values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hull {
    point: Vec<Q>,
    dirs: Vec<Vec<Q>>,
}

impl Hull {
    /// Every valuation.
    fn top(n: usize) -> Hull {
        Hull {
            point: vec![Q::ZERO; n],
            dirs: (0..n)
                .map(|k| {
                    (0..n)
                        .map(|j| if j == k { Q::ONE } else { Q::ZERO })
                        .collect()
                })
                .collect(),
        }
    }

    /// The canonical form (`None`: an overflow).
    fn canon(mut self) -> Option<Hull> {
        let n = self.point.len();
        let mut rows: Vec<Vec<Q>> = Vec::new();
        let mut pending = std::mem::take(&mut self.dirs);
        let mut col = 0;
        while col < n && !pending.is_empty() {
            if let Some(i) = pending.iter().position(|r| !r[col].is_zero()) {
                let r = pending.swap_remove(i);
                let p = r[col];
                let r: Vec<Q> = r.iter().map(|x| x.div(p)).collect::<Option<_>>()?;
                for other in pending.iter_mut().chain(rows.iter_mut()) {
                    let f = other[col];
                    if !f.is_zero() {
                        for (o, x) in other.iter_mut().zip(&r) {
                            *o = o.sub(f.mul(*x)?)?;
                        }
                    }
                }
                pending.retain(|r| r.iter().any(|x| !x.is_zero()));
                rows.push(r);
            }
            col += 1;
        }
        rows.sort_by_key(|r| r.iter().position(|x| !x.is_zero()));
        for r in &rows {
            let c = r.iter().position(|x| !x.is_zero()).expect("a non-zero row");
            let f = self.point[c];
            if !f.is_zero() {
                for (o, x) in self.point.iter_mut().zip(r) {
                    *o = o.sub(f.mul(*x)?)?;
                }
            }
        }
        self.dirs = rows;
        Some(self)
    }

    fn join(&self, o: &Hull) -> Option<Hull> {
        let diff: Vec<Q> = o
            .point
            .iter()
            .zip(&self.point)
            .map(|(a, b)| a.sub(*b))
            .collect::<Option<_>>()?;
        let mut dirs = self.dirs.clone();
        dirs.extend(o.dirs.iter().cloned());
        dirs.push(diff);
        Hull {
            point: self.point.clone(),
            dirs,
        }
        .canon()
    }

    /// `x_k` becomes arbitrary.
    fn havoc(&self, k: usize) -> Option<Hull> {
        let n = self.point.len();
        let mut dirs = self.dirs.clone();
        dirs.push(
            (0..n)
                .map(|j| if j == k { Q::ONE } else { Q::ZERO })
                .collect(),
        );
        Hull {
            point: self.point.clone(),
            dirs,
        }
        .canon()
    }

    /// `x_k = e`.
    fn assign(&self, k: usize, e: &Affine) -> Option<Hull> {
        let dot = |v: &[Q]| -> Option<Q> {
            let mut s = Q::ZERO;
            for (a, x) in e.a.iter().zip(v) {
                if !a.is_zero() && !x.is_zero() {
                    s = s.add(a.mul(*x)?)?;
                }
            }
            Some(s)
        };
        let mut point = self.point.clone();
        point[k] = dot(&self.point)?.add(e.b)?;
        let mut dirs = self.dirs.clone();
        for d in dirs.iter_mut() {
            d[k] = dot(d)?;
        }
        Hull { point, dirs }.canon()
    }

    /// The equalities `Σ a_k·x_k = c` that hold on the subspace, one per dimension it lacks,
    /// with integer coefficients in lowest terms, the last one positive (`None`: an overflow).
    fn equalities(&self) -> Option<Vec<(Vec<i128>, i128)>> {
        let n = self.point.len();
        let pivots: Vec<usize> = self
            .dirs
            .iter()
            .map(|r| r.iter().position(|x| !x.is_zero()).expect("a non-zero row"))
            .collect();
        let mut out = Vec::new();
        for f in (0..n).filter(|f| !pivots.contains(f)) {
            // a = e_f - Σ_r r[f]·e_pivot(r): orthogonal to every direction.
            let mut a = vec![Q::ZERO; n];
            a[f] = Q::ONE;
            for (r, &p) in self.dirs.iter().zip(&pivots) {
                a[p] = r[f].neg()?;
            }
            let mut c = Q::ZERO;
            for (x, p) in a.iter().zip(&self.point) {
                c = c.add(x.mul(*p)?)?;
            }
            let mut l: i128 = c.d;
            for x in &a {
                l = (l / gcd(l, x.d)).checked_mul(x.d)?;
            }
            let ints: Vec<i128> = a
                .iter()
                .map(|x| x.n.checked_mul(l / x.d))
                .collect::<Option<_>>()?;
            let c = c.n.checked_mul(l / c.d)?;
            let mut g = ints.iter().fold(c, |g, x| gcd(g, *x)).max(1);
            if ints.iter().rfind(|x| **x != 0).is_some_and(|x| *x < 0) {
                g = -g;
            }
            out.push((ints.iter().map(|x| x / g).collect(), c / g));
        }
        Some(out)
    }
}

/// The analysis of one function.
pub struct AffineAnalysis<'c> {
    cfa: &'c Cfa,
    vars: Vec<VarId>,
    index: BTreeMap<VarId, usize>,
    /// The subspaces of the reachable locations.
    pub at: BTreeMap<NodeId, Hull>,
    calls: crate::invariants::CallEffects,
}

/// Whether a variable of this type takes part: `_Bool` converts by comparison with zero, not
/// modulo a power of two.
fn trackable(t: IntType) -> bool {
    t.kind != IntKind::Bool
}

impl<'c> AffineAnalysis<'c> {
    /// Analyses `function` from its entry, every variable arbitrary there.
    pub fn run(cfa: &'c Cfa, function: FuncId) -> AffineAnalysis<'c> {
        let mut vars = Vec::new();
        for e in cfa
            .edges
            .iter()
            .filter(|e| cfa.node(e.from).function == function)
        {
            let mut note = |v: VarId| {
                let var = cfa.var(v);
                if (var.function.is_none() || var.function == Some(function))
                    && trackable(var.ty)
                    && !vars.contains(&v)
                    && vars.len() < MAX_VARS
                {
                    vars.push(v);
                }
            };
            super::edge_vars(e, &mut note);
        }
        let index = vars.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let mut a = AffineAnalysis {
            cfa,
            vars,
            index,
            at: BTreeMap::new(),
            calls: crate::invariants::CallEffects::of(cfa),
        };
        let n = a.vars.len();
        let overflow = Cell::new(false);
        let keep = |h: Option<Hull>| {
            h.unwrap_or_else(|| {
                overflow.set(true);
                Hull::top(n)
            })
        };
        let domain = Domain {
            post: &|h: &Hull, e: &Edge| a.post(h, e).map(|(to, h)| (to, keep(h))),
            join: &|x: &Hull, y: &Hull| keep(x.join(y)),
            widen: &|old: &Hull, new: &Hull| keep(old.join(new)),
            normalize: &|_: &mut Hull| true,
        };
        let at = fixpoint::solve(cfa, function, Hull::top(n), &domain, 0);
        a.at = at;
        a
    }

    /// `e` as an affine form over the tracked variables, when its C value is that form modulo
    /// `2^w` (`w` the width of `e`'s type).
    fn form(&self, e: &Expr) -> Option<Affine> {
        let n = self.vars.len();
        if !trackable(e.ty) {
            return None;
        }
        let scale = |f: Affine, c: Q| -> Option<Affine> {
            Some(Affine {
                a: f.a.iter().map(|x| x.mul(c)).collect::<Option<_>>()?,
                b: f.b.mul(c)?,
            })
        };
        Some(match &e.kind {
            ExprKind::Const(v) => Affine {
                a: vec![Q::ZERO; n],
                b: Q::int(*v),
            },
            ExprKind::Var(v) => {
                let mut a = vec![Q::ZERO; n];
                a[*self.index.get(v)?] = Q::ONE;
                Affine { a, b: Q::ZERO }
            }
            ExprKind::Cast { operand, .. }
                if operand.ty.bits() == e.ty.bits() && trackable(operand.ty) =>
            {
                self.form(operand)?
            }
            ExprKind::Unary(UnOp::Neg, a) => scale(self.form(a)?, Q::int(-1))?,
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (fa, fb) = (self.form(a)?, self.form(b)?);
                let sign = if *op == BinOp::Add {
                    Q::ONE
                } else {
                    Q::int(-1)
                };
                let fb = scale(fb, sign)?;
                Affine {
                    a: fa
                        .a
                        .iter()
                        .zip(&fb.a)
                        .map(|(x, y)| x.add(*y))
                        .collect::<Option<_>>()?,
                    b: fa.b.add(fb.b)?,
                }
            }
            ExprKind::Binary(BinOp::Mul, a, b) => match (a.as_const(), b.as_const()) {
                (Some(c), _) => scale(self.form(b)?, Q::int(c))?,
                (_, Some(c)) => scale(self.form(a)?, Q::int(c))?,
                _ => return None,
            },
            ExprKind::Binary(BinOp::Shl, a, b) => {
                let s = b
                    .as_const()
                    .filter(|s| (0..i128::from(e.ty.bits())).contains(s))?;
                scale(self.form(a)?, Q::int(1i128 << s))?
            }
            _ => return None,
        })
    }

    fn assign(&self, h: &Hull, x: VarId, e: Option<&Expr>) -> Option<Hull> {
        let Some(&k) = self.index.get(&x) else {
            return Some(h.clone());
        };
        match e.filter(|e| e.ty.bits() == self.cfa.var(x).ty.bits()) {
            Some(e) => match self.form(e) {
                Some(f) => h.assign(k, &f),
                None => h.havoc(k),
            },
            None => h.havoc(k),
        }
    }

    fn forget(&self, h: Option<Hull>, v: VarId) -> Option<Hull> {
        match self.index.get(&v) {
            Some(&k) => h?.havoc(k),
            None => h,
        }
    }

    /// The successor along an edge: `None` when the edge leaves the function or ends a run,
    /// `Some((to, None))` on an overflow.
    fn post(&self, h: &Hull, edge: &Edge) -> Option<(NodeId, Option<Hull>)> {
        let cfa = self.cfa;
        let out = match &edge.kind {
            EdgeKind::Assume { .. } | EdgeKind::Blank(_) => Some(h.clone()),
            EdgeKind::Assign { lhs, rhs }
            | EdgeKind::Declare {
                var: lhs,
                init: Some(rhs),
            } => match rhs {
                Rhs::Expr(e) => self.assign(h, *lhs, Some(e)),
                Rhs::Nondet { .. } => self.assign(h, *lhs, None),
            },
            EdgeKind::Declare { var, init: None } => self.assign(h, *var, None),
            EdgeKind::Call { return_site, .. } => {
                // The callee may write any global and anything in memory; the return edge
                // writes the result variable.
                let mut out = Some(h.clone());
                for v in &self.vars {
                    if self.calls.may_write(cfa, *v) {
                        out = self.forget(out, *v);
                    }
                }
                for e in cfa.successors(cfa.function(cfa.node(edge.to).function).exit) {
                    if let EdgeKind::Return {
                        assign: Some(x), ..
                    } = &e.kind
                    {
                        if e.to == *return_site {
                            out = self.forget(out, *x);
                        }
                    }
                }
                return Some((*return_site, out));
            }
            EdgeKind::ReturnValue { function, .. } => match cfa.function(*function).ret {
                Some((_, rv)) => self.forget(Some(h.clone()), rv),
                None => Some(h.clone()),
            },
            EdgeKind::Return { .. } | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => return None,
        };
        Some((edge.to, out))
    }

    /// The relations between at least `min_vars` user variables of one width at `l`, as C
    /// equalities (positive coefficients on the left: `j == 2 * i`).
    pub fn invariants(&self, l: NodeId, min_vars: usize) -> Vec<Expr> {
        let Some(h) = self.at.get(&l) else {
            return Vec::new();
        };
        // Compiler temporaries are projected out: the relations are over what the user wrote.
        let mut h = h.clone();
        for (k, v) in self.vars.iter().enumerate() {
            if self.cfa.var(*v).synthetic {
                match h.havoc(k) {
                    Some(next) => h = next,
                    None => return Vec::new(),
                }
            }
        }
        let Some(eqs) = h.equalities() else {
            return Vec::new();
        };
        eqs.iter()
            .filter(|(a, _)| a.iter().filter(|x| **x != 0).count() >= min_vars)
            .filter_map(|(a, c)| self.equality(a, *c))
            .collect()
    }

    /// `Σ a_k·x_k == c` in C, in the variables' type if they share one (else the unsigned
    /// type of their width); `None` for mixed widths.
    fn equality(&self, a: &[i128], c: i128) -> Option<Expr> {
        let used: Vec<(usize, i128)> = a
            .iter()
            .enumerate()
            .filter(|(_, x)| **x != 0)
            .map(|(k, x)| (k, *x))
            .collect();
        if used.is_empty() {
            return None;
        }
        let types: Vec<IntType> = used
            .iter()
            .map(|(k, _)| self.cfa.var(self.vars[*k]).ty)
            .collect();
        if types.iter().any(|t| t.bits() != types[0].bits()) {
            return None;
        }
        let ty = if types.iter().all(|t| *t == types[0]) {
            types[0]
        } else {
            types[0].to_unsigned()
        };
        let term = |k: usize, x: i128| -> Expr {
            let v = Expr::var(self.vars[k], self.cfa.var(self.vars[k]).ty).convert(ty);
            if x == 1 {
                v
            } else {
                Expr {
                    ty,
                    kind: ExprKind::Binary(
                        BinOp::Mul,
                        Box::new(Expr::constant(ty, x)),
                        Box::new(v),
                    ),
                }
            }
        };
        let sum = |terms: Vec<Expr>| -> Option<Expr> {
            terms.into_iter().reduce(|x, y| Expr {
                ty,
                kind: ExprKind::Binary(BinOp::Add, Box::new(x), Box::new(y)),
            })
        };
        let left = sum(used
            .iter()
            .filter(|(_, x)| *x > 0)
            .map(|(k, x)| term(*k, *x))
            .collect());
        let mut right: Vec<Expr> = used
            .iter()
            .filter(|(_, x)| *x < 0)
            .map(|(k, x)| term(*k, -x))
            .collect();
        // The last coefficient is positive ([`Hull::equalities`]), so the left side is not
        // empty; the constant goes to the side that keeps it positive.
        let mut left = left?;
        if c >= 0 {
            if c != 0 || right.is_empty() {
                right.push(Expr::constant(ty, c));
            }
        } else {
            left = Expr {
                ty,
                kind: ExprKind::Binary(
                    BinOp::Add,
                    Box::new(left),
                    Box::new(Expr::constant(ty, -c)),
                ),
            };
        }
        Some(crate::invariants::intervals::cmp(
            BinOp::Eq,
            left,
            sum(right)?,
        ))
    }
}

/// The relations between two or more variables at the loop heads of every function (each
/// analysed from its entry with any arguments and globals, so they hold in every calling
/// context).
pub fn loop_invariants(cfa: &Cfa) -> BTreeMap<NodeId, Vec<Expr>> {
    invariants_where(cfa, |n| n.loop_head, 2)
}

/// The affine equalities at every location, constants included (abstraction at every
/// location, as with single-block encoding, needs `i == 0` before the loop and the relation
/// between two updates of a loop body).
pub fn all_invariants(cfa: &Cfa) -> BTreeMap<NodeId, Vec<Expr>> {
    invariants_where(cfa, |_| true, 1)
}

fn invariants_where(
    cfa: &Cfa,
    wanted: impl Fn(&crate::cfa::Node) -> bool,
    min_vars: usize,
) -> BTreeMap<NodeId, Vec<Expr>> {
    let mut out = BTreeMap::new();
    for f in &cfa.functions {
        if !cfa.nodes.iter().any(|n| n.loop_head && n.function == f.id) {
            continue;
        }
        let a = AffineAnalysis::run(cfa, f.id);
        for n in cfa.nodes.iter().filter(|n| n.function == f.id && wanted(n)) {
            let invs = a.invariants(n.id, min_vars);
            if !invs.is_empty() {
                out.insert(n.id, invs);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;

    /// The equalities at the loop heads, in source order, as the page shows them.
    fn shown(src: &str) -> Vec<Vec<String>> {
        let cfa = parse_program("t.c", src).unwrap().cfa;
        loop_invariants(&cfa)
            .values()
            .map(|es| es.iter().map(|e| e.display(&cfa).to_string()).collect())
            .collect()
    }

    #[test]
    fn a_counter_and_its_double() {
        let invs = shown(
            "extern unsigned __VERIFIER_nondet_uint(void);
int main(void) { unsigned n = __VERIFIER_nondet_uint(); unsigned i = 0, j = 0;
  while (i < n) { i++; j += 2; }
  return 0; }",
        );
        assert_eq!(invs, vec![vec!["j == 2U * i".to_string()]]);
    }

    #[test]
    fn three_variables_and_a_constant() {
        // half_2's first loop: k falls by one while i grows by two from 0, k starting at n.
        let invs = shown(
            "extern int __VERIFIER_nondet_int(void);
int main(void) { int n = __VERIFIER_nondet_int(); int k = n; int i = 0;
  while (i < n) { k--; i = i + 2; }
  int x = 5; int y = 1;
  while (__VERIFIER_nondet_int()) { x = x + 3; y = y - 1; }
  return 0; }",
        );
        assert_eq!(invs.len(), 2);
        assert!(
            invs[0].contains(&"2 * k + i == 2 * n".to_string()),
            "{invs:?}"
        );
        assert!(invs[1].contains(&"x + 3 * y == 8".to_string()), "{invs:?}");
    }

    #[test]
    fn branches_join_to_their_affine_hull() {
        // Both branches keep x + y == 10; the hull of the two updates is that line.
        let invs = shown(
            "extern int __VERIFIER_nondet_int(void);
int main(void) { int x = 0; int y = 10;
  while (__VERIFIER_nondet_int()) { if (__VERIFIER_nondet_int()) { x++; y--; } else { x = x - 2; y = y + 2; } }
  return 0; }",
        );
        assert_eq!(invs, vec![vec!["x + y == 10".to_string()]]);
    }

    #[test]
    fn no_relation_through_a_conversion_or_a_product() {
        // c++ on a char converts through int; x = y * y is not affine.
        let invs = shown(
            "extern int __VERIFIER_nondet_int(void);
int main(void) { char c = 0; int i = 0; int x = 0; int y = 0;
  while (__VERIFIER_nondet_int()) { c++; i++; y++; x = y * y; }
  return 0; }",
        );
        assert!(
            invs.iter()
                .flatten()
                .all(|s| !s.contains('c') && !s.contains('x')),
            "{invs:?}"
        );
        assert!(invs.iter().flatten().any(|s| s == "y == i"), "{invs:?}");
    }

    #[test]
    fn rationals_stay_exact() {
        let h = Hull::top(3);
        let h = h
            .assign(
                0,
                &Affine {
                    a: vec![Q::ZERO; 3],
                    b: Q::int(1),
                },
            )
            .unwrap();
        // x1 = 3·x0 + x2 / ... through a direction with a fraction.
        let h = h
            .join(&Hull {
                point: vec![Q::int(4), Q::int(6), Q::int(0)],
                dirs: vec![],
            })
            .unwrap();
        assert!(
            h.dirs.len() == 3
                || h.equalities()
                    .unwrap()
                    .iter()
                    .all(|(a, _)| a.iter().any(|x| *x != 0))
        );
        assert_eq!(Q::new(6, -4), Some(Q { n: -3, d: 2 }));
        assert_eq!(
            Q::int(1).div(Q::int(3)).unwrap().mul(Q::int(3)),
            Some(Q::ONE)
        );
        assert_eq!(Q::int(i128::MAX).add(Q::ONE), None);
    }
}

//! Re-execution of a recorded loop iteration over affine forms in iteration counters.
//!
//! The recorded path (its CFA edges and the accelerated inner loops it went through) is executed
//! again from a state whose values are affine in the counter `j` of the loop being accelerated
//! (`x(j) = x(0) + j·δx`). Every value stays an affine form; every decision the path made (an
//! assume edge, a condition inside an expression, a value that must stay in its type's range so
//! that C's wrap-around does not apply) becomes an [`Atom`] that must hold for the path to be
//! taken again. An operation that is not affine over changing values (a product of two of them,
//! a division, a bit operation, an input) makes the loop not accelerable here.
//!
//! An inner loop that was itself accelerated ([`Segment`]) gets a counter of its own; its
//! iterations are eliminated again: its count `K` is taken affine in the outer counters from
//! the atom that ended it, and each of its atoms must hold on `[0, K)`, which for `<`, `≤`
//! and `=` (convex in the counter) means at both ends and for `≠` that the form keeps one
//! strict sign at both ends.

use crate::cfa::{Cfa, EdgeKind, Rhs};
use crate::concrete::accel::affine::{first_failure, Aff, Atom, Param, Rel};
use crate::concrete::accel::record::{Item, Segment, Snapshot};
use crate::ir::semantics;
use crate::ir::{BinOp, Expr, ExprKind, IntType, UnOp, VarId};
use std::collections::BTreeMap;

/// A value during re-execution: an affine form, or a variable whose value at the start is not
/// the same function of the counter in every iteration (it must be written before it is read).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Sym {
    Val(Aff),
    Poison,
}

#[derive(Clone, Debug, Default)]
struct SymState {
    globals: BTreeMap<VarId, Sym>,
    /// The frame of the loop head first; calls on the path push more.
    frames: Vec<BTreeMap<VarId, Sym>>,
}

impl SymState {
    /// Globals and the loop head's frame as one map (variable ids are unique program-wide).
    fn visible(&self) -> BTreeMap<VarId, Sym> {
        let mut m = self.globals.clone();
        if let Some(f) = self.frames.last() {
            m.extend(f.iter().map(|(v, s)| (*v, s.clone())));
        }
        m
    }
}

/// The most operations one acceleration attempt re-executes (edges, expression nodes).
const OP_BUDGET: usize = 2_000_000;

struct Ctx<'c> {
    cfa: &'c Cfa,
    atoms: Vec<Atom>,
    next_param: Param,
    ops: usize,
}

/// What re-executing one iteration showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acceleration {
    /// The recorded path repeats for `count` iterations (from the earlier arrival, the one
    /// executed included); `after` is the state at the loop head after them.
    Jump { count: i128, after: Snapshot },
    /// The path repeats forever with an unchanged state: the run never leaves the loop.
    Forever,
}

/// Whether the iteration `body`, which led from `prev` to `cur` at a loop head, repeats, and
/// how often. `None`: the loop is not accelerable this way (not affine, an input, a path that
/// returns from the head's function, too large).
pub fn accelerate(
    cfa: &Cfa,
    prev: &Snapshot,
    cur: &Snapshot,
    body: &[Item],
) -> Option<Acceleration> {
    let mut cx = Ctx {
        cfa,
        atoms: Vec::new(),
        next_param: 1,
        ops: 0,
    };
    let j: Param = 0;
    let mut delta = BTreeMap::new();
    let mut start = SymState {
        globals: BTreeMap::new(),
        frames: vec![BTreeMap::new()],
    };
    for (v, c) in cur {
        let sym = match prev.get(v) {
            Some(p) => {
                let d = c.checked_sub(*p)?;
                delta.insert(*v, d);
                Sym::Val(Aff::constant(*p).add(&Aff::param(j, d))?)
            }
            None => Sym::Poison,
        };
        cx.set_raw(&mut start, *v, sym);
    }
    if prev.keys().any(|v| !cur.contains_key(v)) {
        return None;
    }
    let mut st = start;
    cx.items(&mut st, body)?;
    if st.frames.len() != 1 {
        return None;
    }
    let fin = st.visible();
    for (v, s) in &fin {
        let Sym::Val(a) = s else { continue };
        if let Some(d) = delta.get(v) {
            let want = Aff::constant(prev[v].checked_add(*d)?).add(&Aff::param(j, *d))?;
            if *a != want {
                return None;
            }
        }
        cx.range(a, cfa.var(*v).ty)?;
    }
    let mut count: Option<i128> = None;
    for atom in &cx.atoms {
        // An inner counter left over would be a bug: never trust such an atom.
        atom.a.without(j).as_const()?;
        if !atom.holds_at_base() {
            debug_assert!(false, "the recorded path violates its own atom {atom:?}");
            return None;
        }
        if let Some(n) = first_failure(atom.a.c, atom.a.coeff(j), atom.rel) {
            count = Some(count.map_or(n, |c| c.min(n)));
        }
    }
    let Some(count) = count else {
        return (delta.values().all(|d| *d == 0)
            && fin
                .values()
                .all(|s| matches!(s, Sym::Val(a) if a.as_const().is_some())))
        .then_some(Acceleration::Forever);
    };
    let mut after = Snapshot::new();
    for (v, s) in fin {
        match s {
            Sym::Val(a) => {
                after.insert(v, a.at(j, count - 1)?);
            }
            Sym::Poison => {
                if cur.contains_key(&v) {
                    return None;
                }
            }
        }
    }
    Some(Acceleration::Jump { count, after })
}

impl Ctx<'_> {
    fn tick(&mut self) -> Option<()> {
        self.ops += 1;
        (self.ops <= OP_BUDGET).then_some(())
    }

    fn push(&mut self, atom: Option<Atom>) -> Option<()> {
        let atom = atom?;
        if let Some(c) = atom.a.as_const() {
            // Decided already: it must hold (the recorded path took it).
            return atom.holds_for(c).then_some(());
        }
        self.atoms.push(atom);
        Some(())
    }

    /// The value must stay in `ty`'s range, where C's operations are the mathematical ones.
    fn range(&mut self, v: &Aff, ty: IntType) -> Option<()> {
        if v.as_const().is_some() {
            return Some(());
        }
        let [a, b] = Atom::range(v, ty.min_value(), ty.max_value())?;
        self.push(Some(a))?;
        self.push(Some(b))
    }

    fn set_raw(&self, st: &mut SymState, v: VarId, s: Sym) {
        if self.cfa.var(v).function.is_none() {
            st.globals.insert(v, s);
        } else if let Some(f) = st.frames.last_mut() {
            f.insert(v, s);
        }
    }

    /// An assignment: the value converted to the variable's type (a constant wraps, as the
    /// interpreter does; a changing value must be in range).
    fn set(&mut self, st: &mut SymState, v: VarId, a: Aff) -> Option<()> {
        let ty = self.cfa.var(v).ty;
        let a = match a.as_const() {
            Some(c) => Aff::constant(ty.wrap(c)),
            None => {
                self.range(&a, ty)?;
                a
            }
        };
        self.set_raw(st, v, Sym::Val(a));
        Some(())
    }

    fn get(&self, st: &SymState, v: VarId) -> Option<Aff> {
        let s = if self.cfa.var(v).function.is_none() {
            st.globals.get(&v)
        } else {
            st.frames.last()?.get(&v)
        };
        match s? {
            Sym::Val(a) => Some(a.clone()),
            Sym::Poison => None,
        }
    }

    fn items(&mut self, st: &mut SymState, items: &[Item]) -> Option<()> {
        for item in items {
            match item {
                Item::Edge(e) => self.edge(st, &self.cfa.edge(*e).kind)?,
                Item::Segment(seg) => self.segment(st, seg)?,
            }
        }
        Some(())
    }

    fn edge(&mut self, st: &mut SymState, kind: &EdgeKind) -> Option<()> {
        self.tick()?;
        match kind {
            EdgeKind::Blank(_) => {}
            // Sinks: a recorded iteration never passes them.
            EdgeKind::ReachError(_) | EdgeKind::Abort(_) => return None,
            EdgeKind::Assume { cond, truth } => {
                if self.cond(st, cond)? != *truth {
                    return None;
                }
            }
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Expr(e),
            }
            | EdgeKind::Declare {
                var: lhs,
                init: Some(Rhs::Expr(e)),
            } => {
                let a = self.eval(st, e)?;
                self.set(st, *lhs, a)?;
            }
            // An input inside the loop: its value may differ in every iteration.
            EdgeKind::Assign { .. } | EdgeKind::Declare { .. } => return None,
            EdgeKind::Call { callee, args, .. } => {
                let values = args
                    .iter()
                    .map(|a| self.eval(st, a))
                    .collect::<Option<Vec<_>>>()?;
                st.frames.push(BTreeMap::new());
                let params = self.cfa.function(*callee).params.clone();
                for (p, v) in params.into_iter().zip(values) {
                    self.set(st, p, v)?;
                }
            }
            EdgeKind::ReturnValue { function, value } => {
                if let (Some(e), Some((_, rv))) = (value, self.cfa.function(*function).ret) {
                    let a = self.eval(st, e)?;
                    self.set(st, rv, a)?;
                }
            }
            EdgeKind::Return { callee, assign, .. } => {
                // A return from the loop head's own function leaves the loop for good.
                if st.frames.len() < 2 {
                    return None;
                }
                let ret = match self.cfa.function(*callee).ret {
                    Some((_, rv)) => self.get(st, rv),
                    None => None,
                };
                st.frames.pop();
                if let Some(a) = assign {
                    self.set(st, *a, ret?)?;
                }
            }
        }
        Some(())
    }

    /// An accelerated inner loop: its iterations become a counter of their own, which is then
    /// eliminated (see the module documentation).
    fn segment(&mut self, st: &mut SymState, seg: &Segment) -> Option<()> {
        let i = self.next_param;
        self.next_param += 1;
        let here = st.visible();
        let mut start: BTreeMap<VarId, Option<(Aff, i128)>> = BTreeMap::new();
        for (v, s) in &here {
            let entry = match (s, seg.delta.get(v)) {
                (Sym::Val(a), Some(d)) => Some((a.clone(), *d)),
                _ => None,
            };
            start.insert(*v, entry);
        }
        if seg.delta.keys().any(|v| !here.contains_key(v)) {
            return None;
        }
        let mut inner = st.clone();
        for (v, e) in &start {
            let s = match e {
                Some((a, d)) => Sym::Val(a.add(&Aff::param(i, *d))?),
                None => Sym::Poison,
            };
            self.set_raw(&mut inner, *v, s);
        }
        let outer_atoms = std::mem::take(&mut self.atoms);
        let done = self.items(&mut inner, &seg.body);
        let mut atoms = std::mem::replace(&mut self.atoms, outer_atoms);
        done?;
        if inner.frames.len() != st.frames.len() {
            return None;
        }
        let fin = inner.visible();
        for (v, s) in &fin {
            let Sym::Val(a) = s else { continue };
            if let Some(Some((a0, d))) = start.get(v) {
                let want = a0.add_const(*d)?.add(&Aff::param(i, *d))?;
                if *a != want {
                    return None;
                }
            }
            if a.as_const().is_none() {
                let ty = self.cfa.var(*v).ty;
                atoms.extend(Atom::range(a, ty.min_value(), ty.max_value())?);
            }
        }
        // The count at the base point, and an atom that ends the segment there.
        let k0 = seg.skipped;
        let mut min_ff: Option<i128> = None;
        for a in &atoms {
            let base = a.a.at(i, 0)?;
            if !a.holds_for(base) {
                return None;
            }
            let alpha0 = a.a.without(i).c;
            if let Some(n) = first_failure(alpha0, a.a.coeff(i), a.rel) {
                min_ff = Some(min_ff.map_or(n, |m| m.min(n)));
            }
        }
        if min_ff != Some(k0) {
            return None;
        }
        let k = atoms
            .iter()
            .filter(|a| first_failure(a.a.c, a.a.coeff(i), a.rel) == Some(k0))
            .find_map(|a| count_form(a, i, k0))?;
        if k.c != k0 {
            return None;
        }
        let km1 = k.add_const(-1)?;
        // K ≥ 1, and every atom on [0, K).
        self.push(Some(Atom {
            a: Aff::constant(1).sub(&k)?,
            rel: Rel::Le,
        }))?;
        for a in &atoms {
            if !a.a.mentions(i) {
                self.push(Some(a.clone()))?;
                continue;
            }
            let at0 = a.subst(i, &Aff::constant(0))?;
            let at_end = a.subst(i, &km1)?;
            match a.rel {
                Rel::Lt | Rel::Le | Rel::Eq => {
                    self.push(Some(at0))?;
                    self.push(Some(at_end))?;
                }
                Rel::Ne => {
                    let v0 = a.a.at(i, 0)?;
                    let v1 = a.a.at(i, k0 - 1)?;
                    if v0 == 0 || v1 == 0 || (v0 < 0) != (v1 < 0) {
                        return None;
                    }
                    let strict = |f: Aff| -> Option<Atom> {
                        let a = if v0 > 0 { f.neg()? } else { f };
                        Some(Atom { a, rel: Rel::Lt })
                    };
                    self.push(strict(at0.a))?;
                    self.push(strict(at_end.a))?;
                }
            }
        }
        // The state after K iterations.
        for (v, s) in fin {
            let out = match (s, start.get(&v)) {
                (Sym::Val(_), Some(Some((a0, d)))) => Sym::Val(a0.add(&k.scale(*d)?)?),
                (Sym::Val(a), _) => Sym::Val(a.subst(i, &km1)?),
                (Sym::Poison, _) => Sym::Poison,
            };
            self.set_raw(&mut inner, v, out);
        }
        *st = inner;
        Some(())
    }

    /// The truth of a condition at the base point; atoms keep it the same wherever they hold.
    fn cond(&mut self, st: &SymState, e: &Expr) -> Option<bool> {
        self.tick()?;
        match &e.kind {
            ExprKind::Binary(op, a, b) if op.is_comparison() => {
                let d = self.eval(st, a)?.sub(&self.eval(st, b)?)?;
                let truth = semantics::compare(*op, d.c, 0);
                self.push(Atom::of(d, *op, truth))?;
                Some(truth)
            }
            ExprKind::Binary(BinOp::LogAnd, a, b) => Some(self.cond(st, a)? && self.cond(st, b)?),
            ExprKind::Binary(BinOp::LogOr, a, b) => Some(self.cond(st, a)? || self.cond(st, b)?),
            ExprKind::Unary(UnOp::LogNot, a) => Some(!self.cond(st, a)?),
            _ => {
                let v = self.eval(st, e)?;
                let truth = v.c != 0;
                self.push(Atom::of(v, BinOp::Ne, truth))?;
                Some(truth)
            }
        }
    }

    fn eval(&mut self, st: &SymState, e: &Expr) -> Option<Aff> {
        self.tick()?;
        let ty = e.ty;
        match &e.kind {
            ExprKind::Const(v) => Some(Aff::constant(*v)),
            ExprKind::Var(v) => self.get(st, *v),
            ExprKind::Cast { operand, .. } => {
                let x = self.eval(st, operand)?;
                self.wrapped(x, ty)
            }
            ExprKind::Unary(UnOp::Neg, a) => {
                let x = self.eval(st, a)?.neg()?;
                self.wrapped(x, ty)
            }
            ExprKind::Unary(UnOp::BitNot, a) => {
                let x = self.eval(st, a)?;
                match x.as_const() {
                    Some(c) => Some(Aff::constant(ty.wrap(!c))),
                    // Two's complement: ~x = -x - 1; for unsigned x in range, max - x.
                    None if ty.signed => x.neg()?.add_const(-1),
                    None => x.neg()?.add_const(ty.max_value()),
                }
            }
            ExprKind::Unary(UnOp::LogNot, _)
            | ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, _, _) => {
                Some(Aff::constant(i128::from(self.cond(st, e)?)))
            }
            ExprKind::Binary(op, _, _) if op.is_comparison() => {
                Some(Aff::constant(i128::from(self.cond(st, e)?)))
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(st, a)?;
                let y = self.eval(st, b)?;
                if let (Some(p), Some(q)) = (x.as_const(), y.as_const()) {
                    let r = match op {
                        BinOp::Shl | BinOp::Shr => semantics::shift(*op, ty, p, q),
                        _ => semantics::arith(*op, ty, p, q),
                    };
                    return r.ok().map(Aff::constant);
                }
                let r = match op {
                    BinOp::Add => x.add(&y)?,
                    BinOp::Sub => x.sub(&y)?,
                    BinOp::Mul => match (x.as_const(), y.as_const()) {
                        (Some(k), _) => y.scale(k)?,
                        (_, Some(k)) => x.scale(k)?,
                        _ => return None,
                    },
                    BinOp::Shl => match y.as_const() {
                        Some(k) if (0..i128::from(ty.bits())).contains(&k) => {
                            x.scale(1i128 << k)?
                        }
                        _ => return None,
                    },
                    _ => return None,
                };
                self.wrapped(r, ty)
            }
            ExprKind::Ite(c, a, b) => {
                if self.cond(st, c)? {
                    self.eval(st, a)
                } else {
                    self.eval(st, b)
                }
            }
        }
    }

    /// A result of type `ty`: constants wrap, a changing value must stay in range.
    fn wrapped(&mut self, x: Aff, ty: IntType) -> Option<Aff> {
        match x.as_const() {
            Some(c) => Some(Aff::constant(ty.wrap(c))),
            None => {
                self.range(&x, ty)?;
                Some(x)
            }
        }
    }
}

/// The count of an inner loop as an affine form in the outer counters, from the atom that
/// ends it at `k0` (`None` where the count is not affine: a step other than ±1 over a changing
/// bound).
fn count_form(a: &Atom, i: Param, k0: i128) -> Option<Aff> {
    let alpha = a.a.without(i);
    let beta = a.a.coeff(i);
    if alpha.as_const().is_some() {
        return Some(Aff::constant(k0));
    }
    match (a.rel, beta) {
        (Rel::Lt, 1) | (Rel::Ne, 1) => alpha.neg(),
        (Rel::Le, 1) => alpha.neg()?.add_const(1),
        (Rel::Ne, -1) => Some(alpha),
        (Rel::Eq, _) => Some(Aff::constant(1)),
        _ => None,
    }
}

//! Places (lvalues) and values of every type: a scalar variable not in memory, or memory at
//! an address (constant, resolved to a cell; or dynamic, lowered as a pending memory
//! operation, [`crate::frontend::memory`]); member access, indexing, dereference, address-of
//! and pointer arithmetic.

use crate::cfa::{EdgeKind, Rhs, Ub};
use crate::diag::Span;
use crate::frontend::builder::FnBuilder;
use crate::frontend::objects::{address, linear, MemOp, ObjId, Pending, MAX_OBJECT_BYTES};
use crate::frontend::scope::Binding;
use crate::frontend::value::{add_addr, Place, Val};

use crate::frontend::types::{CType, RecordId, POINTER_INT};
use crate::ir::{BinOp, Expr, ExprKind, IntType};

impl FnBuilder<'_, '_> {
    /// The place a name denotes.
    pub fn place_of_name(&mut self, name: &str, span: Span) -> Option<Place> {
        match self.lookup(name) {
            Some(Binding::Var(v, ty)) => {
                if self.func.is_none() && self.lw.vars[v.0 as usize].function.is_none() {
                    self.error(span, format!("'{name}' is not a constant"));
                    return None;
                }
                Some(Place::Var(v, ty))
            }
            Some(Binding::Object(o)) => {
                // Its address is a constant (also in a global initializer); reading it is
                // not, which the initializer's check reports.
                let obj = self.lw.object(o);
                Some(Place::Mem {
                    addr: address(obj.base),
                    ty: obj.ty.clone(),
                    obj: Some(o),
                    member: None,
                })
            }
            Some(Binding::Const(..)) => {
                self.error(span, format!("'{name}' is not an lvalue"));
                None
            }
            Some(Binding::Function) => {
                self.error(
                    span,
                    format!(
                        "function '{name}' used as a value (function pointers are not supported)"
                    ),
                );
                None
            }
            Some(Binding::Unsupported(what)) => {
                self.error(
                    span,
                    format!("{what} are not supported (variable '{name}')"),
                );
                None
            }
            None => {
                self.error(span, format!("use of undeclared identifier '{name}'"));
                None
            }
        }
    }

    /// The object and offset of a constant address (in `obj` when given, else in any
    /// object).
    pub(crate) fn resolve(&self, addr: &Expr, obj: Option<ObjId>) -> Option<(ObjId, u64)> {
        let a = u64::try_from(addr.as_const()?).ok()?;
        let find = |o: ObjId| {
            let ob = self.lw.object(o);
            (a >= ob.base && a < ob.base + ob.size).then_some((o, a - ob.base))
        };
        match obj {
            Some(o) => find(o),
            None => (0..self.lw.objects.len() as u32)
                .map(crate::frontend::objects::ObjId)
                .find_map(find),
        }
    }

    /// A fresh location reached by the pending operation `op` from the current one.
    pub(crate) fn pending(&mut self, op: MemOp, span: Span) {
        let Some(function) = self.func else {
            self.error(span, "expression is not a constant");
            return;
        };
        let to = self.new_node();
        let text = self.stmt_text.clone().unwrap_or_default();
        self.lw.pending.push(Pending {
            from: self.cur,
            to,
            function,
            op,
            span,
            text,
        });
        self.cur = to;
    }

    /// Continues at the undefined-behaviour location `ub` (the rest is dead).
    pub(crate) fn undefined(&mut self, ub: Ub, span: Span) {
        if let Some(f) = self.func {
            let n = self.lw.ub_node(f, ub);
            self.edge_to(n, EdgeKind::Blank("undefined behaviour".into()), span);
            self.dead();
        }
    }

    /// An expression usable twice without changing (a constant or a temporary): `e` itself,
    /// or a temporary assigned it.
    pub fn stable(&mut self, e: Expr, span: Span) -> Expr {
        match &e.kind {
            ExprKind::Const(_) => e,
            ExprKind::Var(v) if self.lw.vars[v.0 as usize].synthetic => e,
            _ => self.pinned(e, span),
        }
    }

    /// `e` usable across the edges of one memory operation: itself when it reads no memory
    /// (a memory operation changes cells only; `a[i]` keeps `i` in its labels and its
    /// index tests), else a temporary assigned it.
    pub fn memory_stable(&mut self, e: Expr, span: Span) -> Expr {
        let mut reads_memory = false;
        e.for_each_var(&mut |v| reads_memory |= self.lw.memory_vars.contains(&v));
        if reads_memory {
            self.pinned(e, span)
        } else {
            e
        }
    }

    pub(crate) fn pinned(&mut self, e: Expr, span: Span) -> Expr {
        match &e.kind {
            ExprKind::Const(_) => e,
            ExprKind::Var(v) if self.lw.vars[v.0 as usize].synthetic => e,
            _ => {
                let t = self.new_tmp(e.ty);
                self.emit(
                    EdgeKind::Assign {
                        lhs: t,
                        rhs: Rhs::Expr(e.clone()),
                    },
                    span,
                );
                Expr::var(t, e.ty)
            }
        }
    }

    /// Reads the scalar at `addr` (access type `ty`).
    pub(crate) fn mem_read(
        &mut self,
        addr: Expr,
        ty: IntType,
        obj: Option<ObjId>,
        member: Option<(RecordId, u64)>,
        span: Span,
    ) -> Expr {
        if let Some((o, off)) = self.resolve(&addr, obj) {
            return match self.lw.cell_at(o, off, ty) {
                Some((v, t)) => Expr::var(v, t).convert(ty),
                None => {
                    self.undefined(Ub::InvalidAccess, span);
                    Expr::constant(ty, 0)
                }
            };
        }
        if addr.as_const().is_some() && obj.is_some() {
            // A constant address outside its object.
            self.undefined(Ub::InvalidAccess, span);
            return Expr::constant(ty, 0);
        }
        let addr = self.memory_stable(addr, span);
        let dst = self.new_tmp(ty);
        self.pending(
            MemOp::Read {
                dst,
                addr,
                ty,
                obj,
                member,
            },
            span,
        );
        Expr::var(dst, ty)
    }

    /// Writes the scalar `value` at `addr` (access type `ty`).
    pub(crate) fn mem_write(
        &mut self,
        addr: Expr,
        value: Expr,
        ty: IntType,
        obj: Option<ObjId>,
        member: Option<(RecordId, u64)>,
        span: Span,
    ) {
        if let Some((o, off)) = self.resolve(&addr, obj) {
            if self.lw.object(o).readonly {
                self.undefined(Ub::InvalidAccess, span);
                return;
            }
            match self.lw.cell_at(o, off, ty) {
                Some((v, t)) => self.emit(
                    EdgeKind::Assign {
                        lhs: v,
                        rhs: Rhs::Expr(value.convert(t)),
                    },
                    span,
                ),
                None => self.undefined(Ub::InvalidAccess, span),
            }
            return;
        }
        let addr = self.memory_stable(addr, span);
        let value = self.memory_stable(value.convert(ty), span);
        self.pending(
            MemOp::Write {
                addr,
                value,
                ty,
                obj,
                member,
            },
            span,
        );
    }

    /// The value stored at a place: a scalar's value, or for an array a pointer to its first
    /// element. A struct or union has no scalar value.
    pub fn load(&mut self, p: &Place, span: Span) -> Option<Val> {
        match p {
            Place::Var(v, ty) => Some(Val {
                e: Expr::var(*v, self.lw.vars[v.0 as usize].ty),
                ty: ty.clone(),
                obj: None,
            }),
            Place::Mem {
                addr,
                ty,
                obj,
                member,
            } => match ty {
                CType::Array(elem, _) => Some(Val {
                    e: addr.clone(),
                    ty: CType::Pointer(elem.clone()),
                    obj: *obj,
                }),
                CType::Int(_) | CType::Pointer(_) => {
                    let t = ty.scalar().unwrap_or(POINTER_INT);
                    let e = self.mem_read(addr.clone(), t, *obj, *member, span);
                    Some(Val {
                        e,
                        ty: ty.clone(),
                        obj: None,
                    })
                }
                CType::Record(_) => {
                    self.error(
                        span,
                        "a struct or union is used where a scalar value is needed",
                    );
                    None
                }
                other => {
                    self.error(
                        span,
                        format!("a value of type {} cannot be used here", other.describe()),
                    );
                    None
                }
            },
        }
    }

    /// Stores the scalar `value` at a scalar place (converted to its type).
    pub fn store(&mut self, p: &Place, value: Expr, span: Span) {
        match p {
            Place::Var(v, _) => {
                let t = self.lw.vars[v.0 as usize].ty;
                self.emit(
                    EdgeKind::Assign {
                        lhs: *v,
                        rhs: Rhs::Expr(value.convert(t)),
                    },
                    span,
                );
            }
            Place::Mem {
                addr,
                ty,
                obj,
                member,
            } => match ty.scalar() {
                Some(t) => self.mem_write(addr.clone(), value, t, *obj, *member, span),
                None => self.error(
                    span,
                    format!(
                        "cannot assign a scalar to a value of type {}",
                        ty.describe()
                    ),
                ),
            },
        }
    }

    /// Copies a whole value (struct assignment, passing by value), cell by cell: every cell
    /// is read before any is written.
    pub fn copy(&mut self, dst: &Place, src: &Place, span: Span) {
        let ty = dst.ty().clone();
        if ty.is_scalar() {
            if let Some(v) = self.load(src, span) {
                self.store(dst, v.e, span);
            }
            return;
        }
        let (
            Place::Mem {
                addr: da,
                obj: dobj,
                member: dm,
                ..
            },
            Place::Mem {
                addr: sa,
                obj: sobj,
                member: sm,
                ..
            },
        ) = (dst, src)
        else {
            self.error(span, "a struct or union must be in memory");
            return;
        };
        let Some(cells) = self.lw.records.cells(&ty) else {
            self.error(
                span,
                format!("cannot copy a value of type {}", ty.describe()),
            );
            return;
        };
        let da = self.memory_stable(da.clone(), span);
        let sa = self.memory_stable(sa.clone(), span);
        // Each cell is a member of the record copied (or of the record it is in).
        let member_of = |m: &Option<(RecordId, u64)>, off: u64| match (m, &ty) {
            (Some((r, o)), _) => Some((*r, o + off)),
            (None, CType::Record(r)) => Some((*r, off)),
            _ => None,
        };
        let mut values = Vec::new();
        for c in &cells {
            let off = Expr::constant(POINTER_INT, c.offset as i128);
            let m = member_of(sm, c.offset);
            let v = self.mem_read(add_addr(sa.clone(), off), c.ty, *sobj, m, span);
            values.push(self.stable(v, span));
        }
        for (c, v) in cells.iter().zip(values) {
            let off = Expr::constant(POINTER_INT, c.offset as i128);
            let m = member_of(dm, c.offset);
            self.mem_write(add_addr(da.clone(), off), v, c.ty, *dobj, m, span);
        }
    }

    /// `&place`.
    pub fn address_of(&mut self, p: &Place, span: Span) -> Option<Val> {
        match p {
            Place::Mem { addr, ty, obj, .. } => Some(Val {
                e: addr.clone(),
                ty: CType::Pointer(Box::new(ty.clone())),
                obj: *obj,
            }),
            Place::Var(v, _) => {
                let name = self.lw.vars[v.0 as usize].name.clone();
                self.error(
                    span,
                    format!("cannot take the address of '{name}' (not in memory)"),
                );
                None
            }
        }
    }

    /// The place `*v` for a pointer value.
    pub fn deref(&mut self, v: Val, span: Span) -> Option<Place> {
        let ty = match &v.ty {
            CType::Pointer(t) => (**t).clone(),
            other => {
                self.error(
                    span,
                    format!("the operand of '*' is not a pointer ({})", other.describe()),
                );
                return None;
            }
        };
        if ty == CType::Void {
            self.error(span, "a 'void *' pointer cannot be dereferenced");
            return None;
        }
        Some(Place::Mem {
            addr: v.e.convert(POINTER_INT),
            ty,
            obj: v.obj,
            member: None,
        })
    }

    /// The member `name` of a struct or union place.
    pub fn member(&mut self, p: Place, name: &str, span: Span) -> Option<Place> {
        let CType::Record(r) = p.ty().clone() else {
            self.error(
                span,
                format!("'.{name}' of a value that is not a struct or union"),
            );
            return None;
        };
        let Some((fty, off)) = self.lw.records.field(r, name) else {
            let what = self.lw.records.get(r).describe();
            self.error(span, format!("{what} has no member '{name}'"));
            return None;
        };
        match p {
            Place::Mem {
                addr, obj, member, ..
            } => Some(Place::Mem {
                addr: add_addr(addr, Expr::constant(POINTER_INT, off as i128)),
                ty: fty,
                obj,
                // The outermost record accessed through the pointer.
                member: Some(match member {
                    Some((outer, o)) => (outer, o + off),
                    None => (r, off),
                }),
            }),
            Place::Var(..) => {
                self.error(span, "a struct or union must be in memory");
                None
            }
        }
    }

    /// `p + i` (or `p - i`) for a pointer `p` and an integer `i`: the address moves by
    /// `i` elements. C allows the result only within `p`'s object or one past its end:
    /// where the object and `p`'s offset in it are known, that is checked exactly
    /// (`0 <= i && i <= 4` for `a + i`, `int a[4]`); elsewhere the move is checked to be
    /// less than [`MAX_OBJECT_BYTES`], so that the address cannot reach another object
    /// and an access there fails its own check. A failed check is undefined behaviour.
    pub fn ptr_offset(&mut self, p: Val, i: Expr, sub: bool, span: Span) -> Option<Val> {
        self.ptr_offset_as(p, i, sub, true, span)
    }

    /// [`FnBuilder::ptr_offset`]; without its check when `checked` is false (an index whose
    /// access is checked exactly by its own index test).
    pub fn ptr_offset_as(
        &mut self,
        p: Val,
        i: Expr,
        sub: bool,
        checked: bool,
        span: Span,
    ) -> Option<Val> {
        let elem = match &p.ty {
            CType::Pointer(t) => (**t).clone(),
            _ => return None,
        };
        let size = match elem {
            CType::Void => 1, // GNU: arithmetic on void * counts bytes
            ref t => match self.lw.records.size_of(t) {
                Some(s) => s,
                None => {
                    self.error(
                        span,
                        format!("pointer arithmetic on a pointer to {}", t.describe()),
                    );
                    return None;
                }
            },
        };
        let ity = IntType::common(i.ty, IntType::INT);
        let i = i.convert(ity);
        if checked {
            self.check_offset(&p, &i, size, sub, span);
        }
        // The offset in bytes as an address (modulo 2^32; the check rules out a wrap).
        let mut off = crate::frontend::arith::binary(
            BinOp::Mul,
            i.convert(POINTER_INT),
            Expr::constant(POINTER_INT, size as i128),
        );
        if sub {
            off = crate::frontend::arith::fold(Expr {
                ty: off.ty,
                kind: ExprKind::Unary(crate::ir::UnOp::Neg, Box::new(off)),
            });
        }
        Some(Val {
            e: add_addr(p.e, off),
            ty: p.ty,
            obj: p.obj,
        })
    }

    /// The check of `p ± i·size` ([`FnBuilder::ptr_offset`]).
    pub(crate) fn check_offset(&mut self, p: &Val, i: &Expr, size: u64, sub: bool, span: Span) {
        let size = size.max(1) as i128;
        // The object and `p`'s offset in it, when both are known.
        let known = p.obj.and_then(|o| {
            let ob = self.lw.object(o);
            let l = linear(&p.e.clone().convert(POINTER_INT))?;
            let off = l.c - i128::from(ob.base);
            (l.term.is_none() && (0..=ob.size as i128).contains(&off))
                .then_some((off, ob.size as i128))
        });
        // C makes a pointer beyond one past the end undefined, but like most verifiers the
        // model only needs addresses to stay unambiguous: a result within less than
        // MAX_OBJECT_BYTES of its object lies in no other object (objects are OBJECT_SPACING
        // apart), and every access through it is checked exactly.
        let slack = MAX_OBJECT_BYTES as i128 - 1;
        let (lo, hi) = match known {
            // off + sign·size·i in [-slack, object size + slack].
            Some((off, osize)) => {
                let (a, b) = if sub {
                    (off - osize - slack, off + slack)
                } else {
                    (-off - slack, osize - off + slack)
                };
                (div_ceil(a, size), b.div_euclid(size))
            }
            None => {
                let b = (MAX_OBJECT_BYTES as i128 - 1) / size;
                (-b, b)
            }
        };
        if let Some(k) = i.as_const() {
            if k < lo || k > hi {
                self.undefined(Ub::PointerArithmetic, span);
            }
            return;
        }
        let (min, max) = (i.ty.min_value(), i.ty.max_value());
        let mut conds = Vec::new();
        if lo > min {
            conds.push(cmp(BinOp::Le, Expr::constant(i.ty, lo.min(max)), i.clone()));
        }
        if hi < max {
            conds.push(cmp(BinOp::Le, i.clone(), Expr::constant(i.ty, hi.max(min))));
        }
        if lo > max || hi < min || lo > hi {
            self.undefined(Ub::PointerArithmetic, span);
            return;
        }
        if let Some(cond) = conds.into_iter().reduce(|a, b| Expr {
            ty: IntType::INT,
            kind: ExprKind::Binary(BinOp::LogAnd, Box::new(a), Box::new(b)),
        }) {
            self.check(cond, Ub::PointerArithmetic, span);
        }
    }

    /// Continues where `cond` holds; where it does not, the path goes to the location of the
    /// undefined behaviour `ub`.
    pub fn check(&mut self, cond: Expr, ub: Ub, span: Span) {
        let Some(f) = self.func else {
            return;
        };
        let bad = self.lw.ub_node(f, ub);
        let ok = self.new_node();
        let text = self.stmt_text.clone();
        for (to, truth) in [(ok, true), (bad, false)] {
            let e = self.lw.add_edge(
                self.cur,
                to,
                EdgeKind::Assume {
                    cond: cond.clone(),
                    truth,
                },
                span,
            );
            self.lw.edges[e.0 as usize].text = text.clone();
        }
        self.cur = ok;
    }

    /// `&place`: for an element of a known object, the check that the address is within it
    /// or one past its end (an index into an array is checked only where it is accessed).
    pub fn checked_address(&mut self, p: &Place, span: Span) -> Option<Val> {
        let v = self.address_of(p, span)?;
        if let (Some(o), Some(l)) = (v.obj, linear(&v.e)) {
            if let Some((x, s)) = &l.term {
                let ob = self.lw.object(o);
                let (base, osize) = (i128::from(ob.base), ob.size as i128);
                let c = l.c - base;
                // c + s·x in [0, object size], for a positive scale.
                if *s > 0 && *s < (1i128 << 31) && (0..=osize).contains(&c) {
                    let (lo, hi) = (div_ceil(-c, *s), (osize - c).div_euclid(*s));
                    let x = x.clone();
                    let cond = Expr {
                        ty: IntType::INT,
                        kind: ExprKind::Binary(
                            BinOp::LogAnd,
                            Box::new(cmp(BinOp::Le, Expr::constant(x.ty, lo), x.clone())),
                            Box::new(cmp(BinOp::Le, x.clone(), Expr::constant(x.ty, hi))),
                        ),
                    };
                    if x.ty.contains(lo) && x.ty.contains(hi) {
                        self.check(cond, Ub::PointerArithmetic, span);
                    }
                }
            }
        }
        Some(v)
    }

    /// `p - q` for two pointers to elements of one array: the number of elements between
    /// them (`int`, ptrdiff_t in ILP32).
    pub fn ptr_diff(&mut self, p: Val, q: Val, span: Span) -> Option<Val> {
        let size = match p.ty.pointee().and_then(|t| self.lw.records.size_of(t)) {
            Some(s) => s,
            None => {
                self.error(span, "subtraction of pointers to elements of unknown size");
                return None;
            }
        };
        let diff = Expr {
            ty: POINTER_INT,
            kind: ExprKind::Binary(
                BinOp::Sub,
                Box::new(p.e.convert(POINTER_INT)),
                Box::new(q.e.convert(POINTER_INT)),
            ),
        }
        .convert(IntType::INT);
        Some(Val::int(crate::frontend::arith::binary(
            BinOp::Div,
            diff,
            Expr::constant(IntType::INT, size as i128),
        )))
    }
}

/// `a op b` (a comparison, `int`).
fn cmp(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr {
        ty: IntType::INT,
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -((-a).div_euclid(b))
}

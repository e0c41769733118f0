//! Expressions: pure parts become typed [`Expr`]s with every implicit conversion explicit; side
//! effects (assignments, `++`, calls, nondet values, memory accesses at dynamic addresses)
//! become edges before the use, through temporaries where a value is needed, and
//! short-circuit operators with side effects become control flow. Values of every type
//! ([`Val`]: integers, pointers, arrays decaying to pointers) go through places
//! ([`crate::frontend::place`]).

use crate::cfa::{EdgeKind, Rhs};
use crate::diag::Span;
use crate::frontend::arith::{
    arith_op, as_condition, binary, fold, has_call, has_side_effects, is_assignment,
    unsupported_expression,
};
use crate::frontend::builder::FnBuilder;
use crate::frontend::value::{Place, Val, Want};

use crate::frontend::types::{self, CType, POINTER_INT};
use crate::ir::semantics;
use crate::ir::{BinOp, Expr, ExprKind, IntType, UnOp};
use lang_c::ast::{BinaryOperator, Expression, MemberOperator, UnaryOperator};
use lang_c::span::Node as AstNode;

impl FnBuilder<'_, '_> {
    /// Checks that `e` is a constant and returns its value.
    pub fn fold_constant(&mut self, e: &Expr, span: Span) -> Option<(i128, IntType)> {
        match semantics::eval_const(e) {
            Ok(v) => Some((v, e.ty)),
            Err(err) => {
                self.error(span, format!("not an integer constant expression: {err}"));
                None
            }
        }
    }

    /// Runs `f` without keeping what it emits (edges, locations, variables, objects,
    /// diagnostics): the type of an expression for `sizeof`.
    pub fn dry<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let lw = &self.lw;
        let saved = (
            lw.vars.len(),
            lw.nodes.len(),
            lw.edges.len(),
            lw.pending.len(),
            lw.objects.len(),
            lw.errors.len(),
            lw.warnings.len(),
            lw.global_inits.len(),
        );
        let (cur, tmps) = (self.cur, self.tmp_count);
        let r = f(self);
        let lw = &mut self.lw;
        lw.vars.truncate(saved.0);
        lw.nodes.truncate(saved.1);
        lw.edges.truncate(saved.2);
        lw.pending.truncate(saved.3);
        lw.objects.truncate(saved.4);
        lw.errors.truncate(saved.5);
        lw.warnings.truncate(saved.6);
        lw.global_inits.truncate(saved.7);
        lw.pointer_vars.retain(|v| (v.0 as usize) < saved.0);
        lw.memory_vars.retain(|v| (v.0 as usize) < saved.0);
        lw.ub_nodes.retain(|_, n| (n.0 as usize) < saved.1);
        self.cur = cur;
        self.tmp_count = tmps;
        r
    }

    /// The type of `e` (before arrays decay), without evaluating it.
    pub fn type_of(&mut self, e: &AstNode<Expression>) -> Option<CType> {
        self.dry(|b| {
            let lvalue = matches!(
                e.node,
                Expression::Identifier(_)
                    | Expression::Member(_)
                    | Expression::StringLiteral(_)
            ) || matches!(&e.node, Expression::BinaryOperator(x) if x.node.operator.node == BinaryOperator::Index)
                || matches!(&e.node, Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection);
            if lvalue {
                if let Expression::Identifier(id) = &e.node {
                    if let Some(crate::frontend::scope::Binding::Const(_, t)) = b.lookup(&id.node.name) {
                        return Some(CType::Int(t));
                    }
                }
                b.place(e).map(|p| p.ty().clone())
            } else {
                b.value(e).map(|v| v.ty)
            }
        })
    }

    /// The value of `e` as a scalar expression (an integer, or a pointer's address).
    pub fn rvalue(&mut self, e: &AstNode<Expression>) -> Option<Expr> {
        let v = self.value(e)?;
        if matches!(v.ty, CType::Record(_)) {
            let span = self.span(e.span);
            self.error(
                span,
                "a struct or union is used where a scalar value is needed",
            );
            return None;
        }
        Some(v.e)
    }

    /// The place an lvalue expression denotes.
    pub fn place(&mut self, e: &AstNode<Expression>) -> Option<Place> {
        let span = self.span(e.span);
        match &e.node {
            Expression::Identifier(id) => self.place_of_name(&id.node.name, span),
            Expression::Member(m) => {
                let base = match m.node.operator.node {
                    MemberOperator::Direct => self.place(&m.node.expression)?,
                    MemberOperator::Indirect => {
                        let p = self.value(&m.node.expression)?;
                        self.deref(p, span)?
                    }
                };
                self.member(base, &m.node.identifier.node.name, span)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let a = self.value(&b.node.lhs)?;
                let i = self.value(&b.node.rhs)?;
                // `i[a]` is `a[i]`.
                let (ptr, idx) = if a.ty.is_pointer() { (a, i) } else { (i, a) };
                if !ptr.ty.is_pointer() {
                    self.error(span, "the subscripted value is not an array or a pointer");
                    return None;
                }
                if !matches!(idx.ty, CType::Int(_)) {
                    self.error(span, "an array index must be an integer");
                    return None;
                }
                // An element of a known object at a constant address (`a[i]`, `s.r[i]`) is
                // checked where it is accessed, exactly by its index; a row of a
                // multi-dimensional array and any other pointer here.
                let exact = ptr.obj.is_some()
                    && ptr.e.as_const().is_some()
                    && !matches!(ptr.ty.pointee(), Some(CType::Array(..)));
                let at = self.ptr_offset_as(ptr, idx.e, false, !exact, span)?;
                self.deref(at, span)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let p = self.value(&u.node.operand)?;
                self.deref(p, span)
            }
            Expression::StringLiteral(parts) => {
                let o = self.string_literal(&parts.node, span)?;
                let obj = self.lw.object(o);
                Some(Place::Mem {
                    addr: crate::frontend::objects::address(obj.base),
                    ty: obj.ty.clone(),
                    obj: Some(o),
                    member: None,
                })
            }
            Expression::Call(c) => {
                // A struct returned by value: its return cells.
                let v = self.call(c, span, Want::Value)?;
                match v.ty {
                    CType::Record(_) => self.returned_place(c, span),
                    _ => {
                        self.error(span, "a function's value is not an lvalue");
                        None
                    }
                }
            }
            Expression::Statement(_) | Expression::Comma(_) | Expression::Conditional(_) => {
                self.error(span, "this expression is not an lvalue");
                None
            }
            _ => {
                self.error(
                    span,
                    "the target of an assignment must be a variable or an object in memory",
                );
                None
            }
        }
    }

    /// The value of `e`: an integer or a pointer (arrays decay to pointers to their first
    /// element; a struct or union value is only usable by places, [`Self::place`]).
    pub fn value(&mut self, e: &AstNode<Expression>) -> Option<Val> {
        let span = self.span(e.span);
        if let Some(msg) = unsupported_expression(&e.node) {
            self.error(span, msg);
            return None;
        }
        match &e.node {
            Expression::Identifier(id) => {
                if let Some(crate::frontend::scope::Binding::Const(v, t)) =
                    self.lookup(&id.node.name)
                {
                    return Some(Val::int(Expr::constant(t, v)));
                }
                let p = self.place_of_name(&id.node.name, span)?;
                self.load_any(&p, span)
            }
            Expression::Constant(c) => match types::constant(&c.node) {
                Ok((v, t)) => Some(Val::int(Expr::constant(t, v))),
                Err(msg) => {
                    self.error(span, msg);
                    None
                }
            },
            Expression::StringLiteral(_) | Expression::Member(_) => {
                let p = self.place(e)?;
                self.load_any(&p, span)
            }
            Expression::Call(c) => self.call(c, span, Want::Value),
            Expression::UnaryOperator(u) => self.unary(u, span),
            Expression::Cast(c) => self.cast(c, span),
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if is_assignment(op) {
                    return self.assignment(b, span);
                }
                match op {
                    BinaryOperator::Index => {
                        let p = self.place(e)?;
                        self.load_any(&p, span)
                    }
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                        if has_side_effects(&b.node.rhs.node) =>
                    {
                        Some(Val::int(self.value_by_branches(e, span)))
                    }
                    _ => {
                        let l = self.value(&b.node.lhs)?;
                        let r = self.value(&b.node.rhs)?;
                        let op = arith_op(op)?;
                        self.arith(op, l, r, span)
                    }
                }
            }
            Expression::Conditional(c) => {
                let n = &c.node;
                if has_side_effects(&n.then_expression.node)
                    || has_side_effects(&n.else_expression.node)
                {
                    return self.conditional_by_branches(n, span);
                }
                let cond = self.rvalue(&n.condition)?;
                let a = self.value(&n.then_expression)?;
                let b = self.value(&n.else_expression)?;
                let (ty, obj) = self.common_type(&a, &b, span)?;
                let t = ty.scalar()?;
                Some(Val {
                    e: fold(Expr {
                        ty: t,
                        kind: ExprKind::Ite(
                            Box::new(as_condition(cond)),
                            Box::new(a.e.convert(t)),
                            Box::new(b.e.convert(t)),
                        ),
                    }),
                    ty,
                    obj,
                })
            }
            Expression::Comma(es) => {
                let (last, init) = es.split_last()?;
                for x in init {
                    self.effect(x);
                }
                self.value(last)
            }
            Expression::SizeOfTy(s) => {
                let ty = self.type_name(&s.node.0)?;
                self.size_of(&ty, span).map(Val::int)
            }
            Expression::SizeOfVal(s) => {
                let ty = self.type_of(&s.node.0)?;
                self.size_of(&ty, span).map(Val::int)
            }
            Expression::Statement(st) => self.statement_expression(st, span),
            // All remaining forms were rejected by `unsupported_expression`.
            _ => None,
        }
    }

    /// The value at a place of any type (a struct's value is its place, carried as a
    /// record-typed value with no expression of its own).
    pub(crate) fn load_any(&mut self, p: &Place, span: Span) -> Option<Val> {
        if let CType::Record(_) = p.ty() {
            let Place::Mem { addr, ty, obj, .. } = p else {
                return None;
            };
            return Some(Val {
                e: addr.clone(),
                ty: ty.clone(),
                obj: *obj,
            });
        }
        self.load(p, span)
    }

    /// The type of `c ? a : b` (and its provenance, when both agree).
    pub(crate) fn common_type(
        &mut self,
        a: &Val,
        b: &Val,
        span: Span,
    ) -> Option<(CType, Option<crate::frontend::objects::ObjId>)> {
        match (&a.ty, &b.ty) {
            (CType::Int(x), CType::Int(y)) => Some((CType::Int(IntType::common(*x, *y)), None)),
            (CType::Pointer(_), CType::Pointer(_)) => {
                Some((a.ty.clone(), if a.obj == b.obj { a.obj } else { None }))
            }
            (CType::Pointer(_), CType::Int(_)) => Some((a.ty.clone(), None)),
            (CType::Int(_), CType::Pointer(_)) => Some((b.ty.clone(), None)),
            _ => {
                self.error(span, "the branches of '?:' have incompatible types");
                None
            }
        }
    }

    /// `l op r` with C's conversions, pointer arithmetic and pointer comparisons.
    pub fn arith(&mut self, op: BinOp, l: Val, r: Val, span: Span) -> Option<Val> {
        let (lp, rp) = (l.ty.is_pointer(), r.ty.is_pointer());
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            return Some(Val::int(fold(binary(
                op,
                as_condition(l.e),
                as_condition(r.e),
            ))));
        }
        if lp || rp {
            return match op {
                BinOp::Add if lp && !rp => self.ptr_offset(l, r.e, false, span),
                BinOp::Add if rp && !lp => self.ptr_offset(r, l.e, false, span),
                BinOp::Sub if lp && !rp => self.ptr_offset(l, r.e, true, span),
                BinOp::Sub if lp && rp => self.ptr_diff(l, r, span),
                op if op.is_comparison() => Some(Val::int(binary(
                    op,
                    l.e.convert(POINTER_INT),
                    r.e.convert(POINTER_INT),
                ))),
                _ => {
                    self.error(
                        span,
                        format!("invalid operands to '{}' (a pointer)", op.symbol()),
                    );
                    None
                }
            };
        }
        if !matches!(l.ty, CType::Int(_)) || !matches!(r.ty, CType::Int(_)) {
            self.error(span, format!("invalid operands to '{}'", op.symbol()));
            return None;
        }
        Some(Val::int(binary(op, l.e, r.e)))
    }

    pub(crate) fn unary(
        &mut self,
        u: &AstNode<lang_c::ast::UnaryOperatorExpression>,
        span: Span,
    ) -> Option<Val> {
        let operand = &u.node.operand;
        match u.node.operator.node {
            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => {
                let add = matches!(u.node.operator.node, UnaryOperator::PostIncrement);
                let p = self.place(operand)?;
                if let Place::Var(v, ty) = &p {
                    // As before memory: the old value into a temporary, then the increment.
                    let t = self.lw.vars[v.0 as usize].ty;
                    let old = self.new_tmp(t);
                    self.emit(
                        EdgeKind::Assign {
                            lhs: old,
                            rhs: Rhs::Expr(Expr::var(*v, t)),
                        },
                        span,
                    );
                    let ty = ty.clone();
                    self.increment(&p, add, span);
                    return Some(Val {
                        e: Expr::var(old, t),
                        ty,
                        obj: None,
                    });
                }
                let p = self.memory_stable_place(p, span);
                let old = self.load(&p, span)?;
                let old_e = self.stable(old.e.clone(), span);
                let new = self.step_value(
                    Val {
                        e: old_e.clone(),
                        ..old.clone()
                    },
                    add,
                    span,
                )?;
                self.store(&p, new.e, span);
                Some(Val { e: old_e, ..old })
            }
            UnaryOperator::PreIncrement | UnaryOperator::PreDecrement => {
                let add = matches!(u.node.operator.node, UnaryOperator::PreIncrement);
                let p = self.place(operand)?;
                if let Place::Var(v, ty) = &p {
                    let ty = ty.clone();
                    let v = *v;
                    self.increment(&p, add, span);
                    return Some(Val {
                        e: Expr::var(v, self.lw.vars[v.0 as usize].ty),
                        ty,
                        obj: None,
                    });
                }
                let p = self.memory_stable_place(p, span);
                let old = self.load(&p, span)?;
                let new = self.step_value(old, add, span)?;
                let e = self.stable(new.e.clone(), span);
                self.store(&p, e.clone(), span);
                Some(Val { e, ..new })
            }
            UnaryOperator::Address => {
                // `&*p` is `p`.
                if let Expression::UnaryOperator(inner) = &operand.node {
                    if inner.node.operator.node == UnaryOperator::Indirection {
                        return self.value(&inner.node.operand);
                    }
                }
                let p = self.place(operand)?;
                self.checked_address(&p, span)
            }
            UnaryOperator::Indirection => {
                let v = self.value(operand)?;
                let p = self.deref(v, span)?;
                self.load_any(&p, span)
            }
            UnaryOperator::Plus => {
                let a = self.rvalue(operand)?;
                let t = a.ty.promote();
                Some(Val::int(a.convert(t)))
            }
            UnaryOperator::Minus | UnaryOperator::Complement => {
                let a = self.value(operand)?;
                if !matches!(a.ty, CType::Int(_)) {
                    self.error(
                        span,
                        "invalid operand (a pointer) to a unary arithmetic operator",
                    );
                    return None;
                }
                let a = a.e;
                let t = a.ty.promote();
                let op = if matches!(u.node.operator.node, UnaryOperator::Minus) {
                    UnOp::Neg
                } else {
                    UnOp::BitNot
                };
                Some(Val::int(fold(Expr {
                    ty: t,
                    kind: ExprKind::Unary(op, Box::new(a.convert(t))),
                })))
            }
            UnaryOperator::Negate => {
                let a = self.rvalue(operand)?;
                Some(Val::int(fold(Expr {
                    ty: IntType::INT,
                    kind: ExprKind::Unary(UnOp::LogNot, Box::new(a)),
                })))
            }
        }
    }

    pub(crate) fn cast(
        &mut self,
        c: &AstNode<lang_c::ast::CastExpression>,
        span: Span,
    ) -> Option<Val> {
        let ty = self.type_name(&c.node.type_name)?;
        match ty {
            CType::Int(t) => {
                let a = self.value(&c.node.expression)?;
                if matches!(a.ty, CType::Record(_)) {
                    self.error(span, "cannot cast a struct or union to an integer");
                    return None;
                }
                Some(Val::int(fold(Expr {
                    ty: t,
                    kind: ExprKind::Cast {
                        explicit: true,
                        operand: Box::new(a.e),
                    },
                })))
            }
            CType::Pointer(_) => {
                // malloc's result takes the type it is cast to.
                if let Expression::Call(call) = &c.node.expression.node {
                    if let Some(v) = self.allocation(call, Some(&ty), span) {
                        return v;
                    }
                }
                let a = self.value(&c.node.expression)?;
                if matches!(a.ty, CType::Record(_)) {
                    self.error(span, "cannot cast a struct or union to a pointer");
                    return None;
                }
                Some(Val {
                    e: fold(a.e.convert(POINTER_INT)),
                    ty,
                    obj: a.obj,
                })
            }
            CType::Void => {
                self.error(span, "a void value is used as a value");
                None
            }
            other => {
                self.error(
                    span,
                    format!("cast to {} is not supported", other.describe()),
                );
                None
            }
        }
    }

    pub(crate) fn size_of(&mut self, ty: &CType, span: Span) -> Option<Expr> {
        // size_t is unsigned int in ILP32.
        match self.lw.records.size_of(ty) {
            Some(s) => Some(Expr::constant(IntType::UINT, s as i128)),
            None => {
                self.error(
                    span,
                    format!("sizeof of {} is not supported", ty.describe()),
                );
                None
            }
        }
    }

    pub fn type_name(&mut self, tn: &AstNode<lang_c::ast::TypeName>) -> Option<CType> {
        let base = types::resolve_specifier_qualifiers(&tn.node.specifiers, self.lw);
        let ty = match &tn.node.declarator {
            Some(d) => self.lw.declarator_type(base, &d.node),
            None => base,
        };
        if let CType::Unsupported(what) = &ty {
            let sp = self.span(tn.span);
            self.error(sp, format!("{what} are not supported"));
            return None;
        }
        Some(ty)
    }

    /// A place whose address is a constant or a temporary, so that it can be read and
    /// written without evaluating its address twice.
    pub fn stable_place(&mut self, p: Place, span: Span) -> Place {
        match p {
            Place::Mem {
                addr,
                ty,
                obj,
                member,
            } => Place::Mem {
                addr: self.stable(addr, span),
                ty,
                obj,
                member,
            },
            v => v,
        }
    }

    /// A place whose address does not change when memory is written (`a[i]` stays `a[i]`,
    /// so that its index test reads `i`): enough for an assignment, whose right side may
    /// change the variables of the address only unsequenced (undefined) or in a call
    /// (either order is C's).
    pub fn memory_stable_place(&mut self, p: Place, span: Span) -> Place {
        match p {
            Place::Mem {
                addr,
                ty,
                obj,
                member,
            } => Place::Mem {
                addr: self.memory_stable(addr, span),
                ty,
                obj,
                member,
            },
            v => v,
        }
    }

    /// `v + 1` or `v - 1` (a pointer moves by one element).
    pub(crate) fn step_value(&mut self, v: Val, add: bool, span: Span) -> Option<Val> {
        if v.ty.is_pointer() {
            return self.ptr_offset(v, Expr::constant(IntType::INT, 1), !add, span);
        }
        let CType::Int(t) = v.ty else {
            self.error(span, "'++' and '--' need an integer or a pointer");
            return None;
        };
        let op = if add { BinOp::Add } else { BinOp::Sub };
        Some(Val::int(
            binary(op, v.e, Expr::constant(IntType::INT, 1)).convert(t),
        ))
    }

    /// `++` or `--` on a place.
    pub(crate) fn increment(&mut self, p: &Place, add: bool, span: Span) {
        if let Place::Var(v, CType::Int(_)) = p {
            // `v = v op 1`, computed in the promoted type.
            let t = self.lw.vars[v.0 as usize].ty;
            let op = if add { BinOp::Add } else { BinOp::Sub };
            let value = binary(op, Expr::var(*v, t), Expr::constant(IntType::INT, 1)).convert(t);
            self.emit(
                EdgeKind::Assign {
                    lhs: *v,
                    rhs: Rhs::Expr(value),
                },
                span,
            );
            return;
        }
        let p = self.memory_stable_place(p.clone(), span);
        let Some(old) = self.load(&p, span) else {
            return;
        };
        if let Some(new) = self.step_value(old, add, span) {
            self.store(&p, new.e, span);
        }
    }

    /// Lowers an assignment expression; its value is the value stored.
    pub(crate) fn assignment(
        &mut self,
        b: &AstNode<lang_c::ast::BinaryOperatorExpression>,
        span: Span,
    ) -> Option<Val> {
        let p = self.place(&b.node.lhs)?;
        let op = &b.node.operator.node;
        if let CType::Record(_) = p.ty() {
            if !matches!(op, BinaryOperator::Assign) {
                self.error(
                    span,
                    "invalid operands (a struct or union) to a compound assignment",
                );
                return None;
            }
            let src = self.place(&b.node.rhs)?;
            self.copy(&p, &src, span);
            return self.load_any(&p, span);
        }
        if matches!(op, BinaryOperator::Assign) {
            if let Place::Var(v, ty) = &p {
                let ty = ty.clone();
                let v = *v;
                self.assign_from(&p, &b.node.rhs, span);
                return Some(Val {
                    e: Expr::var(v, self.lw.vars[v.0 as usize].ty),
                    ty,
                    obj: None,
                });
            }
            let p = self.memory_stable_place(p, span);
            let r = self.assigned_value(p.ty(), &b.node.rhs, span)?;
            let e = self.stable(r.e.convert(p.ty().scalar()?), span);
            self.store(&p, e.clone(), span);
            return Some(Val {
                e,
                ty: p.ty().clone(),
                obj: r.obj,
            });
        }
        let bop = arith_op(op)?;
        if let Place::Var(v, CType::Int(_)) = &p {
            let v = *v;
            let t = self.lw.vars[v.0 as usize].ty;
            let r = self.rvalue(&b.node.rhs)?;
            let value = binary(bop, Expr::var(v, t), r).convert(t);
            self.emit(
                EdgeKind::Assign {
                    lhs: v,
                    rhs: Rhs::Expr(value),
                },
                span,
            );
            return Some(Val::int(Expr::var(v, t)));
        }
        // The place is read and written once: a call on the right must not move it.
        let p = if has_call(&b.node.rhs) {
            self.stable_place(p, span)
        } else {
            self.memory_stable_place(p, span)
        };
        let cur = self.load(&p, span)?;
        let r = self.value(&b.node.rhs)?;
        let new = self.arith(bop, cur, r, span)?;
        let t = p.ty().scalar()?;
        let e = self.stable(new.e.convert(t), span);
        self.store(&p, e.clone(), span);
        Some(Val {
            e,
            ty: p.ty().clone(),
            obj: new.obj,
        })
    }

    /// The value of `rhs` assigned to a place of type `ty` (an allocation takes the place's
    /// pointer type).
    pub fn assigned_value(
        &mut self,
        ty: &CType,
        rhs: &AstNode<Expression>,
        span: Span,
    ) -> Option<Val> {
        if let (CType::Pointer(_), Expression::Call(c)) = (ty, &rhs.node) {
            if let Some(v) = self.allocation(c, Some(ty), span) {
                return v;
            }
        }
        let v = self.value(rhs)?;
        if matches!(v.ty, CType::Record(_)) {
            self.error(span, "a struct or union is assigned to a scalar");
            return None;
        }
        Some(v)
    }

    /// `v = rhs` for a variable not in memory, writing call results and nondet values into
    /// it directly.
    pub(crate) fn assign_from(&mut self, p: &Place, rhs: &AstNode<Expression>, span: Span) {
        let Place::Var(v, ty) = p else { return };
        let v = *v;
        let t = self.lw.vars[v.0 as usize].ty;
        if let Expression::Call(c) = &rhs.node {
            if let Some(nty) = self.nondet_type_of(c) {
                if nty == t && !ty.is_pointer() {
                    let origin = self.call_text(c);
                    self.emit(
                        EdgeKind::Assign {
                            lhs: v,
                            rhs: Rhs::Nondet { ty: nty, origin },
                        },
                        span,
                    );
                    return;
                }
            } else if self.is_user_call(c) && !self.returns_record(c) {
                self.call(c, span, Want::Into(p.clone()));
                return;
            }
        }
        if let Some(r) = self.assigned_value(ty, rhs, span) {
            self.emit(
                EdgeKind::Assign {
                    lhs: v,
                    rhs: Rhs::Expr(r.e.convert(t)),
                },
                span,
            );
        }
    }
}

//! Expressions: pure parts become typed [`Expr`]s with every implicit conversion explicit; side
//! effects (assignments, `++`, calls, nondet values) become edges before the use, through
//! temporaries where a value is needed, and short-circuit operators with side effects become
//! control flow.

use crate::cfa::{EdgeKind, NodeId, Rhs};
use crate::diag::Span;
use crate::frontend::builtins::{builtin, Builtin};
use crate::frontend::scope::Binding;
use crate::frontend::stmt::FnBuilder;
use crate::frontend::types::{self, CType};
use crate::ir::semantics;
use crate::ir::{BinOp, Expr, ExprKind, IntType, UnOp, VarId};
use lang_c::ast::{BinaryOperator, CallExpression, Expression, UnaryOperator};
use lang_c::span::Node as AstNode;

/// What a call's result is used for.
#[derive(Clone, Copy)]
pub(crate) enum Want {
    Discard,
    Into(VarId),
    Value,
}

fn arith_op(op: &BinaryOperator) -> Option<BinOp> {
    Some(match op {
        BinaryOperator::Multiply | BinaryOperator::AssignMultiply => BinOp::Mul,
        BinaryOperator::Divide | BinaryOperator::AssignDivide => BinOp::Div,
        BinaryOperator::Modulo | BinaryOperator::AssignModulo => BinOp::Rem,
        BinaryOperator::Plus | BinaryOperator::AssignPlus => BinOp::Add,
        BinaryOperator::Minus | BinaryOperator::AssignMinus => BinOp::Sub,
        BinaryOperator::ShiftLeft | BinaryOperator::AssignShiftLeft => BinOp::Shl,
        BinaryOperator::ShiftRight | BinaryOperator::AssignShiftRight => BinOp::Shr,
        BinaryOperator::Less => BinOp::Lt,
        BinaryOperator::Greater => BinOp::Gt,
        BinaryOperator::LessOrEqual => BinOp::Le,
        BinaryOperator::GreaterOrEqual => BinOp::Ge,
        BinaryOperator::Equals => BinOp::Eq,
        BinaryOperator::NotEquals => BinOp::Ne,
        BinaryOperator::BitwiseAnd | BinaryOperator::AssignBitwiseAnd => BinOp::BitAnd,
        BinaryOperator::BitwiseXor | BinaryOperator::AssignBitwiseXor => BinOp::BitXor,
        BinaryOperator::BitwiseOr | BinaryOperator::AssignBitwiseOr => BinOp::BitOr,
        BinaryOperator::LogicalAnd => BinOp::LogAnd,
        BinaryOperator::LogicalOr => BinOp::LogOr,
        BinaryOperator::Index | BinaryOperator::Assign => return None,
    })
}

fn is_assignment(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::Assign
            | BinaryOperator::AssignMultiply
            | BinaryOperator::AssignDivide
            | BinaryOperator::AssignModulo
            | BinaryOperator::AssignPlus
            | BinaryOperator::AssignMinus
            | BinaryOperator::AssignShiftLeft
            | BinaryOperator::AssignShiftRight
            | BinaryOperator::AssignBitwiseAnd
            | BinaryOperator::AssignBitwiseXor
            | BinaryOperator::AssignBitwiseOr
    )
}

/// Whether evaluating `e` can change the state or needs an edge (assignments, `++`/`--`,
/// calls including nondet and harness calls, statement expressions).
pub(crate) fn has_side_effects(e: &Expression) -> bool {
    match e {
        Expression::Identifier(_)
        | Expression::Constant(_)
        | Expression::StringLiteral(_)
        | Expression::SizeOfTy(_)
        | Expression::AlignOf(_)
        | Expression::OffsetOf(_) => false,
        Expression::SizeOfVal(_) => false, // the operand is not evaluated
        Expression::Call(_) | Expression::Statement(_) | Expression::VaArg(_) => true,
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement
                    | UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
            ) || has_side_effects(&u.node.operand.node)
        }
        Expression::Cast(c) => has_side_effects(&c.node.expression.node),
        Expression::BinaryOperator(b) => {
            is_assignment(&b.node.operator.node)
                || has_side_effects(&b.node.lhs.node)
                || has_side_effects(&b.node.rhs.node)
        }
        Expression::Conditional(c) => {
            has_side_effects(&c.node.condition.node)
                || has_side_effects(&c.node.then_expression.node)
                || has_side_effects(&c.node.else_expression.node)
        }
        Expression::Comma(es) => es.iter().any(|e| has_side_effects(&e.node)),
        Expression::Member(m) => has_side_effects(&m.node.expression.node),
        Expression::GenericSelection(_) | Expression::CompoundLiteral(_) => true,
    }
}

fn unsupported_expression(e: &Expression) -> Option<&'static str> {
    Some(match e {
        Expression::StringLiteral(_) => "string literals are not supported",
        Expression::Member(_) => "structs and unions are not supported",
        Expression::GenericSelection(_) => "_Generic is not supported",
        Expression::CompoundLiteral(_) => "compound literals are not supported",
        Expression::AlignOf(_) => "_Alignof is not supported",
        Expression::OffsetOf(_) => "offsetof is not supported",
        Expression::VaArg(_) => "variable arguments are not supported",
        Expression::Statement(_) => "statement expressions are not supported",
        _ => return None,
    })
}

/// Makes a value usable as a branch condition: comparisons and logical operators stay, any
/// other value `e` becomes `e != 0`.
pub(crate) fn as_condition(e: Expr) -> Expr {
    match &e.kind {
        ExprKind::Binary(op, _, _) if op.is_comparison() || op.is_logical() => e,
        ExprKind::Unary(UnOp::LogNot, _) => e,
        ExprKind::Const(v) => Expr::constant(IntType::INT, i128::from(*v != 0)),
        _ => {
            let zero = Expr::constant(e.ty, 0);
            Expr {
                ty: IntType::INT,
                kind: ExprKind::Binary(BinOp::Ne, Box::new(e), Box::new(zero)),
            }
        }
    }
}

/// Folds `e` when it is variable-free and its evaluation is defined.
fn fold(e: Expr) -> Expr {
    let foldable = match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Cast { operand: a, .. } => a.as_const().is_some(),
        ExprKind::Binary(_, a, b) => a.as_const().is_some() && b.as_const().is_some(),
        ExprKind::Ite(c, a, b) => {
            c.as_const().is_some() && a.as_const().is_some() && b.as_const().is_some()
        }
        _ => false,
    };
    if !foldable {
        return e;
    }
    match semantics::eval_const(&e) {
        Ok(v) => Expr::constant(e.ty, v),
        Err(_) => e,
    }
}

/// Builds `a op b` with C's conversions: usual arithmetic conversions for arithmetic,
/// bitwise and comparison operators, separate promotions for shifts.
pub(crate) fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    let e = if matches!(op, BinOp::Shl | BinOp::Shr) {
        let ta = a.ty.promote();
        let tb = b.ty.promote();
        Expr {
            ty: ta,
            kind: ExprKind::Binary(op, Box::new(a.convert(ta)), Box::new(b.convert(tb))),
        }
    } else if op.is_logical() {
        Expr {
            ty: IntType::INT,
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        }
    } else if op.is_comparison() {
        let t = IntType::common(a.ty, b.ty);
        Expr {
            ty: IntType::INT,
            kind: ExprKind::Binary(op, Box::new(a.convert(t)), Box::new(b.convert(t))),
        }
    } else {
        let t = IntType::common(a.ty, b.ty);
        Expr {
            ty: t,
            kind: ExprKind::Binary(op, Box::new(a.convert(t)), Box::new(b.convert(t))),
        }
    };
    fold(e)
}

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

    fn var_expr(&mut self, name: &str, span: Span) -> Option<Expr> {
        match self.lookup(name) {
            Some(Binding::Var(v)) => {
                if self.func.is_none() && self.lw.vars[v.0 as usize].function.is_none() {
                    self.error(span, format!("'{name}' is not a constant"));
                    return None;
                }
                Some(Expr::var(v, self.lw.vars[v.0 as usize].ty))
            }
            Some(Binding::Const(v, t)) => Some(Expr::constant(t, v)),
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

    /// The variable an assignment writes.
    fn lvalue(&mut self, e: &AstNode<Expression>) -> Option<VarId> {
        let span = self.span(e.span);
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Binding::Var(v)) => Some(v),
                Some(Binding::Const(..)) => {
                    self.error(
                        span,
                        format!("cannot assign to enumeration constant '{}'", id.node.name),
                    );
                    None
                }
                _ => {
                    // Reports why the name is not an assignable variable.
                    self.var_expr(&id.node.name, span);
                    None
                }
            },
            Expression::Member(_) => {
                self.error(span, "structs and unions are not supported");
                None
            }
            Expression::BinaryOperator(b)
                if matches!(b.node.operator.node, BinaryOperator::Index) =>
            {
                self.error(span, "arrays are not supported");
                None
            }
            Expression::UnaryOperator(u)
                if matches!(u.node.operator.node, UnaryOperator::Indirection) =>
            {
                self.error(span, "pointers are not supported");
                None
            }
            _ => {
                self.error(span, "the target of an assignment must be a variable");
                None
            }
        }
    }

    fn var_type(&self, v: VarId) -> IntType {
        self.lw.vars[v.0 as usize].ty
    }

    /// Lowers `e` for its value.
    pub fn rvalue(&mut self, e: &AstNode<Expression>) -> Option<Expr> {
        let span = self.span(e.span);
        if let Some(msg) = unsupported_expression(&e.node) {
            self.error(span, msg);
            return None;
        }
        match &e.node {
            Expression::Identifier(id) => self.var_expr(&id.node.name, span),
            Expression::Constant(c) => match types::constant(&c.node) {
                Ok((v, t)) => Some(Expr::constant(t, v)),
                Err(msg) => {
                    self.error(span, msg);
                    None
                }
            },
            Expression::Call(c) => self.call(c, span, Want::Value),
            Expression::UnaryOperator(u) => {
                let operand = &u.node.operand;
                match u.node.operator.node {
                    UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => {
                        let v = self.lvalue(operand)?;
                        let t = self.var_type(v);
                        let old = self.new_tmp(t);
                        self.emit(
                            EdgeKind::Assign {
                                lhs: old,
                                rhs: Rhs::Expr(Expr::var(v, t)),
                            },
                            span,
                        );
                        let op = if matches!(u.node.operator.node, UnaryOperator::PostIncrement) {
                            BinOp::Add
                        } else {
                            BinOp::Sub
                        };
                        self.increment(v, op, span);
                        Some(Expr::var(old, t))
                    }
                    UnaryOperator::PreIncrement | UnaryOperator::PreDecrement => {
                        let v = self.lvalue(operand)?;
                        let op = if matches!(u.node.operator.node, UnaryOperator::PreIncrement) {
                            BinOp::Add
                        } else {
                            BinOp::Sub
                        };
                        self.increment(v, op, span);
                        Some(Expr::var(v, self.var_type(v)))
                    }
                    UnaryOperator::Address | UnaryOperator::Indirection => {
                        self.error(span, "pointers are not supported");
                        None
                    }
                    UnaryOperator::Plus => {
                        let a = self.rvalue(operand)?;
                        let t = a.ty.promote();
                        Some(a.convert(t))
                    }
                    UnaryOperator::Minus | UnaryOperator::Complement => {
                        let a = self.rvalue(operand)?;
                        let t = a.ty.promote();
                        let op = if matches!(u.node.operator.node, UnaryOperator::Minus) {
                            UnOp::Neg
                        } else {
                            UnOp::BitNot
                        };
                        Some(fold(Expr {
                            ty: t,
                            kind: ExprKind::Unary(op, Box::new(a.convert(t))),
                        }))
                    }
                    UnaryOperator::Negate => {
                        let a = self.rvalue(operand)?;
                        Some(fold(Expr {
                            ty: IntType::INT,
                            kind: ExprKind::Unary(UnOp::LogNot, Box::new(a)),
                        }))
                    }
                }
            }
            Expression::Cast(c) => {
                let ty = self.type_name(&c.node.type_name)?;
                match ty {
                    CType::Int(t) => {
                        let a = self.rvalue(&c.node.expression)?;
                        Some(fold(Expr {
                            ty: t,
                            kind: ExprKind::Cast {
                                explicit: true,
                                operand: Box::new(a),
                            },
                        }))
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
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if is_assignment(op) {
                    let v = self.assignment(b, span)?;
                    return Some(Expr::var(v, self.var_type(v)));
                }
                match op {
                    BinaryOperator::Index => {
                        self.error(span, "arrays are not supported");
                        None
                    }
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                        if has_side_effects(&b.node.rhs.node) =>
                    {
                        Some(self.value_by_branches(e, span))
                    }
                    _ => {
                        let l = self.rvalue(&b.node.lhs)?;
                        let r = self.rvalue(&b.node.rhs)?;
                        let op = arith_op(op)?;
                        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
                            return Some(fold(binary(op, as_condition(l), as_condition(r))));
                        }
                        Some(binary(op, l, r))
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
                let a = self.rvalue(&n.then_expression)?;
                let b = self.rvalue(&n.else_expression)?;
                let t = IntType::common(a.ty, b.ty);
                Some(fold(Expr {
                    ty: t,
                    kind: ExprKind::Ite(
                        Box::new(as_condition(cond)),
                        Box::new(a.convert(t)),
                        Box::new(b.convert(t)),
                    ),
                }))
            }
            Expression::Comma(es) => {
                let (last, init) = es.split_last()?;
                for x in init {
                    self.effect(x);
                }
                self.rvalue(last)
            }
            Expression::SizeOfTy(s) => {
                let ty = self.type_name(&s.node.0)?;
                self.size_of(&ty, span)
            }
            Expression::SizeOfVal(s) => {
                if has_side_effects(&s.node.0.node) {
                    self.error(
                        span,
                        "sizeof of an expression with side effects is not supported",
                    );
                    return None;
                }
                let a = self.rvalue(&s.node.0)?;
                self.size_of(&CType::Int(a.ty), span)
            }
            // All remaining forms were rejected by `unsupported_expression`.
            _ => None,
        }
    }

    fn size_of(&mut self, ty: &CType, span: Span) -> Option<Expr> {
        match ty {
            // size_t is unsigned int in ILP32.
            CType::Int(t) => Some(Expr::constant(
                IntType::UINT,
                i128::from(t.bits().div_ceil(8)),
            )),
            other => {
                self.error(
                    span,
                    format!("sizeof of {} is not supported", other.describe()),
                );
                None
            }
        }
    }

    fn type_name(&mut self, tn: &AstNode<lang_c::ast::TypeName>) -> Option<CType> {
        let mut enums = Vec::new();
        let base = types::resolve_specifier_qualifiers(&tn.node.specifiers, self.lw, &mut |e| {
            enums.push(e.clone())
        });
        for e in enums {
            self.lw.register_enum(&e, None);
        }
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

    /// `v = v op 1` for `++`/`--`, computed in the promoted type.
    fn increment(&mut self, v: VarId, op: BinOp, span: Span) {
        let t = self.var_type(v);
        let value = binary(op, Expr::var(v, t), Expr::constant(IntType::INT, 1)).convert(t);
        self.emit(
            EdgeKind::Assign {
                lhs: v,
                rhs: Rhs::Expr(value),
            },
            span,
        );
    }

    /// Lowers an assignment expression and returns the variable written.
    fn assignment(
        &mut self,
        b: &AstNode<lang_c::ast::BinaryOperatorExpression>,
        span: Span,
    ) -> Option<VarId> {
        let v = self.lvalue(&b.node.lhs)?;
        let t = self.var_type(v);
        let op = &b.node.operator.node;
        if matches!(op, BinaryOperator::Assign) {
            self.assign_from(v, &b.node.rhs, span);
        } else {
            let r = self.rvalue(&b.node.rhs)?;
            let bop = arith_op(op)?;
            let value = binary(bop, Expr::var(v, t), r).convert(t);
            self.emit(
                EdgeKind::Assign {
                    lhs: v,
                    rhs: Rhs::Expr(value),
                },
                span,
            );
        }
        Some(v)
    }

    /// `v = rhs`, writing call results and nondet values into `v` directly.
    fn assign_from(&mut self, v: VarId, rhs: &AstNode<Expression>, span: Span) {
        let t = self.var_type(v);
        if let Expression::Call(c) = &rhs.node {
            if let Some(ty) = self.nondet_type_of(c) {
                if ty == t {
                    let origin = self.call_text(c);
                    self.emit(
                        EdgeKind::Assign {
                            lhs: v,
                            rhs: Rhs::Nondet { ty, origin },
                        },
                        span,
                    );
                    return;
                }
            } else if self.is_user_call(c) {
                self.call(c, span, Want::Into(v));
                return;
            }
        }
        if let Some(r) = self.rvalue(rhs) {
            self.emit(
                EdgeKind::Assign {
                    lhs: v,
                    rhs: Rhs::Expr(r.convert(t)),
                },
                span,
            );
        }
    }

    /// `T v = init;` as declaration edges.
    pub fn declare_with_init(
        &mut self,
        v: VarId,
        t: IntType,
        init: &AstNode<Expression>,
        span: Span,
    ) {
        if let Expression::Call(c) = &init.node {
            if let Some(ty) = self.nondet_type_of(c) {
                if ty == t {
                    let origin = self.call_text(c);
                    self.emit(
                        EdgeKind::Declare {
                            var: v,
                            init: Some(Rhs::Nondet { ty, origin }),
                        },
                        span,
                    );
                    return;
                }
            } else if self.is_user_call(c) {
                self.emit(EdgeKind::Declare { var: v, init: None }, span);
                self.call(c, span, Want::Into(v));
                return;
            }
        }
        if let Some(r) = self.rvalue(init) {
            self.emit(
                EdgeKind::Declare {
                    var: v,
                    init: Some(Rhs::Expr(r.convert(t))),
                },
                span,
            );
        }
    }

    /// Lowers `e` for its side effects only.
    pub fn effect(&mut self, e: &AstNode<Expression>) {
        let span = self.span(e.span);
        match &e.node {
            Expression::BinaryOperator(b) if is_assignment(&b.node.operator.node) => {
                self.assignment(b, span);
            }
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) && has_side_effects(&b.node.rhs.node) =>
            {
                let mid = self.new_node();
                let join = self.new_node();
                if matches!(b.node.operator.node, BinaryOperator::LogicalAnd) {
                    self.condition(&b.node.lhs, Some(mid), Some(join));
                } else {
                    self.condition(&b.node.lhs, Some(join), Some(mid));
                }
                self.cur = mid;
                self.effect(&b.node.rhs);
                self.edge_to(join, EdgeKind::Blank(String::new()), span);
                self.cur = join;
            }
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    UnaryOperator::PostIncrement
                        | UnaryOperator::PostDecrement
                        | UnaryOperator::PreIncrement
                        | UnaryOperator::PreDecrement
                ) =>
            {
                if let Some(v) = self.lvalue(&u.node.operand) {
                    let op = if matches!(
                        u.node.operator.node,
                        UnaryOperator::PostIncrement | UnaryOperator::PreIncrement
                    ) {
                        BinOp::Add
                    } else {
                        BinOp::Sub
                    };
                    self.increment(v, op, span);
                }
            }
            Expression::Call(c) => {
                self.call(c, span, Want::Discard);
            }
            Expression::Comma(es) => {
                for x in es.iter() {
                    self.effect(x);
                }
            }
            Expression::Cast(c)
                if has_side_effects(&c.node.expression.node)
                    || self.is_void_type(&c.node.type_name) =>
            {
                if self.is_void_type(&c.node.type_name) {
                    self.effect(&c.node.expression);
                } else {
                    self.rvalue(e);
                }
            }
            Expression::Conditional(c)
                if has_side_effects(&c.node.then_expression.node)
                    || has_side_effects(&c.node.else_expression.node) =>
            {
                let t = self.new_node();
                let f = self.new_node();
                let join = self.new_node();
                self.condition(&c.node.condition, Some(t), Some(f));
                self.cur = t;
                self.effect(&c.node.then_expression);
                self.edge_to(join, EdgeKind::Blank(String::new()), span);
                self.cur = f;
                self.effect(&c.node.else_expression);
                self.edge_to(join, EdgeKind::Blank(String::new()), span);
                self.cur = join;
            }
            Expression::Conditional(c)
                if self.is_void_expr(&c.node.then_expression)
                    || self.is_void_expr(&c.node.else_expression) =>
            {
                // `c ? (void)0 : (void)0` and the like: only the condition can matter.
                self.rvalue(&c.node.condition);
            }
            _ => {
                // A pure expression statement has no effect; it is still checked.
                self.rvalue(e);
            }
        }
    }

    fn is_void_type(&mut self, tn: &AstNode<lang_c::ast::TypeName>) -> bool {
        tn.node.declarator.is_none()
            && tn.node.specifiers.iter().any(|s| {
                matches!(&s.node, lang_c::ast::SpecifierQualifier::TypeSpecifier(t) if t.node == lang_c::ast::TypeSpecifier::Void)
            })
    }

    fn is_void_expr(&mut self, e: &AstNode<Expression>) -> bool {
        match &e.node {
            Expression::Cast(c) => self.is_void_type(&c.node.type_name),
            _ => false,
        }
    }

    /// Branches on `e`: control reaches `t` when it is nonzero, `f` otherwise; `None` means the
    /// path ends. `&&`, `||` and `!` become control flow, as in CPAchecker.
    pub fn condition(&mut self, e: &AstNode<Expression>, t: Option<NodeId>, f: Option<NodeId>) {
        match &e.node {
            Expression::UnaryOperator(u)
                if matches!(u.node.operator.node, UnaryOperator::Negate) =>
            {
                self.condition(&u.node.operand, f, t)
            }
            Expression::BinaryOperator(b)
                if matches!(b.node.operator.node, BinaryOperator::LogicalAnd) =>
            {
                let mid = self.new_node();
                self.condition(&b.node.lhs, Some(mid), f);
                self.cur = mid;
                self.condition(&b.node.rhs, t, f);
            }
            Expression::BinaryOperator(b)
                if matches!(b.node.operator.node, BinaryOperator::LogicalOr) =>
            {
                let mid = self.new_node();
                self.condition(&b.node.lhs, t, Some(mid));
                self.cur = mid;
                self.condition(&b.node.rhs, t, f);
            }
            Expression::Comma(es) => {
                let Some((last, init)) = es.split_last() else {
                    return;
                };
                for x in init {
                    self.effect(x);
                }
                self.condition(last, t, f);
            }
            _ => {
                let span = self.span(e.span);
                if let Some(x) = self.rvalue(e) {
                    self.branch(x, t, f, span);
                }
            }
        }
    }

    /// Assume edges `[c]` to `t` and `[!(c)]` to `f`; a constant condition gives one blank edge.
    pub fn branch(&mut self, x: Expr, t: Option<NodeId>, f: Option<NodeId>, span: Span) {
        let c = as_condition(x);
        if let Some(v) = c.as_const() {
            if let Some(target) = if v != 0 { t } else { f } {
                self.edge_to(target, EdgeKind::Blank(String::new()), span);
            }
            return;
        }
        if let Some(t) = t {
            self.edge_to(
                t,
                EdgeKind::Assume {
                    cond: c.clone(),
                    truth: true,
                },
                span,
            );
        }
        if let Some(f) = f {
            self.edge_to(
                f,
                EdgeKind::Assume {
                    cond: c,
                    truth: false,
                },
                span,
            );
        }
    }

    /// The value (0 or 1) of a condition with side effects, through control flow.
    fn value_by_branches(&mut self, e: &AstNode<Expression>, span: Span) -> Expr {
        let tmp = self.new_tmp(IntType::INT);
        let t = self.new_node();
        let f = self.new_node();
        let join = self.new_node();
        self.condition(e, Some(t), Some(f));
        for (node, value) in [(t, 1), (f, 0)] {
            self.cur = node;
            self.edge_to(
                join,
                EdgeKind::Assign {
                    lhs: tmp,
                    rhs: Rhs::Expr(Expr::constant(IntType::INT, value)),
                },
                span,
            );
        }
        self.cur = join;
        Expr::var(tmp, IntType::INT)
    }

    fn conditional_by_branches(
        &mut self,
        n: &lang_c::ast::ConditionalExpression,
        span: Span,
    ) -> Option<Expr> {
        let t = self.new_node();
        let f = self.new_node();
        let join = self.new_node();
        self.condition(&n.condition, Some(t), Some(f));
        self.cur = t;
        let a = self.rvalue(&n.then_expression);
        let end_a = self.cur;
        self.cur = f;
        let b = self.rvalue(&n.else_expression);
        let end_b = self.cur;
        let (a, b) = (a?, b?);
        let ty = IntType::common(a.ty, b.ty);
        let tmp = self.new_tmp(ty);
        self.edge(
            end_a,
            join,
            EdgeKind::Assign {
                lhs: tmp,
                rhs: Rhs::Expr(a.convert(ty)),
            },
            span,
        );
        self.edge(
            end_b,
            join,
            EdgeKind::Assign {
                lhs: tmp,
                rhs: Rhs::Expr(b.convert(ty)),
            },
            span,
        );
        self.cur = join;
        Some(Expr::var(tmp, ty))
    }

    fn callee_name<'e>(&self, c: &'e CallExpression) -> Option<&'e str> {
        match &c.callee.node {
            Expression::Identifier(id) => Some(&id.node.name),
            _ => None,
        }
    }

    fn builtin_of(&self, name: &str) -> Option<Builtin> {
        // A local variable of that name would shadow the function; calling it is then an error
        // reported by `call`.
        let defined = self.lw.sigs.get(name).is_some_and(|s| s.def.is_some());
        builtin(name, defined)
    }

    /// The type of a call of a nondet function, if `c` is one.
    fn nondet_type_of(&self, c: &AstNode<CallExpression>) -> Option<IntType> {
        let name = self.callee_name(&c.node)?;
        match self.builtin_of(name)? {
            Builtin::Nondet(t) => Some(match self.lw.sigs.get(name).map(|s| &s.ty.ret) {
                Some(CType::Int(declared)) => *declared,
                _ => t,
            }),
            _ => None,
        }
    }

    fn is_user_call(&self, c: &AstNode<CallExpression>) -> bool {
        self.callee_name(&c.node).is_some_and(|n| {
            self.builtin_of(n).is_none() && self.lw.sigs.get(n).is_some_and(|s| s.def.is_some())
        })
    }

    fn call_text(&self, c: &AstNode<CallExpression>) -> String {
        format!("{}()", self.callee_name(&c.node).unwrap_or("?"))
    }

    /// Lowers a call. Returns the call's value for `Want::Value`.
    pub fn call(&mut self, c: &AstNode<CallExpression>, span: Span, want: Want) -> Option<Expr> {
        let Some(name) = self.callee_name(&c.node).map(str::to_string) else {
            self.error(span, "calls through function pointers are not supported");
            return None;
        };
        if self.func.is_none() {
            self.error(span, "a function call is not a constant expression");
            return None;
        }
        if let Some(Binding::Var(_) | Binding::Unsupported(_)) = self.lookup(&name) {
            self.error(span, format!("'{name}' is not a function"));
            return None;
        }
        let args = &c.node.arguments;
        if let Some(b) = self.builtin_of(&name) {
            return self.builtin_call(b, &name, c, span, want);
        }
        let Some(sig) = self.lw.sigs.get(&name).cloned() else {
            let why = match name.as_str() {
                // <stdlib.h> is known, but memory is not modelled.
                "malloc" | "calloc" | "realloc" | "free" | "alloca" => {
                    format!("dynamic memory is not supported (call to '{name}')")
                }
                _ => format!("call to undeclared function '{name}'"),
            };
            self.error(span, why);
            return None;
        };
        let Some(callee) = sig.def else {
            self.error(
                span,
                format!("call to function '{name}', which has no definition (only the verification harness and output functions are built in)"),
            );
            return None;
        };
        let callee_fn = self.lw.functions[callee.0 as usize].clone();
        if args.len() != sig.ty.params.len() {
            self.error(
                span,
                format!(
                    "function '{name}' takes {} argument(s), {} given",
                    sig.ty.params.len(),
                    args.len()
                ),
            );
            return None;
        }
        let mut values = Vec::new();
        for (a, p) in args.iter().zip(&sig.ty.params) {
            let v = self.rvalue(a)?;
            match &p.ty {
                CType::Int(t) => values.push(v.convert(*t)),
                other => {
                    let sp = self.span(a.span);
                    self.error(
                        sp,
                        format!("cannot pass an argument of type {}", other.describe()),
                    );
                    return None;
                }
            }
        }
        let (assign, result) = match want {
            Want::Discard => (None, None),
            Want::Into(v) => (Some(v), Some(Expr::var(v, self.var_type(v)))),
            Want::Value => match callee_fn.ret {
                Some((t, _)) => {
                    let tmp = self.new_tmp(t);
                    (Some(tmp), Some(Expr::var(tmp, t)))
                }
                None => {
                    self.error(
                        span,
                        format!("the void result of '{name}' is used as a value"),
                    );
                    return None;
                }
            },
        };
        if assign.is_some() && callee_fn.ret.is_none() {
            self.error(
                span,
                format!("the void result of '{name}' is used as a value"),
            );
            return None;
        }
        let call_site = self.cur;
        let return_site = self.new_node();
        self.edge_to(
            callee_fn.entry,
            EdgeKind::Call {
                callee,
                args: values,
                return_site,
            },
            span,
        );
        self.edge(
            callee_fn.exit,
            return_site,
            EdgeKind::Return {
                callee,
                assign,
                call_site,
            },
            span,
        );
        self.cur = return_site;
        result
    }

    fn builtin_call(
        &mut self,
        b: Builtin,
        name: &str,
        c: &AstNode<CallExpression>,
        span: Span,
        want: Want,
    ) -> Option<Expr> {
        let args = &c.node.arguments;
        let void_result = |s: &mut Self| {
            if !matches!(want, Want::Discard) {
                s.error(span, format!("'{name}' returns no value"));
            }
            None
        };
        match b {
            Builtin::Nondet(_) => {
                let ty = self.nondet_type_of(c)?;
                let origin = self.call_text(c);
                match want {
                    Want::Discard => None,
                    Want::Into(v) => {
                        let t = self.var_type(v);
                        let tmp = self.new_tmp(ty);
                        self.emit(
                            EdgeKind::Assign {
                                lhs: tmp,
                                rhs: Rhs::Nondet { ty, origin },
                            },
                            span,
                        );
                        self.emit(
                            EdgeKind::Assign {
                                lhs: v,
                                rhs: Rhs::Expr(Expr::var(tmp, ty).convert(t)),
                            },
                            span,
                        );
                        Some(Expr::var(v, t))
                    }
                    Want::Value => {
                        let tmp = self.new_tmp(ty);
                        self.emit(
                            EdgeKind::Assign {
                                lhs: tmp,
                                rhs: Rhs::Nondet { ty, origin },
                            },
                            span,
                        );
                        Some(Expr::var(tmp, ty))
                    }
                }
            }
            Builtin::NondetUnsupported => {
                self.error(
                    span,
                    format!("'{name}' returns a type that is not supported"),
                );
                None
            }
            Builtin::Assume | Builtin::Assert => {
                if args.len() != 1 {
                    self.error(span, format!("'{name}' takes one argument"));
                    return None;
                }
                let next = self.new_node();
                let fail = if b == Builtin::Assert {
                    Some(self.error_node())
                } else {
                    None
                };
                self.condition(&args[0], Some(next), fail);
                self.cur = next;
                void_result(self)
            }
            Builtin::ReachError => {
                let err = self.error_node();
                self.edge_to(err, EdgeKind::ReachError(format!("{name}();")), span);
                self.dead();
                void_result(self)
            }
            Builtin::Abort => {
                let term = self.termination_node();
                let text = if name == "abort" {
                    "abort();".to_string()
                } else {
                    format!("{name}(...);")
                };
                self.edge_to(term, EdgeKind::Abort(text), span);
                self.dead();
                void_result(self)
            }
            Builtin::Output => {
                for a in args {
                    if !matches!(a.node, Expression::StringLiteral(_)) && has_side_effects(&a.node)
                    {
                        self.effect(a);
                    }
                }
                let origin = format!("{name}(...)");
                let nondet = Rhs::Nondet {
                    ty: IntType::INT,
                    origin,
                };
                match want {
                    Want::Discard => None,
                    Want::Into(v) if self.var_type(v) == IntType::INT => {
                        self.emit(
                            EdgeKind::Assign {
                                lhs: v,
                                rhs: nondet,
                            },
                            span,
                        );
                        Some(Expr::var(v, IntType::INT))
                    }
                    Want::Into(v) => {
                        let tmp = self.new_tmp(IntType::INT);
                        self.emit(
                            EdgeKind::Assign {
                                lhs: tmp,
                                rhs: nondet,
                            },
                            span,
                        );
                        let t = self.var_type(v);
                        let value = Expr::var(tmp, IntType::INT).convert(t);
                        self.emit(
                            EdgeKind::Assign {
                                lhs: v,
                                rhs: Rhs::Expr(value),
                            },
                            span,
                        );
                        Some(Expr::var(v, t))
                    }
                    Want::Value => {
                        let tmp = self.new_tmp(IntType::INT);
                        self.emit(
                            EdgeKind::Assign {
                                lhs: tmp,
                                rhs: nondet,
                            },
                            span,
                        );
                        Some(Expr::var(tmp, IntType::INT))
                    }
                }
            }
        }
    }
}

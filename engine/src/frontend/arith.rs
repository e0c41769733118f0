//! Pure helpers of expression lowering: C's operators as IR operators, the usual arithmetic
//! conversions of a binary operation, constant folding, and questions about the syntax
//! (side effects, calls, unsupported forms).

use crate::ir::semantics;
use crate::ir::{BinOp, Expr, ExprKind, IntType, UnOp};
use lang_c::ast::{BinaryOperator, Expression, UnaryOperator};
use lang_c::span::Node as AstNode;

pub(crate) fn arith_op(op: &BinaryOperator) -> Option<BinOp> {
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

pub(crate) fn is_assignment(op: &BinaryOperator) -> bool {
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

pub(crate) fn unsupported_expression(e: &Expression) -> Option<&'static str> {
    Some(match e {
        Expression::GenericSelection(_) => "_Generic is not supported",
        Expression::CompoundLiteral(_) => "compound literals are not supported",
        Expression::AlignOf(_) => "_Alignof is not supported",
        Expression::OffsetOf(_) => "offsetof is not supported",
        Expression::VaArg(_) => "variable arguments are not supported",
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
pub(crate) fn fold(e: Expr) -> Expr {
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

/// Whether `e` contains a function call.
pub(crate) fn has_call(e: &AstNode<Expression>) -> bool {
    struct Calls(bool);
    impl<'ast> lang_c::visit::Visit<'ast> for Calls {
        fn visit_call_expression(
            &mut self,
            _: &'ast lang_c::ast::CallExpression,
            _: &'ast lang_c::span::Span,
        ) {
            self.0 = true;
        }
    }
    let mut c = Calls(false);
    lang_c::visit::Visit::visit_expression(&mut c, &e.node, &e.span);
    c.0
}

//! Expressions evaluated for their effect and conditions as branches: `&&`, `||`, `!` and
//! `?:` become assume edges (as CPAchecker's front end does), and a value computed by
//! branching where an expression has side effects in a conditional part.

use crate::cfa::{EdgeKind, NodeId, Rhs};
use crate::diag::Span;
use crate::frontend::arith::{as_condition, has_side_effects, is_assignment};
use crate::frontend::builder::FnBuilder;
use crate::frontend::value::{Val, Want};

use crate::ir::{Expr, IntType};
use lang_c::ast::{BinaryOperator, Expression, UnaryOperator};
use lang_c::span::Node as AstNode;

impl FnBuilder<'_, '_> {
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
                if let Some(p) = self.place(&u.node.operand) {
                    let add = matches!(
                        u.node.operator.node,
                        UnaryOperator::PostIncrement | UnaryOperator::PreIncrement
                    );
                    self.increment(&p, add, span);
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
            Expression::Statement(st) => {
                self.statement_expression(st, span);
            }
            _ => {
                // A pure expression statement has no effect; it is still checked.
                self.value(e);
            }
        }
    }

    /// A GNU statement expression `({ ...; e; })`: the statements, and the value of its
    /// last expression statement (none if it has none).
    pub(crate) fn statement_expression(
        &mut self,
        st: &AstNode<lang_c::ast::Statement>,
        span: Span,
    ) -> Option<Val> {
        let lang_c::ast::Statement::Compound(items) = &st.node else {
            self.stmt(st);
            return Some(Val::int(Expr::constant(IntType::INT, 0)));
        };
        self.scopes.push(std::collections::BTreeMap::new());
        let mut value = None;
        let n = items.len();
        for (i, item) in items.iter().enumerate() {
            match &item.node {
                lang_c::ast::BlockItem::Statement(s) if i + 1 == n => match &s.node {
                    lang_c::ast::Statement::Expression(Some(e)) => value = self.value(e),
                    _ => self.stmt(s),
                },
                lang_c::ast::BlockItem::Statement(s) => self.stmt(s),
                lang_c::ast::BlockItem::Declaration(d) => self.local_declaration(d),
                lang_c::ast::BlockItem::StaticAssert(_) => {}
            }
        }
        self.scopes.pop();
        let _ = span;
        Some(value.unwrap_or_else(|| Val::int(Expr::constant(IntType::INT, 0))))
    }

    pub(crate) fn is_void_type(&mut self, tn: &AstNode<lang_c::ast::TypeName>) -> bool {
        tn.node.declarator.is_none()
            && tn.node.specifiers.iter().any(|s| {
                matches!(&s.node, lang_c::ast::SpecifierQualifier::TypeSpecifier(t) if t.node == lang_c::ast::TypeSpecifier::Void)
            })
    }

    pub(crate) fn is_void_expr(&mut self, e: &AstNode<Expression>) -> bool {
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
    pub(crate) fn value_by_branches(&mut self, e: &AstNode<Expression>, span: Span) -> Expr {
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

    pub(crate) fn conditional_by_branches(
        &mut self,
        n: &lang_c::ast::ConditionalExpression,
        span: Span,
    ) -> Option<Val> {
        let t = self.new_node();
        let f = self.new_node();
        let join = self.new_node();
        self.condition(&n.condition, Some(t), Some(f));
        self.cur = t;
        let a = self.value(&n.then_expression);
        let end_a = self.cur;
        self.cur = f;
        let b = self.value(&n.else_expression);
        let end_b = self.cur;
        let (a, b) = (a?, b?);
        let (cty, obj) = self.common_type(&a, &b, span)?;
        let ty = cty.scalar()?;
        let (a, b) = (a.e, b.e);
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
        Some(Val {
            e: Expr::var(tmp, ty),
            ty: cty,
            obj,
        })
    }
}

//! Statements to CFA edges, following CPAchecker's `CFAFunctionBuilder`: conditions with `&&`
//! and `||` become chains of assume edges, constant conditions make no assume edge, `switch`
//! becomes a chain of `[e == c]` tests, loops get a head location with a back edge, `goto`
//! jumps to label locations, dead code is dropped afterwards.

use crate::cfa::{EdgeKind, NodeId};
use crate::diag::Span;
use crate::frontend::builder::{span_end, span_start, Case, CaseKind, FnBuilder};
use crate::frontend::builtins::Spec;
use crate::frontend::value::Place;

use crate::frontend::types::CType;
use crate::ir::{BinOp, Expr, ExprKind, IntType};
use lang_c::ast::{BlockItem, Expression, ForInitializer, Label, Statement};

use lang_c::span::Node as AstNode;
use std::collections::BTreeMap;

impl<'l, 'a> FnBuilder<'l, 'a> {
    // ----- helpers -------------------------------------------------------------------------

    // ----- statements ----------------------------------------------------------------------

    pub fn stmt(&mut self, s: &AstNode<Statement>) {
        let span = self.span(s.span);
        if !matches!(s.node, Statement::Compound(_)) {
            self.stmt_text = Some(self.lw.source_text(s.span));
        }
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(BTreeMap::new());
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.local_declaration(d),
                        BlockItem::StaticAssert(sa) => {
                            let sp = self.span(sa.span);
                            self.lw.warn(sp, "_Static_assert is ignored");
                        }
                        BlockItem::Statement(st) => self.stmt(st),
                    }
                }
                self.scopes.pop();
            }
            Statement::Expression(None) => {}
            Statement::Expression(Some(e)) => self.effect(e),
            Statement::If(i) => {
                let then_n = self.new_node();
                let join = self.new_node();
                let else_n = if i.node.else_statement.is_some() {
                    self.new_node()
                } else {
                    join
                };
                self.branching(span, then_n, else_n);
                self.condition(&i.node.condition, Some(then_n), Some(else_n));
                self.cur = then_n;
                self.stmt(&i.node.then_statement);
                self.edge_to(join, EdgeKind::Blank(String::new()), span_end(span));
                if let Some(e) = &i.node.else_statement {
                    self.cur = else_n;
                    self.stmt(e);
                    self.edge_to(join, EdgeKind::Blank(String::new()), span_end(span));
                }
                self.cur = join;
            }
            Statement::While(w) => {
                let head = self.new_node();
                let body = self.new_node();
                let exit = self.new_node();
                self.edge_to(head, EdgeKind::Blank("while".into()), span_start(span));
                self.cur = head;
                self.branching(span, body, exit);
                self.condition(&w.node.expression, Some(body), Some(exit));
                self.cur = body;
                self.loop_body(&w.node.statement, exit, head, span);
                self.cur = exit;
            }
            Statement::DoWhile(d) => {
                let body = self.new_node();
                let cond = self.new_node();
                let exit = self.new_node();
                self.edge_to(body, EdgeKind::Blank("do".into()), span_start(span));
                self.cur = body;
                self.loop_body(&d.node.statement, exit, cond, span);
                self.cur = cond;
                self.branching(span, body, exit);
                self.condition(&d.node.expression, Some(body), Some(exit));
                self.cur = exit;
            }
            Statement::For(f) => {
                self.scopes.push(BTreeMap::new());
                match &f.node.initializer.node {
                    ForInitializer::Empty => {}
                    ForInitializer::Expression(e) => self.effect(e),
                    ForInitializer::Declaration(d) => self.local_declaration(d),
                    ForInitializer::StaticAssert(_) => {}
                }
                let head = self.new_node();
                let body = self.new_node();
                let step = self.new_node();
                let exit = self.new_node();
                self.edge_to(head, EdgeKind::Blank("for".into()), span_start(span));
                self.cur = head;
                match &f.node.condition {
                    Some(c) => {
                        self.branching(span, body, exit);
                        self.condition(c, Some(body), Some(exit))
                    }
                    None => self.edge_to(body, EdgeKind::Blank(String::new()), span_start(span)),
                }
                self.cur = body;
                self.loop_body(&f.node.statement, exit, step, span);
                self.cur = step;
                if let Some(st) = &f.node.step {
                    self.effect(st);
                }
                self.edge_to(head, EdgeKind::Blank(String::new()), span_start(span));
                self.cur = exit;
                self.scopes.pop();
            }
            Statement::Switch(sw) => self.switch(sw, span),
            Statement::Goto(id) => {
                let target = self.label_node(&id.node.name, span);
                self.edge_to(
                    target,
                    EdgeKind::Blank(format!("goto {}", id.node.name)),
                    span,
                );
                self.dead();
            }
            Statement::Labeled(l) => self.labeled(l, span),
            Statement::Continue => match self.continues.last().copied() {
                Some(t) => {
                    self.edge_to(t, EdgeKind::Blank("continue".into()), span);
                    self.dead();
                }
                None => self.error(span, "'continue' outside of a loop"),
            },
            Statement::Break => match self.breaks.last().copied() {
                Some(t) => {
                    self.edge_to(t, EdgeKind::Blank("break".into()), span);
                    self.dead();
                }
                None => self.error(span, "'break' outside of a loop or switch"),
            },
            Statement::Return(e) => self.return_stmt(e.as_deref(), span),
            Statement::Asm(_) => self.error(span, "inline assembly is not supported"),
        }
    }

    pub(crate) fn loop_body(
        &mut self,
        body: &AstNode<Statement>,
        exit: NodeId,
        cont: NodeId,
        span: Span,
    ) {
        self.breaks.push(exit);
        self.continues.push(cont);
        self.stmt(body);
        self.breaks.pop();
        self.continues.pop();
        self.edge_to(cont, EdgeKind::Blank(String::new()), span_end(span));
    }

    pub(crate) fn return_stmt(&mut self, e: Option<&AstNode<Expression>>, span: Span) {
        let Some(func) = self.func else { return };
        let ret = self.lw.functions[func.0 as usize].ret;
        let ret_obj = self.lw.ret_objects.get(&func).copied();
        let value = match (e, ret, ret_obj) {
            (Some(e), Some((t, _)), _) => {
                let ty = self
                    .lw
                    .sigs
                    .get(&self.fname)
                    .map(|s| s.ty.ret.clone())
                    .unwrap_or(CType::Int(t));
                match self.assigned_value(&ty, e, span) {
                    Some(v) => Some(v.e.convert(t)),
                    None => return,
                }
            }
            (Some(e), None, Some(o)) => {
                // A struct result: into the function's return cells.
                let Some(src) = self.place(e) else { return };
                let obj = self.lw.object(o);
                let dst = Place::Mem {
                    addr: crate::frontend::objects::address(obj.base),
                    ty: obj.ty.clone(),
                    obj: Some(o),
                    member: None,
                };
                self.copy(&dst, &src, span);
                None
            }
            (Some(e), None, None) => {
                self.effect(e);
                None
            }
            (None, _, _) => None,
        };
        let exit = self.exit;
        self.edge_to(
            exit,
            EdgeKind::ReturnValue {
                function: func,
                value,
            },
            span,
        );
        self.dead();
    }

    pub(crate) fn labeled(&mut self, l: &AstNode<lang_c::ast::LabeledStatement>, span: Span) {
        match &l.node.label.node {
            Label::Identifier(id) => {
                let name = &id.node.name;
                let node = self.label_node(name, span);
                if let Some(info) = self.labels.get_mut(name) {
                    if info.defined {
                        self.lw
                            .error(span, format!("redefinition of label '{name}'"));
                    }
                    info.defined = true;
                }
                self.edge_to(node, EdgeKind::Blank(format!("{name}:")), span_start(span));
                self.cur = node;
                if name == "ERROR" && self.lw.spec == Spec::UnreachLabel {
                    // Reaching the label is the error; what follows it is not explored.
                    let err = self.error_node();
                    self.edge_to(err, EdgeKind::ReachError("ERROR:".into()), span_start(span));
                    self.dead();
                }
            }
            Label::Case(e) => {
                let kind = self.case_value(e).map(CaseKind::Value);
                self.case_label(kind, span);
            }
            Label::CaseRange(r) => {
                let lo = self.case_value(&r.node.low);
                let hi = self.case_value(&r.node.high);
                let kind = lo.zip(hi).map(|(a, b)| CaseKind::Range(a, b));
                self.case_label(kind, span);
            }
            Label::Default => self.case_label(Some(CaseKind::Default), span),
        }
        self.stmt(&l.node.statement);
    }

    pub(crate) fn case_value(&mut self, e: &AstNode<Expression>) -> Option<i128> {
        let ty = self.switches.last().map(|s| s.0).unwrap_or(IntType::INT);
        let sp = self.span(e.span);
        let (v, _) = self.lw.const_expr(e, self.scopes.last())?;
        let _ = sp;
        Some(ty.wrap(v))
    }

    pub(crate) fn case_label(&mut self, kind: Option<CaseKind>, span: Span) {
        if self.switches.is_empty() {
            self.error(span, "case label outside of a switch");
            return;
        }
        let Some(kind) = kind else { return };
        let node = self.new_node();
        let text = match kind {
            CaseKind::Default => "default:".to_string(),
            _ => "case:".to_string(),
        };
        self.edge_to(node, EdgeKind::Blank(text), span_start(span));
        self.cur = node;
        if let Some(sw) = self.switches.last_mut() {
            sw.1.push(Case { kind, node, span });
        }
    }

    pub(crate) fn switch(&mut self, sw: &AstNode<lang_c::ast::SwitchStatement>, span: Span) {
        let Some(e) = self.rvalue(&sw.node.expression) else {
            return;
        };
        let ty = e.ty.promote();
        let e = e.convert(ty);
        let test_start = self.cur;
        let exit = self.new_node();
        self.switches.push((ty, Vec::new()));
        self.breaks.push(exit);
        self.dead();
        self.stmt(&sw.node.statement);
        self.edge_to(exit, EdgeKind::Blank(String::new()), span_end(span));
        self.breaks.pop();
        let (_, cases) = self.switches.pop().unwrap_or((ty, Vec::new()));
        // The chain of tests, in source order; `default` is taken when no case matches.
        self.cur = test_start;
        let mut default = None;
        for case in &cases {
            let cond = match case.kind {
                CaseKind::Default => {
                    default = Some(case.node);
                    continue;
                }
                CaseKind::Value(v) => cmp(BinOp::Eq, e.clone(), Expr::constant(ty, v)),
                CaseKind::Range(lo, hi) => Expr {
                    ty: IntType::INT,
                    kind: ExprKind::Binary(
                        BinOp::LogAnd,
                        Box::new(cmp(BinOp::Ge, e.clone(), Expr::constant(ty, lo))),
                        Box::new(cmp(BinOp::Le, e.clone(), Expr::constant(ty, hi))),
                    ),
                },
            };
            let next = self.new_node();
            self.branch(cond, Some(case.node), Some(next), case.span);
            self.cur = next;
        }
        let target = default.unwrap_or(exit);
        self.edge_to(
            target,
            EdgeKind::Blank(if default.is_some() {
                "default".into()
            } else {
                String::new()
            }),
            span_start(span),
        );
        self.cur = exit;
    }

    // ----- declarations --------------------------------------------------------------------
}

pub(crate) fn cmp(op: BinOp, a: Expr, b: Expr) -> Expr {
    let t = IntType::common(a.ty, b.ty);
    Expr {
        ty: IntType::INT,
        kind: ExprKind::Binary(op, Box::new(a.convert(t)), Box::new(b.convert(t))),
    }
}

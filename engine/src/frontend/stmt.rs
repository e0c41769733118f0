//! Statements to CFA edges, following CPAchecker's `CFAFunctionBuilder`: conditions with `&&`
//! and `||` become chains of assume edges, constant conditions make no assume edge, `switch`
//! becomes a chain of `[e == c]` tests, loops get a head location with a back edge, `goto`
//! jumps to label locations, dead code is dropped afterwards.

use crate::cfa::{EdgeKind, Function, NodeId, NodeKind, Rhs};
use crate::diag::Span;
use crate::frontend::scope::{Binding, Lowerer};
use crate::frontend::types::{declarator_name, CType, FunctionType};
use crate::ir::{BinOp, Expr, ExprKind, FuncId, IntType, VarId, Variable};
use lang_c::ast::{
    BlockItem, Declaration, Expression, ForInitializer, FunctionDefinition, Initializer, Label,
    Statement,
};
use lang_c::span::Node as AstNode;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub(crate) enum CaseKind {
    Value(i128),
    Range(i128, i128),
    Default,
}

#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub kind: CaseKind,
    pub node: NodeId,
    pub span: Span,
}

struct LabelInfo {
    node: NodeId,
    defined: bool,
    first_use: Span,
}

pub(crate) struct FnBuilder<'l, 'a> {
    pub lw: &'l mut Lowerer<'a>,
    /// `None` in a constant-expression context, where no edge may be emitted.
    pub func: Option<FuncId>,
    pub fname: String,
    pub cur: NodeId,
    pub scopes: Vec<BTreeMap<String, Binding>>,
    name_counts: BTreeMap<String, u32>,
    labels: BTreeMap<String, LabelInfo>,
    breaks: Vec<NodeId>,
    continues: Vec<NodeId>,
    switches: Vec<(IntType, Vec<Case>)>,
    exit: NodeId,
    error_node: Option<NodeId>,
    term_node: Option<NodeId>,
    tmp_count: u32,
}

impl<'l, 'a> FnBuilder<'l, 'a> {
    /// A builder for integer constant expressions outside of functions.
    pub fn constant_context(
        lw: &'l mut Lowerer<'a>,
        extra: Option<BTreeMap<String, Binding>>,
    ) -> FnBuilder<'l, 'a> {
        FnBuilder {
            lw,
            func: None,
            fname: String::new(),
            cur: NodeId(u32::MAX),
            scopes: extra.into_iter().collect(),
            name_counts: BTreeMap::new(),
            labels: BTreeMap::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            exit: NodeId(u32::MAX),
            error_node: None,
            term_node: None,
            tmp_count: 0,
        }
    }

    /// Creates entry and exit locations, parameters and the return variable of a function.
    pub fn declare_function(
        lw: &mut Lowerer<'_>,
        id: FuncId,
        name: String,
        fty: &FunctionType,
        span: Span,
    ) {
        let entry = lw.new_node(id, span.start_line, NodeKind::FunctionEntry);
        let exit = lw.new_node(id, span.end_line, NodeKind::FunctionExit);
        let mut params = Vec::new();
        for (i, p) in fty.params.iter().enumerate() {
            let pname = p.name.clone().unwrap_or_else(|| format!("__param{i}"));
            let ty = match p.ty {
                CType::Int(t) => t,
                _ => IntType::INT, // unusable: bound as unsupported in the body
            };
            params.push(lw.new_var(Variable {
                qualified: format!("{name}::{pname}"),
                name: pname,
                ty,
                function: Some(id),
                synthetic: p.name.is_none(),
            }));
        }
        let ret = match fty.ret {
            CType::Int(t) => Some((
                t,
                lw.new_var(Variable {
                    qualified: format!("{name}::__retval__"),
                    name: format!("{name}::__retval__"),
                    ty: t,
                    function: Some(id),
                    synthetic: true,
                }),
            )),
            _ => None,
        };
        if let CType::Unsupported(what) = &fty.ret {
            lw.error(
                span,
                format!("{what} are not supported (return type of '{name}')"),
            );
        }
        debug_assert_eq!(lw.functions.len(), id.0 as usize);
        lw.functions.push(Function {
            id,
            name,
            entry,
            exit,
            params,
            ret,
            span,
        });
    }

    pub fn build_body(
        lw: &'l mut Lowerer<'a>,
        id: FuncId,
        fd: &AstNode<FunctionDefinition>,
        fty: &FunctionType,
        is_main: bool,
    ) {
        let f = lw.functions[id.0 as usize].clone();
        let mut b = FnBuilder {
            lw,
            func: Some(id),
            fname: f.name.clone(),
            cur: f.entry,
            scopes: vec![BTreeMap::new()],
            name_counts: BTreeMap::new(),
            labels: BTreeMap::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            exit: f.exit,
            error_node: None,
            term_node: None,
            tmp_count: 0,
        };
        for (p, v) in fty.params.iter().zip(&f.params) {
            if let Some(n) = &p.name {
                let binding = match &p.ty {
                    CType::Int(_) => Binding::Var(*v),
                    other => Binding::Unsupported(other.describe()),
                };
                b.scopes[0].insert(n.clone(), binding);
                b.name_counts.insert(n.clone(), 1);
            }
        }
        let body_span = b.span(fd.node.statement.span);
        if is_main && !b.lw.global_inits.is_empty() {
            let start = b.new_node();
            b.edge_to(
                start,
                EdgeKind::Blank("INIT GLOBAL VARS".into()),
                Span::point(f.span.start_line, 1),
            );
            b.cur = start;
            for (v, init, span) in b.lw.global_inits.clone() {
                let next = b.new_node();
                b.edge_to(next, EdgeKind::Declare { var: v, init }, span);
                b.cur = next;
            }
        }
        let start = b.new_node();
        b.edge_to(
            start,
            EdgeKind::Blank("Function start dummy edge".into()),
            Span::point(body_span.start_line, body_span.start_col),
        );
        b.cur = start;
        b.stmt(&fd.node.statement);
        let end = Span::point(
            body_span.end_line,
            body_span.end_col.saturating_sub(1).max(1),
        );
        let exit = b.exit;
        b.edge_to(exit, EdgeKind::Blank("default return".into()), end);
        for (name, l) in std::mem::take(&mut b.labels) {
            if !l.defined {
                b.lw.error(l.first_use, format!("use of undeclared label '{name}'"));
            }
        }
    }

    // ----- helpers -------------------------------------------------------------------------

    pub fn span(&self, s: lang_c::span::Span) -> Span {
        self.lw.span(s)
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.lw.error(span, msg);
    }

    /// Records the branching statement at `span` whose condition starts at the current
    /// location.
    fn branching(&mut self, span: Span, then: NodeId, otherwise: NodeId) {
        let b = crate::cfa::Branching {
            keyword: span_start(span),
            entry: self.cur,
            then,
            otherwise,
        };
        self.lw.branchings.push(b);
    }

    pub fn new_node(&mut self) -> NodeId {
        let f = self.func.unwrap_or(FuncId(u32::MAX));
        self.lw.new_node(f, 0, NodeKind::Normal)
    }

    /// Adds an edge from the current location to `to`. In a constant context this is an error.
    pub fn edge_to(&mut self, to: NodeId, kind: EdgeKind, span: Span) {
        self.edge(self.cur, to, kind, span);
    }

    pub fn edge(&mut self, from: NodeId, to: NodeId, kind: EdgeKind, span: Span) {
        if self.func.is_none() {
            self.error(span, "expression is not a constant");
            return;
        }
        self.lw.add_edge(from, to, kind, span);
    }

    /// Emits `kind` as an edge to a fresh location and continues there.
    pub fn emit(&mut self, kind: EdgeKind, span: Span) {
        if self.func.is_none() {
            self.error(span, "expression is not a constant");
            return;
        }
        let next = self.new_node();
        self.edge_to(next, kind, span);
        self.cur = next;
    }

    /// Continues in a fresh location without incoming edges (code after a jump).
    pub fn dead(&mut self) {
        self.cur = self.new_node();
    }

    pub fn error_node(&mut self) -> NodeId {
        if let Some(n) = self.error_node {
            return n;
        }
        let f = self.func.unwrap_or(FuncId(u32::MAX));
        let n = self.lw.new_node(f, 0, NodeKind::Error);
        self.error_node = Some(n);
        n
    }

    pub fn termination_node(&mut self) -> NodeId {
        if let Some(n) = self.term_node {
            return n;
        }
        let f = self.func.unwrap_or(FuncId(u32::MAX));
        let n = self.lw.new_node(f, 0, NodeKind::Termination);
        self.term_node = Some(n);
        n
    }

    pub fn lookup(&self, name: &str) -> Option<Binding> {
        for s in self.scopes.iter().rev() {
            if let Some(b) = s.get(name) {
                return Some(b.clone());
            }
        }
        self.lw.globals.get(name).cloned()
    }

    pub fn new_tmp(&mut self, ty: IntType) -> VarId {
        let n = self.tmp_count;
        self.tmp_count += 1;
        let f = self.func.unwrap_or(FuncId(u32::MAX));
        self.lw.new_var(Variable {
            qualified: format!("{}::__tmp_{n}", self.fname),
            name: format!("__tmp_{n}"),
            ty,
            function: Some(f),
            synthetic: true,
        })
    }

    fn local_var(&mut self, name: &str, ty: IntType, is_static: bool) -> VarId {
        let count = self.name_counts.entry(name.to_string()).or_insert(0);
        let display = if *count == 0 {
            name.to_string()
        } else {
            format!("{name}__{count}")
        };
        *count += 1;
        self.lw.new_var(Variable {
            qualified: format!("{}::{display}", self.fname),
            name: display,
            ty,
            function: if is_static { None } else { self.func },
            synthetic: false,
        })
    }

    fn label_node(&mut self, name: &str, span: Span) -> NodeId {
        if let Some(l) = self.labels.get(name) {
            return l.node;
        }
        let node = self.new_node();
        self.labels.insert(
            name.to_string(),
            LabelInfo {
                node,
                defined: false,
                first_use: span,
            },
        );
        node
    }

    // ----- statements ----------------------------------------------------------------------

    pub fn stmt(&mut self, s: &AstNode<Statement>) {
        let span = self.span(s.span);
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

    fn loop_body(&mut self, body: &AstNode<Statement>, exit: NodeId, cont: NodeId, span: Span) {
        self.breaks.push(exit);
        self.continues.push(cont);
        self.stmt(body);
        self.breaks.pop();
        self.continues.pop();
        self.edge_to(cont, EdgeKind::Blank(String::new()), span_end(span));
    }

    fn return_stmt(&mut self, e: Option<&AstNode<Expression>>, span: Span) {
        let Some(func) = self.func else { return };
        let ret = self.lw.functions[func.0 as usize].ret;
        let value = match (e, ret) {
            (Some(e), Some((t, _))) => match self.rvalue(e) {
                Some(v) => Some(v.convert(t)),
                None => return,
            },
            (Some(e), None) => {
                self.effect(e);
                None
            }
            (None, _) => None,
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

    fn labeled(&mut self, l: &AstNode<lang_c::ast::LabeledStatement>, span: Span) {
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

    fn case_value(&mut self, e: &AstNode<Expression>) -> Option<i128> {
        let ty = self.switches.last().map(|s| s.0).unwrap_or(IntType::INT);
        let sp = self.span(e.span);
        let (v, _) = self.lw.const_expr(e, self.scopes.last())?;
        let _ = sp;
        Some(ty.wrap(v))
    }

    fn case_label(&mut self, kind: Option<CaseKind>, span: Span) {
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

    fn switch(&mut self, sw: &AstNode<lang_c::ast::SwitchStatement>, span: Span) {
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

    fn local_declaration(&mut self, d: &AstNode<Declaration>) {
        let (base, storage) = self.lw.specifiers(&d.node.specifiers);
        for init_decl in &d.node.declarators {
            let Some(name_node) = declarator_name(&init_decl.node.declarator.node) else {
                continue;
            };
            let name = name_node.node.name.clone();
            let span = self.span(init_decl.span);
            let ty = self
                .lw
                .declarator_type(base.clone(), &init_decl.node.declarator.node);
            if storage.typedef {
                self.lw.typedefs.insert(name, ty);
                continue;
            }
            match ty {
                CType::Function(f) => {
                    self.lw
                        .sigs
                        .entry(name.clone())
                        .or_insert(crate::frontend::scope::Signature { ty: *f, def: None });
                    if let Some(s) = self.scopes.last_mut() {
                        s.insert(name.clone(), Binding::Function);
                    }
                }
                CType::Void => self.error(span, format!("variable '{name}' declared void")),
                CType::Unsupported(what) => {
                    if init_decl.node.initializer.is_some() {
                        self.error(
                            span,
                            format!("{what} are not supported (variable '{name}')"),
                        );
                    }
                    if let Some(s) = self.scopes.last_mut() {
                        s.insert(name, Binding::Unsupported(what));
                    }
                }
                CType::Int(t) => {
                    let v = self.local_var(&name, t, storage.is_static);
                    if storage.is_static {
                        let init = match &init_decl.node.initializer {
                            Some(AstNode {
                                node: Initializer::Expression(e),
                                ..
                            }) => self
                                .lw
                                .const_expr(e, self.scopes.last())
                                .map(|(c, _)| Rhs::Expr(Expr::constant(t, c))),
                            Some(_) => {
                                self.error(span, "initializer lists are not supported");
                                None
                            }
                            None => Some(Rhs::Expr(Expr::constant(t, 0))),
                        };
                        self.lw.global_inits.push((v, init, span));
                        if let Some(s) = self.scopes.last_mut() {
                            s.insert(name, Binding::Var(v));
                        }
                        continue;
                    }
                    // The scope of a declared identifier begins right after its declarator.
                    if let Some(s) = self.scopes.last_mut() {
                        s.insert(name, Binding::Var(v));
                    }
                    match &init_decl.node.initializer {
                        None => self.emit(EdgeKind::Declare { var: v, init: None }, span),
                        Some(AstNode {
                            node: Initializer::Expression(e),
                            ..
                        }) => self.declare_with_init(v, t, e, span),
                        Some(_) => self.error(span, "initializer lists are not supported"),
                    }
                }
            }
        }
    }
}

pub(crate) fn cmp(op: BinOp, a: Expr, b: Expr) -> Expr {
    let t = IntType::common(a.ty, b.ty);
    Expr {
        ty: IntType::INT,
        kind: ExprKind::Binary(op, Box::new(a.convert(t)), Box::new(b.convert(t))),
    }
}

fn span_start(s: Span) -> Span {
    Span::point(s.start_line, s.start_col)
}

fn span_end(s: Span) -> Span {
    Span::point(s.end_line, s.end_col.saturating_sub(1).max(1))
}

//! The builder of one function's CFA (or of a constant expression): where lowering is, the
//! scopes, labels, loops and switches it is in, and the primitive steps (a location, an edge,
//! a temporary) every part of the lowering uses.

use crate::cfa::{EdgeKind, NodeId, NodeKind};
use crate::diag::Span;

use crate::frontend::scope::{Binding, Lowerer};
use crate::ir::{FuncId, IntType, VarId, Variable};
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

pub(crate) struct LabelInfo {
    pub(crate) node: NodeId,
    pub(crate) defined: bool,
    pub(crate) first_use: Span,
}

pub(crate) struct FnBuilder<'l, 'a> {
    pub lw: &'l mut Lowerer<'a>,
    /// `None` in a constant-expression context, where no edge may be emitted.
    pub func: Option<FuncId>,
    pub fname: String,
    pub cur: NodeId,
    pub scopes: Vec<BTreeMap<String, Binding>>,
    pub(crate) name_counts: BTreeMap<String, u32>,
    pub(crate) labels: BTreeMap<String, LabelInfo>,
    pub(crate) breaks: Vec<NodeId>,
    pub(crate) continues: Vec<NodeId>,
    pub(crate) switches: Vec<(IntType, Vec<Case>)>,
    pub(crate) exit: NodeId,
    pub(crate) error_node: Option<NodeId>,
    pub(crate) term_node: Option<NodeId>,
    pub(crate) tmp_count: u32,
    /// The source text of the statement being lowered (labels of the edges a memory access
    /// becomes).
    pub stmt_text: Option<String>,
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
            stmt_text: None,
        }
    }

    pub fn span(&self, s: lang_c::span::Span) -> Span {
        self.lw.span(s)
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.lw.error(span, msg);
    }

    /// Records the branching statement at `span` whose condition starts at the current
    /// location.
    pub(crate) fn branching(&mut self, span: Span, then: NodeId, otherwise: NodeId) {
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
            pointer: false,
        })
    }

    pub(crate) fn local_var(
        &mut self,
        name: &str,
        ty: IntType,
        is_static: bool,
        pointer: bool,
    ) -> VarId {
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
            pointer,
        })
    }

    pub(crate) fn label_node(&mut self, name: &str, span: Span) -> NodeId {
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
}

pub(crate) fn span_start(s: Span) -> Span {
    Span::point(s.start_line, s.start_col)
}

pub(crate) fn span_end(s: Span) -> Span {
    Span::point(s.end_line, s.end_col.saturating_sub(1).max(1))
}

//! The state of one translation unit's lowering: what names refer to, function signatures,
//! and the CFA under construction with its diagnostics. The declaration methods that evaluate
//! constant expressions (`Lowerer::specifiers`, `const_expr`, in `lower.rs`) and the function
//! builder (`stmt.rs`, `expr.rs`) recurse into each other as C's grammar does; both build on
//! this file.

use crate::cfa::{Edge, EdgeId, EdgeKind, Function, Node, NodeId, NodeKind, Rhs};
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::frontend::types::{CType, FunctionType, TypedefLookup};
use crate::frontend::MAX_ERRORS;
use crate::ir::{FuncId, IntType, VarId, Variable};
use std::collections::BTreeMap;

/// What a name in scope refers to.
#[derive(Clone, Debug)]
pub enum Binding {
    Var(VarId),
    Const(i128, IntType),
    Function,
    /// A variable of a type outside the subset; using it is an error.
    Unsupported(String),
}

#[derive(Clone, Debug)]
pub struct Signature {
    pub ty: FunctionType,
    pub def: Option<FuncId>,
}

pub(crate) struct Lowerer<'a> {
    pub map: &'a SourceMap,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    pub vars: Vec<Variable>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub functions: Vec<Function>,
    pub branchings: Vec<crate::cfa::Branching>,
    pub typedefs: BTreeMap<String, CType>,
    pub globals: BTreeMap<String, Binding>,
    pub sigs: BTreeMap<String, Signature>,
    /// Declarations of globals and function-`static` locals, executed at the start of `main`.
    pub global_inits: Vec<(VarId, Option<Rhs>, Span)>,
}

impl TypedefLookup for Lowerer<'_> {
    fn typedef(&self, name: &str) -> Option<CType> {
        self.typedefs.get(name).cloned()
    }
}

impl<'a> Lowerer<'a> {
    pub fn span(&self, s: lang_c::span::Span) -> Span {
        if s.is_none() {
            return Span::default();
        }
        self.map.span(s.start, s.end)
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(Diagnostic::error(span, msg));
        }
    }

    pub fn warn(&mut self, span: Span, msg: impl Into<String>) {
        self.warnings.push(Diagnostic::warning(span, msg));
    }

    pub fn new_var(&mut self, v: Variable) -> VarId {
        self.vars.push(v);
        VarId(self.vars.len() as u32 - 1)
    }

    pub fn new_node(&mut self, function: FuncId, line: u32, kind: NodeKind) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node::new(id, function, line, kind));
        id
    }

    pub fn add_edge(&mut self, from: NodeId, to: NodeId, kind: EdgeKind, span: Span) -> EdgeId {
        let id = EdgeId(self.edges.len() as u32);
        let node = &mut self.nodes[from.0 as usize];
        if node.line == 0 {
            node.line = span.start_line;
        }
        self.edges.push(Edge {
            id,
            from,
            to,
            kind,
            span,
        });
        id
    }
}

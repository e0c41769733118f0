//! The state of one translation unit's lowering: what names refer to, function signatures,
//! and the CFA under construction with its diagnostics. The declaration methods that evaluate
//! constant expressions (`Lowerer::specifiers`, `const_expr`, in `lower.rs`) and the function
//! builder (`stmt.rs`, `expr.rs`) recurse into each other as C's grammar does; both build on
//! this file.

use crate::cfa::{Edge, EdgeId, EdgeKind, Function, Node, NodeId, NodeKind, Rhs, Ub};
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::frontend::builtins::Spec;
use crate::frontend::escape::Escapes;
use crate::frontend::layout::Records;
use crate::frontend::objects::{ObjId, Object, Pending};
use crate::frontend::types::{CType, FunctionType, RecordId};
use crate::frontend::MAX_ERRORS;
use crate::ir::{FuncId, IntType, VarId, Variable};
use std::collections::{BTreeMap, BTreeSet};

/// What a name in scope refers to.
#[derive(Clone, Debug)]
pub enum Binding {
    /// A scalar variable that does not live in memory, with its C type.
    Var(VarId, CType),
    /// A variable in memory (an array, a struct or union, a scalar whose address is taken).
    Object(ObjId),
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
    /// Which program points are errors.
    pub spec: Spec,
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
    /// The preprocessed text (for the source text of statements in edge labels).
    pub text: &'a str,
    /// Structs and unions, and their tags.
    pub records: Records,
    pub tags: BTreeMap<String, RecordId>,
    /// The objects of the memory model.
    pub objects: Vec<Object>,
    /// Memory operations at dynamic addresses, lowered once every object is known.
    pub pending: Vec<Pending>,
    /// The undefined-behaviour locations, one per function and kind.
    pub ub_nodes: BTreeMap<(FuncId, Ub), NodeId>,
    /// Variables holding addresses.
    pub pointer_vars: BTreeSet<VarId>,
    /// The cells of objects and their `alive` flags: what a memory operation may change.
    pub memory_vars: BTreeSet<VarId>,
    /// The names whose address escapes: of globals (whole program), and per function.
    pub global_escapes: Escapes,
    pub escapes: BTreeMap<String, Escapes>,
    /// The escaped locals (with an `alive` flag) of each function, cleared at its exit.
    pub frame_objects: BTreeMap<FuncId, Vec<ObjId>>,
    /// Where `main` starts and the edge after the global initializations goes (they are
    /// put there once every global, static local and string literal is known).
    pub main_start: Option<(NodeId, EdgeId)>,
    /// The objects of struct parameters, by function and parameter index.
    pub param_objects: BTreeMap<(FuncId, usize), ObjId>,
    /// The return cells of functions returning a struct.
    pub ret_objects: BTreeMap<FuncId, ObjId>,
    /// Functions without a body already warned about.
    pub external_warned: BTreeSet<String>,
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
        // `@` separates the SSA index from the qualified name in formulas.
        debug_assert!(!v.qualified.contains('@'), "{}", v.qualified);
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
            text: None,
        });
        id
    }

    /// The source text at a parser span (preprocessed offsets), on one line and shortened.
    pub fn source_text(&self, s: lang_c::span::Span) -> String {
        if s.is_none() || s.end > self.text.len() || s.start > s.end {
            return String::new();
        }
        let t = self.text.get(s.start..s.end).unwrap_or_default();
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        crate::text::clip_to(t, 80)
    }
}

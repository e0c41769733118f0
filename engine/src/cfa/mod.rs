//! The control-flow automaton (CFA), built as CPAchecker builds it: one automaton per function,
//! connected by call and return edges, with side-effect-free operations on the edges.

pub mod export;
pub mod lbe;
mod normalize;
pub mod transform;

use crate::diag::Span;
use crate::ir::{Expr, FuncId, IntType, VarId, VarNames, Variable};
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt;

pub(crate) use normalize::finish;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct NodeId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct EdgeId(pub u32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "N{}", self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum NodeKind {
    Normal,
    FunctionEntry,
    FunctionExit,
    /// Reached by a call of `reach_error()` (or a failing built-in assertion). A sink.
    Error,
    /// Reached by `abort()` or `exit()`: the path ends here without error. A sink.
    Termination,
    /// Reached when a signed operation overflows, in a CFA with overflow checks
    /// ([`overflow::checked`]): a target like [`NodeKind::Error`], but not a violation of
    /// the specification (signed arithmetic wraps); a run that reaches it ends UNKNOWN.
    Overflow,
    /// Reached where the program's behaviour is undefined (an invalid memory access) or
    /// leaves what the memory model follows: a target like [`NodeKind::Error`], but not a
    /// violation of the specification; a run that reaches it ends UNKNOWN naming the line.
    Undefined(Ub),
}

/// Why a location of kind [`NodeKind::Undefined`] is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ub {
    /// An access through a pointer that points to no cell of a live object: null, dangling
    /// (freed, or a local of a function that returned), out of bounds, or misaligned for
    /// the access's type.
    InvalidAccess,
    /// `free` of a pointer that is not the start of a live heap object.
    InvalidFree,
    /// An allocation site, or a function with locals whose address escapes, runs again
    /// while its earlier object is alive (a loop allocating without freeing, recursion):
    /// the memory model keeps one object per site and per local.
    Reused,
    /// Pointer arithmetic whose result is outside its object (beyond one past the end).
    PointerArithmetic,
}

impl Ub {
    /// The reason of an UNKNOWN that reaches it.
    pub fn describe(self) -> &'static str {
        match self {
            Ub::InvalidAccess => "an invalid memory access (null, dangling or out of bounds pointer): the behaviour is undefined",
            Ub::InvalidFree => "free of a pointer that is not the start of a live allocated object: the behaviour is undefined",
            Ub::Reused => "an allocation or a function with locals in memory runs again while its earlier object is in use; the memory model keeps one object per allocation site and per local",
            Ub::PointerArithmetic => "pointer arithmetic leaves its object (beyond one past the end): the behaviour is undefined",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Node {
    pub id: NodeId,
    pub function: FuncId,
    /// The source line the location belongs to (the statement that starts here).
    pub line: u32,
    pub kind: NodeKind,
    /// Target of a back edge of the depth-first search from the function entry. Every cycle of
    /// the function's automaton passes through a loop head.
    pub loop_head: bool,
    /// Position in the reverse postorder of the whole CFA (functions in definition order).
    pub rpo: u32,
    pub outgoing: Vec<EdgeId>,
    pub incoming: Vec<EdgeId>,
}

impl Node {
    /// A location without edges; `rpo` and `loop_head` are set when the CFA is finished.
    pub fn new(id: NodeId, function: FuncId, line: u32, kind: NodeKind) -> Node {
        Node {
            id,
            function,
            line,
            kind,
            loop_head: false,
            rpo: 0,
            outgoing: Vec::new(),
            incoming: Vec::new(),
        }
    }

    /// Whether the location is a target of the analyses: an error location, or an overflow
    /// check's failure in a CFA with overflow checks.
    pub fn is_error(&self) -> bool {
        matches!(
            self.kind,
            NodeKind::Error | NodeKind::Overflow | NodeKind::Undefined(_)
        )
    }
}

/// The right-hand side of an assignment or an initializer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Rhs {
    Expr(Expr),
    /// Any value of the type: `__VERIFIER_nondet_T()`, an uninitialised local, or the result of
    /// a modelled library function. `origin` is what the source wrote.
    Nondet {
        ty: IntType,
        origin: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EdgeKind {
    /// No operation. The text is the description shown in the CFA (`while`, `goto L`, ...).
    Blank(String),
    /// `[cond]` when `truth`, `[!(cond)]` otherwise.
    Assume {
        cond: Expr,
        truth: bool,
    },
    Assign {
        lhs: VarId,
        rhs: Rhs,
    },
    /// A declaration: `init: None` leaves the variable with an arbitrary value. Globals always
    /// get an initializer (0 when the source has none).
    Declare {
        var: VarId,
        init: Option<Rhs>,
    },
    /// From the call site to the callee's entry: assigns the arguments to the parameters.
    /// `return_site` is the caller's location where the matching return edge arrives.
    Call {
        callee: FuncId,
        args: Vec<Expr>,
        return_site: NodeId,
    },
    /// From the callee's exit to `return_site`: assigns the return value to `assign`.
    Return {
        callee: FuncId,
        assign: Option<VarId>,
        call_site: NodeId,
    },
    /// `return e;`: to the function's exit, assigning the function's return variable.
    ReturnValue {
        function: FuncId,
        value: Option<Expr>,
    },
    /// The specification violation (`reach_error()`, failing `assert`): to an error location.
    ReachError(String),
    /// `abort()`/`exit(n)`: to a termination location.
    Abort(String),
}

impl EdgeKind {
    /// Call and return edges connect functions; every other edge stays inside one function.
    pub fn is_interprocedural(&self) -> bool {
        matches!(self, EdgeKind::Call { .. } | EdgeKind::Return { .. })
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Edge {
    pub id: EdgeId,
    pub from: NodeId,
    pub to: NodeId,
    pub kind: EdgeKind,
    pub span: Span,
    /// The source text the edge stands for, where the front end made several edges of one
    /// statement (a memory access through a pointer): the label shows it, the operation
    /// stays in `kind`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Function {
    pub id: FuncId,
    pub name: String,
    pub entry: NodeId,
    pub exit: NodeId,
    pub params: Vec<VarId>,
    /// Return type and the synthetic variable `f::__retval__` that `return e;` assigns.
    pub ret: Option<(IntType, VarId)>,
    pub span: Span,
}

/// A branching statement of the source (`if`, `while`, `do`, `for` with a condition): where
/// its keyword is, the location its condition starts from, and the locations its condition
/// leads to when it holds (`then`: the then-branch or the loop body) and when it does not.
/// Violation witnesses state branchings by them (format 2.0's `branching` waypoints).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branching {
    pub keyword: Span,
    pub entry: NodeId,
    pub then: NodeId,
    pub otherwise: NodeId,
}

/// Most locations of one condition [`Cfa::branching_from`] walks.
const MAX_CONDITION_NODES: usize = 256;

/// The whole program's CFA. Node and edge ids are dense indices into `nodes` and `edges`.
#[derive(Clone, Debug, Serialize)]
pub struct Cfa {
    pub file: String,
    pub functions: Vec<Function>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub vars: Vec<Variable>,
    pub main: FuncId,
    /// The source's branching statements whose locations are all reachable.
    #[serde(skip)]
    pub branchings: Vec<Branching>,
    /// Set by [`overflow::checked`]: every signed `+`, `-`, `*` and unary `-` of at most 32
    /// bits that can overflow is preceded by a check, so the Int encoding encodes them
    /// without wrap-around (where the checks pass, the mathematical result is the C result).
    #[serde(skip)]
    pub overflow_checked: bool,
    /// The objects of the memory model: how addresses map to cells, for showing pointers as
    /// `&a[2]` and memory as rows of cells.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<MemObject>,
}

/// An object of the memory model as the CFA records it (see `frontend::memory`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemObject {
    /// The variable's name, `malloc@12` for an allocation site, `"..."` for a literal.
    pub name: String,
    pub base: u64,
    pub size: u64,
    /// (offset, cell variable), in address order.
    pub cells: Vec<(u64, VarId)>,
    /// An allocation site (its cells have no C name).
    pub heap: bool,
}

impl Cfa {
    /// The object and cell an address points into, as C text: `&a[2]`, `&s.x`, `&a[5]` one
    /// past the end, `malloc@12 (+8)`, `NULL`; `None` for an address of no object.
    pub fn describe_address(&self, a: u64) -> Option<String> {
        self.memory_layout()?.describe(a)
    }
}

impl VarNames for Cfa {
    fn var_name(&self, v: VarId) -> &str {
        &self.var(v).name
    }
}

impl Cfa {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    pub fn edge(&self, id: EdgeId) -> &Edge {
        &self.edges[id.0 as usize]
    }

    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }

    pub fn var(&self, id: VarId) -> &Variable {
        &self.vars[id.0 as usize]
    }

    /// The branching statement whose condition starts at `node`, or else whose condition
    /// has `node` inside (`x > 0 && __VERIFIER_nondet_int()` reads the input after the
    /// first test).
    pub fn branching_from(&self, node: NodeId) -> Option<&Branching> {
        self.branchings
            .iter()
            .find(|b| b.entry == node)
            .or_else(|| {
                self.branchings
                    .iter()
                    .find(|b| self.condition_nodes(b).contains(&node))
            })
    }

    /// The locations of a branching statement's condition: from its entry up to (not
    /// including) its then and else locations, within the function (a call in the condition
    /// ends the walk there), at most [`MAX_CONDITION_NODES`].
    fn condition_nodes(&self, b: &Branching) -> BTreeSet<NodeId> {
        let mut seen = BTreeSet::from([b.entry]);
        let mut todo = vec![b.entry];
        while let Some(n) = todo.pop() {
            for e in self.successors(n) {
                let inside = e.to != b.then
                    && e.to != b.otherwise
                    && !matches!(e.kind, EdgeKind::Call { .. });
                if inside && seen.len() < MAX_CONDITION_NODES && seen.insert(e.to) {
                    todo.push(e.to);
                }
            }
        }
        seen
    }

    /// The program's initial location l0: the entry of `main`.
    pub fn entry(&self) -> NodeId {
        self.function(self.main).entry
    }

    pub fn function_by_name(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    pub fn var_name(&self, id: VarId) -> &str {
        &self.var(id).name
    }

    pub fn error_nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.is_error())
    }

    pub fn successors(&self, n: NodeId) -> impl Iterator<Item = &Edge> {
        self.node(n).outgoing.iter().map(|e| self.edge(*e))
    }

    /// The edge's operation as C-like text, in the style of CPAchecker's edge labels.
    pub fn label(&self, kind: &EdgeKind) -> String {
        let name = |v: VarId| self.var_name(v);
        let rhs = |r: &Rhs| match r {
            Rhs::Expr(e) => e.display(self).to_string(),
            Rhs::Nondet { origin, .. } => origin.clone(),
        };
        match kind {
            EdgeKind::Blank(s) => s.clone(),
            EdgeKind::Assume { cond, truth: true } => format!("[{}]", cond.display(self)),
            EdgeKind::Assume { cond, truth: false } => format!("[!({})]", cond.display(self)),
            EdgeKind::Assign { lhs, rhs: r } => format!("{} = {};", name(*lhs), rhs(r)),
            EdgeKind::Declare { var, init } => {
                let v = self.var(*var);
                match init {
                    None => format!("{} {};", v.ty, v.name),
                    Some(r) => format!("{} {} = {};", v.ty, v.name, rhs(r)),
                }
            }
            EdgeKind::Call { callee, args, .. } => {
                let args: Vec<String> = args.iter().map(|a| a.display(self).to_string()).collect();
                format!("{}({})", self.function(*callee).name, args.join(", "))
            }
            EdgeKind::Return { callee, assign, .. } => match assign {
                Some(v) => format!("{} = return of {}", name(*v), self.function(*callee).name),
                None => format!("return from {}", self.function(*callee).name),
            },
            EdgeKind::ReturnValue { value: Some(e), .. } => format!("return {};", e.display(self)),
            EdgeKind::ReturnValue { value: None, .. } => "return;".to_string(),
            EdgeKind::ReachError(s) | EdgeKind::Abort(s) => s.clone(),
        }
    }

    pub fn edge_label(&self, id: EdgeId) -> String {
        self.label(&self.edge(id).kind)
    }

    /// What the views show for an edge: the source's text where the front end made several
    /// edges of one statement (a memory access: `*p = 7;`), marked with the part this edge
    /// does (the check of the access, or the cell it writes); the operation otherwise.
    pub fn edge_text(&self, e: &Edge) -> String {
        let Some(text) = &e.text else {
            return self.label(&e.kind);
        };
        match &e.kind {
            EdgeKind::Assume { truth: true, .. } => format!("{text}  [access valid]"),
            EdgeKind::Assume { truth: false, .. } => format!("{text}  [invalid access]"),
            EdgeKind::Assign { lhs, .. } if self.var(*lhs).synthetic => format!("{text}  [read]"),
            EdgeKind::Assign { lhs, .. } => format!("{text}  [cell {}]", self.var_name(*lhs)),
            _ => text.clone(),
        }
    }
}

//! Calls replaced by function contracts: a copy of the CFA in which every call of a function
//! with a contract (a condition `post` over its return value `r`) becomes
//!
//! ```text
//! n --g1 = *--> .. --gk = *--> m --r = *--> --[post]--> m' --x = r--> return site
//! ```
//!
//! (every global may have changed; the result is any value the contract allows, converted
//! to `x`'s type as the return converts it), so the callee's body is no longer entered from
//! there. This is the assume-guarantee reading of summaries (procedure contracts): the
//! program is safe if it is safe with every call replaced by its contract, and every function
//! establishes its contract at its exit from any arguments and globals, with the calls in its
//! own body (recursive ones included) replaced the same way. The second half is checked on
//! [`with_main`] copies.
//!
//! Existing node and edge ids are kept (new ones are appended; the call and return edges are
//! only unlinked), so invariants and locations of the original CFA name the same places.

use crate::cfa::{Cfa, Edge, EdgeId, EdgeKind, Node, NodeId, NodeKind, Rhs};
use crate::ir::{Expr, FuncId, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// Functions that can call themselves, directly or through others.
pub fn recursive(cfa: &Cfa) -> BTreeSet<FuncId> {
    let mut calls: BTreeMap<FuncId, BTreeSet<FuncId>> = BTreeMap::new();
    for e in &cfa.edges {
        if let EdgeKind::Call { callee, .. } = e.kind {
            calls
                .entry(cfa.node(e.from).function)
                .or_default()
                .insert(callee);
        }
    }
    let reaches = |from: FuncId, to: FuncId| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<FuncId> = calls.get(&from).into_iter().flatten().copied().collect();
        while let Some(f) = todo.pop() {
            if f == to {
                return true;
            }
            if seen.insert(f) {
                todo.extend(calls.get(&f).into_iter().flatten().copied());
            }
        }
        false
    };
    cfa.functions
        .iter()
        .map(|f| f.id)
        .filter(|&f| reaches(f, f))
        .collect()
}

/// The copy of `cfa` with every call of a function in `contracts` replaced by its contract
/// (a condition over the function's return variable; a function without a return value
/// keeps only the havoc of the globals).
pub fn summarized(cfa: &Cfa, contracts: &BTreeMap<FuncId, Expr>) -> Cfa {
    let mut out = cfa.clone();
    let globals: Vec<VarId> = (0..cfa.vars.len())
        .map(|i| VarId(i as u32))
        .filter(|v| cfa.var(*v).function.is_none())
        .collect();
    for call in &cfa.edges {
        let EdgeKind::Call { return_site, .. } = call.kind else {
            continue;
        };
        let callee = cfa.node(call.to).function;
        let Some(post) = contracts.get(&callee) else {
            continue;
        };
        if !cfa.node(call.from).outgoing.contains(&call.id) {
            continue;
        }
        // The return edge of this call, and the variable it assigns.
        let ret = cfa.edges.iter().find(|e| {
            matches!(e.kind, EdgeKind::Return { call_site, .. } if call_site == call.from)
                && e.to == return_site
        });
        let assign = ret.and_then(|e| match e.kind {
            EdgeKind::Return { assign, .. } => assign,
            _ => None,
        });
        // Unlink the call and its return.
        out.nodes[call.from.0 as usize]
            .outgoing
            .retain(|e| *e != call.id);
        out.nodes[call.to.0 as usize]
            .incoming
            .retain(|e| *e != call.id);
        if let Some(r) = ret {
            out.nodes[r.from.0 as usize].outgoing.retain(|e| *e != r.id);
            out.nodes[return_site.0 as usize]
                .incoming
                .retain(|e| *e != r.id);
        }
        let function = cfa.node(call.from).function;
        let line = call.span.start_line;
        let origin = format!("the contract of {}", cfa.function(callee).name);
        let mut kinds: Vec<EdgeKind> = globals
            .iter()
            .map(|g| EdgeKind::Assign {
                lhs: *g,
                rhs: Rhs::Nondet {
                    ty: cfa.var(*g).ty,
                    origin: origin.clone(),
                },
            })
            .collect();
        if let Some((rty, r)) = cfa.function(callee).ret {
            kinds.push(EdgeKind::Assign {
                lhs: r,
                rhs: Rhs::Nondet {
                    ty: rty,
                    origin: origin.clone(),
                },
            });
            kinds.push(EdgeKind::Assume {
                cond: post.clone(),
                truth: true,
            });
            if let Some(x) = assign {
                let value = Expr::var(r, rty).convert(cfa.var(x).ty);
                kinds.push(EdgeKind::Assign {
                    lhs: x,
                    rhs: Rhs::Expr(value),
                });
            }
        }
        if kinds.is_empty() {
            kinds.push(EdgeKind::Blank(origin.clone()));
        }
        let mut from = call.from;
        let n = kinds.len();
        for (i, kind) in kinds.into_iter().enumerate() {
            let to = if i + 1 == n {
                return_site
            } else {
                let id = NodeId(out.nodes.len() as u32);
                out.nodes
                    .push(Node::new(id, function, line, NodeKind::Normal));
                id
            };
            let id = EdgeId(out.edges.len() as u32);
            out.edges.push(Edge {
                id,
                from,
                to,
                kind,
                span: call.span,
                text: None,
            });
            out.nodes[from.0 as usize].outgoing.push(id);
            out.nodes[to.0 as usize].incoming.push(id);
            from = to;
        }
    }
    crate::cfa::normalize::order(&mut out);
    out
}

/// The copy of `cfa` whose program starts at `f`'s entry (arguments and globals unknown).
pub fn with_main(cfa: &Cfa, f: FuncId) -> Cfa {
    let mut out = cfa.clone();
    out.main = f;
    out
}

//! Large-block encoding: CFA summarization exactly by the rules of Beyer, Cimatti, Griggio,
//! Keremoglu, Sebastiani, "Software Model Checking via Large-Block Encoding" (FMCAD 2009 / TR
//! SFU-CS-2009-09), Sect. III-A:
//!
//! * **Rule 0 (error sink)**, applied once, first: remove every edge leaving an error location.
//! * **Rule 1 (sequence)**: if `(l1, op1, l2)` with `l1 != l2` is the only edge entering `l2`,
//!   remove `l2` and replace each `(l2, op_i, l_i)` by `(l1, op1 ; op_i, l_i)`.
//! * **Rule 2 (choice)**: replace two edges `(l1, op1, l2)` and `(l1, op2, l2)` by
//!   `(l1, op1 ∥ op2, l2)`.
//!
//! Rules 1 and 2 are applied until neither applies. Guards beyond the paper's text, as the
//! a faithful implementation needs and the paper's proof of Thm. III.1 assumes:
//! Rule 1 never eliminates a location without outgoing edges (so error locations, program exits
//! and `abort` sinks survive) and never an error location; the initial location has no incoming
//! edge, so it survives too. The paper's formalism has no calls: here call and return edges are
//! barriers, never composed by Rule 1 or merged by Rule 2, so function entries, exits, call
//! sites and return sites survive and the call stack stays explicit (digest §2.6).
//!
//! The implementation is a worklist over locations (each application removes at least one
//! edge, so there are fewer applications than edges); operations form a shared DAG, so Rule 1's
//! prefix duplication copies a reference, not a term. Every application is recorded so the
//! playground can replay the summarization step by step.
//!
//! **This summary feeds the display** (the page's LBE view, replayed rule by rule, and `cpa
//! cfa --lbe`). The analyses do not run on it: the Predicate CPA forms the same large blocks
//! on the CFA itself with its block operator (`blk^lf`, blocks ending at loop heads and
//! function boundaries; [`crate::domains::predicate`]), as the adjustable-block-encoding
//! view of the unifying-view paper does, so the blocks the analysis abstracts and the edges
//! this summary shows agree without the analysis depending on this module.

use crate::cfa::{Cfa, EdgeId, EdgeKind, NodeId};
use crate::diag::Span;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct OpId(pub u32);

/// An operation of a (summary) edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Op {
    /// An original CFA edge.
    Edge(EdgeId),
    /// `a ; b`: first `a`, then `b`.
    Seq(OpId, OpId),
    /// `a ∥ b`: either.
    Choice(OpId, OpId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SumEdge {
    pub id: u32,
    pub from: NodeId,
    pub to: NodeId,
    pub op: OpId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Rule {
    ErrorSink,
    Sequence,
    Choice,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Application {
    pub rule: Rule,
    /// Rule 0: the error location; Rule 1: the eliminated location `l2`; Rule 2: `l1`.
    pub location: NodeId,
    /// Rule 1: `l1`; Rule 2: `l2`.
    pub other: Option<NodeId>,
    pub removed: Vec<u32>,
    pub added: Vec<u32>,
}

/// The summarization of a CFA with the full history of rule applications.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub ops: Vec<Op>,
    /// Every edge that ever existed; ids `0..cfa.edges.len()` are the original edges.
    pub edges: Vec<SumEdge>,
    pub steps: Vec<Application>,
    /// The edges of the summarized CFA, in id order.
    pub final_edges: Vec<u32>,
    /// The locations of the summarized CFA, in id order.
    pub final_nodes: Vec<NodeId>,
}

struct State {
    ops: Vec<Op>,
    edges: Vec<SumEdge>,
    alive_edge: Vec<bool>,
    out: Vec<BTreeSet<u32>>,
    inc: Vec<BTreeSet<u32>>,
    alive_node: Vec<bool>,
    steps: Vec<Application>,
}

impl State {
    fn new_op(&mut self, op: Op) -> OpId {
        self.ops.push(op);
        OpId(self.ops.len() as u32 - 1)
    }

    fn add_edge(&mut self, from: NodeId, to: NodeId, op: OpId) -> u32 {
        let id = self.edges.len() as u32;
        self.edges.push(SumEdge { id, from, to, op });
        self.alive_edge.push(true);
        self.out[from.0 as usize].insert(id);
        self.inc[to.0 as usize].insert(id);
        id
    }

    fn remove_edge(&mut self, id: u32) {
        let e = self.edges[id as usize];
        self.alive_edge[id as usize] = false;
        self.out[e.from.0 as usize].remove(&id);
        self.inc[e.to.0 as usize].remove(&id);
    }
}

/// Whether an edge may take part in Rule 1 or 2: original call and return edges may not.
fn is_barrier(cfa: &Cfa, st: &State, id: u32) -> bool {
    match st.ops[st.edges[id as usize].op.0 as usize] {
        Op::Edge(e) => cfa.edge(e).kind.is_interprocedural(),
        _ => false,
    }
}

/// Summarizes `cfa` (Rule 0 once, then Rules 1 and 2 to a fixpoint).
pub fn summarize(cfa: &Cfa) -> Summary {
    let n = cfa.nodes.len();
    let mut st = State {
        ops: Vec::with_capacity(cfa.edges.len() * 2),
        edges: Vec::with_capacity(cfa.edges.len() * 2),
        alive_edge: Vec::new(),
        out: vec![BTreeSet::new(); n],
        inc: vec![BTreeSet::new(); n],
        alive_node: vec![true; n],
        steps: Vec::new(),
    };
    for e in &cfa.edges {
        let op = st.new_op(Op::Edge(e.id));
        st.add_edge(e.from, e.to, op);
    }
    // Rule 0, once, before anything else.
    for node in cfa.error_nodes() {
        let removed: Vec<u32> = st.out[node.id.0 as usize].iter().copied().collect();
        for &e in &removed {
            st.remove_edge(e);
        }
        st.steps.push(Application {
            rule: Rule::ErrorSink,
            location: node.id,
            other: None,
            removed,
            added: Vec::new(),
        });
    }
    let entry = cfa.entry();
    let mut queue: VecDeque<NodeId> = cfa.nodes.iter().map(|n| n.id).collect();
    let mut queued = vec![true; n];
    let push = |q: &mut VecDeque<NodeId>, queued: &mut Vec<bool>, x: NodeId| {
        if !queued[x.0 as usize] {
            queued[x.0 as usize] = true;
            q.push_back(x);
        }
    };
    while let Some(l) = queue.pop_front() {
        queued[l.0 as usize] = false;
        if !st.alive_node[l.0 as usize] {
            continue;
        }
        // Rule 2 with l as the source l1: merge parallel edges pairwise.
        loop {
            let mut by_target: BTreeMap<NodeId, Vec<u32>> = BTreeMap::new();
            for &e in &st.out[l.0 as usize] {
                if !is_barrier(cfa, &st, e) {
                    by_target
                        .entry(st.edges[e as usize].to)
                        .or_default()
                        .push(e);
                }
            }
            let Some((target, pair)) = by_target.into_iter().find(|(_, es)| es.len() >= 2) else {
                break;
            };
            let (a, b) = (pair[0], pair[1]);
            let op = st.new_op(Op::Choice(st.edges[a as usize].op, st.edges[b as usize].op));
            st.remove_edge(a);
            st.remove_edge(b);
            let new = st.add_edge(l, target, op);
            st.steps.push(Application {
                rule: Rule::Choice,
                location: l,
                other: Some(target),
                removed: vec![a, b],
                added: vec![new],
            });
            push(&mut queue, &mut queued, target);
        }
        // Rule 1 with l as the eliminated location l2.
        let li = l.0 as usize;
        if l == entry || cfa.node(l).is_error() || st.inc[li].len() != 1 || st.out[li].is_empty() {
            continue;
        }
        let Some(&in_edge) = st.inc[li].iter().next() else {
            continue;
        };
        let l1 = st.edges[in_edge as usize].from;
        if l1 == l
            || is_barrier(cfa, &st, in_edge)
            || st.out[li].iter().any(|&e| is_barrier(cfa, &st, e))
        {
            continue;
        }
        let outs: Vec<u32> = st.out[li].iter().copied().collect();
        let op1 = st.edges[in_edge as usize].op;
        let mut removed = vec![in_edge];
        let mut added = Vec::new();
        st.remove_edge(in_edge);
        for e in outs {
            let SumEdge { to, op, .. } = st.edges[e as usize];
            st.remove_edge(e);
            removed.push(e);
            let seq = st.new_op(Op::Seq(op1, op));
            added.push(st.add_edge(l1, to, seq));
            push(&mut queue, &mut queued, to);
        }
        st.alive_node[li] = false;
        st.steps.push(Application {
            rule: Rule::Sequence,
            location: l,
            other: Some(l1),
            removed,
            added,
        });
        push(&mut queue, &mut queued, l1);
    }
    let final_edges: Vec<u32> = (0..st.edges.len() as u32)
        .filter(|&e| st.alive_edge[e as usize])
        .collect();
    let final_nodes: Vec<NodeId> = cfa
        .nodes
        .iter()
        .map(|n| n.id)
        .filter(|n| st.alive_node[n.0 as usize])
        .collect();
    Summary {
        ops: st.ops,
        edges: st.edges,
        steps: st.steps,
        final_edges,
        final_nodes,
    }
}

/// Longest label text produced for a summary edge (Rule 1 can make terms exponentially long).
pub const MAX_LABEL: usize = 4000;

impl Summary {
    /// The original CFA edges an operation stands for, sorted.
    pub fn original_edges(&self, op: OpId) -> Vec<EdgeId> {
        let mut seen = BTreeSet::new();
        let mut visited = BTreeSet::new();
        let mut stack = vec![op];
        while let Some(o) = stack.pop() {
            if !visited.insert(o) {
                continue;
            }
            match self.ops[o.0 as usize] {
                Op::Edge(e) => {
                    seen.insert(e);
                }
                Op::Seq(a, b) | Op::Choice(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
            }
        }
        seen.into_iter().collect()
    }

    /// The operation in the paper's notation: `a; b` and `(a ∥ b)`; blank edges are `skip` and
    /// vanish inside sequences. Truncated after [`MAX_LABEL`] characters.
    pub fn op_text(&self, cfa: &Cfa, op: OpId) -> String {
        let mut out = String::new();
        self.write_op(cfa, op, &mut out);
        if out.is_empty() {
            out.push_str("skip");
        }
        crate::text::clip_to(out, MAX_LABEL)
    }

    fn write_op(&self, cfa: &Cfa, op: OpId, out: &mut String) {
        if out.len() > MAX_LABEL {
            return;
        }
        match self.ops[op.0 as usize] {
            Op::Edge(e) => match &cfa.edge(e).kind {
                EdgeKind::Blank(_) => {}
                k => out.push_str(cfa.label(k).trim_end_matches(';')),
            },
            Op::Seq(a, b) => {
                let before = out.len();
                self.write_op(cfa, a, out);
                let mid = out.len();
                if mid > before {
                    out.push_str("; ");
                }
                let sep_end = out.len();
                self.write_op(cfa, b, out);
                if out.len() == sep_end && mid > before {
                    out.truncate(mid);
                }
            }
            Op::Choice(a, b) => {
                out.push('(');
                let s = out.len();
                self.write_op(cfa, a, out);
                if out.len() == s {
                    out.push_str("skip");
                }
                out.push_str(" ∥ ");
                let s = out.len();
                self.write_op(cfa, b, out);
                if out.len() == s {
                    out.push_str("skip");
                }
                out.push(')');
            }
        }
    }

    /// The source range covered by an operation's original edges.
    pub fn op_span(&self, cfa: &Cfa, op: OpId) -> Span {
        self.original_edges(op)
            .into_iter()
            .map(|e| cfa.edge(e).span)
            .filter(|s| s.start_line > 0)
            .reduce(Span::join)
            .unwrap_or_default()
    }

    pub fn graph_edge(&self, cfa: &Cfa, id: u32) -> crate::cfa::export::GraphEdge {
        let e = self.edges[id as usize];
        let originals = self.original_edges(e.op);
        let (kind, label) = match self.ops[e.op.0 as usize] {
            Op::Edge(orig) => {
                let edge = cfa.edge(orig);
                (
                    crate::cfa::export::edge_kind_name(&edge.kind).to_string(),
                    cfa.edge_text(edge),
                )
            }
            _ => ("summary".to_string(), self.op_text(cfa, e.op)),
        };
        let span = self.op_span(cfa, e.op);
        crate::cfa::export::GraphEdge {
            id,
            from: e.from.0,
            to: e.to.0,
            label,
            lines: [span.start_line, span.end_line],
            kind,
            edges: Some(originals.into_iter().map(|x| x.0).collect()),
        }
    }

    /// The summarized CFA as a graph.
    pub fn graph(&self, cfa: &Cfa) -> crate::cfa::export::Graph {
        crate::cfa::export::Graph {
            nodes: self
                .final_nodes
                .iter()
                .map(|n| cfa.graph_node(*n))
                .collect(),
            edges: self
                .final_edges
                .iter()
                .map(|&e| self.graph_edge(cfa, e))
                .collect(),
            memory: None,
        }
    }
}

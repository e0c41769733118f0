//! Structural post-processing of a freshly built CFA: removal of dead code, dense renumbering,
//! adjacency lists, reverse postorder and loop heads.

use crate::cfa::{Cfa, EdgeId, EdgeKind, NodeId};

/// Intra-procedural successors of `n`: normal edges, and for a call edge the return site (the
/// callee's body is another function's automaton).
fn local_successors(cfa: &Cfa, out: &[Vec<usize>], n: usize) -> Vec<usize> {
    out[n]
        .iter()
        .filter_map(|&e| match &cfa.edges[e].kind {
            EdgeKind::Call { return_site, .. } => Some(return_site.0 as usize),
            EdgeKind::Return { .. } => None,
            _ => Some(cfa.edges[e].to.0 as usize),
        })
        .collect()
}

/// Iterative DFS from `start`; returns the postorder and the set of back-edge targets.
fn dfs(
    cfa: &Cfa,
    out: &[Vec<usize>],
    start: usize,
    visited: &mut [u8],
) -> (Vec<usize>, Vec<usize>) {
    // visited: 0 = new, 1 = on stack, 2 = done
    let mut post = Vec::new();
    let mut heads = Vec::new();
    let mut stack: Vec<(usize, Vec<usize>, usize)> = Vec::new();
    visited[start] = 1;
    stack.push((start, local_successors(cfa, out, start), 0));
    while let Some(top) = stack.last_mut() {
        let (n, succs, i) = (top.0, &top.1, top.2);
        if i < succs.len() {
            let s = succs[i];
            top.2 += 1;
            match visited[s] {
                0 => {
                    visited[s] = 1;
                    let ss = local_successors(cfa, out, s);
                    stack.push((s, ss, 0));
                }
                1 => heads.push(s),
                _ => {}
            }
        } else {
            visited[n] = 2;
            post.push(n);
            stack.pop();
        }
    }
    (post, heads)
}

/// The locations in reverse postorder per function (functions in definition order), from the
/// outgoing edge indices `out` of each location, and whether each is a loop head.
fn reverse_postorder(cfa: &Cfa, out: &[Vec<usize>], visited: &mut [u8]) -> (Vec<usize>, Vec<bool>) {
    let mut order = Vec::new();
    let mut loop_heads = vec![false; visited.len()];
    for f in &cfa.functions {
        let (post, heads) = dfs(cfa, out, f.entry.0 as usize, visited);
        for h in heads {
            loop_heads[h] = true;
        }
        let mut rpo: Vec<usize> = post.into_iter().rev().collect();
        // The exit location is kept even when no path reaches it (the return edges need it).
        let exit = f.exit.0 as usize;
        if visited[exit] == 0 {
            visited[exit] = 2;
            rpo.push(exit);
        }
        order.extend(rpo);
    }
    (order, loop_heads)
}

/// Removes locations unreachable from their function's entry (and edges touching them),
/// renumbers nodes in reverse postorder per function (functions in definition order) and edges
/// by source node, and computes loop heads.
pub(crate) fn finish(mut cfa: Cfa) -> Cfa {
    let n = cfa.nodes.len();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in cfa.edges.iter().enumerate() {
        out[e.from.0 as usize].push(i);
    }
    let mut visited = vec![0u8; n];
    // Old node ids in the new order.
    let (order, loop_heads) = reverse_postorder(&cfa, &out, &mut visited);
    let mut new_id = vec![u32::MAX; n];
    for (i, &old) in order.iter().enumerate() {
        new_id[old] = i as u32;
    }
    let mut nodes: Vec<_> = order
        .iter()
        .enumerate()
        .map(|(i, &old)| {
            let mut node = cfa.nodes[old].clone();
            node.id = NodeId(i as u32);
            node.rpo = i as u32;
            node.loop_head = loop_heads[old];
            node.outgoing.clear();
            node.incoming.clear();
            node
        })
        .collect();
    let remap = |id: NodeId| new_id[id.0 as usize];
    let mut edges: Vec<_> = cfa
        .edges
        .drain(..)
        .filter(|e| remap(e.from) != u32::MAX && remap(e.to) != u32::MAX)
        .filter(|e| match &e.kind {
            // A return edge whose call site is dead goes too.
            EdgeKind::Return { call_site, .. } => remap(*call_site) != u32::MAX,
            EdgeKind::Call { return_site, .. } => remap(*return_site) != u32::MAX,
            _ => true,
        })
        .map(|mut e| {
            e.from = NodeId(remap(e.from));
            e.to = NodeId(remap(e.to));
            match &mut e.kind {
                EdgeKind::Call { return_site, .. } => *return_site = NodeId(remap(*return_site)),
                EdgeKind::Return { call_site, .. } => *call_site = NodeId(remap(*call_site)),
                _ => {}
            }
            e
        })
        .collect();
    // Edges ordered by source location, keeping creation order among siblings (deterministic).
    edges.sort_by_key(|e| e.from);
    for (i, e) in edges.iter_mut().enumerate() {
        e.id = EdgeId(i as u32);
    }
    for e in &edges {
        nodes[e.from.0 as usize].outgoing.push(e.id);
        nodes[e.to.0 as usize].incoming.push(e.id);
    }
    // Locations without a line take the line of an incoming edge.
    for node in nodes.iter_mut() {
        if node.line == 0 {
            node.line = node
                .incoming
                .first()
                .map(|e| edges[e.0 as usize].span.end_line)
                .unwrap_or(0);
        }
    }
    for f in cfa.functions.iter_mut() {
        f.entry = NodeId(remap(f.entry));
        f.exit = NodeId(remap(f.exit));
    }
    cfa.branchings.retain_mut(|b| {
        let ids = [remap(b.entry), remap(b.then), remap(b.otherwise)];
        if ids.contains(&u32::MAX) {
            return false;
        }
        (b.entry, b.then, b.otherwise) = (NodeId(ids[0]), NodeId(ids[1]), NodeId(ids[2]));
        true
    });
    cfa.nodes = nodes;
    cfa.edges = edges;
    cfa
}

/// Recomputes the reverse postorder (`rpo`) of every location without renumbering them: for
/// a CFA to which locations were added ([`crate::cfa::transform::overflow::checked`]), whose ids must stay
/// those of the original. Loop heads are kept.
pub(crate) fn order(cfa: &mut Cfa) {
    let n = cfa.nodes.len();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for node in &cfa.nodes {
        out[node.id.0 as usize] = node.outgoing.iter().map(|e| e.0 as usize).collect();
    }
    let mut visited = vec![0u8; n];
    let (mut order, _) = reverse_postorder(cfa, &out, &mut visited);
    // Locations no entry reaches (none in a finished CFA) keep their place at the end.
    order.extend((0..n).filter(|&i| visited[i] == 0));
    for (i, old) in order.into_iter().enumerate() {
        cfa.nodes[old].rpo = i as u32;
    }
}

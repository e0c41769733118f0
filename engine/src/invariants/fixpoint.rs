//! The fixpoint iteration the abstract interpreters share ([`crate::invariants::intervals`],
//! [`crate::invariants::octagon`]): chaotic iteration over the locations of one function to a
//! post-fixpoint, widening at loop heads after two visits, then narrowing rounds that recompute
//! every location from its predecessors (a sound post-fixpoint stays sound under one
//! application of the transfer functions).

use crate::cfa::{Cfa, Edge, NodeId};
use crate::ir::FuncId;
use std::collections::{BTreeMap, VecDeque};

/// The successor of a state along an edge within the function (`None`: none).
pub type Post<'a, S> = &'a dyn Fn(&S, &Edge) -> Option<(NodeId, S)>;

/// An abstract domain as the iteration uses it.
pub struct Domain<'a, S> {
    pub post: Post<'a, S>,
    pub join: &'a dyn Fn(&S, &S) -> S,
    /// `widen(old, new)`: an upper bound of both that stabilises every increasing chain.
    pub widen: &'a dyn Fn(&S, &S) -> S,
    /// Brings a stored state into the form `post` expects (the octagon's closure); `false`:
    /// it is empty. Widened states are stored as `widen` made them, so that widening
    /// terminates.
    pub normalize: &'a dyn Fn(&mut S) -> bool,
}

/// The states of `function`'s reachable locations, from `start` at its entry.
pub fn solve<S: Clone + PartialEq>(
    cfa: &Cfa,
    function: FuncId,
    start: S,
    d: &Domain<S>,
    narrowing: usize,
) -> BTreeMap<NodeId, S> {
    let entry = cfa.function(function).entry;
    let mut at: BTreeMap<NodeId, S> = BTreeMap::from([(entry, start.clone())]);
    let mut queue: VecDeque<NodeId> = VecDeque::from([entry]);
    let mut visits: BTreeMap<NodeId, u32> = BTreeMap::new();
    while let Some(n) = queue.pop_front() {
        let Some(mut s) = at.get(&n).cloned() else {
            continue;
        };
        if !(d.normalize)(&mut s) {
            continue;
        }
        for e in cfa.successors(n) {
            let Some((to, post)) = (d.post)(&s, e) else {
                continue;
            };
            if cfa.node(to).function != function {
                continue;
            }
            let new = match at.get(&to) {
                None => post,
                Some(old) => {
                    let joined = (d.join)(old, &post);
                    let count = visits.entry(to).or_insert(0);
                    *count += 1;
                    if cfa.node(to).loop_head && *count > 2 {
                        (d.widen)(old, &joined)
                    } else {
                        joined
                    }
                }
            };
            if at.get(&to) != Some(&new) {
                at.insert(to, new);
                queue.push_back(to);
            }
        }
    }
    normalize_all(&mut at, d);
    for _ in 0..narrowing {
        let mut next: BTreeMap<NodeId, S> = BTreeMap::from([(entry, start.clone())]);
        for (n, s) in &at {
            for e in cfa.successors(*n) {
                let Some((to, post)) = (d.post)(s, e) else {
                    continue;
                };
                if cfa.node(to).function != function || to == entry {
                    continue;
                }
                let merged = match next.get(&to) {
                    None => post,
                    Some(old) => (d.join)(old, &post),
                };
                next.insert(to, merged);
            }
        }
        normalize_all(&mut next, d);
        at = next;
    }
    at
}

/// Normalizes every state, dropping the empty ones.
fn normalize_all<S>(at: &mut BTreeMap<NodeId, S>, d: &Domain<S>) {
    at.retain(|_, s| (d.normalize)(s));
}

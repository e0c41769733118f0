//! How a refinement rebuilds the ARG: lazily from the pivot (lazy abstraction: the subtree of
//! the pivot is removed and its parents are expanded again with the refined precision), or
//! fully (everything but the root is removed; Theta's FULL pruning).

use crate::cfa::Cfa;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::Precision;
use crate::events::Event;
use std::collections::BTreeSet;
use std::rc::Rc;

/// Removes `roots` with their subtrees, and what was covered only by removed states (their
/// coverer is gone), transitively. Siblings created by the same transfer (the same parent and
/// edge: enumerated values) go with them, so that expanding the parent again recreates the
/// whole group. Returns the removed states in id order.
pub fn remove_subtrees<S: Clone, P>(arg: &mut Arg<S, P>, roots: &[ArgId]) -> Vec<ArgId> {
    let mut removed: Vec<ArgId> = Vec::new();
    let mut todo: Vec<ArgId> = roots.to_vec();
    while !todo.is_empty() {
        // Every state of `batch` comes with its whole subtree, so a state already in it needs
        // no second walk (without this, a chain of n states walks O(n²): each of its states
        // is a sibling of itself).
        let mut batch: BTreeSet<ArgId> = BTreeSet::new();
        for r in &todo {
            for s in arg.subtree(*r) {
                batch.insert(s);
                // Siblings from the same transfer.
                for &(p, edge) in &arg.node(s).parents {
                    for &c in &arg.node(p).children {
                        if !batch.contains(&c)
                            && arg.node(c).is_alive()
                            && arg.node(c).parents.contains(&(p, edge))
                        {
                            batch.extend(arg.subtree(c));
                        }
                    }
                }
            }
        }
        let batch: Vec<ArgId> = batch.into_iter().collect();
        removed.extend(batch.iter().copied());
        // States covered by removed states are removed too.
        todo = arg.remove(&batch);
    }
    removed.sort();
    removed.dedup();
    removed
}

/// Lazy pruning at `pivot`: its subtree goes, the surviving parents of removed states get the
/// refined precision (joined with their own) and are expanded again.
pub fn lazy<S: Clone, P: Precision>(
    cfa: &Cfa,
    arg: &mut Arg<S, P>,
    pivot: ArgId,
    refined: &Rc<P>,
    events: &mut Vec<Event>,
) {
    let removed = remove_subtrees(arg, &[pivot]);
    let removed_set: BTreeSet<ArgId> = removed.iter().copied().collect();
    let mut parents: BTreeSet<ArgId> = BTreeSet::new();
    for r in &removed {
        for (p, _) in &arg.node(*r).parents {
            if !removed_set.contains(p) && arg.node(*p).is_alive() {
                parents.insert(*p);
            }
        }
    }
    for p in &parents {
        // Joined, not replaced: a parent may hold precision from other branches.
        let prec = arg.node(*p).prec.join(refined);
        arg.node_mut(*p).prec = Rc::new(prec);
        arg.enqueue(cfa, *p);
    }
    events.push(Event::Removed {
        states: removed.iter().map(|r| r.0).collect(),
    });
    events.push(Event::Readded {
        states: parents.iter().map(|p| p.0).collect(),
    });
    events.push(Event::Refined {
        refinement: 0,
        pivot: Some(pivot.0),
    });
}

/// Full pruning: every state but the root goes; the root gets the refined precision and is
/// expanded again.
pub fn full<S: Clone, P: Precision>(
    cfa: &Cfa,
    arg: &mut Arg<S, P>,
    refined: &Rc<P>,
    events: &mut Vec<Event>,
) {
    let root = ArgId(0);
    let children: Vec<ArgId> = arg.node(root).children.clone();
    let removed = remove_subtrees(arg, &children);
    let prec = arg.node(root).prec.join(refined);
    arg.node_mut(root).prec = Rc::new(prec);
    arg.enqueue(cfa, root);
    events.push(Event::Removed {
        states: removed.iter().map(|r| r.0).collect(),
    });
    events.push(Event::Readded {
        states: vec![root.0],
    });
    events.push(Event::Refined {
        refinement: 0,
        pivot: Some(root.0),
    });
}

//! The abstract reachability graph (the ARG CPA of the papers) together with the reached set
//! and the waitlist it indexes.
//!
//! Every abstract state the analysis ever creates is an [`ArgNode`] with a dense id in creation
//! order. A node is *reached* while it is alive, not covered and not merged away; the reached
//! states are indexed by their control state, because every composite operator here requires
//! equal control parts (merge-agree, stop^sep on location, call stack and loop counters).
//! Covered nodes stay in the graph as leaves (the playground draws them, IMPACT may uncover them).

use crate::cfa::{Cfa, EdgeId};
use crate::cpa::control::ControlState;
use crate::cpa::waitlist::{Waitlist, WaitlistOrder};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

pub use crate::cpa::ArgId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    /// Removed by refinement or because an ancestor was replaced.
    Removed,
    /// Replaced by the result of a merge.
    Merged(ArgId),
}

#[derive(Clone, Debug)]
pub struct ArgNode<D, P> {
    pub id: ArgId,
    pub ctl: ControlState,
    pub data: D,
    /// The precision successors are computed with (grown by lazy pruning when the state is
    /// expanded again).
    pub prec: Rc<P>,
    /// The precision the state itself was computed with (never changes: a refinement whose
    /// increment this lacks at the state's location must rebuild the state).
    pub made_with: Rc<P>,
    /// Predecessors with the CFA edge taken; several after a merge.
    pub parents: Vec<(ArgId, EdgeId)>,
    pub children: Vec<ArgId>,
    /// The length of the shortest path from a root through the parents the node was created
    /// with (the weighted error-distance searches order by it).
    pub depth: u32,
    pub covered_by: Option<ArgId>,
    /// Nodes this node covers.
    pub covering: BTreeSet<ArgId>,
    pub status: Status,
}

impl<D, P> ArgNode<D, P> {
    pub fn is_alive(&self) -> bool {
        self.status == Status::Alive
    }
}

pub struct Arg<D, P> {
    pub nodes: Vec<ArgNode<D, P>>,
    reached: BTreeMap<ControlState, BTreeSet<ArgId>>,
    /// Per node: whether it is in `reached` (an O(1) test for the candidate look-ups).
    in_reached: Vec<bool>,
    /// The nodes that rejoined the reached set after they had left it (uncovered, or put
    /// back after a merge removed their covering node), in order: the candidate indexes
    /// drop the states that leave the reached set and take these back in.
    rejoined: Vec<ArgId>,
    pub waitlist: Waitlist,
}

impl<D: Clone, P> Arg<D, P> {
    pub fn new(order: WaitlistOrder) -> Arg<D, P> {
        Arg {
            nodes: Vec::new(),
            reached: BTreeMap::new(),
            in_reached: Vec::new(),
            rejoined: Vec::new(),
            waitlist: Waitlist::new(order),
        }
    }

    pub fn node(&self, id: ArgId) -> &ArgNode<D, P> {
        &self.nodes[id.0 as usize]
    }

    pub fn node_mut(&mut self, id: ArgId) -> &mut ArgNode<D, P> {
        &mut self.nodes[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Reached states with exactly this control state (the merge and stop candidates).
    pub fn reached_at(&self, ctl: &ControlState) -> Vec<ArgId> {
        self.reached
            .get(ctl)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    /// Whether `id` is in the reached set.
    pub fn is_reached(&self, id: ArgId) -> bool {
        self.in_reached[id.0 as usize]
    }

    /// The nodes that rejoined the reached set after leaving it, in order.
    pub fn rejoined(&self) -> &[ArgId] {
        &self.rejoined
    }

    /// All reached states, in id order.
    pub fn reached(&self) -> Vec<ArgId> {
        let mut all: Vec<ArgId> = self.reached.values().flatten().copied().collect();
        all.sort();
        all
    }

    pub fn alive(&self) -> impl Iterator<Item = &ArgNode<D, P>> {
        self.nodes.iter().filter(|n| n.is_alive())
    }

    /// Creates a node; it joins the reached set and the waitlist unless `covered_by` is set.
    pub fn add(
        &mut self,
        cfa: &Cfa,
        ctl: ControlState,
        data: D,
        prec: Rc<P>,
        parents: Vec<(ArgId, EdgeId)>,
        covered_by: Option<ArgId>,
    ) -> ArgId {
        let id = ArgId(self.nodes.len() as u32);
        let depth = parents
            .iter()
            .map(|(p, _)| self.nodes[p.0 as usize].depth.saturating_add(1))
            .min()
            .unwrap_or(0);
        for (p, _) in &parents {
            self.nodes[p.0 as usize].children.push(id);
        }
        self.in_reached.push(false);
        if let Some(c) = covered_by {
            self.nodes[c.0 as usize].covering.insert(id);
        } else {
            self.enter_reached(id, &ctl);
            self.waitlist.push(cfa, id, &ctl, depth);
        }
        self.nodes.push(ArgNode {
            id,
            ctl,
            data,
            made_with: prec.clone(),
            prec,
            parents,
            children: Vec::new(),
            depth,
            covered_by,
            covering: BTreeSet::new(),
            status: Status::Alive,
        });
        id
    }

    fn enter_reached(&mut self, id: ArgId, ctl: &ControlState) {
        self.reached.entry(ctl.clone()).or_default().insert(id);
        self.in_reached[id.0 as usize] = true;
    }

    /// A node that left the reached set returns to it.
    fn rejoin_reached(&mut self, id: ArgId, ctl: &ControlState) {
        self.enter_reached(id, ctl);
        self.rejoined.push(id);
    }

    fn leave_reached(&mut self, id: ArgId) {
        self.in_reached[id.0 as usize] = false;
        let ctl = self.nodes[id.0 as usize].ctl.clone();
        if let Some(set) = self.reached.get_mut(&ctl) {
            set.remove(&id);
            if set.is_empty() {
                self.reached.remove(&ctl);
            }
        }
        self.waitlist.remove(id);
    }

    pub fn in_waitlist(&self, id: ArgId) -> bool {
        self.waitlist.contains(id)
    }

    /// Puts a reached node (back) into the waitlist.
    pub fn enqueue(&mut self, cfa: &Cfa, id: ArgId) {
        let node = &self.nodes[id.0 as usize];
        if node.is_alive() && node.covered_by.is_none() {
            self.waitlist.push(cfa, id, &node.ctl, node.depth);
        }
    }

    pub fn pop(&mut self) -> Option<ArgId> {
        self.waitlist.pop()
    }

    /// Marks `id` covered by `by`: it leaves the reached set and the waitlist.
    pub fn cover(&mut self, id: ArgId, by: ArgId) {
        self.leave_reached(id);
        self.nodes[id.0 as usize].covered_by = Some(by);
        self.nodes[by.0 as usize].covering.insert(id);
    }

    /// Removes the coverage of `id`; it rejoins the reached set (not the waitlist).
    pub fn uncover(&mut self, id: ArgId) {
        if let Some(by) = self.nodes[id.0 as usize].covered_by.take() {
            self.nodes[by.0 as usize].covering.remove(&id);
            if self.nodes[id.0 as usize].is_alive() {
                let ctl = self.nodes[id.0 as usize].ctl.clone();
                self.rejoin_reached(id, &ctl);
            }
        }
    }

    /// Covers `id` by `by` together with its subtree (IMPACT): the subtree leaves the reached
    /// set and the waitlist. Returns the nodes taken out of the waitlist.
    pub fn cover_subtree(&mut self, id: ArgId, by: ArgId) -> Vec<ArgId> {
        let sub = self.subtree(id);
        let left: Vec<ArgId> = sub
            .iter()
            .copied()
            .filter(|n| self.waitlist.contains(*n))
            .collect();
        for n in &sub {
            self.leave_reached(*n);
        }
        self.nodes[id.0 as usize].covered_by = Some(by);
        self.nodes[by.0 as usize].covering.insert(id);
        left
    }

    /// After `id` was uncovered: the nodes of its subtree that are not covered themselves (nor
    /// below another covered node) rejoin the reached set, and its leaves the waitlist.
    /// Returns the nodes put into the waitlist.
    pub fn rejoin_subtree(&mut self, cfa: &Cfa, id: ArgId) -> Vec<ArgId> {
        let mut added = Vec::new();
        let mut stack = vec![id];
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if !seen.insert(n)
                || !self.nodes[n.0 as usize].is_alive()
                || self.nodes[n.0 as usize].covered_by.is_some()
            {
                continue;
            }
            let ctl = self.nodes[n.0 as usize].ctl.clone();
            self.rejoin_reached(n, &ctl);
            let children: Vec<ArgId> = self.nodes[n.0 as usize]
                .children
                .iter()
                .copied()
                .filter(|c| self.nodes[c.0 as usize].is_alive())
                .collect();
            if children.is_empty() {
                self.waitlist
                    .push(cfa, n, &ctl, self.nodes[n.0 as usize].depth);
                added.push(n);
            }
            stack.extend(children);
        }
        added
    }

    /// `id` and all its descendants that are still alive, in id order.
    pub fn subtree(&self, id: ArgId) -> Vec<ArgId> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if !self.nodes[n.0 as usize].is_alive() || !seen.insert(n) {
                continue;
            }
            stack.extend(self.nodes[n.0 as usize].children.iter().copied());
        }
        seen.into_iter().collect()
    }

    /// Removes the given nodes from the graph, the reached set and the waitlist. Nodes they
    /// covered are uncovered; returns those (they need the caller's attention).
    pub fn remove(&mut self, ids: &[ArgId]) -> Vec<ArgId> {
        let removed: BTreeSet<ArgId> = ids.iter().copied().collect();
        let mut uncovered = Vec::new();
        for &id in &removed {
            self.leave_reached(id);
            if let Some(by) = self.nodes[id.0 as usize].covered_by.take() {
                self.nodes[by.0 as usize].covering.remove(&id);
            }
            let covering: Vec<ArgId> = std::mem::take(&mut self.nodes[id.0 as usize].covering)
                .into_iter()
                .collect();
            for c in covering {
                self.nodes[c.0 as usize].covered_by = None;
                if !removed.contains(&c) {
                    uncovered.push(c);
                }
            }
            self.nodes[id.0 as usize].status = Status::Removed;
        }
        // Detach from surviving parents.
        for &id in &removed {
            let parents = self.nodes[id.0 as usize].parents.clone();
            for (p, _) in parents {
                if !removed.contains(&p) {
                    self.nodes[p.0 as usize].children.retain(|c| *c != id);
                }
            }
        }
        uncovered.sort();
        uncovered.dedup();
        uncovered
    }

    /// Replaces reached node `old` by a merged node with `data`, the parents of `old` and the
    /// extra parent `extra`. If `old` had been expanded already, its descendants are removed
    /// (they were computed from the smaller state; the merged node is re-expanded). Returns the
    /// merged node and the removed descendants.
    pub fn merge_into_new(
        &mut self,
        cfa: &Cfa,
        old: ArgId,
        data: D,
        prec: Rc<P>,
        extra: (ArgId, EdgeId),
    ) -> (ArgId, Vec<ArgId>) {
        let descendants: Vec<ArgId> = self
            .subtree(old)
            .into_iter()
            .filter(|d| *d != old)
            .collect();
        // Descendants that were merge results also stand for paths from parents outside the
        // subtree; those parents must be expanded again or their paths would be lost.
        let outside: Vec<ArgId> = self
            .outside_parents(&descendants)
            .into_iter()
            .filter(|p| *p != old)
            .collect();
        let uncovered = self.remove(&descendants);
        for p in outside {
            self.enqueue(cfa, p);
        }
        // Nodes covered by removed descendants must be re-explored from their own state.
        for u in uncovered {
            if self.nodes[u.0 as usize].is_alive() {
                let ctl = self.nodes[u.0 as usize].ctl.clone();
                self.rejoin_reached(u, &ctl);
                self.waitlist
                    .push(cfa, u, &ctl, self.nodes[u.0 as usize].depth);
            }
        }
        self.leave_reached(old);
        let mut parents = self.nodes[old.0 as usize].parents.clone();
        if !parents.contains(&extra) {
            parents.push(extra);
        }
        for (p, _) in &parents {
            self.nodes[p.0 as usize].children.retain(|c| *c != old);
        }
        self.nodes[old.0 as usize].children.clear();
        let ctl = self.nodes[old.0 as usize].ctl.clone();
        let new = self.add(cfa, ctl, data, prec, parents, None);
        self.nodes[old.0 as usize].status = Status::Merged(new);
        // The merged state is larger than `old`: what `old` covered, it covers.
        let covered = std::mem::take(&mut self.nodes[old.0 as usize].covering);
        for c in &covered {
            self.nodes[c.0 as usize].covered_by = Some(new);
        }
        self.nodes[new.0 as usize].covering.extend(covered);
        (new, descendants)
    }

    /// The alive parents of `removed` nodes that are not removed themselves.
    pub fn outside_parents(&self, removed: &[ArgId]) -> Vec<ArgId> {
        let set: BTreeSet<ArgId> = removed.iter().copied().collect();
        let mut out = BTreeSet::new();
        for r in removed {
            for (p, _) in &self.nodes[r.0 as usize].parents {
                if !set.contains(p) && self.nodes[p.0 as usize].is_alive() {
                    out.insert(*p);
                }
            }
        }
        out.into_iter().collect()
    }

    /// The alive successor of `parent` along `edge`, if it exists.
    pub fn child_via(&self, parent: ArgId, edge: EdgeId) -> Option<ArgId> {
        self.nodes[parent.0 as usize]
            .children
            .iter()
            .copied()
            .find(|c| {
                self.nodes[c.0 as usize].is_alive()
                    && self.nodes[c.0 as usize].parents.contains(&(parent, edge))
            })
    }

    /// Whether `a` is an ancestor of (or equal to) `b`.
    pub fn is_ancestor(&self, a: ArgId, b: ArgId) -> bool {
        let mut seen = BTreeSet::new();
        let mut stack = vec![b];
        while let Some(n) = stack.pop() {
            if n == a {
                return true;
            }
            if !seen.insert(n) {
                continue;
            }
            stack.extend(self.nodes[n.0 as usize].parents.iter().map(|(p, _)| *p));
        }
        false
    }

    /// Follows one path of first parents from `id` back to the root (root first).
    pub fn path_to(&self, id: ArgId) -> Vec<ArgId> {
        let mut path = vec![id];
        let mut cur = id;
        while let Some((p, _)) = self.nodes[cur.0 as usize].parents.first() {
            path.push(*p);
            cur = *p;
        }
        path.reverse();
        path
    }
}

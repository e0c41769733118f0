//! Waitlist orders. The order decides which reached state is expanded next; it changes the ARG
//! and the number of refinements, never the verdict.

use crate::cfa::Cfa;
use crate::cpa::control::ControlState;
use crate::cpa::ArgId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WaitlistOrder {
    /// Oldest state first.
    Bfs,
    /// Newest state first.
    Dfs,
    /// Deepest call stack first, then the smallest reverse-postorder number of the location
    /// (so that inside a loop-free block every predecessor of a join location is expanded and
    /// merged before the join is), then newest first. CPAchecker's reverse-postorder waitlist
    /// with call-stack sorting. With loop counters (the Loop-Bound CPA of BMC and
    /// k-induction) the smallest sum of the counters comes first: every CFA edge into a loop
    /// head increments a counter and every other edge goes forward in reverse postorder, so
    /// (sum, rpo) is a topological order of the unrolled program and states that merge are
    /// all merged before any of them is expanded (no re-expansion after a merge).
    Rpo,
    /// Nearest to an error location first: the length of the shortest CFA path from the
    /// state's location to an error location, ignoring the operations (a backward breadth-first
    /// search from the error locations, call and return edges included; locations that reach
    /// no error come last); ties oldest first. The `ERR` search of Hajdu and Micskei,
    /// "Efficient Strategies for CEGAR-Based Model Checking", Sect. 3.1.2 (weights w_E = 1,
    /// w_D = 0).
    Err,
    /// The same paper's weighted metric `w_D · d_D + w_E · d_E` (Sect. 3.1.2, Table 2's
    /// `ERR_DFS`): w_D = 2, w_E = 1, where d_D is the state's depth in the ARG and d_E the
    /// distance above. The depth term keeps the search from unrolling a loop while a branch
    /// farther from the error waits (the paper's Fig. 5b); ties oldest first, locations that
    /// reach no error last.
    ErrDfs,
    /// Table 2's `DFS_ERR`: w_D = 1, w_E = 2 (more weight on the distance to the error).
    DfsErr,
}

impl WaitlistOrder {
    pub const ALL: [WaitlistOrder; 6] = [
        WaitlistOrder::Bfs,
        WaitlistOrder::Dfs,
        WaitlistOrder::Rpo,
        WaitlistOrder::Err,
        WaitlistOrder::ErrDfs,
        WaitlistOrder::DfsErr,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WaitlistOrder::Bfs => "bfs",
            WaitlistOrder::Dfs => "dfs",
            WaitlistOrder::Rpo => "rpo",
            WaitlistOrder::Err => "err",
            WaitlistOrder::ErrDfs => "err-dfs",
            WaitlistOrder::DfsErr => "dfs-err",
        }
    }
}

type Key = (i64, i64, i64, i64);

pub struct Waitlist {
    order: WaitlistOrder,
    set: BTreeSet<(Key, ArgId)>,
    keys: BTreeMap<ArgId, Key>,
    /// Distance of each location to the nearest error location (`Err`), computed on first use.
    distance: Vec<i64>,
}

/// The length of the shortest CFA path from each location to an error location (`i64::MAX`
/// when there is none).
pub fn error_distance(cfa: &Cfa) -> Vec<i64> {
    let mut dist = vec![i64::MAX; cfa.nodes.len()];
    let mut queue = std::collections::VecDeque::new();
    for n in &cfa.nodes {
        if n.is_error() {
            dist[n.id.0 as usize] = 0;
            queue.push_back(n.id);
        }
    }
    while let Some(l) = queue.pop_front() {
        let d = dist[l.0 as usize];
        for e in &cfa.node(l).incoming {
            let from = cfa.edge(*e).from;
            if dist[from.0 as usize] == i64::MAX {
                dist[from.0 as usize] = d + 1;
                queue.push_back(from);
            }
        }
    }
    dist
}

impl Waitlist {
    pub fn new(order: WaitlistOrder) -> Waitlist {
        Waitlist {
            order,
            set: BTreeSet::new(),
            keys: BTreeMap::new(),
            distance: Vec::new(),
        }
    }

    /// `depth`: the state's depth in the ARG (the length of its shortest path from the root).
    fn key(&mut self, cfa: &Cfa, id: ArgId, ctl: &ControlState, depth: u32) -> Key {
        let n = i64::from(id.0);
        match self.order {
            // (w_D, w_E) of the efficient-CEGAR paper's Table 2.
            WaitlistOrder::Err => self.error_key(cfa, ctl, depth, n, (0, 1)),
            WaitlistOrder::ErrDfs => self.error_key(cfa, ctl, depth, n, (2, 1)),
            WaitlistOrder::DfsErr => self.error_key(cfa, ctl, depth, n, (1, 2)),
            WaitlistOrder::Bfs => (0, 0, 0, n),
            WaitlistOrder::Dfs => (0, 0, 0, -n),
            WaitlistOrder::Rpo => (
                ctl.counters
                    .as_ref()
                    .map_or(0, |c| c.values().map(|&v| i64::from(v)).sum()),
                -(ctl.depth() as i64),
                i64::from(cfa.node(ctl.location).rpo),
                -n,
            ),
        }
    }

    /// The error-distance orders' key: `w_D · depth + w_E · distance`; states that reach no
    /// error location come last, among them the shallowest first (w_D > 0) or the oldest.
    fn error_key(
        &mut self,
        cfa: &Cfa,
        ctl: &ControlState,
        depth: u32,
        n: i64,
        (w_d, w_e): (i64, i64),
    ) -> Key {
        if self.distance.len() != cfa.nodes.len() {
            self.distance = error_distance(cfa);
        }
        let d_e = self.distance[ctl.location.0 as usize];
        let (unreachable, d_e) = if d_e == i64::MAX { (1, 0) } else { (0, d_e) };
        (unreachable, w_d * i64::from(depth) + w_e * d_e, 0, n)
    }

    pub fn push(&mut self, cfa: &Cfa, id: ArgId, ctl: &ControlState, depth: u32) {
        if self.keys.contains_key(&id) {
            return;
        }
        let k = self.key(cfa, id, ctl, depth);
        self.set.insert((k, id));
        self.keys.insert(id, k);
    }

    pub fn pop(&mut self) -> Option<ArgId> {
        let first = *self.set.iter().next()?;
        self.set.remove(&first);
        self.keys.remove(&first.1);
        Some(first.1)
    }

    pub fn remove(&mut self, id: ArgId) {
        if let Some(k) = self.keys.remove(&id) {
            self.set.remove(&(k, id));
        }
    }

    pub fn contains(&self, id: ArgId) -> bool {
        self.keys.contains_key(&id)
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The waiting states in pop order.
    pub fn iter(&self) -> impl Iterator<Item = ArgId> + '_ {
        self.set.iter().map(|(_, id)| *id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The efficient-CEGAR paper's distance: shortest CFA path to an error location.
    #[test]
    fn error_distance_is_the_shortest_path_to_an_error() {
        let src = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); if (x > 0) { x = x + 1; x = x + 2; if (x == 0) reach_error(); } return 0; }";
        let cfa = crate::frontend::parse_program("t.c", src).unwrap().cfa;
        let d = error_distance(&cfa);
        let err = cfa.nodes.iter().find(|n| n.is_error()).unwrap().id;
        assert_eq!(d[err.0 as usize], 0);
        // Every predecessor is one further than its nearest successor.
        for n in &cfa.nodes {
            let best = cfa
                .successors(n.id)
                .map(|e| d[e.to.0 as usize])
                .filter(|&x| x != i64::MAX)
                .min();
            match best {
                _ if n.is_error() => {}
                Some(b) => assert_eq!(d[n.id.0 as usize], b + 1, "{:?}", n.id),
                None => assert_eq!(d[n.id.0 as usize], i64::MAX),
            }
        }
        // The entry is as far as the path through the then-branch.
        assert!(d[cfa.entry().0 as usize] >= 5);
    }
}

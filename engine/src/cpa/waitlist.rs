//! Waitlist orders. The order decides which reached state is expanded next; it changes the ARG
//! and the number of refinements, never the verdict.

use super::arg::ArgId;
use super::control::ControlState;
use crate::cfa::Cfa;
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
}

impl WaitlistOrder {
    pub const ALL: [WaitlistOrder; 3] =
        [WaitlistOrder::Bfs, WaitlistOrder::Dfs, WaitlistOrder::Rpo];

    pub fn name(self) -> &'static str {
        match self {
            WaitlistOrder::Bfs => "bfs",
            WaitlistOrder::Dfs => "dfs",
            WaitlistOrder::Rpo => "rpo",
        }
    }
}

type Key = (i64, i64, i64, i64);

pub struct Waitlist {
    order: WaitlistOrder,
    set: BTreeSet<(Key, ArgId)>,
    keys: BTreeMap<ArgId, Key>,
}

impl Waitlist {
    pub fn new(order: WaitlistOrder) -> Waitlist {
        Waitlist {
            order,
            set: BTreeSet::new(),
            keys: BTreeMap::new(),
        }
    }

    fn key(&self, cfa: &Cfa, id: ArgId, ctl: &ControlState) -> Key {
        let n = i64::from(id.0);
        match self.order {
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

    pub fn push(&mut self, cfa: &Cfa, id: ArgId, ctl: &ControlState) {
        if self.keys.contains_key(&id) {
            return;
        }
        let k = self.key(cfa, id, ctl);
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

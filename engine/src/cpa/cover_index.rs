//! The stop operator's candidates, indexed (CPAchecker's partitioned reached set, per key).
//!
//! `stop^sep` compares a new state with the reached states of its control state; scanning all
//! of them makes an analysis that explores many states at few locations quadratic (explicit
//! values and symbolic execution counting a loop up to the state limit). A data CPA that has a
//! necessary condition for coverage gives each state a key ([`Cpa::cover_key`]): `s ⊑ by` only
//! if `by`'s key is a sub-map of `s`'s. The index groups the reached states of a control state
//! by the components of their keys (few distinct sets in practice) and, within a group, by the
//! values: a state's candidates are one hash look-up per group. The candidates come back in id
//! order, the order the full scan had, so the covering state chosen, and every event, are the
//! same as without the index.
//!
//! The index follows the ARG lazily: before each look-up it takes in the nodes created since
//! the last one (nodes are only appended), and a look-up keeps only the states still in the
//! reached set (pruned, merged and covered ones leave it; an uncovered one returns with its
//! key unchanged).

use super::arg::{Arg, ArgId};
use super::control::ControlState;
use super::{CoverKey, Cpa};
use std::collections::{BTreeMap, HashMap};

#[derive(Default)]
struct Place {
    /// By the components of the key, then by the values at those components.
    keyed: BTreeMap<Vec<u64>, HashMap<Vec<u64>, Vec<ArgId>>>,
    /// States without a key: candidates for every state.
    unkeyed: Vec<ArgId>,
}

#[derive(Default)]
pub struct CoverIndex {
    places: BTreeMap<ControlState, Place>,
    /// The number of ARG nodes taken in.
    indexed: usize,
}

impl CoverIndex {
    /// The reached states at `ctl` that may cover a state with key `key` (all of them when it
    /// has none), in id order.
    pub fn candidates<D: Cpa>(
        &mut self,
        d: &D,
        arg: &Arg<D::State, D::Prec>,
        ctl: &ControlState,
        key: Option<&CoverKey>,
    ) -> Vec<ArgId> {
        let Some(key) = key else {
            return arg.reached_at(ctl);
        };
        self.catch_up(d, arg);
        let Some(place) = self.places.get(ctl) else {
            return Vec::new();
        };
        let mut out: Vec<ArgId> = place.unkeyed.clone();
        for (components, by_values) in &place.keyed {
            if let Some(values) = project(key, components) {
                if let Some(ids) = by_values.get(&values) {
                    out.extend_from_slice(ids);
                }
            }
        }
        // One look-up of the control state (its call stack compares slowly), not one per id.
        let Some(reached) = arg.reached_set(ctl) else {
            return Vec::new();
        };
        out.retain(|id| reached.contains(id));
        out.sort_unstable();
        out.dedup();
        out
    }

    fn catch_up<D: Cpa>(&mut self, d: &D, arg: &Arg<D::State, D::Prec>) {
        if arg.len() < self.indexed {
            // Not the ARG indexed so far (a new one replaced it).
            *self = CoverIndex::default();
        }
        for i in self.indexed..arg.len() {
            let node = arg.node(ArgId(i as u32));
            let place = self.places.entry(node.ctl.clone()).or_default();
            match d.cover_key(&node.data) {
                None => place.unkeyed.push(node.id),
                Some(k) => place
                    .keyed
                    .entry(k.iter().map(|(c, _)| *c).collect())
                    .or_default()
                    .entry(k.iter().map(|(_, v)| *v).collect())
                    .or_default()
                    .push(node.id),
            }
        }
        self.indexed = arg.len();
    }
}

/// The values of `key` at `components` (both sorted), or `None` when `key` lacks one of them.
fn project(key: &CoverKey, components: &[u64]) -> Option<Vec<u64>> {
    let mut out = Vec::with_capacity(components.len());
    let mut entries = key.iter();
    for c in components {
        loop {
            let (kc, kv) = entries.next()?;
            if kc == c {
                out.push(*kv);
                break;
            }
            if kc > c {
                return None;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::project;

    #[test]
    fn a_projection_needs_every_component() {
        let key = vec![(1, 10), (3, 30), (7, 70)];
        assert_eq!(project(&key, &[1, 7]), Some(vec![10, 70]));
        assert_eq!(project(&key, &[]), Some(vec![]));
        assert_eq!(project(&key, &[2]), None);
        assert_eq!(project(&key, &[3, 8]), None);
        assert_eq!(project(&key, &[1, 3, 7]), Some(vec![10, 30, 70]));
    }
}

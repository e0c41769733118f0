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
//! same as without the index. The merge operator's candidates are found the same way, by the
//! keys of [`Cpa::merge_key`] (a second index).
//!
//! A key says "equal here"; a CPA whose covering state's parts must be a subset of the covered
//! one's (symbolic execution's constraints) adds a set ([`Cpa::cover_set`]): the index keeps
//! each state's set and passes on only the candidates whose set is within the new state's, so
//! that states differing in one constraint (a counter's bound) cost a comparison of two short
//! lists each, not a [`Cpa::covered_by`] call.
//!
//! The index follows the ARG lazily: before each look-up it takes in the nodes created since
//! the last one (nodes are only appended) and the nodes that rejoined the reached set since
//! then ([`Arg::rejoined`]: uncovered by IMPACT, or put back when a merge removed the state
//! that covered them). A state's key and set are computed once ([`Conditions::of`]): the
//! look-up's are handed back when the state becomes a node ([`CoverIndex::taken`]). A
//! look-up drops the states of the groups it reads that are no longer in the reached set
//! (pruned, merged away, covered): a loop's location collects thousands of covered states,
//! and keeping them made every look-up scan them.

use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::control::ControlState;
use crate::cpa::{CoverKey, CoverSet, Cpa};
use solver_bridge::term::{AddrHash, StructHash};
use std::collections::{BTreeMap, HashMap};

#[derive(Default)]
struct Place {
    /// By the components of the key, then by the values at those components.
    keyed: BTreeMap<Vec<u64>, HashMap<Vec<u64>, Bucket, StructHash>>,
    /// States without a key: candidates for every state (that their sets allow).
    unkeyed: Bucket,
}

/// The states of one key. The first few in a list; past [`FEW`], each filed under one
/// element of its set, the one seen least often when it came in: a state whose set is within
/// the query's has that element among the query's, so a look-up reads the lists of the
/// query's elements only, not every state of the key (the states of a loop's location that
/// differ in one constraint each).
#[derive(Default)]
struct Bucket {
    /// The first states, while there are at most [`FEW`].
    few: Vec<ArgId>,
    /// Past them: the states with an empty set (every state, without a set condition) ...
    empty: Vec<ArgId>,
    /// ... and the others by their element.
    /// (The elements are hashes already: [`AddrHash`] only mixes them.)
    by_element: HashMap<u64, Vec<ArgId>, AddrHash>,
    /// In how many sets filed by element each element was.
    seen: HashMap<u64, u32, AddrHash>,
}

/// How many states a bucket lists before it files them by element.
const FEW: usize = 8;

impl Bucket {
    /// Takes in `id`; `sets` has the set of every state taken in.
    fn insert(&mut self, id: ArgId, sets: &[Box<[u64]>]) {
        if self.few.len() < FEW && self.empty.is_empty() && self.by_element.is_empty() {
            self.few.push(id);
            return;
        }
        for old in std::mem::take(&mut self.few) {
            self.file(old, &sets[old.0 as usize]);
        }
        self.file(id, &sets[id.0 as usize]);
    }

    fn file(&mut self, id: ArgId, set: &[u64]) {
        for e in set {
            *self.seen.entry(*e).or_default() += 1;
        }
        match set.iter().min_by_key(|e| (self.seen[e], **e)) {
            None => self.empty.push(id),
            Some(e) => self.by_element.entry(*e).or_default().push(id),
        }
    }

    /// Calls `take` on every list that may hold a state whose set is within `set`.
    fn lists(&mut self, set: &[u64], mut take: impl FnMut(&mut Vec<ArgId>)) {
        take(&mut self.few);
        take(&mut self.empty);
        for e in set {
            if let Some(ids) = self.by_element.get_mut(e) {
                take(ids);
            }
        }
    }
}

/// The necessary conditions a [`CoverIndex`] looks candidates up by: the stop operator's
/// ([`Cpa::cover_key`], [`Cpa::cover_set`]) or the merge operator's ([`Cpa::merge_key`], no
/// set). One index uses one of them throughout.
pub struct Conditions<D: Cpa> {
    key: fn(&D, &D::State) -> Option<CoverKey>,
    set: fn(&D, &D::State) -> CoverSet,
}

impl<D: Cpa> Clone for Conditions<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Cpa> Copy for Conditions<D> {}

impl<D: Cpa> Conditions<D> {
    pub fn cover() -> Self {
        Conditions {
            key: D::cover_key,
            set: D::cover_set,
        }
    }

    pub fn merge() -> Self {
        Conditions {
            key: D::merge_key,
            set: |_, _| CoverSet::new(),
        }
    }

    /// `state`'s key and set.
    pub fn of(&self, d: &D, state: &D::State) -> Looked {
        Looked {
            key: (self.key)(d, state),
            set: (self.set)(d, state),
        }
    }
}

/// A state's key and set by one index's [`Conditions`], computed once for its look-up and
/// handed back to the index ([`CoverIndex::taken`]) when the state becomes an ARG node.
pub struct Looked {
    key: Option<CoverKey>,
    set: CoverSet,
}

#[derive(Default)]
pub struct CoverIndex {
    places: BTreeMap<ControlState, Place>,
    /// The number of ARG nodes taken in.
    indexed: usize,
    /// The number of [`Arg::rejoined`] entries taken in.
    rejoined: usize,
    /// Per node: whether it is in the index now.
    present: Vec<bool>,
    /// Per node taken in: its set.
    sets: Vec<Box<[u64]>>,
    /// The key and set of the node added last, from its look-up ([`CoverIndex::taken`]).
    pending: Option<(ArgId, Looked)>,
}

impl CoverIndex {
    /// The reached states at `ctl` whose key (by `conds`) is a sub-map of `state`'s (all of
    /// them when `state` has none) and whose set is a subset of `state`'s, in id order.
    pub fn candidates<D: Cpa>(
        &mut self,
        d: &D,
        conds: Conditions<D>,
        arg: &Arg<D::State, D::Prec>,
        ctl: &ControlState,
        state: &Looked,
    ) -> Vec<ArgId> {
        let set = state.set.as_slice();
        let Some(key) = &state.key else {
            let mut all = arg.reached_at(ctl);
            all.retain(|id| subset(&(conds.set)(d, &arg.node(*id).data), set));
            return all;
        };
        self.catch_up(d, conds, arg);
        let Some(place) = self.places.get_mut(ctl) else {
            return Vec::new();
        };
        // The states that left the reached set (removed, merged away, covered) leave the
        // index here; a covered one that IMPACT or a merge puts back returns through
        // `Arg::rejoined` (otherwise the covered states of a loop's location would be scanned
        // at every look-up: a quadratic cost).
        let (present, sets) = (&mut self.present, &self.sets);
        let mut out: Vec<ArgId> = Vec::new();
        let mut take = |ids: &mut Vec<ArgId>| {
            ids.retain(|id| {
                let keep = arg.is_reached(*id);
                if !keep {
                    present[id.0 as usize] = false;
                }
                keep
            });
            out.extend(
                ids.iter()
                    .copied()
                    .filter(|id| subset(&sets[id.0 as usize], set)),
            );
        };
        place.unkeyed.lists(set, &mut take);
        for (components, by_values) in place.keyed.iter_mut() {
            if let Some(values) = project(key, components) {
                if let Some(bucket) = by_values.get_mut(&values) {
                    bucket.lists(set, &mut take);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The state whose key and set `looked` are became node `id` (the next one taken in):
    /// they are not computed again.
    pub fn taken(&mut self, id: ArgId, looked: Looked) {
        self.pending = Some((id, looked));
    }

    fn catch_up<D: Cpa>(&mut self, d: &D, conds: Conditions<D>, arg: &Arg<D::State, D::Prec>) {
        if arg.len() < self.indexed || arg.rejoined().len() < self.rejoined {
            // Not the ARG indexed so far (a new one replaced it).
            *self = CoverIndex::default();
        }
        self.present.resize(arg.len(), false);
        self.sets.resize(arg.len(), Box::default());
        for i in self.indexed..arg.len() {
            self.insert(d, conds, arg, ArgId(i as u32));
        }
        self.indexed = arg.len();
        for i in self.rejoined..arg.rejoined().len() {
            let id = arg.rejoined()[i];
            if !self.present[id.0 as usize] {
                self.insert(d, conds, arg, id);
            }
        }
        self.rejoined = arg.rejoined().len();
    }

    fn insert<D: Cpa>(
        &mut self,
        d: &D,
        conds: Conditions<D>,
        arg: &Arg<D::State, D::Prec>,
        id: ArgId,
    ) {
        let node = arg.node(id);
        let looked = match self.pending.take() {
            Some((p, looked)) if p == id => looked,
            other => {
                self.pending = other;
                conds.of(d, &node.data)
            }
        };
        self.sets[id.0 as usize] = looked.set.into_boxed_slice();
        let place = self.places.entry(node.ctl.clone()).or_default();
        let bucket = match looked.key {
            None => &mut place.unkeyed,
            Some(k) => place
                .keyed
                .entry(k.iter().map(|(c, _)| *c).collect())
                .or_default()
                .entry(k.iter().map(|(_, v)| *v).collect())
                .or_default(),
        };
        bucket.insert(id, &self.sets);
        self.present[id.0 as usize] = true;
    }
}

/// Every element of `small` is one of `big` (both sorted).
fn subset(small: &[u64], big: &[u64]) -> bool {
    if small.len() > big.len() {
        return false;
    }
    let mut rest = big.iter();
    small.iter().all(|x| rest.any(|y| y == x))
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
    use super::{project, subset};
    use crate::algorithm::cegar::Cegar;
    use crate::cfa::Cfa;
    use crate::cpa::algorithm::Algorithm;
    use crate::cpa::Describe;
    use crate::session::config::Config;
    use crate::smt::{BridgeSmt, Smt};
    use solver_bridge::solver::NativeZ3;
    use std::rc::Rc;

    /// `small` is a sub-map of `big` (both sorted by component).
    fn sub_map(small: &[(u64, u64)], big: &[(u64, u64)]) -> bool {
        small.iter().all(|e| big.contains(e))
    }

    const BRANCHY_LOOP: &str = "extern int __VERIFIER_nondet_int(void);\n\
        extern void reach_error(void);\n\
        int main(void) { int x = 0; int y = __VERIFIER_nondet_int(); int i = 0;\n\
        while (i < 4) { if (y > i) { x = x + 1; } else { x = x + 1; } i++; }\n\
        if (x != 4) reach_error(); return 0; }";

    type Build<C> = fn(Rc<Cfa>, &Config, Box<dyn Smt>) -> Cegar<C>;

    /// Runs `preset` on the loop and checks, at every step, every pair of ARG
    /// nodes (removed and merged-away ones too) at one control state: a merge that succeeds
    /// has the reached state's merge key within the new state's, and a covered state has its
    /// coverer's cover key within its own. Returns (merges, pairs the merge keys rule out,
    /// coverages).
    fn check_merge_keys<C: Describe>(
        preset: &str,
        build: Build<C>,
        program: &str,
    ) -> (usize, usize, usize) {
        let cfa = Rc::new(crate::frontend::parse_program("t.c", program).unwrap().cfa);
        let config = Config::preset(preset).unwrap();
        let mut c = build(
            cfa,
            &config,
            Box::new(BridgeSmt::new(NativeZ3::new().unwrap())),
        );
        let (mut merges, mut ruled_out, mut covers) = (0, 0, 0);
        let mut events = Vec::new();
        for _ in 0..400 {
            let done = c.step(&mut events).unwrap().is_some();
            let (cpa, smt, algo) = c.parts();
            let n = algo.arg.len();
            for a in 0..n {
                for b in 0..n {
                    let (na, nb) = (&algo.arg.nodes[a], &algo.arg.nodes[b]);
                    if a == b || na.ctl != nb.ctl {
                        continue;
                    }
                    let (ka, kb) = (cpa.merge_key(&na.data), cpa.merge_key(&nb.data));
                    let allowed = match (&ka, &kb) {
                        (Some(ka), Some(kb)) => sub_map(kb.as_slice(), ka.as_slice()),
                        _ => true,
                    };
                    if cpa.merge(smt, &na.data, &nb.data).unwrap().is_some() {
                        assert!(allowed, "{preset}: {a} merges into {b}: {ka:?} / {kb:?}");
                        merges += 1;
                    } else if !allowed {
                        ruled_out += 1;
                    }
                    // The same for the stop operator's keys.
                    if let (Some(ka), Some(kb)) = (cpa.cover_key(&na.data), cpa.cover_key(&nb.data))
                    {
                        if cpa.may_cover(&na.data)
                            && cpa.may_cover(&nb.data)
                            && cpa.covered_by(smt, &na.data, &nb.data).unwrap()
                        {
                            assert!(sub_map(&kb, &ka), "{preset}: {a} covered by {b}");
                            let (sa, sb) = (cpa.cover_set(&na.data), cpa.cover_set(&nb.data));
                            assert!(subset(&sb, &sa), "{preset}: {a} covered by {b}: sets");
                            covers += 1;
                        }
                    }
                }
            }
            if done {
                break;
            }
        }
        (merges, ruled_out, covers)
    }

    /// The merge index ([`crate::cpa::Cpa::merge_key`]) leaves out only pairs that do not
    /// merge, and it leaves some out (symbolic execution's join: its own unit test,
    /// `join_drops_negated_pairs_only`).
    #[test]
    fn merge_keys_are_necessary_conditions() {
        let value = check_merge_keys(
            "value",
            crate::session::build::value_predicate_cegar,
            BRANCHY_LOOP,
        );
        let lbe = check_merge_keys(
            "predicate-lbe",
            crate::session::build::predicate_cegar,
            BRANCHY_LOOP,
        );
        for (preset, (merges, ruled_out, _)) in [("value", value), ("predicate-lbe", lbe)] {
            assert!(
                merges > 0 && ruled_out > 0,
                "{preset}: {merges} {ruled_out}"
            );
        }
        // Only the value part has cover keys: its coverages are checked.
        assert!(value.2 > 0, "no coverage checked");
    }

    /// Symbolic execution's keys (value shapes) and sets (constraint shapes) hold for every
    /// coverage of a run (renamings: `aliased_subset_shares_one_renaming`).
    #[test]
    fn symbolic_cover_keys_and_sets_are_necessary_conditions() {
        let (_, _, covers) = check_merge_keys(
            "symbolic",
            crate::session::build::symbolic_cegar,
            BRANCHY_LOOP,
        );
        assert!(covers > 0, "no coverage checked");
    }

    #[test]
    fn a_set_is_within_another() {
        assert!(subset(&[], &[]));
        assert!(subset(&[], &[4]));
        assert!(subset(&[2, 9], &[1, 2, 5, 9]));
        assert!(!subset(&[2, 9], &[1, 2, 5]));
        assert!(!subset(&[3], &[1, 2, 5]));
        assert!(!subset(&[1, 2], &[2]));
    }

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

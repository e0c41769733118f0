//! Unit tests of the ARG (reached set, waitlist, coverage, removal, merge) and of CPA++ on a
//! data CPA that keeps no data ([`crate::cpa::testing::Blocks`]), with the real z3 behind the
//! solver door (which these operators never need).

use crate::cfa::{Cfa, EdgeId, NodeId};
use crate::cpa::arg::{Arg, ArgId, Status};
use crate::cpa::control::ControlCpa;
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::testing::{cfa, Blocked, Blocks, LOOP_SAFE, LOOP_WITH_ERROR};
use crate::cpa::waitlist::WaitlistOrder;
use crate::events::Event;
use crate::smt::BridgeSmt;
use solver_bridge::solver::NativeZ3;
use std::collections::BTreeSet;
use std::rc::Rc;

fn control() -> ControlCpa {
    ControlCpa {
        loop_bound: None,
        max_depth: 8,
        cut_states: true,
    }
}

fn smt() -> BridgeSmt<NativeZ3> {
    BridgeSmt::new(NativeZ3::new().expect("the tests need z3"))
}

/// CPA++ from the initial state until the waitlist is empty; the targets it reported.
fn explore(
    cfa: &Cfa,
    algo: &mut CpaPlus<Blocks>,
    d: &mut Blocks,
    events: &mut Vec<Event>,
) -> Vec<ArgId> {
    let mut smt = smt();
    let mut targets = Vec::new();
    while let Some(e) = algo.arg.pop() {
        events.push(Event::StatePopped { state: e.0 });
        let x = algo.expand(cfa, d, &mut smt, e, events).unwrap();
        targets.extend(x.targets);
    }
    targets
}

fn start(cfa: &Cfa, prec: Blocked, events: &mut Vec<Event>) -> CpaPlus<Blocks> {
    let mut algo = CpaPlus::new(Arg::new(WaitlistOrder::Bfs), control());
    let ctl = algo.control.initial(cfa);
    algo.init(cfa, ctl, 0, Rc::new(prec), &Blocks::default(), events);
    algo
}

/// The locations of `main` that its CFA can reach from the entry.
fn reachable(cfa: &Cfa) -> BTreeSet<NodeId> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![cfa.entry()];
    while let Some(n) = stack.pop() {
        if seen.insert(n) {
            stack.extend(cfa.successors(n).map(|e| e.to));
        }
    }
    seen
}

#[test]
fn cpa_plus_reaches_every_location_once_and_covers_the_loop_head() {
    let cfa = cfa(LOOP_SAFE);
    let mut events = Vec::new();
    let mut algo = start(&cfa, Blocked::default(), &mut events);
    let mut d = Blocks::default();
    assert!(explore(&cfa, &mut algo, &mut d, &mut events).is_empty());
    assert!(algo.arg.waitlist.is_empty());
    let reached: Vec<ArgId> = algo.arg.reached();
    let locations: BTreeSet<NodeId> = reached
        .iter()
        .map(|id| algo.arg.node(*id).ctl.location)
        .collect();
    assert_eq!(
        locations.len(),
        reached.len(),
        "one reached state per location"
    );
    assert_eq!(locations, reachable(&cfa));
    // The loop head is reached a second time from the body: that state is covered.
    let covered: Vec<_> = algo
        .arg
        .alive()
        .filter(|n| n.covered_by.is_some())
        .collect();
    assert_eq!(covered.len(), 1);
    assert!(cfa.node(covered[0].ctl.location).loop_head);
    let coverer = covered[0].covered_by.unwrap();
    assert!(algo.arg.node(coverer).covering.contains(&covered[0].id));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Covered { state, by }
        if *state == covered[0].id.0 && *by == coverer.0)));
    // Every edge of the reachable part was taken once from a reached state.
    let edges: usize = locations.iter().map(|l| cfa.successors(*l).count()).sum();
    assert_eq!(d.transfers, edges);
}

#[test]
fn cpa_plus_reports_targets_and_a_blocked_edge_is_infeasible() {
    let cfa = cfa(LOOP_WITH_ERROR);
    let mut events = Vec::new();
    let mut algo = start(&cfa, Blocked::default(), &mut events);
    let targets = explore(&cfa, &mut algo, &mut Blocks::default(), &mut events);
    assert_eq!(targets.len(), 1);
    let t = algo.arg.node(targets[0]);
    assert!(cfa.node(t.ctl.location).is_error());
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::TargetReached { state } if *state == targets[0].0)));
    // The same run with the edge into the error location blocked where it starts.
    let (p, edge) = t.parents[0];
    let from = algo.arg.node(p).ctl.location;
    let mut prec = Blocked::default();
    prec.by_location.entry(from).or_default().insert(edge.0);
    let mut events = Vec::new();
    let mut again = start(&cfa, prec, &mut events);
    assert!(explore(&cfa, &mut again, &mut Blocks::default(), &mut events).is_empty());
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Infeasible { edge: x, .. } if *x == edge.0)));
}

/// A chain root -> a -> b and a sibling root -> c, at the locations of a small CFA.
fn small_arg() -> (Cfa, Arg<u32, Blocked>, [ArgId; 4]) {
    let cfa = cfa(LOOP_SAFE);
    let mut arg = Arg::new(WaitlistOrder::Bfs);
    let ctl = control().initial(&cfa);
    let p = Rc::new(Blocked::default());
    let root = arg.add(&cfa, ctl.clone(), 0, p.clone(), vec![], None);
    let at = |l: u32, parents: Vec<(ArgId, EdgeId)>, arg: &mut Arg<u32, Blocked>| {
        let mut c = ctl.clone();
        c.location = NodeId(l);
        arg.add(&cfa, c, 0, p.clone(), parents, None)
    };
    let a = at(1, vec![(root, EdgeId(0))], &mut arg);
    let b = at(2, vec![(a, EdgeId(1))], &mut arg);
    let c = at(3, vec![(root, EdgeId(2))], &mut arg);
    (cfa, arg, [root, a, b, c])
}

#[test]
fn the_arg_keeps_reached_set_waitlist_and_tree_together() {
    let (_cfa, mut arg, [root, a, b, c]) = small_arg();
    assert_eq!(arg.reached(), vec![root, a, b, c]);
    assert_eq!(arg.pop(), Some(root), "breadth first: the oldest state");
    assert_eq!(arg.node(b).depth, 2);
    assert_eq!(arg.path_to(b), vec![root, a, b]);
    assert!(arg.is_ancestor(root, b) && !arg.is_ancestor(c, b));
    assert_eq!(arg.subtree(a), vec![a, b]);
    assert_eq!(arg.child_via(root, EdgeId(2)), Some(c));
    // Covering takes a state out of the reached set and the waitlist; uncovering puts it
    // back into the reached set only.
    arg.cover(c, a);
    assert!(!arg.is_reached(c) && !arg.in_waitlist(c));
    assert!(arg.node(a).covering.contains(&c));
    arg.uncover(c);
    assert!(arg.is_reached(c) && !arg.in_waitlist(c));
    assert_eq!(arg.rejoined(), &[c]);
    // Removing a state uncovers what it covered and detaches it from its parent.
    arg.cover(c, b);
    let uncovered = arg.remove(&[b]);
    assert_eq!(uncovered, vec![c]);
    assert_eq!(arg.node(b).status, Status::Removed);
    assert!(arg.node(a).children.is_empty());
    assert_eq!(arg.node(c).covered_by, None);
    assert!(!arg.reached().contains(&b));
}

#[test]
fn a_merge_replaces_the_reached_state_and_drops_its_subtree() {
    let (cfa, mut arg, [root, a, b, c]) = small_arg();
    arg.cover(c, a);
    let (new, removed) =
        arg.merge_into_new(&cfa, a, 7, Rc::new(Blocked::default()), (c, EdgeId(9)));
    assert_eq!(
        removed,
        vec![b],
        "what was computed from the smaller state goes"
    );
    assert_eq!(arg.node(a).status, Status::Merged(new));
    assert_eq!(arg.node(new).data, 7);
    assert_eq!(
        arg.node(new).parents,
        vec![(root, EdgeId(0)), (c, EdgeId(9))]
    );
    assert!(arg.in_waitlist(new), "the merged state is expanded again");
    assert_eq!(
        arg.node(c).covered_by,
        Some(new),
        "it covers what the old one covered"
    );
    assert!(!arg.is_reached(a) && arg.is_reached(new));
}

#[test]
fn cover_subtree_and_rejoin_subtree_are_inverse_for_the_waitlist() {
    let (cfa, mut arg, [root, a, b, c]) = small_arg();
    while arg.pop().is_some() {}
    arg.enqueue(&cfa, b);
    let left = arg.cover_subtree(a, c);
    assert_eq!(left, vec![b]);
    assert!(!arg.is_reached(a) && !arg.is_reached(b));
    arg.uncover(a);
    let back = arg.rejoin_subtree(&cfa, a);
    assert_eq!(back, vec![b], "the leaves go back into the waitlist");
    assert!(arg.is_reached(b) && arg.in_waitlist(b));
    assert!(arg.is_reached(root));
}

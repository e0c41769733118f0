//! Unit tests of the CEGAR loop and of pruning, on a data CPA whose precision blocks CFA edges
//! ([`crate::cpa::testing::Blocks`]) and a refiner that blocks the edge into the error location:
//! the loop's order (explore, refine at a target, prune lazily, re-explore, conclude with the
//! certificate) without a solver's answers deciding anything.

use super::{Cegar, Parts};
use crate::cfa::Cfa;
use crate::cpa::algorithm::Algorithm;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::control::ControlCpa;
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::testing::{cfa, Blocked, Blocks, LOOP_SAFE, LOOP_WITH_ERROR};
use crate::cpa::waitlist::WaitlistOrder;
use crate::events::Event;
use crate::proof::certificate::{Certifier, Report};
use crate::refinement::{prune, Goal, Outcome, Refiner};
use crate::smt::{BridgeSmt, Result, Smt};
use crate::verdict::Verdict;
use solver_bridge::solver::NativeZ3;
use std::cell::RefCell;
use std::rc::Rc;

/// What the mock refiner does with a path.
#[derive(Clone, Copy)]
enum Answer {
    /// Block the edge into the target at its parent and prune lazily at the target.
    Block,
    /// Like `Block`, but prune fully (Theta's FULL).
    BlockFully,
    /// The path cannot be refined.
    GiveUp,
}

struct MockRefiner {
    answer: Answer,
    /// The targets it was asked to refine.
    asked: Rc<RefCell<Vec<ArgId>>>,
}

impl Refiner<Blocks> for MockRefiner {
    fn refine(
        &mut self,
        cfa: &Cfa,
        _cpa: &mut Blocks,
        _smt: &mut dyn Smt,
        algo: &mut CpaPlus<Blocks>,
        target: ArgId,
        goal: Goal,
        events: &mut Vec<Event>,
    ) -> Result<Outcome> {
        assert_eq!(goal, Goal::Error);
        self.asked.borrow_mut().push(target);
        let (parent, edge) = algo.arg.node(target).parents[0];
        let mut refined = Blocked::default();
        let at = algo.arg.node(parent).ctl.location;
        refined.by_location.entry(at).or_default().insert(edge.0);
        let refined = Rc::new(refined);
        match self.answer {
            Answer::Block => prune::lazy(cfa, &mut algo.arg, target, &refined, events),
            Answer::BlockFully => prune::full(cfa, &mut algo.arg, &refined, events),
            Answer::GiveUp => return Ok(Outcome::Unknown("the mock gives up".into())),
        }
        Ok(Outcome::Refined)
    }
}

/// A certificate that holds (or fails with `failure`), counting the reached states.
struct MockCertifier {
    failure: Option<String>,
}

impl Certifier<Blocks> for MockCertifier {
    fn check(
        &mut self,
        _cpa: &mut Blocks,
        _smt: &mut dyn Smt,
        algo: &CpaPlus<Blocks>,
    ) -> Result<Report> {
        Ok(Report {
            states: algo.arg.reached().len() as u32,
            blocks: 0,
            queries: 0,
            failure: self.failure.clone(),
            inconclusive: false,
        })
    }
}

struct Run {
    verdict: Verdict,
    events: Vec<Event>,
    asked: Vec<ArgId>,
    refinements: u64,
}

fn run(src: &str, answer: Answer, keep_going: bool, failure: Option<&str>) -> Run {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let parts = Parts {
        name: "mock".into(),
        cpa: Blocks::default(),
        refiner: Box::new(MockRefiner {
            answer,
            asked: asked.clone(),
        }),
        certifier: Box::new(MockCertifier {
            failure: failure.map(str::to_string),
        }),
        keep_going,
        multi_cex: false,
    };
    let smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
    let mut cegar = Cegar::new(
        Rc::new(cfa(src)),
        parts,
        Box::new(smt),
        WaitlistOrder::Bfs,
        8,
    );
    let mut events = Vec::new();
    let verdict = loop {
        assert!(events.len() < 10_000, "the loop ends");
        if let Some(v) = cegar.step(&mut events).unwrap() {
            break v;
        }
    };
    let asked = asked.borrow().clone();
    Run {
        verdict,
        refinements: cegar.stats().refinements,
        events,
        asked,
    }
}

#[test]
fn a_safe_program_ends_with_the_certificate() {
    let r = run(LOOP_SAFE, Answer::Block, false, None);
    assert_eq!(r.verdict, Verdict::True);
    assert!(r.asked.is_empty());
    assert!(matches!(r.events.first(), Some(Event::Started { .. })));
    assert!(matches!(
        r.events.last(),
        Some(Event::Certificate { valid: true, .. })
    ));
    // A failed certificate is never a TRUE.
    let r = run(LOOP_SAFE, Answer::Block, false, Some("not inductive"));
    assert!(
        matches!(r.verdict, Verdict::Unknown { ref reason } if reason.contains("not inductive"))
    );
}

#[test]
fn a_spurious_target_is_refined_lazily_and_the_pruned_part_regrown() {
    let r = run(LOOP_WITH_ERROR, Answer::Block, false, None);
    assert_eq!(r.verdict, Verdict::True);
    assert_eq!(r.refinements, 1);
    assert_eq!(r.asked.len(), 1);
    let target = r.asked[0].0;
    // The target was reached (abort), then refined: removed, its parent re-added, numbered.
    let at = |p: &dyn Fn(&Event) -> bool| r.events.iter().position(p).unwrap();
    let reached = at(&|e| matches!(e, Event::TargetReached { state } if *state == target));
    let removed = at(&|e| matches!(e, Event::Removed { states } if states.contains(&target)));
    let refined =
        at(&|e| matches!(e, Event::Refined { refinement: 1, pivot: Some(p) } if *p == target));
    assert!(reached < removed && removed < refined);
    let Event::Readded { states } = &r.events[removed + 1] else {
        panic!("{:?}", r.events[removed + 1])
    };
    assert_eq!(states.len(), 1, "the target's parent");
    // The parent is expanded again and the error location is not reached again.
    let parent = states[0];
    assert!(r.events[refined..]
        .iter()
        .any(|e| matches!(e, Event::StatePopped { state } if *state == parent)));
    assert!(!r.events[refined..]
        .iter()
        .any(|e| matches!(e, Event::TargetReached { .. })));
}

#[test]
fn full_pruning_restarts_from_the_root_with_the_refined_precision() {
    let lazy = run(LOOP_WITH_ERROR, Answer::Block, false, None);
    let full = run(LOOP_WITH_ERROR, Answer::BlockFully, false, None);
    assert_eq!(full.verdict, Verdict::True);
    let readded = |r: &Run| {
        r.events
            .iter()
            .find_map(|e| match e {
                Event::Readded { states } => Some(states.clone()),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(readded(&full), vec![0], "the root is expanded again");
    let count = |r: &Run| {
        r.events
            .iter()
            .filter(|e| matches!(e, Event::StatePopped { .. }))
            .count()
    };
    assert!(count(&full) > count(&lazy), "full pruning redoes more work");
}

#[test]
fn a_path_that_cannot_be_refined_ends_the_run_unless_exploration_goes_on() {
    let r = run(LOOP_WITH_ERROR, Answer::GiveUp, false, None);
    assert_eq!(
        r.verdict,
        Verdict::Unknown {
            reason: "the mock gives up".into()
        }
    );
    // With keep_going the path stays undecided, the waitlist is emptied, and the run can
    // still not answer TRUE.
    let r = run(LOOP_WITH_ERROR, Answer::GiveUp, true, None);
    assert_eq!(
        r.verdict,
        Verdict::Unknown {
            reason: "the mock gives up".into()
        }
    );
    assert!(!r
        .events
        .iter()
        .any(|e| matches!(e, Event::Certificate { .. })));
}

#[test]
fn remove_subtrees_takes_what_only_removed_states_covered() {
    let cfa = cfa(LOOP_SAFE);
    let mut arg: Arg<u32, Blocked> = Arg::new(WaitlistOrder::Bfs);
    let control = ControlCpa {
        loop_bound: None,
        max_depth: 8,
        cut_states: true,
    };
    let ctl = control.initial(&cfa);
    let p = Rc::new(Blocked::default());
    let root = arg.add(&cfa, ctl.clone(), 0, p.clone(), vec![], None);
    let child = |parent: ArgId, edge: u32, arg: &mut Arg<u32, Blocked>| {
        arg.add(
            &cfa,
            ctl.clone(),
            0,
            p.clone(),
            vec![(parent, crate::cfa::EdgeId(edge))],
            None,
        )
    };
    let a = child(root, 0, &mut arg);
    let a2 = child(root, 0, &mut arg); // a sibling from the same transfer
    let b = child(a, 1, &mut arg);
    let other = child(root, 2, &mut arg);
    let covered = child(other, 3, &mut arg);
    arg.cover(covered, b);
    let removed = prune::remove_subtrees(&mut arg, &[a]);
    assert_eq!(removed, vec![a, a2, b, covered]);
    assert!(arg.node(other).is_alive());
    assert!(arg.node(root).children.contains(&other));
}

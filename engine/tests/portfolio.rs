//! The sequential portfolio: components hand over when they end without a verdict (their own
//! UNKNOWN, their query budget, their limits), the first TRUE or FALSE decides and is named,
//! the counters add up, and the run replays exactly.

mod common;
use common::native_session;

use cpa_engine::config::Config;
use cpa_engine::events::{decided_by, Event};
use cpa_engine::verdict::Verdict;
use cpa_engine::view::ArgView;

const KINDUCTION_PROVES: &str = include_str!("../../examples/kinduction-proves.c");
const MAX_BUG: &str = include_str!("../../examples/max-bug.c");

fn portfolio(components: &str) -> Config {
    Config::build("portfolio", [("portfolio", components)]).unwrap()
}

/// The `Component` events of a run: (index, preset, why the previous one ended).
fn switches(events: &[Event]) -> Vec<(u32, String, Option<String>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Component {
                index,
                preset,
                previous,
                ..
            } => Some((*index, preset.clone(), previous.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_component_that_cannot_decide_hands_over_and_the_next_one_decides() {
    // BMC cannot prove this loop over an unbounded n (the forward condition never holds):
    // at its k-max it answers UNKNOWN, and k-induction proves it.
    let mut s = native_session(
        KINDUCTION_PROVES,
        portfolio("bmc(k-max=3)@1000,kinduction@1000"),
    );
    assert_eq!(s.run(), &Verdict::True);
    let sw = switches(s.events());
    assert_eq!(sw.len(), 2, "{sw:?}");
    assert_eq!((sw[0].0, sw[0].1.as_str(), &sw[0].2), (0, "bmc", &None));
    assert_eq!((sw[1].0, sw[1].1.as_str()), (1, "kinduction"));
    assert!(
        sw[1].2.as_deref().is_some_and(|r| r.contains("bound 3")),
        "{:?}",
        sw[1].2
    );
    assert_eq!(s.decided_by(), Some("kinduction"));
    assert_eq!(decided_by(s.events()), Some("kinduction"));
    // The proof's invariants are the deciding component's, as it gives them alone.
    let mut alone = native_session(KINDUCTION_PROVES, Config::preset("kinduction").unwrap());
    assert_eq!(alone.run(), &Verdict::True);
    assert_eq!(
        format!("{:?}", s.invariants()),
        format!("{:?}", alone.invariants())
    );
    // The view of the last events is the deciding component's ARG alone.
    let v = s.view_at(usize::MAX);
    assert_eq!(v.component.as_deref(), Some("kinduction@1000"));
    let bmc_states: usize = {
        let at = s
            .events()
            .iter()
            .position(|e| matches!(e, Event::Component { index: 1, .. }))
            .unwrap();
        ArgView::replay(&s.events()[..at]).states.len()
    };
    assert!(bmc_states > 0);
}

#[test]
fn a_component_ends_at_its_query_budget() {
    // Predicate abstraction needs more than 2 queries for max-bug.c; BMC then finds the bug.
    let mut s = native_session(MAX_BUG, portfolio("predicate-lbe@2,bmc@1000"));
    let v = s.run().clone();
    assert!(matches!(v, Verdict::False { .. }), "{v:?}");
    let sw = switches(s.events());
    assert_eq!(sw.len(), 2, "{sw:?}");
    let why = sw[1].2.clone().unwrap_or_default();
    assert!(why.contains("2 solver queries"), "{why}");
    assert_eq!(s.decided_by(), Some("bmc"));
    // The counters are the whole run's: the queries of both components.
    let stats = s.stats();
    assert!(stats.solver_queries > 2, "{stats:?}");
}

#[test]
fn when_no_component_decides_the_answer_is_unknown_with_every_reason() {
    let mut s = native_session(
        KINDUCTION_PROVES,
        portfolio("bmc(k-max=2)@1000,predicate-lbe@1"),
    );
    match s.run().clone() {
        Verdict::Unknown { reason } => {
            assert!(
                reason.contains("no component of the portfolio decided"),
                "{reason}"
            );
            assert!(
                reason.contains("bmc: ") && reason.contains("predicate-lbe: "),
                "{reason}"
            );
        }
        v => panic!("{v:?}"),
    }
    assert_eq!(s.decided_by(), None);
}

#[test]
fn the_whole_runs_query_limit_ends_the_portfolio() {
    let mut c = portfolio("predicate-lbe@1000,bmc@1000");
    c.limits.max_queries = 3;
    let mut s = native_session(MAX_BUG, c);
    match s.run().clone() {
        Verdict::Unknown { reason } => assert!(reason.contains("limit"), "{reason}"),
        v => panic!("{v:?}"),
    }
    // BMC never started: the limit is the run's, not the component's.
    assert_eq!(switches(s.events()).len(), 1);
}

#[test]
fn a_portfolio_run_is_deterministic() {
    let run = || {
        let mut s = native_session(MAX_BUG, Config::preset("portfolio").unwrap());
        s.run();
        (s.events().to_vec(), s.stats())
    };
    assert_eq!(run(), run());
}

#[test]
fn the_same_analysis_after_its_own_unknown_is_skipped_but_not_after_its_budget() {
    // bmc(k-max=2) ends with its own UNKNOWN on this loop: a second bmc(k-max=2) would end
    // the same way and is skipped (no step of its own); k-induction then proves the program.
    let mut s = native_session(
        KINDUCTION_PROVES,
        portfolio("bmc(k-max=2)@1000,bmc(k-max=2)@5000,kinduction@1000"),
    );
    assert_eq!(s.run(), &Verdict::True);
    let sw = switches(s.events());
    assert_eq!(sw.len(), 3, "{sw:?}");
    let why = sw[2].2.clone().unwrap_or_default();
    assert!(
        why.contains("the same analysis as component 1 (bmc(k-max=2)@1000)")
            && why.contains("bound 2"),
        "{why}"
    );
    // Nothing happened between the second component's start and the third's.
    let at = |i: u32| {
        s.events()
            .iter()
            .position(|e| matches!(e, Event::Component { index, .. } if *index == i))
            .unwrap()
    };
    assert_eq!(at(2), at(1) + 1);
    // Another bound is another analysis: it runs.
    let mut other = native_session(
        KINDUCTION_PROVES,
        portfolio("bmc(k-max=2)@1000,bmc(k-max=3)@1000,kinduction@1000"),
    );
    assert_eq!(other.run(), &Verdict::True);
    let sw = switches(other.events());
    assert!(
        sw[2].2.as_deref().is_some_and(|r| r.contains("bound 3")),
        "{sw:?}"
    );
    // A component that ended at its query budget is run again with a larger one.
    let mut again = native_session(MAX_BUG, portfolio("predicate-lbe@2,predicate-lbe@1000"));
    assert!(matches!(again.run(), Verdict::False { .. }));
    assert_eq!(again.decided_by(), Some("predicate-lbe"));
    assert_eq!(switches(again.events()).len(), 2);
}

//! The efficient-CEGAR paper's refinement strategies ("Efficient Strategies for CEGAR-Based
//! Model Checking", Sect. 3.2), data-driven on the programs in `tests/strategies/`: where
//! forward and backward binary interpolation cut a path (Fig. 6), which one min- and
//! max-prune keep (Sect. 3.2.3), and how many refinements multiple counterexamples need
//! (Algorithm 5, Fig. 7: a path whose pivot lies below another path's pivot is skipped and
//! comes back in the next iteration).

mod common;

use common::native_session;
use cpa_engine::config::Config;
use cpa_engine::events::Event;
use std::path::Path;

fn program(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/strategies");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

struct Run {
    verdict: String,
    refinements: u64,
    /// For each `Interpolants` event, the index of its first interpolant that is neither
    /// `true` nor `false` (the state it labels first).
    labelled: Vec<Option<usize>>,
}

/// `preset` is a preset name, or `value/explicit` for the explicit-value analysis alone
/// (`value` with `domain=value`; the preset combines it with predicate abstraction).
fn run(name: &str, preset: &str, refinement: &str) -> Run {
    let mut sets = vec![("trace-refinement", refinement)];
    let preset = match preset {
        "value/explicit" => {
            sets.push(("domain", "value"));
            "value"
        }
        p => p,
    };
    let config = Config::build(preset, sets).unwrap();
    let mut s = native_session(&program(name), config);
    let verdict = s.run().name().to_string();
    let labelled = s
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Interpolants { interpolants, .. } => Some(
                interpolants
                    .iter()
                    .position(|t| t != "true" && t != "false"),
            ),
            _ => None,
        })
        .collect();
    Run {
        verdict,
        refinements: s.stats().refinements,
        labelled,
    }
}

/// early-cause.c: `x = 0` (the edge into state 2) contradicts the late guard `[x > 5]`
/// (the edge out of state 6). Sequence interpolants are non-trivial from state 2 on;
/// forward binary interpolation labels the end of the longest feasible prefix (state 5, the
/// last one before the guard), backward the start of the longest feasible suffix (state 2,
/// right after the assignment).
#[test]
fn binary_interpolants_cut_where_the_paper_says() {
    for (refinement, first_label) in [
        ("seq-itp", 2),
        ("fw-bin-itp", 5),
        ("bw-bin-itp", 2),
        ("min-prune", 2),
        ("max-prune", 5),
    ] {
        let r = run("early-cause.c", "predicate-sbe", refinement);
        assert_eq!(r.verdict, "true", "{refinement}");
        assert_eq!(r.labelled.first(), Some(&Some(first_label)), "{refinement}");
    }
}

/// Multiple counterexamples: two error paths in different branches are refined in one
/// refinement; when one path's pivot lies below the other's (nested-pivots.c: both
/// variables are assigned before the branch), the lower one is skipped and refined next.
#[test]
fn multiple_counterexamples_refine_together_unless_nested() {
    for (name, preset, refinement, refinements) in [
        ("independent-paths.c", "value/explicit", "seq-itp", 2),
        ("independent-paths.c", "value/explicit", "multi-seq", 1),
        ("independent-paths.c", "predicate-sbe", "seq-itp", 2),
        ("independent-paths.c", "predicate-sbe", "multi-seq", 1),
        ("independent-paths.c", "symbolic", "multi-seq", 1),
        ("nested-pivots.c", "value/explicit", "multi-seq", 2),
    ] {
        let r = run(name, preset, refinement);
        assert_eq!(r.verdict, "true", "{name} {preset} {refinement}");
        assert_eq!(r.refinements, refinements, "{name} {preset} {refinement}");
    }
}

/// Error-location-based search (Sect. 3.1.2). loop-starves-branch.c is the paper's Fig. 5b:
/// with the distance alone (ERR) the search unrolls the loop on the `x = 0` path and every
/// refinement rules out one more iteration count, so the branch `x = 1` that reaches the
/// error is never expanded; weighting in the ARG depth (Table 2's ERR_DFS and DFS_ERR)
/// expands it and finds the error within a few refinements.
#[test]
fn depth_weighted_error_search_does_not_starve_a_branch() {
    for (waitlist, verdict) in [
        ("err", "unknown"),
        ("err-dfs", "false"),
        ("dfs-err", "false"),
    ] {
        let config = Config::build(
            "theta-pred-bw",
            [("waitlist", waitlist), ("max-refinements", "12")],
        )
        .unwrap();
        let mut s = native_session(&program("loop-starves-branch.c"), config);
        assert_eq!(s.run().name(), verdict, "{waitlist}");
        if verdict == "false" {
            assert!(s.stats().refinements <= 4, "{waitlist}: {:?}", s.stats());
        }
    }
}

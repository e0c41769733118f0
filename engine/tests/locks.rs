//! The LBE paper's experiment (Beyer et al., FMCAD 2009, Table 1, the `test_locks_N` rows)
//! reproduced with the real native z3: on lock programs of growing size N, large-block encoding
//! keeps the abstract reachability graph (its abstraction states, the states the paper counts)
//! and the number of refinements constant, while single-block encoding needs more of both as N
//! grows. The table is printed; the shape is asserted. ("abst.": abstraction states of the final
//! ARG; "all": every ARG state, including the intermediate states inside a block, which our
//! adjustable-block encoding keeps on the unsummarized CFA and which grow with the loop body.)

mod common;
use common::native_session;

use cpa_engine::config::Config;
use cpa_engine::fuzz::generators::test_locks;
use cpa_engine::session::Stats;
use cpa_engine::verdict::Verdict;

/// SBE stops here: enough to show the growth without minutes per program.
const SBE_MAX_REFINEMENTS: u64 = 40;

fn run(n: usize, preset: &str) -> (Verdict, Stats) {
    let mut config = Config::preset(preset).unwrap();
    config.limits.max_refinements = SBE_MAX_REFINEMENTS;
    let mut s = native_session(&test_locks(n), config);
    let v = s.run().clone();
    (v, s.stats())
}

#[test]
fn lbe_stays_constant_and_sbe_grows_on_test_locks() {
    println!(
        "{:>3} | {:>10} {:>8} {:>8} | {:>10} {:>8} {:>8}",
        "N", "LBE abst.", "LBE refs", "LBE all", "SBE abst.", "SBE refs", "SBE all"
    );
    let mut lbe = Vec::new();
    let mut sbe = Vec::new();
    for n in 2..=10 {
        let (v, l) = run(n, "predicate-lbe");
        assert!(matches!(v, Verdict::True), "LBE on test_locks_{n}: {v:?}");
        // SBE's growth is visible from the first sizes on; beyond 4 it only hits the limit.
        let s = (n <= 4).then(|| run(n, "predicate-sbe"));
        if let Some((v, _)) = &s {
            // Either a proof or the refinement limit: never a wrong answer or another give-up.
            match v {
                Verdict::True => {}
                Verdict::Unknown { reason } => {
                    assert!(reason.contains("refinement limit"), "SBE N={n}: {reason}")
                }
                Verdict::False { .. } => panic!("SBE on test_locks_{n} answered FALSE"),
            }
        }
        let show = |s: &Option<(Verdict, Stats)>| match s {
            Some((v, st)) => format!(
                "{:>10} {:>8} {:>8}",
                st.abstraction_states,
                if matches!(v, Verdict::True) {
                    st.refinements.to_string()
                } else {
                    format!(">={}", st.refinements)
                },
                st.states
            ),
            None => format!("{:>10} {:>8} {:>8}", "-", "-", "-"),
        };
        println!(
            "{n:>3} | {:>10} {:>8} {:>8} | {}",
            l.abstraction_states,
            l.refinements,
            l.states,
            show(&s)
        );
        lbe.push(l);
        if let Some((_, st)) = s {
            sbe.push(st);
        }
    }
    // LBE: the same abstract model for every N.
    assert!(
        lbe.iter()
            .all(|s| s.abstraction_states == lbe[0].abstraction_states),
        "LBE abstraction states vary with N"
    );
    assert!(
        lbe.iter().all(|s| s.refinements == lbe[0].refinements),
        "LBE refinements vary with N"
    );
    // SBE: more refinements and a larger abstract model than LBE already at N = 2, and
    // strictly more refinements with every lock added (or the limit).
    assert!(sbe[0].refinements > lbe[0].refinements);
    assert!(sbe[0].abstraction_states > lbe[0].abstraction_states);
    for w in sbe.windows(2) {
        assert!(
            w[1].refinements > w[0].refinements || w[1].refinements >= SBE_MAX_REFINEMENTS,
            "SBE refinements did not grow: {} then {}",
            w[0].refinements,
            w[1].refinements
        );
    }
}

//! The session API with the real native z3: determinism (the same program and configuration
//! give the same events, however the run is stepped), and backward stepping (the view of a
//! prefix of the events is the ARG at that point).

mod common;
use common::{native_session, on_two_workers};

use cpa_engine::config::{Config, Preset};
use cpa_engine::session::{Granularity, Session};

fn session(src: &str, preset: &str) -> Session {
    let mut config = Config::preset(preset).unwrap();
    config.k_max = 6;
    // Determinism shows on small runs too: theta-expl-multiseq never decides counter-unsafe
    // (its ARG is infinite once the counter is tracked) and took 172 s to its default limit
    // of 100,000 states.
    config.limits.max_states = 5_000;
    native_session(src, config)
}

fn programs() -> Vec<(&'static str, String)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    ["examples/lbe-figure1.c", "tests/verdicts/counter-unsafe.c"]
        .into_iter()
        .map(|p| (p, std::fs::read_to_string(format!("{root}/{p}")).unwrap()))
        .collect()
}

fn json(s: &Session) -> Vec<String> {
    s.events()
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect()
}

#[test]
fn same_program_same_events_however_stepped() {
    let runs: Vec<(&str, String, &str)> = programs()
        .into_iter()
        .flat_map(|(name, src)| {
            Preset::names()
                .into_iter()
                .map(move |p| (name, src.clone(), p))
        })
        .collect();
    on_two_workers(&runs, |(name, src, preset)| {
        let mut a = session(src, preset);
        a.run();
        let mut b = session(src, preset);
        let mut guard = 0;
        while !b.is_finished() {
            b.advance(Granularity::Pop);
            guard += 1;
            assert!(guard < 1_000_000);
        }
        let mut c = session(src, preset);
        while !c.is_finished() {
            c.advance(Granularity::Refinement);
        }
        assert_eq!(json(&a), json(&b), "{name} {preset}: run vs pop steps");
        assert_eq!(
            json(&a),
            json(&c),
            "{name} {preset}: run vs refinement steps"
        );
        assert_eq!(a.stats(), b.stats(), "{name} {preset}");
        // Concrete execution stops at once where the run needs an input: the start, the
        // initial state and the verdict.
        let least = if *preset == "execution" { 3 } else { 4 };
        assert!(a.events().len() >= least, "{name} {preset}");
    });
}

#[test]
fn views_of_prefixes_step_backward() {
    for (name, src) in programs() {
        for preset in ["predicate-lbe", "predicate-sbe", "impact"] {
            let mut s = session(&src, preset);
            s.run();
            let n = s.events().len();
            let last = s.view_at(n);
            // The replayed arena has every state the ARG CPA created.
            assert_eq!(u64::from(last.added), s.stats().states, "{name} {preset}");
            assert_eq!(u64::from(last.refinements), s.stats().refinements);
            assert!(last.verdict.is_some());
            // Every prefix is a consistent ARG: parents of a live state were added before it,
            // coverers are live, the number of states added never decreases.
            let mut prev_added = 0;
            for k in 0..=n {
                let v = s.view_at(k);
                assert!(v.added >= prev_added);
                prev_added = v.added;
                for st in v.states.values() {
                    for (p, _) in &st.parents {
                        assert!(
                            *p < st.id,
                            "{name} {preset} step {k}: parent {p} of {}",
                            st.id
                        );
                    }
                    if let Some(c) = st.covered_by {
                        assert!(v.states.contains_key(&c), "{name} {preset} step {k}");
                    }
                }
                if k < n {
                    assert!(v.verdict.is_none());
                }
            }
            // Stepping back and forth gives the same picture.
            assert_eq!(s.view_at(n / 2), s.view_at(n / 2));
            assert_ne!(s.view_at(n / 2), last);
        }
    }
}

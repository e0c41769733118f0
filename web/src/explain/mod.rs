//! Each event of a run in one or two plain sentences, in the vocabulary of the papers, naming
//! the operator at work and where it is defined. This is what a student reads while stepping.
//!
//! References (shown with every sentence):
//! - "A Unifying View on SMT-Based Software Verification" (Beyer, Dangl, Wendler): the CPA
//!   operators (Sect. 2.2), the Predicate CPA's transfer, merge_P, stop_P and prec_P with the
//!   block operator blk (Sect. 3.1), refine_P (Sect. 3.2), forced covering (Sect. 3.3), CPA++
//!   (Algorithm 2), BMC (Sect. 4.1), k-induction (Algorithm 3), CEGAR (Algorithm 4), lazy
//!   predicate abstraction (Sect. 4.3);
//! - "Software Model Checking via Large-Block Encoding" (Beyer, Cimatti, Griggio, Keremoglu,
//!   Sebastiani): blocks ending at loop heads and function boundaries.
//!
//! A new event variant needs one arm here (the match is exhaustive, so the compiler asks).
//!
//! The explanations are split by event family ([`exploration`], [`refinement`], [`bounded`],
//! [`verdict`]); the dispatch below is exhaustive, so a new event variant is placed by the
//! compiler's request.

pub mod bounded;
pub mod context;
pub mod exploration;
pub mod glossary;
pub mod refinement;
pub mod verdict;

pub use context::{is_variable, source_line, Context, Explanation, Piece};
pub use glossary::GLOSSARY;

use cpa_engine::events::Event;

/// The explanation of the event the position shows last.
pub fn explain(cx: &Context, index: usize, e: &Event) -> Explanation {
    match e {
        Event::Started { bound: Some(_), .. }
        | Event::Check { .. }
        | Event::BoundIncreased { .. } => bounded::explain(cx, index, e),
        Event::Started { .. } => exploration::started(cx, index, e),
        Event::StatePopped { .. } | Event::StateAdded { .. } => {
            exploration::expansion(cx, index, e)
        }
        Event::Merged { .. }
        | Event::Covered { .. }
        | Event::Uncovered { .. }
        | Event::Infeasible { .. }
        | Event::Cut { .. } => exploration::coverage(cx, index, e),
        Event::Abstraction { .. } | Event::Strengthened { .. } | Event::TargetReached { .. } => {
            exploration::abstraction(cx, index, e)
        }
        Event::Enumerated { .. } | Event::SatCheck { .. } | Event::Accelerated { .. } => {
            exploration::values(cx, index, e)
        }
        Event::Counterexample { .. } | Event::Interpolants { .. } => {
            refinement::counterexample(cx, index, e)
        }
        Event::PrecisionRefined { .. }
        | Event::Removed { .. }
        | Event::Readded { .. }
        | Event::Refined { .. } => refinement::precision(cx, index, e),
        Event::Certificate { .. } | Event::Component { .. } | Event::Verdict { .. } => {
            verdict::explain(cx, index, e)
        }
    }
}

/// An event handed to a family that does not explain it (the dispatch above rules it out).
fn unexpected(e: &Event) -> Explanation {
    context::say().t(format!("{e:?}")).done(context::UV, "arg")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::RunConfig;
    use crate::state::{Action, Playground, Target};
    use crate::worker::run_host::RunHost;
    use solver_bridge::solver::NativeZ3;
    use std::rc::Rc;

    /// Runs `src` to the end on z3 and explains every event.
    fn explain_all(src: &str, preset: &str) -> Vec<String> {
        explain_run(src, RunConfig::preset(preset))
    }

    fn explain_run(src: &str, run_config: RunConfig) -> Vec<String> {
        let mut p = Playground::new(run_config.clone());
        let cfa = cpa_engine::report::cfa_report("t.c", src).cfa.map(Rc::new);
        p.reduce(Action::Program {
            file: "t.c".into(),
            source: Rc::from(src),
            cfa,
        });
        let config = run_config.resolve().unwrap();
        let (mut host, info) =
            RunHost::new("t.c", src, &run_config, NativeZ3::new().unwrap(), None).unwrap();
        let ticket = p.run.as_ref().unwrap().ticket();
        p.reduce(Action::Started(ticket, Ok(info)));
        let mut batches = Vec::new();
        let progress = host.advance(
            cpa_engine::session::Granularity::End,
            None,
            false,
            &mut |b| batches.push(b),
        );
        for b in batches {
            p.reduce(Action::Batch(ticket, b));
        }
        p.reduce(Action::Advanced(ticket, Ok(progress)));
        p.reduce(Action::Reset);
        let mut out = Vec::new();
        loop {
            p.reduce(Action::Step(Target::Event));
            let run = p.run.as_ref().unwrap();
            let (i, e) = run.current_event().unwrap();
            let running = config.running(run.cursor.frame.view.component.as_deref());
            let cx = Context {
                run,
                config: Some(&running),
            };
            let x = explain(&cx, i, e);
            assert!(!x.pieces.is_empty());
            assert!(!x.source.is_empty());
            assert!(
                GLOSSARY.iter().any(|(k, _, _)| *k == x.glossary),
                "{}",
                x.glossary
            );
            out.push(x.plain());
            if run.position == run.events.len() {
                break;
            }
        }
        out
    }

    #[test]
    fn a_proof_by_function_contracts_is_explained() {
        let text = explain_all(
            include_str!("../../../tests/verdicts/recursion-contract-safe.c"),
            "kinduction",
        );
        assert!(
            text.iter().any(|t| t.starts_with("Contract check:")
                && t.contains("2 recursive function(s)")
                && t.contains("Yes: by induction")),
            "{text:#?}"
        );
        assert!(
            text.last().unwrap().starts_with(
                "TRUE: with every call of a recursive function replaced by its contract"
            ),
            "{text:#?}"
        );
    }

    #[test]
    fn a_failed_overflow_check_is_explained_as_one() {
        let src = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x > 0) { x = x + 1; if (x < 0) reach_error(); }\n  return 0;\n}\n";
        let text = explain_run(
            src,
            RunConfig {
                preset: "predicate-lbe".into(),
                set: vec![("signed-overflow".into(), "check".into())],
            },
        );
        let at_check: Vec<&String> = text
            .iter()
            .filter(|t| t.contains("failed overflow check"))
            .collect();
        assert!(
            at_check
                .iter()
                .any(|t| t.contains("is at a failed overflow check (line 5)")),
            "{text:#?}"
        );
        assert!(
            !text.iter().any(|t| t.contains("is at the error location")
                || t.contains(", an error location")
                || t.contains("a CFA edge")),
            "{text:#?}"
        );
        assert!(text.last().unwrap().starts_with("UNKNOWN"), "{text:#?}");
        assert!(
            text.iter()
                .any(|t| t.contains("a signed overflow is reachable. The model")),
            "{text:#?}"
        );
    }

    #[test]
    fn every_event_of_a_refining_run_is_explained() {
        let text = explain_all(
            include_str!("../../../tests/verdicts/counter-unsafe.c"),
            "predicate-lbe",
        );
        assert!(
            text.iter().any(|t| t.starts_with("Expanding state")),
            "{text:#?}"
        );
        assert!(text
            .iter()
            .any(|t| t.contains("is unsatisfiable: the path is spurious")));
        assert!(text.iter().any(|t| t.starts_with("Predicates added: ")));
        assert!(text.last().unwrap().starts_with("FALSE: "));
        let text = explain_all(
            include_str!("../../../tests/verdicts/impact-example.c"),
            "impact",
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        // With forced covering, a state is strengthened with a coverer's formula and covered.
        let text = explain_run(
            include_str!("../../../tests/verdicts/impact-example.c"),
            RunConfig {
                preset: "impact".into(),
                set: vec![("fcover".into(), "true".into())],
            },
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        assert!(
            text.iter()
                .any(|t| t.contains("Forced covering strengthened it")),
            "{text:#?}"
        );
        let text = explain_run(
            include_str!("../../../tests/verdicts/locks-value-safe.c"),
            RunConfig {
                preset: "value".into(),
                set: vec![("domain".into(), "value".into())],
            },
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        assert!(
            text.iter()
                .any(|t| t.starts_with("Variables tracked from now on: ")),
            "{text:#?}"
        );
        assert!(text.iter().any(|t| t.contains("the path is spurious")));
        // The value preset's combination tracks variables where values refute a path and
        // adds predicates where they cannot.
        let text = explain_all(
            include_str!("../../../tests/value/value-predicate-safe.c"),
            "value",
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        for said in [
            "Variables tracked from now on: ",
            "Predicates added: ",
            "Explicit values cannot refute the path",
            "Interpolants for the path (the values each state must keep",
        ] {
            assert!(
                text.iter().any(|t| t.starts_with(said)),
                "{said}: {text:#?}"
            );
        }
        // The precision a run starts from is not a refinement's.
        let text = explain_run(
            include_str!("../../../tests/verdicts/samples-half-safe.c"),
            RunConfig {
                preset: "predicate-lbe".into(),
                set: vec![("invariant-predicates".into(), "true".into())],
            },
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        let start = text
            .iter()
            .position(|t| t.starts_with("Predicates to start with"))
            .expect("the initial precision explained");
        // Stated in long long, the relations need no wrap-around.
        assert!(
            text[start].contains("n ≤ i") && !text[start].contains("wrap32"),
            "{}",
            text[start]
        );
        assert!(
            !text[..start]
                .iter()
                .any(|t| t.starts_with("Predicates added: ")),
            "{text:#?}"
        );
        let text = explain_all(include_str!("../../../examples/max-bug.c"), "bmc");
        assert!(
            text.iter().any(|t| t.starts_with("Base case for k = ")),
            "{text:#?}"
        );
    }

    #[test]
    fn concrete_execution_explains_its_run_and_its_jumps() {
        let text = explain_all(
            include_str!("../../../examples/accel-nested.c"),
            "execution",
        );
        assert!(
            text[0].starts_with("The analysis starts: concrete execution"),
            "{text:#?}"
        );
        assert!(text
            .iter()
            .any(|t| t.starts_with("The run goes on from state 1")));
        let jump = text
            .iter()
            .find(|t| t.contains("over 268435453 more iterations"))
            .unwrap_or_else(|| panic!("{text:#?}"));
        assert!(jump.starts_with("Acceleration: "), "{jump}");
        assert!(
            jump.contains("x goes from 2 to 268435455 (+1 per iteration)"),
            "{jump}"
        );
        assert!(text
            .iter()
            .any(|t| t.contains("the run reached it, so the program is unsafe")));
        assert!(text.last().unwrap().starts_with("FALSE: "), "{text:#?}");
    }

    #[test]
    fn a_portfolio_explains_its_switches_and_each_component_in_its_own_terms() {
        let text = explain_all(
            include_str!("../../../examples/bmc-deep-bug.c"),
            "portfolio",
        );
        let switch = |n: usize| {
            text.iter()
                .find(|t| t.contains(&format!("Portfolio component {n} of 7")))
                .unwrap_or_else(|| panic!("{text:#?}"))
        };
        // Concrete execution meets a second input while the first is a class; k-induction's k-max of 6 is below the
        // bug's depth; predicate abstraction's budget ends before it decides.
        assert!(
            switch(2).contains("the run needs single input values"),
            "{}",
            switch(2)
        );
        assert!(
            switch(2).contains("kinduction(k-max=6;solver-rlimit=1000000)@300"),
            "{}",
            switch(2)
        );
        assert!(switch(3).contains("no bug up to bound 6"), "{}", switch(3));
        assert!(switch(3).contains("predicate-lbe@3000"), "{}", switch(3));
        assert!(
            switch(4).contains("its budget of 3000 solver queries is used"),
            "{}",
            switch(4)
        );
        assert!(
            switch(4).contains("predicate-lbe(signed-overflow=check)@3000"),
            "{}",
            switch(4)
        );
        assert!(
            switch(5).contains("its budget of 3000 solver queries is used"),
            "{}",
            switch(5)
        );
        assert!(
            switch(5).contains("symbolic(max-steps=2000)@2500"),
            "{}",
            switch(5)
        );
        // k-induction's checks are explained as k-induction's, symbolic execution's
        // satisfiability checks as the constraints CPA's.
        assert!(text
            .iter()
            .any(|t| t.starts_with("Inductive step for k = ")));
        assert!(text
            .iter()
            .any(|t| t.starts_with("The path constraints after ")));
        assert!(text.last().unwrap().starts_with("FALSE: "), "{text:#?}");
    }
}

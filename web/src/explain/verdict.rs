//! The end of a run: the certificate check, the portfolio's components, and the verdict.

use crate::explain::context::*;
use cpa_engine::config::AlgorithmKind;
use cpa_engine::events::{CheckKind, Event, VerdictKind};

/// The explanation of `e`, an event of this family.
pub(super) fn explain(cx: &Context, index: usize, e: &Event) -> Explanation {
    let run = cx.run;
    match e {
        Event::Certificate {
            states,
            blocks,
            queries,
            valid,
            failure,
        } => {
            let s = say().t(format!("Certificate check before TRUE: the formulas of the {states} reached abstraction states must hold initially and be preserved by every one of the {blocks} blocks leaving them, and no block may reach an error ({queries} solver queries)"));
            match (valid, failure) {
                (true, _) => s.t(": they form an inductive invariant that excludes the error, so the ARG is a proof."),
                (false, Some(f)) => s.t(format!(": it does not hold ({f}), so the run cannot answer TRUE.")),
                (false, None) => s.t(": it does not hold, so the run cannot answer TRUE."),
            }
            .done("safety certificate of the final ARG (A Unifying View on SMT-Based Software Verification, Sect. 3)", "verdict")
        }
        Event::Component {
            index,
            of,
            component,
            previous,
            ..
        } => {
            let mut s = say();
            if let Some(p) = previous {
                s = s.t(format!("The previous component ended without a verdict ({p}). "));
            }
            s.t(format!("Portfolio component {} of {of}: ", index + 1))
                .c(component.as_str())
                .t(". It runs on a fresh ARG until it decides or until its budget of solver queries (the number after @, a count, so the run replays exactly) or its own limits are used; then the next component starts. Its TRUE or FALSE is the portfolio's.")
                .done("sequential portfolio (verification power: a portfolio of the presets)", "portfolio")
        }
        Event::Verdict { verdict, reason } => match verdict {
            VerdictKind::True => {
                // k-induction's proof: the step case, or a check of invariants or contracts.
                let proof = run.events[..index.min(run.events.len())]
                    .iter()
                    .rev()
                    .find_map(|e| match e {
                        Event::Check { what, .. } => Some(*what),
                        _ => None,
                    });
                let why = match cx.algorithm() {
                    Some(AlgorithmKind::KInduction) if proof == Some(CheckKind::Invariant) => "the octagon invariants hold on arrival, are preserved from loop head to loop head, and exclude the error",
                    Some(AlgorithmKind::KInduction) if proof == Some(CheckKind::Summary) => "with every call of a recursive function replaced by its contract the program is safe, and each such function establishes its contract (the checks need no recursion depth bound)",
                    Some(AlgorithmKind::KInduction) if proof == Some(CheckKind::Candidates) => "the octagon invariants and the candidate invariants kept (affine equalities between variables, the program's conditions and assignments, relations that concrete runs suggested) hold on arrival, are preserved from loop head to loop head, and exclude the error",
                    Some(AlgorithmKind::Bmc) => "the forward condition holds: no execution is longer than the bound, and none within it reaches the error",
                    Some(AlgorithmKind::KInduction) => "the property holds in the base case and is k-inductive",
                    Some(AlgorithmKind::Execution) => "every run ends (or repeats a state forever) without reaching the error: without inputs the run is the program's only execution; with inputs the classes cover every input value and all runs of a class take one path",
                    _ => "the waitlist is empty and no reached state is an abstract error state: the ARG is a proof (every state is expanded or covered)",
                };
                let mut s = say().t(format!("TRUE: {why}."));
                // The invariants the proof rests on, at their loops (the correctness witness's).
                let mut widened = false;
                for (k, (line, inv)) in run.invariants.iter().take(6).enumerate() {
                    s = s.t(if k == 0 { " Invariant at the loop of line " } else { "; at line " });
                    let (inv, w) = over_the_integers(inv);
                    widened |= w;
                    let shown = cpa_engine::text::clip_to(inv, 300);
                    s = s.t(format!("{line}: ")).c(shown.as_str());
                }
                if !run.invariants.is_empty() {
                    s = s.t(".");
                }
                if widened {
                    s = s.t(" Sums and differences of variables are read over the integers (the witness states them in long long, where they cannot wrap around).");
                }
                s.done(UV, "verdict")
            }
            VerdictKind::False => say()
                .t("FALSE: a counterexample is feasible and its concrete execution reaches the error; the Counterexample tab steps through it with the values of the variables.")
                .done(UV, "verdict"),
            VerdictKind::Unknown => say()
                .t(format!(
                    "UNKNOWN: {}.",
                    reason.as_deref().unwrap_or("the analysis gave up")
                ))
                .done(UV, "verdict"),
        },
        other => super::unexpected(other),
    }
}

/// An invariant as the page shows it: the casts `(long long)x` of single variables that make
/// a relation mean what it says over the integers dropped (`i - 2 * n <= 0`), and whether
/// there were any. The witness keeps the exact C.
fn over_the_integers(c: &str) -> (String, bool) {
    const CAST: &str = "(long long)";
    let mut out = String::with_capacity(c.len());
    let mut rest = c;
    let mut dropped = false;
    while let Some(at) = rest.find(CAST) {
        let after = &rest[at + CAST.len()..];
        let starts_a_name = after
            .chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_');
        out.push_str(&rest[..at]);
        if !starts_a_name {
            out.push_str(CAST);
        }
        dropped |= starts_a_name;
        rest = after;
    }
    out.push_str(rest);
    (out, dropped)
}

#[cfg(test)]
mod tests {
    #[test]
    fn casts_of_single_variables_are_dropped() {
        for (c, want, dropped) in [
            (
                "(long long)i - 2 * (long long)n <= 0 && ((long long)n - (long long)k <= 0 || i == 0)",
                "i - 2 * n <= 0 && (n - k <= 0 || i == 0)",
                true,
            ),
            ("-(long long)i - (long long)n <= 3", "-i - n <= 3", true),
            // A cast of a larger expression changes what it computes: kept.
            ("(long long)(x + y) <= 3", "(long long)(x + y) <= 3", false),
            ("x == 2U * i", "x == 2U * i", false),
        ] {
            assert_eq!(super::over_the_integers(c), (want.to_string(), dropped));
        }
    }
}

//! The typed events a run emits. The playground animates exactly these; replaying a prefix of
//! the event list rebuilds the ARG at any step (see [`crate::session::view`]).

use serde::{Deserialize, Serialize};

/// How a new ARG state relates to the predicate abstraction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateKind {
    /// An abstraction state (block end): `formula` is its abstraction formula.
    Abstraction,
    /// An intermediate state inside a block.
    Intermediate,
    /// A state of an analysis without abstraction (value, symbolic, BMC).
    Plain,
}

/// Why successors of a state were not produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CutReason {
    /// The loop bound k of the Loop-Bound CPA (BMC, k-induction).
    LoopBound,
    /// The recursion depth bound of the Callstack CPA.
    RecursionDepth,
}

/// Which satisfiability check of BMC or k-induction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// Is an error state reachable within the bound?
    Base,
    /// Is a state beyond the bound reachable (the forward condition)?
    Forward,
    /// The inductive step: k safe iterations followed by an unsafe one.
    Step,
    /// Are the octagon invariants at the loop heads inductive and do they exclude the error
    /// (satisfiable: no)?
    Invariant,
    /// Do the recursive functions' contracts (intervals of their return values) hold, and
    /// is the program safe with every call replaced by its contract (satisfiable: unknown
    /// when not confirmed; `formula_size`: the number of contracts)?
    Summary,
    /// Does a set of candidate invariants from the program's own conditions and assignments
    /// (the octagon invariants and the candidates that keep them inductive, Houdini-style)
    /// exclude the error (satisfiable: unknown when not confirmed; `formula_size`: the number
    /// of candidates kept)?
    Candidates,
}

/// The verdict of a run, as the event names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictKind {
    True,
    False,
    Unknown,
}

/// The preset of the portfolio component that gave a run's TRUE or FALSE: the one the last
/// [`Event::Component`] started (`None` for a run that is not a portfolio, or without a
/// TRUE or FALSE).
pub fn decided_by(events: &[Event]) -> Option<&str> {
    let decided = events.iter().rev().any(|e| {
        matches!(
            e,
            Event::Verdict {
                verdict: VerdictKind::True | VerdictKind::False,
                ..
            }
        )
    });
    decided.then(|| {
        events.iter().rev().find_map(|e| match e {
            Event::Component { preset, .. } => Some(preset.as_str()),
            _ => None,
        })
    })?
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A run (or, for BMC and k-induction, one unrolling) starts.
    Started {
        algorithm: String,
        bound: Option<u32>,
    },
    /// A state was taken from the waitlist for expansion.
    StatePopped {
        state: u32,
    },
    /// A new state entered the ARG. `parents` lists (state, CFA edge) pairs.
    StateAdded {
        state: u32,
        location: u32,
        parents: Vec<(u32, u32)>,
        kind: StateKind,
        /// The abstraction formula (abstraction states) or a summary of the state.
        label: String,
        /// Call stack depth.
        depth: u32,
        target: bool,
    },
    /// `old` (a reached state) and a new successor were merged into `into`.
    Merged {
        old: u32,
        into: u32,
        removed: Vec<u32>,
    },
    /// `state` is covered by `by` (it will not be expanded).
    Covered {
        state: u32,
        by: u32,
    },
    Uncovered {
        state: u32,
    },
    /// The values of an unknown expression along an edge were enumerated with the solver (the
    /// efficient-CEGAR paper's bounded enumeration): one successor per assignment in
    /// `values`, or, when there were more than `exceeded` of them, one successor with the
    /// value unknown.
    Enumerated {
        parent: u32,
        edge: u32,
        values: Vec<String>,
        exceeded: Option<u32>,
    },
    /// A satisfiability check of the path constraints along an edge (symbolic execution).
    SatCheck {
        parent: u32,
        edge: u32,
        satisfiable: bool,
    },
    /// The successor along an edge was infeasible or the abstraction was `false`.
    Infeasible {
        parent: u32,
        edge: u32,
    },
    /// Successors were not produced because of a loop bound or the recursion depth. In BMC
    /// and k-induction `state` is the state whose successors were cut; in CEGAR it is the
    /// state beyond the recursion bound (never expanded; its path is checked like a target's).
    Cut {
        state: u32,
        reason: CutReason,
    },
    /// An abstraction was computed for `state` from its block formula.
    Abstraction {
        state: u32,
        location: u32,
        formula: String,
        predicates: Vec<String>,
        block: String,
        queries: u32,
    },
    /// A state's abstraction formula was strengthened (IMPACT refinement, forced covering).
    Strengthened {
        state: u32,
        formula: String,
    },
    TargetReached {
        state: u32,
    },
    /// The abstract counterexample (abstraction states) and its block formulas. `cut`: the
    /// path leads to a state beyond the recursion bound, not to an error (feasible then means
    /// that deeper recursion must be explored).
    Counterexample {
        states: Vec<u32>,
        blocks: Vec<String>,
        feasible: bool,
        #[serde(default)]
        cut: bool,
    },
    /// The interpolant after each state of the counterexample (τ0 = true .. τn = false).
    Interpolants {
        states: Vec<u32>,
        interpolants: Vec<String>,
    },
    /// Predicates added to the precision, by location.
    PrecisionRefined {
        added: Vec<(u32, String)>,
    },
    /// States removed from the ARG (refinement, merge of an expanded state).
    Removed {
        states: Vec<u32>,
    },
    /// States put back into the waitlist.
    Readded {
        states: Vec<u32>,
    },
    /// A refinement step finished.
    Refined {
        refinement: u32,
        pivot: Option<u32>,
    },
    /// A satisfiability check of BMC or k-induction (`base`, `forward`, `step`).
    Check {
        what: CheckKind,
        bound: u32,
        satisfiable: Option<bool>,
        formula_size: u64,
    },
    BoundIncreased {
        bound: u32,
    },
    /// The final ARG was checked as a safety certificate before TRUE (see
    /// [`crate::proof::certificate`]): `states` abstraction states, `blocks` block ends checked with
    /// `queries` solver queries.
    Certificate {
        states: u32,
        blocks: u32,
        queries: u32,
        valid: bool,
        failure: Option<String>,
    },
    /// Concrete execution skipped `iterations` iterations of the loop at `head` (source line
    /// `line`): one iteration's path repeats with every variable changed by the same amount,
    /// so the run jumps from `from` to `state` by the closed form. `changes`: each user
    /// variable that changes, with its value before and after and its change per iteration.
    Accelerated {
        from: u32,
        state: u32,
        head: u32,
        line: u32,
        iterations: u64,
        changes: Vec<(String, String)>,
    },
    /// A portfolio starts its component `index` (from 0) of `of`, written as the `portfolio`
    /// knob writes it; `previous` says why the component before ended without a verdict.
    Component {
        index: u32,
        of: u32,
        preset: String,
        component: String,
        previous: Option<String>,
    },
    Verdict {
        verdict: VerdictKind,
        reason: Option<String>,
    },
}

//! What a run answers: the verdict, and for FALSE the counterexample with the values of the
//! program's variables after each step (confirmed by concrete execution before it is given).

use crate::events::VerdictKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    True,
    False { counterexample: Counterexample },
    Unknown { reason: String },
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::True => "true",
            Verdict::False { .. } => "false",
            Verdict::Unknown { .. } => "unknown",
        }
    }

    /// The verdict in SV-COMP's form for the one supported property, `unreach-call`.
    pub fn svcomp(&self) -> &'static str {
        match self {
            Verdict::True => "TRUE",
            Verdict::False { .. } => "FALSE(unreach-call)",
            Verdict::Unknown { .. } => "UNKNOWN",
        }
    }

    pub fn kind(&self) -> VerdictKind {
        match self {
            Verdict::True => VerdictKind::True,
            Verdict::False { .. } => VerdictKind::False,
            Verdict::Unknown { .. } => VerdictKind::Unknown,
        }
    }

    pub fn reason(&self) -> Option<&str> {
        match self {
            Verdict::Unknown { reason } => Some(reason),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    /// The executed steps with the values of the user's variables after each.
    pub trace: Vec<TraceStep>,
    /// The ARG states of the abstract counterexample (abstraction states, or the BMC path).
    pub states: Vec<u32>,
}

/// One executed edge and the values of the user's variables afterwards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    pub edge: u32,
    pub line: u32,
    pub op: String,
    /// Every user variable in scope with a known value, by source name.
    pub values: BTreeMap<String, i128>,
    /// The value a nondeterministic input gave at this step (its edge reads one), which
    /// `values` may not show: a front-end temporary, or a cell out of scope it is stored in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<i128>,
}

/// A count limit that ended a run, or a portfolio component, without a verdict: the one place
/// where such a reason is worded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Algorithm steps (`max-steps`).
    Steps(u64),
    /// ARG states (`max-states`).
    States(u64),
    /// Refinements (`max-refinements`).
    Refinements(u64),
    /// Solver queries (`max-queries`, or the limit of the solver context).
    Queries(u64),
    /// A portfolio component's budget of solver queries.
    Budget(u64),
    /// The solver's work in resource units (`max-solver-work`).
    SolverWork(u64),
    /// A portfolio component's share of the solver work.
    WorkBudget(u64),
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Steps(n) => write!(f, "step limit of {n} reached"),
            StopReason::States(n) => write!(f, "state limit of {n} reached"),
            StopReason::Refinements(n) => write!(f, "refinement limit of {n} reached"),
            StopReason::Queries(n) => write!(f, "solver query limit of {n} reached"),
            StopReason::Budget(n) => write!(f, "its budget of {n} solver queries is used"),
            StopReason::SolverWork(n) => {
                write!(
                    f,
                    "work limit of {n} units reached (max-solver-work: the solver's and the engine's work)"
                )
            }
            StopReason::WorkBudget(n) => {
                write!(f, "its share of {n} work units is used")
            }
        }
    }
}

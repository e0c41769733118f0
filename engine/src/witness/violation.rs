//! Violation witnesses: written from a concretely replayed counterexample (an `assumption`
//! waypoint with the value each nondeterministic assignment received, located at the next
//! statement, and the `target` at the call of `reach_error`), and checked by replaying them
//! with the concrete interpreter.

use super::*;
use crate::cfa::{Cfa, EdgeKind, Rhs};
use crate::concrete::{Oracle, TraceStep};
use std::collections::BTreeMap;

/// The violation witness of a counterexample: after each nondeterministic assignment an
/// assumption waypoint `x == v` at the next step's statement, then the target.
pub fn write(cfa: &Cfa, trace: &[TraceStep], file: &str, metadata: Metadata) -> Entry {
    let location = |step: &TraceStep| {
        let e = cfa.edge(crate::cfa::EdgeId(step.edge));
        let function = cfa.function(cfa.node(e.from).function).name.clone();
        Location {
            file_name: file.into(),
            line: e.span.start_line,
            column: Some(e.span.start_col),
            function: Some(function),
        }
    };
    let mut content = Vec::new();
    for (i, step) in trace.iter().enumerate() {
        let e = cfa.edge(crate::cfa::EdgeId(step.edge));
        let assigned = match &e.kind {
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Nondet { .. },
            } => *lhs,
            EdgeKind::Declare {
                var,
                init: Some(Rhs::Nondet { .. }),
            } => *var,
            _ => continue,
        };
        // A nondeterministic value the front end put in a temporary (`__tmp_0`, before a
        // conversion) is stated for the user variable it is copied into.
        let (assigned, at) = if cfa.var(assigned).synthetic {
            let copy = trace[i + 1..]
                .iter()
                .take(4)
                .enumerate()
                .find_map(|(k, s)| {
                    copies_of(cfa, crate::cfa::EdgeId(s.edge))
                        .into_iter()
                        .find(|(t, _)| *t == assigned)
                        .map(|(_, user)| (user, i + 1 + k))
                });
            match copy {
                Some(c) => c,
                None => continue,
            }
        } else {
            (assigned, i)
        };
        let Some(next) = trace.get(at + 1) else {
            continue;
        };
        let name = &cfa.var(assigned).name;
        // The trace's values are those after each step.
        let Some(value) = trace[at].values.get(name.as_str()) else {
            continue;
        };
        content.push(Segment {
            segment: vec![WaypointEntry {
                waypoint: Waypoint {
                    action: Action::Follow,
                    kind: WaypointType::Assumption,
                    location: location(next),
                    constraint: Some(Constraint {
                        value: ConstraintValue::Text(format!("{name} == {value}")),
                        format: Some("c_expression".into()),
                    }),
                },
            }],
        });
    }
    // The last step enters the error location (the call of reach_error, or a failed assert).
    if let Some(last) = trace.last() {
        content.push(Segment {
            segment: vec![WaypointEntry {
                waypoint: Waypoint {
                    action: Action::Follow,
                    kind: WaypointType::Target,
                    location: location(last),
                    constraint: None,
                },
            }],
        });
    }
    Entry::ViolationSequence { metadata, content }
}

/// The user variables an edge copies front-end temporaries into, as (temporary, user
/// variable): `int n = __tmp_0;` (conversions allowed), or a call `f(__tmp_0)` whose
/// parameter receives it.
fn copies_of(cfa: &Cfa, edge: crate::cfa::EdgeId) -> Vec<(crate::ir::VarId, crate::ir::VarId)> {
    let temp = |x: &crate::ir::Expr| {
        let mut x = x;
        while let crate::ir::ExprKind::Cast { operand, .. } = &x.kind {
            x = operand;
        }
        match x.kind {
            crate::ir::ExprKind::Var(t) if cfa.var(t).synthetic => Some(t),
            _ => None,
        }
    };
    let e = cfa.edge(edge);
    match &e.kind {
        EdgeKind::Assign {
            lhs,
            rhs: Rhs::Expr(x),
        }
        | EdgeKind::Declare {
            var: lhs,
            init: Some(Rhs::Expr(x)),
        } if !cfa.var(*lhs).synthetic => temp(x).map(|t| (t, *lhs)).into_iter().collect(),
        EdgeKind::Call { callee, args, .. } => args
            .iter()
            .zip(&cfa.function(*callee).params)
            .filter(|(_, p)| !cfa.var(**p).synthetic)
            .filter_map(|(a, p)| Some((temp(a)?, *p)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The values the assumption waypoints of a violation sequence give, in order: constraints
/// of the form `NAME == INTEGER`.
fn assumed_values(content: &[Segment]) -> Vec<(String, i128)> {
    content
        .iter()
        .flat_map(|s| &s.segment)
        .filter(|w| w.waypoint.kind == WaypointType::Assumption)
        .filter_map(|w| match &w.waypoint.constraint {
            Some(Constraint {
                value: ConstraintValue::Text(t),
                ..
            }) => {
                let (name, value) = t.split_once("==")?;
                let value = value.trim().trim_end_matches(['u', 'U', 'l', 'L']);
                let name = name.trim().trim_start_matches('(').to_string();
                Some((name, value.trim_end_matches(')').trim().parse().ok()?))
            }
            _ => None,
        })
        .collect()
}

/// Nondeterministic values from a witness: each request for a variable takes the next value
/// the witness assumes for that name; a value the witness does not give is 0, and so is
/// every uninitialised local.
struct WitnessOracle<'a> {
    cfa: &'a Cfa,
    values: Vec<(String, i128)>,
    used: Vec<bool>,
    /// Front-end temporaries and the user variable each is copied into.
    copies: BTreeMap<crate::ir::VarId, crate::ir::VarId>,
}

impl Oracle for WitnessOracle<'_> {
    fn value(
        &mut self,
        _step: usize,
        edge: &crate::cfa::Edge,
        var: crate::ir::VarId,
        ty: crate::ir::IntType,
    ) -> Option<i128> {
        // An uninitialised local is no input the witness speaks about (violation witnesses
        // give the values of nondeterministic calls): 0.
        if matches!(edge.kind, EdgeKind::Declare { init: None, .. }) {
            return Some(0);
        }
        // A temporary answers for the user variable it is copied into.
        let name = match self.copies.get(&var) {
            Some(user) => &self.cfa.var(*user).name,
            None => &self.cfa.var(var).name,
        };
        let i = (0..self.values.len()).find(|i| !self.used[*i] && &self.values[*i].0 == name);
        Some(i.map_or(0, |i| {
            self.used[i] = true;
            ty.wrap(self.values[i].1)
        }))
    }
}

/// Longest replay of a violation witness.
const MAX_REPLAY: usize = 1_000_000;

/// Checks a violation sequence's meaning on `cfa`: it is replayed by the concrete
/// interpreter with the values its assumption waypoints give, and confirmed when the run
/// reaches the error at the line of the witness's target. `Err` is the reason it is refuted.
pub fn validate(cfa: &Cfa, content: &[Segment]) -> Result<(), String> {
    let target = content
        .iter()
        .flat_map(|s| &s.segment)
        .find(|w| w.waypoint.kind == WaypointType::Target)
        .map(|w| w.waypoint.location.line)
        .ok_or("the violation sequence has no target waypoint")?;
    let values = assumed_values(content);
    let mut copies = BTreeMap::new();
    for e in &cfa.edges {
        for (t, x) in copies_of(cfa, e.id) {
            copies.entry(t).or_insert(x);
        }
    }
    let mut oracle = WitnessOracle {
        cfa,
        used: vec![false; values.len()],
        values,
        copies,
    };
    // The accelerating interpreter: a counterexample through 10^8 loop iterations replays in a
    // few steps (loops that read inputs run iteration by iteration).
    let run = crate::accel::run(cfa, &mut oracle, MAX_REPLAY);
    match run.outcome {
        crate::concrete::Outcome::ReachedError => {
            let line = run.trace.last().map(|s| s.line).unwrap_or(0);
            if line == target {
                Ok(())
            } else {
                Err(format!(
                    "the replay reaches the error at line {line}, the witness's target is at line {target}"
                ))
            }
        }
        crate::concrete::Outcome::Terminated => {
            Err("the replay with the witness's values ends without reaching the error".into())
        }
        crate::concrete::Outcome::Diverges => {
            Err("the replay with the witness's values stays in a loop forever".into())
        }
        crate::concrete::Outcome::StepLimit => Err(format!(
            "the replay did not reach the error within {MAX_REPLAY} steps"
        )),
        crate::concrete::Outcome::Failed(e) => Err(format!("the replay failed: {e}")),
    }
}

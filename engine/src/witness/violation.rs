//! Violation witnesses: written from a concretely replayed counterexample (an `assumption`
//! waypoint with the value each nondeterministic assignment received, located at the next
//! statement; a `branching` waypoint with the direction taken where an input is read straight
//! into a condition, `if (__VERIFIER_nondet_int())`, and so has no variable to state a value
//! for; and the `target` at the call of `reach_error`), and checked by replaying them with
//! the concrete interpreter.

use crate::cfa::{Cfa, EdgeKind, NodeId, Rhs};
use crate::concrete::Oracle;
use crate::verdict::TraceStep;
use crate::witness::*;
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
            match copy.or_else(|| cell_written(cfa, trace, i, assigned)) {
                Some(c) => c,
                None => {
                    content.extend(branching(cfa, trace, i, file));
                    continue;
                }
            }
        } else {
            (assigned, i)
        };
        let Some(next) = trace.get(at + 1) else {
            continue;
        };
        // The trace's values are those after each step; a cell out of the function's scope
        // (the caller's array, written through a parameter) is not among them, and holds the
        // input read at step `i`.
        let var = cfa.var(assigned);
        let Some(value) = trace[at]
            .values
            .get(var.name.as_str())
            .copied()
            .or(trace[i].input)
        else {
            continue;
        };
        let here = cfa
            .node(cfa.edge(crate::cfa::EdgeId(next.edge)).from)
            .function;
        let Some(name) = name_in_scope(cfa, assigned, here, &trace[at].values) else {
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

/// The C text that names variable `v` in function `f`, where the values in scope are `scope`:
/// its name where it is in scope (a global, or a variable of `f`); a cell of an object of
/// another function through a pointer in scope that points into the object, at a whole number
/// of cells before it (`x[2]` for the caller's `a[2]` where `x` holds `&a[0]`); `None` where
/// nothing in scope reaches it.
fn name_in_scope(
    cfa: &Cfa,
    v: crate::ir::VarId,
    f: crate::ir::FuncId,
    scope: &BTreeMap<String, i128>,
) -> Option<String> {
    let var = cfa.var(v);
    if var.function.is_none() || var.function == Some(f) {
        return Some(var.name.clone());
    }
    let (object, offset) = cfa.objects.iter().find_map(|o| {
        o.cells
            .iter()
            .find(|(_, c)| *c == v)
            .map(|(offset, _)| (o, *offset))
    })?;
    let size = u64::from(var.ty.bits() / 8).max(1);
    let address = object.base + offset;
    let pointers = cfa
        .vars
        .iter()
        .filter(|p| p.pointer && p.function == Some(f) && !p.synthetic);
    pointers
        .filter_map(|p| {
            let at = u64::try_from(*scope.get(p.name.as_str())?).ok()?;
            (at >= object.base && at <= address && (address - at) % size == 0)
                .then(|| format!("{}[{}]", p.name, (address - at) / size))
        })
        .next()
}

/// The branching waypoint for an input read at step `i` straight into the condition of a
/// branching statement: the direction the trace takes there (`true`: the then-branch or
/// the loop body), at the statement's keyword.
fn branching(cfa: &Cfa, trace: &[TraceStep], i: usize, file: &str) -> Option<Segment> {
    let e = cfa.edge(crate::cfa::EdgeId(trace[i].edge));
    let b = cfa.branching_from(e.from)?;
    let taken = trace[i + 1..].iter().find_map(|s| {
        let to = cfa.edge(crate::cfa::EdgeId(s.edge)).to;
        (to == b.then || to == b.otherwise).then_some(to == b.then)
    })?;
    let function = cfa.function(cfa.node(e.from).function).name.clone();
    Some(Segment {
        segment: vec![WaypointEntry {
            waypoint: Waypoint {
                action: Action::Follow,
                kind: WaypointType::Branching,
                location: Location {
                    file_name: file.into(),
                    line: b.keyword.start_line,
                    column: Some(b.keyword.start_col),
                    function: Some(function),
                },
                constraint: Some(Constraint {
                    value: ConstraintValue::Branch(taken),
                    format: None,
                }),
            },
        }],
    })
}

/// Where a nondeterministic value read at step `i` into the temporary `temp` is stored into
/// memory through an index or a pointer (`x[i] = __VERIFIER_nondet_int();`): the front end
/// writes it as a chain of guarded cell assignments `x[k] = (address is &x[k]) ? temp : x[k]`,
/// one per cell the access may reach. The cell whose guard holds in the trace (evaluated
/// with the values before its step) and the last step of the chain, where the statement ends.
fn cell_written(
    cfa: &Cfa,
    trace: &[TraceStep],
    i: usize,
    temp: crate::ir::VarId,
) -> Option<(crate::ir::VarId, usize)> {
    let text = |k: usize| cfa.edge(crate::cfa::EdgeId(trace[k].edge)).text.clone();
    let first = i + 1;
    if first >= trace.len() {
        return None;
    }
    let statement = text(first);
    statement.as_ref()?;
    let mut written = None;
    let mut last = None;
    let longest = first + 2 + crate::frontend::MAX_CELLS as usize;
    for k in first..trace.len().min(longest) {
        if text(k) != statement {
            break;
        }
        last = Some(k);
        let Some((t, cell, guard)) = cell_store(cfa, crate::cfa::EdgeId(trace[k].edge)) else {
            continue;
        };
        if written.is_some() || t != temp {
            continue;
        }
        let before = &trace[k - 1].values;
        let env = |v: crate::ir::VarId| before.get(&cfa.var(v).name).copied();
        if matches!(crate::ir::semantics::eval(guard, &env), Ok(g) if g != 0) {
            written = Some(cell);
        }
    }
    Some((written?, last?))
}

/// The front-end temporary `x` reads, conversions aside (`(int)__tmp_0`).
fn temporary(cfa: &Cfa, x: &crate::ir::Expr) -> Option<crate::ir::VarId> {
    let mut x = x;
    while let crate::ir::ExprKind::Cast { operand, .. } = &x.kind {
        x = operand;
    }
    match x.kind {
        crate::ir::ExprKind::Var(t) if cfa.var(t).synthetic => Some(t),
        _ => None,
    }
}

/// A guarded store of a front-end temporary into a user cell, `cell = guard ? temp : cell`
/// (one such edge per cell an access through an index or a pointer may reach):
/// (temporary, cell, guard).
fn cell_store(
    cfa: &Cfa,
    edge: crate::cfa::EdgeId,
) -> Option<(crate::ir::VarId, crate::ir::VarId, &crate::ir::Expr)> {
    let EdgeKind::Assign {
        lhs,
        rhs: Rhs::Expr(x),
    } = &cfa.edge(edge).kind
    else {
        return None;
    };
    let crate::ir::ExprKind::Ite(guard, value, _) = &x.kind else {
        return None;
    };
    let t = temporary(cfa, value)?;
    (!cfa.var(*lhs).synthetic).then_some((t, *lhs, guard.as_ref()))
}

/// The user variables an edge copies front-end temporaries into, as (temporary, user
/// variable): `int n = __tmp_0;` (conversions allowed), or a call `f(__tmp_0)` whose
/// parameter receives it.
fn copies_of(cfa: &Cfa, edge: crate::cfa::EdgeId) -> Vec<(crate::ir::VarId, crate::ir::VarId)> {
    let temp = |x: &crate::ir::Expr| temporary(cfa, x);
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

/// The branching waypoints of a violation sequence, in order: (line, direction).
fn branch_directions(content: &[Segment]) -> Vec<(u32, bool)> {
    content
        .iter()
        .flat_map(|s| &s.segment)
        .filter(|w| w.waypoint.kind == WaypointType::Branching)
        .filter_map(|w| match &w.waypoint.constraint {
            Some(Constraint {
                value: ConstraintValue::Branch(b),
                ..
            }) => Some((w.waypoint.location.line, *b)),
            Some(Constraint {
                value: ConstraintValue::Text(t),
                ..
            }) => Some((w.waypoint.location.line, t.trim().parse().ok()?)),
            None => None,
        })
        .collect()
}

/// Nondeterministic values from a witness: each request for a variable takes the next value
/// the witness assumes for that name; an input read straight into the condition of a
/// branching statement takes a value that sends the run the way the next branching waypoint
/// at that statement's line says; a value the witness does not give is 0, and so is every
/// uninitialised local.
struct WitnessOracle<'a> {
    cfa: &'a Cfa,
    values: Vec<(String, i128)>,
    used: Vec<bool>,
    branches: Vec<(u32, bool)>,
    branches_used: Vec<bool>,
    /// Front-end temporaries and the user variable each is copied into.
    copies: BTreeMap<crate::ir::VarId, crate::ir::VarId>,
    /// Front-end temporaries stored into memory through an index or a pointer, and the cells
    /// the store may write ([`cell_written`]).
    cells: BTreeMap<crate::ir::VarId, Vec<crate::ir::VarId>>,
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
        let cells: Vec<&str> = match (self.copies.contains_key(&var), self.cells.get(&var)) {
            (false, Some(cs)) => cs.iter().map(|c| self.cfa.var(*c).name.as_str()).collect(),
            _ => Vec::new(),
        };
        // A value stored into a cell: the witness states it for the cell written, in order,
        // by the cell's name or, for a cell out of scope, through a pointer of the function
        // (`p[1]`: [`name_in_scope`]).
        let here = self.cfa.node(edge.from).function;
        let through_pointer = |n: &str| {
            let Some((base, index)) = n.split_once('[') else {
                return false;
            };
            index
                .strip_suffix(']')
                .is_some_and(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()))
                && self.cfa.vars.iter().any(|v| {
                    v.pointer && !v.synthetic && v.name == base && v.function == Some(here)
                })
        };
        let i = (0..self.values.len()).find(|i| {
            let n = self.values[*i].0.as_str();
            !self.used[*i]
                && (n == name.as_str()
                    || cells.contains(&n)
                    || (!cells.is_empty() && through_pointer(n)))
        });
        if let Some(i) = i {
            self.used[i] = true;
            return Some(ty.wrap(self.values[i].1));
        }
        if self.cfa.var(var).synthetic && !self.copies.contains_key(&var) {
            if let Some(v) = self.branch_value(edge, var, ty) {
                return Some(v);
            }
        }
        Some(0)
    }
}

impl WitnessOracle<'_> {
    /// A value for the input `var` read by `edge` straight into a branching statement's
    /// condition that sends the run the way the statement's next unused branching waypoint
    /// says: the first of 0, 1, -1, the type's bounds and each constant of the condition and
    /// its neighbours that makes the condition's first test (an assume edge out of `edge`'s
    /// target that reads only `var`) go that way.
    fn branch_value(
        &mut self,
        edge: &crate::cfa::Edge,
        var: crate::ir::VarId,
        ty: crate::ir::IntType,
    ) -> Option<i128> {
        let b = *self.cfa.branching_from(edge.from)?;
        let k = (0..self.branches.len())
            .find(|k| !self.branches_used[*k] && self.branches[*k].0 == b.keyword.start_line)?;
        self.branches_used[k] = true;
        let want_then = self.branches[k].1;
        let tests: Vec<(&crate::ir::Expr, bool, NodeId)> = self
            .cfa
            .node(edge.to)
            .outgoing
            .iter()
            .filter_map(|e| match &self.cfa.edge(*e).kind {
                EdgeKind::Assume { cond, truth } => Some((cond, *truth, self.cfa.edge(*e).to)),
                _ => None,
            })
            .collect();
        // The test that goes the wanted way: to the branch itself, or (a condition of several
        // tests) anywhere but the other branch.
        let (cond, truth, _) = *tests
            .iter()
            .find(|t| t.2 == if want_then { b.then } else { b.otherwise })
            .or_else(|| {
                let other = if want_then { b.otherwise } else { b.then };
                tests.iter().find(|t| t.2 != other)
            })?;
        let mut candidates = vec![0, 1, -1, ty.min_value(), ty.max_value()];
        cond.for_each_const(&mut |c| candidates.extend([c - 1, c, c + 1]));
        candidates.into_iter().map(|v| ty.wrap(v)).find(|v| {
            let value = crate::ir::semantics::eval(cond, &|x| (x == var).then_some(*v));
            matches!(value, Ok(c) if (c != 0) == truth)
        })
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
    let mut cells: BTreeMap<crate::ir::VarId, Vec<crate::ir::VarId>> = BTreeMap::new();
    for e in &cfa.edges {
        if let Some((t, cell, _)) = cell_store(cfa, e.id) {
            cells.entry(t).or_default().push(cell);
        }
    }
    let branches = branch_directions(content);
    let mut oracle = WitnessOracle {
        cells,
        cfa,
        used: vec![false; values.len()],
        values,
        branches_used: vec![false; branches.len()],
        branches,
        copies,
    };
    // The accelerating interpreter: a counterexample through 10^8 loop iterations replays in a
    // few steps (loops that read inputs run iteration by iteration).
    let run = crate::concrete::accel::run(cfa, &mut oracle, MAX_REPLAY);
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

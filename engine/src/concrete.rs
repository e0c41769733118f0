//! Concrete execution of CFA edges with exact C semantics ([`crate::semantics`]). The engine
//! executes every counterexample before it answers FALSE: the verdict stands only if the
//! execution, fed with the counterexample's input values, really reaches an error location.

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId, NodeKind, Rhs};
use crate::ir::{IntType, VarId};
use crate::semantics::{self, EvalError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Supplies the values a concrete run cannot compute: nondeterministic values, uninitialised
/// locals and the parameters of `main`.
pub trait Oracle {
    /// The value for `var` (of type `ty`) written by `edge`, the `step`-th edge of the run.
    fn value(&mut self, step: usize, edge: &Edge, var: VarId, ty: IntType) -> Option<i128>;
    /// Called after each executed edge (oracles that follow an ARG path advance here).
    fn executed(&mut self, _step: usize, _edge: &Edge) {}
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The oracle had no value (or one out of the type's range) for a variable.
    NoValue { step: usize, var: String },
    /// An assume edge of the path does not hold for these values.
    AssumeViolated { step: usize, line: u32 },
    /// Undefined behaviour (division by zero, bad shift) on the path.
    Undefined {
        step: usize,
        line: u32,
        what: String,
    },
    /// The path is not a path of the CFA (wrong source location, unmatched return).
    NotAPath { step: usize },
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::NoValue { step, var } => write!(f, "no value for '{var}' at step {step}"),
            ExecError::AssumeViolated { step, line } => {
                write!(
                    f,
                    "the condition at line {line} (step {step}) does not hold"
                )
            }
            ExecError::Undefined { step, line, what } => {
                write!(
                    f,
                    "undefined behaviour at line {line} (step {step}): {what}"
                )
            }
            ExecError::NotAPath { step } => write!(f, "step {step} does not continue the path"),
        }
    }
}

struct Frame {
    locals: BTreeMap<VarId, i128>,
}

/// A concrete state: globals and a stack of frames.
pub struct Machine<'c> {
    cfa: &'c Cfa,
    globals: BTreeMap<VarId, i128>,
    frames: Vec<Frame>,
    /// Return sites of the active calls (one per frame above main).
    return_sites: Vec<NodeId>,
    pub location: NodeId,
    step: usize,
}

/// One executed edge and the values of the user's variables afterwards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    pub edge: u32,
    pub line: u32,
    pub op: String,
    /// Every user variable in scope with a known value, by source name.
    pub values: BTreeMap<String, i128>,
}

impl<'c> Machine<'c> {
    pub fn new(cfa: &'c Cfa) -> Machine<'c> {
        Machine {
            cfa,
            globals: BTreeMap::new(),
            frames: vec![Frame {
                locals: BTreeMap::new(),
            }],
            return_sites: Vec::new(),
            location: cfa.entry(),
            step: 0,
        }
    }

    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    fn get(&self, v: VarId) -> Option<i128> {
        if self.cfa.var(v).function.is_none() {
            self.globals.get(&v).copied()
        } else {
            self.frames.last().and_then(|f| f.locals.get(&v).copied())
        }
    }

    fn set(&mut self, v: VarId, value: i128) {
        let value = self.cfa.var(v).ty.wrap(value);
        if self.cfa.var(v).function.is_none() {
            self.globals.insert(v, value);
        } else if let Some(f) = self.frames.last_mut() {
            f.locals.insert(v, value);
        }
    }

    fn eval(&self, e: &crate::ir::Expr, edge: &Edge) -> Result<i128, ExecError> {
        semantics::eval(e, &|v| self.get(v)).map_err(|err| match err {
            EvalError::Unknown(v) => ExecError::NoValue {
                step: self.step,
                var: self.cfa.var(v).qualified.clone(),
            },
            other => ExecError::Undefined {
                step: self.step,
                line: edge.span.start_line,
                what: other.to_string(),
            },
        })
    }

    fn oracle_value(
        &self,
        oracle: &mut dyn Oracle,
        edge: &Edge,
        v: VarId,
        ty: IntType,
    ) -> Result<i128, ExecError> {
        match oracle.value(self.step, edge, v, ty) {
            Some(x) if ty.contains(x) => Ok(x),
            _ => Err(ExecError::NoValue {
                step: self.step,
                var: self.cfa.var(v).qualified.clone(),
            }),
        }
    }

    fn rhs(
        &self,
        r: &Rhs,
        edge: &Edge,
        v: VarId,
        oracle: &mut dyn Oracle,
    ) -> Result<i128, ExecError> {
        match r {
            Rhs::Expr(e) => self.eval(e, edge),
            Rhs::Nondet { ty, .. } => self.oracle_value(oracle, edge, v, *ty),
        }
    }

    /// Executes `edge` from the current location.
    pub fn execute(&mut self, edge: &Edge, oracle: &mut dyn Oracle) -> Result<(), ExecError> {
        if edge.from != self.location {
            return Err(ExecError::NotAPath { step: self.step });
        }
        match &edge.kind {
            EdgeKind::Blank(_) | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => {}
            EdgeKind::Assume { cond, truth } => {
                let v = self.eval(cond, edge)?;
                if (v != 0) != *truth {
                    return Err(ExecError::AssumeViolated {
                        step: self.step,
                        line: edge.span.start_line,
                    });
                }
            }
            EdgeKind::Assign { lhs, rhs } => {
                let v = self.rhs(rhs, edge, *lhs, oracle)?;
                self.set(*lhs, v);
            }
            EdgeKind::Declare { var, init } => {
                let ty = self.cfa.var(*var).ty;
                let v = match init {
                    Some(r) => self.rhs(r, edge, *var, oracle)?,
                    None => self.oracle_value(oracle, edge, *var, ty)?,
                };
                self.set(*var, v);
            }
            EdgeKind::Call {
                callee,
                args,
                return_site,
            } => {
                let values: Vec<i128> = args
                    .iter()
                    .map(|a| self.eval(a, edge))
                    .collect::<Result<_, _>>()?;
                self.frames.push(Frame {
                    locals: BTreeMap::new(),
                });
                self.return_sites.push(*return_site);
                let params = self.cfa.function(*callee).params.clone();
                for (p, v) in params.into_iter().zip(values) {
                    self.set(p, v);
                }
            }
            EdgeKind::ReturnValue { function, value } => {
                if let (Some(e), Some((_, rv))) = (value, self.cfa.function(*function).ret) {
                    let v = self.eval(e, edge)?;
                    self.set(rv, v);
                }
            }
            EdgeKind::Return { callee, assign, .. } => {
                if self.return_sites.last() != Some(&edge.to) {
                    return Err(ExecError::NotAPath { step: self.step });
                }
                let ret = self
                    .cfa
                    .function(*callee)
                    .ret
                    .and_then(|(_, rv)| self.get(rv));
                self.return_sites.pop();
                self.frames.pop();
                if let Some(a) = assign {
                    match ret {
                        Some(v) => self.set(*a, v),
                        None => {
                            return Err(ExecError::NoValue {
                                step: self.step,
                                var: format!("{}::__retval__", self.cfa.function(*callee).name),
                            })
                        }
                    }
                }
            }
        }
        self.location = edge.to;
        self.step += 1;
        Ok(())
    }

    /// Gives `main`'s parameters their values (they are inputs of the program).
    pub fn init_main_params(
        &mut self,
        oracle: &mut dyn Oracle,
        first: &Edge,
    ) -> Result<(), ExecError> {
        let params = self.cfa.function(self.cfa.main).params.clone();
        for p in params {
            let ty = self.cfa.var(p).ty;
            let v = self.oracle_value(oracle, first, p, ty)?;
            self.set(p, v);
        }
        Ok(())
    }

    pub fn at_error(&self) -> bool {
        self.cfa.node(self.location).kind == NodeKind::Error
    }

    /// The user's variables in scope with their current values.
    pub fn visible_values(&self) -> BTreeMap<String, i128> {
        let mut out = BTreeMap::new();
        for (v, x) in &self.globals {
            let var = self.cfa.var(*v);
            if !var.synthetic {
                out.insert(var.name.clone(), *x);
            }
        }
        if let Some(f) = self.frames.last() {
            for (v, x) in &f.locals {
                let var = self.cfa.var(*v);
                if !var.synthetic {
                    out.insert(var.name.clone(), *x);
                }
            }
        }
        out
    }
}

/// How a concrete run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    ReachedError,
    /// `abort()`/`exit()`, the end of `main`, or a failed assumption: no error on this run.
    Terminated,
    StepLimit,
    Failed(ExecError),
}

pub struct Run {
    pub trace: Vec<TraceStep>,
    pub outcome: Outcome,
}

impl<'c> Machine<'c> {
    /// The edge a concrete run takes from the current location, if any: the only edge, the
    /// assume edge whose condition holds, or the return edge to the matching return site.
    fn enabled_edge(&self) -> Result<Option<&'c Edge>, ExecError> {
        let cfa: &'c Cfa = self.cfa;
        let mut chosen = None;
        for e in cfa.successors(self.location) {
            let ok = match &e.kind {
                EdgeKind::Assume { cond, truth } => (self.eval(cond, e)? != 0) == *truth,
                EdgeKind::Return { .. } => self.return_sites.last() == Some(&e.to),
                _ => true,
            };
            if ok && chosen.is_none() {
                chosen = Some(e);
            }
        }
        Ok(chosen)
    }
}

/// Runs the program from its entry, taking inputs from `oracle`, for at most `max_steps` edges.
pub fn run(cfa: &Cfa, oracle: &mut dyn Oracle, max_steps: usize) -> Run {
    let mut m = Machine::new(cfa);
    let mut trace = Vec::new();
    let first = cfa.successors(cfa.entry()).next();
    if let Some(first) = first {
        if let Err(e) = m.init_main_params(oracle, first) {
            return Run {
                trace,
                outcome: Outcome::Failed(e),
            };
        }
    }
    loop {
        if m.at_error() {
            return Run {
                trace,
                outcome: Outcome::ReachedError,
            };
        }
        if trace.len() >= max_steps {
            return Run {
                trace,
                outcome: Outcome::StepLimit,
            };
        }
        let edge = match m.enabled_edge() {
            Ok(Some(e)) => e,
            Ok(None) => {
                return Run {
                    trace,
                    outcome: Outcome::Terminated,
                }
            }
            Err(e) => {
                return Run {
                    trace,
                    outcome: Outcome::Failed(e),
                }
            }
        };
        let step = m.step;
        if let Err(e) = m.execute(edge, oracle) {
            return Run {
                trace,
                outcome: Outcome::Failed(e),
            };
        }
        oracle.executed(step, edge);
        trace.push(TraceStep {
            edge: edge.id.0,
            line: edge.span.start_line,
            op: cfa.label(&edge.kind),
            values: m.visible_values(),
        });
    }
}

/// Executes `path` (consecutive CFA edges from the program entry) and records a trace. The run
/// must end in an error location.
pub fn validate_path(
    cfa: &Cfa,
    path: &[&Edge],
    oracle: &mut dyn Oracle,
) -> Result<Vec<TraceStep>, ExecError> {
    let mut m = Machine::new(cfa);
    let mut trace = Vec::new();
    if let Some(first) = path.first() {
        m.init_main_params(oracle, first)?;
    }
    for e in path {
        let step = m.step;
        m.execute(e, oracle)?;
        oracle.executed(step, e);
        trace.push(TraceStep {
            edge: e.id.0,
            line: e.span.start_line,
            op: cfa.label(&e.kind),
            values: m.visible_values(),
        });
    }
    if !m.at_error() {
        return Err(ExecError::NotAPath { step: path.len() });
    }
    Ok(trace)
}

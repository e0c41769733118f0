//! Concrete execution of CFA edges with exact C semantics ([`crate::ir::semantics`]). The engine
//! executes every counterexample before it answers FALSE: the verdict stands only if the
//! execution, fed with the counterexample's input values, really reaches an error location.

pub mod accel;
pub mod execution;

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId, Rhs};
use crate::ir::semantics::{self, EvalError};
use crate::ir::{IntType, VarId};
pub use crate::verdict::TraceStep;
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
    /// The trace's states hold more than [`MAX_TRACE_VALUES`] values in all (every step
    /// records the value of every variable in scope, and an array is one variable per cell).
    TooLarge { step: usize },
}

/// The most values the states of one recorded trace hold together (each step's values of
/// every variable in scope beyond the first [`SMALL_STATE`]): about 100 MB. A run of 10,000 steps over two arrays of 2,048
/// cells would hold 41 million (3.5 GB were reached before this bound, on
/// `loop-acceleration/array_2-1-simple.i`).
pub const MAX_TRACE_VALUES: usize = 1_000_000;

/// Values of a step's state that [`TraceBudget`] does not count: a long run of a program
/// with few variables is bounded by its step limit (400,000 steps of 8 variables are 3.2
/// million values), the budget is for states as large as arrays make them.
pub const SMALL_STATE: usize = 64;

/// The values of `step`'s state that count against [`MAX_TRACE_VALUES`]: those beyond
/// [`SMALL_STATE`].
pub fn counted_values(step: &TraceStep) -> usize {
    step.values.len().saturating_sub(SMALL_STATE)
}

/// Counts the values a trace's steps hold against [`MAX_TRACE_VALUES`] ([`counted_values`]).
#[derive(Default)]
pub struct TraceBudget {
    values: usize,
}

impl TraceBudget {
    /// Records `step`; an error once the trace holds too many values.
    pub fn push(&mut self, trace: &mut Vec<TraceStep>, step: TraceStep) -> Result<(), ExecError> {
        self.values += counted_values(&step);
        if self.values > MAX_TRACE_VALUES {
            return Err(ExecError::TooLarge { step: trace.len() });
        }
        trace.push(step);
        Ok(())
    }
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
            ExecError::TooLarge { step } => write!(
                f,
                "the run's states are too large to record: more than {MAX_TRACE_VALUES} values (beyond {SMALL_STATE} per step) in the first {step} steps"
            ),
        }
    }
}

#[derive(Clone, Debug)]
struct Frame {
    locals: BTreeMap<VarId, i128>,
}

/// A concrete state: globals and a stack of frames. It does not hold the CFA: every operation
/// takes it, so that an owner of the CFA (an algorithm) can hold a machine too.
#[derive(Clone, Debug)]
pub struct Machine {
    globals: BTreeMap<VarId, i128>,
    frames: Vec<Frame>,
    /// Return sites of the active calls (one per frame above main).
    return_sites: Vec<NodeId>,
    pub location: NodeId,
    step: usize,
}

/// A machine's state, field by field: globals, the locals of each frame (main's first), the
/// return sites of the active calls, the location and the number of edges executed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineParts<V = i128> {
    pub globals: BTreeMap<VarId, V>,
    pub frames: Vec<BTreeMap<VarId, V>>,
    pub return_sites: Vec<NodeId>,
    pub location: NodeId,
    pub step: usize,
}

impl TraceStep {
    /// The step of `edge`, just executed by `m`: its line, its text and the values after it.
    pub fn after(cfa: &Cfa, edge: &Edge, m: &Machine) -> TraceStep {
        let input = match &edge.kind {
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Nondet { .. },
            }
            | EdgeKind::Declare {
                var: lhs,
                init: Some(Rhs::Nondet { .. }),
            } => m.get(cfa, *lhs),
            _ => None,
        };
        TraceStep {
            edge: edge.id.0,
            line: edge.span.start_line,
            op: cfa.edge_text(edge),
            values: m.visible_values(cfa),
            input,
        }
    }
}

impl<V> MachineParts<V> {
    /// The same state with every value replaced by `f` of it (the first error stops).
    pub fn try_map<W, E>(&self, f: impl Fn(&V) -> Result<W, E>) -> Result<MachineParts<W>, E> {
        let map = |m: &BTreeMap<VarId, V>| -> Result<BTreeMap<VarId, W>, E> {
            m.iter().map(|(v, x)| Ok((*v, f(x)?))).collect()
        };
        Ok(MachineParts {
            globals: map(&self.globals)?,
            frames: self.frames.iter().map(map).collect::<Result<_, E>>()?,
            return_sites: self.return_sites.clone(),
            location: self.location,
            step: self.step,
        })
    }

    /// [`MachineParts::try_map`] with a function that cannot fail.
    pub fn map<W>(&self, f: impl Fn(&V) -> W) -> MachineParts<W> {
        match self.try_map(|x| Ok::<W, std::convert::Infallible>(f(x))) {
            Ok(p) => p,
            Err(never) => match never {},
        }
    }
}

impl Machine {
    pub fn new(cfa: &Cfa) -> Machine {
        Machine {
            globals: BTreeMap::new(),
            frames: vec![Frame {
                locals: BTreeMap::new(),
            }],
            return_sites: Vec::new(),
            location: cfa.entry(),
            step: 0,
        }
    }

    /// The state as plain parts (for an interpreter over other values, [`crate::concrete::accel::split`]).
    pub fn parts(&self) -> MachineParts {
        MachineParts {
            globals: self.globals.clone(),
            frames: self.frames.iter().map(|f| f.locals.clone()).collect(),
            return_sites: self.return_sites.clone(),
            location: self.location,
            step: self.step,
        }
    }

    /// The machine in the state `parts` describes.
    pub fn from_parts(parts: MachineParts) -> Machine {
        Machine {
            globals: parts.globals,
            frames: parts
                .frames
                .into_iter()
                .map(|locals| Frame { locals })
                .collect(),
            return_sites: parts.return_sites,
            location: parts.location,
            step: parts.step,
        }
    }

    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Edges executed so far (an oracle's `step` is this count before the edge).
    pub fn steps(&self) -> usize {
        self.step
    }

    /// The frame holding `v` (`None`: a global).
    fn frame(&self, cfa: &Cfa, v: VarId) -> Option<usize> {
        let f = cfa.var(v).function?;
        Some(frame_of(
            cfa,
            self.location,
            &self.return_sites,
            self.frames.len(),
            f,
        ))
    }

    fn get(&self, cfa: &Cfa, v: VarId) -> Option<i128> {
        match self.frame(cfa, v) {
            None => self.globals.get(&v).copied(),
            Some(k) => self.frames.get(k).and_then(|f| f.locals.get(&v).copied()),
        }
    }

    fn set(&mut self, cfa: &Cfa, v: VarId, value: i128) {
        let value = cfa.var(v).ty.wrap(value);
        match self.frame(cfa, v) {
            None => {
                self.globals.insert(v, value);
            }
            Some(k) => {
                if let Some(f) = self.frames.get_mut(k) {
                    f.locals.insert(v, value);
                }
            }
        }
    }

    /// Stores into the top frame (a call binding its parameters, a return its result, while
    /// the location is not yet in the frame's function).
    fn set_top(&mut self, cfa: &Cfa, v: VarId, value: i128) {
        let value = cfa.var(v).ty.wrap(value);
        if cfa.var(v).function.is_none() {
            self.globals.insert(v, value);
        } else if let Some(f) = self.frames.last_mut() {
            f.locals.insert(v, value);
        }
    }

    fn unset(&mut self, cfa: &Cfa, v: VarId) {
        match self.frame(cfa, v) {
            None => {
                self.globals.remove(&v);
            }
            Some(k) => {
                if let Some(f) = self.frames.get_mut(k) {
                    f.locals.remove(&v);
                }
            }
        }
    }

    fn eval(&self, cfa: &Cfa, e: &crate::ir::Expr, edge: &Edge) -> Result<i128, ExecError> {
        semantics::eval(e, &|v| self.get(cfa, v)).map_err(|err| match err {
            EvalError::Unknown(v) => ExecError::NoValue {
                step: self.step,
                var: cfa.var(v).qualified.clone(),
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
        cfa: &Cfa,
        oracle: &mut dyn Oracle,
        edge: &Edge,
        v: VarId,
        ty: IntType,
    ) -> Result<i128, ExecError> {
        match oracle.value(self.step, edge, v, ty) {
            Some(x) if ty.contains(x) => Ok(x),
            _ => Err(ExecError::NoValue {
                step: self.step,
                var: cfa.var(v).qualified.clone(),
            }),
        }
    }

    fn rhs(
        &self,
        cfa: &Cfa,
        r: &Rhs,
        edge: &Edge,
        v: VarId,
        oracle: &mut dyn Oracle,
    ) -> Result<i128, ExecError> {
        match r {
            Rhs::Expr(e) => self.eval(cfa, e, edge),
            Rhs::Nondet { ty, .. } => self.oracle_value(cfa, oracle, edge, v, *ty),
        }
    }

    /// Executes `edge` from the current location.
    pub fn execute(
        &mut self,
        cfa: &Cfa,
        edge: &Edge,
        oracle: &mut dyn Oracle,
    ) -> Result<(), ExecError> {
        if edge.from != self.location {
            return Err(ExecError::NotAPath { step: self.step });
        }
        match &edge.kind {
            EdgeKind::Blank(_) | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => {}
            EdgeKind::Assume { cond, truth } => {
                let v = self.eval(cfa, cond, edge)?;
                if (v != 0) != *truth {
                    return Err(ExecError::AssumeViolated {
                        step: self.step,
                        line: edge.span.start_line,
                    });
                }
            }
            EdgeKind::Assign { lhs, rhs } => match self.rhs(cfa, rhs, edge, *lhs, oracle) {
                Ok(v) => self.set(cfa, *lhs, v),
                // A cell without a value that keeps it (`c = (addr == &c) ? v : c` of a
                // write elsewhere) still has none.
                Err(ExecError::NoValue { var, .. })
                    if matches!(rhs, Rhs::Expr(_))
                        && var == cfa.var(*lhs).qualified
                        && self.get(cfa, *lhs).is_none() => {}
                Err(e) => return Err(e),
            },
            EdgeKind::Declare { var, init } => {
                let ty = cfa.var(*var).ty;
                let v = match init {
                    Some(r) => Some(self.rhs(cfa, r, edge, *var, oracle)?),
                    // An uninitialised local: the oracle's value, or none until it is
                    // assigned (a read before fails, see `eval`).
                    None => match oracle.value(self.step, edge, *var, ty) {
                        None => None,
                        Some(x) if ty.contains(x) => Some(x),
                        Some(_) => {
                            return Err(ExecError::NoValue {
                                step: self.step,
                                var: cfa.var(*var).qualified.clone(),
                            })
                        }
                    },
                };
                match v {
                    Some(v) => self.set(cfa, *var, v),
                    None => self.unset(cfa, *var),
                }
            }
            EdgeKind::Call {
                callee,
                args,
                return_site,
            } => {
                let values: Vec<i128> = args
                    .iter()
                    .map(|a| self.eval(cfa, a, edge))
                    .collect::<Result<_, _>>()?;
                self.frames.push(Frame {
                    locals: BTreeMap::new(),
                });
                self.return_sites.push(*return_site);
                let params = cfa.function(*callee).params.clone();
                for (p, v) in params.into_iter().zip(values) {
                    self.set_top(cfa, p, v);
                }
            }
            EdgeKind::ReturnValue { function, value } => {
                if let (Some(e), Some((_, rv))) = (value, cfa.function(*function).ret) {
                    let v = self.eval(cfa, e, edge)?;
                    self.set(cfa, rv, v);
                }
            }
            EdgeKind::Return { callee, assign, .. } => {
                if self.return_sites.last() != Some(&edge.to) {
                    return Err(ExecError::NotAPath { step: self.step });
                }
                let ret = cfa
                    .function(*callee)
                    .ret
                    .and_then(|(_, rv)| self.get(cfa, rv));
                self.return_sites.pop();
                self.frames.pop();
                if let Some(a) = assign {
                    match ret {
                        Some(v) => self.set_top(cfa, *a, v),
                        None => {
                            return Err(ExecError::NoValue {
                                step: self.step,
                                var: format!("{}::__retval__", cfa.function(*callee).name),
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
        cfa: &Cfa,
        oracle: &mut dyn Oracle,
        first: &Edge,
    ) -> Result<(), ExecError> {
        let params = cfa.function(cfa.main).params.clone();
        for p in params {
            let ty = cfa.var(p).ty;
            let v = self.oracle_value(cfa, oracle, first, p, ty)?;
            self.set(cfa, p, v);
        }
        Ok(())
    }

    /// The truth of the condition `e` in the current state (`None`: it reads a variable
    /// without a value, or its evaluation is undefined).
    pub fn holds(&self, cfa: &Cfa, e: &crate::ir::Expr) -> Option<bool> {
        semantics::eval(e, &|v| self.get(cfa, v))
            .ok()
            .map(|x| x != 0)
    }

    pub fn at_error(&self, cfa: &Cfa) -> bool {
        cfa.node(self.location).is_error()
    }

    /// The globals and the current frame's locals that have a value.
    pub fn snapshot(&self) -> BTreeMap<VarId, i128> {
        let mut out = self.globals.clone();
        if let Some(f) = self.frames.last() {
            out.extend(f.locals.iter().map(|(v, x)| (*v, *x)));
        }
        out
    }

    /// Replaces the globals and the current frame's locals by `values`.
    pub fn restore(&mut self, cfa: &Cfa, values: &BTreeMap<VarId, i128>) {
        self.globals.clear();
        if let Some(f) = self.frames.last_mut() {
            f.locals.clear();
        }
        for (v, x) in values {
            self.set(cfa, *v, *x);
        }
    }

    /// The user's variables in scope with their current values.
    pub fn visible_values(&self, cfa: &Cfa) -> BTreeMap<String, i128> {
        let mut out = BTreeMap::new();
        for (v, x) in &self.globals {
            let var = cfa.var(*v);
            if !var.synthetic {
                out.insert(var.name.clone(), *x);
            }
        }
        if let Some(f) = self.frames.last() {
            for (v, x) in &f.locals {
                let var = cfa.var(*v);
                if !var.synthetic {
                    out.insert(var.name.clone(), *x);
                }
            }
        }
        out
    }
}

/// The frame (index into a stack of `frames` frames, main's first) that holds the locals of
/// function `f` while the run is at `location` (in the top frame's function) with the active
/// calls' `return_sites`: the innermost frame of `f`. A callee reaches its caller's locals
/// only through memory (a cell of an object whose address was passed); a function runs at
/// most once at a time while such an object is alive (the front end checks it), so the
/// innermost frame is the one meant. Call and return edges, whose location is not in the
/// top frame's function, bind their variables in the top frame directly.
pub fn frame_of(
    cfa: &Cfa,
    location: NodeId,
    return_sites: &[NodeId],
    frames: usize,
    f: crate::ir::FuncId,
) -> usize {
    let top = frames.saturating_sub(1);
    if cfa.node(location).function == f {
        return top;
    }
    // return_sites[j] lies in the function of frame j.
    (0..top.min(return_sites.len()))
        .rev()
        .find(|&j| cfa.node(return_sites[j]).function == f)
        .unwrap_or(top)
}

/// How a concrete run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    ReachedError,
    /// `abort()`/`exit()`, the end of `main`, or a failed assumption: no error on this run.
    Terminated,
    StepLimit,
    Failed(ExecError),
    /// The run came back to a loop head in the state it had there before: a deterministic run
    /// stays in the loop forever and never reaches an error (found only by the accelerating
    /// runner, [`crate::concrete::accel`]).
    Diverges,
}

pub struct Run {
    pub trace: Vec<TraceStep>,
    pub outcome: Outcome,
}

impl Machine {
    /// The edge a concrete run takes from the current location, if any: the only edge, the
    /// assume edge whose condition holds, or the return edge to the matching return site.
    pub fn enabled_edge<'c>(&self, cfa: &'c Cfa) -> Result<Option<&'c Edge>, ExecError> {
        let mut chosen = None;
        for e in cfa.successors(self.location) {
            let ok = match &e.kind {
                EdgeKind::Assume { cond, truth } => (self.eval(cfa, cond, e)? != 0) == *truth,
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

/// The oracle of a program that reads no input: it has no value to give, so a run that needs
/// one fails ([`ExecError::NoValue`]) and a run that does not is the program's only run.
pub struct NoInput;

impl Oracle for NoInput {
    fn value(&mut self, _: usize, _: &Edge, _: VarId, _: IntType) -> Option<i128> {
        None
    }
}

/// Runs the program from its entry, taking inputs from `oracle`, for at most `max_steps` edges.
pub fn run(cfa: &Cfa, oracle: &mut dyn Oracle, max_steps: usize) -> Run {
    let mut m = Machine::new(cfa);
    let mut trace = Vec::new();
    let mut budget = TraceBudget::default();
    let first = cfa.successors(cfa.entry()).next();
    if let Some(first) = first {
        if let Err(e) = m.init_main_params(cfa, oracle, first) {
            return Run {
                trace,
                outcome: Outcome::Failed(e),
            };
        }
    }
    loop {
        if m.at_error(cfa) {
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
        let edge = match m.enabled_edge(cfa) {
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
        if let Err(e) = m.execute(cfa, edge, oracle) {
            return Run {
                trace,
                outcome: Outcome::Failed(e),
            };
        }
        oracle.executed(step, edge);
        if let Err(e) = budget.push(&mut trace, TraceStep::after(cfa, edge, &m)) {
            return Run {
                trace,
                outcome: Outcome::Failed(e),
            };
        }
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
    let mut budget = TraceBudget::default();
    if let Some(first) = path.first() {
        m.init_main_params(cfa, oracle, first)?;
    }
    for e in path {
        let step = m.step;
        m.execute(cfa, e, oracle)?;
        oracle.executed(step, e);
        budget.push(&mut trace, TraceStep::after(cfa, e, &m))?;
    }
    if !m.at_error(cfa) {
        return Err(ExecError::NotAPath { step: path.len() });
    }
    Ok(trace)
}

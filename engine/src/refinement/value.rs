//! Refinement for explicit-value analysis.
//!
//! * **Trace**: every ARG state from the root to the target (each step is one CFA edge).
//! * **Feasibility**: the path formula of the edges (the configured encoding); a model is
//!   validated by concrete execution before FALSE.
//! * **Refutation** ([`ValueRefutation`]):
//!   - `interpolation`: interpolation for abstract variable assignments (Beyer and Löwe,
//!     FASE 2013; the symbolic-execution thesis, Algorithms 4 and 5, as its digest restates
//!     them): along the shortest infeasible prefix of the path, Γi is the post of Γ(i-1) along
//!     edge i, from which every variable is dropped whose absence keeps the rest of the prefix
//!     contradicting, in slot order (inductive: from Γ(i-1) and one edge, never the whole
//!     prefix); Γi = ⊤ without trials up to the latest state from which the rest contradicts
//!     on its own ([`suffix`](crate::refinement::suffix), logarithmically many replays). When the value
//!     semantics cannot see the contradiction even at full precision (it rests on values
//!     the analysis does not know), no precision refutes the path without
//!     a solver (`max-enum=1*`: the path stays undecided); with enumeration, the variables the
//!     path's prefix and suffix share at each state are tracked, so that T_k can pin them;
//!   - `itp-vars`: always the variables of the sequence interpolants (the efficient-CEGAR
//!     paper's explicit domain: π_i = var(I_i)).
//! * **Precision**: the variables of Γi are tracked at the location of the i-th state (lazy
//!   abstraction); a refutation that adds nothing ends the run with UNKNOWN.

use crate::cfa::Cfa;
use crate::cpa::arg::{Arg, ArgId};
use crate::domains::value::post::{post, post_path};
use crate::domains::value::{MaxEnum, PrecisionScope, ValueCpa, ValuePrecision, ValueState};
use crate::formula::{deindex, Names};
use crate::ir::VarId;
use crate::proof::counterexample::{self, EdgeStep};
use crate::refinement::binary::{FormulaTrace, TraceFormula};
use crate::refinement::suffix::Interpolants;
use crate::refinement::{
    Feasibility, Goal, Increment, PrecisionRefiner, Refutation, Trace, TraceChecker,
};
use crate::smt::{EngineError, Result, Smt};
use crate::text::clip;
use serde::{Deserialize, Serialize};
use solver_bridge::term::Term;
use std::collections::BTreeSet;

type VArg = Arg<ValueState, ValuePrecision>;

/// The most single-edge posts one value interpolation may compute before it gives up (the
/// run then ends UNKNOWN): the greedy elimination is quadratic in the path length.
pub const MAX_INTERPOLATION_POSTS: u64 = 20_000_000;

/// How an infeasible value-analysis path is refuted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ValueRefutation {
    /// Value interpolation; a path it cannot refute stays undecided (`max-enum=1*`) or has the
    /// variables its prefix and suffix share tracked (with enumeration).
    #[default]
    Interpolation,
    /// The variables of sequence interpolants.
    ItpVars,
}

/// The edges between consecutive states of an ARG path.
pub fn edge_steps<D: Clone, P>(arg: &Arg<D, P>, states: &[ArgId]) -> Result<Vec<EdgeStep>> {
    states
        .windows(2)
        .map(|w| {
            let (a, b) = (arg.node(w[0]), arg.node(w[1]));
            let edge = b
                .parents
                .iter()
                .find(|(p, _)| *p == w[0])
                .map(|(_, e)| *e)
                .ok_or_else(|| EngineError::Unsupported("an ARG path without an edge".into()))?;
            Ok(EdgeStep {
                edge,
                from: a.ctl.clone(),
                to: b.ctl.clone(),
            })
        })
        .collect()
}

pub struct ValueTraceChecker {
    refutation: ValueRefutation,
    /// Whether the last refutation set its first interpolants to ⊤ without trials.
    cut_short: bool,
}

impl ValueTraceChecker {
    pub fn new(refutation: ValueRefutation) -> ValueTraceChecker {
        ValueTraceChecker {
            refutation,
            cut_short: false,
        }
    }
}

/// Value interpolants Γ0 = ⊤ .. for the path `steps` from ⊤, or `None` when the value
/// semantics does not find the path infeasible. `None` entries are ⊥ (after the contradiction).
/// With `shortcut`, Γi = ⊤ without trials up to the latest state from which the rest
/// contradicts on its own (see `suffix`).
fn value_interpolants(
    cfa: &Cfa,
    steps: &[EdgeStep],
    shortcut: bool,
) -> Result<Option<Interpolants<ValueState>>> {
    let step = |i: usize| (cfa.edge(steps[i].edge), &steps[i].from, &steps[i].to);
    // The shortest infeasible prefix: edge m is the first the post cannot take.
    let mut cur = ValueState::default();
    let mut m = None;
    for i in 0..steps.len() {
        let (e, f, t) = step(i);
        match post(cfa, &cur, e, f, t).state {
            Some(next) => cur = next,
            None => {
                m = Some(i);
                break;
            }
        }
    }
    let Some(m) = m else {
        return Ok(None);
    };
    let mut budget = MAX_INTERPOLATION_POSTS;
    let mut charge = |cost: usize| {
        if budget < cost as u64 {
            return Err(EngineError::Limit(format!(
                "value interpolation needs more than {MAX_INTERPOLATION_POSTS} posts"
            )));
        }
        budget -= cost as u64;
        Ok(())
    };
    // Γ0 .. Γj = ⊤ where the rest from j contradicts on its own (see `suffix`).
    let j = if shortcut {
        crate::refinement::suffix::contradicting_suffix(m, |j| {
            charge(m + 1 - j)?;
            Ok(post_path(cfa, &ValueState::default(), (j..=m).map(step)).is_none())
        })?
    } else {
        0
    };
    let live = crate::refinement::liveness::live_slots(cfa, &steps[..=m]);
    let mut itps: Vec<Option<ValueState>> = vec![Some(ValueState::default()); j + 1];
    for i in j + 1..=m {
        let prev = itps[i - 1].as_ref().expect("before the contradiction");
        let (e, f, t) = step(i - 1);
        let Some(mut v) = post(cfa, prev, e, f, t).state else {
            // Γ(i-1) contradicts edge i-1 itself.
            break;
        };
        // A slot the rest does not read goes without a trial (same outcome, see `liveness`).
        v.values.retain(|slot, _| live.live[i].contains(slot));
        let slots: Vec<_> = v.values.keys().copied().collect();
        for slot in slots {
            // Kept by Γ(i-1) and not read by edge i-1: kept (see `liveness::kept_before`).
            if crate::refinement::liveness::kept_before(
                &live.reads[i - 1],
                &prev.values,
                &v.values,
                slot,
            ) {
                continue;
            }
            charge(m + 1 - i)?;
            let mut weaker = v.clone();
            weaker.values.remove(&slot);
            if post_path(cfa, &weaker, (i..=m).map(step)).is_none() {
                v = weaker;
            }
        }
        itps.push(Some(v));
    }
    itps.resize(steps.len() + 1, None);
    Ok(Some(Interpolants {
        states: itps,
        cut_short: j > 0,
    }))
}

/// The program variables of a term over SSA constants or unindexed names (auxiliary values
/// and symbolic identifiers are no program variables).
fn term_vars(names: &Names, t: &Term) -> BTreeSet<VarId> {
    t.free_vars()
        .into_iter()
        .filter_map(|v| {
            let base =
                crate::formula::ssa::split_indexed(&v.name).map_or(v.name.as_ref(), |(b, _)| b);
            names.slot(base).map(|s| s.var)
        })
        .collect()
}

/// An interpolant as the playground shows it (unindexed where it can be).
fn itp_text(t: &Term) -> String {
    clip(deindex(t).unwrap_or_else(|| t.clone()))
}

/// Interpolants τ0..τn as tracked variables: π_i = var(τi) (the efficient-CEGAR paper's
/// explicit domain), nothing where τi is `false`; and their text.
pub fn variables_of_interpolants(
    names: &Names,
    itps: &[Term],
) -> (Vec<BTreeSet<VarId>>, Vec<String>) {
    let vars = itps
        .iter()
        .map(|t| {
            if t.is_false() {
                BTreeSet::new()
            } else {
                term_vars(names, t)
            }
        })
        .collect();
    (vars, itps.iter().map(itp_text).collect())
}

/// [`variables_of_interpolants`] as the refutation of a variable-tracking analysis.
pub fn variable_refutation(names: &Names, itps: &[Term]) -> (Refutation, Vec<String>) {
    let (vars, texts) = variables_of_interpolants(names, itps);
    (Refutation::Variables(vars), texts)
}

/// A single-edge trace as a [`TraceFormula`]: the edges' path formulas, and each state's
/// formula (`state(i, data)`, unindexed) instantiated at the SSA indices after edge i.
pub fn edge_trace_formula<D: Clone, P>(
    cfa: &Cfa,
    enc: &crate::formula::Encoder,
    names: &Names,
    arg: &Arg<D, P>,
    trace: &Trace,
    state: impl Fn(usize, &D) -> Term,
) -> Result<TraceFormula> {
    let steps = edge_steps(arg, &trace.states)?;
    let (formulas, maps) = counterexample::edge_path_formulas(cfa, enc, &steps);
    let mut states = Vec::with_capacity(trace.states.len());
    for (i, id) in trace.states.iter().enumerate() {
        let ssa = if i == 0 {
            crate::formula::SsaMap::default()
        } else {
            maps[i - 1].clone()
        };
        let (t, extra) = enc.instantiate(names, &state(i, &arg.node(*id).data), &ssa);
        states.push(Term::and(std::iter::once(t).chain(extra)));
    }
    Ok(TraceFormula {
        states,
        ops: formulas.into_iter().map(|f| f.formula).collect(),
    })
}

/// For each state of the path, the program variables whose SSA constants both the edges
/// before it and the edges after it mention (var(A) ∩ var(B) of every binary cut).
fn shared_vars(cpa: &ValueCpa, steps: &[EdgeStep]) -> (Vec<BTreeSet<VarId>>, Vec<String>) {
    let cfa = cpa.cfa.clone();
    let enc = cpa.encoder();
    let (formulas, _) = counterexample::edge_path_formulas(&cfa, &enc, steps);
    let symbols: Vec<BTreeSet<String>> = formulas
        .iter()
        .map(|f| {
            f.formula
                .free_vars()
                .into_iter()
                .map(|v| v.name.to_string())
                .collect()
        })
        .collect();
    let n = symbols.len();
    // suffix[i]: symbols of the edges i.. (the edges after state i).
    let mut suffix = vec![BTreeSet::new(); n + 1];
    for i in (0..n).rev() {
        suffix[i] = suffix[i + 1].union(&symbols[i]).cloned().collect();
    }
    let mut prefix: BTreeSet<String> = BTreeSet::new();
    let mut sets = Vec::with_capacity(n + 1);
    let mut texts = Vec::with_capacity(n + 1);
    for i in 0..=n {
        if i > 0 {
            prefix.extend(symbols[i - 1].iter().cloned());
        }
        let vars: BTreeSet<VarId> = prefix
            .intersection(&suffix[i])
            .filter_map(|name| {
                let (base, _) = crate::formula::ssa::split_indexed(name)?;
                cpa.names.slot(base).map(|s| s.var)
            })
            .collect();
        texts.push(if i == n {
            "false".to_string()
        } else if vars.is_empty() {
            "true".to_string()
        } else {
            let names: Vec<&str> = vars
                .iter()
                .map(|v| cfa.var(*v).qualified.as_str())
                .collect();
            format!("tracks {}", names.join(", "))
        });
        sets.push(vars);
    }
    (sets, texts)
}

/// The variables of sequence interpolants of the path's edge formulas, per state (the
/// efficient-CEGAR paper's explicit domain, π_i = var(I_i); the symbolic-execution thesis'
/// refinement delegated to predicate refinement).
pub fn interpolant_vars(
    cfa: &Cfa,
    enc: &crate::formula::Encoder,
    names: &Names,
    smt: &mut dyn Smt,
    steps: &[EdgeStep],
) -> Result<(Vec<BTreeSet<VarId>>, Vec<String>)> {
    let (formulas, _) = counterexample::edge_path_formulas(cfa, enc, steps);
    let blocks: Vec<_> = formulas.into_iter().map(|f| f.formula).collect();
    let inner = if blocks.len() < 2 {
        Vec::new()
    } else {
        smt.interpolate(&blocks)?
    };
    let mut itps = vec![Term::tt()];
    itps.extend(inner);
    itps.push(Term::ff());
    Ok(variables_of_interpolants(names, &itps))
}

/// The trace of single-edge analyses (value, symbolic): every ARG state from the root to the
/// target, each step labelled with its edge.
pub fn edge_trace<D: Clone, P>(cfa: &Cfa, arg: &Arg<D, P>, target: ArgId) -> Result<Trace> {
    let states = arg.path_to(target);
    let steps = edge_steps(arg, &states)?;
    let blocks = steps
        .iter()
        .map(|s| cfa.label(&cfa.edge(s.edge).kind))
        .collect();
    Ok(Trace { states, blocks })
}

/// The feasibility of a single-edge trace: its path formula, and a concrete replay before
/// FALSE.
pub fn edge_feasibility<D: Clone, P>(
    smt: &mut dyn Smt,
    cfa: &Cfa,
    enc: &crate::formula::Encoder,
    arg: &Arg<D, P>,
    trace: &Trace,
    goal: Goal,
) -> Result<Feasibility> {
    let steps = edge_steps(arg, &trace.states)?;
    if goal == Goal::Cut {
        let (formulas, _) = counterexample::edge_path_formulas(cfa, enc, &steps);
        let conj = solver_bridge::term::Term::and(formulas.into_iter().map(|f| f.formula));
        return Feasibility::of_cut(smt, &conj);
    }
    let states = trace.states.iter().map(|s| s.0).collect();
    Ok(Feasibility::of_error_path(counterexample::check_edge_path(
        smt, cfa, enc, &steps, states,
    )?))
}

/// A refutation and its steps as text.
pub type Refuted = (Refutation, Vec<String>);

/// The refutation by value interpolation of an edge path, and its steps as text; `None` when
/// the value semantics at full precision does not see the contradiction; whether it was cut
/// short. `shortcut`: see [`value_interpolants`].
pub fn value_refutation(
    cpa: &ValueCpa,
    steps: &[EdgeStep],
    shortcut: bool,
) -> Result<Option<(Refuted, bool)>> {
    let Some(Interpolants {
        states: itps,
        cut_short,
    }) = value_interpolants(&cpa.cfa, steps, shortcut)?
    else {
        return Ok(None);
    };
    let texts = itps
        .iter()
        .map(|g| match g {
            None => "false".to_string(),
            Some(v) if v.values.is_empty() => "true".to_string(),
            Some(v) => clip(cpa.text(v)),
        })
        .collect();
    let vars = itps
        .iter()
        .map(|g| {
            g.as_ref()
                .map(|v| v.values.keys().map(|s| s.var).collect())
                .unwrap_or_default()
        })
        .collect();
    Ok(Some(((Refutation::Variables(vars), texts), cut_short)))
}

impl TraceChecker<ValueCpa> for ValueTraceChecker {
    fn trace(&self, cpa: &ValueCpa, arg: &VArg, target: ArgId) -> Result<Trace> {
        edge_trace(&cpa.cfa, arg, target)
    }

    fn feasibility(
        &mut self,
        cpa: &mut ValueCpa,
        smt: &mut dyn Smt,
        arg: &VArg,
        trace: &Trace,
        goal: Goal,
    ) -> Result<Feasibility> {
        edge_feasibility(smt, &cpa.cfa, &cpa.encoder(), arg, trace, goal)
    }

    fn refute(
        &mut self,
        cpa: &mut ValueCpa,
        smt: &mut dyn Smt,
        arg: &VArg,
        trace: &Trace,
    ) -> Result<(Refutation, Vec<String>)> {
        let steps = edge_steps(arg, &trace.states)?;
        self.cut_short = false;
        if self.refutation == ValueRefutation::Interpolation {
            if let Some((r, cut_short)) = value_refutation(cpa, &steps, true)? {
                self.cut_short = cut_short;
                return Ok(r);
            }
        }
        let (vars, texts) = match (self.refutation, cpa.cfg.max_enum) {
            (ValueRefutation::ItpVars, _) => {
                interpolant_vars(&cpa.cfa, &cpa.encoder(), &cpa.names, smt, &steps)?
            }
            // Without enumeration no precision refutes a path that the value semantics at
            // full precision does not (tracking more cannot help): the path stays undecided.
            (ValueRefutation::Interpolation, MaxEnum::NoSolver) => {
                let mut texts = vec!["true".to_string(); steps.len()];
                texts.push("false".into());
                (vec![BTreeSet::new(); steps.len() + 1], texts)
            }
            // With enumeration, tracking the variables the path's prefix and suffix share (a
            // superset of every interpolant's, found without a solver) lets T_k pin values.
            (ValueRefutation::Interpolation, MaxEnum::Bounded(_)) => shared_vars(cpa, &steps),
        };
        Ok((Refutation::Variables(vars), texts))
    }

    /// Where a post over-approximates and is not monotone, Γi = ⊤ before a rest that
    /// contradicts on its own can leave the precision as it was: then the trials at every
    /// state (as in the symbolic refinement), when the refutation was cut short.
    fn refute_further(
        &mut self,
        cpa: &mut ValueCpa,
        _smt: &mut dyn Smt,
        arg: &VArg,
        trace: &Trace,
    ) -> Result<Option<(Refutation, Vec<String>)>> {
        if !std::mem::take(&mut self.cut_short) {
            return Ok(None);
        }
        let steps = edge_steps(arg, &trace.states)?;
        Ok(value_refutation(cpa, &steps, false)?.map(|(r, _)| r))
    }
}

impl FormulaTrace<ValueCpa> for ValueTraceChecker {
    fn trace_formula(&self, cpa: &mut ValueCpa, arg: &VArg, trace: &Trace) -> Result<TraceFormula> {
        edge_trace_formula(&cpa.cfa, &cpa.encoder(), &cpa.names, arg, trace, |_, s| {
            cpa.formula(s)
        })
    }

    fn refutation(&self, cpa: &ValueCpa, itps: Vec<Term>) -> (Refutation, Vec<String>) {
        variable_refutation(&cpa.names, &itps)
    }
}

/// An analysis whose precision is the variables tracked per location (value, symbolic).
pub trait TracksVariables: crate::cpa::Cpa<Prec = ValuePrecision> {
    fn cfa(&self) -> std::rc::Rc<Cfa>;
    fn scope(&self) -> PrecisionScope;
    /// Why a refinement that adds no variable cannot help.
    fn no_progress(&self) -> String;
}

impl TracksVariables for ValueCpa {
    fn cfa(&self) -> std::rc::Rc<Cfa> {
        self.cfa.clone()
    }

    fn scope(&self) -> PrecisionScope {
        self.cfg.scope
    }

    fn no_progress(&self) -> String {
        "refinement made no progress: the path is infeasible, but tracking more variables does not show it (it depends on values the value analysis cannot know; try the predicate or symbolic analysis, or max-enum)".into()
    }
}

/// The variables of Γi become tracked at the location of the i-th state (and, with a wider
/// precision scope, in its function or everywhere).
pub struct ValuePrecisionRefiner;

impl<C: TracksVariables> PrecisionRefiner<C> for ValuePrecisionRefiner {
    fn no_progress(&self, cpa: &C) -> String {
        cpa.no_progress()
    }

    fn increment(
        &mut self,
        cpa: &mut C,
        arg: &Arg<C::State, ValuePrecision>,
        trace: &Trace,
        refutation: &Refutation,
    ) -> Result<Increment<ValuePrecision>> {
        let Refutation::Variables(sets) = refutation else {
            return Err(EngineError::Unsupported(
                "value refinement needs variables".into(),
            ));
        };
        let cfa = cpa.cfa();
        let at = trace
            .states
            .iter()
            .zip(sets)
            .map(|(id, vars)| (arg.node(*id).ctl.location, vars));
        Ok(variables_at(&cfa, cpa.scope(), at))
    }
}

/// The variables of each refutation step become tracked at its location (and, with a wider
/// precision scope, in its function or everywhere).
pub fn variables_at<'a>(
    cfa: &Cfa,
    scope: PrecisionScope,
    at: impl Iterator<Item = (crate::cfa::NodeId, &'a BTreeSet<VarId>)>,
) -> Increment<ValuePrecision> {
    let mut added = ValuePrecision::default();
    let mut shown = Vec::new();
    for (loc, vars) in at {
        for v in vars {
            if added.by_location.entry(loc).or_default().insert(*v) {
                shown.push((loc.0, cfa.var(*v).qualified.clone()));
            }
        }
    }
    // The scope widens where each variable is tracked.
    let wider: Vec<crate::cfa::NodeId> = match scope {
        PrecisionScope::Location => Vec::new(),
        PrecisionScope::Function | PrecisionScope::Global => {
            cfa.nodes.iter().map(|n| n.id).collect()
        }
    };
    if !wider.is_empty() {
        let found: Vec<(crate::cfa::NodeId, VarId)> = added
            .by_location
            .iter()
            .flat_map(|(l, vs)| vs.iter().map(move |v| (*l, *v)))
            .collect();
        for (l, v) in found {
            let function = cfa.node(l).function;
            for &m in &wider {
                if scope == PrecisionScope::Global || cfa.node(m).function == function {
                    added.by_location.entry(m).or_default().insert(v);
                }
            }
        }
    }
    Increment { added, shown }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cpa::control::ControlCpa;

    /// The single-edge path through `lines` of `src`'s CFA that reaches the error.
    pub(crate) fn error_path(cfa: &Cfa) -> Vec<EdgeStep> {
        // Depth-first search for the error location (the test programs are loop-free).
        let control = ControlCpa {
            loop_bound: None,
            max_depth: 4,
            cut_states: false,
        };
        fn dfs(
            cfa: &Cfa,
            control: &ControlCpa,
            at: crate::cpa::control::ControlState,
            path: &mut Vec<EdgeStep>,
            seen: usize,
        ) -> bool {
            if cfa.node(at.location).is_error() {
                return true;
            }
            if seen > 200 {
                return false;
            }
            for e in cfa.successors(at.location) {
                if let Ok(Some(next)) = control.successor(cfa, &at, e) {
                    path.push(EdgeStep {
                        edge: e.id,
                        from: at.clone(),
                        to: next.clone(),
                    });
                    if dfs(cfa, control, next, path, seen + 1) {
                        return true;
                    }
                    path.pop();
                }
            }
            false
        }
        let mut path = Vec::new();
        assert!(dfs(cfa, &control, control.initial(cfa), &mut path, 0));
        path
    }

    pub(crate) fn cfa(src: &str) -> Cfa {
        crate::frontend::parse_program("t.c", src).unwrap().cfa
    }

    /// The path of a deterministic program as concrete execution (the value post at full
    /// precision) takes it, until a branch into the error call, which it takes (infeasible
    /// when the program is safe), then that call.
    pub(crate) fn executed_error_path(cfa: &Cfa) -> Vec<EdgeStep> {
        let control = ControlCpa {
            loop_bound: None,
            max_depth: 4,
            cut_states: false,
        };
        let mut at = control.initial(cfa);
        let mut state = ValueState::default();
        let mut path = Vec::new();
        let into_error = |e: &crate::cfa::Edge| {
            cfa.node(e.to).is_error() || cfa.successors(e.to).any(|f| cfa.node(f.to).is_error())
        };
        while !cfa.node(at.location).is_error() {
            let mut taken = None;
            for e in cfa.successors(at.location) {
                let next = control.successor(cfa, &at, e).unwrap().unwrap();
                let p = post(cfa, &state, e, &at, &next).state;
                if into_error(e) || p.is_some() {
                    taken = Some((e.id, next, p.unwrap_or_default()));
                    if into_error(e) {
                        break;
                    }
                }
            }
            let (edge, next, p) = taken.expect("a successor");
            path.push(EdgeStep {
                edge,
                from: at,
                to: next.clone(),
            });
            (at, state) = (next, p);
        }
        path
    }

    /// A program whose loop runs `n` times before the contradiction in its last iteration
    /// (`x = 0`); `c` is read after each write, so each iteration has a trial for it.
    pub(crate) fn long_loop(n: u32) -> String {
        format!(
            "extern void reach_error(void);\nint main(void) {{ unsigned int x = 1; \
             unsigned int y = 0; unsigned int c, d; \
             while (y < {n}u) {{ x = 0; y++; c = 5; d = c; }} \
             if (x != 0) reach_error(); return 0; }}"
        )
    }

    /// Γi = ⊤ up to the loop's last `x = 0`, found without a trial per state: a path of
    /// 120,000 edges, whose trials alone (one replay of the rest per `c = 5`) would need far
    /// more than `MAX_INTERPOLATION_POSTS` posts.
    #[test]
    fn a_rest_that_contradicts_alone_costs_no_trials() {
        let c = cfa(&long_loop(20_000));
        let steps = executed_error_path(&c);
        assert!(steps.len() > 120_000, "{}", steps.len());
        let itps = value_interpolants(&c, &steps, true)
            .unwrap()
            .unwrap()
            .states;
        let last_write = steps
            .iter()
            .rposition(|s| c.label(&c.edge(s.edge).kind) == "x = 0U;")
            .unwrap();
        for (i, g) in itps.iter().enumerate().take(last_write + 1) {
            assert_eq!(g, &Some(ValueState::default()), "Γ{i}");
        }
        let named: Vec<_> = itps[last_write + 1]
            .as_ref()
            .unwrap()
            .values
            .keys()
            .map(|s| c.var(s.var).name.clone())
            .collect();
        assert_eq!(named, vec!["x".to_string()]);
        assert_eq!(itps.last(), Some(&None));
    }

    /// The thesis' pitfall 11: interpolants are inductive and keep only what the rest of the
    /// path needs (`y` is never read again, `x` is).
    #[test]
    fn value_interpolants_keep_what_the_suffix_needs() {
        let c = cfa("extern void reach_error(void);\nint main(void) { int x = 1; int y = 2; if (x != 1) reach_error(); return 0; }");
        let steps = error_path(&c);
        let itps = value_interpolants(&c, &steps, true)
            .unwrap()
            .unwrap()
            .states;
        assert_eq!(itps.len(), steps.len() + 1);
        assert_eq!(itps[0], Some(ValueState::default()));
        let named = |v: &ValueState| -> Vec<String> {
            v.values.keys().map(|s| c.var(s.var).name.clone()).collect()
        };
        // After `x = 1`, and after `y = 2`: only x.
        let middle: Vec<_> = itps
            .iter()
            .flatten()
            .filter(|v| !v.values.is_empty())
            .map(named)
            .collect();
        assert!(!middle.is_empty());
        assert!(
            middle.iter().all(|n| n == &vec!["x".to_string()]),
            "{middle:?}"
        );
        // ⊥ after the contradicting assumption.
        assert_eq!(itps.last(), Some(&None));
    }

    /// A contradiction the value semantics cannot see (nondeterministic values) gives no
    /// value interpolants: the refiner falls back to the solver's.
    #[test]
    fn nondeterministic_contradictions_are_not_value_refutable() {
        let c = cfa("extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); if (x > 0) { if (x < 0) reach_error(); } return 0; }");
        let steps = error_path(&c);
        assert!(value_interpolants(&c, &steps, true).unwrap().is_none());
    }
}

//! Interpolation computed by the bridge itself (the browser's Z3 has no `get-interpolant`).
//!
//! For an unsatisfiable sequence `phi_1..phi_n`, an inductive sequence of interpolants is
//! `tau_0..tau_n` with `tau_0 = true`, `tau_n = false`, `tau_(i-1) /\ phi_i => tau_i`, and
//! every variable of `tau_i` occurring both in `phi_1..phi_i` and in `phi_(i+1)..phi_n`.
//! [`interpolate`] returns **all of `tau_0..tau_n`** (`n + 1` terms, so `taus[i]` is `tau_i`).
//! Variables are compared by name and sort; SSA indices are just part of the name.
//!
//! Strategies ([`Strategy`]): exact Farkas interpolants for conjunctions of linear integer
//! constraints (no solver query), and quantifier elimination forward (strongest) or backward
//! (weakest), optionally generalised, for and/or/ite formulas. [`check_sequence`] verifies any
//! sequence against the definition with the solver; [`interpolate`] runs it on every result in
//! debug builds, [`interpolate_checked`] always.
//!
//! All functions need an [`SmtContext`] without assertions in force (it is left as found:
//! everything happens between push and pop).

mod check;
mod farkas;
pub mod linear;
mod presolve;
mod qe;
pub mod script;
mod simplex;

pub use check::{check_binary, check_sequence, check_syntax};
pub use script::{solve_script, ScriptAnswer, ScriptError};

use crate::context::{SatResult, SmtContext};
use crate::solver::{reports_resource_limit as is_resource_limit, Solver, SolverError};
use crate::term::{sort_conflicts, vars_of, Sort, Term, Var};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How to compute interpolants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Farkas-lemma interpolants (single linear inequalities) from an exact rational simplex.
    /// Only for conjunctions of linear integer atoms whose conjunction is unsatisfiable over
    /// the rationals (after exact integer tightening); otherwise `NotApplicable`.
    Farkas,
    /// `Farkas` with disjunctions split into cases (`or`, `a != b`, atoms over an Int `ite`),
    /// one Farkas sequence per case, combined into one disjunctive sequence (see
    /// `farkas::farkas_sequence`). Its interpolants can be disjunctions: for Boolean
    /// abstraction, not for Cartesian (which cannot express them, so refinement would make
    /// no progress).
    FarkasCases,
    /// Strongest postconditions projected by quantifier elimination.
    ForwardQe,
    /// `ForwardQe`, then conjuncts not needed for inductiveness dropped (unsat cores).
    ForwardQeMin,
    /// Negated weakest preconditions by quantifier elimination, from the end.
    BackwardQe,
    /// `Farkas`, falling back to `ForwardQeMin`, then `BackwardQe`.
    Auto,
    /// `BackwardQe`, falling back to `FarkasCases`, then `ForwardQeMin` (also when the backward
    /// sequence has more than `MAX_BACKWARD_ATOMS` distinct atoms). Weakest-precondition
    /// interpolants speak about the property rather than about how far a loop counter got
    /// (on `x = 1; y = 0; while (y < 1024) { x = 0; y++; } assert(x == 0);` Farkas gives
    /// `y <= 0`, `y <= 1`, ... one refinement per iteration; backward gives `x = 0 \/ y < 1024`
    /// after one): the engine's default.
    BackwardAuto,
    /// `BackwardAuto`, then each interpolant keeps only the disjuncts that the path's start
    /// needs (`qe::specialize`): stronger interpolants, as the papers' figures show them (the
    /// unifying view's Figure 2 learns `x = y` where the weakest precondition says
    /// `x = y \/ x >= 2`). Weakest preconditions generalise loops better (`sum01-2.i`:
    /// `sn = 2n \/ sn = 0` at once, where the specialised `sn = 0` unrolls the loop), so this is
    /// a choice for teaching, not a preset's default.
    BackwardAutoPrefix,
}

impl Strategy {
    pub const ALL: [Strategy; 8] = [
        Strategy::Farkas,
        Strategy::FarkasCases,
        Strategy::ForwardQe,
        Strategy::ForwardQeMin,
        Strategy::BackwardQe,
        Strategy::Auto,
        Strategy::BackwardAuto,
        Strategy::BackwardAutoPrefix,
    ];

    /// The stable name (`cpa itp --strategy NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Farkas => "farkas",
            Strategy::FarkasCases => "farkas-cases",
            Strategy::ForwardQe => "forward-qe",
            Strategy::ForwardQeMin => "forward-qe-min",
            Strategy::BackwardQe => "backward-qe",
            Strategy::Auto => "auto",
            Strategy::BackwardAuto => "backward-auto",
            Strategy::BackwardAutoPrefix => "backward-auto-prefix",
        }
    }

    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why no interpolants were produced. The engine answers UNKNOWN on any of these except
/// `Satisfiable` (a feasible path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItpError {
    /// The conjunction of the formulas is satisfiable: there is no interpolant.
    Satisfiable,
    /// The solver could not decide a needed query (resource limit, incompleteness).
    Unknown(String),
    /// The strategy does not handle these formulas (e.g. Farkas on a disjunction).
    NotApplicable(String),
    /// The input is unusable (not Bool, a quantifier, one name with two sorts, a context
    /// with assertions).
    BadInput(String),
    /// A sequence failed the checker (a bug in a strategy, or in the solver).
    Invalid(String),
    Solver(SolverError),
}

impl fmt::Display for ItpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ItpError::Satisfiable => f.write_str("the formulas are satisfiable"),
            ItpError::Unknown(r) => write!(f, "the solver answered unknown ({r})"),
            ItpError::NotApplicable(r) => write!(f, "strategy not applicable: {r}"),
            ItpError::BadInput(r) => write!(f, "bad interpolation input: {r}"),
            ItpError::Invalid(r) => write!(f, "invalid interpolants: {r}"),
            ItpError::Solver(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ItpError {}

impl From<SolverError> for ItpError {
    fn from(e: SolverError) -> Self {
        ItpError::Solver(e)
    }
}

pub(crate) fn sat_to_err(r: SatResult) -> ItpError {
    match r {
        SatResult::Sat => ItpError::Satisfiable,
        SatResult::Unknown(reason) => ItpError::Unknown(reason),
        SatResult::Unsat => ItpError::Invalid("unexpected unsat".into()),
    }
}

/// `shared[i]` = vars(phi_1..phi_i) ∩ vars(phi_(i+1)..phi_n), for `i` in `0..=n`.
///
/// A variable is shared at cut `i` exactly when it occurs at or before formula `i` and after
/// it: the sets are built from each variable's first and last occurrence, in time linear in
/// the answer (not a prefix and a suffix set cloned at every position).
pub fn shared_vars(formulas: &[Term]) -> Vec<BTreeSet<Var>> {
    let n = formulas.len();
    let mut span: BTreeMap<Var, (usize, usize)> = BTreeMap::new();
    for (i, f) in formulas.iter().enumerate() {
        for v in f.free_vars() {
            span.entry(v).and_modify(|s| s.1 = i).or_insert((i, i));
        }
    }
    let mut shared = vec![BTreeSet::new(); n + 1];
    for (v, (first, last)) in span {
        // Cut `c` lies between formulas c-1 and c (0-based).
        for set in &mut shared[first + 1..=last] {
            set.insert(v.clone());
        }
    }
    shared
}

/// Validates the input.
fn prepare<S: Solver>(ctx: &mut SmtContext<S>, formulas: &[Term]) -> Result<(), ItpError> {
    validate(ctx, formulas)
}

/// Before a QE-based strategy: when the context is at its base level, resets it. Z3's answers
/// to `(apply qe)` depend on everything the process saw before, and a fresh context makes the
/// QE-based interpolants a function of the input alone. Nothing is lost (no assertions are in
/// force; declarations are re-sent as needed), but a reset costs Z3 about 10 ms, so Farkas,
/// which needs no query, skips it. A context poisoned by the previous strategy (a resource
/// limit in its tactic) is reset at any level: its levels and assertions are already lost.
fn fresh<S: Solver>(ctx: &mut SmtContext<S>) -> Result<(), ItpError> {
    if ctx.level() == 0 || ctx.is_poisoned() {
        ctx.reset()?;
    }
    Ok(())
}

fn validate<S: Solver>(ctx: &SmtContext<S>, formulas: &[Term]) -> Result<(), ItpError> {
    if ctx.assertion_count() > 0 {
        return Err(ItpError::BadInput(
            "the solver context has assertions in force".into(),
        ));
    }
    for (i, f) in formulas.iter().enumerate() {
        if f.sort() != Sort::Bool {
            return Err(ItpError::BadInput(format!("formula {} is not Bool", i + 1)));
        }
        if !f.is_quantifier_free() {
            return Err(ItpError::BadInput(format!(
                "formula {} has a quantifier",
                i + 1
            )));
        }
    }
    let conflicts = sort_conflicts(&vars_of(formulas));
    if let Some((name, a, b)) = conflicts.first() {
        return Err(ItpError::BadInput(format!(
            "{name} occurs with sorts {a} and {b}"
        )));
    }
    Ok(())
}

/// Runs `body` between push and pop, popping also when it fails (unless the context is
/// poisoned, in which case its levels no longer matter).
fn scoped<S: Solver, T>(
    ctx: &mut SmtContext<S>,
    body: impl FnOnce(&mut SmtContext<S>) -> Result<T, ItpError>,
) -> Result<T, ItpError> {
    let level = ctx.level();
    ctx.push()?;
    let r = body(ctx);
    if !ctx.is_poisoned() {
        while ctx.level() > level {
            ctx.pop()?;
        }
    }
    r
}

/// Tableau cells of the Farkas simplex per unit of [`SmtContext::work`]: the simplex updates
/// about 8 million cells per second natively (predicate-lbe on const_1-2.c, where it is half
/// of the engine's time: 73 million cells in 8.8 s), Z3 counts 0.9-1.3 million units per
/// second on such runs' queries, so one unit is about 8 cells (docs/benchmarks.md).
const CELLS_PER_UNIT: u64 = 8;

fn compute<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    strategy: Strategy,
) -> Result<Vec<Term>, ItpError> {
    let shared = shared_vars(formulas);
    match strategy {
        Strategy::Farkas | Strategy::FarkasCases => {
            let mut cells = 0;
            let taus =
                farkas::farkas_sequence(formulas, strategy == Strategy::FarkasCases, &mut cells);
            ctx.charge(cells / CELLS_PER_UNIT);
            taus
        }
        Strategy::ForwardQe => {
            fresh(ctx)?;
            scoped(ctx, |c| qe::forward(c, formulas, &shared))
        }
        Strategy::ForwardQeMin => {
            fresh(ctx)?;
            scoped(ctx, |c| {
                let mut taus = qe::forward(c, formulas, &shared)?;
                qe::generalize(c, formulas, &mut taus)?;
                Ok(taus)
            })
        }
        Strategy::BackwardQe => {
            fresh(ctx)?;
            scoped(ctx, |c| qe::backward(c, formulas, &shared))
        }
        Strategy::Auto => first_of(
            ctx,
            formulas,
            &[
                Strategy::Farkas,
                Strategy::ForwardQeMin,
                Strategy::BackwardQe,
            ],
        ),
        Strategy::BackwardAuto => {
            let others = [Strategy::FarkasCases, Strategy::ForwardQeMin];
            match compute(ctx, formulas, Strategy::BackwardQe) {
                Ok(t) if distinct_atoms(&t) <= MAX_BACKWARD_ATOMS => Ok(t),
                // Too many atoms: the others decide, this one stays if none applies.
                Ok(t) => Ok(first_of(ctx, formulas, &others).unwrap_or(t)),
                Err(e) if is_final(&e) => Err(e),
                Err(_) => first_of(ctx, formulas, &others),
            }
        }
        Strategy::BackwardAutoPrefix => {
            let mut taus = compute(ctx, formulas, Strategy::BackwardAuto)?;
            fresh(ctx)?;
            match scoped(ctx, |c| qe::specialize(c, formulas, &mut taus)) {
                // A pass cut short leaves a valid sequence too (each step is checked alone).
                Err(e) if is_final(&e) => Err(e),
                _ => Ok(taus),
            }
        }
    }
}

/// `backward-auto`: a backward sequence with more distinct atoms than this gives way to the
/// other strategies. Weakest preconditions can enumerate cases (one atom per value of a
/// recursion parameter, say), and every atom becomes a predicate that Boolean abstraction
/// enumerates. Tuned on the SV-COMP set: at 16, `afterrec-1.c` (32 predicates from 24 atoms
/// make AllSAT crawl) falls back and is found FALSE at once, while `phases_1-1.c` (backward:
/// TRUE after two refinements) also falls back and diverges; no single budget keeps both.
const MAX_BACKWARD_ATOMS: usize = 16;

fn distinct_atoms(taus: &[Term]) -> usize {
    taus.iter()
        .flat_map(Term::atoms)
        .collect::<BTreeSet<_>>()
        .len()
}

/// Errors no other strategy can get around. A solver error that only reports an exhausted
/// resource limit (Z3's `qe` tactic answers `(error "tactic failed: max. resource limit
/// exceeded")`) is not one: the next strategy starts from a fresh context (QE) or needs no
/// solver (Farkas).
fn is_final(e: &ItpError) -> bool {
    match e {
        ItpError::Satisfiable | ItpError::BadInput(_) => true,
        ItpError::Solver(SolverError::Reported { message }) => !is_resource_limit(message),
        ItpError::Solver(_) => true,
        _ => false,
    }
}

/// The first of `order` that applies.
fn first_of<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    order: &[Strategy],
) -> Result<Vec<Term>, ItpError> {
    let mut last = None;
    for s in order {
        match compute(ctx, formulas, *s) {
            Ok(t) => return Ok(t),
            Err(e) if is_final(&e) => return Err(e),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| ItpError::NotApplicable("no strategy applies".into())))
}

/// Inductive sequence interpolants `tau_0..tau_n` (n + 1 terms) for `formulas`. The syntactic
/// conditions (shared variables, `tau_0`, `tau_n`) are always checked, the implications in debug
/// builds.
pub fn interpolate<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    strategy: Strategy,
) -> Result<Vec<Term>, ItpError> {
    prepare(ctx, formulas)?;
    let taus = compute(ctx, formulas, strategy)?;
    // The syntactic conditions cost nothing: always. The implications need the solver: in
    // debug builds (and always in `interpolate_checked`).
    check_syntax(formulas, &taus)?;
    if cfg!(debug_assertions) {
        check_sequence(ctx, formulas, &taus)?;
    }
    Ok(taus)
}

/// [`interpolate`], with the checker run in every build.
pub fn interpolate_checked<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    strategy: Strategy,
) -> Result<Vec<Term>, ItpError> {
    prepare(ctx, formulas)?;
    let taus = compute(ctx, formulas, strategy)?;
    check_sequence(ctx, formulas, &taus)?;
    Ok(taus)
}

/// A binary interpolant `I` for unsatisfiable `A /\ B`: `A => I`, `I /\ B` unsatisfiable,
/// `vars(I) ⊆ vars(A) ∩ vars(B)`. (The sequence `⟨and(A), and(B)⟩`'s `tau_1`.)
pub fn binary_interpolant<S: Solver>(
    ctx: &mut SmtContext<S>,
    a: &[Term],
    b: &[Term],
    strategy: Strategy,
) -> Result<Term, ItpError> {
    let pair = [Term::and(a.iter().cloned()), Term::and(b.iter().cloned())];
    let taus = interpolate(ctx, &pair, strategy)?;
    taus.get(1)
        .cloned()
        .ok_or_else(|| ItpError::Invalid("missing tau_1".into()))
}

/// A binary interpolant at one position of a path, as used by forward and backward binary
/// interpolation (note 004): `A = phi_1..phi_k`, `B = phi_(k+1)..phi_n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BinarySplit {
    /// The position: the interpolant labels the state after `phi_k`.
    pub k: usize,
    /// `A => interpolant`, `interpolant /\ B` unsatisfiable.
    pub interpolant: Term,
}

/// Forward binary interpolation: `k` is the length of the longest satisfiable prefix.
pub fn forward_binary<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    strategy: Strategy,
) -> Result<BinarySplit, ItpError> {
    validate(ctx, formulas)?;
    let mut k = 0;
    while k < formulas.len() {
        match ctx.check_sat_of(&Term::and(formulas[..=k].iter().cloned()))? {
            SatResult::Sat => k += 1,
            SatResult::Unsat => break,
            SatResult::Unknown(r) => return Err(ItpError::Unknown(r)),
        }
    }
    if k == formulas.len() {
        return Err(ItpError::Satisfiable);
    }
    let interpolant = binary_interpolant(ctx, &formulas[..k], &formulas[k..], strategy)?;
    Ok(BinarySplit { k, interpolant })
}

/// Backward binary interpolation: `phi_(k+1)..phi_n` is the longest satisfiable suffix; the
/// interpolant `J` of (suffix, prefix) is computed from the back and returned negated, so that,
/// as for [`forward_binary`], `phi_1..phi_k => interpolant` and `interpolant /\ suffix` is
/// unsatisfiable.
pub fn backward_binary<S: Solver>(
    ctx: &mut SmtContext<S>,
    formulas: &[Term],
    strategy: Strategy,
) -> Result<BinarySplit, ItpError> {
    validate(ctx, formulas)?;
    let n = formulas.len();
    let mut start = n; // the suffix is formulas[start..]
    while start > 0 {
        match ctx.check_sat_of(&Term::and(formulas[start - 1..].iter().cloned()))? {
            SatResult::Sat => start -= 1,
            SatResult::Unsat => break,
            SatResult::Unknown(r) => return Err(ItpError::Unknown(r)),
        }
    }
    if start == 0 {
        return Err(ItpError::Satisfiable);
    }
    let j = binary_interpolant(ctx, &formulas[start..], &formulas[..start], strategy)?;
    Ok(BinarySplit {
        k: start,
        interpolant: Term::not(j),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reported(message: &str) -> ItpError {
        ItpError::Solver(SolverError::Reported {
            message: message.into(),
        })
    }

    /// The definition, computed as it reads: prefix and suffix sets intersected.
    fn shared_by_definition(formulas: &[Term]) -> Vec<BTreeSet<Var>> {
        let vars = |fs: &[Term]| -> BTreeSet<Var> { fs.iter().flat_map(Term::free_vars).collect() };
        (0..=formulas.len())
            .map(|i| {
                vars(&formulas[..i])
                    .intersection(&vars(&formulas[i..]))
                    .cloned()
                    .collect()
            })
            .collect()
    }

    #[test]
    fn shared_variables_agree_with_the_definition() {
        use crate::term::Sort;
        let x = |k: usize| Term::new_var(format!("x{k}"), Sort::Int);
        // Sequences whose formulas mention variables x0..x6 in a fixed pseudo-random pattern.
        let mut state = 7u64;
        for len in 0..12 {
            let formulas: Vec<Term> = (0..len)
                .map(|_| {
                    let mut atoms = Vec::new();
                    for k in 0..7 {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        if (state >> 33).is_multiple_of(3) {
                            atoms.push(Term::le(x(k), Term::int(k as i64)));
                        }
                    }
                    Term::and(atoms)
                })
                .collect();
            assert_eq!(
                shared_vars(&formulas),
                shared_by_definition(&formulas),
                "{formulas:?}"
            );
        }
    }

    #[test]
    fn an_exhausted_resource_limit_lets_the_next_strategy_try() {
        assert!(!is_final(&reported(
            "tactic failed: max. resource limit exceeded"
        )));
        assert!(is_final(&reported("unknown constant x")));
        assert!(is_final(&ItpError::Satisfiable));
        assert!(!is_final(&ItpError::NotApplicable("disjunction".into())));
    }
}

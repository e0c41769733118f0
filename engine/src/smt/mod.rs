//! What the analyses need from an SMT solver, as one small trait. The solver bridge implements
//! it (natively with a `z3` process, in the browser with Z3's wasm build); unit tests of single
//! layers may implement it with a mock.

pub mod cache;

use crate::verdict::StopReason;
use solver_bridge::term::{Sort, Term, Var};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sat {
    Sat,
    Unsat,
    /// The solver gave up (resource limit, incompleteness); the reason is shown to the user.
    Unknown(String),
}

/// An error that stops the analysis with the verdict UNKNOWN and this reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    Solver(String),
    Interpolation(String),
    /// An inner budget of one step ran out (its text says which).
    Limit(String),
    /// A count limit of the run ([`StopReason`]).
    Stopped(StopReason),
    Unsupported(String),
    /// The solver could not decide a query within its resource limit (AllSAT's answer
    /// `unknown`): callers with a sound fallback take it.
    GaveUp(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Solver(s) => write!(f, "solver: {s}"),
            EngineError::Interpolation(s) => write!(f, "interpolation: {s}"),
            EngineError::Limit(s) => write!(f, "limit reached: {s}"),
            EngineError::Stopped(r) => write!(f, "limit reached: {r}"),
            EngineError::Unsupported(s) => write!(f, "unsupported: {s}"),
            EngineError::GaveUp(s) => write!(f, "solver: {s}"),
        }
    }
}

impl EngineError {
    /// The reason of the UNKNOWN this error ends a run with, under the per-query resource
    /// limit `rlimit`: where the limit ran out (Z3 says "max. resource limit exceeded", or
    /// "canceled" for the command it stopped) the reason says so and names the knob, since
    /// "canceled" alone reads as if the user had stopped the run.
    pub fn reason(&self, rlimit: u64) -> String {
        let text = self.to_string();
        let solver = matches!(self, EngineError::Solver(_) | EngineError::GaveUp(_));
        if solver && rlimit > 0 && solver_bridge::solver::reports_resource_limit(&text) {
            format!(
                "{text} (the solver's resource limit of {rlimit} per query ran out; \
                 the knob solver-rlimit raises it)"
            )
        } else {
            text
        }
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;

pub trait Smt {
    /// Satisfiability of the conjunction of `formulas`.
    fn check(&mut self, formulas: &[Term]) -> Result<Sat>;

    /// [`Smt::check`] for a caller that remembers its answers itself (symbolic execution, by
    /// the query's canonical form, which also finds a query asked again with fresh
    /// identifiers): a layer that caches answers passes it on without looking it up or
    /// keeping it. Every layer that wraps another passes it on.
    fn check_uncached(&mut self, formulas: &[Term]) -> Result<Sat> {
        self.check(formulas)
    }

    /// [`Smt::check_uncached`] that also gives, when the answer is satisfiable, the values
    /// (literals) of `terms` in the model found, if the layer can read it without another
    /// search. Every layer that wraps another passes it on.
    fn check_uncached_values(
        &mut self,
        formulas: &[Term],
        terms: &[Term],
    ) -> Result<(Sat, Option<Vec<Term>>)> {
        let _ = terms;
        Ok((self.check_uncached(formulas)?, None))
    }

    /// [`Smt::check`] with the solver's preprocessing (elimination of variables by their
    /// equations, simplification) before its search: for a query `check` answered unknown
    /// that should be easy (the certificate check's claims), worth a second round trip.
    /// Without preprocessing of its own a layer answers as `check`.
    fn check_preprocessed(&mut self, formulas: &[Term]) -> Result<Sat> {
        self.check(formulas)
    }

    /// Values (literals) of `terms` in a model of the conjunction; `None` if unsatisfiable.
    fn model(&mut self, formulas: &[Term], terms: &[Term]) -> Result<Option<Vec<Term>>>;

    /// Every assignment of the Boolean constants `bools` that extends to a model of `formula`
    /// (AllSAT projected onto `bools`), in the order found; at most `limit` of them.
    fn all_sat(&mut self, formula: &Term, bools: &[Term], limit: usize) -> Result<Vec<Vec<bool>>>;

    /// An inductive sequence of interpolants τ1..τ(n-1) for the unsatisfiable sequence
    /// φ1..φn (τ0 = true and τn = false are implicit).
    fn interpolate(&mut self, sequence: &[Term]) -> Result<Vec<Term>>;

    /// Number of queries answered so far.
    fn queries(&self) -> u64;

    /// Queries answered from [`crate::smt::cache`] without a round trip (not in `queries`).
    fn cache_hits(&self) -> u64 {
        0
    }

    /// A deterministic per-query resource limit (Z3's `rlimit`, a count, not time): a query
    /// that exceeds it answers unknown. `None` removes the limit.
    fn set_resource_limit(&mut self, limit: Option<u64>) -> Result<()>;
    /// The resource limit in force (`None`: none, or not known to this layer).
    fn resource_limit(&self) -> Option<u64> {
        None
    }

    /// The interpolation strategy of later `interpolate` calls.
    fn set_interpolation(&mut self, strategy: solver_bridge::itp::Strategy);

    /// At most `limit` queries in all (`None`: no limit); beyond it every call fails with
    /// [`EngineError::Stopped`], also in the middle of an abstraction or an interpolation, so
    /// no unit of work can outrun the session's query limit.
    fn set_query_limit(&mut self, limit: Option<u64>);

    /// The solver's work so far, in resource units (Z3's `rlimit` count: the same queries
    /// give the same count on one build of Z3, but its native and WebAssembly builds count
    /// differently). Every layer that passes queries on passes this on too.
    fn work(&self) -> u64;

    /// At most `limit` resource units of work in all (`None`: no limit); once they are used
    /// every later solving call fails with [`EngineError::Stopped`], also in the middle of a
    /// step, so that no unit of work outruns the run's budget by more than one query.
    fn set_work_limit(&mut self, limit: Option<u64>);

    /// Forgets every assertion, declaration and error of earlier queries (a fresh context;
    /// the resource limit is kept). A counted round trip, so every layer must pass it on.
    fn reset(&mut self) -> Result<()>;
}

use solver_bridge::context::{BoolProjection, SatResult, SmtContext};
use solver_bridge::itp;
use solver_bridge::solver::Solver;

/// The names AllSAT gives its projection terms (no C identifier or SSA name starts so).
const ALLSAT_PREFIX: &str = "$allsat";

/// The [`Smt`] port over the solver bridge: a typed SMT-LIB context on any backend, and the
/// bridge's in-house interpolation.
pub struct BridgeSmt<S: Solver> {
    ctx: SmtContext<S>,
    strategy: itp::Strategy,
}

fn solver_err(e: solver_bridge::solver::SolverError) -> EngineError {
    match e {
        solver_bridge::solver::SolverError::RoundTripLimit { limit } => {
            EngineError::Stopped(StopReason::Queries(limit))
        }
        solver_bridge::solver::SolverError::WorkLimit { limit } => {
            EngineError::Stopped(StopReason::SolverWork(limit))
        }
        e => EngineError::Solver(e.to_string()),
    }
}

impl<S: Solver> BridgeSmt<S> {
    /// Interpolates with `auto` until [`Smt::set_interpolation`] says otherwise (a
    /// [`crate::session::Session`] sets its configuration's strategy).
    pub fn new(solver: S) -> BridgeSmt<S> {
        BridgeSmt {
            ctx: SmtContext::new(solver),
            strategy: itp::Strategy::Auto,
        }
    }

    pub fn context(&mut self) -> &mut SmtContext<S> {
        &mut self.ctx
    }

    fn sat(&mut self) -> Result<Sat> {
        Self::answer(self.ctx.check_sat())
    }

    fn answer(
        r: std::result::Result<SatResult, solver_bridge::solver::SolverError>,
    ) -> Result<Sat> {
        Ok(match r.map_err(solver_err)? {
            SatResult::Sat => Sat::Sat,
            SatResult::Unsat => Sat::Unsat,
            SatResult::Unknown(r) => Sat::Unknown(r),
        })
    }

    fn with_level<T>(
        &mut self,
        formulas: &[Term],
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let outer = self.ctx.level();
        self.ctx.push().map_err(solver_err)?;
        let r = formulas
            .iter()
            .try_for_each(|t| self.ctx.assert(t).map_err(solver_err))
            .and_then(|()| f(self));
        let popped = self.ctx.pop().map_err(solver_err);
        // A query the solver gave up on may leave the context poisoned, or the solver
        // degraded for later queries; where the level was the only one, a reset restores the
        // state before it with a fresh solver.
        if self.ctx.recover_from_failure(outer) {
            return r;
        }
        let value = r?;
        popped?;
        Ok(value)
    }
}

impl<S: Solver> Smt for BridgeSmt<S> {
    fn check(&mut self, formulas: &[Term]) -> Result<Sat> {
        self.with_level(formulas, |s| s.sat())
    }

    fn check_preprocessed(&mut self, formulas: &[Term]) -> Result<Sat> {
        self.with_level(formulas, |s| Self::answer(s.ctx.check_sat_preprocessed()))
    }

    fn check_uncached_values(
        &mut self,
        formulas: &[Term],
        terms: &[Term],
    ) -> Result<(Sat, Option<Vec<Term>>)> {
        self.with_level(formulas, |s| {
            let sat = s.sat()?;
            let values = match sat {
                Sat::Sat => Some(s.ctx.get_values(terms).map_err(solver_err)?),
                _ => None,
            };
            Ok((sat, values))
        })
    }

    fn model(&mut self, formulas: &[Term], terms: &[Term]) -> Result<Option<Vec<Term>>> {
        self.with_level(formulas, |s| match s.sat()? {
            Sat::Sat => s.ctx.get_values(terms).map(Some).map_err(solver_err),
            Sat::Unsat => Ok(None),
            Sat::Unknown(r) => Err(EngineError::Solver(format!("model: {r}"))),
        })
    }

    fn all_sat(&mut self, formula: &Term, bools: &[Term], limit: usize) -> Result<Vec<Vec<bool>>> {
        self.with_level(std::slice::from_ref(formula), |s| {
            // Each projection term that is not a constant gets a name in this level (a fresh
            // Bool constant equal to it): every model's get-value and blocking clause print
            // the name instead of the term.
            let names: Vec<Var> = bools
                .iter()
                .enumerate()
                .map(|(i, b)| match b.as_var() {
                    Some(v) => v.clone(),
                    None => Var::new(format!("{ALLSAT_PREFIX}{i}"), Sort::Bool),
                })
                .collect();
            for (n, b) in names.iter().zip(bools) {
                if b.as_var() != Some(n) {
                    s.ctx
                        .assert(&Term::eq(n.term(), b.clone()))
                        .map_err(solver_err)?;
                }
            }
            // The get-value command and the blocking clauses are written as text once per
            // enumeration: with a hundred predicates, building and printing them as terms
            // for every model was most of the engine's time in AllSAT.
            let projection = BoolProjection::new(&names).map_err(solver_err)?;
            let mut models = Vec::new();
            while models.len() < limit {
                match s.sat()? {
                    Sat::Unsat => break,
                    Sat::Unknown(r) => return Err(EngineError::GaveUp(format!("AllSAT: {r}"))),
                    Sat::Sat => {}
                }
                let cube = s.ctx.bool_values(&projection).map_err(solver_err)?;
                // Block this assignment of the projection variables.
                s.ctx
                    .assert_blocking(&projection, &cube)
                    .map_err(solver_err)?;
                models.push(cube);
                if bools.is_empty() {
                    break;
                }
            }
            Ok(models)
        })
    }

    fn interpolate(&mut self, sequence: &[Term]) -> Result<Vec<Term>> {
        let limit_hit = |ctx: &SmtContext<S>| {
            ctx.round_trip_limit()
                .is_some_and(|l| ctx.round_trips() >= l)
        };
        let outer = self.ctx.level();
        let result = itp::interpolate(&mut self.ctx, sequence, self.strategy);
        // A strategy the resource limit canceled may have poisoned the context (also when a
        // later or earlier strategy answered): it is made usable for the queries after this.
        self.ctx.recover_from_failure(outer);
        let taus = match result {
            Ok(t) => t,
            // Whatever the strategies report when the context stopped answering.
            Err(_) if limit_hit(&self.ctx) => {
                return Err(EngineError::Stopped(StopReason::Queries(
                    self.ctx.round_trips(),
                )))
            }
            // The work limit, reached by the strategies' queries or by the simplex's charge.
            Err(_) if self.ctx.work_limit().is_some_and(|l| self.ctx.work() >= l) => {
                let limit = self.ctx.work_limit().unwrap_or_default();
                return Err(EngineError::Stopped(StopReason::SolverWork(limit)));
            }
            Err(e) => return Err(EngineError::Interpolation(e.to_string())),
        };
        if taus.len() != sequence.len() + 1 {
            return Err(EngineError::Interpolation(format!(
                "{} interpolants for {} formulas",
                taus.len(),
                sequence.len()
            )));
        }
        Ok(taus[1..sequence.len()].to_vec())
    }

    fn queries(&self) -> u64 {
        self.ctx.round_trips()
    }

    fn set_resource_limit(&mut self, limit: Option<u64>) -> Result<()> {
        self.ctx.set_rlimit(limit).map_err(solver_err)
    }

    fn resource_limit(&self) -> Option<u64> {
        self.ctx.rlimit()
    }

    fn set_interpolation(&mut self, strategy: itp::Strategy) {
        self.strategy = strategy;
    }

    fn set_query_limit(&mut self, limit: Option<u64>) {
        self.ctx.set_round_trip_limit(limit);
    }

    fn work(&self) -> u64 {
        self.ctx.work()
    }

    fn set_work_limit(&mut self, limit: Option<u64>) {
        self.ctx.set_work_limit(limit);
    }

    fn reset(&mut self) -> Result<()> {
        self.ctx.reset().map_err(solver_err)
    }
}

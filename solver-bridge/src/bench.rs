//! A fixed query mix for measuring solver throughput, on any backend (`&mut dyn Solver`).
//! [`timed_query_mix`] is the measurement both sides run: the native example `examples/qps.rs`
//! over `z3 -in` with a `std::time::Instant` clock, the browser worker (`solver-bench` request)
//! over `browser_solver()` with a `performance.now()` clock. The bridge itself reads no clock:
//! the caller passes one in.

use crate::context::{SatResult, SmtContext};
use crate::solver::{Clock, Solver, SolverError};
use crate::term::{Sort, Term};

/// What a run of the mix did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MixReport {
    /// `eval` calls (round trips to the solver).
    pub round_trips: u64,
    pub check_sats: u64,
    pub sat: u64,
    pub unsat: u64,
}

fn v(name: &str, i: usize) -> Term {
    Term::new_var(format!("{name}@{i}"), Sort::Int)
}

/// Runs `rounds` rounds of small path-feasibility queries typical of the engine: per round one
/// satisfiable path with a model (`get-value`), one unsatisfiable path with an unsat core, and
/// three quick feasibility checks, each inside push/pop. Deterministic text; the answers are
/// checked (a wrong answer is an error).
pub fn query_mix(solver: &mut dyn Solver, rounds: usize) -> Result<MixReport, SolverError> {
    let mut ctx = SmtContext::new(solver);
    let mut r = MixReport::default();
    let wrong = |what: &str, got: &SatResult| SolverError::UnexpectedReply {
        expected: what.to_string(),
        reply: format!("{got:?}"),
    };
    for k in 0..rounds {
        let c = (k % 50) as i64;
        // x0 = c; x1 = x0 + 1; x2 = x1 + y; x2 > c + 3
        let path = [
            Term::eq(v("x", 0), Term::int(c)),
            Term::eq(v("x", 1), Term::add2(v("x", 0), Term::int(1))),
            Term::eq(v("x", 2), Term::add2(v("x", 1), v("y", 0))),
        ];
        ctx.push()?;
        for p in &path {
            ctx.assert(p)?;
        }
        ctx.assert(&Term::gt(v("x", 2), Term::int(c + 3)))?;
        let a = ctx.check_sat()?;
        r.check_sats += 1;
        if a != SatResult::Sat {
            return Err(wrong("sat", &a));
        }
        r.sat += 1;
        ctx.get_values(&[v("x", 2), v("y", 0)])?;
        ctx.pop()?;

        ctx.push()?;
        for (i, p) in path.iter().enumerate() {
            ctx.assert_named(&format!("p{i}"), p)?;
        }
        ctx.assert_named("bad", &Term::lt(v("x", 1), Term::int(c)))?;
        let a = ctx.check_sat()?;
        r.check_sats += 1;
        if a != SatResult::Unsat {
            return Err(wrong("unsat", &a));
        }
        r.unsat += 1;
        ctx.unsat_core()?;
        ctx.pop()?;

        for j in 0..3i64 {
            ctx.push()?;
            ctx.assert(&Term::and(vec![
                Term::ge(v("x", 0), Term::int(j)),
                Term::le(Term::add2(v("x", 0), v("y", 0)), Term::int(c - j)),
                Term::ge(v("y", 0), Term::int(c)),
            ]))?;
            let a = ctx.check_sat()?;
            r.check_sats += 1;
            match a {
                SatResult::Sat => r.sat += 1,
                SatResult::Unsat => r.unsat += 1,
                other => return Err(wrong("sat or unsat", &other)),
            }
            ctx.pop()?;
        }
    }
    r.round_trips = ctx.round_trips();
    Ok(r)
}

/// Rounds of the mix run before the timed run (the first queries of a fresh solver are slow:
/// process start natively, allocation of Z3's structures everywhere).
pub const WARM_UP_ROUNDS: usize = 5;

/// A timed run of [`query_mix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedMix {
    pub rounds: usize,
    pub report: MixReport,
    /// Wall time of the timed run (without the warm-up), by the caller's clock.
    pub micros: u64,
}

impl TimedMix {
    /// Round trips (`eval` calls) per second.
    pub fn round_trips_per_second(&self) -> f64 {
        per_second(self.report.round_trips, self.micros)
    }

    /// `check-sat` commands per second.
    pub fn check_sats_per_second(&self) -> f64 {
        per_second(self.report.check_sats, self.micros)
    }
}

fn per_second(count: u64, micros: u64) -> f64 {
    if micros == 0 {
        0.0
    } else {
        count as f64 * 1e6 / micros as f64
    }
}

/// Runs [`WARM_UP_ROUNDS`] rounds of the mix, then `rounds` more timed by `clock`. A clock that
/// measures nothing ([`crate::solver::NoClock`]) is a usage error.
pub fn timed_query_mix(
    solver: &mut dyn Solver,
    rounds: usize,
    clock: &mut dyn Clock,
) -> Result<TimedMix, SolverError> {
    query_mix(solver, WARM_UP_ROUNDS)?;
    let no_clock = || SolverError::Usage {
        message: "timed_query_mix needs a clock that measures time".into(),
    };
    let start = clock.now_micros().ok_or_else(no_clock)?;
    let report = query_mix(solver, rounds)?;
    let end = clock.now_micros().ok_or_else(no_clock)?;
    Ok(TimedMix {
        rounds,
        report,
        micros: end.saturating_sub(start),
    })
}

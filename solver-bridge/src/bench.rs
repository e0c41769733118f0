//! A fixed query mix for measuring solver throughput, on any backend (`&mut dyn Solver`): the
//! native example `examples/qps.rs` times it with `Instant`; the browser worker can run the same
//! function over `browser_solver()` and time it with `performance.now()`. The engine itself reads
//! no clock; this module only counts.

use crate::context::{SatResult, SmtContext};
use crate::solver::{Solver, SolverError};
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

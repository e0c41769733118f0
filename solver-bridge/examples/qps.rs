//! Native solver throughput:
//! `cargo run --release -p solver-bridge --example qps [ROUNDS] [--mix-only]`.
//! Runs the query mix of `solver_bridge::bench` (`timed_query_mix`, the same function the
//! browser worker's `solver-bench` request runs) over `z3 -in`, once on the raw process and
//! once through a `SharedPool` handle (the layering the browser uses), then interpolates the
//! loop path with each strategy, and prints rates. The line starting with `qps-json` is for
//! `scripts/solver-bench.sh`. (A measurement, not a test: nothing here asserts timing.)

use solver_bridge::bench::{timed_query_mix, TimedMix};
use solver_bridge::context::SmtContext;
use solver_bridge::itp::{interpolate_checked, Strategy};
use solver_bridge::parse::{parse_term, Declarations};
use solver_bridge::solver::{NativeZ3, SharedPool, Solver, StdClock};
use solver_bridge::term::{Sort, Term};
use std::time::Instant;

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("error: {e}");
    std::process::exit(1);
}

fn report(label: &str, m: &TimedMix) {
    let r = &m.report;
    println!(
        "query mix [{label}]: {} rounds, {} check-sats ({} sat, {} unsat), {} round trips in {:.3} s",
        m.rounds,
        r.check_sats,
        r.sat,
        r.unsat,
        r.round_trips,
        m.micros as f64 / 1e6
    );
    println!(
        "  {:.0} check-sat/s, {:.0} round trips/s",
        m.check_sats_per_second(),
        m.round_trips_per_second()
    );
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let mut raw = NativeZ3::new().unwrap_or_else(|e| fail(e));
    let raw_mix =
        timed_query_mix(&mut raw, rounds, &mut StdClock::default()).unwrap_or_else(|e| fail(e));
    report("z3 -in", &raw_mix);
    let pool = SharedPool::new(NativeZ3::new().unwrap_or_else(|e| fail(e)));
    let mut handle = pool.handle();
    let shared_mix = timed_query_mix(
        &mut handle as &mut dyn Solver,
        rounds,
        &mut StdClock::default(),
    )
    .unwrap_or_else(|e| fail(e));
    report("z3 -in, SharedPool handle", &shared_mix);
    println!(
        "qps-json {{\"rounds\":{},\"check_sats\":{},\"round_trips\":{},\"ms\":{:.3},\"raw_ms\":{:.3}}}",
        shared_mix.rounds,
        shared_mix.report.check_sats,
        shared_mix.report.round_trips,
        shared_mix.micros as f64 / 1e3,
        raw_mix.micros as f64 / 1e3,
    );
    if std::env::args().any(|a| a == "--mix-only") {
        return;
    }
    let z = raw;

    let mut d = Declarations::new();
    for i in 0..=3 {
        let _ = d.declare(&format!("x@{i}"), Sort::Int);
    }
    let t = |s: &str| parse_term(s, &d).unwrap_or_else(|_| Term::tt());
    let path = vec![
        t("(= x@0 0)"),
        t("(and (< x@0 10) (= x@1 (+ x@0 1)))"),
        t("(and (< x@1 10) (= x@2 (+ x@1 1)))"),
        t("(and (< x@2 10) (= x@3 (+ x@2 1)))"),
        t("(not (< x@3 10))"),
        t("(not (<= x@3 10))"),
    ];
    let mut ctx = SmtContext::new(z);
    for s in Strategy::ALL {
        let n = 50;
        let start = Instant::now();
        let before = ctx.round_trips();
        for _ in 0..n {
            if let Err(e) = interpolate_checked(&mut ctx, &path, s) {
                eprintln!("{s}: {e}");
                break;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "interpolation [{s}] (checked), loop with 3 iterations: {:.1} ms each, {} round trips each",
            secs * 1000.0 / n as f64,
            (ctx.round_trips() - before) / n
        );
    }
}

//! Native solver throughput: `cargo run --release -p solver-bridge --example qps [ROUNDS]`.
//! Runs the query mix of `solver_bridge::bench` over `z3 -in` and interpolates the loop path
//! with each strategy, and prints rates. (A measurement, not a test: nothing here asserts
//! timing.)

use solver_bridge::bench::query_mix;
use solver_bridge::context::SmtContext;
use solver_bridge::itp::{interpolate_checked, Strategy};
use solver_bridge::parse::{parse_term, Declarations};
use solver_bridge::solver::NativeZ3;
use solver_bridge::term::{Sort, Term};
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let mut z = match NativeZ3::new() {
        Ok(z) => z,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    // Warm up (process start, first allocation of Z3's structures).
    if let Err(e) = query_mix(&mut z, 5) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
    let t = Instant::now();
    let r = match query_mix(&mut z, rounds) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let s = t.elapsed().as_secs_f64();
    println!(
        "query mix: {rounds} rounds, {} check-sats ({} sat, {} unsat), {} round trips in {:.3} s",
        r.check_sats, r.sat, r.unsat, r.round_trips, s
    );
    println!(
        "  {:.0} check-sat/s, {:.0} round trips/s",
        r.check_sats as f64 / s,
        r.round_trips as f64 / s
    );

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

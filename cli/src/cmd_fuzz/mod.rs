//! `cpa fuzz --seed S --count N [--jobs J] [--timeout SECS] [--out DIR] [--config PRESET]...`:
//! differential testing of the verifier on generated programs (`cpa_engine::fuzz`).
//!
//! Every program runs with every preset, each run a child `cpa verify --json` process with a
//! wall-clock timeout (its process group is killed), and concretely on random inputs in
//! process. Bugs:
//! - `wrong-true`: TRUE although the program is FALSE: a concrete run (random, or the
//!   generator's witness for its planted check) reaches the error, or another preset's
//!   counterexample replays;
//! - `bad-cex`: a FALSE whose counterexample does not replay (the program is run concretely
//!   with the input values the counterexample prints; it must take the same steps and reach
//!   the error);
//! - `certificate`: UNKNOWN with the reason `internal: certificate check failed`;
//! - `stuck`: killed at the timeout while one unit of work (a session step) had been running
//!   for at least half of it: every step must end, since the session's count limits are only
//!   checked between steps (the child `cpa fuzz-verify` reports its progress by a heartbeat;
//!   a run that is still making steps at the timeout is only counted as slow);
//! - `crash`: the child ended without a result (a panic, a signal).
//!
//! Where every loop and every recursion of a program is bounded, `bmc` runs with a k-max large
//! enough for its forward condition, so that it decides the program (ground truth). A bug is
//! minimized on the generator's tree (the same presets must still show the same kind of bug)
//! and saved under `--out` as a regression program with the header of `tests/verdicts`.

mod args;
mod child;
mod findings;
mod text;
mod totals;

pub use args::{FuzzArgs, FuzzVerifyArgs, FUZZ_LIMITS};
pub use child::run_verify_child;
pub use text::program_seed;

use cpa_engine::config::Preset;
use cpa_engine::fuzz::gen::generate_with;
use findings::{check_program, minimize_and_save, Ctx};
use serde_json::Value;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use text::clip;
use totals::Totals;

pub fn run(args: &FuzzArgs) -> ExitCode {
    let presets: Vec<String> = if args.configs.is_empty() {
        Preset::names().iter().map(|s| s.to_string()).collect()
    } else {
        args.configs.clone()
    };
    // Every configuration through the same validation as `cpa verify` (and the fuzz-verify
    // children): a bad preset or knob is a usage error before any program runs.
    let sets: Vec<String> = FUZZ_LIMITS
        .iter()
        .map(|s| s.to_string())
        .chain(args.set.clone())
        .collect();
    for p in &presets {
        if let Err(e) = crate::cmd_verify::configure(p, &sets, None) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    if args.print {
        for i in args.start..args.start + args.count {
            let g = generate_with(program_seed(args.seed, i), args.memory);
            println!(
                "// program {i} (seed {}): bounded {}, witness {:?}\n{}",
                args.seed,
                g.program.bounded,
                g.witness,
                g.program.render()
            );
        }
        return ExitCode::SUCCESS;
    }
    let tmp = std::env::temp_dir().join(format!("cpa-fuzz-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&tmp) {
        eprintln!("error: {}: {e}", tmp.display());
        return ExitCode::from(1);
    }
    let ctx = Ctx {
        presets: presets.clone(),
        sets: args.set.clone(),
        timeout: Duration::from_secs_f64(args.timeout.max(0.5)),
        runs: args.runs,
        tmp: tmp.clone(),
        file_counter: AtomicU64::new(0),
    };
    let log = Mutex::new(
        args.log
            .as_ref()
            .and_then(|p| std::fs::File::create(p).ok()),
    );
    let started = Instant::now();
    let totals = Mutex::new(Totals::default());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst) as u64;
                if k >= args.count {
                    break;
                }
                check_one(args, &ctx, args.start + k, &totals, &log);
            });
        }
    });
    let _ = std::fs::remove_dir_all(&tmp);
    let t = totals.into_inner().unwrap();
    t.print_summary(args.seed, &presets, started.elapsed().as_secs_f64());
    if t.bug_count() > 0 || t.generator_problems > 0 {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// Generates program `index`, runs every preset on it, prints its lines (bugs, with the
/// minimized findings saved) and adds it to the totals and the log.
fn check_one(
    args: &FuzzArgs,
    ctx: &Ctx,
    index: u64,
    totals: &Mutex<Totals>,
    log: &Mutex<Option<std::fs::File>>,
) {
    let pseed = program_seed(args.seed, index);
    let g = generate_with(pseed, args.memory);
    let report = check_program(ctx, &g, pseed);
    if args.verbose {
        let v: Vec<String> = report
            .runs
            .iter()
            .map(|r| format!("{}={}({:.1}s)", r.preset, r.label(), r.seconds))
            .collect();
        println!(
            "--- program {index}: {} {}\n{}",
            v.join(" "),
            if report.truth_false {
                "[FALSE established]"
            } else {
                ""
            },
            g.program.render()
        );
    }
    let mut lines = Vec::new();
    if let Some(problem) = &report.generator_problem {
        lines.push(format!(
            "GENERATOR program {index} (seed {}): {problem}",
            args.seed
        ));
    }
    for bug in &report.bugs {
        let take = totals
            .lock()
            .unwrap()
            .first_of_signature(bug.signature(), args.max_per_signature);
        let saved = if take {
            let (path, how) = minimize_and_save(ctx, args, &g, bug, pseed, index);
            totals.lock().unwrap().saved.push(path.clone());
            format!("{how}: {path}")
        } else {
            format!(
                "not minimized (signature seen {} times)",
                args.max_per_signature
            )
        };
        lines.push(format!(
            "BUG {} [{}] program {index} (seed {}): {}; {saved}",
            bug.kind.name(),
            bug.presets.join(", "),
            args.seed,
            clip(&bug.detail, 400)
        ));
    }
    for l in &lines {
        println!("{l}");
    }
    if let Some(f) = log.lock().unwrap().as_mut() {
        use std::io::Write;
        let runs: Vec<Value> = report
            .runs
            .iter()
            .map(|r| serde_json::json!({"preset": r.preset, "verdict": r.label(), "reason": r.reason, "seconds": r.seconds}))
            .collect();
        let bugs: Vec<Value> = report
            .bugs
            .iter()
            .map(|b| serde_json::json!({"kind": b.kind.name(), "presets": b.presets, "detail": b.detail}))
            .collect();
        let _ = writeln!(
            f,
            "{}",
            serde_json::json!({"index": index, "seed": args.seed, "bounded": g.program.bounded, "witness": g.witness.is_some(), "truth_false": report.truth_false, "generator_problem": report.generator_problem, "runs": runs, "bugs": bugs})
        );
    }
    totals.lock().unwrap().record(&g, &report);
}

#[cfg(test)]
mod tests;

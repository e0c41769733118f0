//! `cpa itp FILE.smt2 [--strategy NAME]`: sequence interpolants for the assertions of an
//! SMT-LIB file (their order is the sequence), computed by the solver bridge and checked
//! against the definition. Prints `unsat` and one interpolant per line (tau_1 .. tau_(n-1)), or
//! `sat` and a model, or `unknown (reason)`.

use clap::builder::PossibleValuesParser;
use clap::Args;
use solver_bridge::context::SmtContext;
use solver_bridge::itp::{solve_script, Strategy};
use solver_bridge::parse::{parse_script, Script};
use solver_bridge::solver::{NativeZ3, Recording};
use std::process::ExitCode;

#[derive(Args)]
pub struct ItpArgs {
    /// An SMT-LIB file: declarations and a sequence of `(assert ...)`.
    file: String,
    /// The interpolation strategy.
    #[arg(long, default_value = "auto", value_parser = PossibleValuesParser::new(Strategy::ALL.map(|s| s.name())))]
    strategy: String,
    /// Print every query sent to Z3 and its reply to stderr.
    #[arg(long)]
    log: bool,
}

pub fn run(args: &ItpArgs) -> ExitCode {
    let file = &args.file;
    let text = match std::fs::read(file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("{file}: error: cannot read file: {e}");
            return ExitCode::from(1);
        }
    };
    let script = match parse_script(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}:{}:{}: error: {}", e.line, e.col, e.message);
            return ExitCode::from(1);
        }
    };
    let Some(strategy) = Strategy::from_name(&args.strategy) else {
        eprintln!("error: unknown strategy {}", args.strategy);
        return ExitCode::from(2);
    };
    let z3 = match NativeZ3::new() {
        Ok(z) => z,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let recording = Recording::new(z3);
    let log = recording.log();
    let mut ctx = SmtContext::new(recording);
    let result = solve(&mut ctx, &script, strategy);
    if args.log {
        for e in log.entries() {
            eprintln!("; query {}\n{}", e.index, e.query.trim_end());
            match &e.reply {
                Ok(r) if r.is_empty() => {}
                Ok(r) => eprintln!("; reply\n{r}"),
                Err(err) => eprintln!("; error: {err}"),
            }
        }
    }
    match result {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{file}: error: {message}");
            ExitCode::from(1)
        }
    }
}

/// The answer lines for the script (shared with the browser worker's `smt-interpolate`, so
/// both send the same text to Z3 and print the same lines).
fn solve(
    ctx: &mut SmtContext<Recording<NativeZ3>>,
    script: &Script,
    strategy: Strategy,
) -> Result<Vec<String>, String> {
    solve_script(ctx, script, strategy)
        .map(|answer| answer.lines())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_file(name: &str, strategy: Strategy) -> Result<Vec<String>, String> {
        let path = format!(
            "{}/../solver-bridge/tests/data/itp/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let script = parse_script(&text).map_err(|e| e.to_string())?;
        let z3 = NativeZ3::new().map_err(|e| e.to_string())?;
        let mut ctx = SmtContext::new(Recording::new(z3));
        solve(&mut ctx, &script, strategy)
    }

    #[test]
    fn unsat_prints_interpolants() {
        assert_eq!(
            run_file("loop1.smt2", Strategy::Auto).unwrap(),
            vec!["unsat", "(<= x@0 0)", "(<= x@1 1)", "false"]
        );
        assert_eq!(
            run_file("ssa_simple.smt2", Strategy::BackwardQe).unwrap(),
            vec!["unsat", "(< x0 5)", "(<= x1 5)"]
        );
    }

    #[test]
    fn sat_prints_a_model() {
        let out = run_file("sat_path.smt2", Strategy::Auto).unwrap();
        assert_eq!(out[0], "sat");
        assert_eq!(
            &out[1..],
            ["(define-fun x0 () Int 0)", "(define-fun x1 () Int 1)"]
        );
    }

    #[test]
    fn inapplicable_strategy_is_an_error() {
        let e = run_file("disjunctive.smt2", Strategy::Farkas).unwrap_err();
        assert!(e.contains("not applicable"), "{e}");
    }
}

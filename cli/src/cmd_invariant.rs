//! `cpa check-invariant FILE.c --line N 'EXPR'`: the invariant exercise. A loop invariant (a C
//! expression over the variables in scope) at the loop head of line N is checked for
//! initiation, consecution and sufficiency, each with a counterexample when it fails. Exit 0
//! when the invariant proves the program, 1 when it does not (or on an input error).

use crate::input::load;
use crate::solver::native;
use clap::Args;
use cpa_engine::lesson::invariant::{check_invariant, Part};
use cpa_engine::smt::BridgeSmt;
use std::process::ExitCode;

#[derive(Args)]
pub struct CheckInvariantArgs {
    pub file: String,
    /// The source line of the loop (its `while`, `for` or `do` line).
    #[arg(long)]
    pub line: u32,
    /// The candidate invariant, a C expression (`x == y && i <= n`).
    pub invariant: String,
}

fn show(vals: &[(String, String)]) -> String {
    vals.iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn print_part(name: &str, ok: &str, p: &Part) {
    match p {
        Part::Holds => println!("  {name:<12} holds: {ok}"),
        Part::Unknown { why } => println!("  {name:<12} unknown: {why}"),
        Part::Fails { why, before, after } => {
            println!("  {name:<12} fails: {why}");
            if !before.is_empty() {
                println!("  {:<12}   before: {}", "", show(before));
            }
            if !after.is_empty() {
                println!("  {:<12}   after:  {}", "", show(after));
            }
        }
    }
}

pub fn run(args: &CheckInvariantArgs) -> ExitCode {
    // The program's diagnostics, as every command prints them.
    if load(&args.file).is_err() {
        return ExitCode::from(1);
    }
    let source = match std::fs::read(&args.file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            eprintln!("{}: error: cannot read file: {e}", args.file);
            return ExitCode::from(1);
        }
    };
    let mut smt = match native() {
        Ok((solver, _)) => BridgeSmt::new(solver),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    // Per query, deterministic (Z3's rlimit), as the witness check.
    if let Err(e) = cpa_engine::smt::Smt::set_resource_limit(&mut smt, Some(20_000_000)) {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    let report = match check_invariant(&args.file, &source, args.line, &args.invariant, &mut smt) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}:{}: error: {e}", args.file, args.line);
            return ExitCode::from(1);
        }
    };
    println!(
        "invariant '{}' at the loop at line {}:",
        args.invariant, args.line
    );
    print_part(
        "initiation",
        "every path from the start arrives at the loop satisfying it",
        &report.initiation,
    );
    print_part(
        "consecution",
        "one iteration from a state satisfying it ends in a state satisfying it",
        &report.consecution,
    );
    print_part(
        "sufficiency",
        "no path from a state satisfying it reaches the error",
        &report.sufficiency,
    );
    if report.proves() {
        println!("the invariant proves the program safe");
        ExitCode::SUCCESS
    } else {
        println!("the invariant does not prove the program");
        ExitCode::from(1)
    }
}

//! `cpa check-invariant FILE.c --line N 'EXPR'`: the invariant exercise. A loop invariant (a C
//! expression over the variables in scope) at the loop head of line N is checked for
//! initiation, consecution and sufficiency, each with a counterexample when it fails. Exit 0
//! when the invariant proves the program, 1 when it does not (or on an input error).

use crate::input::load;
use crate::solver::native;
use clap::Args;
use cpa_engine::proof::exercise::{self, Part};
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

fn show(vals: &[(String, i128)]) -> String {
    vals.iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn print_part(name: &str, ok: &str, p: &Part) {
    match p {
        Part::Holds => println!("  {name:<12} holds: {ok}"),
        Part::Unknown(why) => println!("  {name:<12} unknown: {why}"),
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
    let Ok(parsed) = load(&args.file) else {
        return ExitCode::from(1);
    };
    let cfa = parsed.cfa;
    let Some(head) = exercise::loop_head_at_line(&cfa, args.line) else {
        eprintln!(
            "{}:{}: error: no loop starts at this line",
            args.file, args.line
        );
        return ExitCode::from(1);
    };
    let func = cfa.node(head).function;
    let inv = match cpa_engine::frontend::invariant::parse_invariant(&cfa, func, &args.invariant) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{}:{}: error: invariant: {e}", args.file, args.line);
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
    let report = match exercise::check(&cfa, &mut smt, head, &inv, &args.invariant) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
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

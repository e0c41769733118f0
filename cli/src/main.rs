//! `cpa`: the command-line face of the CPA Playground engine.
//!
//! Exit codes: 0 for any result (including any verdict), 1 for input errors (printed as
//! `FILE:LINE:COL: error: MESSAGE`), 2 for usage errors.

mod cmd_bench;
mod cmd_cfa;
mod cmd_fuzz;
mod cmd_fuzz_frontend;
mod cmd_invariant;
mod cmd_itp;
mod cmd_lesson;
mod cmd_verify;
mod input;
mod solver;
mod task;
mod witness;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

// The engine allocates and frees many small terms and states: mimalloc spends less time on
// them than the system allocator (docs/benchmarks.md). No output depends on addresses (the
// engine's invariants), so the allocator changes nothing but the time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "cpa",
    version,
    about = "CPA Playground: configurable program analysis for small C programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a C file and build its CFA; prints `ok` or the diagnostics.
    Check { file: String },
    /// Print the CFA (or its LBE summary) of a C file.
    Cfa(cmd_cfa::CfaArgs),
    /// The knobs of a preset (or of every preset) with their values and what they do;
    /// `--markdown`: the whole table as docs/knobs.md has it.
    Knobs {
        preset: Option<String>,
        #[arg(long)]
        markdown: bool,
    },
    /// Run a set of tasks (tasks.tsv) and compare with the expected verdicts.
    Bench(cmd_bench::BenchArgs),
    /// Verify that no call of reach_error() is reachable.
    Verify(cmd_verify::VerifyArgs),
    /// Check a witness (SV-COMP format 2.0) against a program: prints `confirmed` (exit 0)
    /// or `refuted: REASON` (exit 1).
    ValidateWitness { program: String, witness: String },
    /// Sequence interpolants for the assertions of an SMT-LIB file (checked), or a model.
    Itp(cmd_itp::ItpArgs),
    /// The invariant exercise: a loop invariant at the loop of `--line`, checked for
    /// initiation, consecution and sufficiency with counterexamples.
    CheckInvariant(cmd_invariant::CheckInvariantArgs),
    /// Lessons (docs/lessons.md): `cpa lesson check FILE...` runs each and checks its anchors
    /// and claims.
    Lesson(cmd_lesson::LessonArgs),
    /// Differential testing: generated programs, every preset, concrete runs; bugs minimized.
    Fuzz(cmd_fuzz::FuzzArgs),
    /// Mutated inputs to the front end: reports panics, crashes and slow inputs.
    FuzzFrontend(cmd_fuzz_frontend::FuzzFrontendArgs),
    /// `verify --json` with a heartbeat on stderr (the child process of `cpa fuzz`).
    #[command(hide = true)]
    FuzzVerify(cmd_fuzz::FuzzVerifyArgs),
}

fn main() -> ExitCode {
    // A closed pipe (`cpa verify … --events | head`) ends the process quietly, as it does
    // other Unix tools, instead of a panic in `println!`.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Check { file } => cmd_cfa::check(&file),
        Command::ValidateWitness { program, witness } => witness::run_validate(&program, &witness),
        Command::Cfa(args) => cmd_cfa::run(&args),
        Command::Knobs { preset, markdown } => cmd_knobs(preset.as_deref(), markdown),
        Command::Itp(args) => cmd_itp::run(&args),
        Command::Lesson(args) => cmd_lesson::run(&args),
        Command::CheckInvariant(args) => cmd_invariant::run(&args),
        Command::Verify(args) => cmd_verify::run(&args),
        Command::Bench(args) => cmd_bench::run(&args),
        Command::Fuzz(args) => cmd_fuzz::run(&args),
        Command::FuzzFrontend(args) => cmd_fuzz_frontend::run(&args),
        Command::FuzzVerify(args) => cmd_fuzz::run_verify_child(&args),
    }
}

/// `cpa knobs [PRESET] [--markdown]`.
fn cmd_knobs(preset: Option<&str>, markdown: bool) -> ExitCode {
    use cpa_engine::config::{knobs, Input, Preset, KNOBS};
    if markdown {
        print!("{}", knobs::markdown());
        return ExitCode::SUCCESS;
    }
    let presets = match preset {
        Some(name) => match Preset::parse(name) {
            Ok(p) => vec![p],
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => Preset::ALL.to_vec(),
    };
    for p in presets {
        let config = p.config();
        println!("{p}:");
        for k in KNOBS.iter().filter(|k| k.applies(&config)) {
            let values = match k.input {
                Input::Choice(c) => format!(" ({})", c.join("|")),
                Input::Bool => " (true|false)".into(),
                Input::Number | Input::Text => String::new(),
            };
            println!("  {}={}{values}\n      {}", k.key, k.value(&config), k.help);
        }
    }
    ExitCode::SUCCESS
}

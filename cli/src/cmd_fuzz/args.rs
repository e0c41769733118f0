//! The arguments of `cpa fuzz` and of its hidden child `cpa fuzz-verify`, and the limits every
//! fuzzing run gets.

use clap::Args;

#[derive(Args, Clone)]
pub struct FuzzArgs {
    /// Seed of the campaign; program i is generated from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of programs.
    #[arg(long, default_value_t = 100)]
    pub count: u64,
    /// Index of the first program (to split a campaign or reproduce one program).
    #[arg(long, default_value_t = 0)]
    pub start: u64,
    /// Programs checked at the same time.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Wall-clock limit per verification run, in seconds (a run over it is a liveness bug).
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Where minimized findings are saved.
    #[arg(long, default_value = "tests/fuzz-findings")]
    pub out: String,
    /// Presets to compare (repeatable); default: all.
    #[arg(long = "config")]
    pub configs: Vec<String>,
    /// Extra knob for every run (repeatable), after the fuzzing limits.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Random concrete runs per program.
    #[arg(long, default_value_t = 100)]
    pub runs: usize,
    /// Checks the minimizer may spend per bug (each check reruns the presets involved).
    #[arg(long, default_value_t = 120)]
    pub minimize_budget: usize,
    /// Minimize and save at most this many bugs of the same kind and presets.
    #[arg(long, default_value_t = 3)]
    pub max_per_signature: usize,
    /// Print each program with its verdicts.
    #[arg(long)]
    pub verbose: bool,
    /// Only print the generated programs (no verification).
    #[arg(long)]
    pub print: bool,
    /// Generate arrays, pointers and structs too (other programs than without it).
    #[arg(long)]
    pub memory: bool,
    /// Write one JSON line per program (verdicts, bugs) to this file.
    #[arg(long)]
    pub log: Option<String>,
}

/// Count limits of every fuzzing run: small, so that runs end in seconds.
pub const FUZZ_LIMITS: [&str; 5] = [
    "max-steps=10000",
    "max-states=10000",
    "max-refinements=25",
    "max-queries=1500",
    "solver-rlimit=2000000",
];

/// The k-max `bmc` gets on bounded programs, so that its forward condition can hold.
pub const BMC_TRUTH_K: u32 = 200;

pub const STEP_CAP: usize = 20_000;

/// `cpa fuzz-verify FILE --config P [--set K=V]...` (hidden): `cpa verify --json` with a
/// heartbeat. The session runs unit by unit; a thread prints to stderr, four times a second,
/// how many units and solver calls are done and how long the current unit and the current
/// solver call have been running. When the parent kills a run at its timeout, the last
/// heartbeat tells a liveness bug (one unit that never ends) from a run that is merely slow.
#[derive(Args, Clone)]
pub struct FuzzVerifyArgs {
    pub file: String,
    #[arg(long, default_value = "predicate-lbe")]
    pub config: String,
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Write the SMT-LIB text of every solver call to this file before sending it (each call
    /// overwrites the last), so that the call a stuck run is in can be read afterwards.
    #[arg(long)]
    pub last_query: Option<String>,
}

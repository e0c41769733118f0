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
//! One line per bug, then a summary; the exit code is 3 when a bug was found.

use clap::Args;
use cpa_engine::config::Preset;
use cpa_engine::fuzz::ast::Program;
use cpa_engine::fuzz::exec::{random_runs, replay_counterexample, run_inputs, CexStep};
use cpa_engine::fuzz::gen::{generate, Generated};
use cpa_engine::fuzz::minimize::minimize;
use cpa_engine::fuzz::Rng;
use cpa_engine::parse_program;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
const BMC_TRUTH_K: u32 = 200;

const STEP_CAP: usize = 20_000;

#[derive(Clone, Debug)]
pub enum Status {
    Done,
    /// Killed at the timeout; `stuck`: one unit of work had been running for at least half of
    /// it (a liveness bug), otherwise the run was progressing (merely slow).
    Timeout {
        stuck: bool,
    },
    Crash(String),
}

#[derive(Clone, Debug)]
pub struct RunResult {
    pub preset: String,
    pub verdict: String,
    pub reason: String,
    pub seconds: f64,
    pub status: Status,
    pub cex: Option<Vec<CexStep>>,
}

impl RunResult {
    fn label(&self) -> &str {
        match self.status {
            Status::Done => &self.verdict,
            Status::Timeout { stuck: true } => "stuck",
            Status::Timeout { stuck: false } => "slow",
            Status::Crash(_) => "crash",
        }
    }
}

/// One verification in a child `cpa verify --json`, killed with its process group after
/// `timeout`. Its output is read on a thread of its own, so a long counterexample cannot
/// block the child on a full pipe.
pub fn run_child(file: &Path, preset: &str, sets: &[String], timeout: Duration) -> RunResult {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("cpa"));
    let mut cmd = Command::new(exe);
    cmd.arg("fuzz-verify").arg(file).arg("--config").arg(preset);
    for s in sets {
        cmd.arg("--set").arg(s);
    }
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let result = |verdict: &str, status: Status, seconds: f64| RunResult {
        preset: preset.to_string(),
        verdict: verdict.to_string(),
        reason: String::new(),
        seconds,
        status,
        cex: None,
    };
    let start = Instant::now();
    let mut child = match cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return result("unknown", Status::Crash(format!("cannot start: {e}")), 0.0),
    };
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = stdout.as_mut() {
            let _ = o.read_to_string(&mut s);
        }
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if start.elapsed() > timeout => {
                #[cfg(unix)]
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .stderr(Stdio::null())
                    .status();
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => break None,
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    let Some(status) = status else {
        // The last heartbeat: is one unit of work stuck, or is the run merely slow?
        let beat = err
            .lines()
            .rev()
            .find(|l| l.starts_with("heartbeat"))
            .unwrap_or("");
        let field = |k: &str| -> u64 {
            beat.split_whitespace()
                .find_map(|w| w.strip_prefix(k))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        let (units, calls, unit_ms, call_ms) = (
            field("units="),
            field("calls="),
            field("unit_ms="),
            field("call_ms="),
        );
        let stuck = unit_ms as f64 >= timeout.as_secs_f64() * 500.0;
        let mut r = result("unknown", Status::Timeout { stuck }, seconds);
        r.reason = format!(
            "no verdict after {seconds:.0} s: {units} units done, {calls} solver calls; the current unit has run {:.1} s{}",
            unit_ms as f64 / 1e3,
            if call_ms > 0 {
                format!(", the current solver call {:.1} s", call_ms as f64 / 1e3)
            } else {
                String::new()
            }
        );
        return r;
    };
    let v: Value = match serde_json::from_str(out.trim()) {
        Ok(v) if status.success() => v,
        _ => {
            let msg = err
                .lines()
                .find(|l| l.contains("panicked") || l.contains("error"))
                .or_else(|| err.lines().next())
                .unwrap_or("")
                .to_string();
            return result(
                "unknown",
                Status::Crash(format!("{status}: {msg}")),
                seconds,
            );
        }
    };
    let cex = v["counterexample"].as_array().map(|steps| {
        steps
            .iter()
            .map(|s| CexStep {
                line: s["line"].as_u64().unwrap_or(0) as u32,
                op: s["op"].as_str().unwrap_or("").to_string(),
                values: s["values"]
                    .as_object()
                    .map(|m| {
                        m.iter()
                            .filter_map(|(k, x)| {
                                let n = x
                                    .as_i64()
                                    .map(i128::from)
                                    .or_else(|| x.as_u64().map(i128::from))?;
                                Some((k.clone(), n))
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
            .collect()
    });
    RunResult {
        preset: preset.to_string(),
        verdict: v["verdict"].as_str().unwrap_or("unknown").to_string(),
        reason: v["reason"].as_str().unwrap_or("").to_string(),
        seconds,
        status: Status::Done,
        cex,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BugKind {
    Crash,
    Timeout,
    WrongTrue,
    BadCex,
    Certificate,
}

impl BugKind {
    fn name(self) -> &'static str {
        match self {
            BugKind::Crash => "crash",
            BugKind::Timeout => "stuck",
            BugKind::WrongTrue => "wrong-true",
            BugKind::BadCex => "bad-cex",
            BugKind::Certificate => "certificate",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Bug {
    pub kind: BugKind,
    /// The presets that show it.
    pub presets: Vec<String>,
    /// Why: the evidence of FALSE, the replay failure, the crash message.
    pub detail: String,
    /// Presets whose replayed counterexample shows FALSE (the evidence to re-run).
    pub witnesses: Vec<String>,
}

impl Bug {
    fn signature(&self) -> String {
        format!("{} {}", self.kind.name(), self.presets.join(","))
    }
}

/// The evidence that a program is FALSE, if any.
#[derive(Clone, Debug, Default)]
struct Evidence {
    /// A concrete run reached the error (which one).
    concrete: Option<String>,
    /// Presets whose counterexample replays.
    replayed: Vec<String>,
}

impl Evidence {
    fn any(&self) -> bool {
        self.concrete.is_some() || !self.replayed.is_empty()
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = &self.concrete {
            parts.push(c.clone());
        }
        if !self.replayed.is_empty() {
            parts.push(format!(
                "FALSE from {} (counterexample replays)",
                self.replayed.join(", ")
            ));
        }
        parts.join("; ")
    }
}

/// Everything one program showed.
#[derive(Clone, Debug)]
pub struct ProgramReport {
    pub runs: Vec<RunResult>,
    pub bugs: Vec<Bug>,
    /// FALSE established (concretely or by a replayed counterexample).
    pub truth_false: bool,
    /// The generator broke its promise (the program does not parse or has undefined
    /// behaviour): not a verifier bug, but reported.
    pub generator_problem: Option<String>,
    pub concrete_error: bool,
}

struct Ctx {
    presets: Vec<String>,
    sets: Vec<String>,
    timeout: Duration,
    runs: usize,
    tmp: PathBuf,
    file_counter: AtomicU64,
}

impl Ctx {
    fn temp_file(&self, text: &str) -> PathBuf {
        let n = self.file_counter.fetch_add(1, Ordering::SeqCst);
        let p = self.tmp.join(format!("p{n}.c"));
        let _ = std::fs::write(&p, text);
        p
    }

    fn sets_for(&self, preset: &str, bounded: bool) -> Vec<String> {
        let mut s: Vec<String> = FUZZ_LIMITS.iter().map(|x| x.to_string()).collect();
        if preset == "bmc" && bounded {
            s.push(format!("k-max={BMC_TRUTH_K}"));
        }
        s.extend(self.sets.iter().cloned());
        s
    }

    fn run(&self, file: &Path, preset: &str, bounded: bool) -> RunResult {
        run_child(file, preset, &self.sets_for(preset, bounded), self.timeout)
    }
}

/// Concrete evidence: the witness, then random runs.
fn concrete_evidence(
    cfa: &cpa_engine::Cfa,
    witness: Option<&[i128]>,
    seed: u64,
    runs: usize,
) -> (Option<String>, Option<String>) {
    if let Some(w) = witness {
        if run_inputs(cfa, w, STEP_CAP * 5) == cpa_engine::concrete::Outcome::ReachedError {
            return (
                Some(format!(
                    "a concrete run on the planted inputs {w:?} reaches the error"
                )),
                None,
            );
        }
    }
    let s = random_runs(cfa, seed, runs, STEP_CAP);
    let found = s.error_inputs.map(|inputs| {
        format!(
            "{} of {} random concrete runs reach the error (e.g. inputs {inputs:?})",
            s.errors, s.runs
        )
    });
    (found, s.failure)
}

/// The bugs that the runs of the presets on a program show, and whether the program is
/// established FALSE (`concrete`: a concrete run that reached the error).
pub fn classify(
    cfa: &cpa_engine::Cfa,
    runs: &[RunResult],
    concrete: Option<String>,
) -> (Vec<Bug>, bool) {
    let mut evidence = Evidence {
        concrete,
        replayed: Vec::new(),
    };
    let mut by_kind: BTreeMap<BugKind, (Vec<String>, Vec<String>)> = BTreeMap::new();
    let mut add = |kind, preset: &str, detail: String| {
        let e = by_kind.entry(kind).or_default();
        e.0.push(preset.to_string());
        e.1.push(format!("{preset}: {detail}"));
    };
    for r in runs {
        match &r.status {
            Status::Crash(m) => add(BugKind::Crash, &r.preset, m.clone()),
            Status::Timeout { stuck: true } => add(BugKind::Timeout, &r.preset, r.reason.clone()),
            Status::Timeout { stuck: false } | Status::Done => {}
        }
        if r.reason.contains("certificate check failed") {
            add(BugKind::Certificate, &r.preset, r.reason.clone());
        }
        if r.verdict == "false" {
            match replay_counterexample(cfa, r.cex.as_deref().unwrap_or(&[])) {
                Ok(()) => evidence.replayed.push(r.preset.clone()),
                Err(e) => add(BugKind::BadCex, &r.preset, e),
            }
        }
    }
    if evidence.any() {
        for r in runs {
            if r.verdict == "true" {
                add(BugKind::WrongTrue, &r.preset, String::new());
            }
        }
    }
    let bugs = by_kind
        .into_iter()
        .map(|(kind, (presets, details))| Bug {
            kind,
            presets,
            detail: if kind == BugKind::WrongTrue {
                format!("the program is FALSE: {}", evidence.describe())
            } else {
                details.join(" | ")
            },
            witnesses: evidence.replayed.clone(),
        })
        .collect();
    (bugs, evidence.any())
}

fn check_program(ctx: &Ctx, g: &Generated, seed: u64) -> ProgramReport {
    let program = &g.program;
    let text = program.render();
    let mut report = ProgramReport {
        runs: Vec::new(),
        bugs: Vec::new(),
        truth_false: false,
        generator_problem: None,
        concrete_error: false,
    };
    let parsed = match parse_program("fuzz.c", &text) {
        Ok(p) => p,
        Err(d) => {
            report.generator_problem = Some(format!(
                "does not parse: {}",
                d.first().map(|d| d.message.clone()).unwrap_or_default()
            ));
            return report;
        }
    };
    let (concrete, failure) = concrete_evidence(&parsed.cfa, g.witness.as_deref(), seed, ctx.runs);
    if let Some(f) = failure {
        report.generator_problem = Some(format!("a concrete run fails: {f}"));
        return report;
    }
    report.concrete_error = concrete.is_some();
    let file = ctx.temp_file(&text);
    for p in &ctx.presets {
        report.runs.push(ctx.run(&file, p, program.bounded));
    }
    let _ = std::fs::remove_file(&file);
    let (bugs, truth_false) = classify(&parsed.cfa, &report.runs, concrete);
    report.bugs = bugs;
    report.truth_false = truth_false;
    report
}

/// Does `p` still show `bug`? Reruns only the presets involved (and, for a wrong TRUE, the
/// evidence of FALSE).
fn still_fails(ctx: &Ctx, bug: &Bug, p: &Program, seed: u64) -> bool {
    let text = p.render();
    let Ok(parsed) = parse_program("fuzz.c", &text) else {
        return false;
    };
    // A candidate with undefined behaviour or one that fails concretely cannot be trusted.
    let (concrete, failure) = concrete_evidence(&parsed.cfa, None, seed, ctx.runs / 2);
    if failure.is_some() {
        return false;
    }
    let file = ctx.temp_file(&text);
    let ok = (|| {
        for preset in &bug.presets {
            let r = ctx.run(&file, preset, p.bounded);
            let shows = match bug.kind {
                BugKind::Crash => matches!(r.status, Status::Crash(_)),
                BugKind::Timeout => matches!(r.status, Status::Timeout { stuck: true }),
                BugKind::Certificate => r.reason.contains("certificate check failed"),
                BugKind::WrongTrue => r.verdict == "true",
                BugKind::BadCex => {
                    r.verdict == "false"
                        && replay_counterexample(&parsed.cfa, r.cex.as_deref().unwrap_or(&[]))
                            .is_err()
                }
            };
            if !shows {
                return false;
            }
        }
        if bug.kind != BugKind::WrongTrue || concrete.is_some() {
            return true;
        }
        bug.witnesses.iter().any(|w| {
            let r = ctx.run(&file, w, p.bounded);
            r.verdict == "false"
                && replay_counterexample(&parsed.cfa, r.cex.as_deref().unwrap_or(&[])).is_ok()
        })
    })();
    let _ = std::fs::remove_file(&file);
    ok
}

/// Minimizes `bug`, reruns every preset on the result and saves it. Returns the saved path
/// and a description.
fn minimize_and_save(
    ctx: &Ctx,
    args: &FuzzArgs,
    g: &Generated,
    bug: &Bug,
    seed: u64,
    index: u64,
) -> (String, String) {
    let budget = if bug.kind == BugKind::Timeout {
        args.minimize_budget.min(12)
    } else {
        args.minimize_budget
    };
    let (small, spent) = minimize(&g.program, budget, |p| still_fails(ctx, bug, p, seed));
    let small_gen = Generated {
        program: small.clone(),
        witness: None,
    };
    let rerun = check_program(ctx, &small_gen, seed);
    // Only a concrete run establishes FALSE; a TRUE is what some preset answered; with
    // neither the header says so rather than guess.
    let truth = if rerun.truth_false || bug.kind == BugKind::WrongTrue {
        "false"
    } else if rerun.runs.iter().any(|r| r.verdict == "true") {
        "true"
    } else {
        "unknown (no run decided)"
    };
    let unknown: Vec<&str> = rerun
        .runs
        .iter()
        .filter(|r| r.verdict == "unknown" && !bug.presets.contains(&r.preset))
        .map(|r| r.preset.as_str())
        .collect();
    let verdicts: Vec<String> = rerun
        .runs
        .iter()
        .map(|r| {
            if r.verdict == "unknown" && !r.reason.is_empty() {
                format!("{} {} ({})", r.preset, r.label(), r.reason)
            } else {
                format!("{} {}", r.preset, r.label())
            }
        })
        .collect();
    let lines_before = g.program.render().lines().count();
    let text = small.render();
    let mut header = format!("// verdict: {truth}\n");
    if !unknown.is_empty() {
        header.push_str(&format!("// unknown-ok: {}\n", unknown.join(" ")));
    }
    header.push_str(&format!(
        "// fuzz: {} from {}, found by `cpa fuzz --seed {} --start {index} --count 1`\n",
        bug.kind.name(),
        bug.presets.join(", "),
        args.seed
    ));
    for d in bug.detail.split(" | ") {
        header.push_str(&format!("// fuzz: {}\n", clip(d, 300)));
    }
    header.push_str(&format!(
        "// fuzz: minimized from {lines_before} to {} lines in {spent} checks; verdicts now: {}\n",
        text.lines().count(),
        clip(&verdicts.join(", "), 2000)
    ));
    let _ = std::fs::create_dir_all(&args.out);
    let path = Path::new(&args.out).join(format!(
        "{}-{}-s{}-i{index}.c",
        bug.kind.name(),
        short(&bug.presets),
        args.seed
    ));
    let _ = std::fs::write(&path, format!("{header}{text}"));
    let how = if budget == 0 {
        "saved (not minimized)".to_string()
    } else {
        format!(
            "minimized {lines_before}->{} lines ({spent} checks)",
            text.lines().count()
        )
    };
    (path.display().to_string(), how)
}

fn short(presets: &[String]) -> String {
    if presets.len() == 1 {
        presets[0].clone()
    } else {
        format!("{}-presets", presets.len())
    }
}

/// At most `n` characters of `s` on one line (a solver's reason can span lines, and a
/// finding's header is C comments: a line break would end one).
fn clip(s: &str, n: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() <= n {
        s
    } else {
        format!("{}...", s.chars().take(n).collect::<String>())
    }
}

/// The generator's seed of program `index` of the campaign `seed`.
pub fn program_seed(seed: u64, index: u64) -> u64 {
    Rng::derive(seed, index).next_u64()
}

#[derive(Default)]
struct Totals {
    programs: u64,
    bounded: u64,
    witnesses: u64,
    concrete_false: u64,
    truth_false: u64,
    runs: u64,
    /// preset -> verdict label -> count
    verdicts: BTreeMap<String, BTreeMap<String, u64>>,
    seconds: BTreeMap<String, f64>,
    bugs: BTreeMap<String, u64>,
    buggy_programs: u64,
    generator_problems: u64,
    saved: Vec<String>,
    signatures: BTreeMap<String, usize>,
    /// UNKNOWN reasons (digits and details dropped) -> presets -> count
    reasons: BTreeMap<String, BTreeMap<String, u64>>,
}

/// An UNKNOWN reason without its numbers and details, to count reasons by kind.
fn reason_class(r: &str) -> String {
    let cut = r.find(['(', '\n']).unwrap_or(r.len()).min(70);
    let mut s: String = r.chars().take(cut).collect::<String>();
    s = s
        .split(|c: char| c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("N");
    s.trim().trim_end_matches(':').to_string()
}

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
            let g = generate(program_seed(args.seed, i));
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
                let index = args.start + k;
                let pseed = program_seed(args.seed, index);
                let g = generate(pseed);
                let report = check_program(&ctx, &g, pseed);
                if args.verbose {
                    let v: Vec<String> = report
                        .runs
                        .iter()
                        .map(|r| format!("{}={}({:.1}s)", r.preset, r.label(), r.seconds))
                        .collect();
                    println!(
                        "--- program {index}: {} {}\n{}",
                        v.join(" "),
                        if report.truth_false { "[FALSE established]" } else { "" },
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
                    let sig = bug.signature();
                    let take = {
                        let mut t = totals.lock().unwrap();
                        let n = t.signatures.entry(sig.clone()).or_default();
                        *n += 1;
                        *n <= args.max_per_signature
                    };
                    let saved = if take {
                        let (path, how) = minimize_and_save(&ctx, args, &g, bug, pseed, index);
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
                let mut t = totals.lock().unwrap();
                t.programs += 1;
                t.bounded += u64::from(g.program.bounded);
                t.witnesses += u64::from(g.witness.is_some());
                t.concrete_false += u64::from(report.concrete_error);
                t.truth_false += u64::from(report.truth_false);
                t.generator_problems += u64::from(report.generator_problem.is_some());
                t.buggy_programs += u64::from(!report.bugs.is_empty());
                for r in &report.runs {
                    t.runs += 1;
                    *t.verdicts
                        .entry(r.preset.clone())
                        .or_default()
                        .entry(r.label().to_string())
                        .or_default() += 1;
                    *t.seconds.entry(r.preset.clone()).or_default() += r.seconds;
                    if r.verdict == "unknown" && matches!(r.status, Status::Done) {
                        *t.reasons
                            .entry(reason_class(&r.reason))
                            .or_default()
                            .entry(r.preset.clone())
                            .or_default() += 1;
                    }
                }
                for b in &report.bugs {
                    *t.bugs.entry(b.kind.name().to_string()).or_default() += 1;
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&tmp);
    let t = totals.into_inner().unwrap();
    let per_preset: Vec<String> = presets
        .iter()
        .map(|p| {
            let v = t.verdicts.get(p).cloned().unwrap_or_default();
            let n = |k: &str| v.get(k).copied().unwrap_or(0);
            format!(
                "{p}: {} true, {} false, {} unknown, {} slow, {} stuck, {} crash ({:.1} s)",
                n("true"),
                n("false"),
                n("unknown"),
                n("slow"),
                n("stuck"),
                n("crash"),
                t.seconds.get(p).copied().unwrap_or(0.0)
            )
        })
        .collect();
    for line in &per_preset {
        println!("  {line}");
    }
    if !t.reasons.is_empty() {
        println!("  UNKNOWN reasons:");
        for (reason, by) in &t.reasons {
            let by: Vec<String> = by.iter().map(|(p, n)| format!("{p} {n}")).collect();
            println!("    {reason}: {}", by.join(", "));
        }
    }
    let bugs_total: u64 = t.bugs.values().sum();
    let kinds: Vec<String> = t.bugs.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let distinct: BTreeSet<&String> = t.signatures.keys().collect();
    println!(
        "fuzz: seed {}, programs {} ({} bounded, {} with a planted witness, {} FALSE established, {} of them by random runs), runs {}, bugs {bugs_total} in {} programs{} ({} signatures), generator problems {}, saved {}, time {:.0} s",
        args.seed,
        t.programs,
        t.bounded,
        t.witnesses,
        t.truth_false,
        t.concrete_false,
        t.runs,
        t.buggy_programs,
        if kinds.is_empty() { String::new() } else { format!(": {}", kinds.join(", ")) },
        distinct.len(),
        t.generator_problems,
        t.saved.len(),
        started.elapsed().as_secs_f64()
    );
    if bugs_total > 0 || t.generator_problems > 0 {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

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

/// Progress shared with the heartbeat thread (milliseconds since the start; 0: idle).
#[derive(Default)]
struct Progress {
    units: AtomicU64,
    unit_since: AtomicU64,
    calls: AtomicU64,
    call_since: AtomicU64,
}

struct Watched<S> {
    inner: S,
    progress: std::sync::Arc<Progress>,
    start: Instant,
    last_query: Option<String>,
}

impl<S: solver_bridge::solver::Solver> solver_bridge::solver::Solver for Watched<S> {
    fn eval(&mut self, text: &str) -> Result<String, solver_bridge::solver::SolverError> {
        let now = self.start.elapsed().as_millis() as u64;
        if let Some(p) = &self.last_query {
            let _ = std::fs::write(p, text);
        }
        self.progress.call_since.store(now.max(1), Ordering::SeqCst);
        let r = self.inner.eval(text);
        self.progress.call_since.store(0, Ordering::SeqCst);
        self.progress.calls.fetch_add(1, Ordering::SeqCst);
        r
    }
}

pub fn run_verify_child(args: &FuzzVerifyArgs) -> ExitCode {
    use cpa_engine::session::Session;
    use cpa_engine::smt::BridgeSmt;
    use cpa_engine::verdict::Verdict;
    use std::sync::Arc;
    let config = match crate::cmd_verify::configure(&args.config, &args.set, None) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let Ok(parsed) = crate::input::load(&args.file) else {
        return ExitCode::from(1);
    };
    let progress = Arc::new(Progress::default());
    let start = Instant::now();
    let z3 = match solver_bridge::solver::NativeZ3::new() {
        Ok(z) => z,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let solver = Watched {
        inner: z3,
        progress: progress.clone(),
        start,
        last_query: args.last_query.clone(),
    };
    let hb = progress.clone();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(250));
        let now = start.elapsed().as_millis() as u64;
        let since = |a: &AtomicU64| match a.load(Ordering::SeqCst) {
            0 => 0,
            t => now.saturating_sub(t),
        };
        eprintln!(
            "heartbeat units={} calls={} unit_ms={} call_ms={}",
            hb.units.load(Ordering::SeqCst),
            hb.calls.load(Ordering::SeqCst),
            since(&hb.unit_since),
            since(&hb.call_since)
        );
    });
    let mut session = Session::new(
        std::rc::Rc::new(parsed.cfa),
        config,
        Box::new(BridgeSmt::new(solver)),
    );
    loop {
        let now = start.elapsed().as_millis() as u64;
        progress.unit_since.store(now.max(1), Ordering::SeqCst);
        let more = session.step_unit();
        progress.units.fetch_add(1, Ordering::SeqCst);
        if !more {
            break;
        }
    }
    let verdict = session.verdict().cloned().unwrap_or(Verdict::Unknown {
        reason: "no verdict".into(),
    });
    let cex = match &verdict {
        Verdict::False { counterexample } => Some(
            counterexample
                .trace
                .iter()
                .map(|t| serde_json::json!({"line": t.line, "op": t.op, "values": t.values}))
                .collect::<Vec<_>>(),
        ),
        _ => None,
    };
    let s = session.stats();
    println!(
        "{}",
        serde_json::json!({
            "verdict": verdict.name(),
            "reason": verdict.reason(),
            "stats": {"steps": s.steps, "states": s.states, "refinements": s.refinements, "solver_queries": s.solver_queries},
            "counterexample": cex,
        })
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use cpa_engine::concrete;
    use cpa_engine::fuzz::exec::SequenceOracle;

    const PROG: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x > 0) { x = x + 1; if (x < 0) reach_error(); }\n  return 0;\n}\n";

    fn run(preset: &str, verdict: &str, cex: Option<Vec<CexStep>>) -> RunResult {
        RunResult {
            preset: preset.into(),
            verdict: verdict.into(),
            reason: String::new(),
            seconds: 0.1,
            status: Status::Done,
            cex,
        }
    }

    fn real_cex(cfa: &cpa_engine::Cfa) -> Vec<CexStep> {
        let mut o = SequenceOracle::new(vec![2147483647]);
        let r = concrete::run(cfa, &mut o, 100);
        assert_eq!(r.outcome, concrete::Outcome::ReachedError);
        r.trace.iter().map(CexStep::from).collect()
    }

    #[test]
    fn a_true_against_a_replaying_counterexample_is_a_wrong_true() {
        let cfa = parse_program("t.c", PROG).unwrap().cfa;
        let runs = vec![
            run("predicate-lbe", "true", None),
            run("bmc", "false", Some(real_cex(&cfa))),
            run("kinduction", "unknown", None),
        ];
        let (bugs, is_false) = classify(&cfa, &runs, None);
        assert!(is_false);
        assert_eq!(bugs.len(), 1);
        assert_eq!(bugs[0].kind, BugKind::WrongTrue);
        assert_eq!(bugs[0].presets, vec!["predicate-lbe".to_string()]);
        assert_eq!(bugs[0].witnesses, vec!["bmc".to_string()]);
        // A concrete run alone is evidence too.
        let (bugs, _) = classify(&cfa, &runs[..1], Some("a run".into()));
        assert_eq!(bugs[0].kind, BugKind::WrongTrue);
        // Agreement is no bug.
        let (bugs, is_false) = classify(
            &cfa,
            &[run("a", "true", None), run("b", "true", None)],
            None,
        );
        assert!(bugs.is_empty() && !is_false);
    }

    #[test]
    fn a_counterexample_that_does_not_replay_is_a_bug_and_no_evidence() {
        let cfa = parse_program("t.c", PROG).unwrap().cfa;
        let mut cex = real_cex(&cfa);
        for s in &mut cex {
            if let Some(x) = s.values.get_mut("x") {
                *x = 5;
            }
        }
        let runs = vec![
            run("predicate-lbe", "true", None),
            run("bmc", "false", Some(cex)),
        ];
        let (bugs, is_false) = classify(&cfa, &runs, None);
        assert!(!is_false);
        assert_eq!(bugs.len(), 1);
        assert_eq!(bugs[0].kind, BugKind::BadCex);
        let (bugs, _) = classify(&cfa, &[run("bmc", "false", None)], None);
        assert_eq!(bugs[0].kind, BugKind::BadCex);
    }

    #[test]
    fn certificate_failures_stuck_runs_and_crashes_are_bugs_slow_runs_are_not() {
        let cfa = parse_program("t.c", PROG).unwrap().cfa;
        let mut cert = run("impact", "unknown", None);
        cert.reason = "internal: certificate check failed".into();
        let mut stuck = run("predicate-lbe", "unknown", None);
        stuck.status = Status::Timeout { stuck: true };
        let mut slow = run("predicate-sbe", "unknown", None);
        slow.status = Status::Timeout { stuck: false };
        let mut crash = run("bmc", "unknown", None);
        crash.status = Status::Crash("signal 6".into());
        let (bugs, _) = classify(&cfa, &[cert, stuck, slow, crash], None);
        let kinds: Vec<BugKind> = bugs.iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            vec![BugKind::Crash, BugKind::Timeout, BugKind::Certificate]
        );
    }

    #[test]
    fn reasons_are_grouped_without_numbers() {
        assert_eq!(
            reason_class("solver query limit of 1500 reached"),
            "solver query limit of N reached"
        );
        assert_eq!(
            reason_class("interpolation: unexpected solver reply (expected a goals answer)"),
            "interpolation: unexpected solver reply"
        );
    }
}

//! What a program's runs say: the bugs (a wrong TRUE, a counterexample that does not replay,
//! a failed certificate, a stuck or crashed run), found by comparing the presets with each
//! other, with concrete runs and with the generator's witness; and their minimization.

use super::args::{FuzzArgs, BMC_TRUTH_K, FUZZ_LIMITS, STEP_CAP};
use super::child::{run_child, RunResult, Status};
use super::text::{clip, short};
use cpa_engine::fuzz::ast::Program;
use cpa_engine::fuzz::exec::{random_runs, replay_counterexample, run_inputs};
use cpa_engine::fuzz::gen::Generated;
use cpa_engine::fuzz::minimize::minimize;
use cpa_engine::parse_program;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BugKind {
    Crash,
    Timeout,
    WrongTrue,
    BadCex,
    Certificate,
}

impl BugKind {
    pub(super) fn name(self) -> &'static str {
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
    pub(super) fn signature(&self) -> String {
        format!("{} {}", self.kind.name(), self.presets.join(","))
    }
}

/// The evidence that a program is FALSE, if any.
#[derive(Clone, Debug, Default)]
pub(super) struct Evidence {
    /// A concrete run reached the error (which one).
    concrete: Option<String>,
    /// Presets whose counterexample replays.
    replayed: Vec<String>,
}

impl Evidence {
    pub(super) fn any(&self) -> bool {
        self.concrete.is_some() || !self.replayed.is_empty()
    }

    pub(super) fn describe(&self) -> String {
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

pub(super) struct Ctx {
    pub(super) presets: Vec<String>,
    pub(super) sets: Vec<String>,
    pub(super) timeout: Duration,
    pub(super) runs: usize,
    pub(super) tmp: PathBuf,
    pub(super) file_counter: AtomicU64,
}

impl Ctx {
    pub(super) fn temp_file(&self, text: &str) -> PathBuf {
        let n = self.file_counter.fetch_add(1, Ordering::SeqCst);
        let p = self.tmp.join(format!("p{n}.c"));
        let _ = std::fs::write(&p, text);
        p
    }

    pub(super) fn sets_for(&self, preset: &str, bounded: bool) -> Vec<String> {
        let mut s: Vec<String> = FUZZ_LIMITS.iter().map(|x| x.to_string()).collect();
        if preset == "bmc" && bounded {
            s.push(format!("k-max={BMC_TRUTH_K}"));
        }
        s.extend(self.sets.iter().cloned());
        s
    }

    pub(super) fn run(&self, file: &Path, preset: &str, bounded: bool) -> RunResult {
        run_child(file, preset, &self.sets_for(preset, bounded), self.timeout)
    }
}

/// Concrete evidence: the witness, then random runs.
pub(super) fn concrete_evidence(
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

pub(super) fn check_program(ctx: &Ctx, g: &Generated, seed: u64) -> ProgramReport {
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
pub(super) fn still_fails(ctx: &Ctx, bug: &Bug, p: &Program, seed: u64) -> bool {
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
pub(super) fn minimize_and_save(
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
        "// fuzz: {} from {}, found by `cpa fuzz{} --seed {} --start {index} --count 1`\n",
        bug.kind.name(),
        bug.presets.join(", "),
        if args.memory { " --memory" } else { "" },
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

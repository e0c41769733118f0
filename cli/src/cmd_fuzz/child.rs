//! One verification of a generated program in a child process: `run_child` starts `cpa
//! fuzz-verify` with a wall-clock timeout and reads its verdict; `run_verify_child` is that
//! child, `cpa verify --json` with a heartbeat that tells a stuck step from a slow run.

use super::args::FuzzVerifyArgs;
use cpa_engine::fuzz::exec::CexStep;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

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
    pub(super) fn label(&self) -> &str {
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

/// Progress shared with the heartbeat thread (milliseconds since the start; 0: idle).
#[derive(Default)]
pub(super) struct Progress {
    units: AtomicU64,
    unit_since: AtomicU64,
    calls: AtomicU64,
    call_since: AtomicU64,
}

pub(super) struct Watched<S> {
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

//! `cpa bench TASKS.tsv [--config PRESET]... [--max-steps N] [--timeout SECS] [--set K=V]...`:
//! runs every task with every preset and compares with the expected verdict. Each run is a
//! child `cpa verify --json` process, so a wall-clock timeout (a property of the benchmark
//! harness, never of the engine) stops it cleanly. `--jobs N` runs N children at once; rows
//! are printed in task order. The exit code is 3 when any verdict is wrong.

use crate::task;
use clap::Args;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct BenchArgs {
    /// A tasks.tsv with the columns `path` and `expected` (`true`/`false`), SV-COMP task
    /// definitions (`.yml`, the expected verdict of their unreach-call property), or
    /// directories searched for task definitions (several may be given, e.g. a shell glob).
    #[arg(required = true)]
    pub tasks: Vec<String>,
    /// Presets to run (repeatable); default portfolio.
    #[arg(long = "config")]
    pub configs: Vec<String>,
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Wall-clock limit per run, in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Only tasks whose path contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    /// Write all results as JSON lines to this file.
    #[arg(long)]
    pub output: Option<String>,
    /// Runs at the same time (each is one process; timings are comparable only between runs
    /// with the same value).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Write a witness for every TRUE and FALSE and check it with `cpa validate-witness`
    /// (same timeout); the result is the row's `witness` field.
    #[arg(long)]
    pub witnesses: bool,
}

#[derive(Clone, Debug)]
pub struct Row {
    pub path: String,
    pub expected: String,
    pub verdict: String,
    pub reason: String,
    pub seconds: f64,
    pub stats: Value,
    /// With `--witnesses`: what `cpa validate-witness` said about the run's witness.
    pub witness: Option<String>,
}

impl Row {
    pub fn outcome(&self) -> &'static str {
        match self.verdict.as_str() {
            "true" | "false" if self.verdict == self.expected => "correct",
            "true" | "false" => "WRONG",
            _ => "unknown",
        }
    }
}

/// One task: the path shown, the file to verify, the expected verdict.
type TaskRow = (String, PathBuf, String);

fn read_tsv(path: &str) -> Result<Vec<TaskRow>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let base = Path::new(path).parent().unwrap_or(Path::new("."));
    let mut lines = text.lines();
    let header: Vec<&str> = lines
        .next()
        .ok_or("empty tasks file")?
        .split('\t')
        .collect();
    let pi = header
        .iter()
        .position(|h| *h == "path")
        .ok_or("no 'path' column")?;
    let ei = header
        .iter()
        .position(|h| *h == "expected")
        .ok_or("no 'expected' column")?;
    Ok(lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let path = cols.get(pi).unwrap_or(&"").to_string();
            let file = base.join(&path);
            (path, file, cols.get(ei).unwrap_or(&"").to_string())
        })
        .collect())
}

/// The tasks of the arguments: rows of tsv files, task definitions given or found in
/// directories (those without an expected unreach-call verdict are skipped).
fn read_tasks(args: &[String]) -> Result<Vec<TaskRow>, String> {
    let mut rows = Vec::new();
    for a in args {
        let path = Path::new(a);
        let (base, defs) = if path.is_dir() {
            (path.to_path_buf(), task::task_definitions(path)?)
        } else if task::is_task_definition(path) {
            let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
            (base, vec![path.to_path_buf()])
        } else {
            rows.extend(read_tsv(a)?);
            continue;
        };
        for d in defs {
            let t = task::read_task(&d, None).map_err(|e| format!("{}: {e}", d.display()))?;
            let Some(expected) = t.expected else {
                continue;
            };
            let shown = d.strip_prefix(&base).unwrap_or(&d).display().to_string();
            rows.push((shown, d, expected.to_string()));
        }
    }
    Ok(rows)
}

/// Runs one task with one preset in a child process.
pub fn run_one(
    file: &Path,
    preset: &str,
    sets: &[String],
    max_steps: Option<u64>,
    timeout: Duration,
    witness: Option<&Path>,
) -> (String, String, f64, Value) {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("cpa"));
    let mut cmd = Command::new(exe);
    // SV-COMP's tasks: only reach_error() is an error (a task definition may name
    // unreach-label instead; then that is checked).
    let spec = if task::is_task_definition(file) {
        task::read_task(file, None)
            .map(|t| t.property.name())
            .unwrap_or("unreach-call")
    } else {
        "unreach-call"
    };
    cmd.arg("verify")
        .arg(file)
        .arg("--spec")
        .arg(spec)
        .arg("--config")
        .arg(preset)
        .arg("--json");
    if let Some(w) = witness {
        cmd.arg("--witness").arg(w);
    }
    for s in sets {
        cmd.arg("--set").arg(s);
    }
    if let Some(n) = max_steps {
        cmd.arg("--max-steps").arg(n.to_string());
    }
    let (out, err, seconds) = match run_child(cmd, timeout) {
        Ok(r) => r,
        Err((reason, seconds)) => return ("unknown".into(), reason, seconds, Value::Null),
    };
    match serde_json::from_str::<Value>(out.trim()) {
        Ok(v) => {
            let mut stats = v["stats"].clone();
            // A portfolio's deciding component goes with the counters.
            if let (Some(d), Some(s)) = (v.get("decided_by"), stats.as_object_mut()) {
                s.insert("decided_by".into(), d.clone());
            }
            (
                v["verdict"].as_str().unwrap_or("unknown").to_string(),
                v["reason"].as_str().unwrap_or("").to_string(),
                seconds,
                stats,
            )
        }
        Err(_) => (
            "unknown".into(),
            format!("error: {}", err.lines().next().unwrap_or("no output")),
            seconds,
            Value::Null,
        ),
    }
}

/// `cpa validate-witness` on a run's witness: its first line of output (or of errors).
fn validate_witness(file: &Path, witness: &Path, timeout: Duration) -> String {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("cpa"));
    let mut cmd = Command::new(exe);
    cmd.arg("validate-witness").arg(file).arg(witness);
    match run_child(cmd, timeout) {
        Ok((out, err, _)) => {
            let line = match out.lines().next() {
                Some(l) => l.to_string(),
                None => format!("error: {}", err.lines().next().unwrap_or("no output")),
            };
            line.chars().take(300).collect()
        }
        Err((reason, _)) => format!("unknown: {reason}"),
    }
}

/// Runs a child process to its end or the timeout: its stdout, stderr and time, or why not.
/// Both outputs are read while the child runs (a child that writes more than a pipe holds
/// would otherwise wait for a reader forever).
fn run_child(mut cmd: Command, timeout: Duration) -> Result<(String, String, f64), (String, f64)> {
    // The child gets its own process group so that a timeout stops its z3 processes too
    // (killing only `cpa verify` left z3 running a query it may never finish).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let start = Instant::now();
    let mut child = match cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn() {
        Ok(c) => c,
        Err(e) => return Err((format!("cannot start: {e}"), 0.0)),
    };
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut text);
            }
            text
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > timeout => {
                #[cfg(unix)]
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .status();
                let _ = child.kill();
                let _ = child.wait();
                return Err((
                    format!("timeout ({} s)", timeout.as_secs_f64()),
                    start.elapsed().as_secs_f64(),
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err((e.to_string(), 0.0)),
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    Ok((out, err, seconds))
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let tasks = match read_tasks(&args.tasks) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let configs = if args.configs.is_empty() {
        vec!["portfolio".to_string()]
    } else {
        args.configs.clone()
    };
    for c in &configs {
        if let Err(e) = crate::cmd_verify::configure(c, &args.set, args.max_steps) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    let selected: Vec<&TaskRow> = tasks
        .iter()
        .filter(|(path, _, _)| {
            args.filter
                .as_ref()
                .is_none_or(|f| path.contains(f.as_str()))
        })
        .collect();
    let out_file = Mutex::new(
        args.output
            .as_ref()
            .and_then(|p| std::fs::File::create(p).ok()),
    );
    let timeout = Duration::from_secs_f64(args.timeout.max(0.1));
    let mut any_wrong = false;
    for preset in &configs {
        println!("# {preset}");
        println!(
            "{:<50} {:>8} {:>8} {:>8} {:>8} {:>7} {:>6} {:>8} {:>9}  reason",
            "task",
            "expected",
            "verdict",
            "outcome",
            "time(s)",
            "states",
            "refs",
            "queries",
            "solver(s)"
        );
        // Finished rows, and how many of them (in task order) are printed.
        let progress: Mutex<(Vec<Option<Row>>, usize)> =
            Mutex::new((vec![None; selected.len()], 0));
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..args.jobs.max(1) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some((path, file, expected)) = selected.get(i) else {
                        break;
                    };
                    let witness_file = args.witnesses.then(|| {
                        std::env::temp_dir()
                            .join(format!("cpa-bench-{}-{preset}-{i}.yml", std::process::id()))
                    });
                    let (verdict, reason, seconds, stats) = run_one(
                        file,
                        preset,
                        &args.set,
                        args.max_steps,
                        timeout,
                        witness_file.as_deref(),
                    );
                    let witness = match &witness_file {
                        Some(w) if verdict == "true" || verdict == "false" => {
                            let said = validate_witness(file, w, timeout);
                            let _ = std::fs::remove_file(w);
                            Some(said)
                        }
                        _ => None,
                    };
                    let mut guard = progress.lock().unwrap();
                    let (rows, printed) = &mut *guard;
                    rows[i] = Some(Row {
                        path: path.clone(),
                        expected: expected.clone(),
                        verdict,
                        reason,
                        seconds,
                        stats,
                        witness,
                    });
                    while let Some(Some(row)) = rows.get(*printed) {
                        print_row(preset, row, &mut out_file.lock().unwrap());
                        *printed += 1;
                    }
                });
            }
        });
        let rows: Vec<Row> = progress
            .into_inner()
            .unwrap()
            .0
            .into_iter()
            .flatten()
            .collect();
        any_wrong |= summarize(&rows, args.witnesses);
    }
    if any_wrong {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints a preset's summary lines (correct, wrong, unknown; witnesses; time); whether any
/// verdict was wrong.
fn summarize(rows: &[Row], witnesses: bool) -> bool {
    let correct_true = rows
        .iter()
        .filter(|r| r.outcome() == "correct" && r.verdict == "true")
        .count();
    let correct_false = rows
        .iter()
        .filter(|r| r.outcome() == "correct" && r.verdict == "false")
        .count();
    let wrong = rows.iter().filter(|r| r.outcome() == "WRONG").count();
    let unknown = rows.iter().filter(|r| r.outcome() == "unknown").count();
    let total: f64 = rows.iter().map(|r| r.seconds).sum();
    let solver: f64 = rows
        .iter()
        .map(|r| r.stats["solver_ms"].as_f64().unwrap_or(0.0) / 1000.0)
        .sum();
    println!(
        "correct: {} (true: {correct_true}, false: {correct_false}), wrong: {wrong}, unknown: {unknown}",
        correct_true + correct_false
    );
    if witnesses {
        let with: Vec<&Row> = rows.iter().filter(|r| r.witness.is_some()).collect();
        let confirmed = |v: &str| {
            with.iter()
                .filter(|r| r.verdict == v && r.witness.as_deref() == Some("confirmed"))
                .count()
        };
        let of = |v: &str| with.iter().filter(|r| r.verdict == v).count();
        println!(
            "witnesses confirmed: {} of {} (violation: {} of {}, correctness: {} of {})",
            confirmed("true") + confirmed("false"),
            with.len(),
            confirmed("false"),
            of("false"),
            confirmed("true"),
            of("true")
        );
    }
    println!(
        "time: {total:.2} s total, {:.0}% in the solver",
        if total > 0.0 {
            100.0 * solver / total
        } else {
            0.0
        }
    );
    wrong > 0
}

fn print_row(preset: &str, row: &Row, out_file: &mut Option<std::fs::File>) {
    println!(
        "{:<50} {:>8} {:>8} {:>8} {:>8.2} {:>7} {:>6} {:>8} {:>9.2}  {}",
        row.path,
        row.expected,
        row.verdict,
        row.outcome(),
        row.seconds,
        row.stats["states"].as_u64().unwrap_or(0),
        row.stats["refinements"].as_u64().unwrap_or(0),
        row.stats["solver_queries"].as_u64().unwrap_or(0),
        row.stats["solver_ms"].as_f64().unwrap_or(0.0) / 1000.0,
        match &row.witness {
            Some(w) => format!("{} [witness: {w}]", row.reason),
            None => row.reason.clone(),
        }
    );
    if let Some(f) = out_file.as_mut() {
        use std::io::Write;
        let _ = writeln!(
            f,
            "{}",
            serde_json::json!({"config": preset, "path": row.path, "expected": row.expected, "verdict": row.verdict, "outcome": row.outcome(), "seconds": row.seconds, "reason": row.reason, "stats": row.stats, "witness": row.witness})
        );
    }
}

//! `cpa fuzz-frontend --seed S --count N [--jobs J] [--out DIR]`: feeds mutated inputs
//! (`cpa_engine::fuzz::mutate`, built from the C files under `tests/` and `examples/` and from
//! generated programs) to the front end, and for every input that parses, to LBE and the
//! report (`cpa_engine::report::cfa_report`), in process under `catch_unwind`.
//!
//! Inputs are handled in chunks, each by a child `cpa fuzz-frontend --worker` process that runs
//! the front end on a thread with a 1 MiB stack (the stack of the engine in the browser's wasm
//! worker), so that an abort (a stack overflow) or a hang loses only that child: the chunk is
//! bisected in further children down to the input responsible. Reported: panics, aborts, hangs,
//! inputs slower than `--slow` seconds, rejections without a diagnostic or with a position
//! outside the input. Each reported input is saved under `--out`. The exit code is 3 when
//! anything was reported.

use clap::Args;
use cpa_engine::fuzz::mutate::mutant;
use cpa_engine::report::cfa_report;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Args, Clone)]
pub struct FuzzFrontendArgs {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of inputs.
    #[arg(long, default_value_t = 10_000)]
    pub count: u64,
    /// Index of the first input.
    #[arg(long, default_value_t = 0)]
    pub start: u64,
    /// Worker processes at the same time.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Inputs per worker process.
    #[arg(long, default_value_t = 5000)]
    pub chunk: u64,
    /// An input taking longer than this (seconds) is reported.
    #[arg(long, default_value_t = 1.0)]
    pub slow: f64,
    /// Directories whose .c and .i files (up to 20 KB) are the corpus; default tests and
    /// examples (without tests/fuzz-findings).
    #[arg(long = "corpus")]
    pub corpus: Vec<String>,
    /// Where reported inputs are saved.
    #[arg(long, default_value = "tests/fuzz-findings")]
    pub out: String,
    /// Stack of the thread that runs the front end, in KiB.
    #[arg(long, default_value_t = 1024)]
    pub stack_kib: usize,
    /// Print the input with this index and exit.
    #[arg(long)]
    pub show: Option<u64>,
    /// Run inputs [start, start+count) in this process (used by the parent).
    #[arg(long, hide = true)]
    pub worker: bool,
}

fn default_corpus_dirs() -> Vec<PathBuf> {
    let here = Path::new("tests");
    let root = if here.is_dir() {
        PathBuf::from(".")
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    };
    vec![root.join("tests"), root.join("examples")]
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "fuzz-findings") {
                continue;
            }
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "c" || x == "i")
            && e.metadata().is_ok_and(|m| m.len() <= 20_000)
        {
            out.push(p);
        }
    }
}

/// The corpus, sorted by path so that every process sees the same list.
pub fn load_corpus(dirs: &[String]) -> Vec<String> {
    let dirs: Vec<PathBuf> = if dirs.is_empty() {
        default_corpus_dirs()
    } else {
        dirs.iter().map(PathBuf::from).collect()
    };
    let mut files = Vec::new();
    for d in &dirs {
        collect(d, &mut files);
    }
    files.sort();
    files
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect()
}

static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);

/// What one input did, if worth reporting.
fn check_input(input: &str) -> Result<bool, (String, String)> {
    check_with(input, |s| cfa_report("fuzz.c", s))
}

/// `Ok(parsed)`, or the kind of finding and its message.
fn check_with(
    input: &str,
    front_end: impl Fn(&str) -> cpa_engine::report::CfaReport + std::panic::UnwindSafe,
) -> Result<bool, (String, String)> {
    *PANIC_MESSAGE.lock().unwrap() = None;
    let result = std::panic::catch_unwind(move || front_end(input));
    match result {
        Err(_) => {
            let msg = PANIC_MESSAGE
                .lock()
                .unwrap()
                .take()
                .unwrap_or_else(|| "panic".into());
            Err(("panic".into(), msg))
        }
        Ok(r) if r.ok => Ok(true),
        Ok(r) => {
            let lines = input.split('\n').count() as u32;
            if r.diagnostics.is_empty() {
                return Err((
                    "bad-diagnostic".into(),
                    "rejected without a diagnostic".into(),
                ));
            }
            for d in &r.diagnostics {
                if d.span.start_line < 1 || d.span.start_col < 1 || d.span.start_line > lines + 1 {
                    return Err((
                        "bad-diagnostic".into(),
                        format!(
                            "position {}:{} outside the input ({lines} lines): {}",
                            d.span.start_line, d.span.start_col, d.message
                        ),
                    ));
                }
            }
            Ok(false)
        }
    }
}

/// Panics are recorded (for the report), not printed.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        *PANIC_MESSAGE.lock().unwrap() = Some(info.to_string());
    }));
}

/// Worker: runs the inputs, prints one JSON line per finding and a final summary line.
fn worker(args: &FuzzFrontendArgs) -> ExitCode {
    quiet_panics();
    let corpus = load_corpus(&args.corpus);
    let a = args.clone();
    let handle = std::thread::Builder::new()
        .stack_size(args.stack_kib * 1024)
        .spawn(move || {
            let stdout = std::io::stdout();
            let (mut parsed, mut max_ms, mut max_index) = (0u64, 0.0f64, a.start);
            for i in a.start..a.start + a.count {
                let input = mutant(a.seed, i, &corpus);
                let t = Instant::now();
                let r = check_input(&input);
                let mut ms = t.elapsed().as_secs_f64() * 1e3;
                // A slow input is timed twice more (the best time counts), so that a busy
                // machine does not make it a finding.
                for _ in 0..2 {
                    if ms > a.slow * 1e3 {
                        let t = Instant::now();
                        let _ = check_input(&input);
                        ms = ms.min(t.elapsed().as_secs_f64() * 1e3);
                    }
                }
                if ms > max_ms {
                    max_ms = ms;
                    max_index = i;
                }
                let mut out = stdout.lock();
                match r {
                    Ok(ok) => parsed += u64::from(ok),
                    Err((kind, msg)) => {
                        let _ = writeln!(out, "{}", json!({"index": i, "kind": kind, "message": msg}));
                    }
                }
                if ms > a.slow * 1e3 {
                    let _ = writeln!(
                        out,
                        "{}",
                        json!({"index": i, "kind": "slow", "message": format!("{ms:.0} ms")})
                    );
                }
                let _ = out.flush();
            }
            let _ = writeln!(
                stdout.lock(),
                "{}",
                json!({"summary": {"inputs": a.count, "parsed": parsed, "max_ms": max_ms, "max_index": max_index}})
            );
        });
    match handle.map(|h| h.join()) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        _ => ExitCode::from(101),
    }
}

#[derive(Clone, Debug)]
struct Finding {
    kind: String,
    message: String,
}

#[derive(Default)]
struct ChunkResult {
    findings: BTreeMap<u64, Finding>,
    parsed: u64,
    max_ms: f64,
    max_index: u64,
    /// Worker processes started (bisection included).
    workers: u64,
}

/// Runs inputs [a, a+n) in a worker; a worker that dies or hangs is bisected.
fn run_range(args: &FuzzFrontendArgs, a: u64, n: u64, res: &mut ChunkResult) {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("cpa"));
    let mut cmd = Command::new(exe);
    cmd.arg("fuzz-frontend")
        .arg("--worker")
        .args(["--seed", &args.seed.to_string()])
        .args(["--start", &a.to_string()])
        .args(["--count", &n.to_string()])
        .args(["--slow", &args.slow.to_string()])
        .args(["--stack-kib", &args.stack_kib.to_string()]);
    for c in &args.corpus {
        cmd.args(["--corpus", c]);
    }
    res.workers += 1;
    let timeout = Duration::from_secs_f64(60.0 + n as f64 * (0.05 + args.slow));
    let start = Instant::now();
    let mut child = match cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            res.findings.insert(
                a,
                Finding {
                    kind: "error".into(),
                    message: format!("cannot start a worker: {e}"),
                },
            );
            return;
        }
    };
    let stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        if let Some(s) = stdout {
            for l in BufReader::new(s).lines().map_while(Result::ok) {
                lines.push(l);
            }
        }
        lines
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    let lines = reader.join().unwrap_or_default();
    let mut summary = None;
    let mut seen = Vec::new();
    for l in &lines {
        let Ok(v) = serde_json::from_str::<Value>(l) else {
            continue;
        };
        if let Some(s) = v.get("summary") {
            summary = Some(s.clone());
        } else if let Some(i) = v["index"].as_u64() {
            seen.push((
                i,
                Finding {
                    kind: v["kind"].as_str().unwrap_or("").to_string(),
                    message: v["message"].as_str().unwrap_or("").to_string(),
                },
            ));
        }
    }
    match (status, summary) {
        (Some(st), Some(s)) if st.success() => {
            res.findings.extend(seen);
            res.parsed += s["parsed"].as_u64().unwrap_or(0);
            let ms = s["max_ms"].as_f64().unwrap_or(0.0);
            if ms > res.max_ms {
                res.max_ms = ms;
                res.max_index = s["max_index"].as_u64().unwrap_or(a);
            }
        }
        (status, _) => {
            if n == 1 {
                let kind = if status.is_none() { "hang" } else { "abort" };
                let message = match status {
                    None => format!("no result after {:.0} s", timeout.as_secs_f64()),
                    Some(st) => format!("the process died: {st}"),
                };
                res.findings.insert(
                    a,
                    Finding {
                        kind: kind.into(),
                        message,
                    },
                );
            } else {
                let h = n / 2;
                run_range(args, a, h, res);
                run_range(args, a + h, n - h, res);
            }
        }
    }
}

pub fn run(args: &FuzzFrontendArgs) -> ExitCode {
    if args.worker {
        return worker(args);
    }
    let corpus = load_corpus(&args.corpus);
    if let Some(i) = args.show {
        print!("{}", mutant(args.seed, i, &corpus));
        return ExitCode::SUCCESS;
    }
    let started = Instant::now();
    let chunk = args.chunk.max(1);
    let chunks: Vec<(u64, u64)> = (0..args.count.div_ceil(chunk))
        .map(|k| {
            let a = args.start + k * chunk;
            (a, chunk.min(args.start + args.count - a))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let total = Mutex::new(ChunkResult::default());
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(a, n)) = chunks.get(k) else {
                    break;
                };
                let mut r = ChunkResult::default();
                run_range(args, a, n, &mut r);
                for (i, f) in &r.findings {
                    let input = mutant(args.seed, *i, &corpus);
                    let _ = std::fs::create_dir_all(&args.out);
                    let path = Path::new(&args.out)
                        .join(format!("frontend-{}-s{}-i{i}.c", f.kind, args.seed));
                    let _ = std::fs::write(&path, &input);
                    println!(
                        "BUG frontend {} input {i} (seed {}): {}; saved {}",
                        f.kind,
                        args.seed,
                        f.message.replace('\n', " "),
                        path.display()
                    );
                }
                let mut t = total.lock().unwrap();
                t.findings.extend(r.findings);
                t.parsed += r.parsed;
                t.workers += r.workers;
                if r.max_ms > t.max_ms {
                    t.max_ms = r.max_ms;
                    t.max_index = r.max_index;
                }
            });
        }
    });
    let t = total.into_inner().unwrap();
    let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
    for f in t.findings.values() {
        *kinds.entry(f.kind.as_str()).or_default() += 1;
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "fuzz-frontend: seed {}, inputs {} ({} from index {}), parsed {}, rejected {}, findings {}{}, slowest input {} ({:.1} ms), corpus {} files, workers {}, time {:.0} s",
        args.seed,
        args.count,
        args.count,
        args.start,
        t.parsed,
        args.count - t.parsed,
        t.findings.len(),
        if kinds.is_empty() { String::new() } else { format!(" ({})", kinds.join(", ")) },
        t.max_index,
        t.max_ms,
        corpus.len(),
        t.workers,
        started.elapsed().as_secs_f64()
    );
    if t.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cpa_engine::diag::{Diagnostic, Span};
    use cpa_engine::report::CfaReport;

    fn rejected(diagnostics: Vec<Diagnostic>) -> CfaReport {
        CfaReport {
            ok: false,
            diagnostics,
            cfa: None,
            lbe: None,
            replay: None,
        }
    }

    #[test]
    fn panics_and_bad_diagnostics_are_findings() {
        quiet_panics();
        let r = check_with("x", |_| panic!("index out of bounds"));
        let (kind, msg) = r.unwrap_err();
        assert_eq!(kind, "panic");
        assert!(msg.contains("index out of bounds"), "{msg}");
        let r = check_with("x", |_| rejected(Vec::new()));
        assert_eq!(r.unwrap_err().0, "bad-diagnostic");
        let r = check_with("x\ny", |_| {
            rejected(vec![Diagnostic::error(Span::point(9, 1), "far away")])
        });
        assert_eq!(r.unwrap_err().0, "bad-diagnostic");
        let r = check_with("x\ny", |_| {
            rejected(vec![Diagnostic::error(Span::point(2, 1), "fine")])
        });
        assert_eq!(r, Ok(false));
        assert_eq!(check_input("int main(void) { return 0; }"), Ok(true));
    }
}

//! `cpa verify FILE [--config PRESET] [--set KEY=VALUE]... [--max-steps N] [--json]`.

use crate::input::load_for;
use crate::solver::native;
use crate::task;
use crate::witness;
use clap::Args;
use cpa_engine::config::Config;
use cpa_engine::session::{Session, Stats};
use cpa_engine::smt::BridgeSmt;
use cpa_engine::verdict::Verdict;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

#[derive(Args)]
pub struct VerifyArgs {
    /// A C file, or an SV-COMP task definition (`.yml`) naming one.
    pub file: String,
    /// An SV-COMP property file (`.prp`) or its name: `unreach-call` (only `reach_error()` is
    /// an error) or `unreach-label` (a statement labelled `ERROR:`). Without it (and without
    /// a task definition), failed assertions and `__assert_fail` are errors too.
    #[arg(long)]
    pub spec: Option<String>,
    /// Write a witness (SV-COMP format 2.0, YAML) to this file: a violation witness for FALSE,
    /// a correctness witness (loop invariants) for TRUE.
    #[arg(long)]
    pub witness: Option<String>,
    /// Configuration preset.
    #[arg(long, default_value = "predicate-lbe")]
    pub config: String,
    /// Override a knob of the preset (repeatable), e.g. `--set encoding=bv`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Stop after this many algorithm steps (UNKNOWN).
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also print the run's events (with `--json`: an `events` array; otherwise one JSON
    /// object per line before the statistics).
    #[arg(long)]
    pub events: bool,
}

/// The configuration the arguments ask for, or a usage error.
pub fn configure(preset: &str, sets: &[String], max_steps: Option<u64>) -> Result<Config, String> {
    let mut pairs = Vec::new();
    for s in sets {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| format!("--set expects KEY=VALUE, got '{s}'"))?;
        pairs.push((k.trim(), v.trim()));
    }
    let mut config = Config::build(preset, pairs)?;
    if let Some(n) = max_steps {
        config.limits.max_steps = n;
    }
    Ok(config)
}

pub struct Outcome {
    pub verdict: Verdict,
    /// Solver time of the certificate check (CEGAR runs that reached it).
    pub certificate_ms: Option<f64>,
    pub events: Vec<cpa_engine::events::Event>,
    pub stats: Stats,
    pub solver_ms: f64,
    pub total_ms: f64,
    /// After TRUE: the invariants the proof rests on (for a correctness witness).
    pub invariants: Vec<cpa_engine::invariants::LocationInvariant>,
}

/// Runs one verification natively.
pub fn verify(cfa: Rc<cpa_engine::Cfa>, config: Config) -> Result<Outcome, String> {
    let start = Instant::now();
    let (solver, nanos) = native().map_err(|e| e.to_string())?;
    let smt = BridgeSmt::new(solver);
    // Only to measure what the query cache saves (docs/benchmarks.md).
    let cache = std::env::var_os("CPA_NO_QUERY_CACHE").is_none();
    let mut session = Session::with_query_cache(cfa, config, Box::new(smt), cache);
    // Unit by unit, to attribute the solver time of the step that checked the certificate
    // (the last step of a CEGAR TRUE) to it.
    let mut certificate_ms = None;
    loop {
        let (before_ns, before_events) = (nanos.get(), session.events().len());
        let going = session.step_unit();
        if session.events()[before_events..]
            .iter()
            .any(|e| matches!(e, cpa_engine::events::Event::Certificate { .. }))
        {
            certificate_ms = Some((nanos.get() - before_ns) as f64 / 1e6);
        }
        if !going {
            break;
        }
    }
    // The verification's time ends here: copying its events out for the report is not part of
    // it (100,000 states' events with their labels).
    let total_ms = start.elapsed().as_secs_f64() * 1e3;
    let verdict = session
        .verdict()
        .cloned()
        .expect("a finished session has a verdict");
    Ok(Outcome {
        verdict,
        certificate_ms,
        events: session.events().to_vec(),
        stats: session.stats(),
        solver_ms: nanos.get() as f64 / 1e6,
        total_ms,
        invariants: session.invariants(),
    })
}

/// The C file to verify (the argument, or the one its task definition names) and the property
/// (`--spec`, or the task's; `None`: the playground's default), after it was found checkable;
/// `None` after printing why not.
fn program_of(args: &VerifyArgs) -> Option<(String, Option<task::Property>)> {
    let spec = match &args.spec {
        Some(p) => match task::read_property(Path::new(p)) {
            Ok(prop) => Some(prop),
            Err(e) => {
                eprintln!("{p}: error: {e}");
                return None;
            }
        },
        None => None,
    };
    let path = Path::new(&args.file);
    if task::is_task_definition(path) {
        return match task::read_task(path, spec) {
            Ok(t) => Some((t.program.display().to_string(), Some(t.property))),
            Err(e) => {
                eprintln!("{}: error: {e}", args.file);
                None
            }
        };
    }
    match spec {
        Some(p) if p.spec().is_none() => {
            eprintln!(
                "{}: error: {}",
                args.spec.as_deref().unwrap_or(""),
                task::unsupported(p)
            );
            None
        }
        _ => Some((args.file.clone(), spec)),
    }
}

/// Writes the witness of a run for `program` to `path`: a violation witness for FALSE, a
/// correctness witness for TRUE, nothing for UNKNOWN (said on stderr).
fn write_witness(
    path: &str,
    program: &str,
    cfa: &cpa_engine::Cfa,
    preset: &str,
    property: Option<task::Property>,
    out: &Outcome,
) -> Result<(), String> {
    let source = std::fs::read(program).map_err(|e| format!("cannot read {program}: {e}"))?;
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| program.to_string());
    // The hash in the metadata is of the file's bytes: read as text only when it is text.
    let text = String::from_utf8(source).map_err(|_| format!("{program} is not UTF-8 text"))?;
    let Some(mut entry) = cpa_engine::witness::of_run(
        cfa,
        &name,
        &text,
        preset,
        &out.verdict,
        &out.invariants,
        witness::now(),
    ) else {
        eprintln!("note: no witness written: the verdict is UNKNOWN");
        return Ok(());
    };
    if let Some(formula) = property.and_then(task::Property::formula) {
        entry.metadata_mut().task.specification = formula.into();
    }
    std::fs::write(path, cpa_engine::witness::to_yaml(&[entry]))
        .map_err(|e| format!("cannot write: {e}"))
}

pub fn run(args: &VerifyArgs) -> ExitCode {
    let config = match configure(&args.config, &args.set, args.max_steps) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let Some((program, property)) = program_of(args) else {
        return ExitCode::from(1);
    };
    let spec = property.and_then(task::Property::spec).unwrap_or_default();
    let Ok(parsed) = load_for(&program, spec) else {
        return ExitCode::from(1);
    };
    let preset = config.preset.name();
    let cfa = Rc::new(parsed.cfa);
    let out = match verify(cfa.clone(), config) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(path) = &args.witness {
        if let Err(e) = write_witness(path, &program, &cfa, preset, property, &out) {
            eprintln!("{path}: error: {e}");
            return ExitCode::from(1);
        }
    }
    let s = &out.stats;
    if args.json {
        let v = cpa_engine::report::RunJson {
            preset,
            verdict: Some(&out.verdict),
            stats: s,
            solver_ms: out.solver_ms,
            total_ms: Some(out.total_ms),
            certificate_ms: out.certificate_ms,
            decided_by: cpa_engine::events::decided_by(&out.events),
            events: args.events.then_some(out.events.as_slice()),
        }
        .to_value();
        println!("{v}");
        return ExitCode::SUCCESS;
    }
    if args.events {
        for e in &out.events {
            println!("{}", json!(e));
        }
    }
    println!("Configuration: {preset}");
    println!("Steps: {}", s.steps);
    println!("ARG states: {}", s.states);
    println!("Refinements: {}", s.refinements);
    println!("Predicates: {}", s.predicates);
    println!("Abstractions: {}", s.abstractions);
    println!("Abstraction states: {}", s.abstraction_states);
    if s.bound > 0 {
        println!("Bound k: {}", s.bound);
    }
    println!("Solver queries: {}", s.solver_queries);
    println!("Answered from the query cache: {}", s.cache_hits);
    println!("Solver time: {:.1} ms", out.solver_ms);
    if let Some(ms) = out.certificate_ms {
        println!("Certificate check: {ms:.1} ms of solver time");
    }
    println!("Total time: {:.1} ms", out.total_ms);
    if let Verdict::False { counterexample } = &out.verdict {
        println!("Counterexample:");
        for step in &counterexample.trace {
            let vals: Vec<String> = step
                .values
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            println!(
                "  line {:>4}: {:<40} {}",
                step.line,
                step.op,
                vals.join(" ")
            );
        }
    }
    if let Some(d) = cpa_engine::events::decided_by(&out.events) {
        println!("Decided by: {d}");
    }
    match (&out.verdict, property) {
        (Verdict::False { .. }, Some(task::Property::UnreachLabel)) => {
            println!("SV-COMP result: FALSE(unreach-label)")
        }
        _ => println!("SV-COMP result: {}", out.verdict.svcomp()),
    }
    match &out.verdict {
        Verdict::True => println!("Verification result: TRUE"),
        Verdict::False { .. } => println!("Verification result: FALSE"),
        Verdict::Unknown { reason } => println!("Verification result: UNKNOWN ({reason})"),
    }
    ExitCode::SUCCESS
}

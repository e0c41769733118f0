//! Data-driven verdict tests with the real native z3: every `tests/verdicts/NAME.c` states its
//! verdict (`// verdict: true|false`, or `undefined` for a program with undefined behaviour
//! on some run, which every preset must answer UNKNOWN naming it) and optionally the presets allowed to give up
//! (`// unknown-ok: PRESET ...`). Every preset runs on every program (or those of `// only:
//! PRESET ...`, for programs only a technique of a few decides, where the others would run to
//! their limits): a wrong verdict always fails, an UNKNOWN fails unless allowed.
//! Counterexamples must end in reach_error. Every FALSE and every TRUE of the CEGAR presets
//! also writes its witness (SV-COMP format 2.0, the text `cpa verify --witness` writes), which
//! is read back and must be confirmed by the validator (`cpa validate-witness`'s check) on a
//! fresh solver: violation witnesses by concrete replay, correctness witnesses by checking
//! their loop invariants inductive and sufficient.

mod common;
use common::{header, native_session, on_two_workers, runs_preset};

use cpa_engine::config::{Config, Preset};
use cpa_engine::proof::Outcome;
use cpa_engine::session::Session;
use cpa_engine::verdict::Verdict;
use cpa_engine::witness::{self};
use std::path::Path;

/// The presets whose TRUE must come with a confirmed correctness witness (the others' proofs,
/// BMC's and k-induction's, are checked by the bench test over the SV-COMP tasks, which lists
/// the invariants C cannot state).
const CORRECTNESS_WITNESS: [&str; 4] = ["predicate-lbe", "impact", "value", "symbolic"];

/// The session of `preset` on `src` run to its verdict, with limits that fit the test.
fn run(src: &str, preset: &str) -> Session {
    let mut config = Config::preset(preset).unwrap();
    config.limits.max_steps = 100_000;
    config.limits.max_states = 50_000;
    config.limits.max_refinements = 100;
    config.k_max = 12;
    let mut session = native_session(src, config);
    session.run();
    session
}

/// The witness of `verdict` (TRUE or FALSE), the end of `session`, as `cpa verify --witness`
/// writes it, read back and checked on a fresh solver: what went wrong, if anything.
fn check_witness(
    name: &str,
    src: &str,
    preset: &str,
    session: &Session,
    verdict: &Verdict,
) -> Result<(), String> {
    let cfa = cpa_engine::parse_program(name, src).unwrap().cfa;
    let entry = witness::of_run(
        &cfa,
        name,
        src,
        preset,
        verdict,
        &session.invariants(),
        "2026-01-01T00:00:00Z".into(),
    )
    .expect("TRUE and FALSE write a witness");
    let text = witness::to_yaml(&[entry]);
    let entries = witness::parse(&text)
        .map_err(|e| format!("{name} {preset}: the witness does not parse: {e}"))?;
    let mut smt = cpa_engine::smt::BridgeSmt::new(
        solver_bridge::solver::NativeZ3::new().expect("the tests need z3"),
    );
    match witness::validate(&cfa, &entries, &mut smt) {
        Ok(Outcome::Confirmed) => Ok(()),
        other => Err(format!(
            "{name} {preset}: its {} witness is not confirmed: {other:?}",
            verdict.name()
        )),
    }
}

/// Runs `preset` on the program at `path` and checks its verdict against the headers and its
/// witness: the failures found, and the kind of witness confirmed (`"violation"` or
/// `"correctness"`), if any.
fn check_program(path: &Path, src: &str, preset: &str) -> (Vec<String>, Option<&'static str>) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let expected = header(src, "verdict:").unwrap_or("true");
    let mut unknown_ok: Vec<&str> = header(src, "unknown-ok:")
        .map(|s| s.split_whitespace().collect())
        .unwrap_or_default();
    // The gallery's example has no header; its run needs inputs.
    if name == "lbe-figure1.c" {
        unknown_ok.push("execution");
    }
    let start = std::time::Instant::now();
    let session = run(src, preset);
    let v = session.verdict().unwrap();
    eprintln!(
        "{name:<32} {preset:<15} {:<8} {:>6.2}s {}",
        v.name(),
        start.elapsed().as_secs_f64(),
        v.reason().unwrap_or("")
    );
    let mut failures = Vec::new();
    if expected == "undefined" {
        match v {
            Verdict::Unknown { reason } if reason.contains("undefined") => {}
            Verdict::Unknown { .. } if unknown_ok.contains(&preset) => {}
            other => failures.push(format!(
                "{name} {preset}: {} ({}), expected UNKNOWN for undefined behaviour",
                other.name(),
                other.reason().unwrap_or("")
            )),
        }
        return (failures, None);
    }
    match v {
        Verdict::False { counterexample } => {
            let last = counterexample
                .trace
                .last()
                .map(|t| t.op.clone())
                .unwrap_or_default();
            if !last.contains("reach_error") && !last.starts_with("[!") {
                failures.push(format!(
                    "{name} {preset}: counterexample does not end in the error: {last}"
                ));
            }
        }
        Verdict::Unknown { reason } if !unknown_ok.contains(&preset) => {
            failures.push(format!("{name} {preset}: UNKNOWN ({reason})"));
            return (failures, None);
        }
        _ => {}
    }
    if v.name() != "unknown" && v.name() != expected {
        failures.push(format!(
            "{name} {preset}: WRONG verdict {} (expected {expected})",
            v.name()
        ));
        return (failures, None);
    }
    let kind = match v {
        Verdict::False { .. } => "violation",
        Verdict::True if CORRECTNESS_WITNESS.contains(&preset) => "correctness",
        _ => return (failures, None),
    };
    // A correctness witness holds only the C-expressible part of the invariants: where that
    // part is too weak for the validator (a `// weak-witness:` header names the preset and
    // says why), the witness must still parse and must not be refuted by a counterexample
    // path of the program, only found insufficient.
    let weak_ok =
        header(src, "weak-witness:").is_some_and(|s| s.split_whitespace().any(|p| p == preset));
    match check_witness(&name, src, preset, &session, v) {
        Ok(()) => (failures, Some(kind)),
        Err(e) if weak_ok && e.contains("the invariants do not suffice") => (failures, None),
        Err(e) => {
            failures.push(e);
            (failures, None)
        }
    }
}

#[test]
fn every_preset_on_every_program() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/verdicts");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.push(dir.join("../../examples/lbe-figure1.c"));
    paths.sort();
    // Every (program, preset) run, then two workers (the machine's cores) take them in turn.
    let mut todo = Vec::new();
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
    {
        let src = std::fs::read_to_string(path).unwrap();
        for preset in Preset::names().iter().filter(|p| runs_preset(&src, p)) {
            todo.push((path.clone(), src.clone(), *preset));
        }
    }
    let checked = todo.len();
    let results = on_two_workers(&todo, |(path, src, preset)| {
        check_program(path, src, preset)
    });
    let confirmed = |kind| results.iter().filter(|(_, k)| *k == Some(kind)).count();
    let (violation, correctness) = (confirmed("violation"), confirmed("correctness"));
    let failures: Vec<String> = results.into_iter().flat_map(|(f, _)| f).collect();
    assert!(checked >= 20 * Preset::names().len());
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    eprintln!("witnesses confirmed: {violation} violation, {correctness} correctness");
    assert!(
        violation >= 100 && correctness >= 30,
        "{violation} violation, {correctness} correctness witnesses"
    );
}

/// No knob value makes a verdict wrong (a share link can carry any of them): every value of
/// every enumerated knob, and the extreme values of the numeric ones, one knob at a time
/// from `predicate-lbe` (from `impact` and `value` for the knobs they need), on small safe and unsafe
/// programs. UNKNOWN is allowed; TRUE for an unsafe program or FALSE for a safe one is not.
#[test]
fn no_knob_value_gives_a_wrong_verdict() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/verdicts");
    let programs = [
        "signed-overflow-unsafe.c",
        "calls-unsafe.c",
        "unsigned-wrap-unsafe.c",
        "recursion-data-bounded-safe.c",
        "unifying-fig2.c",
        "unsigned-wrap-safe.c",
    ];
    let strategies: Vec<&str> = solver_bridge::itp::Strategy::ALL
        .iter()
        .map(|s| s.name())
        .collect();
    let mut variations: Vec<(&str, Vec<(&str, &str)>)> = vec![];
    for v in ["sbe", "loop-heads", "loop-heads-and-functions"] {
        variations.push(("predicate-lbe", vec![("block", v)]));
    }
    for (k, vs) in [
        ("abstraction", &["boolean", "cartesian"][..]),
        ("representation", &["bdd", "smt"]),
        ("sat-check-empty", &["false"]),
        ("affine-predicates", &["true"]),
        ("allsat-limit", &["1", "2"]),
        ("encoding", &["int", "bv"]),
        ("signed-overflow", &["check"]),
        (
            "waitlist",
            &["bfs", "dfs", "rpo", "err", "err-dfs", "dfs-err"],
        ),
        ("predicate-split", &["atoms", "conjuncts", "whole"]),
        ("prune", &["lazy", "full"]),
        ("max-depth", &["1", "2"]),
    ] {
        for v in vs {
            variations.push(("predicate-lbe", vec![(k, v)]));
        }
    }
    for s in &strategies {
        variations.push(("predicate-lbe", vec![("interpolation", s)]));
    }
    for v in ["true", "false"] {
        variations.push(("impact", vec![("fcover", v)]));
    }
    variations.push(("impact", vec![("block", "sbe")]));
    // The value preset is the combination with predicate abstraction; `domain=value` is the
    // explicit analysis alone, with the knobs only it has.
    for (k, vs) in [
        ("max-enum", &["1*", "1", "2", "0"][..]),
        ("value-refinement", &["interpolation", "itp-vars"]),
        ("precision-scope", &["location", "function", "global"]),
        ("prune", &["full"]),
        ("waitlist", &["bfs", "dfs", "err", "dfs-err"]),
        ("encoding", &["int", "bv"]),
    ] {
        for v in vs {
            variations.push(("value", vec![("domain", "value"), (k, v)]));
        }
    }
    for (k, vs) in [
        ("max-enum", &["1", "0"][..]),
        ("precision-scope", &["function"]),
        ("block", &["sbe", "loop-heads"]),
        ("abstraction", &["cartesian"]),
        ("prune", &["full"]),
        ("waitlist", &["dfs", "err"]),
        ("encoding", &["int", "bv"]),
    ] {
        for v in vs {
            variations.push(("value", vec![(k, v)]));
        }
    }
    for (k, vs) in [
        ("symbolic-merge", &["sep", "join"][..]),
        (
            "symbolic-stop",
            &["subset", "aliased-subset", "implication"],
        ),
        ("sat-check", &["assume", "target"]),
        ("symbolic-refinement", &["interpolation", "predicate"]),
        ("precision-scope", &["function", "global"]),
        ("encoding", &["int", "bv"]),
        ("waitlist", &["dfs", "err"]),
    ] {
        for v in vs {
            variations.push(("symbolic", vec![(k, v)]));
        }
    }
    // The efficient-CEGAR paper's refinements, in every CEGAR domain.
    for preset in ["predicate-lbe", "value", "theta-expl-multiseq", "symbolic"] {
        for v in [
            "fw-bin-itp",
            "bw-bin-itp",
            "multi-seq",
            "min-prune",
            "max-prune",
        ] {
            variations.push((preset, vec![("trace-refinement", v)]));
        }
    }
    let mut wrong = Vec::new();
    let mut runs = 0;
    for name in programs {
        let src = std::fs::read_to_string(dir.join(name)).unwrap();
        let expected = header(&src, "verdict:").unwrap();
        for (preset, sets) in &variations {
            let mut config = Config::build(preset, sets.iter().copied())
                .unwrap_or_else(|e| panic!("{preset} {sets:?}: {e}"));
            config.limits.max_steps = 20_000;
            config.limits.max_refinements = 30;
            config.limits.max_queries = 20_000;
            let start = std::time::Instant::now();
            let v = native_session(&src, config).run().clone();
            eprintln!(
                "{name} {preset} {sets:?}: {} {:.2}s",
                v.name(),
                start.elapsed().as_secs_f64()
            );
            runs += 1;
            if v.name() != "unknown" && v.name() != expected {
                wrong.push(format!(
                    "{name} {preset} {sets:?}: {} (expected {expected})",
                    v.name()
                ));
            }
            if v.reason().is_some_and(|r| r.contains("internal")) {
                wrong.push(format!("{name} {preset} {sets:?}: {}", v.reason().unwrap()));
            }
        }
    }
    assert!(runs >= 6 * 25, "{runs} runs");
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

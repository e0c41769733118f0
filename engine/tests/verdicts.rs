//! Data-driven verdict tests with the real native z3: every `tests/verdicts/NAME.c` states its
//! verdict (`// verdict: true|false`) and optionally the presets allowed to give up
//! (`// unknown-ok: PRESET ...`). Every preset runs on every program: a wrong verdict always
//! fails, an UNKNOWN fails unless allowed. Counterexamples must end in reach_error.

mod common;
use common::native_session;

use cpa_engine::algorithm::Verdict;
use cpa_engine::config::{Config, PRESETS};
use std::path::Path;

fn header<'a>(src: &'a str, key: &str) -> Option<&'a str> {
    src.lines()
        .filter_map(|l| l.strip_prefix("// "))
        .find_map(|l| l.strip_prefix(key))
        .map(str::trim)
}

pub fn run(src: &str, preset: &str) -> Verdict {
    let mut config = Config::preset(preset).unwrap();
    config.limits.max_steps = 100_000;
    config.limits.max_states = 50_000;
    config.limits.max_refinements = 100;
    config.k_max = 12;
    native_session(src, config).run().clone()
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
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
    {
        let src = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let expected = header(&src, "verdict:").unwrap_or("true");
        let unknown_ok: Vec<&str> = header(&src, "unknown-ok:")
            .map(|s| s.split_whitespace().collect())
            .unwrap_or_default();
        for preset in PRESETS {
            let start = std::time::Instant::now();
            let v = run(&src, preset);
            eprintln!(
                "{name:<32} {preset:<15} {:<8} {:>6.2}s {}",
                v.name(),
                start.elapsed().as_secs_f64(),
                v.reason().unwrap_or("")
            );
            checked += 1;
            match &v {
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
                    continue;
                }
                _ => {}
            }
            if v.name() != "unknown" && v.name() != expected {
                failures.push(format!(
                    "{name} {preset}: WRONG verdict {} (expected {expected})",
                    v.name()
                ));
            }
        }
    }
    assert!(checked >= 15 * PRESETS.len());
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

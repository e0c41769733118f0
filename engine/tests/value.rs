//! Data-driven tests of the value analysis' knobs with the real native z3: every
//! `tests/value/NAME.c` lists runs as `// run: KEY=VALUE ... => true|false|unknown`, each from
//! the `value` preset with those knobs. A FALSE must come with a validated counterexample and
//! a TRUE with a passed certificate check (both are part of every verdict).

mod common;
use common::native_session;

use cpa_engine::config::Config;
use cpa_engine::events::Event;
use std::path::Path;

#[test]
fn value_analysis_knobs_give_the_expected_verdicts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/value");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    let mut runs = 0;
    for path in &paths {
        let src = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for line in src.lines().filter_map(|l| l.strip_prefix("// run: ")) {
            let (knobs, expected) = line.split_once("=>").unwrap();
            let settings: Vec<(&str, &str)> = knobs
                .split_whitespace()
                .map(|kv| kv.split_once('=').unwrap())
                .collect();
            let mut config = Config::build("value", settings.iter().copied())
                .unwrap_or_else(|e| panic!("{name}: {knobs}: {e}"));
            config.limits.max_states = 20_000;
            let mut session = native_session(&src, config);
            let verdict = session.run().clone();
            runs += 1;
            eprintln!("{name:<28} {knobs:<40} {}", verdict.name());
            if verdict.name() != expected.trim() {
                failures.push(format!(
                    "{name} [{}]: {} ({}), expected {}",
                    knobs.trim(),
                    verdict.name(),
                    verdict.reason().unwrap_or(""),
                    expected.trim()
                ));
            }
            if verdict.name() == "true" {
                assert!(
                    session
                        .events()
                        .iter()
                        .any(|e| matches!(e, Event::Certificate { valid: true, .. })),
                    "{name}: TRUE without a certificate"
                );
            }
        }
    }
    assert!(runs >= 15, "{runs} runs");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

//! Golden runs: the events and statistics of every preset on every verdict program and
//! example (the presets of its `// only:` header, if it has one), pinned in `tests/golden/runs.txt` as one line per run (verdict, counters and a
//! hash of the event log). A change of the engine that changes what a run does (another
//! query, another state, another label) fails here; a deliberate one is re-recorded with
//! `CPA_BLESS=1 cargo test --release -p cpa-engine --test golden` and shows in the diff.
//! Runs are capped (steps, queries) so that the whole table takes seconds, not minutes.

mod common;
use common::{native_session, on_two_workers, runs_preset};

use cpa_engine::config::{Config, Preset};
use std::path::Path;

/// FNV-1a, 64 bits: stable across platforms and Rust versions (unlike `DefaultHasher`).
fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn programs() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    for dir in ["tests/verdicts", "examples"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "c") {
                paths.push(format!(
                    "{dir}/{}",
                    p.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let src = std::fs::read_to_string(root.join(&p)).unwrap();
            (p, src)
        })
        .collect()
}

/// One row of the table: `preset` on the program `src`.
fn row(name: &str, src: &str, preset: &str) -> String {
    let mut config = Config::preset(preset).unwrap();
    config.limits.max_steps = 600;
    config.limits.max_queries = 1200;
    config.k_max = 6;
    config.limits.solver_rlimit = 2_000_000;
    let start = std::time::Instant::now();
    let mut s = native_session(src, config);
    let v = s.run().clone();
    eprintln!("{name} {preset}: {:.2}s", start.elapsed().as_secs_f64());
    let events: Vec<String> = s
        .events()
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let st = s.stats();
    format!(
        "{name} {preset} {} {} {} {} {} {} {} {} {} {:016x}\n",
        v.name(),
        st.steps,
        st.states,
        st.refinements,
        st.solver_queries,
        st.abstractions,
        st.predicates,
        st.bound,
        events.len(),
        fnv(&events.join("\n"))
    )
}

fn table() -> String {
    let programs = programs();
    let runs: Vec<(usize, &str, &str, &str)> = programs
        .iter()
        .flat_map(|(name, src)| {
            Preset::names()
                .into_iter()
                .filter(|p| runs_preset(src, p))
                .map(move |p| (name.as_str(), src.as_str(), p))
        })
        .enumerate()
        .map(|(i, (name, src, preset))| (i, name, src, preset))
        .collect();
    // Each run is deterministic on its own: two at a time, then in the table's order.
    let mut rows = on_two_workers(&runs, |(i, name, src, preset)| (*i, row(name, src, preset)));
    rows.sort();
    let mut out = String::from(
        "# program preset verdict steps states refinements solver_queries abstractions predicates bound events hash\n",
    );
    for (_, r) in rows {
        out.push_str(&r);
    }
    out
}

#[test]
fn runs_match_the_golden_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/runs.txt");
    let now = table();
    if std::env::var_os("CPA_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_default();
    let diff: Vec<String> = now
        .lines()
        .zip(golden.lines().chain(std::iter::repeat("")))
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("now:    {a}\ngolden: {b}"))
        .collect();
    assert!(
        diff.is_empty() && now.lines().count() == golden.lines().count(),
        "{} runs differ from tests/golden/runs.txt (re-record deliberate changes with CPA_BLESS=1):\n{}",
        diff.len(),
        diff.join("\n")
    );
}

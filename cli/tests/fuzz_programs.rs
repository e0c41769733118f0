//! Differential testing in `make test`: `cpa fuzz` on a few hundred generated programs with
//! every preset (small count limits), asserting that no preset contradicts another or a
//! concrete run, every counterexample replays, no run gets stuck and none crashes. Findings are
//! saved (not minimized, to keep the test short) under the target directory; the assertion
//! message lists them. `scripts/fuzz.sh` runs the long campaign with minimization.

use std::process::Command;

#[test]
fn no_disagreement_on_generated_programs() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-findings");
    let _ = std::fs::remove_dir_all(&out);
    let count = std::env::var("FUZZ_PROGRAMS").unwrap_or_else(|_| "200".into());
    let run = Command::new(env!("CARGO_BIN_EXE_cpa"))
        .args(["fuzz", "--seed", "1", "--count", &count, "--jobs", "2"])
        .args(["--timeout", "15", "--minimize-budget", "0"])
        .args(["--set", "max-steps=1500", "--set", "max-states=1500"])
        .args(["--set", "max-refinements=8", "--set", "max-queries=200"])
        .args(["--set", "solver-rlimit=300000"])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("cpa runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    eprintln!("{stdout}");
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("fuzz: "))
        .expect("a summary line");
    assert!(
        summary.contains(&format!("programs {count} ")),
        "not every program was checked: {summary}"
    );
    assert!(
        run.status.success(),
        "the differential test found bugs (exit {}):\n{}",
        run.status,
        stdout
            .lines()
            .filter(|l| l.starts_with("BUG") || l.starts_with("GENERATOR"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

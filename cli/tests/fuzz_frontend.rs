//! Front-end fuzzing in `make test`: tens of thousands of mutated inputs through
//! `cpa fuzz-frontend` (parser, lowering, LBE and the report on a 1 MiB stack, as in the
//! browser): no panic, no abort, no hang, no input slower than a second, every rejection
//! with a diagnostic inside the input.

use std::process::Command;

#[test]
fn mutated_inputs_never_break_the_front_end() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-frontend-findings");
    let _ = std::fs::remove_dir_all(&out);
    let count = std::env::var("FUZZ_INPUTS").unwrap_or_else(|_| "40000".into());
    let run = Command::new(env!("CARGO_BIN_EXE_cpa"))
        .args([
            "fuzz-frontend",
            "--seed",
            "1",
            "--count",
            &count,
            "--jobs",
            "2",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("cpa runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    eprintln!("{stdout}");
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("fuzz-frontend: "))
        .expect("a summary line");
    assert!(summary.contains(&format!("inputs {count} ")), "{summary}");
    // The mutants must not all be rejected, or only the error paths would be tested.
    let parsed: u64 = summary
        .split("parsed ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .expect("a parsed count");
    let n: u64 = count.parse().unwrap();
    assert!(parsed * 20 > n, "only {parsed} of {n} inputs parsed");
    assert!(run.status.success(), "front-end findings:\n{stdout}");
}

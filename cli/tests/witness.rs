//! Witnesses (SV-COMP format 2.0): every FALSE of the verdict programs writes a violation
//! witness that `cpa validate-witness` confirms by concrete replay; a witness whose values were
//! changed is refuted; a broken one is rejected with a message.

use std::path::Path;
use std::process::Command;

fn cpa(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cpa"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn violation_witnesses_of_every_false_verdict_are_confirmed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/verdicts");
    let tmp = std::env::temp_dir().join(format!("cpa-witness-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        let src = std::fs::read_to_string(&p).unwrap();
        if !src.contains("// verdict: false") {
            continue;
        }
        let program = p.to_str().unwrap();
        let w = tmp.join(format!("{}.yml", p.file_stem().unwrap().to_string_lossy()));
        let w = w.to_str().unwrap();
        let (ok, out, err) = cpa(&["verify", program, "--witness", w]);
        assert!(ok, "{program}: {err}");
        if !out.contains("Verification result: FALSE") {
            continue; // an UNKNOWN writes no witness
        }
        let (ok, out, err) = cpa(&["validate-witness", program, w]);
        assert!(ok && out.trim() == "confirmed", "{program}: {out} {err}");
        checked += 1;
    }
    assert!(checked >= 10, "{checked} witnesses");
}

#[test]
fn changed_and_broken_witnesses_are_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let program = root.join("examples/max-bug.c");
    let program = program.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("cpa-witness-bad-{}.yml", std::process::id()));
    let w = tmp.to_str().unwrap();
    assert!(cpa(&["verify", program, "--witness", w]).0);
    let text = std::fs::read_to_string(&tmp).unwrap();
    assert!(text.contains("entry_type: violation_sequence") && text.contains("type: target"));
    // Values for which the maximum is computed correctly.
    let changed = text
        .replace("a == 0", "a == 5")
        .replace("b == 1", "b == -7");
    assert_ne!(changed, text);
    std::fs::write(&tmp, changed).unwrap();
    let (ok, out, _) = cpa(&["validate-witness", program, w]);
    assert!(!ok && out.starts_with("refuted: "), "{out}");
    std::fs::write(&tmp, "- entry_type: nonsense\n").unwrap();
    let (ok, _, err) = cpa(&["validate-witness", program, w]);
    assert!(!ok && err.contains("not a witness"), "{err}");
    // Correctness witnesses are read, but not validated yet: said, not guessed.
    let simple = root.join("tests/witnesses/simple.c");
    let valid = root.join("tests/witnesses/simple-valid-witness-v2--1.yml");
    let (ok, out, err) = cpa(&[
        "validate-witness",
        simple.to_str().unwrap(),
        valid.to_str().unwrap(),
    ]);
    assert!(
        !ok && out.is_empty() && err.contains("only violation witnesses"),
        "{out} {err}"
    );
}

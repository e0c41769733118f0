//! Witnesses (SV-COMP format 2.0) through the command line: `cpa verify --witness` writes them
//! and `cpa validate-witness` judges them. A witness whose values were changed is refuted; a
//! broken one is rejected with a message; branching waypoints steer the replay; k-inductive
//! invariants and function contracts are confirmed, invariants that do not suffice refuted;
//! CPAchecker's example correctness witnesses are judged as CPAchecker judges them. (The
//! witness of every FALSE, and of every TRUE of the CEGAR presets, of the verdict programs is
//! checked in process by the engine's verdict test; the bench test checks those of every
//! preset on the SV-COMP tasks through this command line.)

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
    // An invariant that is no C expression over the program's variables: an error.
    let simple = root.join("tests/witnesses/simple.c");
    let valid =
        std::fs::read_to_string(root.join("tests/witnesses/simple-valid-witness-v2--2.yml"))
            .unwrap();
    for (bad, why) in [
        ("value: \"y <= x\"", "value: \"z <= x\""),
        ("value: \"y <= x\"", "value: \"y = x\""),
        ("line: 18", "line: 5"), // no loop there or just below
    ]
    .iter()
    .map(|(a, b)| (valid.replace(a, b), *b))
    {
        assert_ne!(bad, valid, "{why}");
        std::fs::write(&tmp, &bad).unwrap();
        let (ok, out, err) = cpa(&["validate-witness", simple.to_str().unwrap(), w]);
        assert!(
            !ok && out.is_empty() && err.contains("error: invariant"),
            "{why}: {out} {err}"
        );
    }
}

/// Inputs read straight into conditions have no variable to state a value for: the witness
/// gives the directions taken as branching waypoints, the replay follows them, and a witness
/// with one direction flipped is refuted.
#[test]
fn branching_waypoints_steer_the_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let program = root.join("tests/verdicts/branching-input-unsafe.c");
    let program = program.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("cpa-witness-br-{}.yml", std::process::id()));
    let w = tmp.to_str().unwrap();
    let (ok, out, err) = cpa(&["verify", program, "--witness", w]);
    assert!(
        ok && out.contains("Verification result: FALSE"),
        "{out} {err}"
    );
    let text = std::fs::read_to_string(&tmp).unwrap();
    assert_eq!(text.matches("type: branching").count(), 5, "{text}");
    assert_eq!(text.matches("type: assumption").count(), 0, "{text}");
    let (ok, out, _) = cpa(&["validate-witness", program, w]);
    assert!(ok && out.trim() == "confirmed", "{out}");
    // The first branching (x = 1) not taken: x stays even and the error is missed.
    let flipped = text.replacen("value: true", "value: false", 1);
    std::fs::write(&tmp, flipped).unwrap();
    let (ok, out, _) = cpa(&["validate-witness", program, w]);
    assert!(!ok && out.starts_with("refuted: "), "{out}");
}

/// CPAchecker's correctness witnesses for `simple.c` (specification: no overflow, so only
/// whether the invariants hold is checked): the two valid ones are confirmed, each of the
/// four invalid ones is refuted. With the specification unreach-call, the valid `y <= x` also
/// suffices for the proof, and so does `1`: simple.c is 2-inductive (a loop head reached
/// through the body has `y <= x`), which the validator's k-induction finds.
#[test]
fn cpachecker_correctness_witnesses_are_judged_like_cpachecker() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/witnesses");
    let simple = dir.join("simple.c");
    let simple = simple.to_str().unwrap();
    for (file, want) in [
        ("simple-valid-witness-v2--1.yml", "confirmed"),
        ("simple-valid-witness-v2--2.yml", "confirmed"),
        (
            "simple-invalid-witness-v2--1.yml",
            "refuted: the invariant '0' at line 18 does not hold",
        ),
        (
            "simple-invalid-witness-v2--2.yml",
            "refuted: the invariant 'x == y' at line 18 does not hold",
        ),
        (
            "simple-invalid-witness-v2--3.yml",
            "refuted: the invariant 'x == 0' at line 18 does not hold",
        ),
        (
            "simple-invalid-witness-v2--4.yml",
            "refuted: the invariant 'y < x' at line 18 does not hold",
        ),
    ] {
        let path = dir.join(file);
        let (ok, out, err) = cpa(&["validate-witness", simple, path.to_str().unwrap()]);
        assert_eq!(ok, want == "confirmed", "{file}: {out} {err}");
        assert!(out.starts_with(want), "{file}: {out} {err}");
    }
    let tmp = std::env::temp_dir().join(format!("cpa-witness-spec-{}.yml", std::process::id()));
    for (file, want) in [
        ("simple-valid-witness-v2--1.yml", "confirmed"),
        ("simple-valid-witness-v2--2.yml", "confirmed"),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let at = text.find("specification: ").unwrap();
        let end = at + text[at..].find('\n').unwrap();
        let text = format!(
            "{}specification: \"CHECK( init(main()), LTL(G ! call(reach_error())) )\"{}",
            &text[..at],
            &text[end..]
        );
        std::fs::write(&tmp, text).unwrap();
        let (_, out, err) = cpa(&["validate-witness", simple, tmp.to_str().unwrap()]);
        assert!(out.starts_with(want), "{file} (unreach-call): {out} {err}");
    }
}

/// k-induction proves `kinduction-proves.c` with interval invariants that are not inductive on
/// their own (the property is 2-inductive relative to them): the validator's k-induction over
/// the blocks confirms the witness, where 1-induction alone answers "do not suffice" (and
/// executing every run cannot: input splitting peels one value of `n` per iteration).
#[test]
fn k_inductive_invariants_are_confirmed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let program = root.join("examples/kinduction-proves.c");
    let program = program.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("cpa-kwitness-{}.yml", std::process::id()));
    let w = tmp.to_str().unwrap();
    let (_, out, err) = cpa(&["verify", program, "--config", "kinduction", "--witness", w]);
    assert!(out.contains("Verification result: TRUE"), "{out} {err}");
    let (ok, out, err) = cpa(&["validate-witness", program, w]);
    assert!(ok && out.trim() == "confirmed", "{out} {err}");
}

/// Invariants that hold but do not prove the program, neither by 1- nor by k-induction, are
/// refuted with the reason; the invariant that does prove it is confirmed. (The program reads
/// two inputs it does not use: without any, its only run would decide every witness, and
/// with one, executing all its runs would: see below.)
#[test]
fn invariants_that_do_not_suffice_are_refuted() {
    let dir = std::env::temp_dir().join(format!("cpa-suffice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("count.c");
    let source = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int x = 0; int k = __VERIFIER_nondet_int(); int l = __VERIFIER_nondet_int();\n  int y = 0;\n  \
         while (x < 100) {\n    x++;\n    y++;\n  }\n  if (y != 100) reach_error();\n  \
         return 0;\n}\n";
    std::fs::write(&program, source).unwrap();
    let program = program.to_str().unwrap();
    let witness = |value: &str| {
        format!(
            "- entry_type: invariant_set\n  metadata:\n    format_version: \"2.0\"\n    \
             uuid: \"00000000-0000-4000-8000-000000000000\"\n    creation_time: \"2026-11-24T00:00:00Z\"\n    \
             producer:\n      name: test\n    task:\n      input_files: [count.c]\n      \
             input_file_hashes: {{}}\n      specification: \"CHECK( init(main()), LTL(G ! call(reach_error())) )\"\n      \
             data_model: ILP32\n      language: C\n  content:\n    - invariant:\n        \
             type: loop_invariant\n        location:\n          file_name: count.c\n          \
             line: 5\n          column: 3\n          function: main\n        \
             value: \"{value}\"\n        format: c_expression\n"
        )
    };
    for (value, want) in [
        ("x <= 100", "refuted: the invariants do not suffice"),
        ("x == y && x <= 100", "confirmed"),
        // Holds, and 2-inductive (a loop head reached through the body has x <= 100).
        ("x == y", "confirmed"),
        (
            "x == y + 1",
            "refuted: the invariant 'x == y + 1' at line 5 does not hold",
        ),
    ] {
        let w = dir.join("w.yml");
        std::fs::write(&w, witness(value)).unwrap();
        let (ok, out, err) = cpa(&["validate-witness", program, w.to_str().unwrap()]);
        assert_eq!(ok, want == "confirmed", "{value}: {out} {err}");
        assert!(out.starts_with(want), "{value}: {out} {err}");
    }
    // With one input, the validator executes every run with the invariants asserted (the
    // input is one class of values, which no decision splits): `x <= 100` holds on every
    // run and no run reaches the error, so the validator proves the program with it, as
    // SV-COMP's validators do; `x <= 99` is violated by every run.
    let one = dir.join("count1.c");
    std::fs::write(
        &one,
        source.replace(" int l = __VERIFIER_nondet_int();", ""),
    )
    .unwrap();
    for (value, want) in [
        ("x <= 100", "confirmed"),
        (
            "x <= 99",
            "refuted: the invariant 'x <= 99' at line 5 does not hold",
        ),
    ] {
        let w = dir.join("w1.yml");
        std::fs::write(&w, witness(value).replace("count.c", "count1.c")).unwrap();
        let (ok, out, err) = cpa(&[
            "validate-witness",
            one.to_str().unwrap(),
            w.to_str().unwrap(),
        ]);
        assert_eq!(ok, want == "confirmed", "{value}: {out} {err}");
        assert!(out.starts_with(want), "{value}: {out} {err}");
    }
}

/// A proof by function contracts (k-induction on a mutual recursion over any input) writes
/// format 2.1's `function_contract` entries, which the validator checks by assume-guarantee:
/// confirmed as written; refuted when the contract does not hold for the function's body or
/// does not suffice for `main`; refused when it uses what is not supported (`\old`).
#[test]
fn function_contracts_are_written_and_checked() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let program = root.join("tests/verdicts/recursion-contract-safe.c");
    let program = program.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("cpa-contract-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let w = dir.join("w.yml");
    let w = w.to_str().unwrap();
    let (_, out, err) = cpa(&["verify", program, "--config", "kinduction", "--witness", w]);
    assert!(out.contains("Verification result: TRUE"), "{out} {err}");
    let text = std::fs::read_to_string(w).unwrap();
    assert!(text.contains("type: function_contract"), "{text}");
    assert!(text.contains("format: ext_c_expression"), "{text}");
    assert!(text.contains("2.1"), "{text}");
    let (ok, out, err) = cpa(&["validate-witness", program, w]);
    assert!(ok && out.trim() == "confirmed", "{out} {err}\n{text}");
    let bound = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("ensures: "))
        .unwrap()
        .to_string();
    assert!(bound.contains("\\result"), "{bound}");
    for (ensures, want) in [
        (
            "\\result <= 1",
            "refuted: with the calls replaced by the contracts",
        ),
        ("\\result <= 4", "refuted: the invariants do not suffice"),
        ("\\old(x) >= 0", "not supported"),
    ] {
        let changed = text.replace(&bound, &format!("'{ensures}'"));
        let tw = dir.join("t.yml");
        std::fs::write(&tw, &changed).unwrap();
        let (ok, out, err) = cpa(&["validate-witness", program, tw.to_str().unwrap()]);
        assert!(!ok, "{ensures}: {out} {err}");
        assert!(
            out.starts_with(want) || err.contains(want),
            "{ensures}: {out} {err}"
        );
    }
}

/// Inputs stored through an index (`x[i] = __VERIFIER_nondet_int()`): the witness states each
/// value for the cell it went to, and the replay takes them in order.
#[test]
fn values_stored_into_array_cells_are_stated_and_replayed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let program = root.join("tests/verdicts/array-input-unsafe.c");
    let program = program.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("cpa-witness-arr-{}.yml", std::process::id()));
    let w = tmp.to_str().unwrap();
    let (ok, out, err) = cpa(&["verify", program, "--witness", w]);
    assert!(
        ok && out.contains("Verification result: FALSE"),
        "{out} {err}"
    );
    let text = std::fs::read_to_string(&tmp).unwrap();
    for cell in ["x[0] == ", "x[1] == 5", "x[2] == "] {
        assert!(text.contains(cell), "{cell}: {text}");
    }
    let (ok, out, _) = cpa(&["validate-witness", program, w]);
    assert!(ok && out.trim() == "confirmed", "{out}");
    // Another value for x[1]: the sum is no longer reached.
    std::fs::write(&tmp, text.replace("x[1] == 5", "x[1] == 6")).unwrap();
    let (ok, out, _) = cpa(&["validate-witness", program, w]);
    assert!(!ok && out.starts_with("refuted: "), "{out}");
}

/// Inputs stored into the caller's array through a pointer parameter (`p[i] =
/// __VERIFIER_nondet_int()` in `fill(a)`): the cells are out of the callee's scope, so the
/// witness states the values through the pointer (`p[1] == 5`), which the replay takes in
/// order.
#[test]
fn values_stored_through_a_pointer_parameter_are_stated_in_the_callees_scope() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let program = root.join("tests/verdicts/array-input-through-pointer-unsafe.c");
    let program = program.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("cpa-witness-ptr-{}.yml", std::process::id()));
    let w = tmp.to_str().unwrap();
    let (ok, out, err) = cpa(&["verify", program, "--witness", w]);
    assert!(
        ok && out.contains("Verification result: FALSE"),
        "{out} {err}"
    );
    let text = std::fs::read_to_string(&tmp).unwrap();
    for cell in ["p[0] == ", "p[1] == 5", "p[2] == "] {
        assert!(text.contains(cell), "{cell}: {text}");
    }
    assert!(
        !text.contains("a[1]"),
        "the caller's cells are out of scope: {text}"
    );
    let (ok, out, _) = cpa(&["validate-witness", program, w]);
    assert!(ok && out.trim() == "confirmed", "{out}");
    std::fs::write(&tmp, text.replace("p[1] == 5", "p[1] == 6")).unwrap();
    let (ok, out, _) = cpa(&["validate-witness", program, w]);
    assert!(!ok && out.starts_with("refuted: "), "{out}");
}

//! `cpa lesson check`: every bundled lesson (`lessons/*.md`) still lands where its text says
//! (its anchors resolve, its claims hold, its questions have answers), and a lesson whose claim
//! the run contradicts fails with the section's line.

use std::path::Path;
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn lesson_check(files: &[std::path::PathBuf]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cpa"))
        .arg("lesson")
        .arg("check")
        .args(files)
        .output()
        .unwrap()
}

#[test]
fn every_bundled_lesson_holds() {
    let mut files: Vec<_> = std::fs::read_dir(repo().join("lessons"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{} lessons", files.len());
    let out = lesson_check(&files);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let sections = stdout.lines().filter(|l| l.starts_with("  ok")).count();
    assert!(sections >= 24, "{stdout}");
}

#[test]
fn a_claim_the_run_contradicts_fails_with_its_line() {
    let dir = std::env::temp_dir().join(format!("cpa-lesson-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("lessons")).unwrap();
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    std::fs::copy(
        repo().join("examples/max-bug.c"),
        dir.join("examples/max-bug.c"),
    )
    .unwrap();
    let wrong = "---\ntitle: Wrong\nprogram: examples/max-bug.c\npreset: predicate-lbe\n---\n## Start @ start\nexpect: refinements 0\n\n## End @ verdict\nexpect: verdict true\n\n## Later @ refinement 9\n\n## Invariant @ verdict\nquestion: invariant 5\n";
    let path = dir.join("lessons/wrong.md");
    std::fs::write(&path, wrong).unwrap();
    let out = lesson_check(&[path]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("wrong.md:9: section 'End': the verdict is false, not true"),
        "{stderr}"
    );
    assert!(
        stderr.contains("wrong.md:12: section 'Later': the run has no refinement 9"),
        "{stderr}"
    );
    // An invariant question needs a loop at its line and a safe program.
    assert!(
        stderr.contains("wrong.md:14: section 'Invariant': the question asks for an invariant, but no loop starts at line 5"),
        "{stderr}"
    );
    assert!(
        stderr.contains("wrong.md:14: section 'Invariant': the question asks for an invariant that proves the program, but the program is unsafe"),
        "{stderr}"
    );
}

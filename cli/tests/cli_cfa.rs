//! The `cpa check` and `cpa cfa` interfaces (README.md), through the real binary.

use std::path::Path;
use std::process::Command;

fn cpa(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cpa"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("run cpa");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_accepts_and_rejects() {
    let (code, out, _) = cpa(&["check", "examples/lbe-figure1.c"]);
    assert_eq!((code, out.trim()), (0, "ok"));
    let (code, _, err) = cpa(&["check", "tests/diagnostics/syntax.c"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("tests/diagnostics/syntax.c:3:14: error: syntax error"),
        "{err}"
    );
    let (code, _, err) = cpa(&["check", "does/not/exist.c"]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn usage_errors_exit_with_2() {
    assert_eq!(cpa(&["frobnicate"]).0, 2);
    assert_eq!(cpa(&["cfa"]).0, 2);
    assert_eq!(cpa(&["cfa", "x.c", "--format", "png"]).0, 2);
}

#[test]
fn cfa_json_has_the_documented_fields() {
    let (code, out, err) = cpa(&["cfa", "examples/lbe-figure1.c", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let nodes = v["nodes"].as_array().unwrap();
    let edges = v["edges"].as_array().unwrap();
    assert_eq!((nodes.len(), edges.len()), (32, 39));
    for n in nodes {
        for key in ["id", "function", "line", "loop_head", "error"] {
            assert!(n.get(key).is_some(), "node without {key}: {n}");
        }
    }
    for e in edges {
        for key in ["from", "to", "label", "lines"] {
            assert!(e.get(key).is_some(), "edge without {key}: {e}");
        }
    }
    let (_, out, _) = cpa(&["cfa", "examples/lbe-figure1.c", "--lbe", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            v["nodes"].as_array().unwrap().len(),
            v["edges"].as_array().unwrap().len()
        ),
        (3, 2)
    );
    assert_eq!(
        v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["error"] == true)
            .count(),
        1
    );
}

#[test]
fn cfa_dot_is_graphviz() {
    let (code, out, _) = cpa(&["cfa", "tests/cfa/fig2.c", "--lbe"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("digraph"));
    assert_eq!(out.matches(" -> ").count(), 3);
}

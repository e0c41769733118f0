//! Data-driven CFA and LBE tests: every `tests/cfa/NAME.c` and `examples/NAME.c` is built and
//! summarized, and the result must equal `tests/cfa/NAME.expected` (regenerate with `BLESS=1 cargo test`, then
//! review the diff by hand). Every program, and every SV-COMP task, must also satisfy the
//! structural invariants of the LBE summarization.

use cpa_engine::cfa::lbe::{summarize, Op, Rule, Summary};
use cpa_engine::cfa::{Cfa, EdgeKind, NodeId};
use cpa_engine::parse_program;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn dump(cfa: &Cfa, s: &Summary) -> String {
    let mut out = String::new();
    let heads: Vec<String> = cfa
        .nodes
        .iter()
        .filter(|n| n.loop_head)
        .map(|n| n.id.to_string())
        .collect();
    let errors: Vec<String> = cfa.error_nodes().map(|n| n.id.to_string()).collect();
    writeln!(
        out,
        "cfa nodes={} edges={} loop_heads=[{}] errors=[{}]",
        cfa.nodes.len(),
        cfa.edges.len(),
        heads.join(","),
        errors.join(",")
    )
    .unwrap();
    for e in &cfa.edges {
        writeln!(out, "  {} -> {} : {}", e.from, e.to, cfa.label(&e.kind)).unwrap();
    }
    let count = |r: Rule| s.steps.iter().filter(|a| a.rule == r).count();
    writeln!(
        out,
        "lbe nodes={} edges={} steps={} (rule0={} rule1={} rule2={})",
        s.final_nodes.len(),
        s.final_edges.len(),
        s.steps.len(),
        count(Rule::ErrorSink),
        count(Rule::Sequence),
        count(Rule::Choice)
    )
    .unwrap();
    let g = s.graph(cfa);
    for e in &g.edges {
        writeln!(out, "  N{} -> N{} : {}", e.from, e.to, e.label).unwrap();
    }
    out
}

/// Invariants of a summarization (LBE paper, Sect. III-A, and the digest's S1-S3):
/// Rule 0 comes first; l0 and every error location survive; the result is a fixpoint (no
/// parallel mergeable edges, no location Rule 1 could eliminate); replaying the recorded steps
/// from the CFA's edges gives exactly the final edges; every edge stands for original edges.
fn check_invariants(name: &str, cfa: &Cfa, s: &Summary) {
    let alive: BTreeSet<NodeId> = s.final_nodes.iter().copied().collect();
    assert!(alive.contains(&cfa.entry()), "{name}: l0 eliminated");
    for e in cfa.error_nodes() {
        assert!(
            alive.contains(&e.id),
            "{name}: error location {} eliminated",
            e.id
        );
    }
    let first_other = s
        .steps
        .iter()
        .position(|a| a.rule != Rule::ErrorSink)
        .unwrap_or(s.steps.len());
    assert!(
        s.steps[first_other..]
            .iter()
            .all(|a| a.rule != Rule::ErrorSink),
        "{name}: Rule 0 after Rule 1/2"
    );
    // Replay.
    let mut edges: BTreeSet<u32> = (0..cfa.edges.len() as u32).collect();
    for a in &s.steps {
        for r in &a.removed {
            assert!(edges.remove(r), "{name}: step removes missing edge {r}");
        }
        for x in &a.added {
            assert!(edges.insert(*x), "{name}: step adds existing edge {x}");
        }
        match a.rule {
            Rule::Choice => assert_eq!(
                (a.removed.len(), a.added.len()),
                (2, 1),
                "{name}: rule 2 shape"
            ),
            Rule::Sequence => {
                assert_eq!(a.removed.len(), a.added.len() + 1, "{name}: rule 1 shape")
            }
            Rule::ErrorSink => assert!(a.added.is_empty()),
        }
    }
    assert_eq!(
        edges.iter().copied().collect::<Vec<_>>(),
        s.final_edges,
        "{name}: replay differs"
    );
    // Fixpoint.
    let barrier = |id: u32| match s.ops[s.edges[id as usize].op.0 as usize] {
        Op::Edge(e) => cfa.edge(e).kind.is_interprocedural(),
        _ => false,
    };
    let mut parallel: BTreeMap<(NodeId, NodeId), usize> = BTreeMap::new();
    let mut indeg: BTreeMap<NodeId, Vec<u32>> = BTreeMap::new();
    let mut outdeg: BTreeMap<NodeId, Vec<u32>> = BTreeMap::new();
    for &id in &s.final_edges {
        let e = s.edges[id as usize];
        assert!(
            alive.contains(&e.from) && alive.contains(&e.to),
            "{name}: edge on eliminated node"
        );
        assert!(!s.original_edges(e.op).is_empty());
        if !barrier(id) {
            *parallel.entry((e.from, e.to)).or_default() += 1;
        }
        indeg.entry(e.to).or_default().push(id);
        outdeg.entry(e.from).or_default().push(id);
    }
    for ((a, b), n) in parallel {
        assert!(n < 2, "{name}: Rule 2 still applies at {a} -> {b}");
    }
    for &l in &alive {
        let ins = indeg.get(&l).cloned().unwrap_or_default();
        let outs = outdeg.get(&l).cloned().unwrap_or_default();
        if ins.len() == 1 && !outs.is_empty() && l != cfa.entry() && !cfa.node(l).is_error() {
            let e = s.edges[ins[0] as usize];
            let blocked = e.from == l || barrier(ins[0]) || outs.iter().any(|&o| barrier(o));
            assert!(blocked, "{name}: Rule 1 still applies at {l}");
        }
    }
    for e in cfa.error_nodes() {
        assert!(
            outdeg.get(&e.id).is_none_or(|v| v.is_empty()),
            "{name}: error location not a sink"
        );
    }
}

#[test]
fn cfa_and_lbe_golden_files() {
    let dir = repo().join("tests/cfa");
    let bless = std::env::var_os("BLESS").is_some();
    let mut names: Vec<PathBuf> = Vec::new();
    for d in [dir.clone(), repo().join("examples")] {
        let files = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path());
        names.extend(files.filter(|p| p.extension().is_some_and(|x| x == "c")));
    }
    names.sort();
    assert!(names.len() >= 10);
    let mut failures = Vec::new();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&path).unwrap();
        let parsed = parse_program(&name, &src).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        let s = summarize(&parsed.cfa);
        check_invariants(&name, &parsed.cfa, &s);
        let got = dump(&parsed.cfa, &s);
        let exp_path = dir
            .join(path.file_name().unwrap())
            .with_extension("expected");
        if bless {
            std::fs::write(&exp_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&exp_path).unwrap_or_default();
        if expected != got {
            failures.push(format!(
                "{name}: differs from {}\n--- got ---\n{got}",
                exp_path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The LBE paper's Figure 1: the whole program becomes one block; the summary keeps exactly
/// the initial location, the error location and the exit.
#[test]
fn figure1_summarizes_to_three_locations() {
    let src = std::fs::read_to_string(repo().join("examples/lbe-figure1.c")).unwrap();
    let p = parse_program("fig1.c", &src).unwrap();
    let s = summarize(&p.cfa);
    assert_eq!((s.final_nodes.len(), s.final_edges.len()), (3, 2));
    let kinds: BTreeSet<_> = s
        .final_nodes
        .iter()
        .map(|n| format!("{:?}", p.cfa.node(*n).kind))
        .collect();
    assert_eq!(
        kinds,
        ["Error", "FunctionEntry", "FunctionExit"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
}

/// Figure 2: the loop body becomes a self-loop on the loop head.
#[test]
fn figure2_loop_becomes_self_loop() {
    let src = std::fs::read_to_string(repo().join("tests/cfa/fig2.c")).unwrap();
    let p = parse_program("fig2.c", &src).unwrap();
    let s = summarize(&p.cfa);
    let head = p
        .cfa
        .nodes
        .iter()
        .find(|n| n.loop_head)
        .expect("loop head")
        .id;
    let self_loops: Vec<_> = s
        .final_edges
        .iter()
        .map(|&e| s.edges[e as usize])
        .filter(|e| e.from == head && e.to == head)
        .collect();
    assert_eq!(self_loops.len(), 1);
    let text = s.op_text(&p.cfa, self_loops[0].op);
    assert!(
        text.contains("[i > 0]") && text.contains(" ∥ ") && text.contains("i = i - 1"),
        "{text}"
    );
    assert_eq!(s.final_nodes.len(), 3, "entry, loop head, exit");
}

#[test]
fn every_svcomp_task_builds_a_cfa_and_summarizes() {
    let dir = repo().join("tests/svcomp");
    let tsv = std::fs::read_to_string(dir.join("tasks.tsv")).unwrap();
    let mut count = 0;
    for line in tsv.lines().skip(1) {
        let path = line.split('\t').next().unwrap();
        let src = std::fs::read_to_string(dir.join(path)).unwrap();
        let parsed = parse_program(path, &src).unwrap_or_else(|d| {
            panic!(
                "{path}: {}",
                d.iter()
                    .map(|d| d.render(path))
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
        let cfa = &parsed.cfa;
        assert!(cfa.error_nodes().count() >= 1, "{path}: no error location");
        assert!(
            cfa.edges
                .iter()
                .any(|e| matches!(e.kind, EdgeKind::ReachError(_))),
            "{path}"
        );
        let s = summarize(cfa);
        check_invariants(path, cfa, &s);
        assert!(s.final_edges.len() <= cfa.edges.len());
        count += 1;
    }
    assert_eq!(count, 59);
}

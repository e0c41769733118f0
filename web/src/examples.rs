//! The examples gallery, embedded at build time.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// Stable key (the `<option>` value; later also the share-link key).
    pub key: &'static str,
    pub title: &'static str,
    pub group: &'static str,
    /// File name shown in diagnostics and used as the engine's file name.
    pub file: &'static str,
    pub source: &'static str,
}

const PAPERS: &str = "From the papers";
const TEACHING: &str = "Teaching examples";
const SVCOMP: &str = "SV-COMP tasks";

pub const EXAMPLES: &[Example] = &[
    Example {
        key: "lbe-figure1",
        title: "LBE paper, Figure 1: a chain of ifs",
        group: PAPERS,
        file: "lbe-figure1.c",
        source: include_str!("../../examples/lbe-figure1.c"),
    },
    Example {
        key: "lbe-figure2",
        title: "LBE paper, Figure 2: a loop",
        group: PAPERS,
        file: "lbe-figure2.c",
        source: include_str!("../../examples/lbe-figure2.c"),
    },
    Example {
        key: "gcd",
        title: "Euclid's gcd (function call, loop)",
        group: TEACHING,
        file: "gcd.c",
        source: include_str!("../../examples/gcd.c"),
    },
    Example {
        key: "sum-loop",
        title: "Counting loop with an invariant",
        group: TEACHING,
        file: "sum-loop.c",
        source: include_str!("../../examples/sum-loop.c"),
    },
    Example {
        key: "max-bug",
        title: "Buggy max (assertion fails)",
        group: TEACHING,
        file: "max-bug.c",
        source: include_str!("../../examples/max-bug.c"),
    },
    Example {
        key: "svcomp-test_locks_5",
        title: "locks/test_locks_5.c (true)",
        group: SVCOMP,
        file: "test_locks_5.c",
        source: include_str!("../../tests/svcomp/locks/test_locks_5.c"),
    },
    Example {
        key: "svcomp-diamond_1-2",
        title: "loop-acceleration/diamond_1-2.c (false)",
        group: SVCOMP,
        file: "diamond_1-2.c",
        source: include_str!("../../tests/svcomp/loop-acceleration/diamond_1-2.c"),
    },
    Example {
        key: "svcomp-afterrec-1",
        title: "recursive-simple/afterrec-1.c (false)",
        group: SVCOMP,
        file: "afterrec-1.c",
        source: include_str!("../../tests/svcomp/recursive-simple/afterrec-1.c"),
    },
];

pub fn by_key(key: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.key == key)
}

/// The groups in gallery order.
pub fn groups() -> Vec<&'static str> {
    let mut g: Vec<&'static str> = Vec::new();
    for e in EXAMPLES {
        if !g.contains(&e.group) {
            g.push(e.group);
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_builds_a_cfa() {
        for e in EXAMPLES {
            let r = cpa_engine::report::cfa_report(e.file, e.source);
            assert!(r.ok, "{}: {:?}", e.key, r.diagnostics);
        }
    }

    #[test]
    fn keys_are_unique() {
        for (i, e) in EXAMPLES.iter().enumerate() {
            assert_eq!(by_key(e.key), Some(&EXAMPLES[i]));
        }
        assert_eq!(groups(), vec![PAPERS, TEACHING, SVCOMP]);
    }
}

//! The examples gallery, embedded at build time.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// Stable key (the `<option>` value; later also the share-link key).
    pub key: &'static str,
    pub title: &'static str,
    pub group: &'static str,
    /// File name shown in diagnostics and used as the engine's file name.
    pub file: &'static str,
    /// The file's path in the repository (`examples/gcd.c`): how lessons name it.
    pub path: &'static str,
    pub source: &'static str,
    /// The preset the example opens with.
    pub preset: &'static str,
    /// The knobs set on top of the preset (`key`, `value`), where the example shows something
    /// the preset's defaults do not (the paper's interpolant, say).
    pub knobs: &'static [(&'static str, &'static str)],
    /// One sentence on what the example shows.
    pub about: &'static str,
}

const PAPERS: &str = "From the papers";
const TEACHING: &str = "Teaching examples";
const MEMORY: &str = "Arrays, pointers, structs";
const SVCOMP: &str = "SV-COMP tasks";

macro_rules! example {
    ($key:expr, $title:expr, $group:expr, $file:expr, $path:expr, $preset:expr, $about:expr) => {
        example!($key, $title, $group, $file, $path, $preset, $about, knobs: [])
    };
    ($key:expr, $title:expr, $group:expr, $file:expr, $path:expr, $preset:expr, $about:expr,
     knobs: [$(($k:expr, $v:expr)),*]) => {
        Example {
            key: $key,
            title: $title,
            group: $group,
            file: $file,
            path: $path,
            source: include_str!($path),
            preset: $preset,
            knobs: &[$(($k, $v)),*],
            about: $about,
        }
    };
}

pub const EXAMPLES: &[Example] = &[
    example!("lbe-figure1", "LBE paper, Figure 1: a chain of ifs", PAPERS, "lbe-figure1.c",
        "../../../examples/lbe-figure1.c", "predicate-lbe",
        "Large-block encoding summarizes the whole loop-free program into one block: the ARG has a single abstraction after the start (compare predicate-sbe)."),
    example!("lbe-figure2", "LBE paper, Figure 2: a loop", PAPERS, "lbe-figure2.c",
        "../../../examples/lbe-figure2.c", "predicate-lbe",
        "A loop body summarized into one edge per path: blocks end at the loop head, so each iteration is one abstraction."),
    example!("unifying-fig2", "Unifying-view paper, Figure 2: x and y together", PAPERS, "unifying-fig2.c",
        "../../../tests/verdicts/unifying-fig2.c", "predicate-lbe",
        "The unifying view's running example: one refinement learns that x and y stay equal; try impact, bmc and kinduction on it too.",
        // The paper's interpolant `x = y`: the preset's backward interpolant is the weakest
        // precondition `x = y ∨ x ≥ 2`; the prefix drops the disjunct the path cannot need.
        knobs: [("interpolation", "backward-auto-prefix")]),
    example!("refine-loop", "Several refinements: a counting loop", TEACHING, "refine-loop.c",
        "../../../examples/refine-loop.c", "predicate-lbe",
        "Predicate abstraction needs several refinements here: each spurious path adds predicates until the loop is tracked precisely enough."),
    example!("impact-vs-lazy", "IMPACT and lazy abstraction differ: a lock", TEACHING, "impact-example.c",
        "../../../tests/verdicts/impact-example.c", "impact",
        "IMPACT strengthens the states on the spurious path (see the Refinements tab: no predicates, strengthened states); switch to predicate-lbe to see predicates added at the pivot instead."),
    example!("bmc-deep-bug", "BMC finds a deep bug fast", TEACHING, "bmc-deep-bug.c",
        "../../../examples/bmc-deep-bug.c", "bmc",
        "The bug needs 30 iterations: BMC unrolls until k = 30 and finds it in a few checks, where lazy abstraction would refine once per iteration."),
    example!("accel-nested", "Loop acceleration: 2^28 iterations", TEACHING, "accel-nested.c",
        "../../../examples/accel-nested.c", "execution",
        "The run needs no input, so it is the only execution: each loop is skipped by its closed form after one iteration, and the assertion fails after 2^28 - 1 outer iterations (see the Counterexample tab)."),
    example!("input-split", "Input splitting: every n at once", TEACHING, "input-split.c",
        "../../../examples/input-split.c", "execution",
        "The run reads n and goes on for all its values as one class (its states say t ∈ [lo, hi]); each test i <= n splits off the value that leaves the loop, whose concrete run checks the sum: 100 runs prove the program."),
    example!("kinduction-proves", "k-induction proves what BMC cannot", TEACHING, "kinduction-proves.c",
        "../../../examples/kinduction-proves.c", "kinduction",
        "k-induction proves the loop safe with k = 1; BMC never can (its forward condition fails for every bound, try it)."),
    example!("recursion", "Recursion: factorial", TEACHING, "recursion-unsafe.c",
        "../../../tests/verdicts/recursion-unsafe.c", "predicate-lbe",
        "Recursive calls are inlined by the call stack up to a depth bound; the counterexample steps through every call."),
    example!("unsigned-wrap", "Unsigned wrap-around: 0 - 1", TEACHING, "unsigned-wrap-unsafe.c",
        "../../../tests/verdicts/unsigned-wrap-unsafe.c", "predicate-lbe",
        "Unsigned arithmetic wraps modulo 2^32: x - 1 is not below x when x is 0, and the counterexample shows the values."),
    example!("max-bug", "Buggy max (assertion fails)", TEACHING, "max-bug.c",
        "../../../examples/max-bug.c", "predicate-lbe",
        "A FALSE verdict: the Counterexample tab steps through the failing path line by line, with the variables' values."),
    example!("gcd", "Euclid's gcd (function call, loop)", TEACHING, "gcd.c",
        "../../../examples/gcd.c", "predicate-lbe",
        "A function with a loop: five refinements teach the predicates that prove both assertions (a longer run: about 300 states)."),
    example!("mem-swap", "Swap through pointers", MEMORY, "swap.c",
        "../../../examples/swap.c", "predicate-lbe",
        "swap(&a, &b) writes through its pointer parameters: p points to a, q to b (the points-to analysis says so), and the values are exchanged."),
    example!("mem-array-init", "Array initialisation and its invariant", MEMORY, "array-init.c",
        "../../../examples/array-init.c", "predicate-lbe",
        "Each cell a[0] ... a[5] is a variable of its own; the refinements learn a[k] == 2 * k cell by cell, the loop invariant written out for a small array."),
    example!("mem-linear-search", "Linear search", MEMORY, "linear-search.c",
        "../../../examples/linear-search.c", "predicate-lbe",
        "a[i] with a variable index reads the cell i names; the predicate a[i] != key at the loop head proves that a stop before the end found the key."),
    example!("mem-binary-search", "Binary search (BMC unrolls it)", MEMORY, "binary-search.c",
        "../../../examples/binary-search.c", "bmc",
        "The search halves [lo, hi] at most four times: BMC unrolls every iteration, and the forward condition proves the program once no path goes deeper."),
    example!("mem-bubble-pass", "Bubble sort's inner loop", MEMORY, "bubble-pass.c",
        "../../../examples/bubble-pass.c", "symbolic",
        "One pass of swaps moves the largest of four inputs to a[3]: symbolic execution keeps the cells as symbolic values and proves it path by path."),
    example!("mem-struct-counters", "A struct of two counters", MEMORY, "struct-counters.c",
        "../../../examples/struct-counters.c", "value",
        "c->even++ through a pointer to a struct: the cells c.even and c.odd are tracked as explicit values, the call counted either way."),
    example!("mem-buffer-overflow", "Buffer overflow, found by BMC", MEMORY, "buffer-overflow.c",
        "../../../examples/buffer-overflow.c", "bmc",
        "The loop writes buf[4] when len is 4: BMC reaches the bounds check's failure, and the run ends UNKNOWN naming the line (undefined behaviour is never verified past)."),
    example!("svcomp-test_locks_5", "locks/test_locks_5.c (true)", SVCOMP, "test_locks_5.c",
        "../../../tests/svcomp/locks/test_locks_5.c", "predicate-lbe",
        "The LBE paper's locks family: with large blocks the lock flags never need a refinement; predicate-sbe hits its refinement limit."),
    example!("svcomp-benchmark02_linear", "loop-zilu/benchmark02_linear.i (true)", SVCOMP, "benchmark02_linear.i",
        "../../../tests/svcomp/loop-zilu/benchmark02_linear.i", "predicate-lbe",
        "A linear loop invariant found by one refinement; k-induction proves it with k = 1."),
    example!("svcomp-hhk2008", "loop-lit/hhk2008.i (true)", SVCOMP, "hhk2008.i",
        "../../../tests/svcomp/loop-lit/hhk2008.i", "predicate-lbe",
        "A loop from the literature that needs six refinements with predicate abstraction."),
    example!("svcomp-afterrec-1", "recursive-simple/afterrec-1.c (false)", SVCOMP, "afterrec-1.c",
        "../../../tests/svcomp/recursive-simple/afterrec-1.c", "impact",
        "A bug after a recursive call, found by IMPACT in a few refinements."),
];

pub fn by_key(key: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.key == key)
}

/// The example of a repository path (`examples/gcd.c`), as lessons name programs.
pub fn by_path(path: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.repo_path() == path)
}

impl Example {
    /// The configuration the example opens with: its preset and knobs.
    pub fn config(&self) -> crate::protocol::RunConfig {
        crate::protocol::RunConfig {
            preset: self.preset.to_string(),
            set: self
                .knobs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// The file's path relative to the repository (`examples/gcd.c`), as lessons name it.
    pub fn repo_path(&self) -> &'static str {
        self.path.trim_start_matches("../../../")
    }
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
    fn every_example_opens_with_a_known_preset_and_says_what_it_shows() {
        for e in EXAMPLES {
            assert!(
                cpa_engine::config::Config::preset(e.preset).is_some(),
                "{}",
                e.key
            );
            assert!(e.about.ends_with('.') && e.about.len() > 40, "{}", e.key);
            assert!(e.config().resolve().is_ok(), "{}", e.key);
        }
    }

    #[test]
    fn keys_are_unique() {
        for (i, e) in EXAMPLES.iter().enumerate() {
            assert_eq!(by_key(e.key), Some(&EXAMPLES[i]));
        }
        assert_eq!(groups(), vec![PAPERS, TEACHING, MEMORY, SVCOMP]);
    }
}

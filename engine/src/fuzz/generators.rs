//! Program generators for experiments and the examples gallery.

/// The `test_locks_N` family of SV-COMP (`c/locks`), which the LBE paper used to show that
/// single-block encoding explodes while LBE stays constant: N nondeterministic condition
/// variables `p_i` and locks `lk_i` in an unbounded loop; every lock taken in the lock phase is
/// checked and released in the unlock phase. Safe for every N.
pub fn test_locks(n: usize) -> String {
    let mut s = String::from("extern void abort(void);\nvoid reach_error(){}\n\nextern int __VERIFIER_nondet_int();\nint main()\n{\n");
    for i in 1..=n {
        s.push_str(&format!("    int p{i} = __VERIFIER_nondet_int();  // condition variable\n    int lk{i}; // lock variable\n\n"));
    }
    s.push_str("    int cond;\n\n    while(1) {\n        cond = __VERIFIER_nondet_int();\n        if (cond == 0) {\n            goto out;\n        } else {}\n");
    for i in 1..=n {
        s.push_str(&format!("        lk{i} = 0; // initially lock is open\n"));
    }
    s.push_str("\n    // lock phase\n");
    for i in 1..=n {
        s.push_str(&format!("        if (p{i} != 0) {{\n            lk{i} = 1; // acquire lock\n        }} else {{}}\n"));
    }
    s.push_str("\n    // unlock phase\n");
    for i in 1..=n {
        s.push_str(&format!(
            "        if (p{i} != 0) {{\n            if (lk{i} != 1) goto ERROR; // assertion failure\n            lk{i} = 0;\n        }} else {{}}\n"
        ));
    }
    s.push_str(
        "    }\n  out:\n    return 0;\n  ERROR: {reach_error();abort();}\n    return 0;\n}\n",
    );
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_locks_5_has_the_svcomp_shape() {
        let src = super::test_locks(5);
        let parsed = crate::frontend::parse_program("test_locks_5.c", &src).unwrap();
        let ours = crate::cfa::lbe::summarize(&parsed.cfa);
        let orig_src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/svcomp/locks/test_locks_5.c"
        ))
        .unwrap();
        let orig = crate::frontend::parse_program("o.c", &orig_src).unwrap();
        assert_eq!(parsed.cfa.nodes.len(), orig.cfa.nodes.len());
        assert_eq!(parsed.cfa.edges.len(), orig.cfa.edges.len());
        assert_eq!(
            ours.final_edges.len(),
            crate::cfa::lbe::summarize(&orig.cfa).final_edges.len()
        );
    }
}

//! Feeds thousands of mutated and truncated programs to the front end: none may panic. Any
//! input that parses must also survive LBE summarization and the report.

use cpa_engine::report::cfa_report;
use std::path::Path;

/// xorshift64*: a tiny deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    ";",
    "*",
    "&",
    "[",
    "]",
    "int ",
    "unsigned ",
    "char ",
    "goto L;",
    "L:",
    "#define X 1\n",
    "#define F(a) (a+1)\n",
    "#if 1\n",
    "#endif\n",
    "#include <stdio.h>\n",
    "#include \"x.h\"\n",
    "'",
    "\"",
    "/*",
    "*/",
    "//",
    "\\",
    "\n",
    "x",
    "0x",
    "1e5",
    "'\\x41'",
    "__VERIFIER_nondet_int()",
    "reach_error();",
    "switch (x) { case 1: ; }",
    "case 2:",
    "default:",
    "break;",
    "continue;",
    "return",
    "sizeof(int)",
    "(char)",
    "x++",
    "--x",
    "+=",
    "<<=",
    "?",
    ":",
    ",",
    "é",
    "∥",
    "\u{0}",
    "struct s",
    "float f;",
    "int *p;",
    "a[3]",
    "void f(void);",
    "f(1,2,3)",
    "while(1)",
    "for(;;)",
    "do {} while(0);",
    "if (x) else",
    "9999999999999999999999",
    "__extension__",
    "__attribute__((noreturn))",
    "({ 1; })",
    "typedef int T;",
    "T t;",
    "enum { A = 1 << 40 };",
    "x / 0",
    "1 << 99",
    "-2147483648",
    "18446744073709551615ULL",
];

fn mutate(rng: &mut Rng, base: &str) -> String {
    let mut s: Vec<u8> = base.as_bytes().to_vec();
    let rounds = if rng.below(4) == 0 { 3 } else { 1 };
    for _ in 0..rounds {
        let len = s.len();
        match rng.below(9) {
            // Mild mutations that usually keep the program well-formed, so that the lowering and
            // the summarization are exercised too, not only the parser's error paths.
            6 | 7 => {
                let digits: Vec<usize> = (0..len).filter(|&i| s[i].is_ascii_digit()).collect();
                if !digits.is_empty() {
                    let at = digits[rng.below(digits.len())];
                    s[at] = b'0' + (rng.below(10) as u8);
                }
            }
            8 => {
                let ops: Vec<usize> = (0..len)
                    .filter(|&i| b"<>+-*/%&|^!=".contains(&s[i]))
                    .collect();
                if !ops.is_empty() {
                    let at = ops[rng.below(ops.len())];
                    s[at] = b"<>+-*/%&|^!="[rng.below(12)];
                }
            }
            0 => s.truncate(rng.below(len + 1)),
            1 => {
                let a = rng.below(len + 1);
                let b = (a + rng.below(40)).min(len);
                s.drain(a..b);
            }
            2 | 3 => {
                let at = rng.below(len + 1);
                let frag = FRAGMENTS[rng.below(FRAGMENTS.len())];
                s.splice(at..at, frag.bytes());
            }
            4 => {
                let a = rng.below(len + 1);
                let b = (a + rng.below(80)).min(len);
                let piece = s[a..b].to_vec();
                let at = rng.below(s.len() + 1);
                s.splice(at..at, piece);
            }
            _ => {
                if len > 0 {
                    let at = rng.below(len);
                    s[at] = (rng.next() & 0x7f) as u8;
                }
            }
        }
    }
    // The front end takes text; cut at a character boundary like an editor would deliver.
    String::from_utf8_lossy(&s).into_owned()
}

fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["tests/cfa", "examples"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "c") {
                files.push(std::fs::read_to_string(p).unwrap());
            }
        }
    }
    let tsv = std::fs::read_to_string(root.join("tests/svcomp/tasks.tsv")).unwrap();
    for line in tsv.lines().skip(1) {
        let path = line.split('\t').next().unwrap();
        let text = std::fs::read_to_string(root.join("tests/svcomp").join(path)).unwrap();
        if text.len() < 6000 {
            files.push(text);
        }
    }
    files.sort();
    files
}

#[test]
fn mutated_and_truncated_programs_never_panic() {
    let corpus = corpus();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let iterations = std::env::var("FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 1500 } else { 6000 });
    let mut parsed_ok = 0;
    for i in 0..iterations {
        let base = &corpus[rng.below(corpus.len())];
        let input = mutate(&mut rng, base);
        let result = std::panic::catch_unwind(|| cfa_report("fuzz.c", &input));
        match result {
            Ok(report) => {
                if report.ok {
                    parsed_ok += 1;
                } else {
                    assert!(
                        !report.diagnostics.is_empty(),
                        "iteration {i}: rejected without a diagnostic"
                    );
                    for d in &report.diagnostics {
                        assert!(
                            d.span.start_line >= 1 && d.span.start_col >= 1,
                            "iteration {i}: bad position {d:?}"
                        );
                    }
                }
            }
            Err(_) => {
                let path = std::env::temp_dir().join(format!("cpa-fuzz-{i}.c"));
                std::fs::write(&path, &input).unwrap();
                panic!(
                    "iteration {i}: the front end panicked; input saved to {}",
                    path.display()
                );
            }
        }
    }
    // The mutations must not all be fatal, or the test would only exercise the error paths.
    assert!(
        parsed_ok > iterations / 20,
        "only {parsed_ok} of {iterations} mutants parsed"
    );
}

#[test]
fn pathological_inputs_get_diagnostics() {
    let deep = format!(
        "int main() {{ return {}1{}; }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let r = cfa_report("deep.c", &deep);
    assert!(
        !r.ok && r.diagnostics[0].message.contains("nesting"),
        "{:?}",
        r.diagnostics
    );
    let negs = format!("int main() {{ return {}1; }}", "-".repeat(100000));
    assert!(!cfa_report("negs.c", &negs).ok);
    assert!(!cfa_report("empty.c", "").ok);
    let r = cfa_report("nul.c", "\0\0\0");
    assert!(!r.ok);
    let r = cfa_report(
        "macro.c",
        "#define A A A A A A A A\n#define B A B A B A B\nint main() { return B; }",
    );
    assert!(r.diagnostics.iter().all(|d| d.span.start_line >= 1));
    // Found by `cpa fuzz-frontend`: the parser's time is exponential in a run of `--` that
    // does not end in an operand (40 of them took hours); such runs are refused up front.
    for run in ["-- ".repeat(13), "-".repeat(26), "++ -".repeat(13)] {
        let src = format!("int main(void) {{\n  {run}return 0;\n}}\n");
        let r = cfa_report("decrements.c", &src);
        assert!(
            !r.ok && r.diagnostics[0].message.contains("increment or decrement"),
            "{:?}",
            r.diagnostics
        );
        assert_eq!(r.diagnostics[0].span.start_line, 2);
    }
    let ok = "int main(void) { int x = 5; int y = - --x; y = x-- - --x; printf(\"-----------------------------\"); y = '-' - '-'; return -(-(--y)); }";
    assert!(cfa_report("ok.c", ok).ok);
}

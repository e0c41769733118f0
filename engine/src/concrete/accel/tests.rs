//! The accelerating runner against the plain interpreter: the same outcome and the same final
//! values on loops small enough to run iteration by iteration, and few steps on loops that are
//! not.

use crate::concrete;
use crate::concrete::accel::*;
use crate::frontend::parse_program;
use crate::fuzz::exec::RandomOracle;
use crate::fuzz::Rng;

const HEADER: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
    extern unsigned int __VERIFIER_nondet_uint(void);\n\
    void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); } }\n";

fn cfa(body: &str) -> Cfa {
    let text = format!("{HEADER}{body}");
    parse_program("t.c", &text)
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"))
        .cfa
}

fn accel(cfa: &Cfa, max_steps: usize) -> Run {
    run(cfa, &mut NoInput, max_steps)
}

/// The runs of the SV-COMP loop-acceleration tasks, scaled or not: each needs 10^3 to 10^9
/// iterations one by one, a few hundred steps accelerated.
#[test]
fn deep_loops_run_in_few_steps() {
    let cases = [
        (
            "int main(void) { unsigned int x = 1; unsigned int y = 0;\n\
             while (y < 1024) { x = 0; y++; }\n __VERIFIER_assert(x == 1); }",
            Outcome::ReachedError,
        ),
        (
            "int main(void) { unsigned int x = 0; unsigned int y = 0;\n\
             while (x < 0x0fffffff) { y = 0; while (y < 10) { y++; } x++; }\n\
             __VERIFIER_assert(!(x % 2)); }",
            Outcome::ReachedError,
        ),
        (
            "unsigned int f(unsigned int z) { return z + 2; }\n\
             int main(void) { unsigned int x = 0; while (x < 0x0fffffff) { x = f(x); }\n\
             __VERIFIER_assert(x % 2); }",
            Outcome::ReachedError,
        ),
        (
            "int main(void) { unsigned int x = 0;\n\
             while (x < 0x0fffffff) { if (x < 0xfff0) { x++; } else { x += 2; } }\n\
             __VERIFIER_assert(!(x % 2)); }",
            Outcome::Terminated,
        ),
        (
            "int main(void) { unsigned int i = 0; unsigned int j = 0; unsigned int k = 0;\n\
             while (k < 0x0fffffff) { i = i + 1; j = j + 2; k = k + 3;\n\
             __VERIFIER_assert(k == (i + j)); } }",
            Outcome::Terminated,
        ),
    ];
    for (program, want) in cases {
        let cfa = cfa(program);
        let r = accel(&cfa, 2_000);
        assert_eq!(r.outcome, want, "{program}");
        assert!(
            r.trace.iter().any(|s| s.op.contains("(accelerated)")),
            "{program}"
        );
    }
}

/// deep-nested.c of SV-COMP: five nested loops up to 2^32 - 2 each, the error when all
/// counters are 2^32 - 3. Its inner counts are affine in the outer counters.
#[test]
fn five_nested_loops_reach_the_error() {
    let cfa = cfa(
        "int main() { unsigned a, b, c, d, e; unsigned uint32_max;\n\
        uint32_max = 0xffffffff;\n\
        for (a = 0; a < uint32_max - 1; ++a) {\n\
        for (b = 0; b < uint32_max - 1; ++b) {\n\
        for (c = 0; c < uint32_max - 1; ++c) {\n\
        for (d = 0; d < uint32_max - 1; ++d) {\n\
        for (e = 0; e < uint32_max - 1; ++e) {\n\
        if ((a == b) && (b == c) && (c == d) && (d == e) && (e == (uint32_max - 2))) {\n\
        reach_error(); } } } } } }\n return 0; }",
    );
    let r = accel(&cfa, 2_000_000);
    assert_eq!(r.outcome, Outcome::ReachedError);
    let last = &r.trace.last().unwrap().values;
    for v in ["a", "b", "c", "d", "e"] {
        assert_eq!(last[v], 0xffff_fffd, "{v}");
    }
}

/// A state that comes back at a loop head: the run never ends.
#[test]
fn a_repeated_state_diverges() {
    let cfa1 = cfa("int main(void) { int x = 3; while (1) { x = x; if (x == 4) reach_error(); } }");
    assert_eq!(accel(&cfa1, 1_000).outcome, Outcome::Diverges);
    // Wrap-around is never skipped: the counter runs through it, jump by jump.
    let cfa2 = cfa("int main(void) { unsigned char c = 0; int n = 0;\n\
        while (n < 1000) { c = c + 1; n++; }\n __VERIFIER_assert(c == 1000 % 256); }");
    let plain = concrete::run(&cfa2, &mut NoInput, 100_000);
    let fast = accel(&cfa2, 100_000);
    assert_eq!(plain.outcome, Outcome::Terminated);
    assert_eq!(fast.outcome, Outcome::Terminated);
    assert_eq!(
        plain.trace.last().unwrap().values,
        fast.trace.last().unwrap().values
    );
    assert!(fast.trace.len() < plain.trace.len() / 10);
}

/// Random loop programs (nested loops, branches, calls, wrap-around, small bounds): the
/// accelerated run ends as the plain one does, with the same values.
#[test]
fn random_loops_agree_with_the_interpreter() {
    let mut jumps = 0;
    let mut compared = 0;
    for seed in 0..400u64 {
        let text = random_loop_program(&mut Rng::new(seed));
        let cfa = cfa(&text);
        let plain = concrete::run(&cfa, &mut NoInput, 400_000);
        let fast = run(&cfa, &mut NoInput, 400_000);
        jumps += fast
            .trace
            .iter()
            .filter(|s| s.op.contains("(accelerated)"))
            .count();
        if plain.outcome == Outcome::StepLimit {
            continue;
        }
        compared += 1;
        assert_eq!(fast.outcome, plain.outcome, "seed {seed}\n{text}");
        assert_eq!(
            fast.trace.last().map(|s| &s.values),
            plain.trace.last().map(|s| &s.values),
            "seed {seed}\n{text}"
        );
        if fast.outcome == Outcome::ReachedError {
            assert_eq!(
                fast.trace.last().unwrap().line,
                plain.trace.last().unwrap().line,
                "seed {seed}"
            );
        }
    }
    assert!(compared > 300, "only {compared} runs compared");
    assert!(jumps > 300, "only {jumps} jumps");
}

/// Random inputs as well: generated programs of the differential tests, three input sequences
/// each.
#[test]
fn fuzz_programs_agree_with_the_interpreter() {
    let mut compared = 0;
    for seed in 0..150u64 {
        let g = crate::fuzz::gen::generate(seed);
        let text = g.program.render();
        let cfa = parse_program("t.c", &text).unwrap().cfa;
        for k in 0..3u64 {
            let mut o1 = RandomOracle::new(Rng::derive(seed, k));
            let mut o2 = RandomOracle::new(Rng::derive(seed, k));
            let plain = concrete::run(&cfa, &mut o1, 200_000);
            if plain.outcome == Outcome::StepLimit {
                continue;
            }
            let fast = run(&cfa, &mut o2, 200_000);
            compared += 1;
            assert_eq!(fast.outcome, plain.outcome, "seed {seed} run {k}\n{text}");
            assert_eq!(o1.inputs, o2.inputs, "seed {seed} run {k}");
            assert_eq!(
                fast.trace.last().map(|s| &s.values),
                plain.trace.last().map(|s| &s.values),
                "seed {seed} run {k}\n{text}"
            );
        }
    }
    assert!(compared > 300, "only {compared} runs compared");
}

/// A program of nested loops over a few variables of mixed types, with constant and variable
/// bounds, branches inside, resets, calls and assertions; every loop ends within a few hundred
/// iterations.
fn random_loop_program(rng: &mut Rng) -> String {
    let types = ["int", "unsigned int", "unsigned char", "short", "long long"];
    let nvars = 3 + rng.below(3);
    let mut s =
        String::from("int g;\nint inc(int v, int by) { return v + by; }\nint main(void) {\n");
    let vars: Vec<String> = (0..nvars).map(|i| format!("v{i}")).collect();
    for v in &vars {
        s.push_str(&format!(
            "  {} {v} = {};\n",
            rng.pick(&types),
            rng.range(-5, 20)
        ));
    }
    let mut counter = 0;
    loop_stmt(rng, &vars, &mut s, 1, &mut counter);
    if rng.chance(50) {
        loop_stmt(rng, &vars, &mut s, 1, &mut counter);
    }
    s.push_str(&format!(
        "  __VERIFIER_assert({} != {});\n  return 0;\n}}\n",
        rng.pick(&vars),
        rng.range(-3, 300)
    ));
    s
}

fn loop_stmt(rng: &mut Rng, vars: &[String], s: &mut String, depth: usize, counter: &mut usize) {
    let ind = "  ".repeat(depth);
    let c = format!("c{counter}");
    *counter += 1;
    let bound = rng.range(0, if depth == 1 { 300 } else { 12 });
    let step = *rng.pick(&[1i128, 1, 1, 2, 3]);
    match rng.below(3) {
        0 => s.push_str(&format!("{ind}for (int {c} = 0; {c} < {bound}; {c} += {step}) {{\n")),
        1 => s.push_str(&format!(
            "{ind}int {c} = {bound};\n{ind}while ({c} > 0) {{\n{ind}  {c} = {c} - {step};\n"
        )),
        _ => s.push_str(&format!(
            "{ind}unsigned int {c} = 0;\n{ind}while (1) {{\n{ind}  if ({c} >= {bound}) break;\n{ind}  {c}++;\n"
        )),
    }
    for _ in 0..1 + rng.below(3) {
        let v = rng.pick(vars).clone();
        let w = rng.pick(vars).clone();
        let k = rng.range(-4, 7);
        let stmt = match rng.below(9) {
            0 => format!("{v} = {v} + {k};"),
            1 => format!("{v} = {k};"),
            2 => format!(
                "if ({w} > {}) {{ {v} = {v} + 1; }} else {{ {v} = {v} - 2; }}",
                rng.range(-5, 40)
            ),
            3 => format!("{v} = inc({v}, {k});"),
            4 => format!("{v} = {v} + {c};"),
            5 => format!("if ({v} == {}) {{ g = g + 1; }}", rng.range(0, 60)),
            6 => format!("{v} = {w} * 2 + 1;"),
            7 => format!("{v} = ({v} + {w}) % 7;"),
            _ => format!("g = g + {k};"),
        };
        s.push_str(&format!("{ind}  {stmt}\n"));
    }
    if depth < 3 && rng.chance(45) {
        loop_stmt(rng, vars, s, depth + 1, counter);
    }
    if rng.chance(15) {
        s.push_str(&format!(
            "{ind}  if ({} == {}) reach_error();\n",
            rng.pick(vars),
            rng.range(0, 100)
        ));
    }
    s.push_str(&format!("{ind}}}\n"));
}

//! The generator: programs that parse, deterministic per seed, with their witnesses.

use super::*;
use crate::concrete::Outcome;
use crate::fuzz::exec::SequenceOracle;

#[test]
fn programs_parse_and_are_deterministic() {
    let mut lines = 0;
    let mut witnesses = 0;
    for seed in 0..300 {
        let g = generate(seed);
        let text = g.program.render();
        assert_eq!(text, generate(seed).program.render(), "seed {seed}");
        assert!(!text.contains("__VERIFIER_assert(1);"), "seed {seed}");
        let parsed =
            parse_program("t.c", &text).unwrap_or_else(|e| panic!("seed {seed}: {e:?}\n{text}"));
        lines += text.lines().count();
        if let Some(w) = g.witness {
            witnesses += 1;
            let mut o = SequenceOracle::new(w);
            let run = concrete::run(&parsed.cfa, &mut o, 100_000);
            assert_eq!(run.outcome, Outcome::ReachedError, "seed {seed}\n{text}");
        }
    }
    assert!(lines / 300 < 80, "programs too long: {} lines", lines / 300);
    assert!(witnesses > 50, "only {witnesses} planted violations");
}

/// `--memory` programs: they parse, every shape occurs, the planted witnesses still reach the
/// error, and the programs without the option are the ones they always were (the memory
/// shapes draw from the generator's stream only when asked for).
#[test]
fn memory_programs_parse_and_use_every_shape() {
    let shapes = ["] = {(", "struct S", "**p", "struct R", "*pp"];
    let mut seen = [false; 5];
    let mut witnesses = 0;
    for seed in 0..200 {
        let g = generate_with(seed, true);
        let text = g.program.render();
        let parsed =
            parse_program("t.c", &text).unwrap_or_else(|e| panic!("seed {seed}: {e:?}\n{text}"));
        for (k, s) in shapes.iter().enumerate() {
            seen[k] |= text.contains(s);
        }
        if let Some(w) = g.witness {
            witnesses += 1;
            let mut o = SequenceOracle::new(w);
            let run = concrete::run(&parsed.cfa, &mut o, 100_000);
            assert_eq!(run.outcome, Outcome::ReachedError, "seed {seed}\n{text}");
        }
        assert_eq!(
            generate(seed).program.render(),
            generate_with(seed, false).program.render()
        );
    }
    assert!(seen.iter().all(|s| *s), "{seen:?}");
    assert!(witnesses > 30, "only {witnesses} planted violations");
}

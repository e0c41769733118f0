//! Data-driven diagnostics: each `tests/diagnostics/NAME.c` starts with `// expect: LINE:COL:
//! error: MESSAGE` (a prefix of the message); the front end must reject the file with exactly
//! that first diagnostic. With `warning:` instead of `error:`, it must accept the file with
//! that first warning.

use cpa_engine::parse_program;
use std::path::Path;

#[test]
fn unsupported_constructs_get_precise_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/diagnostics");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in paths
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
    {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&path).unwrap();
        let expect = src
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{name}: no expectation"));
        let diags = match parse_program(&name, &src) {
            Ok(p) if expect.contains(": warning: ") => p.warnings,
            Ok(_) => panic!("{name}: accepted, expected {expect}"),
            Err(d) => d,
        };
        assert!(
            !diags.is_empty(),
            "{name}: no diagnostic, expected {expect}"
        );
        let first = diags[0].render(&name);
        let want = format!("{name}:{expect}");
        if !first.starts_with(&want) {
            failures.push(format!("  got  {first}\n  want {want}"));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert!(checked >= 10);
}

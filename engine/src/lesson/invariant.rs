//! The invariant exercise as the page and the CLI ask for it: a program's text, the line of a
//! loop and a candidate invariant's text, checked by [`crate::proof::exercise`].

pub use crate::proof::exercise::{Part, Report};

use crate::frontend::{invariant::parse_invariant, parse_program};
use crate::proof::exercise;
use crate::smt::Smt;

/// Largest invariant text accepted (bytes): it may come from a link or a text field.
pub const MAX_INVARIANT_BYTES: usize = 2_000;

/// Checks `invariant` at the loop of line `line` of the program `source`; `Err` says why it
/// cannot be checked (the program does not parse, no loop at the line, the text is no C
/// expression over the variables in scope, the solver failed).
pub fn check_invariant(
    file: &str,
    source: &str,
    line: u32,
    invariant: &str,
    smt: &mut dyn Smt,
) -> Result<Report, String> {
    if invariant.len() > MAX_INVARIANT_BYTES {
        return Err(format!(
            "the invariant has {} bytes; at most {MAX_INVARIANT_BYTES} are accepted",
            invariant.len()
        ));
    }
    let cfa = parse_program(file, source)
        .map_err(|d| {
            d.first().map_or("the program does not parse".into(), |d| {
                format!("the program does not parse: {}", d.render(file))
            })
        })?
        .cfa;
    let head = exercise::loop_head_at_line(&cfa, line)
        .ok_or_else(|| format!("no loop starts at line {line}"))?;
    let inv = parse_invariant(&cfa, cfa.node(head).function, invariant)
        .map_err(|e| format!("invariant: {e}"))?;
    exercise::check(&cfa, smt, head, &inv, invariant).map_err(|e| e.to_string())
}

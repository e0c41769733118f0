//! Reading a C file and printing its diagnostics.

use cpa_engine::diag::Diagnostic;
use cpa_engine::frontend::{parse_program, Parsed};

/// Reads and parses `file`; on failure prints the diagnostics (or the I/O error) to stderr.
pub fn load(file: &str) -> Result<Parsed, ()> {
    let source = match std::fs::read(file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("{file}: error: cannot read file: {e}");
            return Err(());
        }
    };
    match parse_program(file, &source) {
        Ok(parsed) => {
            print_diagnostics(file, &parsed.warnings);
            Ok(parsed)
        }
        Err(diags) => {
            print_diagnostics(file, &diags);
            Err(())
        }
    }
}

pub fn print_diagnostics(file: &str, diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("{}", d.render(file));
    }
}

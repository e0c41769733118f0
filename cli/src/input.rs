//! Reading a C file and printing its diagnostics.

use cpa_engine::diag::Diagnostic;
use cpa_engine::frontend::{parse_program_for, Parsed, Spec};

/// Reads and parses `file` with the playground's default errors; on failure prints the
/// diagnostics (or the I/O error) to stderr.
pub fn load(file: &str) -> Result<Parsed, ()> {
    load_for(file, Spec::Errors)
}

/// Reads and parses `file` with the error locations of `spec`.
pub fn load_for(file: &str, spec: Spec) -> Result<Parsed, ()> {
    let source = match std::fs::read(file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("{file}: error: cannot read file: {e}");
            return Err(());
        }
    };
    match parse_program_for(file, &source, spec) {
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

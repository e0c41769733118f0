//! `cpa verify --witness` and `cpa validate-witness`: file I/O and the clock around the
//! engine's witness model ([`cpa_engine::witness`]).

use cpa_engine::witness::{self};

use cpa_engine::proof::Outcome;
use std::process::ExitCode;

/// The current time as RFC 3339 in UTC (`2026-11-24T15:04:05Z`).
pub fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// `cpa validate-witness PROGRAM WITNESS`: prints `confirmed` (exit 0), `refuted: REASON` or
/// `unknown: REASON` (exit 1); a witness that cannot be read is an error (exit 1).
pub fn run_validate(program: &str, path: &str) -> ExitCode {
    let entries = match std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read file: {e}"))
        .and_then(|t| witness::parse(&t))
    {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{path}: error: {e}");
            return ExitCode::from(1);
        }
    };
    // A witness for unreach-label is checked against the ERROR labels; any other against the
    // playground's errors (reach_error() and failed assertions).
    let label = entries.iter().any(|e| match e {
        witness::Entry::ViolationSequence { metadata, .. }
        | witness::Entry::InvariantSet { metadata, .. } => {
            metadata.task.specification.contains("label(ERROR)")
        }
    });
    let spec = if label {
        cpa_engine::frontend::Spec::UnreachLabel
    } else {
        cpa_engine::frontend::Spec::Errors
    };
    let Ok(parsed) = crate::input::load_for(program, spec) else {
        return ExitCode::from(1);
    };
    let mut smt = match crate::solver::native() {
        Ok((solver, _)) => cpa_engine::smt::BridgeSmt::new(solver),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    // Per query, deterministic (Z3's rlimit): four times an analysis' default.
    if let Err(e) = cpa_engine::smt::Smt::set_resource_limit(&mut smt, Some(20_000_000)) {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    match witness::validate(&parsed.cfa, &entries, &mut smt) {
        Ok(Outcome::Confirmed) => {
            println!("confirmed");
            ExitCode::SUCCESS
        }
        Ok(Outcome::Refuted(why)) => {
            println!("refuted: {why}");
            ExitCode::from(1)
        }
        Ok(Outcome::Undecided(why)) => {
            println!("unknown: {why}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("{path}: error: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::now;

    #[test]
    fn the_clock_is_rfc3339() {
        let t = now();
        assert_eq!(t.len(), 20, "{t}");
        assert!(
            t.starts_with("20") && t.ends_with('Z') && &t[10..11] == "T",
            "{t}"
        );
    }
}

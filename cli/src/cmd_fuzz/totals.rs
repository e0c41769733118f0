//! The campaign's totals, filled program by program, and its summary.

use super::child::Status;
use super::findings::ProgramReport;
use cpa_engine::fuzz::gen::Generated;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Default)]
pub(super) struct Totals {
    pub(super) programs: u64,
    pub(super) bounded: u64,
    pub(super) witnesses: u64,
    pub(super) concrete_false: u64,
    pub(super) truth_false: u64,
    pub(super) runs: u64,
    /// preset -> verdict label -> count
    pub(super) verdicts: BTreeMap<String, BTreeMap<String, u64>>,
    pub(super) seconds: BTreeMap<String, f64>,
    pub(super) bugs: BTreeMap<String, u64>,
    pub(super) buggy_programs: u64,
    pub(super) generator_problems: u64,
    pub(super) saved: Vec<String>,
    pub(super) signatures: BTreeMap<String, usize>,
    /// UNKNOWN reasons (digits and details dropped) -> presets -> count
    pub(super) reasons: BTreeMap<String, BTreeMap<String, u64>>,
}

/// An UNKNOWN reason without its numbers and details, to count reasons by kind.
pub(super) fn reason_class(r: &str) -> String {
    let cut = r.find(['(', '\n']).unwrap_or(r.len()).min(70);
    let mut s: String = r.chars().take(cut).collect::<String>();
    s = s
        .split(|c: char| c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("N");
    s.trim().trim_end_matches(':').to_string()
}

impl Totals {
    /// Counts a bug of this signature; whether it is one of the first `max` (minimized and
    /// saved).
    pub(super) fn first_of_signature(&mut self, signature: String, max: usize) -> bool {
        let n = self.signatures.entry(signature).or_default();
        *n += 1;
        *n <= max
    }

    pub(super) fn bug_count(&self) -> u64 {
        self.bugs.values().sum()
    }

    /// Adds a program's runs and bugs.
    pub(super) fn record(&mut self, g: &Generated, report: &ProgramReport) {
        self.programs += 1;
        self.bounded += u64::from(g.program.bounded);
        self.witnesses += u64::from(g.witness.is_some());
        self.concrete_false += u64::from(report.concrete_error);
        self.truth_false += u64::from(report.truth_false);
        self.generator_problems += u64::from(report.generator_problem.is_some());
        self.buggy_programs += u64::from(!report.bugs.is_empty());
        for r in &report.runs {
            self.runs += 1;
            *self
                .verdicts
                .entry(r.preset.clone())
                .or_default()
                .entry(r.label().to_string())
                .or_default() += 1;
            *self.seconds.entry(r.preset.clone()).or_default() += r.seconds;
            if r.verdict == "unknown" && matches!(r.status, Status::Done) {
                *self
                    .reasons
                    .entry(reason_class(&r.reason))
                    .or_default()
                    .entry(r.preset.clone())
                    .or_default() += 1;
            }
        }
        for b in &report.bugs {
            *self.bugs.entry(b.kind.name().to_string()).or_default() += 1;
        }
    }

    /// The lines per preset, the UNKNOWN reasons and the campaign's summary line.
    pub(super) fn print_summary(&self, seed: u64, presets: &[String], seconds: f64) {
        for p in presets {
            let v = self.verdicts.get(p).cloned().unwrap_or_default();
            let n = |k: &str| v.get(k).copied().unwrap_or(0);
            println!(
                "  {p}: {} true, {} false, {} unknown, {} slow, {} stuck, {} crash ({:.1} s)",
                n("true"),
                n("false"),
                n("unknown"),
                n("slow"),
                n("stuck"),
                n("crash"),
                self.seconds.get(p).copied().unwrap_or(0.0)
            );
        }
        if !self.reasons.is_empty() {
            println!("  UNKNOWN reasons:");
            for (reason, by) in &self.reasons {
                let by: Vec<String> = by.iter().map(|(p, n)| format!("{p} {n}")).collect();
                println!("    {reason}: {}", by.join(", "));
            }
        }
        let kinds: Vec<String> = self.bugs.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let distinct: BTreeSet<&String> = self.signatures.keys().collect();
        println!(
            "fuzz: seed {seed}, programs {} ({} bounded, {} with a planted witness, {} FALSE established, {} of them by random runs), runs {}, bugs {} in {} programs{} ({} signatures), generator problems {}, saved {}, time {seconds:.0} s",
            self.programs,
            self.bounded,
            self.witnesses,
            self.truth_false,
            self.concrete_false,
            self.runs,
            self.bug_count(),
            self.buggy_programs,
            if kinds.is_empty() { String::new() } else { format!(": {}", kinds.join(", ")) },
            distinct.len(),
            self.generator_problems,
            self.saved.len(),
        );
    }
}

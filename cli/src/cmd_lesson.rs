//! `cpa lesson check FILE...`: every lesson's run (its program, preset and knobs) natively,
//! and every section's anchor and claims checked against it (docs/lessons.md). Exit 1 when a
//! lesson does not read or a claim no longer holds: lessons stay true as the engine changes.

use crate::cmd_verify::{configure, verify};
use crate::input::load;
use clap::{Args, Subcommand};
use cpa_engine::lesson::{self, Answer};
use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

#[derive(Args)]
pub struct LessonArgs {
    #[command(subcommand)]
    pub command: LessonCommand,
}

#[derive(Subcommand)]
pub enum LessonCommand {
    /// Run each lesson and check that every anchor lands and every claim holds.
    Check {
        /// Lesson files (`lessons/NAME.md`).
        #[arg(required = true)]
        files: Vec<String>,
    },
}

pub fn run(args: &LessonArgs) -> ExitCode {
    let LessonCommand::Check { files } = &args.command;
    let mut ok = true;
    for f in files {
        match check_one(Path::new(f)) {
            Ok(lines) => {
                for l in lines {
                    println!("{l}");
                }
            }
            Err(e) => {
                ok = false;
                eprintln!("{e}");
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The report of one lesson, or every problem with it (`FILE:LINE: message`).
fn check_one(path: &Path) -> Result<Vec<String>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: error: {e}"))?;
    let l = lesson::parse(&text).map_err(|e| format!("{shown}: error: {e}"))?;
    // The program's path is relative to the directory that holds `lessons/`.
    let root = path
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    let program = root.join(&l.program);
    let parsed = load(&program.display().to_string())
        .map_err(|()| format!("{shown}: error: the program {} does not parse", l.program))?;
    let sets: Vec<String> = l.knobs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let config = configure(&l.preset, &sets, None).map_err(|e| format!("{shown}: error: {e}"))?;
    let cfa = Rc::new(parsed.cfa);
    let out = verify(cfa.clone(), config).map_err(|e| format!("{shown}: error: {e}"))?;
    let checked = lesson::check(&l, &out.events, &cfa);
    let mut report = vec![format!(
        "{shown}: {} ({} sections, {} events, verdict {})",
        l.title,
        l.sections.len(),
        out.events.len(),
        out.verdict.name()
    )];
    let mut problems = Vec::new();
    for c in &checked {
        let s = &l.sections[c.section];
        let at = c.position.map_or("-".into(), |p| p.to_string());
        if c.failures.is_empty() {
            let q = s
                .question
                .and_then(|q| Answer::of(q, &out.events, c.position.unwrap_or(0)))
                .map_or(String::new(), |a| format!("; answer {a:?}"));
            report.push(format!("  ok  event {at:>5}  {}{q}", s.title));
        } else {
            for f in &c.failures {
                problems.push(format!("{shown}:{}: section '{}': {f}", s.line, s.title));
            }
        }
    }
    if problems.is_empty() {
        Ok(report)
    } else {
        Err(problems.join("\n"))
    }
}

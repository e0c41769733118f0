//! The invariant exercise's part of the update.

use crate::state::exercise::ExerciseMsg;
use crate::state::{Command, State};

impl State {
    /// The lines where the program's loops start (from its CFA; none while it does not
    /// parse).
    pub fn loop_lines(&self) -> Vec<u32> {
        let mut lines: Vec<u32> = self
            .program
            .graphs
            .as_ref()
            .filter(|_| !self.program.stale)
            .map(|g| {
                g.cfa
                    .nodes
                    .iter()
                    .filter(|n| n.loop_head && n.line > 0)
                    .map(|n| n.line)
                    .collect()
            })
            .unwrap_or_default();
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    pub(crate) fn exercise_msg(&mut self, m: ExerciseMsg, cmds: &mut Vec<Command>) {
        let lines = self.loop_lines();
        let ex = &mut self.exercise;
        match m {
            ExerciseMsg::Line(l) => ex.line = Some(l),
            ExerciseMsg::Text(t) => ex.text = t,
            ExerciseMsg::Check => {
                let Some(line) = ex
                    .line
                    .filter(|l| lines.contains(l))
                    .or(lines.first().copied())
                else {
                    ex.result = Some((
                        0,
                        ex.text.clone(),
                        Err("the program has no loop (or does not parse)".into()),
                    ));
                    return;
                };
                ex.generation += 1;
                ex.busy = true;
                ex.line = Some(line);
                cmds.push(Command::CheckInvariant {
                    generation: ex.generation,
                    file: self.program.file.clone(),
                    source: self.program.source.to_string(),
                    line,
                    invariant: ex.text.clone(),
                });
            }
            ExerciseMsg::Checked(generation, result) => {
                if generation == ex.generation {
                    ex.busy = false;
                    ex.result = Some((ex.line.unwrap_or(0), ex.text.clone(), result));
                }
            }
        }
    }
}

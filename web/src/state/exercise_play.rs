//! The exercises' part of the update.

use crate::present::knobs::with_knob;
use crate::protocol::RunConfig;
use crate::state::exercise::ExerciseMsg;
use crate::state::playground::Action;
use crate::state::run::Target;
use crate::state::{Command, State};
use cpa_engine::config::{AlgorithmKind, Domain, RefinementStrategy};

impl State {
    /// The lines of the CFA's locations that satisfy `keep` (none while the program does not
    /// parse), sorted, each once.
    fn node_lines(&self, keep: impl Fn(&crate::protocol::GraphNode) -> bool) -> Vec<u32> {
        let mut lines: Vec<u32> = self
            .program
            .graphs
            .as_ref()
            .filter(|_| !self.program.stale)
            .map(|g| {
                g.cfa
                    .nodes
                    .iter()
                    .filter(|n| n.line > 0 && keep(n))
                    .map(|n| n.line)
                    .collect()
            })
            .unwrap_or_default();
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    /// The lines where the program's loops start (from its CFA).
    pub fn loop_lines(&self) -> Vec<u32> {
        self.node_lines(|n| n.loop_head)
    }

    /// The lines that have a CFA location (where a predicate given by hand can hold).
    pub fn location_lines(&self) -> Vec<u32> {
        self.node_lines(|_| true)
    }

    /// The line the predicate exercise adds at: the one picked, else the first loop's, else
    /// the first line with a location.
    pub fn predicate_line(&self) -> Option<u32> {
        let lines = self.location_lines();
        self.exercise
            .predicates
            .line
            .filter(|l| lines.contains(l))
            .or_else(|| self.loop_lines().first().copied())
            .or_else(|| lines.first().copied())
    }

    /// The program's conditions (its assumptions, positive form), as predicates to pick.
    pub fn condition_suggestions(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let Some(g) = self.program.graphs.as_ref().filter(|_| !self.program.stale) else {
            return out;
        };
        for e in g.cfa.edges.iter().filter(|e| e.kind == "assume") {
            let Some(c) = e.label.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
                continue;
            };
            if c.starts_with("!(") || c.len() > 200 || out.iter().any(|o| o == c) {
                continue;
            }
            out.push(c.to_string());
        }
        out.truncate(12);
        out
    }

    /// The configuration of the predicate exercise's run: the current analysis if it is
    /// predicate abstraction with a precision (not IMPACT), else `predicate-lbe`; with exactly
    /// the chosen predicates and no refinement.
    pub fn predicate_exercise_config(&self) -> RunConfig {
        let usable = self.pg.config.resolve().is_ok_and(|c| {
            c.algorithm == AlgorithmKind::Cegar
                && c.domain == Domain::Predicate
                && c.refinement == RefinementStrategy::Predicate
        });
        let base = if usable {
            self.pg.config.clone()
        } else {
            RunConfig::preset("predicate-lbe")
        };
        let c = with_knob(&base, "predicates", &self.exercise.predicates.knob_value());
        with_knob(&c, "max-refinements", "0")
    }

    /// True if the run shown is the predicate exercise's run of the chosen predicates.
    pub fn runs_chosen_predicates(&self) -> bool {
        self.pg.config == self.predicate_exercise_config()
    }

    pub(crate) fn exercise_msg(&mut self, m: ExerciseMsg, cmds: &mut Vec<Command>) {
        let lines = self.loop_lines();
        let at = self.predicate_line();
        if let ExerciseMsg::PredicateRun = m {
            let c = self.predicate_exercise_config();
            self.lesson = None;
            self.act(Action::Configure(c), cmds);
            self.act(Action::Step(Target::End), cmds);
            return;
        }
        let ex = &mut self.exercise;
        match m {
            ExerciseMsg::PredicateLine(l) => ex.predicates.line = Some(l),
            ExerciseMsg::PredicateText(t) => ex.predicates.text = t,
            ExerciseMsg::PredicateAdd => {
                let p = &mut ex.predicates;
                let r = match at {
                    Some(line) => p.add(line, &p.text.clone()),
                    None => Err("the program does not parse".into()),
                };
                p.error = r.err();
                if p.error.is_none() {
                    p.text.clear();
                }
            }
            ExerciseMsg::PredicatePick(line, e) => {
                let p = &mut ex.predicates;
                p.error = p.add(line, &e).err();
            }
            ExerciseMsg::PredicateRemove(i) => {
                let p = &mut ex.predicates;
                if i < p.chosen.len() {
                    p.chosen.remove(i);
                }
                p.error = None;
            }
            ExerciseMsg::PredicateRun => {}
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
                    let proves = result.as_ref().is_ok_and(|r| r.proves());
                    ex.result = Some((ex.line.unwrap_or(0), ex.text.clone(), result));
                    self.lesson_invariant_checked(generation, proves);
                }
            }
        }
    }
}

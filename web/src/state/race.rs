//! The race: every preset on the program shown, one after another in a second engine worker
//! (the run being stepped keeps its own), each to its verdict with the preset's default
//! limits and a wall-clock budget of the page's on top ([`ROW_BUDGET_MS`]). The table lists
//! verdict, steps, states, refinements, solver queries and time per preset; a click on a row
//! opens that preset's run.

use crate::protocol::{Progress, RunConfig};
use cpa_engine::config::Preset;
use cpa_engine::verdict::Verdict;

/// The page's wall clock per row: a run still going then ends as a timeout (its worker is
/// replaced), and the next row starts. The engine has no clock; this budget is the page's.
pub const ROW_BUDGET_MS: u32 = 60_000;

/// The columns, in the table's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceColumn {
    Preset,
    Verdict,
    Steps,
    States,
    Refinements,
    Queries,
    Time,
}

impl RaceColumn {
    pub const ALL: [RaceColumn; 7] = [
        RaceColumn::Preset,
        RaceColumn::Verdict,
        RaceColumn::Steps,
        RaceColumn::States,
        RaceColumn::Refinements,
        RaceColumn::Queries,
        RaceColumn::Time,
    ];

    pub fn title(self) -> &'static str {
        match self {
            RaceColumn::Preset => "Preset",
            RaceColumn::Verdict => "Verdict",
            RaceColumn::Steps => "Steps",
            RaceColumn::States => "States",
            RaceColumn::Refinements => "Refs",
            RaceColumn::Queries => "Queries",
            RaceColumn::Time => "Time s",
        }
    }
}

/// What the race panel does, and the second worker's answers.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceMsg {
    Start,
    Cancel,
    /// Row `index` of race `generation` ended: its last progress and its wall time (ms).
    Finished {
        generation: u64,
        index: usize,
        result: Result<(Progress, f64), String>,
    },
    /// Row `index` of race `generation` has used its budget.
    Timeout {
        generation: u64,
        index: usize,
    },
    Sort(RaceColumn),
    /// Open the run of row `index`'s preset.
    Open(usize),
}

/// A finished row.
#[derive(Clone, Debug, PartialEq)]
pub struct RowDone {
    /// `true`, `false` or `unknown` (as SV-COMP and `cpa verify` print it).
    pub verdict: &'static str,
    pub reason: Option<String>,
    pub events: u64,
    pub steps: u64,
    pub states: u64,
    pub refinements: u64,
    pub queries: u64,
    pub ms: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RowState {
    Waiting,
    Running,
    Done(RowDone),
    /// The worker failed or refused (the message).
    Failed(String),
    /// The page's budget ran out.
    Timeout,
    Cancelled,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RaceRow {
    pub preset: &'static str,
    pub state: RowState,
}

impl RaceRow {
    /// The `data-verdict` of the row: the verdict, or what stands in for it.
    pub fn verdict(&self) -> &'static str {
        match &self.state {
            RowState::Done(d) => d.verdict,
            RowState::Waiting => "waiting",
            RowState::Running => "running",
            RowState::Failed(_) => "error",
            RowState::Timeout => "timeout",
            RowState::Cancelled => "cancelled",
        }
    }

    fn key(&self, c: RaceColumn) -> (u8, f64, &'static str) {
        let d = match &self.state {
            RowState::Done(d) => Some(d),
            _ => None,
        };
        let n = |f: fn(&RowDone) -> f64| d.map_or((1, 0.0, ""), |d| (0, f(d), ""));
        match c {
            RaceColumn::Preset => (0, 0.0, self.preset),
            RaceColumn::Verdict => (0, 0.0, self.verdict()),
            RaceColumn::Steps => n(|d| d.steps as f64),
            RaceColumn::States => n(|d| d.states as f64),
            RaceColumn::Refinements => n(|d| d.refinements as f64),
            RaceColumn::Queries => n(|d| d.queries as f64),
            RaceColumn::Time => n(|d| d.ms),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Race {
    /// Bumped by every start and cancel: answers of an older race are dropped.
    pub generation: u64,
    pub rows: Vec<RaceRow>,
    /// The sort column and whether it is descending (`None`: the presets' order).
    pub sort: Option<(RaceColumn, bool)>,
    /// The program's generation the race ran on (the table says when the program changed).
    pub program: u64,
}

/// What the race asks of the effects.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceCommand {
    /// Run `config` on the program to its verdict in the race's worker; answered with
    /// [`RaceMsg::Finished`], or [`RaceMsg::Timeout`] after [`ROW_BUDGET_MS`].
    Run {
        generation: u64,
        index: usize,
        file: String,
        source: String,
        config: RunConfig,
    },
    /// Replace the race's worker (whatever it runs stops at once).
    Stop,
    /// Start the race's worker if it is not running (it loads the engine and Z3).
    Warm,
}

impl Race {
    pub fn running(&self) -> bool {
        self.rows
            .iter()
            .any(|r| matches!(r.state, RowState::Running | RowState::Waiting))
    }

    /// The rows in the table's order (indices into `rows`).
    pub fn order(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.rows.len()).collect();
        if let Some((c, desc)) = self.sort {
            idx.sort_by(|a, b| {
                let (ka, kb) = (self.rows[*a].key(c), self.rows[*b].key(c));
                let o = ka.1.total_cmp(&kb.1).then(ka.2.cmp(kb.2));
                // Rows without a figure stay last either way.
                ka.0.cmp(&kb.0).then(if desc { o.reverse() } else { o })
            });
        }
        idx
    }

    /// Starts a race of every preset on `source`.
    pub fn start(&mut self, program: u64, file: &str, source: &str) -> Vec<RaceCommand> {
        // A race still going stops with its worker; an idle worker is kept (it is warm).
        let mut cmds = if self.running() {
            vec![RaceCommand::Stop]
        } else {
            Vec::new()
        };
        self.generation += 1;
        self.program = program;
        self.rows = Preset::names()
            .iter()
            .map(|p| RaceRow {
                preset: p,
                state: RowState::Waiting,
            })
            .collect();
        cmds.extend(self.next(file, source));
        cmds
    }

    /// Starts the first waiting row, if any.
    fn next(&mut self, file: &str, source: &str) -> Option<RaceCommand> {
        let index = self
            .rows
            .iter()
            .position(|r| r.state == RowState::Waiting)?;
        self.rows[index].state = RowState::Running;
        Some(RaceCommand::Run {
            generation: self.generation,
            index,
            file: file.to_string(),
            source: source.to_string(),
            config: RunConfig::preset(self.rows[index].preset),
        })
    }

    fn is_running(&self, generation: u64, index: usize) -> bool {
        generation == self.generation
            && self
                .rows
                .get(index)
                .is_some_and(|r| r.state == RowState::Running)
    }

    /// The race's part of the update (`Open` is the caller's: it configures the main run).
    pub fn update(
        &mut self,
        m: RaceMsg,
        program: u64,
        file: &str,
        source: &str,
    ) -> Vec<RaceCommand> {
        match m {
            RaceMsg::Start => self.start(program, file, source),
            RaceMsg::Cancel => {
                self.generation += 1;
                for r in &mut self.rows {
                    if matches!(r.state, RowState::Running | RowState::Waiting) {
                        r.state = RowState::Cancelled;
                    }
                }
                vec![RaceCommand::Stop]
            }
            RaceMsg::Finished {
                generation,
                index,
                result,
            } => {
                if !self.is_running(generation, index) {
                    return Vec::new();
                }
                self.rows[index].state = match result {
                    Ok((p, ms)) => RowState::Done(done(&p, ms)),
                    Err(e) => RowState::Failed(e),
                };
                self.next(file, source).into_iter().collect()
            }
            RaceMsg::Timeout { generation, index } => {
                if !self.is_running(generation, index) {
                    return Vec::new();
                }
                self.rows[index].state = RowState::Timeout;
                let mut cmds = vec![RaceCommand::Stop];
                cmds.extend(self.next(file, source));
                cmds
            }
            RaceMsg::Sort(c) => {
                self.sort = match self.sort {
                    Some((old, desc)) if old == c => Some((c, !desc)),
                    _ => Some((c, false)),
                };
                Vec::new()
            }
            RaceMsg::Open(_) => Vec::new(),
        }
    }
}

fn done(p: &Progress, ms: f64) -> RowDone {
    let (verdict, reason) = match &p.verdict {
        Some(Verdict::True) => ("true", None),
        Some(Verdict::False { .. }) => ("false", None),
        Some(Verdict::Unknown { reason }) => ("unknown", Some(reason.clone())),
        None => ("unknown", Some("the run did not end".to_string())),
    };
    RowDone {
        verdict,
        reason,
        events: p.events,
        steps: p.stats.steps,
        states: p.stats.states,
        refinements: p.stats.refinements,
        queries: p.stats.solver_queries,
        ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cpa_engine::session::Stats;

    fn progress(verdict: Verdict, states: u64) -> Progress {
        Progress {
            events: 10,
            stats: Stats {
                states,
                ..Stats::default()
            },
            solver_ms: 0.0,
            verdict: Some(verdict),
            invariants: Vec::new(),
        }
    }

    fn runs(cmds: &[RaceCommand]) -> Vec<(u64, usize, String)> {
        cmds.iter()
            .filter_map(|c| match c {
                RaceCommand::Run {
                    generation,
                    index,
                    config,
                    ..
                } => Some((*generation, *index, config.preset.clone())),
                RaceCommand::Stop | RaceCommand::Warm => None,
            })
            .collect()
    }

    #[test]
    fn every_preset_runs_one_after_another() {
        let mut r = Race::default();
        let cmds = r.update(RaceMsg::Start, 3, "f.c", "int main(){}");
        assert_eq!(cmds.len(), 1, "the idle worker is kept: {cmds:?}");
        assert_eq!(runs(&cmds), vec![(1, 0, Preset::names()[0].to_string())]);
        // Starting again while it runs replaces the worker first.
        let again = r.clone().update(RaceMsg::Start, 3, "f.c", "");
        assert_eq!(again[0], RaceCommand::Stop);
        let n = Preset::names().len();
        for i in 0..n {
            let cmds = r.update(
                RaceMsg::Finished {
                    generation: 1,
                    index: i,
                    result: Ok((progress(Verdict::True, i as u64), 5.0)),
                },
                3,
                "f.c",
                "",
            );
            if i + 1 < n {
                assert_eq!(
                    runs(&cmds),
                    vec![(1, i + 1, Preset::names()[i + 1].to_string())]
                );
            } else {
                assert!(cmds.is_empty());
            }
        }
        assert!(!r.running());
        assert!(r.rows.iter().all(|row| row.verdict() == "true"));
    }

    #[test]
    fn late_answers_timeouts_and_cancel() {
        let mut r = Race::default();
        r.update(RaceMsg::Start, 1, "f.c", "");
        // The budget ends row 0: its worker is replaced and row 1 starts.
        let cmds = r.update(
            RaceMsg::Timeout {
                generation: 1,
                index: 0,
            },
            1,
            "f.c",
            "",
        );
        assert_eq!(cmds[0], RaceCommand::Stop);
        assert_eq!(runs(&cmds)[0].1, 1);
        assert_eq!(r.rows[0].verdict(), "timeout");
        // Row 0's answer arriving late (its worker was replaced) changes nothing.
        let late = RaceMsg::Finished {
            generation: 1,
            index: 0,
            result: Ok((progress(Verdict::True, 1), 1.0)),
        };
        assert!(r.update(late, 1, "f.c", "").is_empty());
        assert_eq!(r.rows[0].verdict(), "timeout");
        assert_eq!(
            r.update(RaceMsg::Cancel, 1, "f.c", ""),
            vec![RaceCommand::Stop]
        );
        assert!(r.rows[1..].iter().all(|row| row.verdict() == "cancelled"));
        let stale = RaceMsg::Finished {
            generation: 1,
            index: 1,
            result: Err("cancelled".into()),
        };
        assert!(r.update(stale, 1, "f.c", "").is_empty());
    }

    #[test]
    fn sorting_puts_unfinished_rows_last_and_toggles() {
        let mut r = Race::default();
        r.update(RaceMsg::Start, 1, "f.c", "");
        for (i, states) in [(0, 30), (1, 10), (2, 20)] {
            r.update(
                RaceMsg::Finished {
                    generation: 1,
                    index: i,
                    result: Ok((progress(Verdict::True, states), 1.0)),
                },
                1,
                "f.c",
                "",
            );
        }
        r.update(RaceMsg::Sort(RaceColumn::States), 1, "f.c", "");
        assert_eq!(&r.order()[..3], &[1, 2, 0]);
        r.update(RaceMsg::Sort(RaceColumn::States), 1, "f.c", "");
        assert_eq!(&r.order()[..3], &[0, 2, 1]);
    }
}

//! The playground's state and its reducer: every user input and every worker message is an
//! [`Action`]; [`Playground::reduce`] changes the state and returns the [`Command`]s for the
//! driver (`driver.rs`, the one piece that talks to the worker). No browser API here, so the
//! stepping logic is tested natively.
//!
//! A run is a prefix of the engine's event log. The page keeps every event the worker
//! streamed and a position `k` ("event k of n"): stepping inside what it has is local (the
//! view at `k` is the replay of the first `k` events, from the nearest checkpoint), stepping
//! past it asks the worker for the next step of the requested granularity. Pausing a busy
//! worker terminates it; a fresh worker replays the run to the step shown (the engine is
//! deterministic, so the replay is exact).

use crate::protocol::Graph;
use crate::protocol::{Batch, Progress, RunConfig, RunInfo};
use crate::state::run::{Cursor, Derived, Phase, Run, Target, Ticket, DEFAULT_SPEED, TICK_MS};
use crate::state::view::Selection;
use cpa_engine::session::Granularity;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The program text changed and its CFA is being built: until [`Action::Program`]
    /// arrives, the run (of the previous text) is paused and cannot be stepped.
    Building,
    /// The program text's CFA is known (after each edit): `cfa` is `None` if it does not
    /// parse.
    Program {
        file: String,
        source: Rc<str>,
        cfa: Option<Rc<Graph>>,
    },
    Configure(RunConfig),
    Step(Target),
    StepBack,
    /// Back to event 0 (a crashed or failed run starts over).
    Reset,
    /// To event `k` (a share link's step), computing up to it if needed; a run that ends
    /// earlier stops at its verdict.
    Seek(usize),
    Run,
    Pause,
    SetSpeed(Option<u32>),
    Tick,
    Select(Option<Selection>),
    /// Counterexample step shown (index into the trace).
    CexStep(usize),
    /// The worker: a run started (or could not).
    Started(Ticket, Result<RunInfo, String>),
    Batch(Ticket, Batch),
    Advanced(Ticket, Result<Progress, String>),
    /// The worker died and a fresh one is starting (an idle run is replayed into it).
    WorkerLost(String),
}

/// What the driver must do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Start {
        ticket: Ticket,
        file: String,
        source: Rc<str>,
        config: RunConfig,
    },
    Advance {
        ticket: Ticket,
        granularity: Granularity,
        until: Option<u64>,
        quiet: bool,
    },
    /// Terminate the worker (cancelling whatever it computes) and start a fresh one.
    RestartWorker,
    /// Run the timer (`Action::Tick` every [`TICK_MS`]) or stop it.
    Timer(bool),
}

#[derive(Clone, Debug)]
pub struct Playground {
    pub file: String,
    pub source: Rc<str>,
    /// The CFA of the current text, if it parses.
    pub cfa: Option<Rc<Graph>>,
    pub config: RunConfig,
    /// Why the current configuration cannot run.
    pub config_error: Option<String>,
    pub run: Option<Run>,
    pub speed: Option<u32>,
    pub selection: Option<Selection>,
    pub cex_step: usize,
    /// The text shown differs from `source`: its CFA is being built.
    pub building: bool,
    /// The run's worker is still loading Z3: every request that needs it waits, and the
    /// worker does no work that a new run would have to interrupt (so a new run does not
    /// replace the worker, which would start Z3's download again).
    pub solver_loading: bool,
    next_run: u64,
}

impl Default for Playground {
    fn default() -> Self {
        Playground::new(RunConfig::preset("predicate-lbe"))
    }
}

impl Playground {
    pub fn new(config: RunConfig) -> Playground {
        let config_error = config.resolve().err();
        Playground {
            file: String::new(),
            source: Rc::from(""),
            cfa: None,
            config,
            config_error,
            run: None,
            speed: DEFAULT_SPEED,
            selection: None,
            cex_step: 0,
            building: false,
            solver_loading: false,
            next_run: 1,
        }
    }

    /// Why the program cannot be run now, if it cannot.
    pub fn blocked(&self) -> Option<String> {
        if self.building {
            Some("The program changed: building its CFA…".into())
        } else if self.cfa.is_none() {
            Some("The program has errors: fix the diagnostics first.".into())
        } else {
            self.config_error
                .as_ref()
                .map(|e| format!("The configuration is invalid: {e}"))
        }
    }

    pub fn running(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.running.is_some())
    }

    /// Replaces the run by a fresh one (the worker is restarted if it is busy with the old).
    fn new_run(&mut self, cmds: &mut Vec<Command>) {
        let busy = self
            .run
            .as_ref()
            .is_some_and(|r| matches!(r.phase, Phase::Busy | Phase::Replaying | Phase::Starting));
        if busy && !self.solver_loading {
            cmds.push(Command::RestartWorker);
        }
        if self.running() {
            cmds.push(Command::Timer(false));
        }
        self.run = None;
        self.selection = None;
        self.cex_step = 0;
        if self.blocked().is_some() {
            return;
        }
        let Some(cfa) = self.cfa.clone() else {
            return;
        };
        let run = Run {
            id: self.next_run,
            epoch: 0,
            config: self.config.clone(),
            file: self.file.clone(),
            source: self.source.clone(),
            cfa,
            info: None,
            phase: Phase::Starting,
            events: Vec::new(),
            units: Vec::new(),
            queries: Vec::new(),
            derived: Derived::default(),
            verdict: None,
            invariants: Vec::new(),
            position: 0,
            cursor: Cursor::new(),
            pending: None,
            owed: 0,
            goal: None,
            running: None,
            credit: 0.0,
        };
        self.next_run += 1;
        cmds.push(Command::Start {
            ticket: run.ticket(),
            file: run.file.clone(),
            source: run.source.clone(),
            config: run.config.clone(),
        });
        self.run = Some(run);
    }

    pub fn reduce(&mut self, action: Action) -> Vec<Command> {
        let mut cmds = Vec::new();
        // A run of a text other than the one shown must not move.
        let control = matches!(
            action,
            Action::Step(_) | Action::StepBack | Action::Reset | Action::Seek(_) | Action::Run
        );
        if control && self.building {
            return cmds;
        }
        match action {
            Action::Building => {
                self.building = true;
                if self.running() {
                    self.pause(&mut cmds);
                }
            }
            Action::Program { file, source, cfa } => {
                self.building = false;
                let same = self.file == file && *self.source == *source && self.cfa == cfa;
                self.file = file;
                self.source = source;
                self.cfa = cfa;
                if !same || self.run.is_none() {
                    self.new_run(&mut cmds);
                }
            }
            Action::Configure(config) => {
                if config != self.config {
                    self.config_error = config.resolve().err();
                    self.config = config;
                    self.new_run(&mut cmds);
                }
            }
            Action::Step(Target::End) => {
                // To the verdict: the position follows the stream at the timer's pace, and
                // the run can be paused like a run at full speed.
                if self.run.is_none() {
                    self.new_run(&mut cmds);
                }
                if let Some(run) = &mut self.run {
                    let ready = run.at_verdict();
                    let dead = matches!(run.phase, Phase::Failed(_) | Phase::Crashed(_));
                    if !ready && !dead && run.running.is_none() {
                        run.running = Some(None);
                        cmds.push(Command::Timer(true));
                    }
                }
                self.step(Target::End, &mut cmds);
            }
            Action::Step(target) => self.step(target, &mut cmds),
            Action::StepBack => {
                if let Some(run) = &mut self.run {
                    if run.running.is_some() {
                        self.pause(&mut cmds);
                    }
                }
                if let Some(run) = &mut self.run {
                    run.drop_requests();
                    let k = run.position.saturating_sub(1);
                    run.seek(k);
                }
            }
            Action::Reset => {
                let over = self
                    .run
                    .as_ref()
                    .is_none_or(|r| matches!(r.phase, Phase::Crashed(_) | Phase::Failed(_)));
                if over {
                    self.new_run(&mut cmds);
                } else {
                    if self.running() {
                        self.pause(&mut cmds);
                    }
                    if let Some(run) = &mut self.run {
                        run.drop_requests();
                        run.seek(0);
                    }
                }
                self.cex_step = 0;
            }
            Action::Seek(k) => {
                if self.running() {
                    self.pause(&mut cmds);
                }
                if self.run.is_none() {
                    self.new_run(&mut cmds);
                }
                if let Some(run) = &mut self.run {
                    run.drop_requests();
                    run.goal = Some(k);
                    if run.phase == Phase::Idle {
                        self.resume(&mut cmds);
                    }
                }
            }
            Action::Run => {
                if self.run.is_none() {
                    self.new_run(&mut cmds);
                }
                let speed = self.speed;
                if let Some(run) = &mut self.run {
                    if run.at_verdict() {
                        // At the verdict: run again from the start.
                        run.seek(0);
                    }
                    if run.running.is_none() {
                        run.running = Some(speed);
                        run.credit = 0.0;
                        cmds.push(Command::Timer(true));
                    }
                }
                if speed.is_none() {
                    self.step(Target::End, &mut cmds);
                }
            }
            Action::Pause => self.pause(&mut cmds),
            Action::SetSpeed(s) => {
                self.speed = s;
                let mut to_end = false;
                if let Some(run) = &mut self.run {
                    if run.running.is_some() {
                        run.running = Some(s);
                        to_end = s.is_none();
                    }
                }
                if to_end {
                    self.step(Target::End, &mut cmds);
                }
            }
            Action::Tick => self.tick(&mut cmds),
            Action::Select(s) => self.selection = s,
            Action::CexStep(i) => self.cex_step = i,
            a @ (Action::Started(..)
            | Action::Batch(..)
            | Action::WorkerLost(_)
            | Action::Advanced(..)) => self.answer(a, &mut cmds),
        }
        cmds
    }

    /// The worker's answers (and its loss), for the run they belong to.
    fn answer(&mut self, action: Action, cmds: &mut Vec<Command>) {
        match action {
            Action::Started(ticket, result) => {
                let Some(run) = self.run.as_mut().filter(|r| r.ticket() == ticket) else {
                    return;
                };
                match result {
                    Ok(info) => {
                        run.info = Some(info);
                        if run.phase == Phase::Starting {
                            run.phase = Phase::Idle;
                            self.resume(cmds);
                        }
                        // A replay continues with the `advance` already sent.
                    }
                    Err(e) => {
                        run.phase = Phase::Failed(e);
                        run.drop_requests();
                        if run.running.take().is_some() {
                            cmds.push(Command::Timer(false));
                        }
                    }
                }
            }
            Action::Batch(ticket, batch) => {
                let Some(run) = self.run.as_mut().filter(|r| r.ticket() == ticket) else {
                    return;
                };
                run.append(batch);
                // Full speed: the position follows the stream at the timer's pace (the
                // batches only collect), so the page draws at most one frame per tick.
            }
            Action::WorkerLost(_) => {
                if let Some(run) = &mut self.run {
                    // Busy runs learn it from their failed request.
                    if run.phase == Phase::Idle {
                        // The session was in the worker: replay it into the fresh one.
                        run.epoch += 1;
                        run.phase = Phase::Replaying;
                        cmds.push(Command::Start {
                            ticket: run.ticket(),
                            file: run.file.clone(),
                            source: run.source.clone(),
                            config: run.config.clone(),
                        });
                        cmds.push(Command::Advance {
                            ticket: run.ticket(),
                            granularity: Granularity::End,
                            until: Some(run.events.len() as u64),
                            quiet: true,
                        });
                    }
                }
            }
            Action::Advanced(ticket, result) => {
                let Some(run) = self.run.as_mut().filter(|r| r.ticket() == ticket) else {
                    return;
                };
                match result {
                    Ok(progress) => {
                        if progress.events as usize != run.events.len() {
                            run.phase = Phase::Crashed(format!(
                                "the worker has {} events, the page {}",
                                progress.events,
                                run.events.len()
                            ));
                            return;
                        }
                        run.verdict = progress.verdict;
                        run.invariants = progress.invariants;
                        run.phase = Phase::Idle;
                        self.resume(cmds);
                    }
                    Err(e) => {
                        run.phase = Phase::Crashed(e);
                        run.drop_requests();
                        if run.running.take().is_some() {
                            cmds.push(Command::Timer(false));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn pause(&mut self, cmds: &mut Vec<Command>) {
        let Some(run) = &mut self.run else {
            return;
        };
        if run.running.take().is_some() {
            cmds.push(Command::Timer(false));
        }
        run.drop_requests();
        if run.phase == Phase::Busy {
            // The worker is inside a step and cannot be interrupted: replace it and replay
            // to the end of the step shown.
            cmds.push(Command::RestartWorker);
            let keep = run.cut_back();
            run.seek(run.position);
            run.epoch += 1;
            run.phase = Phase::Replaying;
            cmds.push(Command::Start {
                ticket: run.ticket(),
                file: run.file.clone(),
                source: run.source.clone(),
                config: run.config.clone(),
            });
            cmds.push(Command::Advance {
                ticket: run.ticket(),
                granularity: Granularity::End,
                until: Some(keep as u64),
                quiet: true,
            });
        }
    }

    /// Carries out the steps asked for while the worker was busy.
    fn resume(&mut self, cmds: &mut Vec<Command>) {
        let Some(run) = &mut self.run else {
            return;
        };
        if let Some(goal) = run.goal {
            let dead = matches!(run.phase, Phase::Failed(_) | Phase::Crashed(_));
            if goal <= run.events.len() || run.finished() || dead {
                run.goal = None;
                let k = goal.min(run.events.len());
                run.seek(k);
            } else {
                // All the way in one request: the events stream in batches.
                run.phase = Phase::Busy;
                cmds.push(Command::Advance {
                    ticket: run.ticket(),
                    granularity: Granularity::End,
                    until: Some(goal as u64),
                    quiet: false,
                });
                return;
            }
        }
        let mut owed = std::mem::take(&mut run.owed);
        while owed > 0 {
            if run.position < run.events.len() {
                let k = run.position + 1;
                run.seek(k);
                owed -= 1;
            } else if run.finished() {
                owed = 0;
            } else {
                // The rest needs the worker: one step at a time.
                run.owed = owed;
                run.phase = Phase::Busy;
                cmds.push(Command::Advance {
                    ticket: run.ticket(),
                    granularity: Granularity::Event,
                    until: None,
                    quiet: false,
                });
                return;
            }
        }
        if let Some(t) = run.pending.take() {
            self.step(t, cmds);
        }
    }

    /// A forward step of `target`: local if the events are there, else the worker's.
    fn step(&mut self, target: Target, cmds: &mut Vec<Command>) {
        if self.run.is_none() {
            self.new_run(cmds);
        }
        let Some(run) = &mut self.run else {
            return;
        };
        match run.phase {
            Phase::Failed(_) | Phase::Crashed(_) => {
                // Only what was received can be shown.
                if let Some(k) = run.find(target) {
                    run.seek(k);
                } else {
                    run.seek(run.events.len());
                }
                return;
            }
            Phase::Starting | Phase::Busy | Phase::Replaying => {
                if run.owed == 0 && run.pending.is_none() {
                    if let Some(k) = run.find(target) {
                        run.seek(k);
                        return;
                    }
                }
                if target == Target::Event {
                    run.owed += 1;
                } else {
                    run.pending = Some(target);
                }
                return;
            }
            Phase::Idle => {}
        }
        if let Some(k) = run.find(target) {
            run.seek(k);
            return;
        }
        if run.finished() {
            run.seek(run.events.len());
            if run.running.take().is_some() {
                cmds.push(Command::Timer(false));
            }
            return;
        }
        // Everything received is shown: ask the worker for more.
        if target == Target::Event {
            run.owed += 1;
        } else {
            run.seek(run.events.len());
            run.pending = Some(target);
        }
        run.phase = Phase::Busy;
        cmds.push(Command::Advance {
            ticket: run.ticket(),
            granularity: target.granularity(),
            until: None,
            quiet: false,
        });
    }

    fn tick(&mut self, cmds: &mut Vec<Command>) {
        let Some(run) = &mut self.run else {
            cmds.push(Command::Timer(false));
            return;
        };
        let Some(speed) = run.running else {
            cmds.push(Command::Timer(false));
            return;
        };
        match speed {
            None => {
                // Full speed: show what has streamed in.
                let len = run.events.len();
                if run.position < len {
                    run.seek(len);
                }
                if run.at_verdict() {
                    run.running = None;
                    cmds.push(Command::Timer(false));
                } else if run.phase == Phase::Idle {
                    self.step(Target::End, cmds);
                }
            }
            Some(per_second) => {
                run.credit += f64::from(per_second) * f64::from(TICK_MS) / 1000.0;
                let mut n = run.credit.floor() as usize;
                run.credit -= n as f64;
                let available = run.events.len() - run.position;
                let local = n.min(available);
                if local > 0 {
                    let k = run.position + local;
                    run.seek(k);
                    n -= local;
                }
                if run.at_verdict() {
                    run.running = None;
                    cmds.push(Command::Timer(false));
                    return;
                }
                // Keep a step ahead of the position, so the run does not stall.
                let ahead = run.events.len() - run.position;
                if (n > 0 || ahead < per_second as usize) && run.phase == Phase::Idle {
                    // About half a second of events ahead, in whole steps.
                    run.phase = Phase::Busy;
                    let until = run.events.len() as u64 + u64::from(per_second / 2).max(1);
                    cmds.push(Command::Advance {
                        ticket: run.ticket(),
                        granularity: Granularity::End,
                        until: Some(until),
                        quiet: false,
                    });
                }
            }
        }
    }

    /// The states at CFA location `l` in the ARG shown.
    pub fn states_at(&self, l: u32) -> Vec<u32> {
        self.run.as_ref().map_or_else(Vec::new, |r| {
            r.cursor
                .frame
                .view
                .states
                .values()
                .filter(|s| s.location == l)
                .map(|s| s.id)
                .collect()
        })
    }
}

#[cfg(test)]
mod tests;

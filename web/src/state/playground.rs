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
        if busy {
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
            Action::Started(ticket, result) => {
                let Some(run) = self.run.as_mut().filter(|r| r.ticket() == ticket) else {
                    return cmds;
                };
                match result {
                    Ok(info) => {
                        run.info = Some(info);
                        if run.phase == Phase::Starting {
                            run.phase = Phase::Idle;
                            self.resume(&mut cmds);
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
                    return cmds;
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
                    return cmds;
                };
                match result {
                    Ok(progress) => {
                        if progress.events as usize != run.events.len() {
                            run.phase = Phase::Crashed(format!(
                                "the worker has {} events, the page {}",
                                progress.events,
                                run.events.len()
                            ));
                            return cmds;
                        }
                        run.verdict = progress.verdict;
                        run.phase = Phase::Idle;
                        self.resume(&mut cmds);
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
        }
        cmds
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
mod tests {
    use super::*;
    use crate::worker::run_host::RunHost;
    use cpa_engine::events::Event;
    use cpa_engine::verdict::Verdict;
    use cpa_engine::view::ArgView;
    use solver_bridge::solver::NativeZ3;

    /// A playground whose commands are executed by a native run host, as the driver does
    /// with the worker.
    struct Harness {
        p: Playground,
        host: Option<RunHost>,
    }

    impl Harness {
        fn new(src: &str, preset: &str) -> Harness {
            let mut h = Harness {
                p: Playground::new(RunConfig::preset(preset)),
                host: None,
            };
            let report = cpa_engine::report::cfa_report("t.c", src);
            h.act(Action::Program {
                file: "t.c".into(),
                source: Rc::from(src),
                cfa: report.cfa.map(Rc::new),
            });
            h
        }

        fn act(&mut self, a: Action) {
            let mut queue = vec![a];
            while let Some(a) = queue.pop() {
                for c in self.p.reduce(a) {
                    match c {
                        Command::Start {
                            ticket,
                            file,
                            source,
                            config,
                        } => {
                            let z3 = NativeZ3::new().unwrap();
                            let r = RunHost::new(&file, &source, &config, z3, None);
                            let info = r.map(|(h, i)| {
                                self.host = Some(h);
                                i
                            });
                            queue.insert(0, Action::Started(ticket, info));
                        }
                        Command::Advance {
                            ticket,
                            granularity,
                            until,
                            quiet,
                        } => {
                            let host = self.host.as_mut().unwrap();
                            let mut batches = Vec::new();
                            let p =
                                host.advance(granularity, until, quiet, &mut |b| batches.push(b));
                            for b in batches {
                                queue.insert(0, Action::Batch(ticket, b));
                            }
                            queue.insert(0, Action::Advanced(ticket, Ok(p)));
                        }
                        Command::RestartWorker => self.host = None,
                        Command::Timer(_) => {}
                    }
                }
            }
        }

        fn run(&self) -> &Run {
            self.p.run.as_ref().unwrap()
        }

        fn run_commands_for(&mut self, a: Action) {
            self.act(a)
        }
    }

    const COUNTER: &str = include_str!("../../../tests/verdicts/counter-unsafe.c");

    #[test]
    fn steps_asked_for_while_the_worker_is_busy_all_count() {
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        // Three quick steps while the session is still starting.
        let p = &mut h.p;
        let run = p.run.as_mut().unwrap();
        run.phase = Phase::Starting;
        let ticket = run.ticket();
        for _ in 0..3 {
            p.reduce(Action::Step(Target::Event));
        }
        assert_eq!(h.run().owed, 3);
        let info = RunInfo {
            knobs: Vec::new(),
            encoding: cpa_engine::config::Encoding::Int,
        };
        h.run_commands_for(Action::Started(ticket, Ok(info)));
        assert_eq!(h.run().position, 3);
        assert_eq!(h.run().owed, 0);
    }

    #[test]
    fn seek_computes_up_to_the_step_and_shows_the_same_frame_as_stepping() {
        let mut stepped = Harness::new(COUNTER, "predicate-lbe");
        for _ in 0..57 {
            stepped.act(Action::Step(Target::Event));
        }
        let mut sought = Harness::new(COUNTER, "predicate-lbe");
        sought.act(Action::Seek(57));
        assert_eq!(sought.run().position, 57);
        assert_eq!(sought.run().goal, None);
        assert_eq!(sought.run().cursor.frame, stepped.run().cursor.frame);
        assert_eq!(sought.run().stats(), stepped.run().stats());
        // Back inside what is there, then beyond the end of the run: the verdict.
        sought.act(Action::Seek(3));
        assert_eq!(sought.run().position, 3);
        sought.act(Action::Seek(1_000_000));
        let r = sought.run();
        assert!(r.at_verdict(), "{}", r.position);
        assert!(r.shown_verdict().is_some());
    }

    #[test]
    fn exports_the_arg_and_the_run_at_the_position() {
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        h.act(Action::Seek(40));
        let at = |h: &Harness| {
            let r = h.run();
            let dot = crate::state::export::arg_dot(r);
            assert!(dot.starts_with("digraph \"ARG\" {") && dot.ends_with("}\n"));
            assert_eq!(
                dot.matches(" [id=\"s").count(),
                r.cursor.frame.view.states.len()
            );
            serde_json::from_str::<serde_json::Value>(&crate::state::export::run_json(r)).unwrap()
        };
        let json = at(&h);
        assert_eq!(json["events"].as_array().unwrap().len(), 40);
        assert_eq!(json["verdict"], serde_json::Value::Null);
        h.act(Action::Step(Target::End));
        let json = at(&h);
        let r = h.run();
        assert_eq!(json["events"].as_array().unwrap().len(), r.events.len());
        assert_eq!(json["verdict"], "false");
        assert_eq!(json["stats"]["steps"], r.stats().0.steps);
        assert!(!json["counterexample"].as_array().unwrap().is_empty());
    }

    #[test]
    fn stepping_forward_and_back_gives_the_same_frames() {
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        let mut frames = vec![h.run().cursor.frame.clone()];
        for _ in 0..300 {
            h.act(Action::Step(Target::Event));
            let r = h.run();
            assert_eq!(r.cursor.at, r.position);
            assert_eq!(
                r.cursor.frame.view,
                ArgView::replay(&r.events[..r.position])
            );
            frames.push(r.cursor.frame.clone());
            if r.shown_verdict().is_some() {
                break;
            }
        }
        let n = h.run().position;
        assert!(n > 150, "the run is long enough to cross checkpoints: {n}");
        for k in (0..n).rev() {
            h.act(Action::StepBack);
            assert_eq!(h.run().position, k);
            assert_eq!(h.run().cursor.frame, frames[k], "back to {k}");
        }
    }

    #[test]
    fn next_refinement_and_end_match_the_native_run() {
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        h.act(Action::Step(Target::Refinement));
        let r = h.run();
        assert!(matches!(
            r.current_event(),
            Some((_, Event::Refined { .. }))
        ));
        assert_eq!(r.shown_refinements().count(), 1);
        assert!(r.refinement_in_progress().is_none());
        h.act(Action::Step(Target::End));
        let r = h.run();
        assert!(matches!(r.shown_verdict(), Some(Verdict::False { .. })));
        let mut native = {
            let parsed = cpa_engine::parse_program("t.c", COUNTER).unwrap();
            let smt = cpa_engine::smt::BridgeSmt::new(NativeZ3::new().unwrap());
            let config = RunConfig::preset("predicate-lbe").resolve().unwrap();
            cpa_engine::session::Session::new(Rc::new(parsed.cfa), config, Box::new(smt))
        };
        native.run();
        assert_eq!(r.events, native.events());
        assert_eq!(r.stats().0, native.stats());
        assert_eq!(
            r.shown_queries().len() as u64,
            native.stats().solver_queries
        );
        assert!(!r.covered_lines().is_empty());
    }

    #[test]
    fn pausing_a_busy_run_replays_it_to_the_step_shown() {
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        h.act(Action::Step(Target::Refinement));
        let shown = h.run().position;
        let events = h.run().events.clone();
        // Pretend the worker is busy with a long step: pausing replaces it.
        h.p.run.as_mut().unwrap().phase = Phase::Busy;
        let cmds = h.p.reduce(Action::Pause);
        assert_eq!(cmds[0], Command::RestartWorker);
        assert!(matches!(cmds[1], Command::Start { .. }));
        assert!(matches!(cmds[2], Command::Advance { quiet: true, .. }));
        let ticket = h.run().ticket();
        // Answers for the old worker are dropped.
        let stale = Ticket {
            epoch: ticket.epoch - 1,
            ..ticket
        };
        h.p.reduce(Action::Advanced(stale, Err("cancelled".into())));
        assert_eq!(h.run().phase, Phase::Replaying);
        // The replay (run by the harness) brings the worker back to the events kept.
        h.host = None;
        for c in cmds.into_iter().skip(1) {
            match c {
                Command::Start {
                    ticket,
                    file,
                    source,
                    config,
                } => {
                    let z3 = NativeZ3::new().unwrap();
                    let (host, info) = RunHost::new(&file, &source, &config, z3, None).unwrap();
                    h.host = Some(host);
                    h.act(Action::Started(ticket, Ok(info)));
                }
                Command::Advance {
                    ticket,
                    granularity,
                    until,
                    quiet,
                } => {
                    let p =
                        h.host
                            .as_mut()
                            .unwrap()
                            .advance(granularity, until, quiet, &mut |_| {});
                    h.act(Action::Advanced(ticket, Ok(p)));
                }
                _ => unreachable!(),
            }
        }
        assert_eq!(h.run().phase, Phase::Idle);
        assert_eq!(h.run().position, shown);
        h.act(Action::Step(Target::End));
        assert_eq!(h.run().events[..shown], events[..shown]);
        assert!(h.run().shown_verdict().is_some());
    }

    #[test]
    fn a_lost_worker_replays_an_idle_run_and_crashes_a_busy_one() {
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        h.act(Action::Step(Target::Refinement));
        let shown = h.run().position;
        h.host = None;
        h.act(Action::WorkerLost("engine panic".into()));
        assert_eq!(h.run().phase, Phase::Idle, "replayed by the harness");
        assert_eq!(h.run().position, shown);
        h.act(Action::Step(Target::Refinement));
        assert!(h.run().position > shown);
        // A step in flight fails with the reason.
        h.p.run.as_mut().unwrap().phase = Phase::Busy;
        let t = h.run().ticket();
        h.act(Action::Advanced(t, Err("engine panic: boom".into())));
        h.act(Action::WorkerLost("engine panic: boom".into()));
        assert_eq!(h.run().phase, Phase::Crashed("engine panic: boom".into()));
        h.act(Action::Reset);
        assert_eq!(h.run().phase, Phase::Idle);
        assert_eq!(h.run().position, 0);
    }

    #[test]
    fn a_run_of_a_text_no_longer_shown_does_not_move() {
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        h.act(Action::SetSpeed(Some(100)));
        h.act(Action::Run);
        while h.run().position < 3 {
            h.act(Action::Tick);
        }
        assert!(h.p.running());
        let shown = h.run().position;
        // An edit (or another example) while running: paused, and no control moves it
        // until the new text's CFA is there.
        h.act(Action::Building);
        assert!(!h.p.running());
        assert!(h.p.blocked().unwrap().contains("building"));
        for a in [
            Action::Step(Target::Event),
            Action::Step(Target::End),
            Action::Run,
            Action::StepBack,
            Action::Seek(1),
        ] {
            h.act(a);
            assert_eq!(h.run().position, shown);
            assert!(!h.p.running());
        }
        // The new text arrives: a fresh run of it, which steps.
        let src = include_str!("../../../examples/lbe-figure2.c");
        let report = cpa_engine::report::cfa_report("t.c", src);
        h.act(Action::Program {
            file: "t.c".into(),
            source: Rc::from(src),
            cfa: report.cfa.map(Rc::new),
        });
        assert_eq!(h.p.blocked(), None);
        assert_eq!(h.run().position, 0);
        h.act(Action::Step(Target::Event));
        assert_eq!(h.run().position, 1);
        assert_eq!(&*h.run().source, src);
    }

    #[test]
    fn running_at_a_speed_reaches_the_verdict_and_stops() {
        let mut h = Harness::new(
            include_str!("../../../examples/lbe-figure2.c"),
            "predicate-lbe",
        );
        h.act(Action::SetSpeed(Some(100)));
        h.act(Action::Run);
        assert!(h.p.running());
        let mut ticks = 0;
        while h.p.running() {
            h.act(Action::Tick);
            ticks += 1;
            assert!(ticks < 10_000);
        }
        let r = h.run();
        assert!(r.shown_verdict().is_some());
        // 100 events per second at 50 ms per tick: 5 per tick.
        assert!(ticks as usize >= r.events.len() / 5, "{ticks} ticks");
    }

    #[test]
    fn bad_programs_and_configurations_do_not_run() {
        let mut h = Harness::new("int main(void) { int x = ; }", "predicate-lbe");
        assert!(h.p.run.is_none());
        assert!(h.p.blocked().unwrap().contains("errors"));
        h.act(Action::Step(Target::Event));
        assert!(h.p.run.is_none());
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        h.act(Action::Configure(RunConfig {
            preset: "predicate-lbe".into(),
            set: vec![("max-depth".into(), "0".into())],
        }));
        assert!(
            h.p.blocked().unwrap().contains("max-depth"),
            "{:?}",
            h.p.blocked()
        );
        assert!(h.p.run.is_none());
    }

    #[test]
    fn limits_end_with_unknown_and_the_reason() {
        let mut h = Harness::new(COUNTER, "predicate-lbe");
        h.act(Action::Configure(RunConfig {
            preset: "predicate-lbe".into(),
            set: vec![("max-steps".into(), "5".into())],
        }));
        h.act(Action::Step(Target::End));
        match h.run().shown_verdict() {
            Some(Verdict::Unknown { reason }) => assert!(reason.contains("step limit"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }
}

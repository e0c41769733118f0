//! The one route from the page to the engine worker: it carries out the state's commands for
//! the worker and turns the worker's answers into [`Msg`]s. The run's answers are tagged with
//! the ticket of the request, so that answers for a replaced run or worker are dropped by the
//! reducer.

use crate::engine::client::EngineClient;
use crate::protocol::{
    Advance, Ask, BuildCfa, CheckInvariant, JudgePredicate, QueryText, Start, WitnessOf,
};
use crate::state::compare::CompareMsg;
use crate::state::exercise::ExerciseMsg;
use crate::state::playground::Command;
use crate::state::race::{RaceCommand, RaceMsg, ROW_BUDGET_MS};
use crate::state::{Action, Msg, TICK_MS};
use gloo_timers::callback::{Interval, Timeout};
use std::cell::RefCell;
use std::rc::Rc;
use yew::Callback;

/// Cheap to clone: the console hook shares the page's driver.
#[derive(Clone)]
pub struct Driver {
    engine: EngineClient,
    timer: Rc<RefCell<Option<Interval>>>,
    dispatch: Callback<Msg>,
    /// The race's worker (started with the first race) and its row's budget timer.
    race: Rc<RefCell<Option<EngineClient>>>,
    race_timer: Rc<RefCell<Option<Timeout>>>,
    /// Compare mode's right run: its worker and its run timer.
    right: Rc<RefCell<Option<EngineClient>>>,
    right_timer: Rc<RefCell<Option<Interval>>>,
}

impl Driver {
    pub fn new(engine: EngineClient, dispatch: Callback<Msg>) -> Driver {
        Driver {
            engine,
            timer: Rc::default(),
            dispatch,
            race: Rc::default(),
            race_timer: Rc::default(),
            right: Rc::default(),
            right_timer: Rc::default(),
        }
    }

    /// Sends a request that is not part of the page's state (the console hook's).
    pub fn ask<A: Ask + 'static>(
        &self,
        request: A,
        done: impl FnOnce(Result<A::Answer, String>) + 'static,
    ) {
        self.engine.ask(request, done);
    }

    /// Makes the worker panic in its next step (the page's crash recovery is tested so).
    pub fn crash_worker(&self) {
        self.engine.tell(crate::protocol::Request::DebugPanic);
    }

    /// Carries out a command of the run's reducer.
    pub fn run(&self, command: Command) {
        let wrap: fn(Action) -> Msg = Msg::Act;
        self.run_on(&self.engine, &self.timer, wrap, command);
    }

    /// Carries out a command of compare mode's right run, in its own worker (started with
    /// the first command).
    pub fn run_right(&self, command: Command) {
        let client = self
            .right
            .borrow_mut()
            .get_or_insert_with(|| self.engine.sibling(Callback::from(|_| {})))
            .clone();
        let wrap: fn(Action) -> Msg = |a| Msg::Compare(CompareMsg::Act(a));
        self.run_on(&client, &self.right_timer, wrap, command);
    }

    fn run_on(
        &self,
        engine: &EngineClient,
        timer: &Rc<RefCell<Option<Interval>>>,
        wrap: fn(Action) -> Msg,
        command: Command,
    ) {
        match command {
            Command::Start {
                ticket,
                file,
                source,
                config,
            } => {
                let d = self.dispatch.clone();
                let request = Start {
                    file,
                    source: source.to_string(),
                    config,
                };
                engine.ask(request, move |r| d.emit(wrap(Action::Started(ticket, r))));
            }
            Command::Advance {
                ticket,
                granularity,
                until,
                quiet,
            } => {
                let (d, d2) = (self.dispatch.clone(), self.dispatch.clone());
                let request = Advance {
                    granularity,
                    until,
                    quiet,
                };
                engine.ask_streaming(
                    request,
                    move |batch| d.emit(wrap(Action::Batch(ticket, batch))),
                    move |r| d2.emit(wrap(Action::Advanced(ticket, r))),
                );
            }
            Command::RestartWorker => engine.cancel(),
            Command::Timer(on) => {
                let mut timer = timer.borrow_mut();
                if !on {
                    *timer = None;
                } else if timer.is_none() {
                    let d = self.dispatch.clone();
                    *timer = Some(Interval::new(TICK_MS, move || d.emit(wrap(Action::Tick))));
                }
            }
        }
    }

    /// Builds the CFA of `source`: [`Msg::Report`] with `generation`.
    pub fn build_cfa(&self, generation: u64, file: String, source: String) {
        let d = self.dispatch.clone();
        self.engine.ask(BuildCfa { file, source }, move |result| {
            d.emit(Msg::Report { generation, result })
        });
    }

    /// The whole text of logged query `index` of the current run: [`Msg::QueryLoaded`].
    pub fn query_text(&self, index: u64) {
        let d = self.dispatch.clone();
        self.engine.ask(QueryText { index }, move |r| {
            d.emit(Msg::QueryLoaded(index, r))
        });
    }

    /// Checks a candidate invariant (the exercise).
    pub fn check_invariant(&self, generation: u64, ask: CheckInvariant) {
        let d = self.dispatch.clone();
        self.engine.ask(ask, move |r| {
            d.emit(Msg::Exercise(ExerciseMsg::Checked(generation, r)))
        });
    }

    /// Judges the answer to a lesson's predicate question.
    pub fn judge_predicate(&self, generation: u64, ask: JudgePredicate) {
        let d = self.dispatch.clone();
        self.engine.ask(ask, move |r| {
            d.emit(Msg::Lesson(crate::state::lesson::LessonMsg::Judged(
                generation, r,
            )))
        });
    }

    /// The current run's witness (YAML), created at `creation_time`.
    pub fn witness(
        &self,
        creation_time: String,
        done: impl FnOnce(Result<String, String>) + 'static,
    ) {
        self.engine.ask(WitnessOf { creation_time }, done);
    }

    /// The race's worker, started if it is not running.
    fn race_client(&self) -> EngineClient {
        self.race
            .borrow_mut()
            .get_or_insert_with(|| self.engine.sibling(Callback::from(|_| {})))
            .clone()
    }

    /// Carries out a command of the race: each row is a `Start` and one quiet `Advance` to
    /// the verdict in the race's own worker, timed with the page's clock, and ends early
    /// when its budget runs out.
    pub fn race(&self, command: RaceCommand) {
        match command {
            RaceCommand::Stop => {
                *self.race_timer.borrow_mut() = None;
                if let Some(c) = self.race.borrow().as_ref() {
                    c.cancel();
                }
            }
            RaceCommand::Warm => {
                self.race_client();
            }
            RaceCommand::Run {
                generation,
                index,
                file,
                source,
                config,
            } => {
                let client = self.race_client();
                let d = self.dispatch.clone();
                *self.race_timer.borrow_mut() = Some(Timeout::new(ROW_BUDGET_MS, move || {
                    d.emit(Msg::Race(RaceMsg::Timeout { generation, index }))
                }));
                let d = self.dispatch.clone();
                let finish = move |result: Result<(crate::protocol::Progress, f64), String>| {
                    d.emit(Msg::Race(RaceMsg::Finished {
                        generation,
                        index,
                        result,
                    }))
                };
                let t0 = now_ms();
                let c2 = client.clone();
                client.ask(
                    Start {
                        file,
                        source,
                        config,
                    },
                    move |r| match r {
                        Err(e) => finish(Err(e)),
                        Ok(_) => {
                            let request = Advance {
                                granularity: cpa_engine::session::Granularity::End,
                                until: None,
                                quiet: true,
                            };
                            c2.ask(request, move |r| finish(r.map(|p| (p, now_ms() - t0))));
                        }
                    },
                );
            }
        }
    }
}

/// The page's monotonic clock in milliseconds.
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

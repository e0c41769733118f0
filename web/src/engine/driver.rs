//! The one route from the page to the engine worker: it carries out the state's commands for
//! the worker and turns the worker's answers into [`Msg`]s. The run's answers are tagged with
//! the ticket of the request, so that answers for a replaced run or worker are dropped by the
//! reducer.

use crate::engine::client::EngineClient;
use crate::protocol::{Advance, Ask, BuildCfa, CheckInvariant, QueryText, Start, WitnessOf};
use crate::state::exercise::ExerciseMsg;
use crate::state::playground::Command;
use crate::state::{Action, Msg, TICK_MS};
use gloo_timers::callback::Interval;
use std::cell::RefCell;
use std::rc::Rc;
use yew::Callback;

/// Cheap to clone: the console hook shares the page's driver.
#[derive(Clone)]
pub struct Driver {
    engine: EngineClient,
    timer: Rc<RefCell<Option<Interval>>>,
    dispatch: Callback<Msg>,
}

impl Driver {
    pub fn new(engine: EngineClient, dispatch: Callback<Msg>) -> Driver {
        Driver {
            engine,
            timer: Rc::default(),
            dispatch,
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
                self.engine.ask(request, move |r| {
                    d.emit(Msg::Act(Action::Started(ticket, r)))
                });
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
                self.engine.ask_streaming(
                    request,
                    move |batch| d.emit(Msg::Act(Action::Batch(ticket, batch))),
                    move |r| d2.emit(Msg::Act(Action::Advanced(ticket, r))),
                );
            }
            Command::RestartWorker => self.engine.cancel(),
            Command::Timer(on) => {
                let mut timer = self.timer.borrow_mut();
                if !on {
                    *timer = None;
                } else if timer.is_none() {
                    let d = self.dispatch.clone();
                    *timer = Some(Interval::new(TICK_MS, move || {
                        d.emit(Msg::Act(Action::Tick))
                    }));
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

    /// The current run's witness (YAML), created at `creation_time`.
    pub fn witness(
        &self,
        creation_time: String,
        done: impl FnOnce(Result<String, String>) + 'static,
    ) {
        self.engine.ask(WitnessOf { creation_time }, done);
    }
}

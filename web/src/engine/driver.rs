//! The one piece of the page that talks to the engine worker: it carries out the reducer's
//! [`Command`]s and turns the worker's answers into [`Action`]s, tagged with the ticket of
//! the request so that answers for a replaced run or worker are dropped by the reducer.

use crate::engine::client::{EngineClient, PageReply};
use crate::protocol::{Progress, Reply, Request, RunInfo};
use crate::state::{Action, Command, TICK_MS};
use gloo_timers::callback::Interval;
use yew::Callback;

pub struct Driver {
    engine: EngineClient,
    timer: Option<Interval>,
    dispatch: Callback<Action>,
}

fn started(r: Result<PageReply, String>) -> Result<RunInfo, String> {
    match r? {
        Reply::RunStarted { info } => Ok(info),
        Reply::Error { message } => Err(message),
        _ => Err("unexpected reply to start".into()),
    }
}

fn advanced(r: Result<PageReply, String>) -> Result<Progress, String> {
    match r? {
        Reply::Advanced { progress } => Ok(progress),
        Reply::Error { message } => Err(message),
        _ => Err("unexpected reply to advance".into()),
    }
}

impl Driver {
    pub fn new(engine: EngineClient, dispatch: Callback<Action>) -> Driver {
        Driver {
            engine,
            timer: None,
            dispatch,
        }
    }

    pub fn engine(&self) -> &EngineClient {
        &self.engine
    }

    pub fn execute(&mut self, commands: Vec<Command>) {
        for c in commands {
            match c {
                Command::Start {
                    ticket,
                    file,
                    source,
                    config,
                } => {
                    let d = self.dispatch.clone();
                    self.engine.request(
                        Request::Start {
                            file,
                            source: source.to_string(),
                            config,
                        },
                        move |r| d.emit(Action::Started(ticket, started(r))),
                    );
                }
                Command::Advance {
                    ticket,
                    granularity,
                    until,
                    quiet,
                } => {
                    let (d1, d2) = (self.dispatch.clone(), self.dispatch.clone());
                    self.engine.request_streaming(
                        Request::Advance {
                            granularity,
                            until,
                            quiet,
                        },
                        move |batch| d1.emit(Action::Batch(ticket, batch)),
                        move |r| d2.emit(Action::Advanced(ticket, advanced(r))),
                    );
                }
                Command::RestartWorker => self.engine.cancel(),
                Command::Timer(on) => {
                    if on {
                        if self.timer.is_none() {
                            let d = self.dispatch.clone();
                            self.timer = Some(Interval::new(TICK_MS, move || d.emit(Action::Tick)));
                        }
                    } else {
                        self.timer = None;
                    }
                }
            }
        }
    }

    /// The current run's witness (YAML), created at `creation_time`.
    pub fn witness(
        &self,
        creation_time: String,
        done: impl FnOnce(Result<String, String>) + 'static,
    ) {
        self.engine
            .request(Request::Witness { creation_time }, move |r| {
                done(match r {
                    Ok(Reply::Witness { yaml }) => Ok(yaml),
                    Ok(Reply::Error { message }) | Err(message) => Err(message),
                    Ok(_) => Err("unexpected reply".into()),
                })
            });
    }

    /// The whole text of a logged query of the current run.
    pub fn query_text(
        &self,
        index: u64,
        done: impl FnOnce(Result<(String, String), String>) + 'static,
    ) {
        self.engine.request(Request::QueryText { index }, move |r| {
            done(match r {
                Ok(Reply::QueryText { query, reply }) => Ok((query, reply)),
                Ok(Reply::Error { message }) | Err(message) => Err(message),
                Ok(_) => Err("unexpected reply".into()),
            })
        });
    }
}

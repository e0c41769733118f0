//! The run reducer on real runs: its commands carried out by a native run host, as the
//! driver does with the worker.

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
                        let p = host.advance(granularity, until, quiet, &mut |b| batches.push(b));
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

const COUNTER: &str = include_str!("../../../../tests/verdicts/counter-unsafe.c");

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

/// Compare mode's "to the same CFA location": a run stepped to a location stops at its own
/// next state there, computed by the worker or found among the events it has; the left
/// side's newest location decides where the right side goes.
#[test]
fn a_step_to_a_location_stops_at_the_next_state_there() {
    use crate::state::compare::{newest_location, Compare, Sync};
    let mut left = Harness::new(COUNTER, "predicate-lbe");
    for _ in 0..12 {
        left.act(Action::Step(Target::Event));
    }
    let want = newest_location(left.run()).expect("a state was added");
    let mut c = Compare::new(RunConfig::preset("predicate-sbe"), Sync::Location);
    let mut right = Harness::new(COUNTER, "predicate-sbe");
    right.act(Action::Step(Target::Event));
    c.pg = std::mem::replace(&mut right.p, Playground::new(RunConfig::preset("bmc")));
    let step = c.follow_location(left.p.run.as_ref());
    assert_eq!(step, Some(Action::Step(Target::Location(want))));
    // Asked again at the same left position: nothing more.
    assert_eq!(c.follow_location(left.p.run.as_ref()), None);
    right.p = std::mem::replace(&mut c.pg, Playground::new(RunConfig::preset("bmc")));
    right.act(step.unwrap());
    let r = right.run();
    assert_eq!(newest_location(r), Some(want));
    assert!(matches!(
        r.current_event(),
        Some((_, Event::StateAdded { location, .. })) if *location == want
    ));
    // Back and forward again: the events are there, no worker needed.
    let at = r.position;
    right.act(Action::Seek(0));
    right.host = None;
    right.act(Action::Step(Target::Location(want)));
    assert_eq!(right.run().position, at);
    // Other syncs do not follow locations.
    let mut other = Compare::new(RunConfig::preset("predicate-sbe"), Sync::Event);
    assert_eq!(other.follow_location(left.p.run.as_ref()), None);
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
                let p = h
                    .host
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
    let src = include_str!("../../../../examples/lbe-figure2.c");
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
        include_str!("../../../../examples/lbe-figure2.c"),
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

/// While the worker is still loading Z3 it does nothing a new run must interrupt: a new run
/// does not replace it (that would start Z3's download again), and the old run's late answer
/// is dropped by its ticket. Once Z3 is in, a run that is starting is replaced as before.
#[test]
fn a_new_run_while_z3_loads_keeps_the_worker() {
    let mut h = Harness::new(COUNTER, "predicate-lbe");
    h.p.run.as_mut().unwrap().phase = Phase::Starting;
    h.p.solver_loading = true;
    let old = h.run().ticket();
    let cmds = h.p.reduce(Action::Configure(RunConfig::preset("impact")));
    assert!(!cmds.contains(&Command::RestartWorker), "{cmds:?}");
    assert!(
        cmds.iter().any(|c| matches!(c, Command::Start { .. })),
        "{cmds:?}"
    );
    assert_eq!(h.run().phase, Phase::Starting);
    h.p.reduce(Action::Started(old, Err("the old run's answer".into())));
    assert_eq!(h.run().phase, Phase::Starting);
    h.p.solver_loading = false;
    let cmds = h.p.reduce(Action::Configure(RunConfig::preset("bmc")));
    assert_eq!(cmds[0], Command::RestartWorker);
}

//! The page's state on real runs: its commands carried out natively as the effects do in the
//! browser (the CFA built by the engine, the run by a native run host on the real z3).

use super::*;
use crate::present::examples::by_key;
use crate::worker::run_host::RunHost;
use cpa_engine::events::Event;
use solver_bridge::solver::NativeZ3;

/// A state whose commands are carried out at once; what is not for the worker is recorded.
struct Page {
    st: State,
    host: Option<RunHost>,
    /// Commands for the browser (timers, the address bar, downloads), in order.
    effects: Vec<Command>,
    /// Whether the last message changed what is shown.
    changed: bool,
}

impl Page {
    fn open(link: Result<Option<Link>, LinkError>) -> Page {
        let (st, cmds) = State::new(link, View::default(), by_key("unifying-fig2").unwrap());
        let mut p = Page {
            st,
            host: None,
            effects: Vec::new(),
            changed: false,
        };
        p.run(cmds);
        p
    }

    fn send(&mut self, msg: Msg) {
        let (cmds, changed) = self.st.update(msg);
        self.changed = changed;
        self.run(cmds);
    }

    fn run(&mut self, cmds: Vec<Command>) {
        let mut queue: Vec<Msg> = Vec::new();
        for c in cmds {
            match c {
                Command::BuildCfa {
                    generation,
                    file,
                    source,
                } => queue.push(Msg::Report {
                    generation,
                    result: Ok(roundtrip(cpa_engine::report::cfa_report(&file, &source))),
                }),
                Command::Run(playground::Command::Start {
                    ticket,
                    file,
                    source,
                    config,
                }) => {
                    let r = RunHost::new(&file, &source, &config, NativeZ3::new().unwrap(), None);
                    let info = r.map(|(h, i)| {
                        self.host = Some(h);
                        i
                    });
                    queue.push(Msg::Act(Action::Started(ticket, info)));
                }
                Command::Run(playground::Command::Advance {
                    ticket,
                    granularity,
                    until,
                    quiet,
                }) => {
                    let host = self.host.as_mut().unwrap();
                    let mut batches = Vec::new();
                    let p = host.advance(granularity, until, quiet, &mut |b| batches.push(b));
                    queue.extend(
                        batches
                            .into_iter()
                            .map(|b| Msg::Act(Action::Batch(ticket, b))),
                    );
                    queue.push(Msg::Act(Action::Advanced(ticket, Ok(p))));
                }
                Command::Run(playground::Command::RestartWorker) => self.host = None,
                Command::JudgePredicate { generation, ask } => {
                    let mut smt = cpa_engine::smt::BridgeSmt::new(NativeZ3::new().unwrap());
                    let r = cpa_engine::lesson::predicate::judge_program(
                        &ask.file,
                        &ask.source,
                        &ask.config.resolve().unwrap(),
                        &ask.path,
                        &ask.answer,
                        &mut smt,
                    );
                    queue.push(Msg::Lesson(crate::state::lesson::LessonMsg::Judged(
                        generation, r,
                    )));
                }
                Command::Run(playground::Command::Timer(_)) => {}
                other => self.effects.push(other),
            }
        }
        for m in queue {
            self.send(m);
        }
    }

    fn run_ref(&self) -> &Run {
        self.st.pg.run.as_ref().unwrap()
    }
}

/// The report as the page receives it: through the worker's JSON.
fn roundtrip(r: cpa_engine::report::CfaReport) -> CfaReport {
    serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap()
}

#[test]
fn the_page_opens_with_the_default_example_ready_to_step() {
    let mut p = Page::open(Ok(None));
    assert!(p.st.program.graphs.is_some());
    assert_eq!(p.run_ref().phase, Phase::Idle);
    p.send(Msg::Act(Action::Step(Target::Refinement)));
    assert!(p.changed);
    let r = p.run_ref();
    assert!(matches!(
        r.current_event(),
        Some((_, Event::Refined { .. }))
    ));
    // The derived views follow the position.
    assert_eq!(p.st.derived.refinements.len(), 1);
    assert!(!p.st.derived.arg.nodes.is_empty());
}

#[test]
fn derived_views_are_computed_once_per_position_and_selection() {
    let mut p = Page::open(Ok(None));
    p.send(Msg::Act(Action::Step(Target::Refinement)));
    let arg = p.st.derived.arg.clone();
    // A tab change shows other panels but changes no derived view.
    p.send(Msg::Tab(Tab::Stats));
    assert!(p.changed);
    assert!(Rc::ptr_eq(&arg, &p.st.derived.arg));
    // Nothing visible: no new render.
    p.send(Msg::FlushUrl);
    assert!(!p.changed);
    // A selection changes the ARG's classes.
    let s = *p.run_ref().cursor.frame.view.states.keys().next().unwrap();
    p.send(Msg::StateClicked(s));
    assert!(!Rc::ptr_eq(&arg, &p.st.derived.arg));
    assert_eq!(p.st.view.tab, Tab::Node);
    assert_eq!(p.st.derived.node.as_ref().map(|n| n.id), Some(s));
}

#[test]
fn an_edit_is_built_after_the_pause_and_old_reports_are_dropped() {
    let mut p = Page::open(Ok(None));
    let g = p.st.program.generation;
    p.send(Msg::Edited("int main(void) { return 0; }".into()));
    assert!(p.effects.contains(&Command::Debounce), "{:?}", p.effects);
    assert!(
        p.st.pg.building,
        "the old run is paused while the edit is built"
    );
    assert_eq!(
        p.st.program.file,
        program::USER_FILE,
        "an edited example is the user's"
    );
    // A report of an older request changes nothing.
    let stale = Msg::Report {
        generation: g - 1,
        result: Err("late".into()),
    };
    p.send(stale);
    assert!(!p.changed);
    assert!(p.st.program.engine_error.is_none());
    p.send(Msg::Rebuild);
    assert_eq!(p.st.program.generation, g + 1);
    assert!(!p.st.pg.building);
    assert_eq!(&*p.run_ref().source, "int main(void) { return 0; }");
}

#[test]
fn the_address_bar_is_rewritten_after_the_throttle_and_pushed_for_a_new_analysis() {
    let mut p = Page::open(Ok(None));
    assert_eq!(p.effects, vec![Command::ThrottleUrl]);
    p.send(Msg::FlushUrl);
    assert!(matches!(
        p.effects.pop(),
        Some(Command::SetUrl { push: false, .. })
    ));
    p.effects.clear();
    p.send(Msg::Act(Action::Step(Target::Event)));
    assert_eq!(p.effects, vec![Command::ThrottleUrl]);
    p.send(Msg::Act(Action::Step(Target::Event)));
    assert_eq!(p.effects.len(), 1, "one timer for several steps");
    p.send(Msg::FlushUrl);
    let Some(Command::SetUrl { fragment, push }) = p.effects.pop() else {
        panic!("{:?}", p.effects)
    };
    assert!(!push);
    let link = Link::decode(&fragment).unwrap().unwrap();
    assert_eq!(link.step, 2);
    p.effects.clear();
    p.send(Msg::Preset("impact".into()));
    assert!(
        p.effects
            .iter()
            .any(|c| matches!(c, Command::SetUrl { push: true, .. })),
        "{:?}",
        p.effects
    );
}

#[test]
fn a_link_opens_at_its_step_and_back_reopens_the_entry_left() {
    let mut first = Page::open(Ok(None));
    first.send(Msg::Act(Action::Step(Target::Refinement)));
    let fragment = first.st.link().encode();
    let k = first.run_ref().position;
    let mut p = Page::open(Link::decode(&fragment));
    assert_eq!(p.run_ref().position, k);
    assert_eq!(p.st.link().encode(), fragment);
    // Elsewhere, then back.
    p.send(Msg::SelectExample("max-bug".into()));
    assert_eq!(p.st.program.example.map(|e| e.key), Some("max-bug"));
    p.send(Msg::OpenFragment(fragment.clone()));
    assert_eq!(p.st.program.example.map(|e| e.key), Some("unifying-fig2"));
    assert_eq!(p.run_ref().position, k);
    // A damaged link opens an empty playground with the reason.
    let mut bad = Page::open(Link::decode("v1=%%%"));
    assert!(bad.st.url.link_error.is_some());
    assert_eq!(&*bad.st.program.source, "");
    bad.send(Msg::SelectExample("max-bug".into()));
    assert!(bad.st.url.link_error.is_none());
}

#[test]
fn an_edge_selection_highlights_its_lines_and_escape_closes_overlays_first() {
    let mut p = Page::open(Ok(None));
    let g = p.st.program.graphs.clone().unwrap();
    let e = g.cfa.edges.iter().find(|e| e.lines[0] > 0).unwrap();
    p.send(Msg::Select(Some(Selection::Edge(GraphKind::Cfa, e.id))));
    let [a, b] = e.lines;
    assert_eq!(p.st.derived.highlight, Some((a, b.max(a))));
    assert_eq!(
        p.st.link().selection,
        None,
        "an edge is not part of a share link"
    );
    p.send(Msg::Overlay(Overlay::Share));
    p.send(Msg::Escape);
    assert_eq!(p.st.view.overlay, Overlay::None);
    assert!(
        p.st.pg.selection.is_some(),
        "the first Escape closes the dialog"
    );
    p.send(Msg::Escape);
    assert_eq!(p.st.pg.selection, None);
    assert_eq!(p.st.derived.highlight, None);
}

#[test]
fn exports_download_what_the_dialog_names() {
    let mut p = Page::open(Ok(None));
    p.send(Msg::Act(Action::Step(Target::Refinement)));
    p.effects.clear();
    p.send(Msg::Export(ExportKind::ArgDot));
    match p.effects.as_slice() {
        [Command::Download { name, text, .. }] => {
            assert_eq!(name, "unifying-fig2-arg.dot");
            assert!(text.starts_with("digraph"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    p.effects.clear();
    p.send(Msg::Export(ExportKind::CfaSvg));
    assert!(matches!(
        p.effects.as_slice(),
        [Command::DownloadSvg { .. }]
    ));
    p.effects.clear();
    p.send(Msg::Export(ExportKind::Witness));
    assert!(matches!(
        p.effects.as_slice(),
        [Command::DownloadWitness { .. }]
    ));
}

#[test]
fn keys_map_to_messages() {
    use keys::shortcut;
    assert_eq!(
        shortcut("ArrowRight", true, false),
        Some(Msg::Act(Action::Step(Target::Refinement)))
    );
    assert_eq!(
        shortcut("ArrowRight", false, true),
        Some(Msg::Act(Action::Step(Target::Abstraction)))
    );
    assert_eq!(shortcut("ArrowLeft", true, false), None);
    assert_eq!(shortcut("3", false, false), Some(Msg::Tab(Tab::Stats)));
    assert_eq!(shortcut("x", false, false), None);
}

#[test]
fn the_predicate_exercise_runs_exactly_the_chosen_predicates() {
    use crate::state::exercise::ExerciseMsg;
    let mut p = Page::open(Ok(None));
    let ex = |m| Msg::Exercise(crate::state::exercise::ExerciseMsg::PredicateText(m));
    // The conditions of unifying-fig2 are offered, at the loop's line by default.
    assert_eq!(p.st.condition_suggestions(), vec!["x < 2", "x != y"]);
    assert_eq!(p.st.predicate_line(), Some(8));
    let until_verdict = |p: &mut Page| {
        for _ in 0..10_000 {
            if p.run_ref().at_verdict() {
                break;
            }
            p.send(Msg::Act(Action::Tick));
        }
        p.st.derived
            .verdict
            .clone()
            .expect("the run reaches its verdict")
    };
    p.send(ex("x == y".into()));
    p.send(Msg::Exercise(ExerciseMsg::PredicateAdd));
    assert_eq!(p.st.exercise.predicates.knob_value(), "8: x == y");
    assert!(p.st.exercise.predicates.text.is_empty());
    // The same one twice is refused with the reason.
    p.send(Msg::Exercise(ExerciseMsg::PredicatePick(
        8,
        "x == y".into(),
    )));
    assert!(p
        .st
        .exercise
        .predicates
        .error
        .as_deref()
        .unwrap()
        .contains("already"));
    p.send(Msg::Exercise(ExerciseMsg::PredicateRun));
    assert_eq!(p.st.pg.config.preset, "predicate-lbe");
    assert!(p
        .st
        .pg
        .config
        .set
        .contains(&("predicates".into(), "8: x == y".into())));
    assert!(p
        .st
        .pg
        .config
        .set
        .contains(&("max-refinements".into(), "0".into())));
    assert!(p.st.runs_chosen_predicates());
    let v = until_verdict(&mut p);
    assert_eq!(v.kind, "true", "{}", v.text);
    // A predicate too weak: no refinement, so the run stops at the path it lets through.
    p.send(Msg::Exercise(ExerciseMsg::PredicateRemove(0)));
    assert!(!p.st.runs_chosen_predicates());
    p.send(Msg::Exercise(ExerciseMsg::PredicatePick(
        8,
        "x <= 2".into(),
    )));
    p.send(Msg::Exercise(ExerciseMsg::PredicateRun));
    let v = until_verdict(&mut p);
    assert_eq!(v.kind, "unknown");
    assert!(v.text.contains("does not rule out"), "{}", v.text);
    // IMPACT has no precision: the exercise runs predicate-lbe instead.
    p.send(Msg::Preset("impact".into()));
    assert_eq!(p.st.predicate_exercise_config().preset, "predicate-lbe");
    p.send(Msg::Preset("predicate-sbe".into()));
    assert_eq!(p.st.predicate_exercise_config().preset, "predicate-sbe");
}

#[test]
fn a_lesson_predicate_question_is_judged_against_the_next_refinement() {
    use crate::state::lesson::LessonMsg;
    let mut p = Page::open(Ok(None));
    p.send(Msg::Lesson(LessonMsg::Open("one-cegar-loop".into())));
    let section =
        p.st.lesson
            .as_ref()
            .unwrap()
            .lesson
            .sections
            .iter()
            .position(|s| s.question == Some(cpa_engine::lesson::Question::Predicate))
            .expect("the lesson asks for a predicate");
    p.send(Msg::Lesson(LessonMsg::Go(section)));
    for _ in 0..1_000 {
        if !p.st.lesson.as_ref().unwrap().pending {
            break;
        }
        p.send(Msg::Act(Action::Tick));
    }
    let l = p.st.lesson.as_ref().unwrap();
    assert!(!l.pending, "the section's anchor is reached");
    let answer = |p: &mut Page, text: &str| {
        p.send(Msg::Lesson(LessonMsg::Draft(text.into())));
        p.send(Msg::Lesson(LessonMsg::CheckDraft));
        let l = p.st.lesson.as_ref().unwrap();
        assert!(l.checking.is_none(), "answered at once by the native judge");
        let (given, right) = l.answer.clone().expect("judged");
        assert_eq!(given, text);
        (right, l.judged.clone().unwrap().map(|j| j.why))
    };
    let (right, why) = answer(&mut p, "x == y");
    assert!(right, "{why:?}");
    assert!(why.unwrap().contains("interpolant"));
    let (right, why) = answer(&mut p, "x <= 5");
    assert!(!right);
    assert!(why.unwrap().contains("still reaches the error"));
    let (right, why) = answer(&mut p, "k == 1");
    assert!(!right);
    assert!(why.is_err());
}

#[test]
fn a_lesson_written_in_the_page_plays_and_travels_in_a_link() {
    use crate::state::author::AuthorMsg;
    let mut p = Page::open(Ok(None));
    // A section at the start, one after three steps, one at the verdict (written in that
    // order but the middle one last: it goes between the others).
    p.send(Msg::Author(AuthorMsg::AddSection));
    assert_eq!(p.st.view.tab, Tab::Author);
    p.send(Msg::Act(Action::Seek(usize::MAX)));
    for _ in 0..10_000 {
        if p.run_ref().at_verdict() {
            break;
        }
        p.send(Msg::Act(Action::Tick));
    }
    assert!(p.run_ref().at_verdict());
    p.send(Msg::Author(AuthorMsg::AddSection));
    p.send(Msg::Act(Action::Seek(3)));
    assert_eq!(p.run_ref().position, 3);
    p.send(Msg::Author(AuthorMsg::AddSection));
    let text = p.st.author.text.clone();
    let l = cpa_engine::lesson::parse(&text).unwrap();
    let anchors: Vec<String> = l
        .sections
        .iter()
        .map(|s| format!("{:?}", s.anchor))
        .collect();
    assert_eq!(anchors, ["Start", "Event(3)", "Verdict"], "{text}");
    assert_eq!(l.program, "tests/verdicts/unifying-fig2.c");
    assert!(text.contains("expect: verdict true"), "{text}");
    // Played: the player has it, from its first section; Next goes to event 3.
    p.send(Msg::Author(AuthorMsg::Play));
    assert_eq!(p.st.author.error, None);
    let played = p.st.lesson.as_ref().unwrap();
    assert_eq!(played.text.as_deref(), Some(text.as_str()));
    assert_eq!(played.key, "");
    p.send(Msg::Lesson(crate::state::lesson::LessonMsg::Next));
    for _ in 0..100 {
        if !p.st.lesson.as_ref().unwrap().pending {
            break;
        }
        p.send(Msg::Act(Action::Tick));
    }
    assert_eq!(p.run_ref().position, 3);
    // The link carries the text; opened in a fresh page it plays at the same section.
    let link = p.st.link();
    assert_eq!(link.lesson, Some((String::new(), 1)));
    let decoded = Link::decode(&link.encode()).unwrap().unwrap();
    assert_eq!(decoded.lesson_text.as_deref(), Some(text.as_str()));
    let q = Page::open(Ok(Some(decoded)));
    let l = q.st.lesson.as_ref().unwrap();
    assert_eq!((l.section, l.text.as_deref()), (1, Some(text.as_str())));
    // A text that does not read is refused with the reason, in the page and in a link.
    p.send(Msg::Author(AuthorMsg::Edit("---\ntitle: x\n".into())));
    p.send(Msg::Author(AuthorMsg::Play));
    assert!(p.st.author.error.is_some());
    let mut bad = link.clone();
    bad.lesson_text = Some("no lesson".into());
    assert!(Link::decode(&bad.encode()).is_err());
    // Download names the file after the title.
    p.send(Msg::Author(AuthorMsg::New));
    p.send(Msg::Author(AuthorMsg::Download));
    assert!(p
        .effects
        .iter()
        .any(|c| matches!(c, Command::Download { name, .. } if name == "a-new-lesson.md")));
}

#[test]
fn a_lesson_section_highlights_what_it_names() {
    use crate::state::lesson::{references, LessonMsg};
    let r: Vec<(String, Selection)> =
        references("state 3 sits at line 12; restate 4, state 5a, line 7, location 4, edge 9.")
            .into_iter()
            .map(|(range, s)| (range.start.to_string(), s))
            .collect();
    assert_eq!(
        r,
        vec![
            ("0".into(), Selection::State(3)),
            ("16".into(), Selection::Line(12)),
            ("46".into(), Selection::Line(7)),
            ("54".into(), Selection::Location(4)),
            (
                "66".into(),
                Selection::Edge(crate::state::view::GraphKind::Cfa, 9)
            ),
        ]
    );
    assert_eq!(
        crate::state::lesson::named_formulas("the predicate `x  = y` and `x < 2`; no `` code"),
        vec!["x = y".to_string(), "x < 2".to_string()]
    );
    let mut p = Page::open(Ok(None));
    p.send(Msg::Lesson(LessonMsg::Open("one-cegar-loop".into())));
    p.send(Msg::Lesson(LessonMsg::Go(1)));
    for _ in 0..1_000 {
        if !p.st.lesson.as_ref().unwrap().pending {
            break;
        }
        p.send(Msg::Act(Action::Tick));
    }
    // "the new state sits at line 12": the line is selected, the editor highlights it.
    assert_eq!(p.st.pg.selection, Some(Selection::Line(12)));
    assert_eq!(p.st.derived.highlight, Some((12, 12)));
}

#[test]
fn a_proof_shows_the_invariants_at_their_loops() {
    let mut p = Page::open(Ok(None));
    p.send(Msg::Act(Action::Seek(usize::MAX)));
    for _ in 0..10_000 {
        if p.run_ref().at_verdict() {
            break;
        }
        p.send(Msg::Act(Action::Tick));
    }
    let run = p.run_ref();
    assert!(matches!(
        run.verdict,
        Some(cpa_engine::verdict::Verdict::True)
    ));
    assert!(!run.invariants.is_empty());
    assert!(
        run.invariants.iter().all(|(line, _)| *line == 8),
        "{:?}",
        run.invariants
    );
    let (i, e) = run.current_event().unwrap();
    let config = p.st.pg.config.resolve().ok();
    let cx = crate::explain::Context {
        run,
        config: config.as_ref(),
    };
    let shown = crate::explain::explain(&cx, i, e).plain();
    assert!(
        shown.contains("Invariant at the loop of line 8: "),
        "{shown}"
    );
}

/// The interpolants and predicates of a run with the CFA locations they are shown at.
fn shown_formulas(
    source: &str,
    preset: &str,
    knobs: &[(&str, &str)],
) -> (Vec<(u32, String)>, crate::protocol::Graph) {
    let report = cpa_engine::report::cfa_report("x.c", source);
    let graph = report.cfa.unwrap();
    let cfa = std::rc::Rc::new(cpa_engine::parse_program("x.c", source).unwrap().cfa);
    let config = cpa_engine::config::Config::build(preset, knobs.iter().copied()).unwrap();
    let smt = Box::new(cpa_engine::smt::BridgeSmt::new(NativeZ3::new().unwrap()));
    let mut s = cpa_engine::session::Session::new(cfa, config, smt);
    s.run();
    let mut located = Vec::new();
    let view_at = |n: usize| s.view_at(n);
    for (n, e) in s.events().iter().enumerate() {
        match e {
            Event::Interpolants {
                interpolants,
                states,
            } => {
                let view = view_at(n);
                for (t, st) in interpolants.iter().zip(states) {
                    let l = view.states.get(st).map_or(u32::MAX, |v| v.location);
                    located.push((l, t.clone()));
                }
            }
            Event::PrecisionRefined { added } => {
                located.extend(added.iter().map(|(l, p)| (*l, p.clone())))
            }
            _ => {}
        }
    }
    (located, graph)
}

/// The formulas shown without a wrap-around are equivalent to the engine's wherever the
/// location's ranges hold, checked by Z3 (`(not (= engine shown))` unsatisfiable under the
/// ranges), on the examples whose formulas have wrap-arounds; and the unifying-view paper's
/// interpolant reads as the paper has it.
#[test]
fn formulas_without_wrap_arounds_are_equivalent_where_shown() {
    use crate::present::formula::{pretty_at, unwrapped_smt, Ranges};
    use solver_bridge::solver::Solver;
    let fig2 = crate::present::examples::EXAMPLES
        .iter()
        .find(|e| e.key == "unifying-fig2")
        .unwrap();
    let head_itps = |knobs: &[(&str, &str)]| {
        let (located, graph) = shown_formulas(fig2.source, "predicate-lbe", knobs);
        let head = graph.nodes.iter().find(|n| n.loop_head).unwrap().id;
        located
            .iter()
            .filter(|(l, _)| *l == head)
            .map(|(l, t)| pretty_at(t, &Ranges::at(&graph, *l)))
            .collect::<Vec<String>>()
    };
    // The preset's weakest precondition, and the interpolant as strong as the path's start
    // allows (the interpolant first, then the predicates it adds).
    assert_eq!(head_itps(&[]), ["x = y ∨ x ≥ 2", "x < y", "y < x", "x < 2"]);
    // The gallery opens the example with the knob that gives the paper's interpolant.
    assert_eq!(head_itps(fig2.knobs), ["x = y", "x < y", "y < x"]);
    let mut z3 = NativeZ3::new().unwrap();
    let mut checked = 0;
    for key in ["unifying-fig2", "gcd", "max-bug", "svcomp-hhk2008"] {
        let e = crate::present::examples::EXAMPLES
            .iter()
            .find(|e| e.key == key)
            .unwrap();
        let (located, graph) = shown_formulas(e.source, e.preset, e.knobs);
        for (l, t) in located {
            let Some((shown, bounds)) = unwrapped_smt(&t, &Ranges::at(&graph, l)) else {
                continue;
            };
            let mut names: Vec<String> = t
                .split(|c: char| c == '(' || c == ')' || c.is_whitespace())
                .filter(|w| w.starts_with('|'))
                .map(str::to_string)
                .collect();
            names.sort();
            names.dedup();
            let mut q = String::from("(reset)\n");
            for n in &names {
                q.push_str(&format!("(declare-const {n} Int)\n"));
            }
            for b in &bounds {
                q.push_str(&format!("(assert {b})\n"));
            }
            q.push_str(&format!("(assert (not (= {t} {shown})))\n(check-sat)\n"));
            let reply = z3.eval(&q).unwrap();
            assert_eq!(
                reply.trim(),
                "unsat",
                "{key} at N{l}: {t}\nshown: {shown}\n{bounds:?}"
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 3,
        "only {checked} formulas had a wrap-around to remove"
    );
}

/// Every simplification the page shows (comparisons as a person writes them, strict pairs as
/// `≠`, negations pushed in, redundant bounds gone) is equivalent to the engine's formula,
/// checked by Z3 on the interpolants and predicates of every gallery example over the
/// integers (`(not (= engine shown))` unsatisfiable).
#[test]
fn simplified_formulas_are_equivalent_to_the_engines() {
    use crate::present::formula::rewritten_smt;
    use solver_bridge::solver::Solver;
    let mut z3 = NativeZ3::new().unwrap();
    let (mut checked, mut seen, mut skipped) = (0, 0, 0);
    for e in crate::present::examples::EXAMPLES {
        let (located, _) = shown_formulas(e.source, e.preset, e.knobs);
        for (_, t) in located {
            seen += 1;
            // Bit-vector and array formulas have sorts of their own: integers only here.
            if t.contains("bv") || t.contains("(_ ") || t.contains("select") || t.contains("store")
            {
                skipped += 1;
                continue;
            }
            let Some(shown) = rewritten_smt(&t) else {
                continue;
            };
            let mut names: Vec<&str> = t
                .split(|c: char| c == '(' || c == ')' || c.is_whitespace())
                .filter(|w| w.starts_with('|'))
                .collect();
            names.sort();
            names.dedup();
            let mut q = String::from("(reset)\n");
            for n in &names {
                q.push_str(&format!("(declare-const {n} Int)\n"));
            }
            q.push_str(&format!("(assert (not (= {t} {shown})))\n(check-sat)\n"));
            let reply = z3.eval(&q).unwrap();
            assert_eq!(reply.trim(), "unsat", "{}: {t}\nshown: {shown}", e.key);
            checked += 1;
        }
    }
    eprintln!(
        "{checked} of {seen} formulas simplified, each checked ({skipped} not over integers)"
    );
    assert!(
        checked >= 50,
        "only {checked} of {seen} formulas were simplified"
    );
}

/// The length of the interpolants and predicates as the page shows them, over every gallery
/// example with its preset and every bundled lesson (docs/readable-formulas.md):
/// `cargo test --release -p cpa-web --lib shown_formula_lengths -- --ignored --nocapture`.
#[test]
#[ignore]
fn shown_formula_lengths() {
    use crate::present::formula::{pretty_at, Ranges};
    type Run<'a> = (String, &'a str, String, Vec<(String, String)>);
    let mut runs: Vec<Run> = crate::present::examples::EXAMPLES
        .iter()
        .map(|e| {
            (
                e.key.to_string(),
                e.source,
                e.preset.to_string(),
                e.config().set,
            )
        })
        .collect();
    for b in crate::present::lessons::LESSONS {
        let (_, l, e) = crate::present::lessons::load(b.key).unwrap();
        let run = (
            format!("lesson {}", b.key),
            e.source,
            l.preset.clone(),
            l.knobs.clone(),
        );
        runs.push(run);
    }
    let (mut raw_total, mut shown_total, mut n_total, mut wrap_total) = (0, 0, 0, 0);
    let (mut plain_total, mut plain_wrap_total) = (0, 0);
    for (name, source, preset, knobs) in runs {
        let knobs: Vec<(&str, &str)> = knobs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let (located, graph) = shown_formulas(source, &preset, &knobs);
        let texts: Vec<&String> = located.iter().map(|(_, t)| t).collect();
        let shown: usize = located
            .iter()
            .map(|(l, t)| pretty_at(t, &Ranges::at(&graph, *l)).chars().count())
            .sum();
        let wraps = located
            .iter()
            .filter(|(l, t)| pretty_at(t, &Ranges::at(&graph, *l)).contains("wrap"))
            .count();
        wrap_total += wraps;
        let plain: usize = located
            .iter()
            .map(|(_, t)| crate::present::formula::pretty(t).chars().count())
            .sum();
        let plain_wraps = located
            .iter()
            .filter(|(_, t)| crate::present::formula::pretty(t).contains("wrap"))
            .count();
        plain_total += plain;
        plain_wrap_total += plain_wraps;
        let raw: usize = texts.iter().map(|t| t.chars().count()).sum();
        println!(
            "{name:40} {preset:20} {:5} formulas  SMT-LIB {raw:7}  without ranges {plain:7} ({plain_wraps} with wrap)  shown {shown:7} ({wraps} with wrap)",
            texts.len()
        );
        raw_total += raw;
        shown_total += shown;
        n_total += texts.len();
    }
    println!("total: {n_total} formulas, SMT-LIB {raw_total} characters, without ranges {plain_total} ({plain_wrap_total} with a wrap-around), shown {shown_total} ({wrap_total} with a wrap-around)");
}

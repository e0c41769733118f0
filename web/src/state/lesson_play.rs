//! The lesson player's part of the update: opening a lesson (its example and configuration),
//! moving between sections (the run follows each anchor; anchors that need the whole run
//! compute it first) and judging answers.

use crate::present::examples::{self, Example};
use crate::present::lessons;
use crate::protocol::JudgePredicate;
use crate::protocol::RunConfig;
use crate::state::exercise::ExerciseMsg;
use crate::state::lesson::{LessonMsg, LessonState};
use crate::state::link::Program;
use crate::state::{location_line, Action, Command, State};
use cpa_engine::lesson::{predicate, Anchor, Question};
use std::rc::Rc;

impl State {
    pub(crate) fn lesson_msg(&mut self, m: LessonMsg, cmds: &mut Vec<Command>) {
        match m {
            LessonMsg::Open(key) if key.is_empty() => self.lesson = None,
            LessonMsg::Open(key) => self.open_lesson(&key, 0, cmds),
            LessonMsg::Go(n) => self.go_section(n),
            LessonMsg::Next => {
                if let Some(s) = self.lesson.as_ref().map(|l| l.section + 1) {
                    self.go_section(s);
                }
            }
            LessonMsg::Back => {
                if let Some(s) = self.lesson.as_ref().and_then(|l| l.section.checked_sub(1)) {
                    self.go_section(s);
                }
            }
            LessonMsg::Answer(given) => {
                let (Some(l), Some(run)) = (&mut self.lesson, &self.pg.run) else {
                    return;
                };
                if let Some(right) = l.judge(&given, &run.events, run.position) {
                    l.answer = Some((given, right));
                }
            }
            LessonMsg::Draft(text) => {
                if let Some(l) = &mut self.lesson {
                    l.draft = text;
                }
            }
            LessonMsg::CheckDraft => self.check_draft(cmds),
            LessonMsg::Judged(generation, r) => {
                if let Some(l) = &mut self.lesson {
                    if let Some(text) = l.settle(generation) {
                        l.answer = Some((text, r.as_ref().is_ok_and(|j| j.accepted)));
                        l.judged = Some(r);
                    }
                }
            }
        }
    }

    /// Sends the typed answer of the section's question to be checked: an invariant as the
    /// invariant exercise, a predicate against the next refinement of the run.
    fn check_draft(&mut self, cmds: &mut Vec<Command>) {
        let Some(l) = &self.lesson else {
            return;
        };
        let text = l.draft.trim().to_string();
        if text.is_empty() || l.checking.is_some() {
            return;
        }
        match l.lesson.sections[l.section].question {
            Some(Question::Invariant(line)) => {
                self.exercise.line = Some(line);
                self.exercise.text = text.clone();
                self.exercise_msg(ExerciseMsg::Check, cmds);
                let generation = self.exercise.generation;
                if let Some(l) = &mut self.lesson {
                    l.answer = None;
                    l.checking = Some((generation, text));
                }
            }
            Some(Question::Predicate) => {
                let Some(run) = &self.pg.run else {
                    return;
                };
                let path = predicate::next_refinement(&run.events, run.position);
                let ask = path.map(|path| JudgePredicate {
                    file: run.file.clone(),
                    source: run.source.to_string(),
                    config: run.config.clone(),
                    path,
                    answer: text.clone(),
                });
                let Some(l) = &mut self.lesson else {
                    return;
                };
                match ask {
                    Some(ask) => {
                        l.asked += 1;
                        l.answer = None;
                        l.checking = Some((l.asked, text));
                        cmds.push(Command::JudgePredicate {
                            generation: l.asked,
                            ask,
                        });
                    }
                    None => {
                        l.answer = Some((text, false));
                        l.judged = Some(Err(
                            "no refinement follows in the run computed so far".into()
                        ));
                    }
                }
            }
            _ => {}
        }
    }

    /// The worker's answer to the invariant check number `generation`: the answer of the
    /// lesson's invariant question if it asked for it.
    pub(crate) fn lesson_invariant_checked(&mut self, generation: u64, proves: bool) {
        if let Some(l) = &mut self.lesson {
            if let Some(text) = l.settle(generation) {
                l.answer = Some((text, proves));
            }
        }
    }

    /// Opens the bundled lesson `key` at section `section`: its example with its
    /// configuration, from the start.
    pub(crate) fn open_lesson(&mut self, key: &str, section: usize, cmds: &mut Vec<Command>) {
        let Ok((b, l, example)) = lessons::load(key) else {
            return;
        };
        let program = Program::Example(example).into_parts();
        self.play_lesson(b.key, None, l, section, Some(program), cmds);
    }

    /// Plays the lesson `text` written in the page (or from a link) at section `section`:
    /// on `program` if given (a link's), else on the program shown, or the gallery example
    /// its header names if that is another one.
    pub(crate) fn open_written_lesson(
        &mut self,
        text: Rc<str>,
        section: usize,
        program: Option<(Option<&'static Example>, String, Rc<str>)>,
        cmds: &mut Vec<Command>,
    ) -> Result<(), String> {
        let l = cpa_engine::lesson::parse(&text)?;
        if l.sections.is_empty() {
            return Err("the lesson has no section yet: add one at a step (key a)".into());
        }
        let program = program.or_else(|| {
            let e = examples::by_path(&l.program)?;
            let shown = self
                .program
                .unedited_example()
                .is_some_and(|s| s.key == e.key)
                || (self.program.file == e.file && *self.program.source == *e.source);
            (!shown).then(|| Program::Example(e).into_parts())
        });
        self.play_lesson("", Some(text), l, section, program, cmds);
        Ok(())
    }

    fn play_lesson(
        &mut self,
        key: &'static str,
        text: Option<Rc<str>>,
        l: cpa_engine::lesson::Lesson,
        section: usize,
        program: Option<(Option<&'static Example>, String, Rc<str>)>,
        cmds: &mut Vec<Command>,
    ) {
        let config = RunConfig {
            preset: l.preset.clone(),
            set: l.knobs.clone(),
        };
        self.url.link_error = None;
        self.url.pending_link = None;
        self.act(Action::Configure(config), cmds);
        self.act(Action::Reset, cmds);
        if let Some((example, file, source)) = program {
            self.load_program(example, file, source, cmds);
        }
        let section = section.min(l.sections.len().saturating_sub(1));
        self.lesson = Some(LessonState {
            key,
            text,
            lesson: Rc::new(l),
            section,
            pending: true,
            answer: None,
            draft: String::new(),
            checking: None,
            asked: 0,
            judged: None,
        });
    }

    fn go_section(&mut self, n: usize) {
        if let Some(l) = &mut self.lesson {
            if n < l.lesson.sections.len() {
                l.section = n;
                l.pending = true;
                l.answer = None;
                l.draft.clear();
                l.checking = None;
                l.judged = None;
            }
        }
    }

    /// Moves the run to the section's anchor once the lesson's program and run are there;
    /// an anchor that needs the whole run (a refinement, a line, the verdict) computes the
    /// run to its end first.
    pub(crate) fn lesson_follow(&mut self, cmds: &mut Vec<Command>) {
        let Some(l) = &self.lesson else {
            return;
        };
        if !l.pending || self.program.building || self.url.pending_link.is_some() {
            return;
        }
        let Some(run) = &self.pg.run else {
            return;
        };
        // A predicate question is about the next refinement: the run is computed past it.
        let whole = l.lesson.sections[l.section].question == Some(Question::Predicate);
        let seek = match l.anchor() {
            Anchor::Start if !whole => Some(0),
            Anchor::Event(n) if !whole => Some(n),
            _ if run.finished() => {
                let cfa = run.cfa.clone();
                let line_of = |n: u32| location_line(&cfa, n);
                // An anchor that does not land (the lesson no longer fits the engine, which
                // `cpa lesson check` reports) shows the verdict.
                Some(
                    l.position(&run.events, &line_of)
                        .unwrap_or(run.events.len()),
                )
            }
            _ if run.goal.is_none() && run.pending.is_none() => {
                self.act(Action::Seek(usize::MAX), cmds);
                None
            }
            _ => None,
        };
        if let Some(k) = seek {
            let mut highlight = None;
            if let Some(l) = &mut self.lesson {
                l.pending = false;
                highlight = crate::state::lesson::highlight(&l.lesson.sections[l.section]);
            }
            self.act(Action::Seek(k), cmds);
            // What the section names is highlighted: a state once it is in the ARG shown.
            if let Some(sel) = highlight {
                self.act(Action::Select(Some(sel)), cmds);
            }
        }
    }
}

//! Writing a lesson: its part of the update.

use crate::state::author::{self, AuthorMsg};
use crate::state::{location_line, Command, State, Tab};
use std::rc::Rc;

impl State {
    /// The program's name in a lesson's header: the gallery example's path, or the file
    /// name of a program typed in the page (the link carries its text).
    fn lesson_program(&self) -> String {
        self.program
            .unedited_example()
            .map_or_else(|| self.program.file.clone(), |e| e.repo_path().to_string())
    }

    pub(crate) fn author_msg(&mut self, m: AuthorMsg, cmds: &mut Vec<Command>) {
        if self.author.text.is_empty() || m == AuthorMsg::New {
            self.author.text = author::template(&self.lesson_program(), &self.pg.config);
            self.author.error = None;
        }
        match m {
            AuthorMsg::New => {}
            AuthorMsg::Edit(text) => {
                self.author.text = author::bounded(text);
                self.author.error = None;
            }
            AuthorMsg::AddSection => {
                self.view.tab = Tab::Author;
                let Some(run) = &self.pg.run else {
                    return;
                };
                let n =
                    cpa_engine::lesson::parse(&self.author.text).map_or(0, |l| l.sections.len());
                let section = author::section_at(&run.events, run.position, n + 1);
                let cfa = run.cfa.clone();
                let line_of = |l: u32| location_line(&cfa, l);
                let text = author::insert_section(
                    &self.author.text,
                    &section,
                    &run.events,
                    run.position,
                    &line_of,
                );
                if text.len() > cpa_engine::lesson::MAX_LESSON_BYTES {
                    self.author.error = Some("the lesson is at its size limit (64 KiB)".into());
                } else {
                    self.author.text = text;
                    self.author.error = None;
                }
            }
            AuthorMsg::Play => {
                let text: Rc<str> = Rc::from(self.author.text.as_str());
                self.author.error = self.open_written_lesson(text, 0, None, cmds).err();
            }
            AuthorMsg::Download => cmds.push(Command::Download {
                name: author::file_name(&self.author.text),
                mime: "text/markdown",
                text: self.author.text.clone(),
            }),
        }
    }
}

//! The race's part of the update.

use crate::state::{Command, State};

impl State {
    /// The race's part of the update; opening a row configures the main run with its preset.
    pub(crate) fn race_msg(&mut self, m: crate::state::race::RaceMsg, cmds: &mut Vec<Command>) {
        use crate::state::race::RaceMsg;
        if let RaceMsg::Open(index) = m {
            if let Some(row) = self.race.rows.get(index) {
                let preset = row.preset.to_string();
                self.lesson = None;
                self.act(
                    crate::state::Action::Configure(crate::protocol::RunConfig::preset(&preset)),
                    cmds,
                );
                self.view.tab = crate::state::Tab::Stats;
            }
            return;
        }
        let out = self.race.update(
            m,
            self.program.generation,
            &self.program.file,
            &self.program.source,
        );
        cmds.extend(out.into_iter().map(Command::Race));
    }
}

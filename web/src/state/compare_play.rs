//! Compare mode's part of the update.

use crate::protocol::RunConfig;
use crate::state::compare::{partner, Compare, CompareMsg};
use crate::state::{Action, Command, State};

impl State {
    pub(crate) fn compare_msg(&mut self, m: CompareMsg, cmds: &mut Vec<Command>) {
        match m {
            CompareMsg::Open(preset) => {
                let preset = preset.unwrap_or_else(|| partner(&self.pg.config.preset).to_string());
                self.open_compare(RunConfig::preset(&preset), Default::default(), cmds);
            }
            CompareMsg::Close => {
                if self.compare.take().is_some() {
                    // Whatever the right worker computes stops with it.
                    cmds.push(Command::RunRight(
                        crate::state::playground::Command::RestartWorker,
                    ));
                }
            }
            CompareMsg::Preset(p) => {
                if let Some(c) = &mut self.compare {
                    cmds.extend(
                        c.pg.reduce(Action::Configure(RunConfig::preset(&p)))
                            .into_iter()
                            .map(Command::RunRight),
                    );
                }
            }
            CompareMsg::Sync(s) => {
                if let Some(c) = &mut self.compare {
                    c.sync = s;
                }
            }
            CompareMsg::PhoneRight(r) => {
                if let Some(c) = &mut self.compare {
                    c.phone_right = r;
                }
            }
            CompareMsg::Export { csv } => {
                let (Some(c), Some(left)) = (&self.compare, self.pg.run.as_ref()) else {
                    return;
                };
                let Some(right) = c.pg.run.as_ref() else {
                    return;
                };
                let stem = format!(
                    "{}-{}-vs-{}",
                    self.program.file.trim_end_matches(".c"),
                    left.config.preset,
                    right.config.preset
                );
                cmds.push(if csv {
                    Command::Download {
                        name: format!("{stem}.csv"),
                        mime: "text/csv",
                        text: crate::state::compare::stats_csv(left, right),
                    }
                } else {
                    Command::Download {
                        name: format!("{stem}.svg"),
                        mime: "image/svg+xml",
                        text: crate::state::compare::states_svg(left, right),
                    }
                });
            }
            CompareMsg::Act(a) => {
                if let Some(c) = &mut self.compare {
                    cmds.extend(c.pg.reduce(a).into_iter().map(Command::RunRight));
                }
            }
        }
    }

    /// Opens compare mode with `config` on the right: the right run gets the program the left
    /// one has (and every later change of it).
    pub(crate) fn open_compare(
        &mut self,
        config: RunConfig,
        sync: crate::state::compare::Sync,
        cmds: &mut Vec<Command>,
    ) {
        let mut c = Compare::new(config, sync);
        let program = Action::Program {
            file: self.pg.file.clone(),
            source: self.pg.source.clone(),
            cfa: self.pg.cfa.clone(),
        };
        let mut out = Vec::new();
        if self.program.building {
            out.extend(c.pg.reduce(Action::Building));
        }
        out.extend(c.pg.reduce(program));
        cmds.extend(out.into_iter().map(Command::RunRight));
        self.compare = Some(c);
    }
}

impl State {
    /// `?compare=A,B` (or `?compare=B`): compare mode with `B` on the right and, when given,
    /// `A` on the left. Bounded and validated like a link; a bad value is said, not guessed.
    pub fn compare_param(&mut self, value: &str) -> Vec<Command> {
        let mut cmds = Vec::new();
        let parts: Vec<&str> = value.split(',').map(str::trim).collect();
        let known = |p: &str| cpa_engine::config::Preset::from_name(p).is_some();
        let (left, right): (Option<&str>, &str) = match parts.as_slice() {
            [r] => (None, r),
            [l, r] => (Some(*l).filter(|l| !l.is_empty()), r),
            _ => (None, ""),
        };
        let bad = [left.unwrap_or("predicate-lbe"), right]
            .into_iter()
            .find(|p| !known(p));
        if value.len() > 200 || bad.is_some() {
            let shown: String = bad.unwrap_or(value).chars().take(40).collect();
            self.url.link_error = Some(
                format!("?compare: '{shown}' is not an analysis (give two presets: ?compare=predicate-lbe,impact)")
                    .into(),
            );
            return cmds;
        }
        if let Some(l) = left {
            self.act(Action::Configure(RunConfig::preset(l)), &mut cmds);
        }
        self.compare_msg(CompareMsg::Open(Some(right.to_string())), &mut cmds);
        self.finish_update(&mut cmds);
        cmds
    }
}

//! The address bar follows the state shown: a new history entry when the program or the
//! configuration changed, the same entry otherwise (steps, edits, selection), rewritten at
//! most every [`URL_THROTTLE_MS`] (Chromium's `replaceState` costs 3-4 ms with a long
//! fragment, which was a tenth of a step's time while stepping).

use crate::protocol::RunConfig;
use crate::state::link::Link;
use crate::state::msg::Command;
use crate::state::view::Selection;
use std::rc::Rc;

pub const URL_THROTTLE_MS: u32 = 250;

/// What makes a change of state a new history entry: the example, the file, the
/// configuration.
pub type EntryKey = (String, String, RunConfig);

#[derive(Debug, Default)]
pub struct UrlSync {
    /// The fragment in the address bar (or about to be written there).
    pub fragment: String,
    key: Option<EntryKey>,
    /// The state `fragment` was last computed from.
    last: Option<Link>,
    /// A rewrite of the current entry is waiting for the throttle.
    pending: bool,
    /// Why the link the page was opened with (or went back to) does not open.
    pub link_error: Option<Rc<str>>,
    /// A link's step and selection, shown once its program's CFA is there.
    pub pending_link: Option<(u64, Option<Selection>)>,
}

impl UrlSync {
    /// The page was opened with `fragment`.
    pub fn opened(&mut self, fragment: String) {
        self.fragment = fragment;
    }

    /// Keeps the address bar on `link` (deflated only when the state changed).
    pub fn follow(&mut self, link: Link, key: EntryKey, cmds: &mut Vec<Command>) {
        if self.last.as_ref() == Some(&link) {
            return;
        }
        let fragment = link.encode();
        self.last = Some(link);
        if fragment == self.fragment {
            return;
        }
        let push = self.key.as_ref().is_some_and(|k| *k != key);
        if push {
            // The entry being left keeps its last state; the new one is written at once.
            self.flush(cmds);
            cmds.push(Command::SetUrl {
                fragment: fragment.clone(),
                push: true,
            });
        } else {
            if !self.pending {
                cmds.push(Command::ThrottleUrl);
            }
            self.pending = true;
        }
        self.fragment = fragment;
        self.key = Some(key);
    }

    /// Writes a pending rewrite of the current entry.
    pub fn flush(&mut self, cmds: &mut Vec<Command>) {
        if std::mem::take(&mut self.pending) {
            cmds.push(Command::SetUrl {
                fragment: self.fragment.clone(),
                push: false,
            });
        }
    }

    /// Back or forward to `fragment`: whether it is a state to open (not the one shown). A
    /// rewrite pending for the entry left must not land on the one opened.
    pub fn back_or_forward(&mut self, fragment: &str) -> bool {
        self.pending = false;
        if fragment == self.fragment {
            return false;
        }
        self.fragment = fragment.to_string();
        true
    }
}

//! The page's state: the run reducer ([`playground`]), a run as the page holds it ([`run`]),
//! what is shown ([`view`]), derived views ([`selectors`]) and share links ([`link`]). No
//! browser API here: everything is tested natively.

pub mod export;
pub mod link;
pub mod playground;
pub mod run;
pub mod selectors;
pub mod view;

pub use playground::{Action, Command, Playground};
pub use run::{
    Check, Cursor, Frame, Phase, Refinement, Run, Target, Ticket, DEFAULT_SPEED, SPEEDS, TICK_MS,
};
pub use selectors::{edge_label, event_lines, event_locations, kind_counts, location_line};
pub use view::{GraphKind, PhoneView, Selection, Tab};

//! The page's views. `app` owns the state and lays the page out from the view functions
//! `topbar`, `source_column`, `stage` and `details`, each drawn from its slice of the state;
//! the other files are one component each, rendering its props.

pub mod app;
pub mod arg_view;
pub mod author_panel;
pub mod compare_view;
pub mod controls;
pub mod counterexample_panel;
pub mod details;
pub mod diagnostics;
pub mod editor;
pub mod example_select;
pub mod explain_panel;
pub mod graph_view;
pub mod help_overlay;
pub mod interpolants_panel;
pub mod invariant_panel;
pub mod knobs_panel;
pub mod lbe_stepper;
pub mod lesson_panel;
pub mod node_panel;
pub mod predicate_panel;
pub mod race_panel;
pub mod share_dialog;
pub mod solver_log;
pub mod source_column;
pub mod stage;
pub mod stats_panel;
pub mod topbar;

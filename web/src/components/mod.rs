//! The page's components, one per file. `app` owns the state; the others render props.

pub mod app;
pub mod arg_view;
pub mod controls;
pub mod counterexample_panel;
pub mod diagnostics;
pub mod editor;
pub mod example_select;
pub mod explain_panel;
pub mod graph_view;
pub mod help_overlay;
pub mod interpolants_panel;
pub mod knobs_panel;
pub mod lbe_stepper;
pub mod node_panel;
pub mod share_dialog;
pub mod solver_log;
pub mod stats_panel;

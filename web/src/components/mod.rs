//! The page's components, one per file. `app` owns the state; the others render props.

pub mod app;
pub mod diagnostics;
pub mod editor;
pub mod example_select;
pub mod graph_view;
pub mod lbe_stepper;

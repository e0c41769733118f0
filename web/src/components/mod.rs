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

use crate::state::Msg;
use yew::{Callback, InputEvent, KeyboardEvent, TargetCast};

/// The text of the input element an event comes from (empty if it is none).
fn field_value(e: &impl TargetCast) -> String {
    e.target_dyn_into::<web_sys::HtmlInputElement>()
        .map(|i| i.value())
        .unwrap_or_default()
}

/// The callbacks of a one-line text field: every edit (and every key but Enter) sends
/// `edit` with the field's text, Enter sends `enter`.
pub(crate) fn text_field(
    send: &Callback<Msg>,
    edit: fn(String) -> Msg,
    enter: Msg,
) -> (Callback<InputEvent>, Callback<KeyboardEvent>) {
    let on_input = send.reform(move |e: InputEvent| edit(field_value(&e)));
    let on_key = send.reform(move |e: KeyboardEvent| {
        if e.key() == "Enter" {
            enter.clone()
        } else {
            edit(field_value(&e))
        }
    });
    (on_input, on_key)
}

/// The number a `<select>` of numbers is set to (0 if none).
pub(crate) fn selected_number(e: &yew::Event) -> u32 {
    e.target_dyn_into::<web_sys::HtmlSelectElement>()
        .and_then(|s| s.value().parse().ok())
        .unwrap_or(0)
}

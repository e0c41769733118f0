//! What the page shows and how: the graph under the source, the bottom tabs, the phone's
//! views, and the selection linked across them.

use serde::{Deserialize, Serialize};

/// The graph shown on the left, under the source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GraphKind {
    #[default]
    Cfa,
    Lbe,
}

/// The bottom tabs under the ARG (keys 1–5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tab {
    #[default]
    Refinements,
    Log,
    Stats,
    Counterexample,
    Node,
}

/// On a phone (narrow screens) one view at a time, chosen by tabs; the step bar stays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PhoneView {
    #[default]
    Program,
    Arg,
    Details,
    Graphs,
}

impl PhoneView {
    pub const ALL: [PhoneView; 4] = [
        PhoneView::Program,
        PhoneView::Arg,
        PhoneView::Details,
        PhoneView::Graphs,
    ];

    /// Tab text, `data-testid`, and the CSS class the page gets while it is shown.
    pub fn describe(self) -> (&'static str, &'static str, &'static str) {
        match self {
            PhoneView::Program => ("Program", "phone-tab-program", "phone-program"),
            PhoneView::Arg => ("ARG", "phone-tab-arg", "phone-arg"),
            PhoneView::Details => ("Details", "phone-tab-details", "phone-details"),
            PhoneView::Graphs => ("CFA", "phone-tab-graphs", "phone-graphs"),
        }
    }
}

/// What is selected, linked across the views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Selection {
    /// An ARG state.
    State(u32),
    /// A CFA location.
    Location(u32),
    /// A source line.
    Line(u32),
}
